"""legal_actions (engine/options.py) works most candidates out without building and checking them
one by one. Its output — the actions and their order: the random agent picks by index — must be what
the engine's readable rule, `options.legal_actions_reference`, lists (this is the one place that checks
it); and the reference must be the plain definition — every candidate action kept through
`legality.refusal`. Checked on every decision of random matches over several deck pairs."""

from __future__ import annotations

import itertools

import pytest

from engine import options
from engine.actions import (
    Action,
    Activate,
    Attack,
    Block,
    Pass,
    Play,
    SetCard,
)
from engine.cards import MAX_COST, NEVER, SEAT_MODIFIER_BOUNDS, load_card_db
from engine.decks import bundled_deck_paths, load_deck
from engine.game import Game
from engine.legality import (
    play_refusal,
    refusal,
)
from engine.options import ATTACK_LIST_CAP, BLOCK_LEAF_CAP, legal_actions, legal_actions_reference
from engine.rng import SplitMix64, derive_seed
from engine.selfplay import random_action
from engine.targets import TARGET_LIST_CAP, card_choice_slots, choice_slots

DB = load_card_db()
DECKS = [load_deck(p, DB) for p in bundled_deck_paths()]


# ------------------------------------------------------------------ the plain definition: refusal


def _targets(g: Game) -> list[int]:
    """Every card a target may name (units in play, champions), in target_candidates' order."""
    a, b = g.players[g.active], g.players[1 - g.active]
    return a.units() + b.units() + [a.champion, b.champion]


def _named(g: Game, make: type[Play] | type[Activate], n_slots: int, **kw: object) -> list[Action]:
    """Each way to name 0 … n_slots targets, kept if refusal says None (at most TARGET_LIST_CAP)."""
    p = g.current_player()
    pool = _targets(g)
    out: list[Action] = []
    for k in range(n_slots + 1):
        legal = [a for ts in itertools.product(pool, repeat=k)
                 if refusal(g, a := make(targets=ts, **kw), p) is None]  # type: ignore[arg-type]
        out += legal[:TARGET_LIST_CAP]
    return out


def refusal_actions(g: Game) -> list[Action] | None:
    """legal_actions by definition (None where it isn't written here: interrupts, choices, and
    block lists long enough to be capped)."""
    p = g.current_player()
    ps = g.players[p]
    kind = g.decision.kind
    if kind == "priority":
        out: list[Action] = [Pass()]
        for cid, voidcasts in ([(c, (True, False)) for c in (ps.hand + ps.graveyard if ps.permits else ps.hand)]
                               + [(c, (False,)) for c in ps.set_cards]):
            d = g.card(cid)
            for vc in voidcasts:
                for m in (range(1, d.branches + 1) if d.branches else (None,)):
                    # (the checks that don't look at targets first, to keep the test quick)
                    if play_refusal(g, Play(cid, None, (), m, vc), p, check_targets=False) is None:
                        out += _named(g, Play, len(card_choice_slots(g, cid, m)), card=cid, mode=m, voidcast=vc)
        out += [SetCard(c) for c in ps.hand if refusal(g, SetCard(c), p) is None]
        for cid in itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)):
            for n, (_, ab) in enumerate(g.card(cid).act if cid else (), 1):
                out += _named(g, Activate, len(choice_slots(g, ab.effect)), source=cid, n=n)
        return out
    if kind == "attackers":
        units = ps.units()
        combos = itertools.chain.from_iterable(itertools.combinations(units, k) for k in range(len(units) + 1))
        attacks: list[Action] = [a for c in combos if refusal(g, a := Attack(c), p) is None]
        return attacks[:ATTACK_LIST_CAP]
    if kind == "blockers":
        units = ps.units()
        if (len(g.attackers) + 1) ** len(units) > BLOCK_LEAF_CAP:
            return None
        # each unit blocks nothing or one attacker, in the order block_assignments explores them
        decls = [Block(tuple((u, a) for u, a in zip(units, pick, strict=True) if a is not None))
                 for pick in _lex(len(units), g.attackers)]
        return [b for b in decls if refusal(g, b, p) is None]
    return None


def _lex(n: int, attackers: tuple[int, ...]) -> list[tuple[int | None, ...]]:
    """Each of n blockers' choice (None, or an attacker), in the order of block_assignments' recursion."""
    return [()] if n == 0 else [(x, *rest) for x in (None, *attackers) for rest in _lex(n - 1, attackers)]


# ------------------------------------------------------------------------------------------ the test


def test_legal_actions_equal_the_reference_and_the_refusal_definition() -> None:
    """Random matches over deck pairs covering every bundled deck: at each decision, legal_actions
    equals legal_actions_reference (every kind of decision), which equals the refusal definition
    (priority, attackers, blockers); the kinds and the number of positions checked are counted so the
    test can't pass on nothing."""
    seen: dict[str, int] = {}
    by_refusal = 0
    for i in range(2 * len(DECKS)):
        seed = derive_seed(101, i)
        g = Game.new(DB, DECKS[i % len(DECKS)], DECKS[(i * 3 + 1 + i // len(DECKS)) % len(DECKS)], seed)
        agent = SplitMix64(seed)
        for _ in range(300):
            if g.is_terminal():
                break
            listed = legal_actions(g)
            kind = g.decision.kind
            seen[kind] = seen.get(kind, 0) + 1
            reference = legal_actions_reference(g)
            assert listed == reference, (seed, g.turn, g.window, kind)
            # the Game's legal_actions (commands.listed, which has the priority case written out) too
            assert g.legal_actions() == listed, (seed, g.turn, g.window, kind)
            ref = refusal_actions(g)
            if ref is not None:
                assert reference == ref, (seed, g.turn, g.window, kind)
                by_refusal += 1
            g.apply(random_action(g, agent))
    assert by_refusal > 5000 and seen["attackers"] > 200 and seen["blockers"] > 80 and seen["choice"] > 15 \
        and seen["interrupt"] > 10, (by_refusal, seen)


def test_kept_actions_stay_bounded_and_lists_stay_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The actions legal_actions keeps to list again are bounded (_INTERNED_MAX in the kept attack
    lists — or one list alone — and as many Play / Activate objects); emptying the caches changes no
    list."""
    monkeypatch.setattr(options, "_INTERNED_MAX", 40)
    for cache in ("_PLAYS", "_ACTIVATES", "_ATTACKS"):
        monkeypatch.setattr(options, cache, {})
    monkeypatch.setattr(options, "_kept", 0)
    steps = emptied = 0
    for i in range(3):
        seed = derive_seed(202, i)
        g = Game.new(DB, DECKS[i], DECKS[-1 - i], seed)
        agent = SplitMix64(seed)
        while not g.is_terminal() and g.turn <= 20:
            assert legal_actions(g) == legal_actions_reference(g), (seed, g.turn, g.window)
            kept = sum(map(len, options._ATTACKS.values()))
            lists = len(options._ATTACKS)
            assert kept == options._kept and (kept <= 40 or lists == 1)   # (one list may be longer)
            assert len(options._PLAYS) <= 40 and len(options._ACTIVATES) <= 40
            before = options._kept
            g.apply(random_action(g, agent))
            steps += 1
            legal_actions(g)
            emptied += options._kept < before
    assert steps > 300 and emptied > 3, (steps, emptied)


def test_never_is_out_of_reach_and_a_one_digit_int() -> None:
    """NEVER (the least cost of what can't be played or activated now) is above any cost and any
    Influence, and below 2**30: CPython keeps it a one-digit int, so `least_cost <= influence` in the
    first filter stays a specialized int comparison (1 << 30 de-optimized it: 0.7% of an action)."""
    assert MAX_COST < NEVER and SEAT_MODIFIER_BOUNDS["max_influence"][1] + SEAT_MODIFIER_BOUNDS["starting_influence"][1] < NEVER
    assert NEVER < 1 << 30


def test_the_derived_activation_and_interrupt_fields_say_what_the_abilities_say() -> None:
    """CardDef.acts (an activated ability's cost, Slow, exhaust, once per turn and End Phase timing as
    plain values: _priority_actions reads them on every list) and CardDef.interrupts (may_interrupt's
    first look) are the card's own abilities' — for every card of the set."""
    for d in DB.by_id.values():
        assert d.interrupts == {ab.interrupt for ab in d.abilities if ab.interrupt is not None}, d.id
        want = [(n, idx, a.cost, a.speed == "slow", a.exhaust, a.once_per_turn, a.timing == "end_phase")
                for n, (idx, ab) in enumerate(d.act, 1) if (a := ab.activate) is not None]
        assert [act[:7] for act in d.acts] == want, d.id
