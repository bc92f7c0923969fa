"""Triggered abilities waiting for the stack (C1K 8): `fire` queues a card's abilities for an event,
`game_trigger` a rule's own trigger (Deck Exhaustion); `trigger_order` is the push order of simultaneous
triggers (NAP's first, AP's on top; C1K 8.2 ranks within one player). Putting them on the stack, with
target and branch choices, is engine/stack.py's work.
"""

from __future__ import annotations

import itertools

from engine.cards import Ability, CardDef
from engine.core import MatchState
from engine.state import (
    Perm,
    Trigger,
)

# (Genesis transformations — Evolve — happen with state-based actions, before any buff trigger resolves)
RANK_DESTRUCTION, RANK_OTHER = 0, 2


def fire(g: MatchState, when: str, cid: int, ctx: int = 0, targets: tuple[int, ...] = (), chosen: bool = False,
         mode: int = 0, tseq: tuple[int, ...] = (), seq: int | None = None) -> None:
    """Queue the `when` abilities of card `cid` (a Suppressed card's abilities don't function).
    `seq`: when the card entered play, for a card that has just left it (last known information)."""
    d: CardDef = g.defs[cid]  # type: ignore[assignment]   # (g.card(cid), inlined: hot)
    if when not in d.whens:   # (most cards have no ability for this event: the cheapest check first)
        return
    perm = g.perms.get(cid)
    if perm is not None and perm.has_status("suppressed"):
        return
    if seq is None:
        seq = perm.seq if perm is not None else 0
    for i, ab in enumerate(d.abilities):
        if ab.when == when:
            g.triggers.append(Trigger(g.controller(cid), cid, i, d.name, seq, trigger_rank(d, ab),
                                      "trigger", "", ctx, targets, chosen, mode, False, tseq))


def answering(g: MatchState, p: int, when: str, but: int = 0) -> list[int]:
    """Player p's cards in play with an ability for `when` (but `but`), in the order they entered play:
    `g.permanents(p)` filtered by fire's own first check before sorting (most cards answer nothing)."""
    ps = g.players[p]
    defs = g.defs
    found: list[int] = []   # (a loop, not a comprehension: whose names would be cells, made every call)
    for c in itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)):
        if c and c != but and when in defs[c].whens:  # type: ignore[union-attr]
            found.append(c)
    if len(found) < 2:
        return found
    return by_entry(g.perms, found)


def by_entry(perms: dict[int, Perm], found: list[int]) -> list[int]:
    """`found` (cards in play) in the order they entered play."""
    return [c for _, c in sorted([(perms[c].seq, c) for c in found])]


def fire_watchers(g: MatchState, when: str, p: int, ctx: int) -> None:
    """Player p's cards in play that watch for `when` (by entry order), but `ctx` itself."""
    for cid in answering(g, p, when, ctx):
        fire(g, when, cid, ctx)


def game_trigger(g: MatchState, p: int, name: str) -> None:
    g.triggers.append(Trigger(p, 0, -1, name, 0, 0, "game", name))


def trigger_order(g: MatchState, ts: list[Trigger]) -> list[Trigger]:
    """Push order (C1K §8): NAP's first, AP's on top; within a player, lower rank and earlier entry
    resolve first, so they are pushed last."""
    ap = g.active
    return sorted(ts, key=lambda t: (t.controller == ap, -t.rank, -t.seq))


def trigger_rule(g: MatchState, t: Trigger) -> str:
    """The rule a trigger is shown with: its keyword's (Growth, Pulse, Regeneration, Bloom), else C1K 8."""
    if t.keyword:
        return f"KW {t.keyword.capitalize()}"
    if t.kind == "trigger" and t.ability >= 0 and g.card(t.source).abilities[t.ability].when == "on_bloom":
        return "KW Bloom"
    return "C1K 8"


def trigger_rank(d: CardDef, ab: Ability) -> int:
    """C1K 8.2 tie-breaks among one player's simultaneous triggers: Ruin destruction effects first,
    Genesis transformations before stat buffs, then the rest (by the order their sources entered play)."""
    verbs = {e.do for e in ab.effect}
    if d.realm == "ruin" and verbs & {"destroy", "damage"}:
        return RANK_DESTRUCTION
    return RANK_OTHER


__all__ = [
    "answering", "by_entry", "fire", "fire_watchers", "game_trigger", "trigger_order", "trigger_rank",
    "trigger_rule",
]
