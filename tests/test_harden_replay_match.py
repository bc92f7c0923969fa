"""`c1k replay X --match N` reads X as `c1k replay X` does (issue #28 item 5): a bounded, refusing read, so a
FIFO, /dev/zero, /dev/urandom or a link to one is refused by name at once instead of hanging or filling
the memory. Each case runs in a child process with a timeout (a hang is a failure, not a stuck test run) and a
memory limit: a fork of the test's process running the Typer app (tests/cli_run.py), and the real `python -m
c1k_tui` for the first case (the rest of those in the slow tier, tests/conftest.py SAMPLED)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_run import Ran, c1k_forked, c1k_process


def _targets(tmp: Path) -> list[tuple[str, Path, str]]:
    fifo = tmp / "report.json"
    os.mkfifo(fifo)
    (tmp / "to-fifo.json").symlink_to(fifo)
    (tmp / "to-zero.json").symlink_to("/dev/zero")
    (tmp / "to-urandom.json").symlink_to("/dev/urandom")
    return [("a FIFO", fifo, "is a FIFO (named pipe), not a simulation report file"),
            ("/dev/zero", Path("/dev/zero"), "is a character device, not a simulation report file"),
            ("/dev/urandom", Path("/dev/urandom"), "is a character device, not a simulation report file"),
            ("a link to a FIFO", tmp / "to-fifo.json", "is a FIFO (named pipe)"),
            ("a link to /dev/zero", tmp / "to-zero.json", "is a character device"),
            ("a link to /dev/urandom", tmp / "to-urandom.json", "is a character device")]


def _refuses_at_once(tmp_path: Path, n: int, run: Callable[..., Ran]) -> None:
    what, target, said = _targets(tmp_path)[n]
    res = run(["replay", str(target), "--match", "1"], cwd=tmp_path, timeout=120)
    assert res.returncode == 2, (what, res.stdout, res.stderr)
    assert f"{target}: {said}" in res.stderr, (what, res.stderr)
    assert "Traceback" not in res.stderr + res.stdout


@pytest.mark.parametrize("n", range(6))
def test_replay_match_refuses_a_fifo_or_device_at_once(tmp_path: Path, n: int) -> None:
    _refuses_at_once(tmp_path, n, c1k_forked)


@pytest.mark.parametrize("n", range(6))
def test_replay_match_refuses_a_fifo_or_device_at_once_in_the_real_command(tmp_path: Path, n: int) -> None:
    _refuses_at_once(tmp_path, n, c1k_process)
