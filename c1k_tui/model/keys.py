"""One key guard for the hot-seat table (tui.md round 3): whether a key may act is a fact of the model.

Every screen the table shows — a hand-off, the turn banner, the table itself, a prompt, the game-over
screen — has an *epoch*. A key acts only if it was pressed at least `guard_s` after its epoch's screen was
painted, so it can only act on a screen its player has seen; a key pressed before that (the tail of a
double Enter, a key repeat, a finger still on the last screen's key) is dropped, never buffered.

A new epoch starts on every path that shows something its player has not seen: a hand-off, "your turn",
the first table of a match (after the splash, a resume, a lesson restart), the table after a hand-off or
banner was dismissed, after an undo, after the AI moved, after a prompt closed, the game-over screen.
Between a screen being dismissed and the next being painted no key acts at all. What an admitted key asks
for (a command, a prompt) is dropped too if the screen changed between the key and its being acted on
(`stale`): two keys admitted together on one table act on that table only. Only two paths keep their
epoch: the keyboard holder's own command (accepted, refused or mistyped) re-rendering their own table —
they are still looking at it; keys pressed while the engine advanced are dropped all the same — and
watching two agents play (no one decides there and nothing is hidden: pause and step keys always act).

No Textual here: the App feeds the times (`painted`, a key's own timestamp) and asks `admits`. Times are
seconds on one monotonic clock.
"""

from __future__ import annotations

from dataclasses import dataclass

#: seconds a screen its player hasn't seen ignores keys (tui.md round 2 and 3)
KEY_GUARD_S = 0.5

#: what the model can show; a "table" is the only screen whose own player's command can keep its epoch
SCREENS = ("splash", "handoff", "turn", "table", "prompt", "gameover", "watch", "other")


def screen_of(shown: object) -> str:
    """The screen a value of `Table.next()` is shown on (a table with a question: its prompt opens over it)."""
    from c1k_tui.model.table import GameOver, HandOff, ShowTable, YourTurn

    if isinstance(shown, HandOff):
        return "handoff"
    if isinstance(shown, YourTurn):
        return "turn"
    if isinstance(shown, GameOver):
        return "gameover"
    if isinstance(shown, ShowTable):
        return "table"
    raise TypeError(f"not a value of Table.next(): {shown!r}")


@dataclass
class KeyGuard:
    """The epochs of one App's screens and the keys they admit."""

    guard_s: float = KEY_GUARD_S
    epoch: int = 0
    screen: str = ""
    viewer: int = -2
    painted_at: float | None = None    # when this epoch's screen was first painted (None: not yet)
    last_paint: float = 0.0            # the latest repaint (a key pressed before it acted on an older table)
    busy: bool = False                 # a command is being applied: keys are dropped until the repaint
    own_command: bool = False          # the keyboard holder's command is being applied to their own table
    changed_at: float = 0.0            # when the screen last changed under the keys (`changed`)

    def show(self, screen: str, viewer: int = -2) -> int:
        """A screen is about to be shown (for `viewer`, -2 if nobody in particular): its epoch. A new one,
        unless it is the keyboard holder's own table again after their own command."""
        if screen not in SCREENS:
            raise ValueError(f"unknown screen {screen!r}: one of {', '.join(SCREENS)}")
        if screen == "watch" and self.screen == "watch" and self.painted_at is not None:
            return self.epoch         # watching two agents: no one decides, nothing is hidden
        keep = (self.own_command and screen == "table" and self.screen == "table" and viewer == self.viewer
                and self.painted_at is not None)
        self.own_command = False
        if keep:
            self.busy = True          # (until the repaint)
            return self.epoch
        self.epoch += 1
        self.screen, self.viewer = screen, viewer
        self.painted_at = None
        self.busy = False
        return self.epoch

    def dismissed(self) -> None:
        """The screen was dismissed (a hand-off taken, a banner, a prompt answered): until the next screen
        is painted no key acts — and that screen is a new epoch."""
        self.epoch += 1
        self.screen = ""
        self.painted_at = None
        self.own_command = False
        self.busy = False

    def command_sent(self) -> None:
        """The keyboard holder's command goes to the engine: keys wait for the repaint; if the same player's
        table comes back, it keeps its epoch (`show`)."""
        self.own_command = self.screen == "table"
        self.busy = True

    def interrupt(self) -> None:
        """Something else than the keyboard holder changed the game (the AI moved, an undo, a restart): the
        next table is a new epoch even for the same player."""
        self.own_command = False
        self.busy = True

    def painted(self, epoch: int, now: float) -> None:
        """`epoch`'s screen is on the terminal at `now` (a paint of an older epoch is ignored)."""
        if epoch != self.epoch:
            return
        if self.painted_at is None:
            self.painted_at = now
        self.last_paint = now
        self.busy = False

    def changed(self, now: float) -> None:
        """At `now` the screen changed under the keys: a command sent, or a screen shown that is not the same
        player's table again (the App decides which, `GuardedApp.shown`)."""
        self.changed_at = max(self.changed_at, now)

    def stale(self, asked_at: float) -> bool:
        """Whether what a key asked for at `asked_at` (a command, a prompt) comes too late: the screen has
        changed since. Two keys pressed together can both be admitted on one table; the second one's
        command, acted on after the first one's, would act on a screen its player hasn't seen — the
        next player's table behind their hand-off. It is dropped, like the key."""
        return asked_at < self.changed_at

    def opens_at(self) -> float:
        """The earliest press time that acts now (infinity: nothing does until a paint)."""
        if self.painted_at is None or self.busy:
            return float("inf")
        return max(self.painted_at + self.guard_s, self.last_paint)

    def admits(self, pressed_at: float) -> bool:
        """Whether a key pressed at `pressed_at` may act on the screen shown now."""
        return pressed_at >= self.opens_at()


__all__ = ["KEY_GUARD_S", "SCREENS", "KeyGuard", "screen_of"]
