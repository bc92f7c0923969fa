"""The state-based-action shortcut (rules.md §1 "RULES 1"; engine.turn.open_priority): SBA are skipped
only while `_sba_settled` says the full check found nothing and nothing that could change it happened
since. It must never say so wrongly: at every step of random matches over every starter deck (and the
lessons' decks), whenever it says "settled", the full check agrees."""

from __future__ import annotations

import pytest

from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.sba import sba_quiet
from engine.state import MatchOptions

DB = load_card_db()
DECKS = ["ironbound", "emberfall", "genesis-grove", "paradox-flux", "null-silence", "solace-haven",
         "veil-masquerade", "ruin-blight", "dominion-vanguard", "ruin-genesis-cycle", "solace-null-wardens"]


@pytest.mark.parametrize("i", range(len(DECKS)), ids=DECKS)
def test_settled_never_hides_a_state_based_action(i: int) -> None:
    a, b = DECKS[i], DECKS[(i + 3) % len(DECKS)]
    checked = settled = 0
    for k in range(4):
        seed = derive_seed(70 + i, k)
        g = Game.new(DB, load_deck(find_deck(a), DB), load_deck(find_deck(b), DB), seed,
                     MatchOptions(max_turns=60))
        agent = SplitMix64(seed)
        while not g.is_terminal():
            acts = g.legal_actions()
            g.apply(acts[agent.below(len(acts))])
            checked += 1
            if g._sba_settled and g.outcome is None:
                settled += 1
                assert sba_quiet(g), f"{a} vs {b} seed {seed}, turn {g.turn} {g.window}: settled, but SBA are due"
    assert settled > checked // 4, "the shortcut is used (else this test checks nothing)"
