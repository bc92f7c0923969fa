"""Issue #30 item 3: a replay names the decks and who sat where, and its last line says who won and how
("Ironbound (p1, search:1) wins — Champion defeated"), not "MATCH OVER: p1 (champion_defeated)"."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model.matchnames import match_title, outcome_words, seat_title
from engine import Outcome, Termination
from engine.record import MatchRecord, Start

RUNNER = CliRunner()


def _record(names: tuple[str, str] = ("p1", "p2"), agents: dict[str, tuple[str, int]] | None = None) -> MatchRecord:
    start = Start(({"name": "Ironbound"}, {"name": "Emberfall"}), 7, names)
    return MatchRecord(start=start, start_hash="", start_parts={}, agents=agents or {})


def test_a_seat_is_its_deck_its_player_and_its_agent() -> None:
    r = _record(("Ana", "p2"), {"p2": ("search:1", 3)})
    assert seat_title(r, 0) == "Ironbound (Ana, p1)"
    assert seat_title(r, 1) == "Emberfall (p2, search:1)"
    assert match_title(r) == "Ironbound (Ana, p1) vs Emberfall (p2, search:1)"


def test_the_outcome_says_who_won_and_how() -> None:
    r = _record(agents={"p1": ("search:1", 1), "p2": ("greedy", 2)})
    assert outcome_words(Outcome(Termination.CHAMPION_DEFEATED, 0), r) == \
        "Ironbound (p1, search:1) wins — Champion defeated"
    assert outcome_words(Outcome(Termination.CONCEDED, 1), r) == "Emberfall (p2, greedy) wins — conceded"
    assert outcome_words(Outcome(Termination.TURN_LIMIT, None), r) == "Draw — the turn limit"


def test_replay_of_a_report_match_names_decks_agents_and_the_winner(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--matches", "2", "--agent", "greedy",
                              "--workers", "1", "--json", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    game = json.loads(out.read_text(encoding="utf-8"))["games"][0]
    res = RUNNER.invoke(app, ["replay", str(out), "--match", "1"])
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    names = {"ironbound": "Ironbound", "emberfall": "Emberfall"}
    assert lines[0].startswith(f"{names[game['p1']]} (p1, greedy) vs {names[game['p2']]} (p2, greedy) · seed ")
    assert game["termination"] == "champion_defeated"
    assert lines[-1] == f"{names[game['winner_deck']]} ({game['winner_seat']}, greedy) wins — Champion defeated"
    assert "MATCH OVER" not in res.output
