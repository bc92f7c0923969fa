"""Pacing: which windows a command passed through are stepped through on the phase bar, in what order,
and when — values, no Textual.

After an accepted command the flow options may carry the match through several windows at once (passes
the flow sends). tui.md: windows passed through automatically can be watched. `pacing()` says which of
them are shown and at what time (ms after the command); the App only sets the timers that render those
steps. Which windows a match goes through is public, and so is the pace (a player's own option), so the
steps depend on public facts only (rules.md §7a).

Whose pace: the player at the keyboard's own (`pace_of`); the learning flow steps by even when theirs is
off (`LEARNING_PACE_MS`), so a learner sees each window pass.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from c1k_tui.model.paths import LEARNING_PACE_MS
from engine import WINDOW_INDEX

if TYPE_CHECKING:
    from engine import Event


@dataclass(frozen=True)
class PaceStep:
    """Show window `window` (its index in the phase bar) of turn `turn` at `at_ms` after the command;
    `n` is the event that entered it (a learning recap runs up to it)."""

    turn: int
    window: int
    n: int
    at_ms: int


@dataclass(frozen=True)
class Pacing:
    """The steps to render, then what comes next is shown at `done_ms`. No steps: show it at once."""

    passed: bool                      # the command passed through at least one window
    steps: tuple[PaceStep, ...] = ()
    done_ms: int = 0

    @property
    def stepping(self) -> bool:
        return bool(self.steps)


def pace_of(paces: Sequence[int], viewer: int | None, learning: bool) -> int:
    """The pace that applies: the player at the keyboard's own (seat 0's when no player has it); the
    learning flow steps by even when theirs is off."""
    seat = 1 if viewer == 1 else 0
    return paces[seat] or (LEARNING_PACE_MS if learning else 0)


def pacing(events: Iterable[Event], pace_ms: int) -> Pacing:
    """The phase-bar steps for the events a command produced (`game.events.since(seen)`): every window
    entered but the last is shown `pace_ms` apart, the first at once; the last window is where the next
    screen is shown (at `done_ms`). With the pace off, or fewer than two windows, nothing is stepped."""
    wins = [(e.turn, WINDOW_INDEX[e.window], e.n) for e in events if e.kind == "window"]
    passed = len(wins) >= 1
    if pace_ms <= 0 or len(wins) < 2:
        return Pacing(passed)
    steps = tuple(PaceStep(turn, index, n, i * pace_ms) for i, (turn, index, n) in enumerate(wins[:-1]))
    return Pacing(passed, steps, (len(wins) - 1) * pace_ms)


# -------------------------------------------------------------------- the AI's thinking floor (rules.md §7a)

#: the floor of each search level against a human (ms): at least 2.5× the slowest search measured at the
#: level (docs/ai.md, "The thinking floor": the command and the numbers; ai:2's rose from 700 ms when the
#: halving levels were measured on 2026-12-08: a decision of 476 ms)
LEVEL_FLOOR_MS = {1: 700, 2: 1200, 3: 2500, 4: 7500}
#: the floor of an agent that doesn't search (random, greedy: a few ms a decision), with hands hidden
FAST_FLOOR_MS = 300


def think_floor_ms(pace_ms: int, level_floors: Iterable[int], hidden: bool, watch: bool = False) -> int:
    """No AI answer shows sooner than this after it was asked (ms). With hands hidden it is the agents'
    level floors (FAST_FLOOR_MS at least) whatever the pace says: `--pace` can only make it slower, so a
    forced answer and a searched one read the same. With open hands nothing is hidden: the pace alone, or
    the level floor when a pace is set. Watching two agents: the watch pace steps the moves instead."""
    if watch:
        return 0
    floors = [int(f) for f in level_floors]
    if hidden:
        return max([pace_ms, FAST_FLOOR_MS, *floors])
    return 0 if pace_ms <= 0 else max([pace_ms, *floors])


def shown_after_ms(took_ms: float, floor_ms: int) -> int:
    """When an answer that took `took_ms` to find is shown, in ms after it was asked: at the floor, or, for
    a search that outlasted it, at the next multiple of the floor — the floor is a quantum, so a late
    answer tells only how many floors passed, not how long the search took."""
    if floor_ms <= 0:
        return 0
    return max(1, math.ceil(took_ms / floor_ms)) * floor_ms


@dataclass
class ThinkFloor:
    """The floor of one match against a human. `hold_ms(took)` says how long to hold an answer before it is
    shown; an answer shown late (past the floor) raises the floor to the multiple it was shown at, for the
    rest of the match: a machine that was slow once is slow again, and each late answer would tell."""

    floor_ms: int
    slow: int = 0                 # answers shown late (past the floor at the time)

    def hold_ms(self, took_ms: float) -> float:
        """ms to wait before showing an answer that took `took_ms` (0: show it now)."""
        if self.floor_ms <= 0:
            return 0.0
        at = shown_after_ms(took_ms, self.floor_ms)
        if at > self.floor_ms:
            self.slow += 1
            self.floor_ms = at
        return max(0.0, at - took_ms)


__all__ = ["FAST_FLOOR_MS", "LEVEL_FLOOR_MS", "PaceStep", "Pacing", "ThinkFloor", "pace_of", "pacing",
           "shown_after_ms", "think_floor_ms"]
