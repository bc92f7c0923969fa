"""Issue #23 item 1: everything a record says is hashed. Each tampering the probes found accepted — the AI
seats deleted or added, open hands switched on, names swapped, an `auto` flag flipped, a refusal
reworded, a part digest changed, a duplicate `commands` key, a version that is `true` or `2.0` — is
refused through the real entry points (`c1k replay`, `c1k resume --text`): a message, a non-zero exit,
no traceback, and the file left as it was."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession
from engine import record as rec
from engine.actions import IllegalAction, Play
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.state import MatchOptions

DB = load_card_db()
runner = CliRunner()


def _vs_record() -> dict[str, Any]:
    """A saved match against the random agent: the human passes; the flow sends auto passes; one refused
    attempt (it moves priority, C1K 10)."""
    decks = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB)]
    decks[0].player, decks[1].player = "Mira", "Tomas"
    s = VersusSession.new_vs(DB, decks, 5, MatchOptions(max_turns=4), {1: "random"}, flow=Flow("stops"))
    s.run_autos()
    refused = False
    for _ in range(40):
        g = s.game
        if g.is_terminal():
            break
        p = g.current_player()
        if p == 1:
            from engine import InfoSet, make_agent

            s.send(make_agent("random", 3).act(InfoSet(g, 1)), 1)
            continue
        if not refused and g.pending.kind == "priority":
            with pytest.raises(IllegalAction):
                g.apply(Play(9999), 0)
            refused = True
            continue
        texts = [str(a) for a in g.legal_actions()]
        s.send(next(t for t in ("pass", "attack none", "block none", "decline") if t in texts) if any(
            t in texts for t in ("pass", "attack none", "block none", "decline")) else texts[0], 0)
    data: dict[str, Any] = json.loads(s.record().to_json())
    assert data["agents"] and any(c.get("auto") for c in data["commands"]) and refused
    assert any(c.get("refused") for c in data["commands"])
    return data


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    return _vs_record()


def _first(cmds: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return next(c for c in cmds if pred(c))


def _flip_auto(d: dict[str, Any]) -> None:
    c = _first(d["commands"], lambda c: bool(c.get("auto")))
    del c["auto"]


def _reword(d: dict[str, Any]) -> None:
    c = _first(d["commands"], lambda c: bool(c.get("refused")))
    c["refused"] = c["refused"] + " (reworded)"


def _changed(d: dict[str, Any]) -> None:
    c = _first(d["commands"], lambda c: bool(c["changed"]))
    k = next(iter(c["changed"]))
    c["changed"][k] = "00000000"


def _swap(d: dict[str, Any]) -> None:
    d["players"] = {"p1": d["players"]["p2"], "p2": d["players"]["p1"]}


TAMPERS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "agents deleted": (lambda d: d.pop("agents"), "the AI seats"),
    "agents added": (lambda d: d["agents"].update({"p1": {"agent": "random", "seed": "1"}}), "the AI seats"),
    "open hands": (lambda d: d["app"].update({"open_hands": True}), "the app settings"),
    "names swapped": (_swap, "the players' names"),
    "auto flipped": (_flip_auto, "its text, seat, auto flag, refusal or hash was changed"),
    "refusal reworded": (_reword, "the record gives the refusal as"),
    "changed digest": (_changed, "the state after it doesn't match"),
    "start parts": (lambda d: d["start"]["parts"].update({"rng": "00000000"}), "the random generator"),
    "start hash": (lambda d: d["start"].update({"hash": "0" * 64}), "the start hash itself was changed"),
    "command hash": (lambda d: d["commands"][2].update({"hash": "0" * 64}), "command 3 of"),
    "flow changed": (lambda d: d["app"]["flow"].update({"mode": "full"}), "the app settings"),
}


def _write(tmp_path: Path, data: dict[str, Any] | str) -> tuple[Path, bytes]:
    p = tmp_path / "m.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p, p.read_bytes()


def _refused(p: Path, before: bytes, *args: str) -> str:
    res = runner.invoke(app, [*args, str(p)])
    assert res.exit_code != 0, res.output
    assert "Traceback" not in res.output and res.exception is None or isinstance(res.exception, SystemExit)
    assert p.read_bytes() == before, "the record file was changed"
    return res.output


def test_the_untouched_record_replays(saved: dict[str, Any], tmp_path: Path) -> None:
    p, _ = _write(tmp_path, saved)
    res = runner.invoke(app, ["replay", str(p)])
    assert res.exit_code == 0, res.output
    assert "every state hash checked" in res.output


@pytest.mark.parametrize("how", list(TAMPERS))
def test_each_tampering_is_refused_by_replay_and_resume(saved: dict[str, Any], tmp_path: Path, how: str) -> None:
    data = json.loads(json.dumps(saved))
    change, words = TAMPERS[how]
    change(data)
    p, before = _write(tmp_path, data)
    out = _refused(p, before, "replay")
    assert words in out, out
    out2 = _refused(p, before, "resume", "--text")
    assert "can't resume" in out2 or "against an AI" in out2, out2


def test_a_duplicate_key_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(saved)
    text = text.replace('"commands": [', '"commands": [], "commands": [', 1)
    p, before = _write(tmp_path, text)
    out = _refused(p, before, "replay")
    assert "the key 'commands' appears twice" in out, out


@pytest.mark.parametrize("version", ["true", "2.0", "2", "1", "\"3\""])
def test_a_version_that_is_not_the_whole_number_3_is_refused(saved: dict[str, Any], tmp_path: Path,
                                                            version: str) -> None:
    text = json.dumps(saved).replace('"version": 3', f'"version": {version}', 1)
    p, before = _write(tmp_path, text)
    out = _refused(p, before, "replay")
    assert ("unknown record version" in out or "version 2 record" in out or "version 1 record" in out), out


def test_a_forger_who_recomputes_the_hashes_is_not_stopped(saved: dict[str, Any], tmp_path: Path) -> None:
    """What the hash does not protect against (docs/formats.md, README): it is unkeyed, so whoever recomputes
    it after a change gets a record that loads. This test documents the limit: it must keep passing."""
    data = json.loads(json.dumps(saved))
    data["app"]["open_hands"] = True
    r = rec.from_data(data)
    head = r.head()
    game, _ = rec.begin_game(r.start, DB)
    parts = {**rec.start_parts(r.start), **rec.state_parts(game), **rec.head_parts(r)}
    data["start"]["hash"] = rec.start_seal(head, game.state_hash(), parts)
    data["start"]["parts"] = parts
    p, _ = _write(tmp_path, data)
    assert runner.invoke(app, ["replay", str(p)]).exit_code == 0
    assert hashlib.sha256(b"x").hexdigest()       # (nothing keyed anywhere)


def test_a_record_saved_and_loaded_keeps_its_hashes(saved: dict[str, Any]) -> None:
    r = rec.from_data(json.loads(json.dumps(saved)))
    g = rec.replay(r, DB)
    again = json.loads(r.to_json())
    assert again["start"]["hash"] == saved["start"]["hash"]
    assert [c["hash"] for c in again["commands"]] == [c["hash"] for c in saved["commands"]]
    assert isinstance(g, Game)
