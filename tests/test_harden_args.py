"""Issue #23 item 8: every numeric option is range-checked with a message, empty words are refused,
`--vs` specs with bad digits are refused cleanly, `--full-control` is honoured by the text loop, and a
record whose version is `true` or `2.0` is refused. Each: a message naming the option, a non-zero exit,
no traceback, no file written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app

runner = CliRunner()

CASES: dict[str, tuple[list[str], str]] = {
    "simulate --workers 0": (["simulate", "--workers", "0", "ironbound", "emberfall"], "--workers"),
    "simulate --workers 5000": (["simulate", "--workers", "5000", "ironbound", "emberfall"], "--workers"),
    "simulate --seed -1": (["simulate", "--seed", "-1", "ironbound", "emberfall"], "--seed"),
    "simulate --seed 2^64": (["simulate", "--seed", str(2**64), "ironbound", "emberfall"], "--seed"),
    "simulate --matches 0": (["simulate", "--matches", "0", "ironbound", "emberfall"], "--matches"),
    "simulate --max-turns 0": (["simulate", "--max-turns", "0", "ironbound", "emberfall"], "--max-turns"),
    "selfplay --matches -1": (["selfplay", "--matches", "-1"], "--matches"),
    "selfplay --seed 2^64": (["selfplay", "--seed", str(2**64)], "--seed"),
    "selfplay --seed -1": (["selfplay", "--seed", "-1"], "--seed"),
    "play --seed 2^64": (["play", "--text", "--seed", str(2**64)], "--seed"),
    "play --seed -1": (["play", "--text", "--seed", "-1"], "--seed"),
    "play --pace -5": (["play", "--text", "--vs", "ai", "--pace", "-5"], "--pace"),
    "cards --keyword ''": (["cards", "--keyword", ""], "--keyword"),
    "cards --realm ''": (["cards", "--realm", ""], "--realm"),
    "cards --search ''": (["cards", "--search", ""], "--search"),
    "play ''": (["play", "--text", ""], "DECK_A"),
    "play x ''": (["play", "--text", "ironbound", ""], "DECK_B"),
    "--vs ai:²": (["play", "--text", "--vs", "ai:²"], "unknown search level '²'"),
    "--vs ai:٣": (["play", "--text", "--vs", "ai:٣"], "unknown search level"),
    "--vs ai:99999999999": (["play", "--text", "--vs", "ai:99999999999"], "unknown search level"),
    "text --full-control --flow auto": (["play", "--text", "--full-control", "--flow", "auto"], "disagree"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_bad_argument_is_a_message_and_a_non_zero_exit(case: str, tmp_path: Path) -> None:
    args, words = CASES[case]
    res = runner.invoke(app, args, input="quit\n")
    assert res.exit_code != 0, (case, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert "Traceback" not in res.output and "invalid literal" not in res.output
    assert words in res.output, res.output


def test_the_text_loop_honours_full_control() -> None:
    """`play --text --full-control`: asked at every decision, a forced pass included (it was ignored)."""
    full = runner.invoke(app, ["play", "--text", "--seed", "4", "--full-control"], input="quit\n")
    auto = runner.invoke(app, ["play", "--text", "--seed", "4"], input="quit\n")
    assert full.exit_code == 0 and auto.exit_code == 0
    assert full.output != auto.output
    assert "(auto)" not in full.output.split("quit")[0]


def test_simulate_with_one_worker_still_runs(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "--matches", "1", "--quiet", "--agent", "random", "--workers", "1",
                              "ironbound", "emberfall"])
    assert res.exit_code == 0, res.output
