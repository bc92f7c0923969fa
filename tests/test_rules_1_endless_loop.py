"""rules.md §1, Endless Loop: a state that repeats with only passes in between ends the match in a draw
(termination endless_loop); a loop that keeps growing the state stops with the engine's RulesLoopError.
(The one-for-one pair as a rules scenario: tests/scenarios/match/rules-1-endless-loop-*.)"""

from __future__ import annotations

import pytest

from engine import RulesLoopError, Termination, events_for
from engine.cards import load_card_db
from engine.core import LOOP_WATCH
from engine.game import Game
from engine.scenario import build, scenario_from_data

DB = load_card_db()


def _loop(abilities: list[dict[str, object]]) -> Game:
    data = {
        "scenario": {"window": "main.priority", "turn": 3, "active": "p1"},
        "card": [
            {"id": "t-loop", "name": "Looper", "type": "unit", "cost": 2, "power": 1, "health": 3,
             "abilities": abilities},
            {"id": "t-spark", "name": "Spark", "type": "action", "cost": 1, "speed": "fast",
             "effect": [{"do": "damage", "amount": 1, "target": "unit"}]},
            {"id": "t-favor", "name": "Favor", "type": "action", "cost": 1, "speed": "fast",
             "effect": [{"do": "gain_influence", "amount": 1}]},
        ],
        "p1": {"influence": 3, "hand": ["Spark", "Favor"], "board": [{"card": "Looper", "as": "looper", "slot": 1}]},
        "p2": {"influence": 0},
    }
    g = build(scenario_from_data(data, "<test>", DB))
    g.apply_command("p1: play Spark target looper")
    return g


ONE_FOR_ONE = [{"when": "on_damaged", "effect": [{"do": "heal", "amount": 1, "target": "self"}]},
               {"when": "on_heal", "effect": [{"do": "damage", "amount": 1, "target": "self"}]}]


def test_a_repeating_state_with_only_passes_is_a_draw() -> None:
    g = _loop(ONE_FOR_ONE)
    passes = 0
    while not g.is_terminal():
        g.apply_command("pass")
        passes += 1
        assert passes < 200, "the loop was not detected"
    assert g.outcome is not None and g.outcome.termination is Termination.ENDLESS_LOOP and g.outcome.winner is None
    assert passes == 1 + 2 * (LOOP_WATCH + 1)   # Spark, then two passes per trigger until the first repeat
    last = events_for(g, 0)[-2:]
    assert [e.kind for e in last] == ["sba", "game_over"] and "endless loop" in last[0].text
    assert last[1].detail == "endless_loop"


def test_any_action_other_than_a_pass_restarts_the_watch() -> None:
    g = _loop(ONE_FOR_ONE)
    for _ in range(2 * LOOP_WATCH - 1):
        g.apply_command("pass")
    assert not g.is_terminal() and g.current_player() == 0
    h = g.clone()                       # a clone goes on watching where the original was
    g.apply_command("p1: play Favor")   # somebody did something: the watch starts again
    passes = 0
    while not g.is_terminal():
        g.apply_command("pass")
        passes += 1
    assert passes > 2 * LOOP_WATCH
    n = 0
    while not h.is_terminal():
        h.apply_command("pass")
        n += 1
    assert n == 4 and h.outcome is not None and h.outcome.termination is Termination.ENDLESS_LOOP


@pytest.mark.slow   # ~2,000 resolutions, each hashed: a few seconds
def test_a_loop_that_grows_the_state_is_an_engine_error_with_a_clear_message() -> None:
    grows = [{"when": "on_damaged", "effect": [
        {"do": "buff", "power": 0, "health": 1, "until": "permanent", "target": "self"},
        {"do": "damage", "amount": 1, "target": "self"}]}]
    g = _loop(grows)
    with pytest.raises(RulesLoopError) as err:
        for _ in range(10_000):
            g.apply_command("pass")
    assert "never repeats" in str(err.value) and "Endless Loop" in str(err.value)
