"""Hidden information (issue: Realms): view_for(player) shows no card of a library, of the opponent's
hand or Set zone, and nothing that would predict the shuffles (seed, PRNG state); refusals name no
hidden card."""

from __future__ import annotations

import json

import pytest

from engine.actions import IllegalAction, MalformedCommand, Play
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.scenario import build, scenario_from_data
from engine.selfplay import random_action

DB = load_card_db()


def _hidden_ids(g: Game, viewer: int) -> set[int]:
    out: set[int] = set()
    for p, ps in enumerate(g.players):
        out.update(ps.library)
        if p != viewer:
            out.update(ps.hand)
            out.update(ps.set_cards)
    return out


def test_view_for_masks_libraries_the_opponents_hand_and_the_generator() -> None:
    decks = [load_deck(find_deck(n), DB) for n in ("veil-masquerade", "ironbound")]
    g = Game.new(DB, decks[0], decks[1], 99)
    agent = SplitMix64(5)
    for _ in range(400):
        if g.is_terminal():
            break
        for viewer in (0, 1):
            view = g.view_for(viewer)
            assert view["seed"] is None and view["rng"] is None
            hidden = _hidden_ids(g, viewer)
            cards = {c[0]: c[1] for c in view["cards"]}  # type: ignore[attr-defined]
            assert all(cards[i] == "?" for i in hidden)
            visible = [i for i in cards if i not in hidden]
            assert all(cards[i] != "?" for i in visible)
            me, other = view["players"][viewer], view["players"][1 - viewer]  # type: ignore[index]
            assert isinstance(me["hand"], list) and isinstance(other["hand"], int)
            assert isinstance(me["library"], int) and isinstance(other["library"], int)
            json.dumps(view)
        g.apply(random_action(g, agent))


def test_a_set_card_stays_hidden_and_refusals_never_name_a_hidden_card() -> None:
    data = {
        "scenario": {"window": "main.priority", "turn": 3},
        "p1": {"influence": 3, "hand": ["Snare of Shadows"], "library": ["Emberlash"]},
        "p2": {"hand": ["Unmake"], "library": ["Briar Scout"]},
    }
    g = build(scenario_from_data(data, "<test>", DB))
    snare = g.players[0].hand[0]
    g.apply_command(f"p1: set #{snare}")
    assert g.players[0].set_cards == [snare]
    assert g.view_for(1)["players"][0]["set"] == 1  # type: ignore[index]
    hidden = [snare, g.players[1].hand[0], g.players[0].library[0], g.players[1].library[0]]
    names = {g.card(c).name for c in hidden}
    for cid in hidden:
        for player in (0, 1):
            if cid in g.players[player].hand + g.players[player].set_cards:
                continue
            r = g.why_not(Play(cid), player)
            assert r is not None
            assert not any(n in r.reason for n in names), r.reason
    with pytest.raises((MalformedCommand, IllegalAction)) as err:
        g.apply_command('p2: play "Snare of Shadows"')
    assert "#" + str(snare) not in str(err.value)
