"""Commands (docs/formats.md §1): every form parses and prints back to the same text and object."""

from __future__ import annotations

import pytest

from engine.actions import (
    Activate,
    Attack,
    Block,
    Choose,
    Concede,
    Decline,
    Interrupt,
    MalformedCommand,
    Pass,
    Play,
    SetCard,
    parse_action,
    parse_command,
)

CANONICAL = [
    ("pass", Pass()),
    ("play #3", Play(3)),
    ("play #3 slot 2", Play(3, 2)),
    ("play #3 target #4 target #5", Play(3, None, (4, 5))),
    ("play #3 mode 2", Play(3, None, (), 2)),
    ("play #3 pay voidcast", Play(3, voidcast=True)),
    ("play #3 slot 2 target #4 mode 1 pay voidcast", Play(3, 2, (4,), 1, True)),
    ("activate #7", Activate(7)),
    ("activate #7 2", Activate(7, 2)),
    ("activate #7 target #1", Activate(7, 1, (1,))),
    ("attack #1 #2", Attack((1, 2))),
    ("attack none", Attack(())),
    ("block #1 -> #2", Block(((1, 2),))),
    ("block #1 -> #2, #3 -> #4", Block(((1, 2), (3, 4)))),
    ("block none", Block(())),
    ("interrupt #9", Interrupt(9)),
    ("interrupt #9 target #2", Interrupt(9, (2,))),
    ("decline", Decline()),
    ("choose 2", Choose((2,))),
    ("choose 1 3", Choose((1, 3))),
    ("set #4", SetCard(4)),
    ("concede", Concede()),
]


@pytest.mark.parametrize(("text", "action"), CANONICAL, ids=[t for t, _ in CANONICAL])
def test_round_trip(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_loose_spacing_and_case() -> None:
    assert parse_action("  PLAY   #3  TARGET #4 ") == Play(3, None, (4,))
    assert parse_action("block #1->#2,#3 -> #4") == Block(((1, 2), (3, 4)))


def test_prefix_and_quoted_names() -> None:
    cmd = parse_command('p2: play "Ash Warden" target brute')
    assert cmd.player == "p2" and cmd.refs == ("Ash Warden",) and cmd.targets == ("brute",)


@pytest.mark.parametrize(("text", "needle"), [
    ("", "empty command"),
    ("pley #3", "did you mean 'play'"),
    ("pass now", "takes nothing"),
    ("play", "needs a card"),
    ("play #3 slot x", "not a number"),
    ("play #3 banana", "unexpected 'banana'"),
    ("attack", "needs units or 'none'"),
    ("block #1 #2", "is not '<blocker> -> <attacker>'"),
    ("choose", "at least one number"),
    ("choose one", "not a number"),
    ('play "Ash Warden', "close the quotes"),
    ("play Ash", "names need a game"),
])
def test_malformed_commands_say_what_was_expected(text: str, needle: str) -> None:
    with pytest.raises(MalformedCommand) as err:
        parse_action(text)
    assert needle in str(err.value)
    assert isinstance(err.value, ValueError)


# ---- property: every action prints to text that parses back to an equal action (Hypothesis)

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ids = st.integers(min_value=1, max_value=10_000)
targets = st.lists(ids, max_size=3).map(tuple)
small = st.integers(min_value=1, max_value=9)
actions = st.one_of(
    st.just(Pass()), st.just(Decline()), st.just(Concede()),
    st.builds(Play, ids, st.none() | small, targets, st.none() | small, st.booleans()),
    st.builds(Activate, ids, small, targets),
    st.builds(Attack, st.lists(ids, max_size=6).map(tuple)),
    st.builds(Block, st.lists(st.tuples(ids, ids), max_size=6).map(tuple)),
    st.builds(Interrupt, ids, targets),
    st.builds(Choose, st.lists(small, min_size=1, max_size=4).map(tuple)),
    st.builds(SetCard, ids),
)


@given(actions)
def test_any_action_round_trips(action: object) -> None:
    assert parse_action(str(action)) == action
