"""engine.values.fast_init: the frozen value classes built through their slots must be exactly what the
dataclass's own __init__ built — every field given or defaulted, in order, and still frozen."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from engine import actions, state
from engine.values import fast_init

CLASSES = [c for m in (actions, state) for c in vars(m).values()
           if isinstance(c, type) and c.__module__ == m.__name__ and dataclasses.is_dataclass(c)
           and c.__init__.__module__ == fast_init.__module__]


def test_the_hot_classes_use_it() -> None:
    names = {c.__name__ for c in CLASSES}
    assert {"Play", "Activate", "Attack", "Block", "Pass", "StackItem", "Trigger", "Decision", "Choice"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_fields_defaults_order_and_frozen(cls: type) -> None:
    fields = dataclasses.fields(cls)
    given = {f.name: (f"v{i}" if f.default is dataclasses.MISSING else f.default) for i, f in enumerate(fields)}
    required = [f.name for f in fields if f.default is dataclasses.MISSING]
    by_kw = cls(**{n: given[n] for n in required})
    by_pos = cls(*[given[f.name] for f in fields])
    assert [getattr(by_kw, f.name) for f in fields] == [given[f.name] for f in fields]
    assert by_kw == by_pos and hash(by_kw) == hash(by_pos) and repr(by_kw) == repr(by_pos)
    assert pickle.loads(pickle.dumps(by_pos)) == by_pos
    if fields:
        other: Any = dataclasses.replace(by_pos, **{fields[0].name: "changed"})
        assert getattr(other, fields[0].name) == "changed" and other != by_pos
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(by_pos, fields[0].name, 1)
    with pytest.raises(TypeError):
        cls(*[given[f.name] for f in fields], "one too many")


def test_it_refuses_what_it_cannot_build_the_same() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        x: list[int] = dataclasses.field(default_factory=list)

    for c in (NoSlots, Factory):
        with pytest.raises(TypeError):
            fast_init(c)
