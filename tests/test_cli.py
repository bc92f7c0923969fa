"""The `c1k` command line, driven through Typer's CliRunner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import record as rec
from engine.cards import load_card_db

runner = CliRunner()
SCEN = Path(__file__).parent / "scenarios"


def test_selfplay_prints_one_line_per_match_and_is_reproducible() -> None:
    a = runner.invoke(app, ["selfplay", "--seed", "9", "--matches", "2"])
    b = runner.invoke(app, ["selfplay", "--seed", "9", "--matches", "2"])
    assert a.exit_code == 0, a.output
    lines = a.output.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("match 0 seed ") and " winner " in lines[0] and " hash " in lines[0]
    assert a.output == b.output


def test_scenario_check_passes_and_fails_with_step_and_values(tmp_path: Path) -> None:
    ok = runner.invoke(app, ["scenario", "check", str(SCEN / "rb-3.1-barrier-vs-overwhelm.scenario.toml")])
    assert ok.exit_code == 0, ok.output
    assert "1 passed, 0 failed" in ok.output
    bad = tmp_path / "bad.scenario.toml"
    bad.write_text((SCEN / "rb-3.1-barrier-vs-overwhelm.scenario.toml").read_text().replace(
        "expect.p2.life = 17", "expect.p2.life = 16"))
    res = runner.invoke(app, ["scenario", "check", str(bad)])
    assert res.exit_code == 1
    assert "step 9 ('p2: pass')" in res.output and "expected p2.life = 16, got 17" in res.output


def test_validate_reports_every_problem_with_exit_code(tmp_path: Path) -> None:
    good = runner.invoke(app, ["validate", "decks/ironbound.toml", "decks/cards/core.toml"])
    assert good.exit_code == 0, good.output
    d = tmp_path / "d.toml"
    d.write_text('[deck]\nname = "x"\nchampion = "aldric-stonevow"\nseat = "seat-of-long-memory"\n'
                 '[cards]\n"emberlsh" = 3\n')
    res = runner.invoke(app, ["validate", str(d)])
    assert res.exit_code == 1
    assert "d.toml:6: unknown card 'emberlsh' (did you mean 'emberlash'?)" in res.output


def test_text_play_takes_commands_refuses_with_rule_and_autosaves(tmp_path: Path) -> None:
    save = tmp_path / "match.json"
    script = "\n".join(["pass", "attack none", "pley", "why", "p2: pass", "pass", "pass"]) + "\n"
    res = runner.invoke(app, ["play", "--seed", "3", "--save", str(save)], input=script)
    assert res.exit_code == 0, res.output
    assert "draw.post" in res.output
    assert "?? unknown command 'pley' (did you mean 'play'?)" in res.output
    # hands hidden: a command the engine would refuse is checked first and not sent (rules.md §7a)
    assert "not sent:" in res.output and "(C1K 4.1)" in res.output
    record = rec.load(save)
    assert record.seed == 3 and record.commands[0] == "p1: pass"
    game = rec.replay(record, load_card_db())
    assert game.record == record.commands


def test_resume_replays_to_the_same_state(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    runner.invoke(app, ["play", "--seed", "5", "--save", str(save)], input="pass\npass\npass\n")
    before = rec.replay(rec.load(save), load_card_db()).state_hash()
    res = runner.invoke(app, ["resume", str(save)], input="")
    assert res.exit_code == 0, res.output
    assert rec.replay(rec.load(save), load_card_db()).state_hash() == before


def test_bench_json_has_the_published_keys() -> None:
    import json

    res = runner.invoke(app, ["bench", "--json", "--matches", "3"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    for key in ("matches_per_s", "actions_per_s", "legal_actions_us", "clone_us", "snapshot_us", "machine"):
        assert key in data
    assert data["matches"] == 3 and data["actions"] > 0


def test_unknown_deck_is_a_clear_error() -> None:
    res = runner.invoke(app, ["play", "ironbund"])
    assert res.exit_code == 2
    assert "did you mean 'ironbound'" in res.output


def test_cards_table_filters_by_realm_keyword_and_text() -> None:
    res = runner.invoke(app, ["cards", "--realm", "ruin", "--keyword", "wither"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "Ashmonger Hag" in res.output and "Wither" in res.output
    assert "Rotgnaw Rat" not in res.output        # Decay, not Wither
    assert "card(s) · realm ruin · keyword wither" in res.output
    found = runner.invoke(app, ["cards", "--search", "emberlash"], env={"COLUMNS": "200"})
    assert "Emberlash" in found.output
    bad = runner.invoke(app, ["cards", "--keyword", "witer"])
    assert bad.exit_code == 2 and "did you mean 'wither'" in bad.output


def test_the_app_splash_shows_no_random_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """rules.md §7: `c1k play DECK DECK` without --seed draws a seed that no screen shows while cards are
    hidden — the loading splash included (a given --seed is known to the players anyway)."""
    import c1k_tui.cli.main
    import c1k_tui.screens.app

    splashes: list[list[str]] = []

    class FakeApp:
        return_code = 0

        def __init__(self, **kw: Any) -> None:
            splashes.append(list(kw.get("splash") or []))

        def run(self) -> None:
            pass

    monkeypatch.setattr(c1k_tui.cli.main, "_interactive", lambda: True)
    monkeypatch.setattr(c1k_tui.screens.app, "C1KApp", FakeApp)
    monkeypatch.setattr(c1k_tui.cli.main, "new_seed", lambda: 4242424242424242)
    assert runner.invoke(app, ["play", "ironbound", "emberfall"]).exit_code == 0
    assert runner.invoke(app, ["play", "ironbound", "emberfall", "--seed", "77"]).exit_code == 0
    assert len(splashes) == 2 and splashes[0] and "seed" not in " ".join(splashes[0])
    assert "4242424242424242" not in " ".join(splashes[0]) and "seed 77" in " ".join(splashes[1])
