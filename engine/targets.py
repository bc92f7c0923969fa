"""Targets (C1K 6): who may be chosen for a target slot now (`target_candidates`; Veiled: keywords),
which slots a card or effect asks its player to name (`choice_slots`; a Thread's chosen branch), what an
effect's target word means when it resolves (`resolve_targets`: a chosen target no longer legal is
skipped; random targets come from the match's generator), and every combination (`target_combos`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.cards import CHOICE_TARGETS, Effect, effect_slots
from engine.core import MatchState
from engine.state import (
    StackItem,
)


def target_candidates(g: MatchState, target: str, controller: int, source: int) -> list[int]:
    opp = 1 - controller
    if target == "unit":
        ids = g.players[g.active].units() + g.players[1 - g.active].units()
    elif target == "friendly_unit":
        ids = g.players[controller].units()
    elif target == "enemy_unit":
        ids = g.players[opp].units()
    elif target == "champion":
        return [g.players[g.active].champion, g.players[1 - g.active].champion]
    else:
        return []
    owner, perms = g.owner, g.perms   # keywords.targetable, inline (Veiled: opponents can't target it)
    out: list[int] = []   # (a loop, not a comprehension: whose names would be cells, made every call)
    for c in ids:
        if owner[c] == controller or (perm := perms.get(c)) is None or not perm.has_status("veiled"):
            out.append(c)
    return out


def choice_slots(g: MatchState, effects: Sequence[Effect], mode: int | None = None) -> list[str]:
    """The chosen targets these effects need, in order (a Thread's branch: the one `mode` picks)."""
    return effect_slots(effects, mode)


def card_choice_slots(g: MatchState, cid: int, mode: int | None) -> list[str]:
    """The choice targets the command playing this card must name, in order."""
    return list(g.card(cid).play_slots(mode))


def thread_effect(g: MatchState, cid: int) -> Effect | None:
    d = g.card(cid)
    for e in d.effect:
        if e.do == "thread":
            return e
    for ab in d.abilities:
        for e in ab.effect:
            if e.do == "thread":
                return e
    return None


def resolve_targets(g: MatchState, e: Effect, controller: int, source: int, chosen: list[int],
                    item: StackItem | None, event: tuple[int, ...] = ()) -> list[int]:
    t = e.target
    opp = 1 - controller
    if t is None:
        return []
    if t in CHOICE_TARGETS:
        if not chosen:
            return []
        c = chosen.pop(0)
        legal = c in target_candidates(g, t, controller, source)
        if legal and item is not None and c in item.targets and item.tseq:
            then = item.tseq[item.targets.index(c)]
            legal = not then or (c in g.perms and g.perms[c].seq == then)
        if not legal:
            g.log(f"  target {g.label(c) if g.exists(c) else c} is no longer legal",
                  actor=controller, cards=(source, c), rule="C1K 6")
            return []
        return [c]
    if t == "self":
        if source and g.card(source).type in ("unit", "relic"):
            return [source] if g.in_play(source) else []   # "this unit" is gone: nothing happens
        return [g.players[controller].champion]
    if t == "enemy_champion":
        return [g.players[opp].champion]
    if t == "friendly_champion":
        return [g.players[controller].champion]
    if t == "all_enemy_units":
        return g.players[opp].units()
    if t == "all_friendly_units":
        return g.players[controller].units()
    if t == "all_units":
        return g.players[g.active].units() + g.players[1 - g.active].units()
    if t == "event":
        return list(event)
    if t.startswith("random_"):
        # a random target (rules.md §7): drawn from the match's generator among the legal ones now
        # (an opponent's Veiled unit can't be targeted, so it is never drawn)
        pool = target_candidates(g, t.removeprefix("random_"), controller, source)
        if not pool:
            return []
        c = pool[g.rng.below(len(pool))]
        g.log(f"  random target: {g.label(c)} (of {len(pool)})")
        return [c]
    return []


def target_combos(g: MatchState, slots: list[str], p: int, source: int) -> list[tuple[int, ...]]:
    if not slots:
        return [()]
    pools = [target_candidates(g, s, p, source) for s in slots]
    return list(itertools.islice(itertools.product(*pools), TARGET_LIST_CAP))


#: target_combos (and so legal_actions) lists at most this many target combinations for one card or ability
TARGET_LIST_CAP = 512


__all__ = [
    "TARGET_LIST_CAP", "card_choice_slots", "choice_slots", "resolve_targets", "target_candidates",
    "target_combos", "thread_effect",
]
