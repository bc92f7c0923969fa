"""docs/determinism.md §8 k: a card's whole-number and true/false fields take a TOML integer or boolean only.

pydantic's lax mode read `cost = "2"`, `cost = 2.0` and `cost = true` as 2, 2 and 1 (and `token = 1` as true),
and the card's digest then hashed the value as written: an accident no other implementation could follow. The
fields are strict now, and a scenario's inline cards, like a set of card files, give each id one table."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.cards import parse_cards
from engine.scenario import ScenarioError, load_scenario

UNIT = 'id = "test-unit"\nname = "Test Unit"\ntype = "unit"\npower = 1\nhealth = 1\n'


@pytest.mark.parametrize("line", ['cost = "2"', "cost = 2.0", "cost = true", "power = 1.0\ncost = 1", "token = 1\ncost = 1",
                                  "cost = 1\nmodifiers = { hand_size = 7.0 }"])
def test_a_value_of_another_type_is_refused_naming_its_line(tmp_path: Path, line: str) -> None:
    text = "[[card]]\n" + UNIT.replace("power = 1\n", "") + line + "\n" + ("" if "power" in line else "power = 1\n")
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    cards, problems = parse_cards(tomllib.loads(text)["card"], str(path), text)
    assert cards == [] and len(problems) == 1, problems
    field = line.split("=")[0].strip() if "modifiers" not in line else "modifiers"
    bad_line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(field))
    assert problems[0].startswith(f"{path}:{bad_line}: card 'test-unit': '{field}"), problems


def test_a_whole_number_and_a_boolean_are_accepted() -> None:
    text = "[[card]]\n" + UNIT + "cost = 2\ntoken = true\n"
    cards, problems = parse_cards(tomllib.loads(text)["card"], "c.toml", text)
    assert problems == [] and cards[0].cost == 2 and cards[0].token is True


def test_a_scenario_refuses_two_inline_cards_with_one_id(tmp_path: Path) -> None:
    path = tmp_path / "dup.scenario.toml"
    path.write_text('[scenario]\ntitle = "dup"\n\n[[card]]\n' + UNIT + "cost = 1\n\n[[card]]\n"
                    + UNIT.replace("Test Unit", "Other Unit") + "cost = 2\n\n[p1]\nhand = [\"test-unit\"]\n",
                    encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert any(":12: duplicate card id 'test-unit' (already defined at " in p and ":4): give each" in p
               for p in err.value.problems), err.value.problems


def test_a_scenario_refuses_two_inline_cards_with_one_name(tmp_path: Path) -> None:
    """A set of card files refuses a name used twice (cards.py); so does a scenario's inline cards — the
    later table used to take the name, leaving the first card reachable by its id only (docs/determinism.md
    §8 k)."""
    path = tmp_path / "dup-name.scenario.toml"
    path.write_text('[scenario]\ntitle = "dup"\n\n[[card]]\n' + UNIT + "cost = 1\n\n[[card]]\n"
                    + UNIT.replace('"test-unit"', '"test-unit-2"').replace("Test Unit", "TEST unit")
                    + "cost = 2\n\n[p1]\nhand = [\"test-unit\"]\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert any(":12: card 'test-unit-2': duplicate card name 'TEST unit' (card 'test-unit' at " in p
               and ":4): give each inline card its own name" in p for p in err.value.problems), err.value.problems
