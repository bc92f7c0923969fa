"""`c1k validate` (docs/formats.md §2-3, issue #7 item 7): files and folders; cross-references; sane bounds;
duplicate ids and names across the whole set; unreadable files; every problem with file:line and a
nearest-word suggestion. The loaders run the same checks, so what passes validation loads in the game;
and no card, deck or scenario file ever produces a traceback (Hypothesis fuzz)."""

from __future__ import annotations

import copy
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine.cards import (
    MAX_AMOUNT,
    CardFileError,
    bundled_cards_dir,
    load_card_db,
    load_card_file,
    parse_cards,
)
from engine.decks import deck_from_data, find_deck, load_deck
from engine.scenario import run, scenario_from_data
from engine.validation import validate_paths
from tests.helpers import paths_of
from tests.tier import examples

ROOT = Path(__file__).resolve().parent.parent
DB = load_card_db()
runner = CliRunner()

UNIT = '''[[card]]
id = "test-unit"
name = "Test Unit"
type = "unit"
cost = 1
power = 1
health = 1
'''


def _card(extra: str = "", head: str = UNIT) -> str:
    return head + extra


def _problems(tmp_path: Path, text: str, name: str = "c.toml") -> list[str]:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    n, problems = validate_paths([p])
    assert n == 1
    return problems


# ------------------------------------------------------------------ files and folders

def test_validate_accepts_folders_and_the_shipped_set_passes() -> None:
    res = runner.invoke(app, ["validate", str(ROOT / "decks")])
    assert res.exit_code == 0, res.output
    n = len(list((ROOT / "decks").rglob("*.toml")))
    assert res.output.strip().splitlines()[-1] == f"{n} file(s), 0 problem(s)"
    assert n > 20   # decks, card files and lesson scenarios


def test_validate_folder_reports_problems_of_each_kind_with_exit_1(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_text(_card(), encoding="utf-8")
    (tmp_path / "bad.toml").write_text(_card('keywords = ["tuogh"]\n').replace("test-unit", "bad"), encoding="utf-8")
    (tmp_path / "deck.toml").write_text('[deck]\nname = "x"\nchampion = "test-unit"\nseat = "nope"\n[cards]\n',
                                        encoding="utf-8")
    (tmp_path / "s.scenario.toml").write_text('[scenario]\nwindow = "main.priorty"\n', encoding="utf-8")
    res = runner.invoke(app, ["validate", str(tmp_path)])
    assert res.exit_code == 1
    out = res.output
    assert "bad.toml:8: card 'bad'" in out and "did you mean 'tough'" in out
    assert "deck.toml:3: 'test-unit' is a unit, not a champion" in out
    assert "s.scenario.toml:2: scenario.window" in out and "did you mean 'main.priority'" in out
    assert out.strip().splitlines()[-1].startswith("4 file(s), ")


@pytest.mark.parametrize("raw, words", [
    (b"[[card]]\nid = \"\xff\"\n", "c.toml:2: not UTF-8"),
    (b"x = " + b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (b"x = " + b"[" * 40 + b"]" * 40, "nested more than 32 deep"),
    (b"[[card]\n", "not valid TOML"),
    (b"[[card]]\nid = \"x\"\ncost = " + b"9" * 5000 + b"\n", "c.toml:3: a number with more than 4,300 digits"),
])
def test_unreadable_files_are_messages(tmp_path: Path, raw: bytes, words: str) -> None:
    p = tmp_path / "c.toml"
    p.write_bytes(raw)
    n, problems = validate_paths([p])
    assert any(words in m for m in problems), problems
    for name in ("c.scenario.toml", "c.deck.toml"):   # every reader of TOML says the same, no traceback
        q = tmp_path / name
        q.write_bytes(raw)
        res = runner.invoke(app, ["scenario", "check", str(q)] if "scenario" in name else ["play", str(q), "--text"])
        assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
        assert words.split(": ", 1)[-1] in res.output, res.output


def test_missing_file_and_empty_folder_are_messages(tmp_path: Path) -> None:
    assert validate_paths([tmp_path / "nope.toml"]) == (1, [f"{tmp_path / 'nope.toml'}: no such file"])
    assert validate_paths([tmp_path]) == (0, [f"{tmp_path}: no .toml files in this folder"])


# ------------------------------------------------------------------ bounds

@pytest.mark.parametrize("extra, words", [
    ('effect = [ { do = "draw", amount = 1e9 } ]\ntype = "action"\n', "amount' = 1000000000.0 is not a whole number (a TOML integer"),
    ('abilities = [ { when = "on_play", effect = [ { do = "summon", card = "test-unit", amount = 1000000000 } ] } ]\n',
     "amount' = 1000000000 is out of bounds: at most 50"),
    ('abilities = [ { when = "on_play", effect = [ { do = "damage", amount = -1, target = "unit" } ] } ]\n',
     "amount' = -1 is out of bounds: at least 0"),
    ('keywords = ["decay 1000000000"]\n', "decay 1000000000': the number is out of bounds: from 1 to 20"),
    ('keywords = ["ward ²"]\n', "keyword 'ward' takes a number"),
    ('abilities = [ { when = "on_play", effect = [ { do = "buff", power = 99999, target = "self" } ] } ]\n',
     "power' = 99999 is out of bounds: at most 50"),
    ('abilities = [ { activate = { cost = 1000 }, effect = [ { do = "draw" } ] } ]\n', "cost' = 1000 is out of bounds"),
])
def test_numbers_out_of_bounds_name_the_bound(tmp_path: Path, extra: str, words: str) -> None:
    text = _card(extra)
    if 'type = "action"' in extra:
        text = text.replace('type = "unit"\n', "").replace("power = 1\nhealth = 1\n", 'speed = "fast"\n')
    problems = _problems(tmp_path, text)
    assert any(words in m and "c.toml:" in m for m in problems), problems


def test_huge_stats_and_seat_modifiers_are_refused(tmp_path: Path) -> None:
    problems = _problems(tmp_path, _card().replace("power = 1", "power = 1000000000") + '''
[[card]]
id = "big-seat"
name = "Big Seat"
type = "seat"
modifiers = { unit_slots = 1000000000, hand_size = 0 }
''')
    text = "\n".join(problems)
    assert "'power' = 1000000000 is out of bounds: at most 50" in text
    assert "seat modifier 'unit_slots' = 1000000000 is out of bounds: from 1 to 12" in text


def test_huge_copy_counts_in_a_deck_are_refused_even_to_playtest(tmp_path: Path) -> None:
    deck = tomllib.loads(find_deck("ironbound").read_text(encoding="utf-8"))
    first = next(iter(deck["cards"]))
    deck["cards"][first] = 10**9
    for playtest in (False, True):
        with pytest.raises(CardFileError) as err:
            deck_from_data(copy.deepcopy(deck), DB, "d.toml", playtest=playtest)
        assert any("1000000000 copies" in m and "never more than 40" in m for m in err.value.problems)


def test_bounds_are_enforced_when_the_game_loads_cards(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text(_card('keywords = ["decay 999"]\n'), encoding="utf-8")
    with pytest.raises(CardFileError) as err:
        load_card_db([tmp_path])
    assert "out of bounds" in str(err.value)


def test_cards_at_the_bounds_play_without_hanging() -> None:
    """The bounds are safe: a card drawing, summoning and dealing the maximum resolves at once."""
    big = {"id": "t-big", "name": "Big", "type": "action", "cost": 0, "speed": "fast",
           "effect": [{"do": "draw", "amount": MAX_AMOUNT}, {"do": "summon", "card": "t-tok", "amount": MAX_AMOUNT},
                      {"do": "damage", "amount": MAX_AMOUNT, "target": "all_units"},
                      {"do": "gain_influence", "amount": MAX_AMOUNT}, {"do": "discard", "amount": MAX_AMOUNT,
                                                                        "player": "opponent"}]}
    tok = {"id": "t-tok", "name": "Tok", "type": "unit", "power": 1, "health": 1, "token": True}
    data = {"scenario": {"turn": 3}, "card": [big, tok], "p1": {"hand": ["Big"], "library": ["Tok"] * 3},
            "p2": {"hand": ["Tok"] * 3},
            "step": [{"do": "p1: play Big"},
                     {"do": "p2: pass", "expect": {"p1": {"hand_size": 3}, "p2": {"hand_size": 0}}}]}
    res = run(scenario_from_data(data, "big.scenario.toml", DB))
    assert res.ok, res.message


# ------------------------------------------------------------------ cross-references and duplicates

def test_summon_and_evolve_targets_must_exist_with_file_and_line(tmp_path: Path) -> None:
    problems = _problems(tmp_path, _card('abilities = [ { when = "on_play", effect = [ { do = "summon", '
                                         'card = "gloomfang-stalkr" } ] } ]\n') + '''
[[card]]
id = "test-evolver"
name = "Test Evolver"
type = "unit"
power = 1
health = 1
keywords = ["evolve"]
evolve = { into = "no-such-card", growth = 2 }
''')
    text = "\n".join(problems)
    assert "c.toml:1: card 'test-unit': summons unknown card 'gloomfang-stalkr'" in text
    assert "did you mean 'gloomfang-stalker'" in text
    assert "c.toml:10: card 'test-evolver': evolves into unknown card 'no-such-card'" in text


def test_duplicate_ids_and_names_across_files_and_the_bundled_set(tmp_path: Path) -> None:
    a = tmp_path / "a.toml"
    b = tmp_path / "b.toml"
    a.write_text(_card(), encoding="utf-8")
    b.write_text(_card().replace('name = "Test Unit"', 'name = "Other"') + '''
[[card]]
id = "another"
name = "test unit"
type = "relic"

[[card]]
id = "aldric-stonevow"
name = "Not Aldric"
type = "relic"
''', encoding="utf-8")
    n, problems = validate_paths([a, b])
    text = "\n".join(problems)
    assert f"{b}:1: duplicate card id 'test-unit' (already defined at {a}:1)" in text
    assert f"{b}:9: card 'another': duplicate card name 'test unit' (card 'test-unit' at {a}:1)" in text
    assert f"{b}:14: duplicate card id 'aldric-stonevow' (already defined at " in text and "core.toml" in text


def test_a_bundled_file_given_replaces_itself_not_a_duplicate() -> None:
    n, problems = validate_paths([bundled_cards_dir() / "core.toml"])
    assert (n, problems) == (1, [])


# ------------------------------------------------------------------ suggestions

@pytest.mark.parametrize("extra, words", [
    ("speling = 1\n", "unknown key 'speling'"),
    ('abilities = [ { when = "on_pley", effect = [ { do = "draw" } ] } ]\n', "did you mean 'on_play'"),
    ('abilities = [ { when = "on_play", effect = [ { do = "damge", target = "unit" } ] } ]\n',
     "did you mean 'damage'"),
    ('abilities = [ { when = "on_play", effect = [ { do = "damage", target = "enemy_unti" } ] } ]\n',
     "did you mean 'enemy_unit'"),
    ('abilities = [ { interrupt = "opponent_plays_actoin", effect = [ { do = "counter", target = "event" } ] } ]\n',
     "did you mean 'opponent_plays_action'"),
    ('abilities = [ { activate = { cots = 1 }, effect = [ { do = "draw" } ] } ]\n', "did you mean 'cost'"),
    ('keywords = ["overwhelming"]\n', "did you mean 'overwhelm'"),
    ('keywords = ["evolve"]\nevolve = { into = "test-unit", growht = 1 }\n', "did you mean 'growth'"),
    ('abilities = [ { when = "on_play", effect = [ { do = "grant", status = "barier", target = "self" } ] } ]\n',
     "did you mean 'barrier'"),
])
def test_unknown_words_get_the_nearest_valid_word_and_a_line(tmp_path: Path, extra: str, words: str) -> None:
    problems = _problems(tmp_path, _card(extra))
    lines = (tmp_path / "c.toml").read_text(encoding="utf-8").splitlines()
    found = [m for m in problems if words in m and m.startswith(f"{tmp_path / 'c.toml'}:")]
    assert found, problems
    line = int(found[0].split(":")[1])
    assert 8 <= line <= len(lines)     # the line of the offending key, after the card's header


# ------------------------------------------------------------------ fuzz: a message, never a traceback

_leaf = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.booleans(), st.text(max_size=10),
                  st.floats(allow_nan=True), st.sampled_from(["unit", "damage", "summon", "enemy_unit", "on_play",
                                                              "decay 1", "ward 99", "²", "ash", "aldric-stonevow"]))
_value = st.recursive(_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=10)

CORE = tomllib.loads((bundled_cards_dir() / "core.toml").read_text(encoding="utf-8"))["card"]
DECK = tomllib.loads(find_deck("ironbound").read_text(encoding="utf-8"))




def _mutate(base: Any, edits: list[tuple[tuple[Any, ...], Any, bool]]) -> Any:
    d = copy.deepcopy(base)
    for path, value, rename in edits:
        if not path:
            d = value
            continue
        parent = d
        try:
            for k in path[:-1]:
                parent = parent[k]
            if rename and isinstance(parent, dict):
                parent[str(value)[:8]] = parent.pop(path[-1])
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return d


CARD_PATHS = paths_of(CORE)
DECK_PATHS = paths_of(DECK)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(CARD_PATHS), _value, st.booleans()), min_size=1, max_size=3))
def test_fuzz_card_data_is_a_message_never_a_traceback(edits: list[tuple[tuple[Any, ...], Any, bool]]) -> None:
    raw = _mutate(CORE, edits)
    try:
        cards, problems = parse_cards(raw if isinstance(raw, list) else [raw], "f.toml")
    except CardFileError as err:
        problems = err.problems
    assert all(p.startswith("f.toml") for p in problems)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(DECK_PATHS), _value, st.booleans()), min_size=1, max_size=3),
       st.booleans())
def test_fuzz_deck_data_is_a_message_never_a_traceback(edits: list[tuple[tuple[Any, ...], Any, bool]],
                                                       playtest: bool) -> None:
    data = _mutate(DECK, edits)
    if not isinstance(data, dict):
        data = {"deck": data}
    try:
        deck = deck_from_data(data, DB, "f.toml", playtest=playtest)
    except CardFileError as err:
        assert err.problems and all(p.startswith("f.toml") for p in err.problems)
        return
    assert len(deck.library) <= 200 * 40


@pytest.mark.slow   # each example loads the whole bundled card set (~0.3 s)
@settings(max_examples=examples(60), deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda s: s.encode("utf-8")),
       st.sampled_from(["f.toml", "f.scenario.toml"]))
def test_fuzz_raw_files_through_validate_are_messages(raw: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / name
        p.write_bytes(raw)
        n, problems = validate_paths([p])
        assert n == 1 and all(isinstance(m, str) for m in problems)


def test_load_card_file_and_load_deck_share_the_checks(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_bytes(b"\xff")
    with pytest.raises(CardFileError):
        load_card_file(p)
    with pytest.raises(CardFileError):
        load_deck(p, DB)
    with pytest.raises(CardFileError) as err:
        load_deck(tmp_path, DB)
    assert "is a folder" in str(err.value)


def test_a_card_has_at_most_one_interrupt_ability(tmp_path: Path) -> None:
    """`interrupt <card>` names no ability: with two Interrupt abilities the command (and the legal actions
    offered) could mean either, and one would be refused for the other's targets."""
    problems = _problems(tmp_path, _card(
        'abilities = [ { interrupt = "attacker_declared", effect = [ { do = "damage", target = "enemy_unit" } ] },\n'
        '  { interrupt = "opponent_declares_attackers", effect = [ { do = "draw" } ] } ]\n'))
    assert any("at most one Interrupt ability" in m for m in problems), problems
