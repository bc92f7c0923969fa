"""Issue #23 item 4: a broken settings file never stops the program. `players.json`, `lessons.json` and a
record's `app.flow` — not UTF-8, not JSON, a key twice, nested 100,000 deep, the wrong shape — give a
notice naming the file (and the key), the defaults, and a `NAME.broken` copy. Fuzzed with Hypothesis."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.model.paths import PlayerPrefs, load_prefs, save_prefs
from c1k_tui.model.settings import check_flow, record_app_notice
from tests.tier import examples

runner = CliRunner()

JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
SHAPED = st.dictionaries(st.sampled_from(["Mira", "Tomas", "p1"]), JSON | st.fixed_dictionaries(
    {}, optional={"stops": JSON, "pace_ms": JSON, "quick_play": JSON}), max_size=3)
RAW = st.binary(max_size=64) | st.sampled_from([
    b"\xff\xfe not utf-8", b"[" * 100_000, b'{"a":' * 100_000, b'{"Mira": {}, "Mira": {}}', b"", b"{",
    b"1" * 5000, b'{"completed": 5}', b'{"completed": [1, 2]}', b"[]"])
FUZZ = settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    for f in tmp_path.iterdir():
        f.unlink()
    return tmp_path


@FUZZ
@given(raw=RAW | SHAPED.map(lambda d: json.dumps(d).encode()))
def test_players_json_never_stops_a_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes) -> None:
    home = _home(tmp_path, monkeypatch)
    (home / "players.json").write_bytes(raw)
    got, note = load_prefs("Mira")
    assert got is None or isinstance(got, PlayerPrefs)
    if note:
        assert str(home / "players.json") in note and "defaults" in note, note
        assert (home / "players.json.broken").read_bytes() == raw
        assert got is None
    # saving afterwards writes a good file (the broken one stays kept)
    msg = save_prefs({"Mira": PlayerPrefs(None, 150, True)})
    assert "could not save" not in msg
    again, note2 = load_prefs("Mira")
    assert note2 == "" and again == PlayerPrefs(None, 150, True)


def test_players_json_names_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path, monkeypatch)
    (home / "players.json").write_text('{"Mira": {"pace_ms": "fast"}}', encoding="utf-8")
    got, note = load_prefs("Mira")
    assert got is None and "'Mira'.pace_ms: expected a whole number" in note and "players.json.broken" in note


@FUZZ
@given(raw=RAW | JSON.map(lambda d: json.dumps({"completed": d}).encode()))
def test_lessons_json_never_stops_learn_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes) -> None:
    home = _home(tmp_path, monkeypatch)
    (home / "lessons.json").write_bytes(raw)
    res = runner.invoke(app, ["learn", "--list"])
    assert res.exit_code == 0 and res.exception is None, res.output
    if "note:" in res.output:
        assert "lessons.json" in res.output and (home / "lessons.json.broken").read_bytes() == raw


def test_lessons_json_of_the_wrong_shape_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path, monkeypatch)
    (home / "lessons.json").write_text('{"completed": 5}', encoding="utf-8")
    res = runner.invoke(app, ["learn", "--list"])
    assert res.exit_code == 0 and "completed: expected a list of lesson names" in res.output, res.output
    assert (home / "lessons.json.broken").exists()


@FUZZ
@given(flow=JSON)
def test_a_record_app_flow_of_any_shape_resumes_with_a_notice(tmp_path: Path, flow: Any) -> None:
    from c1k_tui.model.session import Flow

    path = tmp_path / "m.json"
    path.write_text("{}", encoding="utf-8")
    note = record_app_notice({"flow": flow}, path)
    got = Flow.from_dict(flow if isinstance(flow, dict) else None)       # (session.from_record's call)
    assert got.mode in ("stops", "learning", "auto", "full")
    if check_flow(flow):
        assert note.startswith(f"{path}: app.flow") and "default app settings" in note, note
        assert (tmp_path / "m.json.broken").exists()
        assert got == Flow()
    else:
        assert note == ""


def test_resume_text_says_which_key_of_app_flow_is_broken(tmp_path: Path) -> None:
    """Through `c1k resume --text`: a record whose `app.flow` has the wrong shape (with its hash recomputed,
    as another tool would write it) resumes with the defaults and a notice naming the file and key."""
    from engine import record as rec
    from engine.cards import load_card_db

    p = tmp_path / "m.json"
    assert runner.invoke(app, ["play", "--text", "--seed", "2", "--save", str(p)], input="pass\nquit\n").exit_code == 0
    r = rec.load(p)
    rec.replay(r, load_card_db())
    r.app = {"flow": {"mode": "stops", "stops": ["not", "a", "table"]}, "open_hands": False}
    rec.save(r, p)
    res = runner.invoke(app, ["resume", "--text", str(p)], input="quit\n")
    assert res.exit_code == 0 and res.exception is None, res.output
    assert "app.flow.stops: expected a table of p1 and p2" in res.output and "m.json.broken" in res.output
