"""Every action legal_actions lists is legal: `why_not` (the refusal `apply` uses) finds nothing, in
mid-match positions of every bundled deck pair. (That it lists every legal action is
tests/test_legal_actions_fast.py's check against `options.legal_actions_reference`.)"""

from __future__ import annotations

from engine.cards import load_card_db
from engine.decks import bundled_deck_paths, load_deck
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.selfplay import random_action

DB = load_card_db()
DECKS = [load_deck(p, DB) for p in bundled_deck_paths()]


def test_every_listed_action_is_legal() -> None:
    checked = 0
    for i in range(2 * len(DECKS)):
        seed = derive_seed(77, i)
        g = Game.new(DB, DECKS[i % len(DECKS)], DECKS[(i * 5 + 2) % len(DECKS)], seed)
        agent = SplitMix64(seed)
        while not g.is_terminal() and g.turn <= 14:
            listed = g.legal_actions()
            checked += 1
            assert all(g.why_not(a) is None for a in listed[:40]), (seed, g.turn, g.window)
            g.apply(random_action(g, agent))
    assert checked > 500
