"""docs/rules.md `CARD TEXT`: a card's text is its contract. The loader (so `c1k validate`
and the game) refuses a card whose text and effects disagree, naming the card and the file:line of its
text; `target = "same"` is the text's "it"."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine.cards import CardFileError, bundled_cards_dir, load_card_db, load_card_file, text_problems

runner = CliRunner()

SHELTER_AS_IT_WAS = '''[[card]]
id = "shelter-of-wings"
name = "Shelter of Wings"
type = "action"
realm = "solace"
cost = 2
speed = "fast"
text = "Prevent the next damage to a friendly unit this turn, and it gets +0/+2 this turn."
effect = [
  { do = "grant", status = "barrier", until = "end_of_turn", target = "friendly_unit" },
  { do = "buff", health = 2, until = "end_of_turn", target = "friendly_unit" },
]
'''


def _card(tmp_path: Path, body: str) -> Path:
    f = tmp_path / "mine.toml"
    f.write_text(body, encoding="utf-8")
    return f


def _problems(tmp_path: Path, body: str) -> list[str]:
    with pytest.raises(CardFileError) as err:
        load_card_file(_card(tmp_path, body))
    return err.value.problems


def test_card_text_every_bundled_card_says_what_it_does() -> None:
    db = load_card_db()
    assert len(db.by_id) > 250
    assert {c.id: text_problems(c) for c in db.by_id.values() if text_problems(c)} == {}


def test_card_text_shelter_of_wings_as_it_was_is_refused_naming_card_and_text_line(tmp_path: Path) -> None:
    problems = _problems(tmp_path, SHELTER_AS_IT_WAS)
    assert len(problems) == 1
    assert problems[0].startswith(f"{tmp_path / 'mine.toml'}:8: card 'shelter-of-wings': text and effects disagree")
    assert "2 targets that are a friendly unit" in problems[0] and 'target = "same"' in problems[0]


def test_card_text_shelter_of_wings_with_same_loads(tmp_path: Path) -> None:
    fixed = SHELTER_AS_IT_WAS.replace('health = 2, until = "end_of_turn", target = "friendly_unit"',
                                      'health = 2, until = "end_of_turn", target = "same"')
    (card,) = load_card_file(_card(tmp_path, fixed))
    assert card.play_slots(None) == ("friendly_unit",)      # one target in the command


def test_card_text_the_bundled_shelter_of_wings_takes_one_target() -> None:
    card = load_card_db([bundled_cards_dir()]).lookup("Shelter of Wings")
    assert card.play_slots(None) == ("friendly_unit",)
    assert [e.target for e in card.effect] == ["friendly_unit", "same"]


BASE = '''[[card]]
id = "test-card"
name = "Test Card"
type = "action"
cost = 1
speed = "slow"
'''


@pytest.mark.parametrize(("text", "effect", "says"), [
    ("Deal 3 damage to a unit.", '{ do = "damage", amount = 2, target = "unit" }', "'2 damage'"),
    ("Heal 2 to your Champion.", '{ do = "heal", amount = 3, target = "friendly_champion" }', "'heal 3'"),
    ("A unit gets +2/+0 this turn.", '{ do = "buff", power = 1, until = "end_of_turn", target = "unit" }', "'+1/+0'"),
    ("Draw a card.", '{ do = "draw", amount = 2 }', "'draw 2 cards'"),
    ("Your opponent discards a card at random.", '{ do = "discard", amount = 3, player = "opponent" }',
     "'discard 3 cards'"),
    ("Gain 2 Influence.", '{ do = "gain_influence", amount = 1 }', "'gain 1 Influence'"),
    ("A friendly unit gets +1/+1.", '{ do = "grant", keyword = "charge", target = "friendly_unit" }', "'Charge'"),
    ("Deal 1 damage to a unit. Deal 1 damage to it again.",
     '{ do = "damage", amount = 1, target = "unit" }, { do = "damage", amount = 1, target = "unit" }',
     "2 targets that are a unit"),
    ("Deal 1 damage to an enemy unit. Draw a card.",
     '{ do = "damage", amount = 1, target = "enemy_unit" }, { do = "draw", amount = 1, target = "same" }',
     "never refers back"),
])
def test_card_text_a_text_that_disagrees_with_an_effect_is_refused(tmp_path: Path, text: str, effect: str,
                                                                    says: str) -> None:
    problems = _problems(tmp_path, BASE + f'text = "{text}"\neffect = [ {effect} ]\n')
    assert len(problems) == 1 and ":7: card 'test-card': text and effects disagree" in problems[0]
    assert says in problems[0]


def test_card_text_a_keyword_and_an_ability_cost_must_be_in_the_text(tmp_path: Path) -> None:
    body = '''[[card]]
id = "test-unit"
name = "Test Unit"
type = "unit"
cost = 2
power = 1
health = 1
keywords = ["tough"]
text = "Exhaust, Fast: draw a card."
abilities = [ { activate = { cost = 2, exhaust = true }, effect = [ { do = "draw" } ] } ]
'''
    problems = _problems(tmp_path, body)
    assert any("keyword 'tough'" in p for p in problems)
    assert any("costs 2 Influence" in p for p in problems)


def test_card_text_same_before_any_target_is_refused(tmp_path: Path) -> None:
    body = BASE + 'text = "It gets +1/+1."\neffect = [ { do = "buff", power = 1, health = 1, target = "same" } ]\n'
    problems = _problems(tmp_path, body)
    assert any('target = "same" refers back' in p and "'effect[0]'" in p for p in problems)


def test_card_text_same_inside_a_flux_outcome_refers_only_inside_it(tmp_path: Path) -> None:
    outer = BASE + ('text = "Deal 1 damage to a unit. Flux — one at random: it gets +1/+1; or draw a card."\n'
                    'effect = [ { do = "damage", amount = 1, target = "unit" }, { do = "flux", outcomes = [ '
                    '[ { do = "buff", power = 1, health = 1, target = "same" } ], [ { do = "draw" } ] ] } ]\n')
    assert any("outcomes[0][0]" in p for p in _problems(tmp_path, outer))


def test_c1k_validate_reports_the_disagreement_and_exits_1(tmp_path: Path) -> None:
    f = _card(tmp_path, SHELTER_AS_IT_WAS.replace("shelter-of-wings", "my-shelter").replace(
        "Shelter of Wings", "My Shelter"))
    res = runner.invoke(app, ["validate", str(f)])
    assert res.exit_code == 1
    assert f"{f}:8: card 'my-shelter': text and effects disagree" in res.output


# ---- the engine's words for `self` match the text (Ashen Offering: "Deal 2 damage to your Champion")

def test_card_text_self_on_an_action_reads_your_champion() -> None:
    """`target = "self"` on an action hits its controller's Champion (engine/targets.py), and the engine's
    words say so — Ashen Offering no longer reads "deal 2 damage to itself"; a unit's self is itself."""
    from engine.cards import describe_effects, self_words

    db = load_card_db()
    offering = db.lookup("Ashen Offering")
    assert describe_effects(offering.effect, self_words(offering.type)) == "deal 2 damage to your Champion; draw 1 card"
    squire = db.lookup("Bastion Squire")
    assert describe_effects(squire.abilities[0].effect, self_words(squire.type)) == "itself gains barrier"
    omen = db.lookup("Wild Omen")             # a Flux outcome of an action, as the log names it
    assert omen.effect[0].outcome_text(1) == "heal 3 to your Champion"
    thalwen = db.lookup("Thalwen, Keeper of the First Grove")
    assert self_words(thalwen.type) == "your Champion"


@pytest.mark.parametrize(("text", "effect", "says"), [
    # Ashen Offering made wrong on purpose: the text names the enemy Champion, the effect hits your own
    ("Deal 2 damage to the enemy Champion. Draw a card.",
     '{ do = "damage", amount = 2, target = "self" }, { do = "draw", amount = 1 }',
     "does 'deal 2 damage to your Champion', but its text never says 'your Champion'"),
    ("Deal 2 damage to your Champion.", '{ do = "damage", amount = 2, target = "enemy_champion" }',
     "never says 'the enemy Champion'"),
    ("Heal 3 to the enemy Champion.", '{ do = "heal", amount = 3, target = "friendly_champion" }',
     "never says 'your Champion'"),
    ("Flux — one at random: deal 2 damage to a unit; or heal 3 damage from a unit.",
     '{ do = "flux", outcomes = [ [ { do = "damage", amount = 2, target = "unit" } ], '
     '[ { do = "heal", amount = 3, target = "self" } ] ] }',
     "does 'heal 3 to your Champion', but its text never says 'your Champion'"),
])
def test_card_text_a_text_that_names_the_wrong_champion_is_refused(tmp_path: Path, text: str, effect: str,
                                                                  says: str) -> None:
    problems = _problems(tmp_path, BASE + f'text = "{text}"\neffect = [ {effect} ]\n')
    assert len(problems) == 1 and ":7: card 'test-card': text and effects disagree" in problems[0], problems
    assert says in problems[0], problems[0]
