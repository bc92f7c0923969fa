"""Every starter deck functions: in random-legal-action self-play it beats each other starter deck at
least once (up to 30 matches a pair, both seatings, stopping as soon as both have won)."""

from __future__ import annotations

import itertools

import pytest

from engine.cards import load_card_db
from engine.decks import bundled_deck_paths, load_deck
from engine.rng import derive_seed
from engine.selfplay import play_random

DB = load_card_db()
DECKS = {p.stem: load_deck(p, DB) for p in bundled_deck_paths()}
pytestmark = pytest.mark.slow   # random self-play of every deck pair: not in the fast tier

PAIRS = list(itertools.combinations(sorted(DECKS), 2))


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-vs-{b}" for a, b in PAIRS])
def test_each_deck_can_beat_the_other(a: str, b: str) -> None:
    won = {a: 0, b: 0}
    for i in range(30):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        game, _ = play_random(DB, DECKS[first], DECKS[second], derive_seed(hash_name(a + b), i))
        assert game.outcome is not None
        if game.outcome.winner is not None:
            won[(first, second)[game.outcome.winner]] += 1
        if won[a] and won[b]:
            return
    pytest.fail(f"in 30 matches: {won}")


def hash_name(s: str) -> int:
    """A stable number from a name (not Python's salted hash())."""
    return sum((i + 1) * ord(c) for i, c in enumerate(s))
