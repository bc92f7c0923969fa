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


__all__ = ["PaceStep", "Pacing", "pace_of", "pacing"]
