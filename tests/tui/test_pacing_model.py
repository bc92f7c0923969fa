"""Pacing as plain functions (c1k_tui/model/pacing.py; tui.md: windows passed through automatically can be
watched, and the learning flow steps by even when the player's pace is off)."""

from __future__ import annotations

from c1k_tui.model.pacing import PaceStep, Pacing, pace_of, pacing
from c1k_tui.model.paths import LEARNING_PACE_MS
from engine import WINDOW_INDEX
from engine.events import Event


def window(n: int, turn: int, win: str) -> Event:
    return Event(n, "window", turn, win, "C1K 4", -1, -1, f"{win} begins")


def other(n: int, turn: int, win: str) -> Event:
    return Event(n, "pass", turn, win, "C1K 4", 0, -1, "p1 passes")


PASSED = [other(10, 3, "main.priority"), window(11, 3, "combat.declare_attackers"), other(12, 3, "combat.declare_attackers"),
          window(13, 3, "combat.exit"), window(14, 3, "end.start"), other(15, 3, "end.start"),
          window(16, 3, "end.final")]


def test_windows_passed_through_step_by_at_the_pace_first_at_once_last_is_the_next_screen() -> None:
    plan = pacing(PASSED, 400)
    assert plan.passed and plan.stepping
    assert plan.steps == (PaceStep(3, WINDOW_INDEX["combat.declare_attackers"], 11, 0),
                          PaceStep(3, WINDOW_INDEX["combat.exit"], 13, 400),
                          PaceStep(3, WINDOW_INDEX["end.start"], 14, 800))
    assert plan.done_ms == 1200          # end.final, the last window, is shown by the next screen


def test_pace_off_or_fewer_than_two_windows_shows_the_next_screen_at_once() -> None:
    assert pacing(PASSED, 0) == Pacing(passed=True)
    assert pacing(PASSED[:3], 400) == Pacing(passed=True)     # one window: nothing to step through
    assert pacing([other(1, 1, "main.priority")], 400) == Pacing(passed=False)
    assert pacing([], 700) == Pacing(passed=False)


def test_the_steps_follow_the_windows_in_the_order_entered_across_turns() -> None:
    evs = [window(1, 2, "end.final"), window(2, 3, "draw.start"), window(3, 3, "draw.draw"), window(4, 3, "main.priority")]
    plan = pacing(evs, 150)
    assert [(s.turn, s.window) for s in plan.steps] == [(2, WINDOW_INDEX["end.final"]), (3, WINDOW_INDEX["draw.start"]),
                                                       (3, WINDOW_INDEX["draw.draw"])]
    assert [s.at_ms for s in plan.steps] == [0, 150, 300] and plan.done_ms == 450


def test_the_keyboard_holders_own_pace_applies() -> None:
    assert pace_of((0, 700), 1, learning=False) == 700
    assert pace_of((0, 700), 0, learning=False) == 0
    assert pace_of((400, 700), None, learning=False) == 400     # no player at the keyboard: the first seat's
    assert pace_of((400, 700), -1, learning=False) == 400


def test_the_learning_flow_steps_by_even_when_the_players_pace_is_off() -> None:
    assert pace_of((0, 0), 0, learning=True) == LEARNING_PACE_MS > 0
    assert pace_of((900, 0), 0, learning=True) == 900         # their own pace, when they set one
