"""rules.md §7a, decision of 2026-12-07: a hidden match stays hidden outside the app too.

A record of a match in progress played with hands hidden is opened only as it was played (`--open-hands`
refused, in the text loop and the app, vs-AI autosaves too); no command prints its seed; one process at a
time holds a match's file, and a second one says who holds it and changes nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli import main
from c1k_tui.model import savelock
from c1k_tui.model.session import Flow, MatchSession
from c1k_tui.model.versus_session import VersusSession, agent_spec
from engine import MatchOptions, observe
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck

DB = load_card_db()
runner = CliRunner()
SEED = 4711
ROOT = Path(__file__).resolve().parent.parent


def _decks() -> list[Any]:
    decks = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("veil-masquerade"), DB)]
    decks[0].player, decks[1].player = "Ana", "Ben"
    return decks


def _saved(path: Path, open_hands: bool = False, over: bool = False, vs_ai: bool = False) -> MatchSession:
    """A match played a few passes in (or conceded), autosaved to `path` as the app saves it."""
    if vs_ai:
        s: MatchSession = VersusSession.new_vs(DB, _decks(), SEED, MatchOptions(), {1: agent_spec("ai:1")}, flow=Flow("full"),
                                               save_path=path, open_hands=open_hands)
    else:
        s = MatchSession.new(DB, _decks(), SEED, flow=Flow("full"), save_path=path, open_hands=open_hands)
    for _ in range(6):
        if s.game.current_player() == 0:
            s.send("pass")
    if over:
        s.send("concede", s.game.current_player())
        assert s.game.is_terminal()
    s.save()
    savelock.release(path)            # the test process gives the file back, as a finished c1k does
    return s


def _hand_names(s: MatchSession, p: int) -> list[str]:
    return [c.name for c in observe(s.game, p).hand]


def test_7a_resume_text_open_hands_refused_while_a_hidden_match_is_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    s = _saved(path)
    before = path.read_bytes()
    res = runner.invoke(main.app, ["resume", "--text", "--open-hands", str(path)], input="quit\n")
    assert res.exit_code == 2, res.output
    assert "match in progress played with hands hidden" in res.output
    assert not any(name in res.output for name in _hand_names(s, 1)), "no hand of Ben's is shown"
    assert path.read_bytes() == before, "a refused resume changes nothing"
    assert "Traceback" not in res.output


def test_7a_resume_app_open_hands_refused_for_a_hidden_vs_ai_autosave(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "auto.json"
    _saved(path, vs_ai=True)
    before = path.read_bytes()
    monkeypatch.setattr(main, "_interactive", lambda: True)
    started: list[object] = []
    monkeypatch.setattr(main, "_run_app", started.append)
    res = runner.invoke(main.app, ["resume", "--open-hands", str(path)])
    assert res.exit_code == 2, res.output
    assert "match in progress played with hands hidden" in res.output
    assert not started, "the app never starts on a refused --open-hands"
    assert path.read_bytes() == before
    res = runner.invoke(main.app, ["resume", str(path)])         # as it was played: the app opens it
    assert res.exit_code == 0 and len(started) == 1, res.output


def test_7a_open_hands_allowed_once_the_match_is_over_or_when_it_was_played_open(tmp_path: Path) -> None:
    over = tmp_path / "over.json"
    _saved(over, over=True)
    res = runner.invoke(main.app, ["resume", "--text", "--open-hands", str(over)], input="quit\n")
    assert res.exit_code == 0, res.output
    shown = tmp_path / "open.json"
    s = _saved(shown, open_hands=True)
    res = runner.invoke(main.app, ["resume", "--text", "--open-hands", str(shown)], input="quit\n")
    assert res.exit_code == 0, res.output
    assert all(name in res.output for name in _hand_names(s, 1))


def test_7a_replay_never_prints_the_seed_of_an_unfinished_hidden_match(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for name, kw, seed_shown in (("hidden.json", {}, False), ("vsai.json", {"vs_ai": True}, False),
                                 ("over.json", {"over": True}, True), ("open.json", {"open_hands": True}, True)):
        path = tmp_path / name
        _saved(path, **kw)
        res = runner.invoke(main.app, ["replay", str(path)])
        assert res.exit_code == 0, res.output
        assert res.output.splitlines()[0].startswith("Ironbound (Ana, p1) vs Veil Masquerade (Ben, p2")
        assert (str(SEED) in res.output) == seed_shown, (name, res.output.splitlines()[0])
    # the replay screen shows both hands: it opens an unfinished hidden match only once it is over
    monkeypatch.setattr(main, "_interactive", lambda: True)
    res = runner.invoke(main.app, ["replay", str(tmp_path / "hidden.json")])
    assert res.exit_code == 2 and "shows both hands" in res.output, res.output
    assert str(SEED) not in res.output


def test_7a_resume_text_keeps_the_records_app_settings(tmp_path: Path) -> None:
    """A text-loop resume of an app autosave writes back the app's settings (flow, stops), not {}."""
    path = tmp_path / "auto.json"
    s = _saved(path)
    res = runner.invoke(main.app, ["resume", "--text", str(path)], input="pass\nquit\n")
    assert res.exit_code == 0, res.output
    savelock.release(path)
    from engine import record as rec

    assert rec.load(path).app == s.record().app


def _holder(path: Path) -> subprocess.Popen[bytes]:
    code = ("import sys, time; from pathlib import Path; from c1k_tui.model import savelock; "
            f"savelock.hold(Path({str(path)!r}), 'c1k play'); print('held', flush=True); time.sleep(120)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env)
    assert p.stdout is not None and p.stdout.readline().strip() == b"held"
    return p


def test_7a_a_second_process_is_told_who_holds_the_match_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    _saved(path)
    before = path.read_bytes()
    holder = _holder(path)
    try:
        for args in (["resume", "--text", str(path)], ["play", "--text", "--save", str(path), "--seed", "1"]):
            res = runner.invoke(main.app, args, input="pass\nquit\n")
            assert res.exit_code == 2, (args, res.output)
            assert "open in another c1k: `c1k play`" in res.output and f"process {holder.pid}" in res.output
            assert "Traceback" not in res.output
            assert path.read_bytes() == before, f"{args[0]} changed a held match"
        s = MatchSession.from_record(__import__("engine").record.load(path), DB, save_path=path)
        s.send("pass", s.game.current_player())
        assert "open in another c1k" in s.save_error and path.read_bytes() == before, "the app's autosave too"
        # kill -9: the lock stays behind, stale; the next c1k takes the match over
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
        assert savelock.lock_path(path).exists()
        res = runner.invoke(main.app, ["resume", "--text", str(path)], input="pass\nquit\n")
        assert res.exit_code == 0, res.output
        assert savelock.holds(path)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(30)
        savelock.release(path)
    assert not savelock.lock_path(path).exists(), "a lock is given back"


def test_7a_lock_is_created_atomically_once(tmp_path: Path) -> None:
    """Two holders at once: exactly one gets it (the lock is created with a link that fails if it exists)."""
    path = tmp_path / "auto.json"
    holder = _holder(path)
    try:
        with pytest.raises(savelock.Held, match="c1k play"):
            savelock.hold(path)
        lock = savelock.lock_path(path).read_text()
        assert f'"pid": {holder.pid}' in lock and time.strftime("%Y-") in lock
    finally:
        holder.kill()
        holder.wait(30)
