"""Issue #23 item 3: `--save FILE` never replaces a file that isn't a match record of ours without
`--force` (the command line) or asking (the app's game-over screen); a folder, a device, a FIFO or a
socket is never replaced; a save is atomic."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import record as rec

runner = CliRunner()
DECK = (Path(__file__).resolve().parent.parent / "decks" / "ironbound.toml").read_text(encoding="utf-8")


def _play(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["play", "--text", "--seed", "3", *args], input="pass\npass\nquit\n")
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def test_a_deck_typed_in_the_wrong_place_is_not_replaced(tmp_path: Path) -> None:
    deck = tmp_path / "mine.toml"
    deck.write_text(DECK, encoding="utf-8")
    code, out = _play("--save", str(deck))
    assert code != 0 and "is not a c1k match record" in out and "--force" in out, out
    assert deck.read_text(encoding="utf-8") == DECK


def test_force_replaces_it_and_the_record_is_then_ours(tmp_path: Path) -> None:
    deck = tmp_path / "mine.toml"
    deck.write_text(DECK, encoding="utf-8")
    code, out = _play("--save", str(deck), "--force")
    assert code == 0, out
    assert json.loads(deck.read_text(encoding="utf-8"))["format"] == rec.FORMAT
    code, out = _play("--save", str(deck))        # our own record now: replaced without asking
    assert code == 0, out


def test_an_existing_record_is_replaced_without_force(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    assert _play("--save", str(target))[0] == 0
    first = target.read_bytes()
    assert _play("--save", str(target))[0] == 0
    assert target.read_bytes() != b"" and first.startswith(b'{\n "format": "c1k-match-record"')


@pytest.mark.parametrize("what", ["fifo", "device", "folder", "socket"])
def test_a_device_fifo_folder_or_socket_is_never_replaced_even_with_force(tmp_path: Path, what: str) -> None:
    target: Path
    sock = None
    if what == "fifo":
        target = tmp_path / "f"
        os.mkfifo(target)
    elif what == "device":
        target = Path("/dev/null")
    elif what == "folder":
        target = tmp_path / "d"
        target.mkdir()
    else:
        target = tmp_path / "s"
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(target))
    try:
        for extra in ([], ["--force"]):
            code, out = _play("--save", str(target), *extra)
            assert code != 0, out
            assert {"fifo": "FIFO", "device": "character device", "folder": "is a folder",
                    "socket": "socket"}[what] in out, out
    finally:
        if sock is not None:
            sock.close()
    assert target.exists()
    if what == "device":
        assert target.is_char_device()


def test_the_engine_save_refuses_too(tmp_path: Path) -> None:
    """`record.save` itself (every caller: autosave, the game-over screen) refuses a non-record file."""
    from engine.cards import load_card_db
    from engine.decks import find_deck, load_deck
    from engine.game import Game

    db = load_card_db()
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    g = Game.new(db, decks[0], decks[1], 1)
    r = rec.record_of(g, rec.Start.of_decks(decks, 1), g.clone())
    deck = tmp_path / "d.toml"
    deck.write_text(DECK, encoding="utf-8")
    with pytest.raises(rec.WouldReplace, match="not a c1k match record"):
        rec.save(r, deck)
    assert deck.read_text(encoding="utf-8") == DECK
    rec.allow_replace(deck)                # what the app does when the player says yes
    rec.save(r, deck)
    assert rec.load(deck).start.seed == 1
    assert [p.name for p in tmp_path.iterdir()] == ["d.toml"]     # no temporary file left
