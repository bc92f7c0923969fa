"""Property test: many random legal matches to the end, with invariants checked after every action.

Seeded (SplitMix64), so a failure names the seed that reproduces it: `c1k selfplay --seed ...`.
"""

from __future__ import annotations

import os

import pytest

from engine.actions import Action, parse_action
from engine.cards import load_card_db
from engine.decks import bundled_deck_paths, load_deck
from engine.game import Game
from engine.record import Start, begin_game, play_line
from engine.rng import SplitMix64, derive_seed
from engine.selfplay import SELFPLAY_MAX_TURNS, random_action
from engine.state import WINDOWS, MatchOptions
from tests.invariants import check_invariants

DB = load_card_db()
DECKS = [load_deck(p, DB) for p in bundled_deck_paths()]
MATCHES = int(os.environ.get("C1K_PROPERTY_MATCHES", "2000"))
CHUNKS = 20

pytestmark = pytest.mark.slow   # ~87% of the suite's time: not in the fast tier


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_matches_keep_invariants(chunk: int) -> None:
    opts = MatchOptions(max_turns=SELFPLAY_MAX_TURNS)
    pairs = [(a, b) for a in DECKS for b in DECKS]
    for i in range(chunk, MATCHES, CHUNKS):
        seed = derive_seed(20261125, i)
        deck_a, deck_b = pairs[i % len(pairs)]
        g = Game.new(DB, deck_a, deck_b, seed, opts)
        agent = SplitMix64(seed)
        fork: Game | None = None
        fork_at = 40 + i % 200
        actions: list[Action] = []
        check_invariants(g)
        while not g.is_terminal():
            if len(actions) == fork_at:
                fork = g.clone()
            window, stack_before = g.window, len(g.stack)
            a = random_action(g, agent)
            assert parse_action(str(a)) == a, f"seed {seed}: {a!r} does not round-trip"
            g.apply(a)
            actions.append(a)
            check_invariants(g)
            if g.window != window:
                # a window changed: the old one ended on an empty stack (the engine also asserts it)
                assert WINDOWS.index(g.window) != WINDOWS.index(window)
            del stack_before
        assert g.outcome is not None
        final = g.state_hash()
        # the record's commands (seat-prefixed, as the engine prints them) replay to the same state
        again, _ = begin_game(Start.of_decks([deck_a, deck_b], seed, opts), DB)
        for line in g.record:
            play_line(again, line)
        assert again.state_hash() == final, f"seed {seed}: replay differs"
        if fork is not None:
            for a in actions[fork_at:]:
                fork.apply(a)
            assert fork.state_hash() == final, f"seed {seed}: clone then same actions differs"
