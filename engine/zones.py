"""Moving cards between zones: drawing (C1K 1.2, Deck Exhaustion), entering play into a slot (AS Unit
play), leaving play, the graveyard (tokens cease to exist), discarding at random, countering a stack item
(C1K 7), and an Action's trip to the graveyard after it resolves (AS Action play).
"""

from __future__ import annotations

from engine.core import MatchState
from engine.state import (
    BOARD,
    GONE,
    GRAVEYARD,
    HAND,
    RELICS,
    STACK,
    Perm,
    StackItem,
)
from engine.triggers import game_trigger


def draw(g: MatchState, p: int, n: int) -> None:
    ps = g.players[p]
    for _ in range(n):
        if not ps.library:
            g.log(f"  {ps.name} must draw from an empty library: Deck Exhaustion", "draw", p,
                  rule="C1K 1.2")
            game_trigger(g, p, "Deck Exhaustion")
            continue
        c = g.renumber(ps.library.pop(0), HAND)   # a fresh number in the hand (rules.md §7a)
        ps.hand.append(c)
        g.log(f"  {ps.name} draws {g.label(c)}", "draw", p, (c,), 1, rule="C1K 1.2", private_to=p,
              public_text=f"  {ps.name} draws a card")


def leave_play(g: MatchState, cid: int) -> None:
    p = g.owner[cid]
    ps = g.players[p]
    if cid in ps.board:
        ps.board[ps.board.index(cid)] = 0
    if cid in ps.relics:
        ps.relics[ps.relics.index(cid)] = 0
    g.perms.pop(cid, None)
    # it is no longer in combat; an attacker it was blocking stays blocked (by nothing: 0), and a
    # blocker whose attacker left stays a combatant (its end-of-combat triggers, rules.md §5)
    if cid in g.attackers:
        g.attackers = tuple(a for a in g.attackers if a != cid)
    if g.blocks:
        g.blocks = tuple((0 if b == cid else b, 0 if a == cid else a) for b, a in g.blocks
                         if not (b == cid and a == 0) and not (a == cid and b == 0))


def to_graveyard(g: MatchState, cid: int) -> None:
    if g.card(cid).token:
        g.zone[cid] = GONE
        return
    g.players[g.owner[cid]].graveyard.append(cid)
    g.zone[cid] = GRAVEYARD


def enter_play(g: MatchState, cid: int, p: int, slot: int | None, summoned: bool) -> bool:
    """Put a unit or relic into an empty slot of `p`'s (the chosen one, or the first empty one)."""
    d = g.card(cid)
    ps = g.players[p]
    relic = d.type == "relic"
    slots = ps.relics if relic else ps.board
    if slot is None or not (0 <= slot < len(slots)) or slots[slot]:
        if 0 not in slots:   # (slots hold card ids, 0 when empty)
            g.log(f"  {g.label(cid)} has no empty slot and goes to the graveyard", "move", p, (cid,),
                  detail="graveyard", rule="AS Unit play")
            to_graveyard(g, cid)
            return False
        slot = slots.index(0)
    slots[slot] = cid
    g.zone[cid] = RELICS if relic else BOARD
    perm = Perm(g.turn, g.next_seq())
    g.perms[cid] = perm
    kws = d.keywords
    if kws:
        # the printed statuses, sorted (barrier < rooted < veiled)
        for s in ("barrier", "rooted", "veiled"):
            if s in kws:
                perm.statuses.append(s)
        ward = kws.get("ward")
        if ward:
            perm.ward = ward
    if summoned:
        g.log(f"  {g.label(cid)} enters play in slot {slot + 1} (summoned)", "move", p, (cid,), slot + 1, "summoned",
              "AS Unit play")
    else:
        g.log(f"  {g.label(cid)} enters play in slot {slot + 1}", "move", p, (cid,), slot + 1, "play", "AS Unit play")
    return True


def finish_item(g: MatchState, item: StackItem | None) -> None:
    """An Action (or a returning Voidcast card) that has resolved goes to the graveyard (AS Action play)."""
    if item is not None and item.kind in ("card", "voidcast") and g.zone[item.source] == STACK:
        to_graveyard(g, item.source)


def discard_random(g: MatchState, p: int, n: int) -> None:
    ps = g.players[p]
    for _ in range(n):
        if not ps.hand:
            return
        c = ps.hand.pop(g.rng.below(len(ps.hand)))
        to_graveyard(g, c)
        g.log(f"  {ps.name} discards {g.label(c)} at random", "discard", p, (c,), detail="random")


def counter_item(g: MatchState, uid: int) -> None:
    for i, it in enumerate(g.stack):
        if it.uid == uid:
            del g.stack[i]
            if it.kind == "card" and g.zone[it.source] == STACK:
                to_graveyard(g, it.source)
            g.log(f"  {it.name} is countered", "counter", it.controller, (it.source,), rule="C1K 7")
            return


def has_room(g: MatchState, cid: int, p: int) -> bool:
    d = g.card(cid)
    if d.type == "unit":
        return 0 in g.players[p].board
    if d.type == "relic":
        return 0 in g.players[p].relics
    return True


__all__ = [
    "counter_item", "discard_random", "draw", "enter_play", "finish_item", "has_room", "leave_play",
    "to_graveyard",
]
