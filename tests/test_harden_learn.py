"""`c1k learn LESSON` with a bad lesson (issue #28 item 4): a clear message naming what was given and
exit 2, never a traceback and never lesson 1 instead — in the text loop and before the app starts."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli import main

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _kinds(tmp: Path) -> list[tuple[str, list[str], str]]:
    """(kind, arguments after `learn`, what the message must say)."""
    fifo = tmp / "fifo.scenario.toml"
    os.mkfifo(fifo)
    folder = tmp / "folder.scenario.toml"
    folder.mkdir()
    (tmp / "bad.toml").write_text("not = toml = x\n")
    (tmp / "latin1.toml").write_bytes(b"[scenario]\ntitle = \"caf\xe9\"\n")
    (tmp / "empty.toml").write_text("")
    (tmp / "zero-link.toml").symlink_to("/dev/zero")
    (tmp / "fifo-link.toml").symlink_to(fifo)
    deck = str(ROOT / "decks" / "ironbound.toml")
    return [
        ("a FIFO", [str(fifo)], "is a FIFO"),
        ("/dev/zero", ["/dev/zero"], "is a character device"),
        ("a folder", [str(folder)], "is a folder"),
        ("not TOML", [str(tmp / "bad.toml")], "not valid TOML"),
        ("not UTF-8", [str(tmp / "latin1.toml")], "not UTF-8"),
        ("an empty file", [str(tmp / "empty.toml")], "empty.toml"),
        ("a deck file", [deck], "unknown key 'deck'"),
        ("a link to /dev/zero", [str(tmp / "zero-link.toml")], "is a character device"),
        ("a link to a FIFO", [str(tmp / "fifo-link.toml")], "is a FIFO"),
        ("a superscript digit", ["²"], "'²' is not a lesson number"),
        ("0", ["0"], "no lesson 0: the lessons are numbered 1 to"),
        ("empty text", [""], "not empty text"),
        ("past the course", ["99999"], "no lesson 99999"),
        ("a name that is nothing", ["no-such-lesson"], "no lesson 'no-such-lesson'"),
        ("a control character", ["a\x1b[31mb"], "control character U+001B"),
        ("--cards /dev/zero", ["--cards", "/dev/zero", "1"], "/dev/zero: is a character device, not a card file"),
    ]


def _check(res: Any, kind: str, said: str) -> None:
    assert res.exit_code == 2, (kind, res.output)
    assert said in res.output, (kind, res.output)
    assert "Traceback" not in res.output and "NOW:" not in res.output, (kind, "a lesson was started")
    assert "\x1b" not in res.output, (kind, "a control character reached the terminal")


def test_learn_text_refuses_every_kind_of_bad_lesson(tmp_path: Path) -> None:
    kinds = _kinds(tmp_path)
    assert len(kinds) == 16          # the 15 kinds of bad lesson file and name, and --cards
    for kind, args, said in kinds:
        _check(runner.invoke(main.app, ["learn", "--text", *args], input="quit\n"), kind, said)


def test_learn_in_the_app_refuses_them_before_it_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import c1k_tui.screens.app as app_module

    started: list[object] = []

    class NoApp:
        def __init__(self, *args: object, **kw: object) -> None:
            started.append(kw)

        def run(self) -> None:
            pass

    monkeypatch.setattr(main, "_interactive", lambda: True)
    monkeypatch.setattr(app_module, "C1KApp", NoApp)
    for kind, args, said in _kinds(tmp_path):
        _check(runner.invoke(main.app, ["learn", *args]), kind, said)
        assert not started, f"{kind}: the app started"
    res = runner.invoke(main.app, ["learn", "2"])              # a good one still opens
    assert res.exit_code == 0 and len(started) == 1, res.output


def test_a_broken_lesson_in_the_course_stops_only_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`c1k learn N --text` reads only lesson N: another lesson of the course that is broken (a hand-edited
    file) neither stops it nor shifts the numbering; asked for, the broken one names its file."""
    import shutil

    import c1k_tui.model.paths as paths

    course = tmp_path / "lessons"
    course.mkdir()
    shutil.copy(ROOT / "decks" / "lessons" / "01-priority-and-the-stack.scenario.toml", course)
    (course / "02-broken.scenario.toml").write_text("[scenario]\ntitle = \"half a lesson\"\n")
    monkeypatch.setattr(paths, "lessons_dir", lambda: course)
    res = runner.invoke(main.app, ["learn", "1", "--text"], input="quit\n")
    assert "Traceback" not in res.output and (res.exception is None or isinstance(res.exception, SystemExit))
    assert "Priority" in res.output and "02-broken" not in res.output, res.output       # lesson 1 began
    res = runner.invoke(main.app, ["learn", "2", "--text"], input="quit\n")
    assert res.exit_code == 2 and "02-broken.scenario.toml" in res.output, res.output
    assert "Traceback" not in res.output
