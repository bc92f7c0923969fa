"""What a Python user expects of a command (issue #21 item 5): `--version`, `python -m c1k_tui`, shell
completion of public names (decks, rule ids, lessons, agents), plain unwrapped rows in a pipe, `--json
FILE` (or `-`) meaning the same in every command, and progress on stderr. What only a process shows (the
interpreter's own output, a real pipe, a signal) runs the real command; the rest runs the Typer app in a fork
of the test's process (tests/cli_run.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from tests.cli_run import ROOT, Ran, c1k_forked, c1k_process

runner = CliRunner()


def _complete(words: str, run: Callable[..., Ran] = c1k_forked) -> list[str]:
    """What bash completion offers for the last word of `words` (click's protocol: _C1K_COMPLETE)."""
    parts = words.split(" ")
    res = run([], env={"_C1K_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)})
    assert res.returncode == 0, res.stderr
    return [line.split(",", 1)[1] if "," in line else line for line in res.stdout.splitlines()]


def test_version() -> None:
    from importlib.metadata import version

    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.strip() == f"c1k {version('c1k')}"


def test_python_dash_m_runs_the_command() -> None:
    res = c1k_process(["--help"])
    assert res.returncode == 0 and "Usage: c1k" in res.stdout


def test_completion_is_on_and_offers_public_names() -> None:
    res = runner.invoke(app, ["--help"])
    assert "--install-completion" in res.output
    assert _complete("c1k play iron") == ["ironbound"]
    assert "ai:greedy" in _complete("c1k play --vs ai:g")
    assert _complete("c1k learn 1")[:2] == ["1", "10"]
    assert "C1K 4.3" in _complete("c1k rules C1K")
    assert _complete("c1k simulate --agent sea") == ["search", "search:1", "search:2", "search:3", "search:4"]
    assert _complete("c1k schema de") == ["deck"]


def test_completion_answers_from_the_real_command() -> None:
    """The installed command answers the shell (the cases above: the same app in-process)."""
    assert _complete("c1k play iron", c1k_process) == ["ironbound"]


def test_every_offered_agent_is_one_the_commands_take() -> None:
    from c1k_tui.cli import completion
    from c1k_tui.model.versus_session import agent_spec
    from engine.ai import make_agent

    for spec in completion.AGENTS:
        make_agent(spec)
    for spec in completion.OPPONENTS:
        agent_spec(spec)


def _piped_cards(res: Ran) -> None:
    assert res.returncode == 0
    line = next(x for x in res.stdout.splitlines() if "Lancer of the Dawn Column" in x)
    cells = line.split("\t")
    assert cells[:4] == ["lancer-of-the-dawn-column", "Lancer of the Dawn Column", "neutral", "unit"]
    assert cells[-1].endswith("this turn.")          # the whole text, on the same line
    assert res.stdout.splitlines()[0].split("\t") == ["id", "name", "realm", "type", "cost", "speed", "stats",
                                                      "text"]


def test_piped_cards_are_one_unwrapped_line_each() -> None:
    _piped_cards(c1k_forked(["cards"]))


def test_piped_cards_are_one_unwrapped_line_each_from_the_real_command() -> None:
    _piped_cards(c1k_process(["cards"]))


def test_piped_rules_are_one_line_each() -> None:
    res = runner.invoke(app, ["rules"])
    assert res.exit_code == 0
    assert "C1K 4.3\tCombat damage" in res.output.splitlines()
    assert "│" not in res.output


def test_json_is_a_file_or_dash_in_every_command() -> None:
    """One meaning for --json: FILE, or - for stdout — never a flag."""
    cmd = typer.main.get_command(app)     # (typer's own copy of click: its classes, read by their fields)
    found = []

    def walk(c: Any, path: str) -> None:
        for p in c.params:
            if "--json" in getattr(p, "opts", []):
                found.append(path)
                assert not getattr(p, "is_flag", False), f"{path} --json is a flag"
                assert getattr(p, "metavar", None) == "FILE" or "FILE" in (p.help or ""), path
        for name, sub in getattr(c, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(cmd, "c1k")
    assert {"c1k bench", "c1k simulate", "c1k cards", "c1k decks", "c1k rules"} <= set(found)


def test_json_to_stdout_and_to_a_file(tmp_path: Path) -> None:
    decks = json.loads(runner.invoke(app, ["decks", "--json", "-"]).output)
    assert {"ironbound", "emberfall"} <= {d["name"] for d in decks}
    assert all(sum(d["cards"].values()) == 40 for d in decks)
    cards = json.loads(runner.invoke(app, ["cards", "--search", "Lancer of the Dawn", "--json", "-"]).output)
    assert [c["id"] for c in cards] == ["lancer-of-the-dawn-column"] and cards[0]["power"] == 3
    rules = json.loads(runner.invoke(app, ["rules", "C1K 4.3", "--json", "-"]).output)
    assert rules[0]["id"] == "C1K 4.3" and "damage" in rules[0]["text"].lower()
    out = tmp_path / "bench.json"
    res = runner.invoke(app, ["bench", "--matches", "2", "--json", str(out)])
    assert res.exit_code == 0 and json.loads(out.read_text(encoding="utf-8"))["matches"] == 2


def test_simulate_keeps_progress_off_stdout(tmp_path: Path) -> None:
    """The real command (progress bars look at the real streams); the report to stdout: the same app in-process."""
    res = c1k_process(["simulate", "ironbound", "emberfall", "--matches", "1", "--workers", "1", "--max-turns",
                       "30", "--no-plots"], env={"COLUMNS": "100"})
    assert res.returncode == 0, res.stderr
    assert "ETA" not in res.stdout and "simulate" not in res.stdout.split("\n", 1)[0]
    assert "Ironbound" in res.stdout               # the deck's own name (issue #30 item 3)
    report = c1k_forked(["simulate", "ironbound", "emberfall", "--matches", "1", "--workers", "1", "--max-turns",
                         "30", "--json", "-"])
    assert json.loads(report.stdout)["matches"] == 1          # stdout is the report alone


def _closed_pipe(args: list[str], read_first: bool) -> tuple[int, str]:
    """Run `c1k ARGS` into a pipe whose reader goes away — after one line (`| head -1`), or before the
    first byte, so that every run meets the closed pipe rather than only a run that loses the race."""
    proc = subprocess.Popen([sys.executable, "-m", "c1k_tui", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdout is not None and proc.stderr is not None
    if read_first:
        proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    return proc.wait(timeout=300), err


@pytest.mark.parametrize("args", [["cards"], ["decks"], ["rules"]], ids=["cards", "decks", "rules"])
def test_a_closed_pipe_ends_the_command_quietly(args: list[str]) -> None:
    """Issue #32 item 1: `c1k cards | head -1` exits 0 or dies by SIGPIPE, as `cat` does — never exit 1,
    never a traceback or "Exception ignored" on stderr."""
    for read_first in (True, False):
        code, err = _closed_pipe(args, read_first)
        assert code in (0, -signal.SIGPIPE), (args, read_first, code, err)
        assert err == "", (args, read_first, err)


def test_ctrl_c_in_the_text_loop_exits_130_with_a_line_on_stderr(tmp_path: Path) -> None:
    """Issue #32 item 1: Ctrl-C (SIGINT) at the prompt of `c1k play --text` exits with status 130 (128 +
    SIGINT) and says so on stderr, naming where the match is saved; no traceback."""
    save = tmp_path / "m.json"
    proc = subprocess.Popen([sys.executable, "-m", "c1k_tui", "play", "--text", "--seed", "3", "--save", str(save)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "NO_COLOR": "1"}, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    seen = ""
    while "Match begins" not in seen:           # the loop has started (and soon waits for a command)
        line = proc.stdout.readline()
        assert line, f"no match started: {proc.communicate()[1]}"
        seen += line
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "(interrupted — the match is saved in" in err and str(save) in err
    assert "Traceback" not in err + out and "(interrupted" not in out
