"""Issue #23 item 2: every read is bounded before it starts. A FIFO (which would hang the reader), a
device (/dev/zero would fill the memory) or a folder is refused by name, and a file over its kind's cap
is refused from its size alone — a 1 GB sparse file costs a `stat`, not a read. Driven through the
real command line in a subprocess (a FIFO read by mistake would hang the test, not fail it: the
subprocess timeout turns that into a failure)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from engine.safeio import CAPS, Kind, ReadRefused, read_bounded

ROOT = Path(__file__).resolve().parent.parent

COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "{f}"],
    "replay": ["replay", "{f}"],
    "resume": ["resume", "--text", "{f}"],
    "scenario check": ["scenario", "check", "{f}"],
    "play --scenario": ["play", "--text", "--scenario", "{f}"],
    "play DECK": ["play", "--text", "{f}", "emberfall"],
}


def c1k(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "C1K_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "c1k_tui.cli.main", *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, cwd=ROOT, env=env)


def _refused(res: subprocess.CompletedProcess[str], *words: str) -> None:
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert "Traceback" not in out and "MemoryError" not in out, out
    for w in words:
        assert w in out, out


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_fifo_is_refused_by_name_and_never_read(tmp_path: Path, name: str) -> None:
    fifo = tmp_path / ("x.scenario.toml" if "scenario" in name else "x.toml")
    os.mkfifo(fifo)
    res = c1k([a.format(f=fifo) for a in COMMANDS[name]], tmp_path)
    _refused(res, "FIFO")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_dev_zero_is_refused_as_a_device(tmp_path: Path, name: str) -> None:
    res = c1k([a.format(f="/dev/zero") for a in COMMANDS[name]], tmp_path)
    _refused(res, "character device")


@pytest.mark.parametrize("name", ["validate", "replay", "scenario check", "play DECK"])
def test_a_1_gb_sparse_file_is_refused_from_its_size(tmp_path: Path, name: str) -> None:
    big = tmp_path / ("big.scenario.toml" if "scenario" in name else "big.toml")
    with big.open("wb") as f:
        f.truncate(1 << 30)
    res = c1k([a.format(f=big) for a in COMMANDS[name]], tmp_path)
    _refused(res, "1,073,741,824 bytes", "at most")


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
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for kind, cap in CAPS.items():
        assert f"{cap:,}" in readme and kind in readme, kind
