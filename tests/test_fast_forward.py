"""The forced-pass fast-forward (`Game.pass_if_forced`, `Game.fast_forward`; engine/commands.py) is
exact: it passes exactly where Pass is the one legal action, and the match it leaves — state hash,
record and events — is the match of passing one by one. The search's rollouts use it, so it must not
change a rollout either: `ai._rollout` ends where the plain loop (ask the policy, apply its answer)
ends, with the same generator state. Checked at every priority decision of random matches over every
bundled deck."""

from __future__ import annotations

import pytest

from engine import ai
from engine.actions import Pass
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.options import legal_actions_reference, only_pass
from engine.rng import SplitMix64, derive_seed
from engine.state import MatchOptions, phase_of

DB = load_card_db()
DECKS = ["ironbound", "emberfall", "genesis-grove", "paradox-flux", "null-silence", "solace-haven",
         "veil-masquerade", "ruin-blight", "dominion-vanguard", "ruin-genesis-cycle", "solace-null-wardens"]


def _positions(i: int, matches: int = 1, max_turns: int = 30) -> list[Game]:
    """A clone of every decision of `matches` random matches of DECKS[i] against another deck."""
    a, b = DECKS[i], DECKS[(i + 4) % len(DECKS)]
    out: list[Game] = []
    for k in range(matches):
        seed = derive_seed(4400 + i, k)
        g = Game.new(DB, load_deck(find_deck(a), DB), load_deck(find_deck(b), DB), seed,
                     MatchOptions(max_turns=max_turns))
        agent = SplitMix64(seed)
        while not g.is_terminal():
            out.append(g.clone())
            acts = g.legal_actions()
            g.apply(acts[agent.below(len(acts))])
    return out


def _one_by_one(g: Game) -> int:
    """Pass while the legal actions are [Pass] (by `legal_actions_reference`, the rule written plainly,
    not `legal_actions`' shortcuts, which share their first filters with the fast-forward): how many
    passes."""
    n = 0
    while not g.is_terminal() and g.pending.kind == "priority" and legal_actions_reference(g) == [Pass()]:
        g.apply(Pass())
        n += 1
    return n


@pytest.mark.parametrize("i", range(len(DECKS)), ids=DECKS)
def test_fast_forward_is_passing_one_by_one(i: int) -> None:
    forced = chosen = 0
    for g in _positions(i):
        ref = g.clone()
        start = len(g.events)
        if g.pending.kind == "priority" and not g.is_terminal():
            assert only_pass(g, g.pending.player) == (legal_actions_reference(ref) == [Pass()]), \
                f"turn {g.turn} {g.window}: only_pass disagrees with legal_actions"
        n = g.fast_forward()
        assert n == _one_by_one(ref), f"turn {ref.turn} {ref.window}: passed {n} times, one by one otherwise"
        if n or forced % 5 == 0:   # (nothing to pass: nothing changed — looked at now and then)
            assert g.state_hash() == ref.state_hash()
        assert list(g.record) == list(ref.record)
        if n:
            assert g.events[start:] == ref.events[start:]
        assert g.legal_actions() == ref.legal_actions()   # (after a probe that found a choice: the same list)
        forced += n > 0
        chosen += n == 0
    assert forced > 30 and chosen > 30, "both cases are met (else this test checks little)"


def test_fast_forward_stops_at_its_limit() -> None:
    # a limit stops it after that many passes; without one it goes on to the next choice (or the end)
    met = 0
    for g in _positions(0)[:200]:
        whole = g.clone()
        n = whole.fast_forward()
        if n < 2:
            continue
        met += 1
        assert g.fast_forward(1) == 1 and g.fast_forward(0) == 0
        assert g.fast_forward(n - 2) == n - 2
        assert g.fast_forward() == 1   # the last of the n
        assert g.state_hash() == whole.state_hash() and list(g.record) == list(whole.record)
    assert met > 5


def _rollout_reference(g: Game, rng: SplitMix64, end_turn: int, horizon: int, limit: int = 600) -> None:
    """`ai._rollout` without the fast-forward: the policy decides every action, forced passes included."""
    pol = ai.rollout_policy(rng)
    for _ in range(limit):
        if g.is_terminal() or g.turn > end_turn or (horizon == 0 and g.turn == end_turn and phase_of(g.win) == "end"):
            return
        g.apply(pol(g))


@pytest.mark.parametrize("i", range(0, len(DECKS), 2), ids=DECKS[::2])
def test_rollouts_with_the_fast_forward_are_the_same_rollouts(i: int) -> None:
    checked = 0
    for k, g in enumerate(_positions(i)[::9]):
        if g.is_terminal():
            continue
        for horizon in (0, 1):
            fast, ref = g.clone(), g.clone()
            r1, r2 = SplitMix64(derive_seed(k, horizon)), SplitMix64(derive_seed(k, horizon))
            ai._rollout(fast, r1, g.turn + horizon, horizon, limit=60 + k % 50)
            _rollout_reference(ref, r2, g.turn + horizon, horizon, limit=60 + k % 50)
            assert fast.state_hash() == ref.state_hash(), f"position {k} (turn {g.turn} {g.window}), horizon {horizon}"
            assert r1.state == r2.state and list(fast.record) == list(ref.record)
            checked += 1
    assert checked > 10


def test_random_self_play_with_the_fast_forward_is_the_same_self_play() -> None:
    """`play_random` (c1k selfplay, c1k bench) takes forced passes through `pass_if_forced`: the same
    matches, action for action, as listing the legal actions and drawing one every time."""
    from engine.selfplay import SELFPLAY_MAX_TURNS, play_random

    for k in range(3):
        a, b = load_deck(find_deck(DECKS[k]), DB), load_deck(find_deck(DECKS[k + 5]), DB)
        seed = derive_seed(4500, k)
        game, n = play_random(DB, a, b, seed)
        ref = Game.new(DB, a, b, seed, MatchOptions(max_turns=SELFPLAY_MAX_TURNS))
        agent = SplitMix64(seed ^ 0x5EED)
        m = 0
        while not ref.is_terminal():
            acts = ref.legal_actions()
            ref.apply(acts[agent.below(len(acts))])
            m += 1
        assert (n, game.state_hash(), list(game.record)) == (m, ref.state_hash(), list(ref.record))
