"""The new commands of the command line, where they don't need a terminal (piped: text output)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model.session import game_from_record
from engine import record as rec
from engine.cards import CardDB
from tests.tui.conftest import flow_data, session_from

runner = CliRunner()


def test_replay_without_a_terminal_lists_the_commands_and_the_final_hash(db: CardDB, tmp_path: Path) -> None:
    s = session_from(db, flow_data(), tmp_path)
    s.send("pass")
    s.send("pass")
    res = runner.invoke(app, ["replay", str(tmp_path / "match.json")])
    assert res.exit_code == 0, res.output
    assert "2 commands" in res.output and s.game.state_hash() in res.output
    assert "p1: pass" in res.output


def test_a_scenario_record_resumes_to_the_same_hash(db: CardDB, tmp_path: Path) -> None:
    s = session_from(db, flow_data(), tmp_path)
    s.send("pass")
    r = rec.load(tmp_path / "match.json")
    assert r.start.scenario is not None and r.start.scenario["data"]["scenario"]["title"] == "flow"
    g, decks = game_from_record(r, db)
    assert g.state_hash() == s.game.state_hash() and decks == []
    res = runner.invoke(app, ["resume", str(tmp_path / "match.json")], input="")
    assert res.exit_code == 0, res.output


def test_play_scenario_in_the_text_loop(tmp_path: Path) -> None:
    scn = Path(__file__).resolve().parents[2] / "decks" / "lessons" / "01-priority-and-the-stack.scenario.toml"
    res = runner.invoke(app, ["play", "--scenario", str(scn)], input='play "Lantern Acolyte" slot 1\n')
    assert res.exit_code == 0, res.output
    assert "main.priority" in res.output


def test_resume_without_an_autosave_says_so() -> None:
    res = runner.invoke(app, ["resume"])
    assert res.exit_code == 2 and "no autosaved match" in res.output
