"""Every file c1k writes goes by one policy (engine/safeio.py, issue #28 item 3): never onto a device, FIFO,
folder or symbolic link; over an existing file only if it is a file of the same kind (a report over a
report, a record over a record) or with --force; always atomically. `--json -` stays stdout."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model import deckbuild
from c1k_tui.screens.lab_screen import save_report
from engine.cards import load_card_db
from engine.safeio import WriteRefused, write_atomic, write_refusal

runner = CliRunner()
DB = load_card_db()

# (name, arguments with T for the target): every command-line writer, cheap when refused (checked first)
CLI_WRITERS: list[tuple[str, list[str]]] = [
    ("simulate --json", ["simulate", "ironbound", "emberfall", "--matches", "1", "--agent", "random",
                         "--workers", "1", "--quiet", "--json", "T"]),
    ("simulate --csv", ["simulate", "ironbound", "emberfall", "--matches", "1", "--agent", "random",
                        "--workers", "1", "--quiet", "--csv", "T"]),
    ("cards --json", ["cards", "--json", "T"]),
    ("rules --json", ["rules", "--json", "T"]),
    ("decks --json", ["decks", "--json", "T"]),
    ("decks show --json", ["decks", "show", "ironbound", "--json", "T"]),
    ("bench --json", ["bench", "--matches", "1", "--json", "T"]),
    ("play --save", ["play", "--text", "--seed", "1", "--save", "T"]),
]


def _bad_targets(tmp: Path) -> dict[str, Path]:
    """A FIFO, a folder, a link to a file, a link to nothing: each must be left exactly as it was."""
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    folder = tmp / "folder"
    folder.mkdir()
    real = tmp / "real.json"
    real.write_text("{}\n")
    link = tmp / "link.json"
    link.symlink_to(real)
    dangling = tmp / "dangling.json"
    dangling.symlink_to(tmp / "nowhere.json")
    return {"FIFO": fifo, "folder": folder, "link to a file": link, "link to nothing": dangling}


def _state(p: Path) -> tuple[int, str]:
    st = os.lstat(p)
    return st.st_mode, os.readlink(p) if p.is_symlink() else ""


@pytest.mark.parametrize(("name", "args"), CLI_WRITERS, ids=[w[0] for w in CLI_WRITERS])
def test_no_writer_replaces_a_fifo_folder_or_link(tmp_path: Path, name: str, args: list[str]) -> None:
    for what, target in _bad_targets(tmp_path).items():
        before = _state(target)
        res = runner.invoke(app, [str(target) if a == "T" else a for a in args], input="quit\n")
        assert res.exit_code == 2, (name, what, res.output)
        assert str(target) in res.output and "Traceback" not in res.output, (name, what, res.output)
        assert _state(target) == before, f"{name} changed the {what}"
        assert (tmp_path / "real.json").read_text() == "{}\n", f"{name} wrote through a link"
        assert not (tmp_path / "nowhere.json").exists()
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")], "no temporary file is left"


@pytest.mark.parametrize(("name", "args"), [w for w in CLI_WRITERS if w[0] != "play --save"],
                         ids=[w[0] for w in CLI_WRITERS if w[0] != "play --save"])
def test_a_file_of_another_kind_is_replaced_only_with_force(tmp_path: Path, name: str, args: list[str]) -> None:
    target = tmp_path / "v.txt"
    target.write_text("x\n")
    res = runner.invoke(app, [str(target) if a == "T" else a for a in args])
    assert res.exit_code == 2 and "is not replaced" in res.output and "--force" in res.output, (name, res.output)
    assert target.read_text() == "x\n"
    res = runner.invoke(app, [str(target) if a == "T" else a for a in args] + ["--force"])
    assert res.exit_code in (0, 1), (name, res.output)         # (decks show exits 1 for a broken deck only)
    assert target.read_text() != "x\n"
    res = runner.invoke(app, [str(target) if a == "T" else a for a in args])
    assert res.exit_code in (0, 1), f"{name}: a file of its own kind is replaced without --force: {res.output}"


def test_json_dash_is_stdout_and_devices_are_refused_before_any_write() -> None:
    res = runner.invoke(app, ["cards", "--json", "-", "--realm", "veil"])
    assert res.exit_code == 0 and json.loads(res.output)
    for dev in ("/dev/null", "/dev/full"):      # (checked, never written: a regression must not hit them)
        why = write_refusal(dev, "reports", force=True)
        assert why is not None and "character device" in str(why)


def test_a_report_over_a_record_and_a_record_over_a_report_are_refused(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    res = runner.invoke(app, ["play", "--text", "--seed", "2", "--save", str(record)], input="pass\nquit\n")
    assert res.exit_code == 0 and record.exists()
    before = record.read_bytes()
    why = write_refusal(record, "reports")
    assert why is not None and "not a c1k simulation report" in str(why) and why.replaceable
    res = runner.invoke(app, ["cards", "--json", str(record)])
    assert res.exit_code == 2 and "is not a JSON file" in res.output and record.read_bytes() == before
    report = tmp_path / "r.json"
    report.write_text(json.dumps({"decks": {}, "games": []}))
    res = runner.invoke(app, ["play", "--text", "--seed", "2", "--save", str(report)], input="quit\n")
    assert res.exit_code == 2 and "not a c1k match record" in res.output


def _draft() -> deckbuild.DeckDraft:
    from engine.decks import find_deck

    return deckbuild.open_deck(Path(find_deck("ironbound")), DB)


APP_WRITERS: list[tuple[str, Callable[[Path], object]]] = [
    ("deck builder", lambda p: deckbuild.save(_draft(), p, DB, overwrite=True)),
    ("Lab report", lambda p: save_report({"decks": {}, "games": [], "pairs": [], "cards": []}, p)),
    ("write_atomic", lambda p: write_atomic(p, "{}", "settings", force=True)),
]


@pytest.mark.parametrize(("name", "write"), APP_WRITERS, ids=[w[0] for w in APP_WRITERS])
def test_the_apps_writers_refuse_a_fifo_folder_or_link_even_when_told_to_replace(
        tmp_path: Path, name: str, write: Callable[[Path], object]) -> None:
    for what, target in _bad_targets(tmp_path).items():
        before = _state(target)
        with pytest.raises(WriteRefused) as err:
            write(target)
        assert str(target) in str(err.value), (name, what)
        assert _state(target) == before, f"{name} changed the {what}"
        assert (tmp_path / "real.json").read_text() == "{}\n"
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_write_atomic_keeps_the_old_file_when_the_write_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "r.json"
    target.write_text('{"decks": {}, "games": []}')
    os.chmod(target, 0o640)

    def boom(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, '{"decks": {}, "games": [1]}', "reports")
    assert target.read_text() == '{"decks": {}, "games": []}'
    monkeypatch.undo()
    write_atomic(target, '{"decks": {}, "games": [1]}', "reports")
    assert json.loads(target.read_text())["games"] == [1]
    assert oct(os.stat(target).st_mode & 0o777) == oct(0o640), "a replaced file keeps its mode"
    assert sorted(os.listdir(tmp_path)) == ["r.json"]
