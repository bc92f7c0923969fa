"""Carrying out a player's action (C1K §10 for refusals: a refused action costs priority): recording
it, its event, then play (AS Unit/Action play: cost, stack, "when you play" triggers, the opponent's
Nullify), Set (KW Set), activate (C1K 3.1), attack and block declarations (C1K 4.1, 4.2; Rally), an
Interrupt (engine/interrupts.py), a choice's answer, a pass (engine/priority.py), or a concession.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.actions import (
    Action,
    Activate,
    Attack,
    Block,
    Choose,
    Concede,
    Decline,
    IllegalAction,
    Interrupt,
    Pass,
    Play,
    SetCard,
)
from engine.combat import combatants
from engine.continuations import AFTER_ACTION, AFTER_DECLARATION, Continuation
from engine.core import LOOP_CAP, LOOP_MARGIN, STACK_CAP, MatchState, RulesLoopError
from engine.decisions import give_priority, resume, set_over
from engine.events import RAW_PASS, EventKind
from engine.interrupts import do_interrupt, next_interrupt, offer_interrupts
from engine.keywords import ATTACK_DECLARED_HOOKS, SET_COST
from engine.legality import refusal
from engine.options import _PASS as _LISTED_PASS
from engine.options import _may_act, _priority_actions, legal_actions, priority_probe
from engine.paradox import choose_branch
from engine.priority import do_pass
from engine.stack import put_on_stack
from engine.state import (
    MAIN,
    SET,
    WINDOW_RULE,
    WINDOWS,
    Decision,
    Outcome,
    StackItem,
    Termination,
    player_name,
)
from engine.triggers import fire, fire_watchers
from engine.turn import after_action, after_declaration, end_phase, goto, next_window
from engine.voidcast import play_cost
from engine.zones import to_graveyard

#: the event kind of each command (Decline of an Interrupt is "interrupt", of a choice "choice")
_COMMAND_KIND: dict[str, EventKind] = {"Pass": "pass", "Play": "play", "Activate": "activate", "Attack": "attack", "Block": "block",
                 "Interrupt": "interrupt", "Decline": "choice", "Choose": "choice", "SetCard": "set",
                 "Concede": "concede"}


#: the seats' names (state.player_name)
_PLAYER_NAMES = (player_name(0), player_name(1))

#: the record line of a pass, by player
_PASS_LINES = (f"{player_name(0)}: {Pass()}", f"{player_name(1)}: {Pass()}")

#: the pass (an immutable value)
_PASS = Pass()


def apply(g: MatchState, action: Action, player: int | None = None) -> None:
    """Carry out `action` for `player` (default: the player who must act).

    An illegal action raises IllegalAction after changing exactly what C1K §10 says: if the player
    held priority, priority passes to the opponent (unless the match is in practice mode). A command
    that runs into a loop cap raises RulesLoopError and changes nothing (rules.md §1, Endless Loop)."""
    if (g._quiet >= LOOP_CAP or len(g.stack) >= _STACK_NEAR) and not g._undo_kept:
        _apply_or_undo(g, action, player)
        return
    if type(action) is Pass and g.outcome is None:
        d = g.pending
        if (player is None or player == d.player) and d.kind == "priority":
            _pass(g, d)
            return
    actor = g.current_player() if player is None else player
    if actor not in (0, 1):
        raise IllegalAction("RULES 1", f"the match is over ({g.outcome})")
    g._sba_settled = False   # an action may change anything (turn.open_priority: the SBA shortcut)
    r = None if _vouched(g, action, actor) else refusal(g, action, actor)
    if r is not None:
        if (not g.options.practice and g.pending.kind == "priority" and g.priority == actor
                and not isinstance(action, Concede)):
            g.record.append(f"{player_name(actor)}: {action}")
            give_priority(g, 1 - actor, g.passed)
            # the attempt may name a card in the typist's hand: the other player sees only the rule
            nxt = g.players[1 - actor].name
            g.log(f"  refused: {player_name(actor)}: {action} — {r.reason} ({r.rule}); priority passes to {nxt}",
                  "refusal", actor, action_cards(action), detail=r.reason, rule=r.rule, private_to=actor,
                  public_text=f"  refused: {player_name(actor)} tried an action not allowed now ({r.rule}); "
                                 f"priority passes to {nxt}", command=len(g.record) - 1)
        elif not isinstance(action, Concede):
            # nothing changed (practice mode, or out of turn): the typist's own note of the attempt, which
            # the other player never sees (no public face: nothing happened that they could know of)
            g.log(f"  refused: {player_name(actor)}: {action} — {r.reason} ({r.rule})",
                  "refusal", actor, action_cards(action), detail=r.reason, rule=r.rule, private_to=actor)
        raise IllegalAction(r.rule, r.reason)
    line = f"{player_name(actor)}: {action}"
    g.record.append(line)
    if not isinstance(action, Pass) and g._quiet:
        g._quiet = 0   # somebody did something: no endless loop (rules.md §1)
        g._loop_seen = {}
    log_command(g, line, action, actor)
    execute(g, action, actor)


def _pass(g: MatchState, d: Decision) -> None:
    """A legal pass of the player `d` (the pending priority decision) gives: the fast path for the most
    common action (4 in 5 in random play), exactly as `apply`'s general path would carry it out
    (refusal None; log_command's "pass" event; execute's do_pass)."""
    actor = d.player
    line = _PASS_LINES[actor]
    rec = g.record
    n = rec.done + len(rec.tail)   # (len(rec): the index of this command)
    rec.tail.append(line)           # (rec.append(line), without the call)
    # g.log(line, "pass", actor, rule=d.rule, command=n) in its short raw form (hot)
    g._events.tail.append((RAW_PASS, g.turn, WINDOWS[g.win], d.rule or WINDOW_RULE[g.win],  # type: ignore[arg-type]
                            actor, line, n))
    if g.stack:
        do_pass(g, actor)
    else:   # do_pass on an empty stack, inlined (hot: most passes)
        g.passed = passed = g.passed | (1 << actor)
        if passed == 3:
            goto(g, next_window(g, g.win))
        else:
            give_priority(g, 1 - actor, passed)


def pass_if_forced(g: MatchState) -> bool:
    """If the player who must decide holds priority and Pass is their one legal action, pass for them —
    exactly as `apply(Pass())` would (the same record, events and state) — and say so; else change
    nothing and say False. What a caller that would take a forced pass anyway (a rollout, a random
    agent) uses instead of listing the legal actions first: `options.only_pass` answers without building
    the list in the usual case."""
    d = g.pending
    if d.kind != "priority" or g.outcome is not None:
        return False
    acts = priority_probe(g, d.player)
    if acts is not None and len(acts) > 1:
        # not forced: the list, kept for the `listed` call that comes next if nothing happens before it
        ev = g._events
        g._probed = (ev.done + len(ev.tail), d, acts)
        return False
    if (g._quiet >= LOOP_CAP or len(g.stack) >= _STACK_NEAR) and not g._undo_kept:
        _apply_or_undo(g, _PASS, None)   # (near a loop cap: as apply does)
    else:
        _pass(g, d)
    return True


def fast_forward(g: MatchState, limit: int | None = None) -> int:
    """Pass for whoever must decide for as long as Pass is all they can do (at most `limit` passes, if
    given): through every window where nobody can act, to the next decision with a choice in it or the
    end of the match. The state, record and events are those of passing one by one. Returns how many
    passes."""
    n = 0
    if limit is None:   # (no comparison with a large default: 1 << 30 is a two-digit int to CPython,
        while pass_if_forced(g):   # and comparing with it leaves the specialized path)
            n += 1
        return n
    while n < limit and pass_if_forced(g):
        n += 1
    return n


#: a stack this high is near its cap (STACK_CAP): a command then runs with a copy kept aside
_STACK_NEAR = STACK_CAP - LOOP_MARGIN


def _apply_or_undo(g: MatchState, action: Action, player: int | None) -> None:
    """`apply` near a loop cap: with a copy kept aside, so that a RulesLoopError (a loop that keeps
    growing the state) leaves the match exactly as it was — the record and the events too."""
    saved = g.clone()
    g._undo_kept = True
    try:
        apply(g, action, player)
    except RulesLoopError:
        g.restore(saved)
        raise
    finally:
        g._undo_kept = False


def listed(g: MatchState) -> list[Action]:
    """`legal_actions()`, remembering the list (and the moment it was made) so that `apply` need not
    check again an action taken from it while nothing has happened since (the Game's legal_actions)."""
    ev = g._events
    n = ev.done + len(ev.tail)
    probed = g._probed
    if probed is not None:   # pass_if_forced's list, if nothing has happened since (as in _vouched)
        g._probed = None
        acts = probed[2] if probed[0] == n and probed[1] is g.pending else legal_actions(g)
    else:
        d = g.pending
        p = d.player
        if d.kind == "priority" and p >= 0 and g.outcome is None:
            # legal_actions' priority case, inlined (hot: most decisions)
            slow_ok = p == g.active and g.win == MAIN and not g.stack
            acts = _priority_actions(g, p, slow_ok) if _may_act(g, p, slow_ok) else [_LISTED_PASS]
        else:
            acts = legal_actions(g)
    g._listed = (n, g.pending, tuple(acts))
    return acts


def _vouched(g: MatchState, action: Action, actor: int) -> bool:
    """Whether `action` is, as an object, one of the actions `listed` for the player who must act, with
    nothing happened since (the events did not grow, the pending decision is the same object): then it
    is legal by construction and `refusal` would find nothing. Anything else is checked as usual."""
    listed = g._listed
    if listed is None:
        return False
    ev = g._events
    d = g.pending
    if listed[1] is not d or actor != d.player or listed[0] != ev.done + len(ev.tail):
        return False
    for a in listed[2]:
        if a is action:
            return True
    return False


def log_command(g: MatchState, line: str, action: Action, actor: int) -> None:
    """The event of a command about to be carried out. Declining an Interrupt is private to the asked
    player: the question is asked on public facts (`legality.may_interrupt`), but what they could have
    answered with is theirs (rules.md §7a)."""
    n = len(g.record) - 1
    d = g.pending
    if isinstance(action, Decline) and d.kind == "interrupt":
        g.log(line, "interrupt", actor, detail="declined", rule="C1K 7", private_to=actor, command=n)
        g._private_commands[actor] += 1
        return
    if isinstance(action, Decline) and g.choice is not None and g.choice.kind == "permit":
        # the same public words as "nothing could be played": the offer says what the hand held
        g.log(line, "choice", actor, detail="declined", rule=d.rule, private_to=actor, command=n,
              public_text=f"  permission: {g.players[actor].name} plays nothing")
        g._private_commands[actor] += 1
        return
    kind = _COMMAND_KIND.get(type(action).__name__, "note")
    if isinstance(action, SetCard):
        # the card named is hidden from the other player: they read that a card was Set, never its number
        # (rules.md §7a); the record keeps the command as typed
        g.log(line, kind, actor, (action.card,), rule=d.rule, command=n, private_to=actor,
              public_text=f"{player_name(actor)}: set a card face down")
        return
    g.log(line, kind, actor, action_cards(action), rule=d.rule, command=n)


def action_cards(action: Action) -> tuple[int, ...]:
    """The cards a command names: its source first, then its targets (attackers; blocker, attacker pairs)."""
    if isinstance(action, Play):
        return (action.card,) + action.targets
    if isinstance(action, (Activate, Interrupt)):
        return (action.source,) + action.targets
    if isinstance(action, SetCard):
        return (action.card,)
    if isinstance(action, Attack):
        return action.units
    if isinstance(action, Block):
        return tuple(c for pair in action.pairs for c in pair)
    return ()


def execute(g: MatchState, action: Action, p: int) -> None:
    """Carry out a legal action: its command's function in EXECUTE (docs/formats.md §1: one per command)."""
    EXECUTE[type(action)](g, action, p)


def do_concede(g: MatchState, a: Concede, p: int) -> None:
    g.outcome = Outcome(Termination.CONCEDED, 1 - p)
    set_over(g)


def do_play_command(g: MatchState, a: Play, p: int) -> None:
    """`play`: an ordinary play, or the answer to a play permission (OPP Permissions)."""
    if g.choice is not None and g.choice.kind == "permit":
        do_permit_play(g, a, p)
    else:
        do_play(g, a, p)


def do_decline(g: MatchState, a: Decline, p: int) -> None:
    """`decline`: a choice that may be declined (a permission), or an Interrupt question."""
    if g.choice is not None:
        ch = g.choice
        g.choice = None
        resume(g, ch.resume)
    else:
        next_interrupt(g)


def do_play(g: MatchState, a: Play, p: int) -> None:
    cid = a.card
    d = g.card(cid)
    ps = g.players[p]
    from_set = g.zone[cid] == SET
    ps.influence -= play_cost(d, a.voidcast)
    if from_set:
        g.log(f"  {ps.name} reveals the Set card {g.label(cid)} (Ambush: Fast)", "move", p, (cid,),
              detail="revealed", rule="KW Ambush")
    put_on_stack(g, cid, p, a.slot - 1 if a.slot is not None else -1, a.targets, a.mode or 0,
                    voidcast=a.voidcast)
    after_play(g, cid, p)


def after_play(g: MatchState, cid: int, p: int) -> None:
    if announce_play(g, cid, p, AFTER_ACTION[p]):
        after_action(g, p)


def announce_play(g: MatchState, cid: int, p: int, then: Continuation) -> bool:
    """A card was played (it is on top of the stack): "when you play a Unit / an Action" triggers
    (C1K 3.2), then the opponent's Interrupts for an Action (C1K 7). False if an Interrupt is asked."""
    d = g.card(cid)
    if d.type in ("unit", "action"):
        fire_watchers(g, "on_unit_played" if d.type == "unit" else "on_action_played", p, cid)
    if d.type == "action":
        if offer_interrupts(g, "opponent_plays_action", (1 - p,), then, item=g.stack[-1].uid):
            return False
    return True


def do_permit_play(g: MatchState, a: Play, p: int) -> None:
    """OPP Permissions: the play command that answers a permission (targets, mode and slot in it)."""
    ch = g.choice
    assert ch is not None
    g.choice = None
    cid = a.card
    d = g.card(cid)
    if not ch.free:
        g.players[p].influence -= play_cost(d, a.voidcast)
    g.log(f"  {g.players[p].name} plays {g.label(cid)} by permission", rule="OPP Permissions")
    put_on_stack(g, cid, p, a.slot - 1 if a.slot is not None else -1, a.targets, a.mode or 0,
                    voidcast=a.voidcast)
    if not announce_play(g, cid, p, ch.resume):
        return
    resume(g, ch.resume)


def do_set(g: MatchState, a: SetCard, p: int) -> None:
    """Set is a special action: it doesn't use the stack, and the player keeps priority."""
    ps = g.players[p]
    ps.influence -= SET_COST
    ps.hand.remove(a.card)
    n = g.renumber(a.card, SET)   # a fresh number in the Set zone, shown to its owner only (rules.md §7a)
    ps.set_cards.append(n)
    g.log(f"  {ps.name} Sets {g.label(n)} face down", "set", p, (n,), SET_COST, rule="KW Set", private_to=p,
          public_text=f"  {ps.name} Sets a card face down")
    give_priority(g, p, 0)


def do_activate(g: MatchState, a: Activate, p: int) -> None:
    idx, ab = g.activated(a.source)[a.n - 1]
    act = ab.activate
    assert act is not None
    perm = g.perms[a.source]
    g.players[p].influence -= act.cost
    if act.exhaust:
        perm.exhausted = True
    if act.once_per_turn:
        perm.used[idx] = g.turn
    name = g.card(a.source).name
    g.stack.append(StackItem(g.next_seq(), "ability", a.source, p, p, name, idx, a.targets, 0, "", 0, -1,
                             g.target_seqs(a.targets)))
    g.log(f"  {name}'s ability → stack ({_PLAYER_NAMES[p]})", "stack", p, (a.source,) + a.targets, a.n, "",
          "ACT 1")
    after_action(g, p)


def do_attack(g: MatchState, a: Attack) -> None:
    if not a.units:
        g.log(f"  {g.players[g.active].name} declares no attack: combat ends", "attack", g.active,
              rule="C1K 4.1")
        goto(g, end_phase(g))
        return
    g.attackers = a.units
    for u in a.units:
        g.perms[u].exhausted = True
    g.log(f"  attackers: {', '.join([g.label(u) for u in a.units])}", "attack", g.active, a.units,
          len(a.units), rule="C1K 4.1")
    for u in a.units:
        fire(g, "on_attack", u)
    for fn in ATTACK_DECLARED_HOOKS:   # Realm hooks (Rally) apply at once, no stack
        fn(g)
    # C1K 7: each player who might use an Interrupt for the event is asked, AP first (rules.md §7a)
    if offer_interrupts(g, "attacker_declared", (g.active, 1 - g.active), AFTER_DECLARATION, attackers=a.units):
        return
    after_declaration(g)


def do_block(g: MatchState, a: Block) -> None:
    g.blocks = a.pairs
    if a.pairs:
        g.log("  blocks: " + ", ".join(f"{g.label(b)} blocks {g.label(x)}" for b, x in a.pairs), "block",
              1 - g.active, tuple(c for pair in a.pairs for c in pair), len(a.pairs), rule="C1K 4.2")
    else:
        g.log(f"  {g.players[1 - g.active].name} declares no blockers", "block", 1 - g.active,
              rule="C1K 4.2")
    for b, _ in a.pairs:
        fire(g, "on_block", b)
    for u in combatants(g):
        fire(g, "start_of_combat", u)
    after_declaration(g)


def do_choose(g: MatchState, a: Choose) -> None:
    ch = g.choice
    assert ch is not None
    g.choice = None
    picked = [ch.values[k - 1] for k in a.options]
    if ch.kind == "discard":
        ps = g.players[ch.player]
        for c in picked:
            ps.hand.remove(c)
            to_graveyard(g, c)
            g.log(f"  {ps.name} discards {g.label(c)}", "discard", ch.player, (c,), rule="C1K 5.2")
    elif ch.kind == "thread":
        choose_branch(g, ch, picked[0])
    elif ch.kind == "order":
        resolution = [g.trigger_queue[ch.values[k - 1]] for k in a.options]
        for pos, t in zip(sorted(ch.values), reversed(resolution), strict=True):
            g.trigger_queue[pos] = replace(t, ordered=True)
        g.log(f"  {g.players[ch.player].name} orders the Flux effects: "
              + ", ".join(t.name for t in resolution), "choice", ch.player, tuple(t.source for t in resolution),
              rule="C1K 8")
    elif ch.kind == "trigger_target":
        assert ch.trigger is not None
        g.trigger_queue.insert(0, replace(ch.trigger, targets=ch.trigger.targets + (picked[0],)))
    elif ch.kind == "permit":
        c = picked[0]
        if not ch.free:
            g.players[ch.player].influence -= g.card(c).cost
        g.log(f"  {g.players[ch.player].name} plays {g.label(c)} by permission", "play",
              ch.player, (c,), g.card(c).cost if not ch.free else 0, "permission", "OPP Permissions")
        put_on_stack(g, c, ch.player, -1, (), 0, targets_later=True)
        if not announce_play(g, c, ch.player, ch.resume):
            return
    resume(g, ch.resume)


#: each command's function (docs/formats.md §1), by the type of its action
EXECUTE: dict[type, Callable[[MatchState, Any, int], None]] = {
    Concede: do_concede,
    Pass: lambda g, a, p: do_pass(g, p),
    Play: do_play_command,
    SetCard: do_set,
    Activate: do_activate,
    Attack: lambda g, a, p: do_attack(g, a),
    Block: lambda g, a, p: do_block(g, a),
    Interrupt: do_interrupt,
    Decline: do_decline,
    Choose: lambda g, a, p: do_choose(g, a),
}


__all__ = [
    "EXECUTE", "action_cards", "after_play", "announce_play", "apply", "do_activate", "do_attack",
    "do_block", "do_choose", "do_concede", "do_decline", "do_permit_play", "do_play", "do_play_command",
    "do_set", "execute", "fast_forward", "listed", "log_command", "pass_if_forced",
]
