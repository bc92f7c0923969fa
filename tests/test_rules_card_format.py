"""Combinations of the card format the engine can't carry out faithfully are refused when the card is
loaded, with a message (issue #9 item 5): Flux inside a Conquer effect or an Interrupt (no moment to ask
for a Flux Interrupt), and a Voidcast keyword without its cost. The Voidcast cost alone is enough."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import parse_cards

CONQUER_FLUX: dict[str, Any] = {
    "id": "t-wild-raider", "name": "Wild Raider", "type": "unit", "realm": "dominion", "cost": 2,
    "power": 2, "health": 2, "keywords": ["conquer"], "text": "Conquer: Flux.",
    "abilities": [{"when": "on_conquer", "effect": [
        {"do": "flux", "outcomes": [[{"do": "draw"}], [{"do": "gain_influence"}]]}]}],
}
INTERRUPT_FLUX: dict[str, Any] = {
    "id": "t-wild-ward", "name": "Wild Ward", "type": "relic", "realm": "paradox", "cost": 2,
    "text": "Interrupt: Flux.",
    "abilities": [{"interrupt": "attacker_declared", "effect": [
        {"do": "flux", "outcomes": [[{"do": "draw"}], [{"do": "gain_influence"}]]}]}],
}
THREAD_FLUX_IN_CONQUER: dict[str, Any] = {
    **CONQUER_FLUX, "id": "t-wild-raider-2",
    "abilities": [{"when": "on_conquer", "effect": [{"do": "thread", "branches": [
        [{"do": "draw"}], [{"do": "flux", "outcomes": [[{"do": "draw"}], [{"do": "gain_influence"}]]}]]}]}],
}


@pytest.mark.parametrize("card, words", [
    (CONQUER_FLUX, "Conquer"), (INTERRUPT_FLUX, "Interrupt"), (THREAD_FLUX_IN_CONQUER, "Conquer")])
def test_flux_where_no_flux_interrupt_can_be_asked_is_refused_with_a_message(card: dict[str, Any],
                                                                             words: str) -> None:
    cards, problems = parse_cards([card], "t.toml")
    assert not cards
    assert len(problems) == 1 and "Flux can't be used inside" in problems[0] and words in problems[0]
    assert card["id"] in problems[0]


def test_flux_in_a_triggered_ability_is_fine() -> None:
    ok = {**CONQUER_FLUX, "keywords": [], "text": "When this unit damages the enemy Champion, Flux: draw a card; or "
          "gain 1 Influence.", "abilities": [{"when": "on_champion_hit",
                                                          "effect": CONQUER_FLUX["abilities"][0]["effect"]}]}
    cards, problems = parse_cards([ok], "t.toml")
    assert problems == [] and len(cards) == 1


def test_the_voidcast_cost_alone_makes_a_voidcast_card_and_the_keyword_needs_the_cost() -> None:
    base = {"id": "t-echo", "name": "Echo", "type": "action", "realm": "null", "cost": 3, "speed": "slow",
            "text": "Draw a card. Voidcast 1.", "effect": [{"do": "draw"}]}   # (the text says what it does)
    cards, problems = parse_cards([{**base, "voidcast": 1}], "t.toml")
    assert problems == [] and cards[0].voidcast == 1 and "voidcast" in cards[0].keywords
    cards, problems = parse_cards([{**base, "keywords": ["voidcast"]}], "t.toml")
    assert not cards and "needs a Voidcast cost" in problems[0]


def test_end_phase_timing_is_fast_and_as_long_as_belongs_to_a_unit_or_relic() -> None:
    bell = {"id": "t-bell", "name": "Bell", "type": "relic", "cost": 2, "text": "End Phase: draw.",
            "abilities": [{"activate": {"cost": 1, "speed": "slow", "timing": "end_phase"},
                           "effect": [{"do": "draw"}]}]}
    cards, problems = parse_cards([bell], "t.toml")
    assert not cards and "End Phase ability" in problems[0]
    action = {"id": "t-call", "name": "Call", "type": "action", "cost": 1, "speed": "slow", "text": "x",
              "effect": [{"do": "permit", "zone": "graveyard", "card_type": "unit", "duration": "while_in_play"}]}
    cards, problems = parse_cards([action], "t.toml")
    assert not cards and "as long as" in problems[0]
