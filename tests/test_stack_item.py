"""engine.stack.new_item builds stack items without the frozen dataclass's __init__ (for speed): it must
build exactly what the constructor builds, every field set, and the item stays frozen."""

from __future__ import annotations

import dataclasses

import pytest

from engine.stack import new_item
from engine.state import StackItem


def test_new_item_equals_the_constructor_field_by_field() -> None:
    values = (7, "card", 12, 1, 0, "Ember Drake", 2, (3, 4), 1, "voidcast", 1, 2, (5, 0))
    fast, slow = new_item(*values), StackItem(*values)
    assert fast == slow and hash(fast) == hash(slow)
    assert [getattr(fast, f.name) for f in dataclasses.fields(StackItem)] == list(values)
    assert fast.snapshot() == slow.snapshot()


def test_new_item_is_frozen() -> None:
    it = new_item(1, "ability", 2, 0, 0, "x", 0, (), 0, "", 0, -1, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        it.mode = 2  # type: ignore[misc]


def test_declaration_equals_the_decision_constructor() -> None:
    from engine.combat import declaration
    from engine.state import Decision

    fast = declaration("blockers", 1, "combat.blockers", "C1K 4.2", "p2: declare blockers", (4, 9))
    slow = Decision("blockers", 1, "combat.blockers", "C1K 4.2", "p2: declare blockers", eligible=(4, 9))
    assert fast == slow and hash(fast) == hash(slow)
    assert [getattr(fast, f.name) for f in dataclasses.fields(Decision)] == \
        [getattr(slow, f.name) for f in dataclasses.fields(Decision)]
