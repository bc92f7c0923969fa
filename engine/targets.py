"""Targets (C1K 6): who may be chosen for a target slot now (`target_candidates`; Veiled: keywords),
which slots a card or effect asks its player to name (`choice_slots`; a Thread's chosen branch), what an
effect's target word means when it resolves (`resolve_targets`: a chosen target no longer legal is
skipped; random targets come from the match's generator), and every combination (`target_combos`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.cards import CHOICE_TARGETS, Ability, CardDef, Effect
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
    return [c for c in ids if owner[c] == controller or (perm := perms.get(c)) is None
            or not perm.has_status("veiled")]


def choice_slots(g: MatchState, effects: Sequence[Effect], mode: int | None = None) -> list[str]:
    """The chosen targets these effects need, in order (a Thread's branch: the one `mode` picks)."""
    return effect_slots(effects, mode)


def effect_slots(effects: Sequence[Effect], mode: int | None = None) -> list[str]:
    """`choice_slots`, which depends on the effects alone (not on the state)."""
    out: list[str] = []
    for e in effects:
        if e.do == "thread" and e.branches:
            m = (mode or 1) - 1
            if 0 <= m < len(e.branches):
                out += effect_slots(e.branches[m])
        elif e.target in CHOICE_TARGETS:
            out.append(e.target or "")
    return out


def card_choice_slots(g: MatchState, cid: int, mode: int | None) -> list[str]:
    """The choice targets the command playing this card must name, in order."""
    return def_choice_slots(g.card(cid), mode)


#: play_choice_slots by (id(definition), mode), and ability_slots by id(ability), each with the object
#: it was worked out from (kept, so the id stays its own; definitions and abilities are immutable)
_PLAY_SLOTS: dict[tuple[int, int | None], tuple[CardDef, tuple[str, ...]]] = {}
_ABILITY_SLOTS: dict[int, tuple[Ability, tuple[str, ...]]] = {}


def play_choice_slots(d: CardDef, mode: int | None) -> tuple[str, ...]:
    """`def_choice_slots`, worked out once per definition and mode."""
    hit = _PLAY_SLOTS.get((id(d), mode))
    if hit is None:
        hit = _PLAY_SLOTS[id(d), mode] = (d, tuple(def_choice_slots(d, mode)))
    return hit[1]


def ability_slots(ab: Ability) -> tuple[str, ...]:
    """`choice_slots(g, ab.effect)`, worked out once per ability."""
    hit = _ABILITY_SLOTS.get(id(ab))
    if hit is None:
        hit = _ABILITY_SLOTS[id(ab)] = (ab, tuple(effect_slots(ab.effect)))
    return hit[1]


def def_choice_slots(d: CardDef, mode: int | None) -> list[str]:
    """`card_choice_slots` of a card definition (it depends on the definition alone)."""
    if d.type == "action":
        return effect_slots(d.effect, mode)
    out: list[str] = []
    for ab in d.abilities:
        if ab.when == "on_play":
            out += effect_slots(ab.effect, mode)
    return out


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
