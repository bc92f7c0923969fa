"""rules.md §1, Endless Loop: a state that repeats with only passes in between ends the match in a draw
(termination endless_loop) — a loop of triggers on the stack, or of state-based actions (two cards that
evolve into each other), on every entry point: the API, the text loop, the app's session and `scenario
check`. A loop that keeps growing the state stops with the engine's RulesLoopError, and the command
that ran into it changes nothing. (As rules scenarios: tests/scenarios/match/rules-1-endless-loop-*.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.cli.textplay import loop
from c1k_tui.model.session import MatchSession
from engine import RulesLoopError, Termination, events_for
from engine.cards import load_card_db
from engine.core import LOOP_WATCH
from engine.game import Game
from engine.scenario import Scenario, build, scenario_from_data

DB = load_card_db()
EVOLVE_LOOP = (Path(__file__).parent / "scenarios" / "match"
               / "rules-1-endless-loop-two-cards-that-evolve-into-each-other-draw.scenario.toml")


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


ONE_FOR_ONE: list[dict[str, object]] = [{"when": "on_damaged", "effect": [{"do": "heal", "amount": 1, "target": "self"}]},
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
    grows: list[dict[str, object]] = [{"when": "on_damaged", "effect": [
        {"do": "buff", "power": 0, "health": 1, "until": "permanent", "target": "self"},
        {"do": "damage", "amount": 1, "target": "self"}]}]
    g = _loop(grows)
    with pytest.raises(RulesLoopError) as err:
        for _ in range(10_000):
            before = (g.state_hash(), len(g.record), len(g.events), g.current_player(), g.decision)
            g.apply_command("pass")
    assert "never repeats" in str(err.value) and "Endless Loop" in str(err.value)
    # the command that ran into the cap changed nothing: not the state, the record, the events, nor who decides
    assert (g.state_hash(), len(g.record), len(g.events), g.current_player(), g.decision) == before
    with pytest.raises(RulesLoopError):   # the same command again: the same answer, still nothing changed
        g.apply_command("pass")
    assert (g.state_hash(), len(g.record), len(g.events), g.current_player(), g.decision) == before
    g.apply_command("concede")            # the way on: a player ends it
    assert g.outcome is not None and g.outcome.termination is Termination.CONCEDED


# ---------------------------------------------------------------- a loop of state-based actions (Evolve)


def _evolvers() -> Scenario:
    """An Egg and a Chick that evolve into each other at 2 power; p1 may give the Egg +1/+0 (Vigor)."""
    egg = {"id": "t-egg", "name": "Egg", "type": "unit", "cost": 1, "power": 1, "health": 2,
           "keywords": ["evolve"], "evolve": {"into": "t-chick", "power": 2}}
    chick = {"id": "t-chick", "name": "Chick", "type": "unit", "cost": 1, "power": 1, "health": 2,
             "keywords": ["evolve"], "evolve": {"into": "t-egg", "power": 2}}
    vigor = {"id": "t-vigor", "name": "Vigor", "type": "action", "cost": 1, "speed": "fast",
             "effect": [{"do": "buff", "power": 1, "until": "permanent", "target": "friendly_unit"}]}
    data = {"scenario": {"window": "main.priority", "turn": 3, "active": "p1"},
            "card": [egg, chick, vigor],
            "p1": {"influence": 1, "hand": ["Vigor"], "board": [{"card": "Egg", "as": "egg", "slot": 1}]},
            "p2": {"influence": 0}}
    return scenario_from_data(data, "<test>", DB)


def _is_evolve_draw(g: Game) -> bool:
    return (g.outcome is not None and g.outcome.termination is Termination.ENDLESS_LOOP
            and g.outcome.winner is None and g.current_player() == -1 and g.decision.kind == "none")


def test_rules_1_endless_loop_two_cards_that_evolve_into_each_other_draw_through_the_api() -> None:
    g = build(_evolvers())
    g.apply_command("p1: play Vigor target egg")
    g.apply_command("p2: pass")          # Vigor resolves: 2 power, and the evolutions go round
    assert _is_evolve_draw(g)
    evs = [e for e in events_for(g, 1) if e.kind in ("sba", "game_over")]
    assert [e.rule for e in evs] == ["KW Evolve", "KW Evolve", "KW Evolve", "RULES 1", "RULES 1"]
    assert "the match is a draw (Endless Loop)" in evs[3].text and evs[3].detail == "endless_loop"
    with pytest.raises(Exception, match="the match is over"):
        g.apply_command("p1: pass")


def test_rules_1_endless_loop_two_cards_that_evolve_into_each_other_draw_in_the_text_loop() -> None:
    g = build(_evolvers())
    lines = iter(["p1: play Vigor target egg", "pass"])
    out: list[str] = []
    loop(g, [], lambda prompt: next(lines), out.append, open_hands=True)
    text = "\n".join(out)
    assert _is_evolve_draw(g) and "can't go on" not in text
    assert "the match is over: draw (endless_loop)" in text


def test_rules_1_endless_loop_two_cards_that_evolve_into_each_other_draw_in_the_app_session(
        tmp_path: Path) -> None:
    s = MatchSession.from_scenario(_evolvers(), DB, "<test>", save_path=tmp_path / "m.json")
    assert s.send("p1: play Vigor target egg").ok
    res = s.send("p2: pass")
    assert res.ok, res.message
    assert _is_evolve_draw(s.game)


def test_rules_1_endless_loop_two_cards_that_evolve_into_each_other_draw_in_scenario_check() -> None:
    res = CliRunner().invoke(app, ["scenario", "check", str(EVOLVE_LOOP)])
    assert res.exit_code == 0 and "1 passed, 0 failed" in res.output, res.output


def test_rules_1_endless_loop_validate_warns_about_cards_that_evolve_into_each_other(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["validate", str(EVOLVE_LOOP)])
    assert res.exit_code == 0, res.output          # a warning: the rules say what happens (a draw)
    assert f"{EVOLVE_LOOP}:25: warning: card 't-loop-chick': Evolve goes round in a circle " \
           "('t-loop-chick' → 't-loop-egg' → 't-loop-chick')" in res.output
    assert res.output.rstrip().endswith("1 file(s), 0 problem(s), 1 warning(s)")
    cards = tmp_path / "circle.toml"                # the same in a card file: three cards round, one line
    cards.write_text("".join(
        f'[[card]]\nid = "t-{a}"\nname = "{a.title()}"\ntype = "unit"\npower = 1\nhealth = 1\n'
        f'keywords = ["evolve"]\nevolve = {{ into = "t-{b}", power = 3 }}\n\n'
        for a, b in (("ash", "bud"), ("bud", "cone"), ("cone", "ash"))))
    res = CliRunner().invoke(app, ["validate", str(cards)])
    assert res.exit_code == 0 and res.output.count("warning:") == 1, res.output
    assert f"{cards}:1: warning: card 't-ash': Evolve goes round in a circle ('t-ash' → 't-bud' → " \
           "'t-cone' → 't-ash')" in res.output
