"""Legal actions and explanations: every legal action of the deciding player (`legal_actions`, in a
fixed order; block and attack declarations and the answers to a choice capped at 512), the ways to play a card (`play_options`,
`permit_options`), and for each card and unit of a player whether it can be used now, or why not
(`explain`). All through engine/legality.py's checks.

`legal_actions_reference` is the same list written plainly — every candidate through the full checks of
engine/legality.py, nothing skipped — and is the rule; `legal_actions` works most candidates out without
building and checking them one by one (it runs on every decision), and must give exactly the reference's
list, in its order (tests/test_legal_actions_fast.py checks it, the one place that does).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeVar

from engine.actions import (
    Action,
    Activate,
    Attack,
    Block,
    Choose,
    Decline,
    Interrupt,
    Pass,
    Play,
    SetCard,
)
from engine.cards import CardDef
from engine.core import MatchState
from engine.keywords import SET_COST
from engine.legality import (
    activate_refusal,
    attack_block_reason,
    can_block,
    describe_pending,
    play_refusal,
    play_slots,
    playable_from,
    refusal,
    set_refusal,
    usable_interrupts,
)
from engine.state import (
    BOARD,
    COMMAND,
    END_FINAL,
    END_START,
    HAND,
    MAIN,
    RELICS,
    Choice,
    Explanation,
    PlayerState,
    Refusal,
)
from engine.targets import (
    TARGET_LIST_CAP,
    choice_slots,
    target_candidates,
    target_combos,
)

#: the pass (an immutable value: one for every list)
_PASS = Pass()


def permit_options(g: MatchState, cid: int, p: int, permit: Choice) -> list[Action]:
    """The play commands that answer permission `permit` with card `cid` (speed ignored, OPP)."""
    d = g.card(cid)
    out: list[Action] = []
    for m in (list(range(1, d.branches + 1)) if d.branches else [None]):
        if play_refusal(g, Play(cid, None, (), m), p, check_targets=False, permit=permit) is not None:
            return []
        for ts in target_combos(g, play_slots(g, cid, p, m), p, cid):
            out.append(Play(cid, None, ts, m))
    return out


def legal_actions(g: MatchState) -> list[Action]:
    """Every legal action of the player who must act (Concede, always legal, is not listed)."""
    d = g.pending
    p = d.player
    if g.outcome is not None or p < 0:
        return []
    if d.kind == "priority":   # (priority_probe's two calls, inline: this runs on every decision; and
        # commands.listed, the Game's legal_actions, has this case written out too: a change here is one there)
        slow_ok = p == g.active and g.win == MAIN and not g.stack
        return _priority_actions(g, p, slow_ok) if _may_act(g, p, slow_ok) else [_PASS]
    if d.kind == "attackers":
        eligible = _eligible_attackers(g, p)
        attacks = _ATTACKS.get(eligible)
        if attacks is None:   # (the list depends on the eligible units alone)
            combos = itertools.chain.from_iterable(itertools.combinations(eligible, k)
                                                   for k in range(len(eligible) + 1))
            attacks = _interned(_ATTACKS, eligible, [Attack(c) for c in itertools.islice(combos, ATTACK_LIST_CAP)])
        return attacks.copy()
    if d.kind == "blockers":
        return _block_actions(g)
    if d.kind == "interrupt":
        assert g.intr is not None
        acts: list[Action] = [Decline()]
        for cid, _, ab in usable_interrupts(g, p, g.intr.event):
            for ts in target_combos(g, choice_slots(g, ab.effect), p, cid):
                acts.append(Interrupt(cid, ts))
        return acts
    if d.kind == "choice":
        ch = g.choice
        assert ch is not None
        n = len(ch.values)
        if ch.kind == "permit":   # docs/formats.md §1: the ordinary play command, or decline
            return [Decline()] + [o for c in ch.values for o in permit_options(g, c, p, ch)]
        pick = itertools.permutations if ch.kind == "order" else itertools.combinations
        opts: list[Action] = [Choose(c) for c in itertools.islice(pick(range(1, n + 1), ch.count),
                                                                  CHOICE_LIST_CAP)]
        if d.can_decline:
            opts.insert(0, Decline())
        return opts
    return []


def legal_actions_reference(g: MatchState) -> list[Action]:
    """Every legal action of the player who must act, by definition: `legal_actions`' list, in its order,
    written for reading (slow: each candidate goes through the full checks).

    - priority: pass; each card in the hand (and, with a permission, the graveyard) — its Voidcast
      plays, then its plays — then each Set card's plays, each in every mode and every way to name its
      targets; Set for each card in the hand; each activated ability of each card in play (board,
      relics, Champion, Seat) with every way to name its targets;
    - attackers: every set of the units that can attack, smallest first (at most ATTACK_LIST_CAP);
    - blockers: every assignment of ready units to attackers, one each, that Guard allows (`block none`
      first; at most BLOCK_LEAF_CAP assignments looked at);
    - an Interrupt: decline, then each usable Interrupt with its targets;
    - a choice: the answers (a permission: decline, then each play it allows)."""
    d = g.pending
    p = d.player
    if g.outcome is not None or p < 0:
        return []
    if d.kind == "priority":
        ps = g.players[p]
        out: list[Action] = [Pass()]
        for cid in (ps.hand + ps.graveyard if ps.permits else ps.hand):
            if g.card(cid).voidcast is not None:
                out += play_options(g, cid, p, voidcast=True)
            out += play_options(g, cid, p)
        for cid in ps.set_cards:
            out += play_options(g, cid, p)
        out += [SetCard(cid) for cid in ps.hand if set_refusal(g, SetCard(cid), p) is None]
        for cid in itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)):
            for n, (_, ab) in enumerate(g.card(cid).act if cid else (), 1):
                if activate_refusal(g, Activate(cid, n), p, check_targets=False) is None:
                    out += [Activate(cid, n, ts) for ts in target_combos(g, choice_slots(g, ab.effect), p, cid)]
        return out
    if d.kind == "attackers":
        eligible = [u for u in g.players[p].units() if attack_block_reason(g, u) is None]
        combos = itertools.chain.from_iterable(itertools.combinations(eligible, k)
                                               for k in range(len(eligible) + 1))
        return [Attack(c) for c in itertools.islice(combos, ATTACK_LIST_CAP)]
    if d.kind == "blockers":
        return [Block(pairs) for pairs in _reference_blocks(g)]
    if d.kind in ("interrupt", "choice"):
        return legal_actions(g)   # (no shortcut there: the reference is legal_actions' own code)
    return []


def _reference_blocks(g: MatchState) -> list[tuple[tuple[int, int], ...]]:
    """Block declarations in `block_assignments`' order: each ready unit of the defender, in slot order,
    blocks nothing or one attacker it can block (C1K 4.2, KW Veiled) that no other unit blocks; a
    declaration with a non-Guard blocker is kept only if every ready Guard unit blocks (KW Guard)."""
    dp = 1 - g.active
    blockers = [u for u in g.players[dp].units() if not g.perms[u].exhausted]
    attackers = [a for a in g.attackers if g.is_unit_in_play(a)]
    options = [[a for a in attackers if can_block(g, b, a) is None] for b in blockers]
    guard = [g.keyword(b, "guard") is not None for b in blockers]
    out: list[tuple[tuple[int, int], ...]] = []
    leaves = 0

    def rec(i: int, acc: tuple[tuple[int, int], ...]) -> None:
        nonlocal leaves
        if leaves >= BLOCK_LEAF_CAP:
            return
        if i == len(blockers):
            leaves += 1
            used = {b for b, _ in acc}
            idle_guard = any(gd and b not in used for b, gd in zip(blockers, guard, strict=True))
            if not (idle_guard and any(not gd and b in used for b, gd in zip(blockers, guard, strict=True))):
                out.append(acc)
            return
        rec(i + 1, acc)
        taken = {a for _, a in acc}
        for a in options[i]:
            if a not in taken:
                rec(i + 1, acc + ((blockers[i], a),))

    rec(0, ())
    return out


#: Actions worked out before, kept to be listed again instead of built again (an action is an immutable
#: value: one object serves every list and every match). Emptied when they grow past _INTERNED_MAX.
_PLAYS: dict[tuple[int, tuple[int, ...], int | None, bool], Play] = {}        # by (card, targets, mode, voidcast)
_ACTIVATES: dict[tuple[int, int, tuple[int, ...]], Activate] = {}            # by (source, n, targets)
_ATTACKS: dict[tuple[int, ...], list[Action]] = {}                          # the list, by eligible attackers
_INTERNED_MAX = 1 << 15


def _new_play(cid: int, ts: tuple[int, ...], m: int | None, vc: bool) -> Play:
    if len(_PLAYS) >= _INTERNED_MAX:
        _PLAYS.clear()
    a = _PLAYS[cid, ts, m, vc] = Play(cid, None, ts, m, vc)
    return a


def _new_activate(cid: int, n: int, ts: tuple[int, ...]) -> Activate:
    if len(_ACTIVATES) >= _INTERNED_MAX:
        _ACTIVATES.clear()
    a = _ACTIVATES[cid, n, ts] = Activate(cid, n, ts)
    return a


def _may_act(g: MatchState, p: int, slow_ok: bool) -> bool:
    """Whether anything of `p`'s (who holds priority; `slow_ok`: Slow speed allowed now) gets past
    `_priority_actions`' first filters: a card in the hand that costs at most p's Influence at a speed
    allowed now (its least cost, Voidcast or not: play_refusal's C1K 2.2 and OPP Slow), an Ambush card
    to Set, an activated ability in play with such a cost, or any Set card or permission (looked at
    in full). False — the usual case — means Pass is the one legal action, known without building
    anything.

    The answer is remembered per player (`MatchState._may_memo`, bookkeeping) with what it was worked
    out from — the Influence, `slow_ok`, and the numbers in the hand and in play — and given again while
    those are equal (a window's passes ask it of the same hand again and again); the definitions behind
    the numbers don't change in place during a match but by Evolve (keywords.evolve_check), which
    forgets it, and a clone starts without it."""
    ps = g.players[p]
    if ps.set_cards or ps.permits:
        return True
    influence = ps.influence
    memo = g._may_memo[p]
    if memo is not None and memo[0] == influence and memo[1] is slow_ok and memo[2] == ps.hand \
            and memo[3] == ps.board and memo[4] == ps.relics and memo[5] == ps.champion and memo[6] == ps.seat:
        return memo[7]
    r = _may_act_scan(g, ps, influence, slow_ok)
    g._may_memo[p] = (influence, slow_ok, ps.hand.copy(), ps.board.copy(), ps.relics.copy(), ps.champion,
                      ps.seat, r)
    return r


def _may_act_scan(g: MatchState, ps: PlayerState, influence: int, slow_ok: bool) -> bool:
    """_may_act's look at the hand and the cards in play."""
    defs = g.defs
    if slow_ok:
        may_set = influence >= SET_COST
        for cid in ps.hand:
            d: CardDef = defs[cid]  # type: ignore[assignment]
            if d.least_cost <= influence or (may_set and "ambush" in d.keywords):
                return True
        for cid in (*ps.board, *ps.relics, ps.champion, ps.seat):
            if cid and defs[cid].act_least <= influence:  # type: ignore[union-attr]
                return True
        return False
    for cid in ps.hand:
        if defs[cid].least_fast_cost <= influence:  # type: ignore[union-attr]
            return True
    for cid in (*ps.board, *ps.relics, ps.champion, ps.seat):
        if cid and defs[cid].act_least_fast <= influence:  # type: ignore[union-attr]
            return True
    return False


def _priority_actions(g: MatchState, p: int, slow_ok: bool) -> list[Action]:
    """legal_actions with priority, once `_may_act` said something besides Pass may be legal (else the
    list is [Pass]): Pass, the plays (per card: Voidcast first, then each mode and its target
    combinations), Set, the activations — what play_options and activate_refusal would give, with the
    checks that depend on the card definition alone worked out when the definition was made
    (CardDef.playable, row, modes, acts, act_least …), the cheapest first, and the target candidates once
    per slot. `slow_ok`: Slow speed allowed now (p is active, in a Main window, the stack empty)."""
    out: list[Action] = [_PASS]
    ps = g.players[p]
    influence = ps.influence
    defs = g.defs
    zone = g.zone
    owner = g.owner
    pools: dict[str, list[int]] = {}   # target_candidates by slot (it depends on the slot and p alone)
    room: tuple[bool, bool] | None = None
    # play_refusal's C1K 2.2 (cost) and OPP Slow (speed_refusal) refuse a card (Voidcast or not) when
    # the least it costs at a speed allowed now is above the player's Influence (the first filter)
    for cid in ps.hand:
        d: CardDef = defs[cid]  # type: ignore[assignment]
        if d.least_fast_cost > influence and (not slow_ok or d.least_cost > influence):
            continue   # (as above)
        if room is None:
            room = (0 in ps.board, 0 in ps.relics)
        if zone[cid] != HAND or owner[cid] != p:   # (not as ps.hand says: the general path)
            out += _card_plays(g, cid, p, slow_ok, room)
            continue
        # play_refusal with playable_from "hand": a type that can't be played, KW Nullify, a full
        # row (voidcast or not); then speed (speed_refusal) and cost (C1K 2.2); slot: none; mode: by
        # construction (KW Thread)
        if not d.playable or (d.row >= 0 and not room[d.row]):
            continue
        vcost = d.voidcast
        if vcost is not None and vcost <= influence and (slow_ok or d.speed == "fast"):
            _plays(g, p, out, pools, cid, d, True)
        if d.cost <= influence and (slow_ok or d.speed != "slow"):
            _plays(g, p, out, pools, cid, d, False)
    if ps.permits:
        room = (0 in ps.board, 0 in ps.relics)
        for cid in ps.graveyard:
            out += _card_plays(g, cid, p, slow_ok, room)
    for cid in ps.set_cards:
        out += play_options(g, cid, p)
    if slow_ok and influence >= SET_COST:
        for cid in ps.hand:
            if "ambush" in defs[cid].keywords:  # type: ignore[union-attr]
                out.append(SetCard(cid))
    perms = g.perms
    for cid in filter(None, (*ps.board, *ps.relics, ps.champion, ps.seat)):
        d = defs[cid]  # type: ignore[assignment]
        if not d.act:
            continue
        if (d.act_least if slow_ok else d.act_least_fast) > influence:
            continue   # every ability refused on cost or speed (see below)
        perm = perms[cid]
        for n, idx, cost, slow, exhaust, once, end_phase, slots in d.acts:
            # activate_refusal's checks, cheapest first: C1K 2.2 cost, OPP Slow, exhausted, once per turn;
            # then the card in play and p's (C1K 3.1), KW Suppress, End Phase timing (C1K 5.3)
            if cost > influence or (slow and not slow_ok) or (exhaust and perm.exhausted) \
                    or (once and perm.used.get(idx) == g.turn):
                continue
            if zone[cid] not in _IN_PLAY or owner[cid] != p or perm.has_status("suppressed") \
                    or (end_phase and g.win not in (END_START, END_FINAL)):
                continue
            for ts in (itertools.islice(itertools.product(*_slot_pools(g, p, pools, slots)),
                                        TARGET_LIST_CAP) if slots else _NO_TARGETS):
                out.append(_ACTIVATES.get((cid, n, ts)) or _new_activate(cid, n, ts))
    return out


def only_pass(g: MatchState, p: int) -> bool:
    """Whether Pass is the one legal action of `p`, who holds priority (`legal_actions` would be [Pass]),
    answered without building the list in the usual case (`priority_probe`)."""
    acts = priority_probe(g, p)
    return acts is None or len(acts) == 1


def priority_probe(g: MatchState, p: int) -> list[Action] | None:
    """None when Pass is the one legal action of `p`, who holds priority, as `_priority_actions`' own
    first filters show without building anything (`_may_act`) — the usual case; else the list itself
    (`legal_actions`, which may still be [Pass])."""
    slow_ok = p == g.active and g.win == MAIN and not g.stack
    return _priority_actions(g, p, slow_ok) if _may_act(g, p, slow_ok) else None


def _pool(g: MatchState, p: int, pools: dict[str, list[int]], slot: str) -> list[int]:
    """target_candidates(g, slot, p, _), once per slot in one _priority_actions call."""
    c = pools.get(slot)
    if c is None:
        c = pools[slot] = target_candidates(g, slot, p, 0)
    return c


def _plays(g: MatchState, p: int, out: list[Action], pools: dict[str, list[int]], cid: int, d: CardDef,
           vc: bool) -> None:
    """play_options once play_refusal(check_targets=False) said None: each mode's play_slots (a Unit's
    or Relic's target slot with no legal choice dropped) and target_combos."""
    for m, full in d.modes:
        slots = _live_slots(g, p, pools, full) if full and d.type != "action" else full
        for ts in (itertools.islice(itertools.product(*_slot_pools(g, p, pools, slots)), TARGET_LIST_CAP)
                   if slots else _NO_TARGETS):
            out.append(_PLAYS.get((cid, ts, m, vc)) or _new_play(cid, ts, m, vc))


# (_slot_pools and _live_slots are loops, not comprehensions: a comprehension's names taken from the
# function around it are cells there, made on every call of it — _plays and _priority_actions are hot)
def _slot_pools(g: MatchState, p: int, pools: dict[str, list[int]], slots: Sequence[str]) -> list[list[int]]:
    """The candidates of each slot, in order (`_pool`)."""
    out: list[list[int]] = []
    for s in slots:
        out.append(_pool(g, p, pools, s))
    return out


def _live_slots(g: MatchState, p: int, pools: dict[str, list[int]], slots: Sequence[str]) -> list[str]:
    """The slots with at least one candidate, in order."""
    out: list[str] = []
    for s in slots:
        if _pool(g, p, pools, s):
            out.append(s)
    return out


def _eligible_attackers(g: MatchState, p: int) -> tuple[int, ...]:
    """p's units for which legality.can_attack is True, its checks inline (attack_block_reason): a unit
    of the active player in play, not exhausted, not deploying without Charge (KW Charge), not Rooted
    (KW Rooted), not Suppressed (KW Suppress)."""
    zone, owner, perms, turn, active = g.zone, g.owner, g.perms, g.turn, g.active
    out: list[int] = []
    for u in g.players[p].units():
        if zone[u] != BOARD or owner[u] != active:
            continue
        perm = perms[u]
        if perm.exhausted or (perm.entered_turn == turn and g.keyword(u, "charge") is None) \
                or perm.has_status("rooted") or perm.has_status("suppressed"):
            continue
        out.append(u)
    return tuple(out)


#: target_combos with no slot: one combination, naming nothing
_NO_TARGETS: tuple[tuple[int, ...]] = ((),)
#: the zones of cards in play (MatchState.in_play)
_IN_PLAY = (BOARD, RELICS, COMMAND)


def _card_plays(g: MatchState, cid: int, p: int, slow_ok: bool, room: tuple[bool, bool]) -> list[Action]:
    """A card's plays by play_options, after its cheap filters (a card from the graveyard under a permission)."""
    out: list[Action] = []
    cd = g.card(cid)
    if cd.voidcast is not None and cd.voidcast <= g.players[p].influence and (cd.speed == "fast" or slow_ok):
        out += play_options(g, cid, p, voidcast=True)
    if cd.cost > g.players[p].influence or (cd.speed == "slow" and not slow_ok) \
            or (cd.type == "unit" and not room[0]) or (cd.type == "relic" and not room[1]):
        return out
    return out + play_options(g, cid, p)


def play_options(g: MatchState, cid: int, p: int, voidcast: bool = False) -> list[Action]:
    if playable_from(g, cid, p) is None:
        return []
    d = g.card(cid)
    modes: list[int | None] = list(range(1, d.branches + 1)) if d.branches else [None]
    out: list[Action] = []
    for m in modes:
        bare = Play(cid, None, (), m, voidcast)
        if play_refusal(g, bare, p, check_targets=False) is not None:
            return []
        slots = play_slots(g, cid, p, m)
        if not slots:
            out.append(bare)   # (no target to name: the play just checked)
            continue
        for ts in target_combos(g, slots, p, cid):
            out.append(Play(cid, None, ts, m, voidcast))
    return out


def block_assignments(g: MatchState) -> list[tuple[tuple[int, int], ...]]:
    """Legal block declarations in a fixed order (`block none` first), at most BLOCK_LEAF_CAP
    candidates examined: past six a side there are hundreds of thousands (7×7: 131k), and
    listing them all would freeze the game. Agents sample blocks instead (engine.sampling)."""
    return [a.pairs for a in _block_actions(g)]  # type: ignore[union-attr]


def _block_actions(g: MatchState) -> list[Action]:
    """legal_actions' Block list (block_assignments)."""
    dp = 1 - g.active
    perms = g.perms
    blockers = tuple([u for u in g.players[dp].units() if not perms[u].exhausted])
    zone = g.zone
    attackers = tuple([a for a in g.attackers if zone[a] == BOARD])
    # what each blocker may block (can_block looks at the pair only), worked out once, not per leaf:
    # can_block's checks inline — the blocker a unit of the defending player in play (and ready: above),
    # the attacker attacking and in play (above), and KW Veiled: only a Veiled unit blocks a Veiled one
    owner = g.owner
    veiled = [perms[a].has_status("veiled") for a in attackers]
    options = tuple([() if not (zone.get(b) == BOARD and owner[b] == dp)
                     else attackers if perms[b].has_status("veiled")
                     else tuple([a for a, v in zip(attackers, veiled, strict=True) if not v])
                     for b in blockers])
    # C1K 4.2 step 3 (guard_refusal, per leaf in O(1)): a declaration with a non-Guard blocker is legal
    # only if every ready Guard unit blocks (the ready Guard units are the Guard units among `blockers`)
    guard = tuple([g.keyword(b, "guard") is not None for b in blockers])
    # (not kept for reuse like the attack lists: measured, a declaration rarely comes back, and keeping
    # cost more than it saved)
    return [Block(pairs) for pairs in _block_leaves(blockers, options, guard)]


def _block_leaves(blockers: tuple[int, ...], options: tuple[tuple[int, ...], ...],
                  guard: tuple[bool, ...]) -> list[tuple[tuple[int, int], ...]]:
    ready_guards = sum(guard)
    out: list[tuple[tuple[int, int], ...]] = []
    n = len(blockers)
    used: set[int] = set()
    leaves = 0

    def rec(i: int, acc: tuple[tuple[int, int], ...], guards: int, others: int) -> None:
        nonlocal leaves
        if leaves >= BLOCK_LEAF_CAP:
            return
        if i == n:   # (no blockers at all: the one leaf)
            leaves += 1
            if not others or guards == ready_guards:
                out.append(acc)
            return
        b = blockers[i]
        g = guard[i]
        if i == n - 1:
            # the last blocker: its leaves here, without a call each (most calls were leaves) — the
            # same leaves, in the same order, counted against the cap the same way
            leaves += 1
            if not others or guards == ready_guards:
                out.append(acc)
            guards += g
            others += not g
            ok = not others or guards == ready_guards
            for a in options[i]:
                if a not in used:
                    if leaves >= BLOCK_LEAF_CAP:
                        return
                    leaves += 1
                    if ok:
                        out.append(acc + ((b, a),))
            return
        rec(i + 1, acc, guards, others)
        for a in options[i]:
            if a not in used:
                used.add(a)
                rec(i + 1, acc + ((b, a),), guards + g, others + (not g))
                used.discard(a)

    rec(0, (), 0, 0)
    return out


_K = TypeVar("_K")


def _interned(cache: dict[_K, list[Action]], key: _K, actions: list[Action]) -> list[Action]:
    """Keep a list in _ATTACKS, emptied when the lists it holds would pass _INTERNED_MAX actions in all
    (a list has up to 512: a count of lists would not bound the memory; a longer list is kept alone)."""
    global _kept
    if _kept + len(actions) > _INTERNED_MAX:
        cache.clear()
        _kept = 0
    _kept += len(actions)
    cache[key] = actions
    return actions


#: the actions in the lists of _ATTACKS
_kept = 0


def explain(g: MatchState, player: int) -> list[Explanation]:
    """For each card in hand, each activated ability and each unit (attack/block): legal now, or why not."""
    out: list[Explanation] = []
    ps = g.players[player]
    for cid in ps.hand + ps.set_cards:   # (a Set card is played from the Set zone)
        d = g.card(cid)
        r = refusal(g, Play(cid), player) if g.pending.player != player or g.pending.kind != "priority" \
            else None
        if r is not None and r.rule == "KW Thread":
            r = None   # a Thread card is refused only for lacking its mode: look at its options
        if r is None:
            opts = play_options(g, cid, player)
            if not opts:
                thread = [e for e in d.effect if e.do == "thread"]
                mode = 1 if thread else None
                r = play_refusal(g, Play(cid, None, (), mode), player, check_targets=False)
                if r is None:
                    r = Refusal("C1K 6", f"{d.name} has no legal target now")
            if r is None:
                out.append(Explanation(cid, f'play "{d.name}"', True, examples=tuple(str(o) for o in opts[:3])))
                continue
        out.append(Explanation(cid, f'play "{d.name}"', False, r.rule, r.reason))
    for cid in g.permanents(player):
        for n in range(1, len(g.activated(cid)) + 1):
            a = Activate(cid, n)
            r = refusal(g, a, player) if g.pending.player != player else None
            if r is None:
                r = (Refusal(g.pending.rule, f"you can't do that now: {describe_pending(g)}")
                     if g.pending.kind != "priority" else activate_refusal(g, a, player, check_targets=False))
            label = f"activate {g.card(cid).name}" + (f" {n}" if n > 1 else "")
            out.append(Explanation(cid, label, r is None, r.rule if r else "", r.reason if r else ""))
    for cid in ps.units():
        if player == g.active:
            r = attack_block_reason(g, cid)
            if r is None and g.pending.kind != "attackers":
                r = Refusal("C1K 4.1", "attackers are declared in combat.declare_attackers")
            out.append(Explanation(cid, f"attack with {g.card(cid).name}", r is None,
                                   r.rule if r else "", r.reason if r else ""))
        else:
            if g.pending.kind != "blockers":
                r = Refusal("C1K 4.2", "blockers are declared in combat.declare_blockers, after attackers")
            else:
                rs = [can_block(g, cid, a) for a in g.attackers]
                r = None if any(x is None for x in rs) else (rs[0] if rs else
                                                             Refusal("C1K 4.2", "nothing is attacking"))
            out.append(Explanation(cid, f"block with {g.card(cid).name}", r is None,
                                   r.rule if r else "", r.reason if r else ""))
    return out


#: legal_actions() lists at most this many candidate block declarations (see block_assignments)
BLOCK_LEAF_CAP = 512
#: ... at most this many attack declarations (2^n for n ready units: the first 512 in order, `attack` with
#: none first, then one unit, two units …; a full list past nine units would freeze a wide board)
ATTACK_LIST_CAP = 512
#: ... and at most this many answers to one choice (discarding k of n cards, ordering n Flux effects: n!)
CHOICE_LIST_CAP = 512


__all__ = [
    "ATTACK_LIST_CAP", "BLOCK_LEAF_CAP", "CHOICE_LIST_CAP", "block_assignments", "explain",
    "legal_actions", "legal_actions_reference", "only_pass", "permit_options", "play_options", "priority_probe",
]
