"""The event pipeline (rules.md §4): prevention → modification → replacement → finalize → after,
as one mechanism keywords plug into; and the SBA loop cap (a clear error, not a hang)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import pipeline, sba
from engine.core import MatchState
from engine.game import Game, RulesLoopError
from engine.scenario import build, scenario_from_data

UNIT = {"id": "test-wall", "name": "Test Wall", "type": "unit", "cost": 1, "power": 1, "health": 4,
        "keywords": ["tough"]}


def setup(status: list[str] | None = None) -> tuple[Game, int]:
    data = {"scenario": {"window": "main.priority", "turn": 3}, "card": [UNIT],
            "p1": {"board": [{"card": "Test Wall", "as": "w", "status": status or []}]}}
    g = build(scenario_from_data(data, "<test>"))
    return g, g.aliases["w"]


@pytest.fixture
def recorder() -> Iterator[list[tuple[str, int]]]:
    seen: list[tuple[str, int]] = []

    def rec(stage: str) -> pipeline.Handler:
        def fn(game: MatchState, ev: pipeline.PendingEvent) -> None:
            seen.append((stage, ev.amount))
        return fn

    added = []
    for stage in ("prevention", "modification", "replacement", "after"):
        fn = rec(stage)
        pipeline.HANDLERS[stage].setdefault("damage", []).append(fn)
        added.append((stage, fn))
    yield seen
    for stage, fn in added:
        pipeline.HANDLERS[stage]["damage"].remove(fn)


def test_stages_run_in_order_and_each_sees_the_previous_result(recorder: list[tuple[str, int]]) -> None:
    g, w = setup()
    pipeline.damage(g, 0, w, 3)
    # the recorders run after the core handlers of their stage: Tough has already taken 1 at modification
    assert recorder == [("prevention", 3), ("modification", 2), ("replacement", 2), ("after", 2)]
    assert g.perms[w].damage == 2


def test_prevention_before_modification_barrier_on_tough_unit() -> None:
    g, w = setup(["barrier"])
    assert pipeline.damage(g, 0, w, 3) == 0
    assert g.perms[w].damage == 0 and not g.perms[w].has_status("barrier")
    assert pipeline.damage(g, 0, w, 3) == 2   # Barrier used up; Tough still reduces each instance by 1


def test_a_cancelled_event_never_finalizes() -> None:
    g, w = setup()

    def cancel(game: MatchState, ev: pipeline.PendingEvent) -> None:
        ev.cancelled = True

    pipeline.HANDLERS["replacement"].setdefault("damage", []).append(cancel)
    try:
        assert pipeline.damage(g, 0, w, 3) == 0
        assert g.perms[w].damage == 0
    finally:
        pipeline.HANDLERS["replacement"]["damage"].remove(cancel)


def test_state_based_action_loop_hits_the_cap_with_a_clear_error() -> None:
    g, w = setup()

    def undying(game: MatchState, ev: pipeline.PendingEvent) -> None:   # a broken replacement: never lets it die
        ev.cancelled = True

    pipeline.HANDLERS["replacement"].setdefault("destroy", []).append(undying)
    try:
        g.perms[w].damage = 10
        with pytest.raises(RulesLoopError, match="state-based actions ran 200 times"):
            sba.sba(g)
    finally:
        pipeline.HANDLERS["replacement"]["destroy"].remove(undying)


def test_unknown_stage_is_refused() -> None:
    with pytest.raises(ValueError):
        pipeline.register("sideways", "damage")
