"""`c1k paths` (issue #32 item 2): where c1k keeps a user's files — the folders and the files in them, the
same paths the app itself reads and writes, $C1K_HOME when set; TSV when piped, JSON with --json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model import lessons, paths

runner = CliRunner()
NAMES = ["config", "players", "data", "lessons", "state", "autosave", "lesson-autosave"]


def _tsv() -> dict[str, str]:
    res = runner.invoke(app, ["paths"])
    assert res.exit_code == 0, res.output
    rows = [line.split("\t") for line in res.output.splitlines()]
    assert all(len(r) == 2 for r in rows), res.output
    return dict((r[0], r[1]) for r in rows)


def test_c1k_home_is_named_first_and_holds_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("C1K_HOME", str(tmp_path / "h"))
    got = _tsv()
    assert list(got) == ["C1K_HOME", *NAMES]
    assert got["C1K_HOME"] == str(tmp_path / "h")
    assert all(Path(p).is_relative_to(tmp_path / "h") for p in got.values())
    assert not (tmp_path / "h").exists()                # printing the paths creates nothing


def test_without_c1k_home_the_platform_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("C1K_HOME", raising=False)
    for kind in ("CONFIG", "DATA", "STATE"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    got = _tsv()
    assert "C1K_HOME" not in got and list(got) == NAMES
    assert got["config"] == str(tmp_path / "config" / "c1k")
    assert got["data"] == str(tmp_path / "data" / "c1k")
    assert got["state"] == str(tmp_path / "state" / "c1k")


def test_the_paths_are_the_ones_the_app_uses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file row is where the app reads and writes it: a saved option appears at the 'players' path,
    and the autosave and lesson progress paths are the app's own."""
    monkeypatch.delenv("C1K_HOME", raising=False)
    for kind in ("CONFIG", "DATA", "STATE"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    got = _tsv()
    assert got["autosave"] == str(paths.default_autosave())
    assert got["lesson-autosave"] == str(paths.default_autosave(lesson=True))
    assert got["lessons"] == str(lessons.progress_path())
    assert not Path(got["players"]).exists()
    assert paths.save_prefs({"Mira": paths.PlayerPrefs(pace_ms=150)}) == ""
    assert Path(got["players"]).is_file()


def test_json_to_stdout_says_what_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    (tmp_path / "autosave.json").write_text("{}", encoding="utf-8")
    res = runner.invoke(app, ["paths", "--json", "-"])
    assert res.exit_code == 0, res.output
    rows = {r["name"]: r for r in json.loads(res.output)}
    assert list(rows) == ["C1K_HOME", *NAMES]
    assert rows["autosave"] == {"name": "autosave", "path": str(tmp_path / "autosave.json"), "exists": True,
                                "what": rows["autosave"]["what"]}
    assert rows["players"]["exists"] is False and "resume" in rows["autosave"]["what"]
