"""The scenario format as a contract (docs/formats.md §4, 2026-11-26): malformed vs rejected, every failure
reported with a tally, the new `expect` keys, and a scenario file can never produce a traceback."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine.cards import load_card_db
from engine.scenario import (
    PLAYER_EXPECT,
    TOP_EXPECT,
    UNIT_EXPECT,
    ScenarioError,
    check_files,
    load_scenario,
    run,
    scenario_from_data,
    tally,
)
from tests.helpers import paths_of
from tests.tier import examples

HERE = Path(__file__).parent / "scenarios"
BASE = HERE / "rb-3.1-barrier-vs-overwhelm.scenario.toml"
KEYS = HERE / "format" / "formats-4-new-expect-keys.scenario.toml"
DB = load_card_db()
runner = CliRunner()


def _data(path: Path = BASE) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _run(data: dict[str, Any]) -> tuple[bool, str]:
    res = run(scenario_from_data(data, "t.scenario.toml", DB))
    return res.ok, res.message


MALFORMED_STEP = {"do": "p1: atack brute"}     # a typo: fails to parse
REFUSED_STEP = {"do": "p2: pass"}              # well-formed, but p1 holds priority (C1K 10)


def _with_first_step(step: dict[str, Any]) -> dict[str, Any]:
    d = _data()
    d["step"] = [step] + d["step"]
    return d


# ------------------------------------------------------------------ malformed vs rejected

def test_a_typo_does_not_pass_as_a_refusal() -> None:
    ok, msg = _run(_with_first_step(MALFORMED_STEP | {"rejected": True}))
    assert not ok
    assert "step 1" in msg and "expected a refusal, but it is malformed" in msg


def test_a_malformed_step_passes_only_with_malformed_true() -> None:
    assert _run(_with_first_step(MALFORMED_STEP | {"malformed": True})) == (True, "")
    ok, msg = _run(_with_first_step(dict(MALFORMED_STEP)))
    assert not ok and "expected the command to be accepted, but it is malformed" in msg


def test_a_refusal_is_not_a_malformed_command() -> None:
    assert _run(_with_first_step(REFUSED_STEP | {"rejected": True}))[0]
    ok, msg = _run(_with_first_step(REFUSED_STEP | {"malformed": True}))
    assert not ok and "expected a malformed command, but it was refused" in msg


def test_an_accepted_command_fails_malformed_and_rejected_steps() -> None:
    for flag, wanted in (("malformed", "a malformed command"), ("rejected", "a refusal")):
        ok, msg = _run(_with_first_step({"do": "p1: pass", flag: True}))
        assert not ok and f"expected {wanted}, but it was accepted" in msg


def test_reason_contains_checks_the_message_of_a_malformed_command_too() -> None:
    assert _run(_with_first_step(MALFORMED_STEP | {"malformed": True, "reason_contains": "unknown command"}))[0]
    ok, msg = _run(_with_first_step(MALFORMED_STEP | {"malformed": True, "reason_contains": "zzz"}))
    assert not ok and "should contain 'zzz'" in msg


@pytest.mark.parametrize("step, words", [
    ({"do": "pass", "malformed": True, "rejected": True}, "not both"),
    ({"malformed": True}, "needs a command"),
    ({"do": "pass", "reason_contains": "x"}, "needs 'rejected = true' or 'malformed = true'"),
])
def test_contradictory_step_flags_are_file_errors(step: dict[str, Any], words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        scenario_from_data(_with_first_step(step), "t.scenario.toml", DB)
    assert any(words in p and "step[1]" in p for p in err.value.problems)


# ------------------------------------------------------------------ scenario check: every file, a tally

def test_check_runs_every_file_and_folder_and_reports_every_failure(tmp_path: Path) -> None:
    folder = tmp_path / "more"
    folder.mkdir()
    text = BASE.read_text(encoding="utf-8")
    (folder / "a-fails.scenario.toml").write_text(text.replace("expect.p2.life = 17", "expect.p2.life = 16"))
    (folder / "b-passes.scenario.toml").write_text(text)
    (folder / "c-broken.scenario.toml").write_text(text.replace("slot = 1", "slot = 0"))
    (folder / "ignored.toml").write_text("not a scenario")
    single = tmp_path / "d-fails.scenario.toml"
    single.write_text(text.replace('expect.stack = []', 'expect.stack = ["Big Brute"]'))
    res = runner.invoke(app, ["scenario", "check", str(folder), str(single), str(BASE)])
    assert res.exit_code == 1
    out = res.output
    assert "a-fails" in out and "step 9 ('p2: pass')" in out and "expected p2.life = 16, got 17" in out
    assert "c-broken" in out and "p1.board[1].slot: 0 is out of bounds" in out
    assert "d-fails" in out and "expected stack = ['Big Brute'], got []" in out
    assert "b-passes" not in out
    assert out.rstrip().splitlines()[-1] == "2 passed, 3 failed"


def test_check_passing_files_exit_zero_with_tally() -> None:
    res = runner.invoke(app, ["scenario", "check", str(HERE / "format"), str(BASE)])
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1] == "2 passed, 0 failed"


def test_check_of_a_missing_file_is_a_failure_not_a_traceback(tmp_path: Path) -> None:
    results = check_files([tmp_path / "nope.scenario.toml", BASE], DB)
    assert [r.ok for r in results] == [False, True]
    assert "no such file" in results[0].message
    assert tally(results) == "1 passed, 1 failed"


# ------------------------------------------------------------------ the new expect keys

def test_new_expect_keys_pass_on_the_shipped_scenario() -> None:
    assert {"decider"} <= TOP_EXPECT and {"relics", "set", "ward"} <= PLAYER_EXPECT and "keywords" in UNIT_EXPECT
    res = run(load_scenario(KEYS, DB))
    assert res.ok, res.message


@pytest.mark.parametrize("step, key, wrong, got", [
    (1, "decider", "p2", "'p1'"),
    (2, "decider", "none", "'p2'"),
    (1, ("p1", "relics"), ["Charm", "Charm"], "['Charm']"),
    (1, ("p1", "set"), [], "['Snare']"),
    (1, ("p2", "set"), ["Snare"], "[]"),
    (5, ("p1", "ward"), 1, "2"),
    (1, ("p1", "ward"), 2, "0"),
    (1, ("units", "warden", "keywords"), ["decay 2", "tough"], "['decay 1', 'tough']"),
    (1, ("units", "warden", "keywords"), ["tough"], "['decay 1', 'tough']"),
    (1, ("units", "Snare", "zone"), "hand", "'set'"),
    (1, ("units", "p1", "zone"), "board", "'command'"),
    (3, ("units", "sprout", "zone"), "graveyard", "'gone'"),
])
def test_each_new_expect_key_fails_when_wrong(step: int, key: str | tuple[str, ...], wrong: Any, got: str) -> None:
    d = _data(KEYS)
    exp = d["step"][step - 1].setdefault("expect", {})
    parts = (key,) if isinstance(key, str) else key
    for k in parts[:-1]:
        exp = exp.setdefault(k, {})
    exp[parts[-1]] = wrong
    ok, msg = _run(d)
    assert not ok
    assert f"step {step}" in msg and f"got {got}" in msg


def test_keywords_compare_sorted_and_with_numbers() -> None:
    d = _data(KEYS)
    d["step"][0]["expect"]["units"]["warden"]["keywords"] = ["Tough", "decay  1"]
    assert _run(d) == (True, "")


def test_unknown_zone_or_keyword_in_expect_is_a_file_error() -> None:
    d = _data(KEYS)
    d["step"][0]["expect"]["units"]["warden"] = {"zone": "sett", "keywords": ["touhg"]}
    with pytest.raises(ScenarioError) as err:
        scenario_from_data(d, "t.scenario.toml", DB)
    text = "\n".join(err.value.problems)
    assert "step[1].expect.units.warden.zone: 'sett' is not one of" in text and "did you mean 'set'" in text
    assert "unknown keyword 'touhg'" in text and "did you mean 'tough'" in text


# ------------------------------------------------------------------ bad files: messages, never tracebacks

BAD = [
    # (edit to the data, words every message must have)
    (lambda d: d.__setitem__("p1", 5), "p1: expected a table, got 5"),
    (lambda d: d.__setitem__("step", "x"), "step: expected [[step]] tables"),
    (lambda d: d.__setitem__("step", [1, 2]), "step: expected [[step]] tables"),
    (lambda d: d.__setitem__("card", {"id": "x"}), "card: expected [[card]] tables"),
    (lambda d: d.__setitem__("scenario", []), "scenario: expected a table"),
    (lambda d: d["p1"]["board"][0].__setitem__("slot", 99), "p1.board[1].slot: 99 is out of bounds"),
    (lambda d: d["p1"]["board"][0].__setitem__("slot", 0), "p1.board[1].slot: 0 is out of bounds"),
    (lambda d: d["p1"]["board"][0].__setitem__("slot", "1"), "p1.board[1].slot: expected a whole number"),
    (lambda d: d["p2"]["board"][0].__setitem__("slot", 1) or d["p2"]["board"].append(
        {"card": "big-brute", "slot": 1}), "slot 1 is already taken"),
    (lambda d: d["p1"].__setitem__("board", [{"card": "big-brute"}] * 7), "7 cards but only 6 unit slots"),
    (lambda d: d["p1"].__setitem__("board", 5), "p1.board: expected a list of cards"),
    (lambda d: d["p1"].__setitem__("board", [5]), "p1.board[1].card: expected text"),
    (lambda d: d["p1"].__setitem__("board", [{"as": "x"}]), "p1.board[1]: needs 'card'"),
    (lambda d: d["p1"].__setitem__("board", ["Emberlash"]), "is an action, not a unit"),
    (lambda d: d["p1"].__setitem__("hand", "Cinder Bolt"), "p1.hand: expected a list of text"),
    (lambda d: d["p1"].__setitem__("hand", [5]), "p1.hand[1]: expected text"),
    (lambda d: d["p1"].__setitem__("life", 10**9), "p1.life: 1000000000 is out of bounds"),
    (lambda d: d["p1"].__setitem__("life", 1e9), "p1.life: expected a whole number"),
    (lambda d: d["p1"].__setitem__("influence", True), "p1.influence: expected a whole number"),
    (lambda d: d["p1"].__setitem__("champion", "big-brute"), "p1.champion: 'big-brute' is a unit, not a champion"),
    (lambda d: d["p1"].__setitem__("seat", 5), "p1.seat: expected text"),
    (lambda d: d["p2"]["board"][0].__setitem__("status", ["barier"]), "did you mean 'barrier'"),
    (lambda d: d["p2"]["board"][0].__setitem__("counters", {"growth": -1}), "counters.growth: -1 is out of"),
    (lambda d: d["p2"]["board"][0].__setitem__("counters", 3), "counters: expected a table"),
    (lambda d: d["p2"]["board"][0].__setitem__("exhausted", "yes"), "exhausted: expected true or false"),
    (lambda d: d["scenario"].__setitem__("seed", -1), "scenario.seed: -1 is out of bounds"),
    (lambda d: d["scenario"].__setitem__("seed", 2**64), "scenario.seed"),
    (lambda d: d["scenario"].__setitem__("turn", 0), "scenario.turn: 0 is out of bounds"),
    (lambda d: d["scenario"].__setitem__("active", "p3"), "scenario.active: 'p3' is not one of p1, p2"),
    (lambda d: d["scenario"].__setitem__("options", 5), "scenario.options: expected a table"),
    (lambda d: d["scenario"].__setitem__("options", {"practice": 1}), "options.practice: expected true or false"),
    (lambda d: d["scenario"].__setitem__("options", {"unit_slots": 10**9}), "options.unit_slots"),
    (lambda d: d["scenario"].__setitem__("options", {"unit_slots": 0}),
     "options.unit_slots: 0 is out of bounds: expected a whole number from 1 to 12"),
    (lambda d: d["scenario"].__setitem__("options", {"first": "p3"}), "scenario.options: not valid match options"),
    (lambda d: d["scenario"].__setitem__("options", {"pratice": True}), "did you mean 'practice'"),
    (lambda d: d["scenario"].__setitem__("window", ["main.priority"]), "scenario.window: expected text"),
    (lambda d: d["step"][0].__setitem__("do", 5), "step[1].do: expected text"),
    (lambda d: d["step"][0].__setitem__("rejected", "yes"), "step[1].rejected: expected true or false"),
    (lambda d: d["step"][1].__setitem__("expect", 5), "step[2].expect: expected a table"),
    (lambda d: d["step"][1]["expect"].__setitem__("window", 5), "step[2].expect.window: expected text"),
    (lambda d: d["step"][1]["expect"].__setitem__("p1", 5), "step[2].expect.p1: expected a table"),
    (lambda d: d["step"][1]["expect"].__setitem__("units", {"wall": 5}), "units.wall: expected a table"),
    (lambda d: d["step"][1]["expect"].__setitem__("units", {"nobody": {"zone": "board"}}),
     "units.nobody: no alias or card called 'nobody'"),
    (lambda d: d["step"][1]["expect"].__setitem__("stack", "x"), "expect.stack: expected a list of text"),
    (lambda d: d["step"][1]["expect"].__setitem__("decider", "p3"), "expect.decider: 'p3' is not one of"),
    (lambda d: d["step"][1]["expect"].__setitem__("p1", {"hand": ["Nope"]}), "unknown card 'Nope'"),
]


@pytest.mark.parametrize("edit, words", BAD, ids=[w for _, w in BAD])
def test_a_bad_scenario_is_a_message_naming_the_key(edit: Any, words: str) -> None:
    d = _data()
    edit(d)
    with pytest.raises(ScenarioError) as err:
        scenario_from_data(d, "t.scenario.toml", DB)
    assert any(words in p for p in err.value.problems), err.value.problems
    assert all(p.startswith("t.scenario.toml") for p in err.value.problems)


def test_problems_carry_the_line_of_the_key(tmp_path: Path) -> None:
    p = tmp_path / "x.scenario.toml"
    p.write_text(BASE.read_text(encoding="utf-8").replace("slot = 1", "slot = 0")
                 .replace("expect.p2.life = 17", 'expect.p2.life = "x"'))
    with pytest.raises(ScenarioError) as err:
        load_scenario(p, DB)
    lines = p.read_text().splitlines()
    for problem in err.value.problems:
        line = int(problem.split(":")[1])
        key = problem.split(": ")[1].split(".")[-1].split("[")[0]
        assert key in lines[line - 1], (problem, lines[line - 1])


@pytest.mark.parametrize("raw, words", [
    (b"\xff\xfe[scenario]\n", "not UTF-8"),
    (b"[scenario\n", "not valid TOML"),
    (b"x = " + b"[" * 5000 + b"]" * 5000, "nested"),
    (b"x = " + b"[" * 40 + b"]" * 40, "nested more than"),
])
def test_unreadable_scenario_files_are_messages(tmp_path: Path, raw: bytes, words: str) -> None:
    p = tmp_path / "x.scenario.toml"
    p.write_bytes(raw)
    with pytest.raises(ScenarioError) as err:
        load_scenario(p, DB)
    assert words in str(err.value) and str(p) in str(err.value)


def test_a_folder_given_as_a_scenario_file_is_a_message(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario(tmp_path, DB)
    assert "is a folder" in str(err.value)


# ------------------------------------------------------------------ fuzz

_leaf = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.booleans(), st.text(max_size=12),
                  st.floats(allow_nan=True), st.sampled_from(["p1", "p2", "none", "board", "Big Brute", "wall",
                                                              "main.priority", "pass", "#1", "²", "①"]))
_value = st.recursive(_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)




BASE_DATA = _data()
BASE_PATHS = [p for p in paths_of(BASE_DATA) if p]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(BASE_PATHS), _value, st.booleans()), min_size=1, max_size=3))
def test_fuzz_malformed_scenario_data_is_a_message_never_a_traceback(edits: list[tuple[Any, Any, bool]]) -> None:
    d = copy.deepcopy(BASE_DATA)
    for path, value, add in edits:
        parent: Any = d
        try:
            for k in path[:-1]:
                parent = parent[k]
            if add and isinstance(parent, dict):
                parent[f"{path[-1]}"] = value
            parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        scn = scenario_from_data(d, "f.scenario.toml", DB)
    except ScenarioError as err:
        assert err.problems and all(p.startswith("f.scenario.toml") for p in err.problems)
        return
    res = run(scn)     # a valid file runs to a verdict: pass, or a failing step with a message
    assert res.ok or res.message
    assert "the engine raised" not in res.message


@settings(max_examples=examples(100), deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda s: s.encode("utf-8")))
def test_fuzz_raw_scenario_bytes_are_a_message_never_a_traceback(raw: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "f.scenario.toml"
        p.write_bytes(raw)
        [res] = check_files([p], DB)
        assert isinstance(res.message, str)
        assert "the engine raised" not in res.message


BASE_TEXT = BASE.read_text(encoding="utf-8")


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(BASE_TEXT)), st.integers(0, 6),
                          st.sampled_from(list("=[]{}\"',.#\n 0123456789-_aezp²①") + ["1e9", "99", "true", "[[step]]",
                                                                                      "slot = 0", "p1 = 5"])),
                min_size=1, max_size=4))
def test_fuzz_edited_scenario_text_is_a_message_never_a_traceback(edits: list[tuple[int, int, str]]) -> None:
    """Typing mistakes in a real scenario file: insert, delete or replace characters anywhere."""
    import tempfile

    text = BASE_TEXT
    for pos, cut, ins in edits:
        pos = min(pos, len(text))
        text = text[:pos] + ins + text[pos + cut:]
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "f.scenario.toml"
        p.write_text(text, encoding="utf-8")
        [res] = check_files([p], DB)
        assert res.ok or res.message
        assert "the engine raised" not in res.message and "checking the expectations raised" not in res.message


def test_inline_cards_are_checked_like_the_card_set(tmp_path: Path) -> None:
    """A scenario's own [[card]] tables get the card file's checks, cross-references included, with lines."""
    p = tmp_path / "x.scenario.toml"
    p.write_text(BASE.read_text(encoding="utf-8").replace(
        'keywords = ["overwhelm"]',
        'keywords = ["overwhelm"]\nabilities = [ { when = "on_death", effect = [ { do = "summon", card = "big-brut" } ] } ]'),
        encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(p, DB)
    assert f"{p}:10: card 'big-brute': summons unknown card 'big-brut' (did you mean 'big-brute'?)" in str(err.value)
