"""rules.md `SEAT`: a Seat that does not mention a hook keeps its default — for the slots, the match's
`unit_slots` / `relic_slots` options (the format's); a Seat with the hook sets them. Full matches
(`Game.new`); the scenario `seat-a-seat-without-a-slot-hook-keeps-the-match-slot-options` checks a
scenario's set-up and play."""

from __future__ import annotations

import pytest

from engine import Game
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.state import MatchOptions

DB = load_card_db()


@pytest.mark.parametrize("deck, seat, slots", [
    ("ironbound", "seat-of-the-unbroken-wall", (5, 2)),          # no slot hook: the options
    ("dominion-vanguard", "seat-of-the-crowded-field", (7, 1)),  # unit_slots 7, relic_slots 1: the Seat
])
def test_seat_the_slots_are_the_seats_hooks_else_the_match_options(deck: str, seat: str,
                                                                  slots: tuple[int, int]) -> None:
    d = load_deck(find_deck(deck), DB)
    assert d.seat.id == seat
    g = Game.new(DB, d, d, 3, MatchOptions(unit_slots=5, relic_slots=2))
    assert [(len(p.board), len(p.relics)) for p in g.players] == [slots, slots]
    default = Game.new(DB, d, d, 3)
    assert [len(p.board) for p in default.players] == [7 if seat.endswith("crowded-field") else 6] * 2
