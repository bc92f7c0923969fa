"""Where the app keeps its files (issue #21 item 5): player options in the user config folder, lesson
progress in the user data folder, autosaves in the user state folder (platformdirs: the XDG folders on
Linux), all three in $C1K_HOME when it is set. The first versions kept everything in the state folder:
a file found only there is moved on the first run that looks for it, and read from its new place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from c1k_tui.model import lessons, paths


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("C1K_HOME", raising=False)
    for kind in ("STATE", "CONFIG", "DATA"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    return tmp_path


def test_config_data_and_state_are_three_folders(xdg: Path) -> None:
    assert paths.prefs_file() == xdg / "config" / "c1k" / "players.json"
    assert lessons.progress_path() == xdg / "data" / "c1k" / "lessons.json"
    assert paths.default_autosave() == xdg / "state" / "c1k" / "autosave.json"
    assert paths.default_autosave(lesson=True) == xdg / "state" / "c1k" / "lesson-autosave.json"


def test_c1k_home_holds_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("C1K_HOME", str(tmp_path / "home"))
    assert {paths.prefs_file().parent, lessons.progress_path().parent, paths.default_autosave().parent} == {
        tmp_path / "home"}


def test_old_files_move_to_their_folders_on_first_run(xdg: Path) -> None:
    old = xdg / "state" / "c1k"
    old.mkdir(parents=True)
    (old / "players.json").write_text(json.dumps({"Mira": {"pace_ms": 150, "quick_play": True}}), encoding="utf-8")
    (old / "lessons.json").write_text(json.dumps({"completed": ["01-priority-and-the-stack"]}), encoding="utf-8")
    (old / "autosave.json").write_text("{}", encoding="utf-8")

    prefs, err = paths.load_prefs("Mira")
    assert err == "" and prefs is not None and prefs.pace_ms == 150 and prefs.quick_play
    assert lessons.completed() == {"01-priority-and-the-stack"}
    assert (xdg / "config" / "c1k" / "players.json").exists() and not (old / "players.json").exists()
    assert (xdg / "data" / "c1k" / "lessons.json").exists() and not (old / "lessons.json").exists()
    assert (old / "autosave.json").exists()            # the state folder is still the state folder


def test_a_file_already_in_its_new_place_is_not_overwritten(xdg: Path) -> None:
    old = xdg / "state" / "c1k"
    old.mkdir(parents=True)
    (old / "players.json").write_text(json.dumps({"Mira": {"pace_ms": 150}}), encoding="utf-8")
    new = xdg / "config" / "c1k"
    new.mkdir(parents=True)
    (new / "players.json").write_text(json.dumps({"Mira": {"pace_ms": 400}}), encoding="utf-8")
    prefs, _ = paths.load_prefs("Mira")
    assert prefs is not None and prefs.pace_ms == 400
    assert (old / "players.json").exists()


def test_saving_writes_to_the_config_folder(xdg: Path) -> None:
    assert paths.save_prefs({"Tomas": paths.PlayerPrefs(None, 400, False)}) == ""
    data = json.loads((xdg / "config" / "c1k" / "players.json").read_text(encoding="utf-8"))
    assert data["Tomas"]["pace_ms"] == 400
    lessons.mark_completed("02-respond-at-fast-speed")
    assert "02-respond-at-fast-speed" in (xdg / "data" / "c1k" / "lessons.json").read_text(encoding="utf-8")
