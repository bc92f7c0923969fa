"""Legality: why an action is not legal now (`refusal`, and one function per kind of action). Every
refusal names its rule (`Refusal(rule, reason)`), and gives the true reason (rules.md §3). A hidden card
gets the answer of one that exists nowhere (rules.md §7a). `legal_actions` (engine/options.py) and
`why_not` use these same checks, so the list and the reasons can't disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import (
    Action,
    Activate,
    Attack,
    Block,
    Choose,
    Concede,
    Decline,
    Interrupt,
    Pass,
    Play,
    SetCard,
)
from engine.cards import Ability
from engine.core import MatchState
from engine.keywords import SET_COST, guard_refusal, targetable
from engine.state import (
    DRAW_POST,
    END_FINAL,
    END_START,
    GRAVEYARD,
    HAND,
    INFLUENCE_RESPONSE,
    MAIN,
    SET,
    ZONE_NAMES,
    Choice,
    Decision,
    Refusal,
)
from engine.targets import (
    choice_slots,
    target_candidates,
)
from engine.voidcast import play_cost


def refusal(g: MatchState, action: Action, player: int) -> Refusal | None:
    """Why `player` may not take `action` now (None if legal). Every refusal names its rule: the match
    is over (RULES 1), it isn't the player's turn to decide (C1K 10), then the action's own checks
    (`REFUSE`, one function per command)."""
    if g.outcome is not None:
        return Refusal("RULES 1", f"the match is over ({g.outcome})")
    if isinstance(action, Concede):
        return None
    r = turn_refusal(g, player)
    if r is not None:
        return r
    check = REFUSE.get(type(action))
    if check is None:
        return Refusal("C1K 10", "unknown action")
    return check(g, action, player, g.pending)


def _refuse_pass(g: MatchState, a: Pass, player: int, d: Decision) -> Refusal | None:
    if d.kind != "priority":
        return Refusal(d.rule, f"there is no priority to pass: {describe_pending(g)}")
    return None


def _not_priority(g: MatchState, d: Decision) -> Refusal | None:
    if d.kind != "priority":
        return Refusal(d.rule, f"you can't do that now: {describe_pending(g)}")
    return None


def _refuse_play(g: MatchState, a: Play, player: int, d: Decision) -> Refusal | None:
    if d.kind == "choice" and g.choice is not None and g.choice.kind == "permit":
        return play_refusal(g, a, player, permit=g.choice)   # the answer to a play permission
    return _not_priority(g, d) or play_refusal(g, a, player)


def _refuse_activate(g: MatchState, a: Activate, player: int, d: Decision) -> Refusal | None:
    return _not_priority(g, d) or activate_refusal(g, a, player)


def _refuse_set(g: MatchState, a: SetCard, player: int, d: Decision) -> Refusal | None:
    return _not_priority(g, d) or set_refusal(g, a, player)


def _refuse_attack(g: MatchState, a: Attack, player: int, d: Decision) -> Refusal | None:
    if d.kind != "attackers":
        return Refusal("C1K 4.1", "attackers are declared only at the start of combat "
                                  "(combat.declare_attackers), by the active player")
    return attack_refusal(g, a, player)


def _refuse_block(g: MatchState, a: Block, player: int, d: Decision) -> Refusal | None:
    if d.kind != "blockers":
        return Refusal("C1K 4.2", "blockers are declared only in combat.declare_blockers, "
                                  "by the defending player")
    return block_refusal(g, a, player)


def _refuse_interrupt(g: MatchState, a: Interrupt, player: int, d: Decision) -> Refusal | None:
    if d.kind != "interrupt":
        return Refusal("C1K 7", "Interrupts are used only when the game asks (when their event happens)")
    return interrupt_refusal(g, a, player)


def _refuse_decline(g: MatchState, a: Decline, player: int, d: Decision) -> Refusal | None:
    if d.kind == "choice":
        return None if d.can_decline else Refusal(d.rule, "this choice can't be declined")
    if d.kind != "interrupt":
        return Refusal("C1K 7", "Interrupts are used only when the game asks (when their event happens)")
    return None


def _refuse_choose(g: MatchState, a: Choose, player: int, d: Decision) -> Refusal | None:
    if d.kind != "choice":
        return Refusal(d.rule, f"there is no choice to answer: {describe_pending(g)}")
    ch = g.choice
    assert ch is not None
    n = len(ch.values)
    if n == 0:
        return Refusal(d.rule, "there is nothing to choose: decline")
    if any(not 1 <= k <= n for k in a.options):
        return Refusal(d.rule, f"options are numbered 1 to {n}")
    if len(set(a.options)) != len(a.options):
        return Refusal(d.rule, "each option can be chosen once")
    if len(a.options) != ch.count:
        return Refusal(d.rule, f"choose exactly {ch.count} option(s)")
    if ch.kind == "permit":   # `choose n` plays a card that needs no target and no mode
        c = ch.values[a.options[0] - 1]
        r = play_refusal(g, Play(c), player, check_targets=False, permit=ch)
        if r is None and g.card(c).type == "action" and play_slots(g, c, player, None):
            r = Refusal("C1K 6", f"{g.card(c).name} needs targets: answer with "
                                 f"'play \"{g.card(c).name}\" target …'")
        return r
    return None


def turn_refusal(g: MatchState, player: int) -> Refusal | None:
    """C1K 10: only the player the game waits for may act. The reason is neutral: what the other
    player is deciding is theirs to know (rules.md §7a)."""
    d = g.pending
    if d.player == player:
        return None
    who = g.players[d.player].name if d.player >= 0 else "nobody"
    name = g.players[player].name if player in (0, 1) else "nobody"
    return Refusal("C1K 10", f"{name} cannot act now: waiting for {who} (acting out of priority order)")


def describe_pending(g: MatchState) -> str:
    d = g.pending
    return {
        "priority": "act or pass with priority",
        "attackers": "declare attackers",
        "blockers": "declare blockers",
        "interrupt": "use or decline an Interrupt",
        "choice": "answer a choice",
    }.get(d.kind, "nothing (the match is over)")


def playable_from(g: MatchState, cid: int, p: int) -> str | None:
    z = g.zone[cid]
    if g.owner[cid] != p:
        return None
    if z == HAND:
        return "hand"
    if z == SET:
        return "set"
    if z == GRAVEYARD:
        t = g.card(cid).type
        for zone, ctype, until in g.players[p].permits:
            if zone == "graveyard" and ctype in ("any", t) and permit_active(g, until):
                return "graveyard"
    return None


def permit_active(g: MatchState, until: int, next_turn: bool = False) -> bool:
    """A duration permission's `until`: a turn number (it lasts through that turn), or -seq: as long as
    the card that entered play with that seq stays in play (OPP "as long as")."""
    if until < 0:
        return any(perm.seq == -until for perm in g.perms.values())
    return until > g.turn if next_turn else until >= g.turn


def speed_refusal(g: MatchState, speed: str, p: int, what: str) -> Refusal | None:
    """OPP Slow / Fast: Slow only for AP, in main.priority, on an empty stack."""
    if speed == "slow":
        if p != g.active:
            return Refusal("OPP Slow", f"{what} is Slow: only the active player may do that, in their own "
                                       "Main Phase")
        if g.win != MAIN:
            extra = " (only Fast actions after the draw)" if g.win == DRAW_POST else ""
            return Refusal("OPP Slow", f"{what} is Slow: only in main.priority, not in {g.window}{extra}")
        if g.stack:
            return Refusal("OPP Slow", f"{what} is Slow: only with an empty stack (respond with Fast actions)")
    return None


def play_refusal(g: MatchState, a: Play, p: int, check_targets: bool = True,
                 permit: Choice | None = None) -> Refusal | None:
    """Why playing `a` is illegal for p now. `permit`: the play answers that special play permission
    (OPP): it overrides speed and zone, and its card must be one the permission allows."""
    cid = a.card
    if not g.exists(cid) or not g.visible_to(cid, p):   # (hidden = nonexistent: §7a)
        return Refusal("AS Unit play", f"#{cid} is not a card you can play (not in your hand)")
    d = g.card(cid)
    where = "permit" if permit is not None else playable_from(g, cid, p)
    if permit is not None and cid not in permit.values:
        allowed = ", ".join(g.label(c) for c in permit.values) or "nothing"
        return Refusal("OPP Permissions", f"{d.name} is not a card this permission lets you play "
                                          f"(it allows: {allowed})")
    if where is None:
        zone = ZONE_NAMES[g.zone[cid]]
        if g.zone[cid] == GRAVEYARD and g.owner[cid] == p:
            return Refusal("OPP Permissions", f"{d.name} is in your graveyard: you need a permission to play it")
        return Refusal("AS Unit play", f"{d.name} is not in your hand (it is in {'your' if g.owner[cid] == p else 'the opponent’s'} {zone})")
    if d.type not in ("unit", "relic", "action"):
        return Refusal("AS Unit play", f"{d.name} is a {d.type} and can't be played")
    if a.voidcast and d.voidcast is None:
        return Refusal("KW Voidcast", f"{d.name} has no Voidcast cost")
    if d.hand_interrupt is not None:
        return Refusal("KW Nullify", f"{d.name} is not played: it is used from your hand as an Interrupt "
                                     "when your opponent plays an Action")
    rule = "AS Unit play" if d.type == "unit" else ("AS Action play" if d.type == "action" else "AS Unit play")
    # Set/Ambush (Veil, C1K §9 "visibility affects timing legality"): a Set card is played at Fast speed
    r = None if permit is not None else speed_refusal(g, "fast" if where == "set" else d.speed, p, d.name)
    if r:
        if d.type == "unit" and g.win == INFLUENCE_RESPONSE:
            return Refusal("C1K 2.3", f"{d.name} is a Slow Unit: in the Influence Phase only Fast Units may be "
                                      "deployed")
        return r
    ps = g.players[p]
    cost = 0 if permit is not None and permit.free else play_cost(d, a.voidcast)
    if cost > ps.influence:
        return Refusal("COST", f"{d.name} costs {cost} Influence{' (Voidcast)' if a.voidcast else ''}; "
                                  f"you have {ps.influence}")
    if d.type == "unit" and 0 not in ps.board:
        return Refusal(rule, "all your unit slots are full")
    if d.type == "relic" and 0 not in ps.relics:
        return Refusal(rule, "all your relic slots are full")
    if a.slot is not None:
        slots = ps.relics if d.type == "relic" else ps.board
        if d.type == "action":
            return Refusal(rule, "only Units and Relics take a slot")
        if not 1 <= a.slot <= len(slots):
            return Refusal(rule, f"slots are numbered 1 to {len(slots)}")
        if slots[a.slot - 1]:
            return Refusal(rule, f"slot {a.slot} is taken by {g.label(slots[a.slot - 1])}")
    n = d.branches
    if a.mode is not None:
        if not 1 <= a.mode <= n:
            return Refusal("KW Thread", f"{d.name} has {'no modes' if not n else f'modes 1 to {n}'}")
    elif n:
        return Refusal("KW Thread", f"{d.name} asks you to choose a branch now: add 'mode 1' … 'mode {n}'")
    if check_targets:
        full = d.play_slots(a.mode)
        if not full:   # (targets_refusal with no slot at all: naming none is right, naming any is refused)
            return Refusal("C1K 6", "this needs no target") if a.targets else None
        return targets_refusal(g, play_slots(g, cid, p, a.mode), a.targets, p, cid, list(full))
    return None


def play_slots(g: MatchState, cid: int, p: int, mode: int | None) -> list[str]:
    """The targets a `play` command must name. A Unit or Relic whose on-play target has no legal
    choice may still be played: that trigger is then removed (it has nothing to do)."""
    d = g.card(cid)
    slots = d.play_slots(mode)   # (card_choice_slots)
    if slots and d.type != "action":
        return [s for s in slots if target_candidates(g, s, p, cid)]
    return list(slots)


def targets_refusal(g: MatchState, slots: list[str], targets: tuple[int, ...], p: int, source: int,
                    full: list[str] | None = None) -> Refusal | None:
    """`full`: the slots before those without any legal choice were dropped (a Unit's on-play target):
    a target named for a dropped slot is refused for its own true reason (e.g. it is Veiled)."""
    if len(targets) != len(slots):
        if full is not None and len(targets) == len(full) and full != slots:
            for slot, t in zip(full, targets, strict=True):
                r = target_refusal(g, slot, t, p, source)
                if r is not None:
                    return r
        if not slots:
            return Refusal("C1K 6", "this needs no target")
        return Refusal("C1K 6", f"name {len(slots)} target(s): {', '.join(s.replace('_', ' ') for s in slots)}")
    for slot, t in zip(slots, targets, strict=True):
        r = target_refusal(g, slot, t, p, source)
        if r is not None:
            return r
    return None


def target_refusal(g: MatchState, slot: str, t: int, p: int, source: int) -> Refusal | None:
    """Why `t` is not a legal choice for a `slot` target of player p — the true reason (rules.md §3):
    every check that fails is the reason, not the first one in the code."""
    if t in target_candidates(g, slot, p, source):
        return None
    known = g.exists(t) and g.visible_to(t, p)
    what = g.label(t) if known else f"#{t}"
    want = slot.replace("_", " ")
    if not known:
        return Refusal("C1K 6", f"{what} is not a legal target: it needs a {want}"
                                f"{' in play' if slot != 'champion' else ''}")
    if slot == "champion":
        return Refusal("C1K 6", f"{what} is not a legal target: it needs a Champion")
    if not g.is_unit_in_play(t):
        where = "a Champion" if g.is_champion(t) else f"in the {ZONE_NAMES[g.zone[t]]}"
        return Refusal("C1K 6", f"{what} is not a legal target: it needs a {want} in play, and it is {where}")
    if slot == "friendly_unit" and g.owner[t] != p:
        return Refusal("C1K 6", f"{what} is not a legal target: it needs a friendly unit (one of yours)")
    if slot == "enemy_unit" and g.owner[t] == p:
        return Refusal("C1K 6", f"{what} is not a legal target: it needs an enemy unit (one of your opponent's)")
    if not targetable(g, t, p):
        return Refusal("KW Veiled", f"{what} is Veiled: your opponent's Veiled units can't be targeted "
                                    "(C1K 9, Veil)")
    return Refusal("C1K 6", f"{what} is not a legal target for this {want}")


def activate_refusal(g: MatchState, a: Activate, p: int, check_targets: bool = True) -> Refusal | None:
    cid = a.source
    if not g.exists(cid) or not g.in_play(cid):
        return Refusal("ACT 1", f"#{cid} is not a card in play")
    d = g.card(cid)
    if g.owner[cid] != p:
        return Refusal("ACT 2", f"{d.name} is not yours: only its controller activates it")
    abilities = g.activated(cid)
    if not abilities:
        return Refusal("ACT 1", f"{d.name} has no activated ability")
    if not 1 <= a.n <= len(abilities):
        return Refusal("ACT 1", f"{d.name} has abilities 1 to {len(abilities)}")
    idx, ab = abilities[a.n - 1]
    act = ab.activate
    assert act is not None
    perm = g.perms[cid]
    if perm.has_status("suppressed"):
        return Refusal("KW Suppress", f"{d.name} is Suppressed: its abilities don't function")
    if act.timing == "end_phase" and g.win not in (END_START, END_FINAL):
        return Refusal("C1K 5.3", f"{d.name}'s ability has End Phase timing: only in the End Phase's priority "
                                  f"windows (end.start, end.final), not in {g.window}")
    r = speed_refusal(g, act.speed, p, f"{d.name}'s ability")
    if r:
        return r
    if act.once_per_turn and perm.used.get(idx) == g.turn:
        return Refusal("ACT 3", f"{d.name}'s ability can be used once per turn and was used this turn")
    if act.exhaust and perm.exhausted:
        return Refusal("COST", f"{d.name} is exhausted: its ability's Exhaust cost can't be paid")
    if act.cost > g.players[p].influence:
        return Refusal("COST", f"the ability costs {act.cost} Influence; you have {g.players[p].influence}")
    if check_targets:
        slots = d.act_slots(a.n)   # (choice_slots(g, ab.effect))
        if not slots:   # (targets_refusal with no slot: naming none is right, naming any is refused)
            return Refusal("C1K 6", "this needs no target") if a.targets else None
        return targets_refusal(g, list(slots), a.targets, p, cid)
    return None


def set_refusal(g: MatchState, a: SetCard, p: int) -> Refusal | None:
    """Set (Veil): a card with Ambush may be set face down for 1 Influence, at Slow timing."""
    cid = a.card
    if not g.exists(cid) or g.zone[cid] != HAND or g.owner[cid] != p:
        return Refusal("KW Set", f"#{cid} is not in your hand")
    d = g.card(cid)
    if "ambush" not in d.keywords:
        return Refusal("KW Set", f"{d.name} can't be Set: only Veil cards with Ambush can")
    r = speed_refusal(g, "slow", p, f"Setting {d.name}")
    if r:
        return Refusal("KW Set", r.reason)
    if g.players[p].influence < SET_COST:
        return Refusal("KW Set", f"Setting a card costs {SET_COST} Influence; you have {g.players[p].influence}")
    return None


def attack_block_reason(g: MatchState, cid: int) -> Refusal | None:
    """Why this unit of the active player can't attack (None if it can)."""
    if g.is_unit_in_play(cid) and g.owner[cid] != g.active:
        return Refusal("C1K 4.1", f"{g.label(cid)} is not yours: only the active player's units attack")
    if not g.is_unit_in_play(cid):
        return Refusal("C1K 4.1", f"#{cid} is not a unit of the attacking player in play")
    perm = g.perms[cid]
    d = g.card(cid)
    if perm.exhausted:
        return Refusal("C1K 4.1", f"{d.name} is exhausted (it attacked or was used): units ready at the start "
                                  "of their controller's turn")
    if perm.entered_turn == g.turn and g.keyword(cid, "charge") is None:
        return Refusal("KW Charge", f"{d.name} entered play this turn and is deploying: only Charge units "
                                    "attack at once")
    if perm.has_status("rooted"):
        return Refusal("KW Rooted", f"{d.name} is Rooted and can't attack")
    if perm.has_status("suppressed"):
        return Refusal("KW Suppress", f"{d.name} is Suppressed and can't attack")
    return None


def can_attack(g: MatchState, cid: int) -> bool:
    """`attack_block_reason(g, cid) is None`, the usual refusals (exhausted; deploying without Charge)
    found without spelling out their reason (any one failed check is a refusal)."""
    perm = g.perms.get(cid)
    if perm is not None and (perm.exhausted or (perm.entered_turn == g.turn and g.keyword(cid, "charge") is None)):
        return False
    return attack_block_reason(g, cid) is None


def attack_refusal(g: MatchState, a: Attack, p: int) -> Refusal | None:
    if len(set(a.units)) != len(a.units):
        return Refusal("C1K 4.1", "each unit attacks once")
    for u in a.units:
        if not g.exists(u):   # (the same answer as a card hidden from the player: §7a)
            return Refusal("C1K 4.1", f"#{u} is not a unit of the attacking player in play")
        r = attack_block_reason(g, u)
        if r:
            return r
    return None


def can_block(g: MatchState, b: int, a: int) -> Refusal | None:
    dp = 1 - g.active
    if not g.exists(b) or not g.is_unit_in_play(b) or g.owner[b] != dp:
        return Refusal("C1K 4.2", f"#{b} is not a unit of the defending player in play")
    if a not in g.attackers or not g.is_unit_in_play(a):
        return Refusal("C1K 4.2", f"#{a} is not attacking")
    if g.perms[b].exhausted:
        return Refusal("C1K 4.2", f"{g.card(b).name} is exhausted and can't block")
    if g.perms[a].has_status("veiled") and not g.perms[b].has_status("veiled"):
        return Refusal("KW Veiled", f"{g.card(a).name} is Veiled: only Veiled units can block it")
    return None


def block_refusal(g: MatchState, a: Block, p: int) -> Refusal | None:
    blockers = [b for b, _ in a.pairs]
    attacked = [x for _, x in a.pairs]
    if len(set(blockers)) != len(blockers):
        return Refusal("C1K 4.2", "a unit blocks one attacker")
    if len(set(attacked)) != len(attacked):
        return Refusal("C1K 4.2", "each attacker can be blocked by at most one unit")
    for b, x in a.pairs:
        r = can_block(g, b, x)
        if r:
            return r
    return guard_refusal(g, blockers)


def usable_interrupts(g: MatchState, p: int, event: str) -> list[tuple[int, int, Ability]]:
    """(card, ability index, ability) of p's usable Interrupts for `event`: abilities of p's cards in
    play, and Nullify Actions in p's hand (index -1)."""
    out: list[tuple[int, int, Ability]] = []
    for cid in g.players[p].hand:
        hi = g.card(cid).hand_interrupt
        if hi is not None and hi.interrupt == event and hi.cost <= g.players[p].influence:
            out.append((cid, -1, hi))
    out += usable_in_play_interrupts(g, p, event)
    return out


def usable_in_play_interrupts(g: MatchState, p: int, event: str) -> list[tuple[int, int, Ability]]:
    """The usable Interrupt abilities of p's cards in play (public: the board, Influence, Suppress)."""
    out: list[tuple[int, int, Ability]] = []
    events = (event, "opponent_declares_attackers") if event == "attacker_declared" and p != g.active \
        else (event,)
    for cid in g.permanents(p):
        perm = g.perms[cid]
        if perm.has_status("suppressed"):
            continue
        for i, ab in enumerate(g.card(cid).abilities):
            if ab.interrupt in events and ab.cost <= g.players[p].influence \
                    and not (ab.once_per_turn and perm.used.get(i) == g.turn):
                out.append((cid, i, ab))
    return out


def may_interrupt(g: MatchState, p: int, event: str) -> bool:
    """Whether p is asked about `event`'s Interrupts (C1K 7), decided from public facts only (rules.md
    §7a: whether a player *could* respond is private). p is asked when they have a usable Interrupt
    on a card in play (the board is public), or — a Nullify, used from the hand — when their hand is
    not empty and one of their Nullify cards for the event that their Influence pays for is in a zone
    hidden from the opponent (hand, library or Set: the public deck list minus the public zones). So
    p is asked whether or not that card is in their hand, and an opponent learns nothing from it."""
    ps = g.players[p]
    if ps.hand:
        defs = g.defs
        for zone in (ps.hand, ps.library, ps.set_cards):
            for cid in zone:
                hi = defs[cid].hand_interrupt  # type: ignore[union-attr]
                if hi is not None and hi.interrupt == event and hi.cost <= ps.influence:
                    return True
    # (usable_in_play_interrupts finds nothing unless one of p's cards in play has an Interrupt ability for
    # the event — its `events`: looked for first, without sorting the cards by entry; asked at every Action
    # and attack)
    events = (event, "opponent_declares_attackers") if event == "attacker_declared" and p != g.active \
        else (event,)
    defs = g.defs
    for c in (*ps.board, *ps.relics, ps.champion, ps.seat):
        if c:
            answers = defs[c].interrupts  # type: ignore[union-attr]   # (its abilities' `interrupt`s)
            if answers and not answers.isdisjoint(events):
                return bool(usable_in_play_interrupts(g, p, event))
    return False


def interrupt_refusal(g: MatchState, a: Interrupt, p: int) -> Refusal | None:
    w = g.intr
    assert w is not None
    for cid, _, ab in usable_interrupts(g, p, w.event):
        if cid == a.source:
            return targets_refusal(g, choice_slots(g, ab.effect), a.targets, p, cid)
    # the true reason it isn't usable (rules.md §3): cost, once per turn, Suppress — or no such Interrupt
    src = a.source
    if g.exists(src) and g.visible_to(src, p) and g.owner[src] == p:
        d = g.card(src)
        abilities = [(-1, d.hand_interrupt)] if d.hand_interrupt is not None and g.zone[src] == HAND \
            else ([(i, ab) for i, ab in enumerate(d.abilities) if ab.interrupt is not None]
                  if g.in_play(src) else [])
        events = (w.event, "opponent_declares_attackers") if w.event == "attacker_declared" else (w.event,)
        for i, ab in abilities:
            if ab.interrupt not in events:
                continue
            perm = g.perms.get(src)
            if perm is not None and perm.has_status("suppressed"):
                return Refusal("KW Suppress", f"{d.name} is Suppressed: its abilities don't function")
            if ab.cost > g.players[p].influence:
                return Refusal("COST", f"{d.name}'s Interrupt costs {ab.cost} Influence; "
                                          f"you have {g.players[p].influence}")
            if perm is not None and ab.once_per_turn and perm.used.get(i) == g.turn:
                return Refusal("ACT 3", f"{d.name}'s Interrupt can be used once per turn and was used this turn")
    return Refusal("C1K 7", f"#{a.source} has no usable Interrupt for this event")


#: each command's own checks (docs/formats.md §1), by the type of its action (Concede: always legal)
REFUSE: dict[type, Callable[[MatchState, Any, int, Decision], Refusal | None]] = {
    Pass: _refuse_pass,
    Play: _refuse_play,
    Activate: _refuse_activate,
    SetCard: _refuse_set,
    Attack: _refuse_attack,
    Block: _refuse_block,
    Interrupt: _refuse_interrupt,
    Decline: _refuse_decline,
    Choose: _refuse_choose,
}



def influence_paid(g: MatchState, p: int, a: Action) -> tuple[int, int] | None:
    """(card number, Influence) that action `a` by seat `p` pays as it is applied — the same costs the
    engine takes: a play (its Voidcast cost when cast for it; 0 under a free permission), a Set, an
    activated ability, an Interrupt — or None when it pays nothing for a card (a pass, an attack …). Read
    before the action is applied (the simulation's per-card Influence, c1k_tui/sim/jobs.py)."""
    if isinstance(a, Play):
        free = g.choice is not None and g.choice.free
        return a.card, 0 if free else play_cost(g.card(a.card), a.voidcast)
    if isinstance(a, SetCard):
        return a.card, SET_COST
    if isinstance(a, Activate):
        ability = g.activated(a.source)[a.n - 1][1]
        return a.source, ability.activate.cost if ability.activate is not None else 0
    if isinstance(a, Interrupt) and g.intr is not None:
        for cid, _idx, ab in usable_interrupts(g, p, g.intr.event):
            if cid == a.source:
                return cid, ab.cost
    return None

__all__ = [
    "influence_paid",
    "REFUSE", "activate_refusal", "attack_block_reason", "attack_refusal", "block_refusal",
    "can_attack", "can_block", "describe_pending", "interrupt_refusal", "may_interrupt",
    "permit_active", "play_refusal", "play_slots", "playable_from", "refusal", "set_refusal",
    "speed_refusal", "target_refusal", "targets_refusal", "turn_refusal", "usable_in_play_interrupts",
    "usable_interrupts",
]
