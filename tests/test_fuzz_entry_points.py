"""Fuzzing the entry points (issue 7 item 7): the command line of the app and the text loop, match
records for `resume` / `replay`, and `c1k bench` — malformed input (Unicode digits, huge numbers, deep
nesting, non-UTF-8, unclosed quotes) gets a message: never a traceback, never a state change."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import record as rec
from engine.actions import MAX_COMMAND_CHARS, IllegalAction, MalformedCommand, parse_command
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.state import MatchOptions
from tests.tier import examples

DB = load_card_db()
DECKS = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB)]
runner = CliRunner()

# words that make commands: verbs, keywords, refs — and the troublemakers
WORDS = ["pass", "play", "activate", "attack", "block", "interrupt", "decline", "choose", "set", "concede",
         "none", "target", "slot", "mode", "pay", "voidcast", "->", ",", "p1:", "p2:", "p1", "p2", "#1", "#3",
         "#45", "#0", "#²", "#①", "²", "①", "٣", "1", "2", "0", "-1", "9" * 4300, "#" + "9" * 50, '"Ash Warden"',
         '"unclosed', "'", '"', "Emberlash", "Wild Omen", "\x00", "\u202e", "é", "🂡", "#", ":", "::"]
command_text = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.text(max_size=60),
    st.text(alphabet="0123456789²①٣#:\"', ->", max_size=40),
)


def _state(g: Game) -> tuple[str, list[str]]:
    return g.state_hash(), list(g.record)


@functools.cache
def _practice_match() -> Game:
    # practice mode: a refusal doesn't move priority either (C1K 10), so no error may change the state
    return Game.new(DB, DECKS[0], DECKS[1], 5, MatchOptions(practice=True))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=command_text)
def test_any_command_text_is_a_command_or_a_message_and_a_message_changes_nothing(text: str) -> None:
    g = _practice_match().clone()          # the same first state each time, without dealing it again
    before = _state(g)
    try:
        g.apply_command(text)
    except (MalformedCommand, IllegalAction) as err:
        assert str(err)
        assert _state(g) == before, f"{text!r}: the state changed on {type(err).__name__}"


@pytest.mark.parametrize("text", ["choose ²", "play #²", "attack #①", "choose " + "9" * 4300, "play #" + "9" * 4300,
                                  "play #3 slot ٣", "activate #1 " + "7" * 40, "block #1 -> #²"])
def test_the_reported_probes_are_malformed_commands(text: str) -> None:
    g = Game.new(DB, DECKS[0], DECKS[1], 5)
    before = _state(g)
    with pytest.raises(MalformedCommand):
        g.apply_command(text)
    assert _state(g) == before


def test_a_long_command_is_refused_before_it_is_read() -> None:
    with pytest.raises(MalformedCommand, match="at most 1,000 characters"):
        parse_command("play " + "x" * 1_000_000)
    assert parse_command("pass " + " " * (MAX_COMMAND_CHARS - 10)).verb == "pass"


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(command_text, min_size=1, max_size=6))
def test_the_text_loop_answers_any_line_with_a_message(lines: list[str]) -> None:
    script = "\n".join(s.replace("\n", " ").replace("\r", " ") for s in lines) + "\n"
    res = runner.invoke(app, ["play", "--text", "--seed", "9"], input=script)
    assert res.exit_code == 0, res.output
    assert res.exception is None, repr(res.exception)


# ---------------------------------------------------------------------------------------------- records

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10)
    | st.sampled_from([10**30, -1, 2**64, "²", "p1: pass", "p3: pass", {}, []]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def good_record() -> dict[str, Any]:
    g = Game.new(DB, DECKS[0], DECKS[1], 12)
    first = g.clone()
    for _ in range(6):
        g.apply_command(str(g.legal_actions()[0]))
    data: dict[str, Any] = json.loads(rec.record_of(g, rec.Start.of_decks(DECKS, 12), first).to_json())
    return data


def _paths(d: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(d, dict):
        for k, v in d.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d[:8]):
            out += _paths(v, prefix + (i,))
    return out


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_record_with_any_one_value_changed_loads_and_replays_or_says_why(good_record: dict[str, Any],
                                                                          data: st.DataObject) -> None:
    d = json.loads(json.dumps(good_record))
    paths = [p for p in _paths(d) if p]
    where = data.draw(st.sampled_from(paths))
    value = data.draw(json_values)
    node = d
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    try:
        r = rec.from_data(d, "<fuzz>")
        rec.replay(r, DB)
    except rec.RecordError as err:
        assert str(err)


@pytest.mark.parametrize("content", [
    b"\xff\xfe\x00garbage", b'{"format": "c1k-match-record", "version": 3, "seed": ' + b"9" * 5000 + b"}",
    b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000, b"", b"null", b"[]", b"5",
    b'{"format": "c1k-match-record", "version": true}', b'{"format": "c1k-match-record", "version": 2.0}',
])
def test_resume_and_replay_refuse_a_broken_file_with_a_message(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "m.json"
    p.write_bytes(content)
    for args in (["resume", "--text", str(p)], ["replay", str(p)]):
        res = runner.invoke(app, args, input="")
        assert res.exit_code == 2, (args, res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
        assert str(p) in res.output
    assert p.read_bytes() == content


def test_resume_of_a_missing_file_or_a_folder_is_a_message(tmp_path: Path) -> None:
    for p in (tmp_path / "nope.json", tmp_path):
        res = runner.invoke(app, ["resume", "--text", str(p)], input="")
        assert res.exit_code == 2 and res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("args", [["--matches", "0"], ["--matches", "9" * 30], ["--seed", "-1"],
                                  ["--seed", str(2**64)], ["--matches", "x"]])
def test_bench_refuses_bad_numbers_with_a_message(args: list[str]) -> None:
    res = runner.invoke(app, ["bench", *args])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=command_text)
def test_the_apps_command_path_answers_any_text_with_an_outcome(text: str) -> None:
    from c1k_tui.model.session import Flow, MatchSession

    s = MatchSession.new(DB, DECKS, 5, MatchOptions(practice=True), flow=Flow("full"))
    before = _state(s.game)
    out = s.send(text)
    if not out.ok:
        assert out.message and _state(s.game) == before, f"{text!r}: {out}"
