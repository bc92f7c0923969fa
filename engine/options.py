"""Legal actions and explanations: every legal action of the deciding player (`legal_actions`, in a
fixed order; block and attack declarations and the answers to a choice capped at 512), the ways to play a card (`play_options`,
`permit_options`), and for each card and unit of a player whether it can be used now, or why not
(`explain`). All through engine/legality.py's checks.
"""

from __future__ import annotations

import itertools

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
from engine.core import MatchState
from engine.keywords import SET_COST
from engine.legality import (
    activate_refusal,
    attack_block_reason,
    can_attack,
    can_block,
    describe_pending,
    play_refusal,
    play_slots,
    playable_from,
    refusal,
    usable_interrupts,
)
from engine.state import (
    MAIN,
    Choice,
    Explanation,
    Refusal,
)
from engine.targets import choice_slots, target_combos

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
    if d.kind == "priority":
        out: list[Action] = [_PASS]
        ps = g.players[p]
        slow_ok = p == g.active and g.win == MAIN and not g.stack
        influence = ps.influence
        defs = g.defs
        # cheap filters first (each one a check play_refusal / activate_refusal would refuse on, so
        # skipping here changes nothing); play_options and activate_refusal then check everything
        room = (0 in ps.board, 0 in ps.relics)
        for cid in (ps.hand + ps.graveyard if ps.permits else ps.hand):
            cd = defs[cid]
            assert cd is not None
            if cd.voidcast is not None and cd.voidcast <= influence and (cd.speed == "fast" or slow_ok):
                out += play_options(g, cid, p, voidcast=True)
            if cd.cost > influence or (cd.speed == "slow" and not slow_ok) \
                    or (cd.type == "unit" and not room[0]) or (cd.type == "relic" and not room[1]):
                continue
            out += play_options(g, cid, p)
        for cid in ps.set_cards:
            out += play_options(g, cid, p)
        if slow_ok and influence >= SET_COST:
            for cid in ps.hand:
                if "ambush" in defs[cid].keywords:  # type: ignore[union-attr]
                    out.append(SetCard(cid))
        perms = g.perms
        for cid in itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)):
            if not cid:
                continue
            act = defs[cid].act  # type: ignore[union-attr]
            if not act:
                continue
            perm = perms[cid]
            for n in range(1, len(act) + 1):
                idx, ab = act[n - 1]
                spec = ab.activate
                assert spec is not None
                if spec.cost > influence or (spec.speed == "slow" and not slow_ok) \
                        or (spec.exhaust and perm.exhausted) \
                        or (spec.once_per_turn and perm.used.get(idx) == g.turn):
                    continue
                if activate_refusal(g, Activate(cid, n), p, check_targets=False) is None:
                    for ts in target_combos(g, choice_slots(g, ab.effect), p, cid):
                        out.append(Activate(cid, n, ts))
        return out
    if d.kind == "attackers":
        eligible = [u for u in g.players[p].units() if can_attack(g, u)]
        combos = itertools.chain.from_iterable(itertools.combinations(eligible, k)
                                               for k in range(len(eligible) + 1))
        return [Attack(c) for c in itertools.islice(combos, ATTACK_LIST_CAP)]
    if d.kind == "blockers":
        return [Block(pairs) for pairs in block_assignments(g)]
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
        if ch.kind == "permit":   # formats.md §1: the ordinary play command, or decline
            return [Decline()] + [o for c in ch.values for o in permit_options(g, c, p, ch)]
        pick = itertools.permutations if ch.kind == "order" else itertools.combinations
        opts: list[Action] = [Choose(c) for c in itertools.islice(pick(range(1, n + 1), ch.count),
                                                                  CHOICE_LIST_CAP)]
        if d.can_decline:
            opts.insert(0, Decline())
        return opts
    return []


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
    dp = 1 - g.active
    perms = g.perms
    blockers = [u for u in g.players[dp].units() if not perms[u].exhausted]
    attackers = [a for a in g.attackers if g.is_unit_in_play(a)]
    # what each blocker may block (can_block looks at the pair only), worked out once, not per leaf
    options = [[a for a in attackers if can_block(g, b, a) is None] for b in blockers]
    # C1K 4.2 step 3 (guard_refusal, per leaf in O(1)): a declaration with a non-Guard blocker is legal
    # only if every ready Guard unit blocks (the ready Guard units are the Guard units among `blockers`)
    guard = [g.keyword(b, "guard") is not None for b in blockers]
    ready_guards = sum(guard)
    out: list[tuple[tuple[int, int], ...]] = []
    n = len(blockers)
    used: set[int] = set()
    leaves = 0

    def rec(i: int, acc: tuple[tuple[int, int], ...], guards: int, others: int) -> None:
        nonlocal leaves
        if leaves >= BLOCK_LEAF_CAP:
            return
        if i == n:
            leaves += 1
            if not others or guards == ready_guards:
                out.append(acc)
            return
        rec(i + 1, acc, guards, others)
        b = blockers[i]
        g = guard[i]
        for a in options[i]:
            if a not in used:
                used.add(a)
                rec(i + 1, acc + ((b, a),), guards + g, others + (not g))
                used.discard(a)

    rec(0, (), 0, 0)
    return out


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
