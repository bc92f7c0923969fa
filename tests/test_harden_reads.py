"""Issue #23 item 2: every read is bounded before it starts. A FIFO (which would hang the reader), a
device (/dev/zero would fill the memory) or a folder is refused by name, and a file over its kind's cap
is refused from its size alone — a 1 GB sparse file costs a `stat`, not a read. Driven through the
command line in a child process (a FIFO read by mistake would hang the test, not fail it: the child's
timeout turns that into a failure; /dev/zero read by mistake meets the child's memory limit): a fork of the
test's process running the Typer app (tests/cli_run.py), and for one command of each case the real
`python -m c1k_tui` (the rest of those in the slow tier, tests/conftest.py SAMPLED)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from engine.safeio import CAPS, Kind, ReadRefused, read_bounded
from tests.cli_run import ROOT, Ran, c1k_forked, c1k_process

COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "{f}"],
    "replay": ["replay", "{f}"],
    "resume": ["resume", "--text", "{f}"],
    "scenario check": ["scenario", "check", "{f}"],
    "play --scenario": ["play", "--text", "--scenario", "{f}"],
    "play DECK": ["play", "--text", "{f}", "emberfall"],
}
SPARSE = ["validate", "replay", "scenario check", "play DECK"]

Run = Callable[..., Ran]


def _refused(res: Ran, *words: str) -> None:
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert "Traceback" not in out and "MemoryError" not in out, out
    for w in words:
        assert w in out, out


def _fifo(tmp_path: Path, name: str, run: Run) -> None:
    fifo = tmp_path / ("x.scenario.toml" if "scenario" in name else "x.toml")
    os.mkfifo(fifo)
    _refused(run([a.format(f=fifo) for a in COMMANDS[name]]), "FIFO")


def _dev_zero(name: str, run: Run) -> None:
    _refused(run([a.format(f="/dev/zero") for a in COMMANDS[name]]), "character device")


def _sparse(tmp_path: Path, name: str, run: Run) -> None:
    big = tmp_path / ("big.scenario.toml" if "scenario" in name else "big.toml")
    with big.open("wb") as f:
        f.truncate(1 << 30)
    _refused(run([a.format(f=big) for a in COMMANDS[name]]), "1,073,741,824 bytes", "at most")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_fifo_is_refused_by_name_and_never_read(tmp_path: Path, name: str) -> None:
    _fifo(tmp_path, name, c1k_forked)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_fifo_is_refused_by_name_and_never_read_by_the_real_command(tmp_path: Path, name: str) -> None:
    _fifo(tmp_path, name, c1k_process)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_dev_zero_is_refused_as_a_device(name: str) -> None:
    _dev_zero(name, c1k_forked)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_dev_zero_is_refused_as_a_device_by_the_real_command(name: str) -> None:
    _dev_zero(name, c1k_process)


@pytest.mark.parametrize("name", SPARSE)
def test_a_1_gb_sparse_file_is_refused_from_its_size(tmp_path: Path, name: str) -> None:
    _sparse(tmp_path, name, c1k_forked)


@pytest.mark.parametrize("name", SPARSE)
def test_a_1_gb_sparse_file_is_refused_from_its_size_by_the_real_command(tmp_path: Path, name: str) -> None:
    _sparse(tmp_path, name, c1k_process)


@pytest.mark.parametrize("kind", sorted(CAPS))
def test_each_kind_has_its_cap_checked_before_reading(tmp_path: Path, kind: str) -> None:
    cap = CAPS[kind]
    ok = tmp_path / "ok"
    with ok.open("wb") as f:
        f.truncate(cap)
    assert len(read_bounded(ok, cast(Kind, kind))) == cap
    over = tmp_path / "over"
    with over.open("wb") as f:
        f.truncate(cap + 1)
    with pytest.raises(ReadRefused, match=f"at most {cap:,} bytes"):
        read_bounded(over, cast(Kind, kind))


def test_a_folder_and_a_missing_file_are_named(tmp_path: Path) -> None:
    with pytest.raises(ReadRefused, match="is a folder"):
        read_bounded(tmp_path, "records")
    with pytest.raises(ReadRefused, match="no such file"):
        read_bounded(tmp_path / "none.json", "records")


def test_a_fifo_as_players_json_is_a_notice_not_a_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "players.json")
    from c1k_tui.model.settings import check_prefs, read_settings

    data, note = read_settings(tmp_path / "players.json", check_prefs, "the saved player options")
    assert data is None and "FIFO" in note and "defaults" in note


def test_the_caps_are_documented() -> None:
    doc = (ROOT / "docs/formats.md").read_text(encoding="utf-8")    # (the contract; the README is short)
    for kind, cap in CAPS.items():
        assert f"{kind} {cap:,}" in " ".join(doc.split()), kind
