"""Play against an agent (`c1k play --vs ai[:LEVEL]`) or watch two agents play (`c1k play --ai-vs-ai`).

How a match against an agent runs (rules.md §7a: the agent reads only its own information set):

- The session, the opponent specs and the agents' seeds are c1k_tui/model/versus_session.py (no Textual).
- `Versus` is the app's controller for such a match: when an AI seat must decide, the agent thinks in a
  worker thread (on a clone of the game) while the screen stays live; its answer is held until a public
  floor (`floor_ms`, the pace) has passed since it was asked — a forced answer as long as a searched one —
  then sent, and the screen shows the recap of what the human may know of it. A search that outlasts the
  floor still shows (its length is then visible, as a human's hesitation is; `Versus.shown` logs each
  decision point and how long it showed for, `Versus.slow` counts those). The human's screen is always the human's own view: no hand-off screen,
  the AI's hand is never shown; the AI's command text is never shown either (a Set card's id is hidden
  from the human), only the public recap.
- Undo goes back to the human's last decision: the AI's answers after it (and the flow options' passes)
  are undone with it — only if none of them revealed anything (the engine's `reveal_reason`).
- Watching (`--ai-vs-ai`): both hands open (said on the title line), a pace, `p` pause, `.` one step,
  `+`/`-` pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rich.markup import escape
from textual.binding import Binding
from textual.message import Message

from c1k_tui.model.pacing import ThinkFloor, think_floor_ms
from c1k_tui.model.session import MatchSession
from c1k_tui.model.versus_session import (
    DEFAULT_PACE_MS,
    PACES_MS,
    WATCH_PACE_MS,
    MoveLine,
    VersusSession,
    agent_label,
    level_floor_ms,
    move_line,
)
from c1k_tui.screens.match_screen import MatchScreen
from engine import InfoSet, make_agent, observe

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

    from engine import Action, Agent

# -------------------------------------------------------------------- the app's controller


class WatchScreen(MatchScreen):
    """The match screen while two agents play: pause, step and pace keys."""

    BINDINGS = [Binding("p", "pause", "pause"), Binding("full_stop", "step", "step"),
                Binding("plus", "pace(-1)", "faster"), Binding("minus", "pace(1)", "slower")]

    class Control(Message):
        """Pause, step or change the pace of the agents (the App routes it to its `Versus`)."""

        def __init__(self, what: str, d: int = 0) -> None:
            self.what = what
            self.d = d
            super().__init__()

    def action_pause(self) -> None:
        self.post_message(self.Control("pause"))

    def action_step(self) -> None:
        self.post_message(self.Control("step"))

    def action_pace(self, d: int) -> None:
        self.post_message(self.Control("pace", d))


def move_status(line: MoveLine) -> str:
    """The status line's markup for an AI's move: who moved in bold, what it did plain (neither read as
    markup: a card named "[Set]" stays text)."""
    return f"[b]{escape(line.who)}:[/b] {escape(line.said)}"


def thinking_status(who: str, last: MoveLine | None) -> str:
    """The status line while `who` thinks, with its last move if that is what the line still said."""
    return f"[b]{escape(who)} is thinking…[/b]" + (f"   (last: {escape(last.said)})" if last else "")


@dataclass
class Move:
    gen: int
    seat: int
    n: int              # the record's length when the agent was asked
    action: Action | None
    error: str = ""
    asked: float = 0.0  # the controller's clock when the agent was asked


@dataclass(frozen=True)
class Shown:
    """One AI decision the human saw being made: where (public), and after how long its answer showed."""
    turn: int
    window: str
    kind: str
    ms: int             # from the question to the answer on screen: the floor, or a longer search


class VersusHost(Protocol):
    """What the controller needs of the app that hosts it (the App is one; no import of it here, so the
    app and this module never import each other)."""

    match_screen: MatchScreen | None
    versus_pace: int | None         # ms between an AI's visible moves (None: the default)
    versus_paused: bool             # watching two AIs: start paused

    @property
    def session(self) -> MatchSession | None: ...

    @property
    def viewer(self) -> int: ...

    @viewer.setter
    def viewer(self, p: int) -> None: ...

    @property
    def seen_upto(self) -> list[int]: ...

    def refresh_view(self) -> None: ...

    def present(self) -> None: ...

    def check_lesson(self) -> None: ...

    def maybe_prompt(self) -> None: ...

    def pname(self, p: int) -> str: ...

    def set_timer(self, delay: float, callback: Callable[[], Any] | None = None, *, name: str | None = None,
                  pause: bool = False) -> Timer: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...

    def run_worker(self, work: Any, name: str | None = "", group: str = "default", description: str = "",
                   exit_on_error: bool = True, start: bool = True, exclusive: bool = False,
                   thread: bool = False) -> Worker[Any]: ...


class Versus:
    """Runs the AI seats of the app's match: thinking in a worker, pacing, recaps, undo."""

    def __init__(self, app: VersusHost, session: VersusSession, pace_ms: int | None = None) -> None:
        self.app = app
        self.s = session
        self.agents: dict[int, Agent] = {p: make_agent(spec, seed) for p, (spec, seed) in session.agents.items()}
        self.watch = not session.humans
        self.pace_ms = pace_ms if pace_ms is not None else (WATCH_PACE_MS if self.watch else DEFAULT_PACE_MS)
        self.thinking = False
        self.waiting = False          # a paced pause after a visible AI action
        self.paused = False
        self.steps = 0                # watch: decisions to make while paused
        self.gen = 0                  # bumped by undo and a new match: a late answer is dropped
        self.moves = 0                # AI decisions made (tests, the title)
        self.said: MoveLine | None = None   # the last AI move the status line said
        # against a human no AI answer shows sooner than the floor after it was asked (c1k_tui/model/pacing.py:
        # with hands hidden whatever --pace says; a late answer shows at the next multiple of the floor)
        self.floor = ThinkFloor(think_floor_ms(self.pace_ms, [level_floor_ms(spec) for spec, _ in
                                                              session.agents.values()],
                                               hidden=not session.open_hands, watch=self.watch))
        self.clock: Callable[[], float] = time.monotonic       # seconds; tests inject their own
        self.later: Callable[[float, Callable[[], None]], object] = self._timer
        self.shown: list[Shown] = []  # each AI decision shown to the human, in order

    @property
    def floor_ms(self) -> int:
        return self.floor.floor_ms

    @property
    def slow(self) -> int:
        """Of the answers shown, how many searched longer than the floor (shown at a later multiple)."""
        return self.floor.slow

    # ---------------------------------------------------------------- what the app asks

    @property
    def human(self) -> int:
        """The seat whose screen this is (watching: p1 at the bottom)."""
        return self.s.humans[0] if self.s.humans else 0

    def busy(self) -> bool:
        """An AI seat is deciding (or its move is being shown): the human's keys wait."""
        g = self.s.game
        return self.thinking or self.waiting or (not g.is_terminal() and self.s.is_ai(g.current_player()))

    def title(self) -> str:
        if self.watch:
            names = " vs ".join(self._name(p) for p in (0, 1))
            state = "PAUSED (. steps)" if self.paused else f"pace {self.pace_ms} ms"
            return f"BOTH HANDS SHOWN · {state} · watching {names}"
        ai = next(iter(self.s.agents))
        return f"vs {agent_label(self.s.agents[ai][0])} · its hand is " + ("SHOWN" if self.s.open_hands else "hidden")

    def _name(self, p: int) -> str:
        return agent_label(self.s.agents[p][0]) if p in self.s.agents else "you"

    def present(self) -> bool:
        """The app's `present()` for a match with an AI seat (True: handled). The screen is the human's
        view; an AI seat's decision is taken by its agent in a worker."""
        app = self.app
        s = self.s
        g = s.game
        if app.match_screen is None or g.is_terminal():
            return False
        ms = app.match_screen
        app.viewer = self.human
        app.refresh_view()
        p = g.current_player()
        if s.is_ai(p):
            if self.thinking or self.waiting:
                return True
            if self.watch and self.paused and self.steps <= 0:
                ms.status = "[b]paused[/b] — p resumes · . makes one decision"
                return True
            self.steps = max(0, self.steps - 1)
            self._think(p)
            return True
        self.show_recap()
        if "is thinking…" in ms.status:
            ms.status = ""
        app.check_lesson()
        app.maybe_prompt()
        return True

    def show_recap(self) -> None:
        """The recap of what the human may know since their last decision (the AI's moves included)."""
        from c1k_tui.model.recap import recap_entries, recap_text
        from c1k_tui.screens.styled import rich_text

        app = self.app
        if app.match_screen is None:
            return
        g = self.s.game
        p = self.human
        since = app.seen_upto[p]
        who = "the watcher (public events)" if self.watch else app.pname(p)
        app.match_screen.show_recap(rich_text(recap_text(recap_entries(g, -1 if self.watch else p, since),
                                                         f"RECAP for {who}", limit=12)))

    # ---------------------------------------------------------------- the agent's turn

    def _timer(self, seconds: float, then: Callable[[], None]) -> object:
        """The match screen's timer (the App's before one is shown): it stops with the screen, so no AI move
        is shown on a screen being torn down."""
        ms = self.app.match_screen
        return (ms if ms is not None else self.app).set_timer(seconds, then)

    def _think(self, p: int) -> None:
        app = self.app
        ms = app.match_screen
        g = self.s.game
        self.thinking = True
        if ms is not None:
            # its last move, without its name again, while the line still says it
            said = self.said
            last = said if said is not None and said.who == self._name(p) and ms.status == move_status(said) else None
            ms.status = thinking_status(self._name(p), last)
        gen, n, snapshot = self.gen, len(g.record), g.clone()
        agent = self.agents[p]
        asked = self.clock()

        def work() -> None:
            try:
                move = Move(gen, p, n, agent.act(InfoSet(snapshot, p)), asked=asked)
            except Exception as err:  # noqa: BLE001 - an agent's failure is a message, not a crash
                move = Move(gen, p, n, None, f"{type(err).__name__}: {err}", asked=asked)
            app.call_from_thread(self._acted, move)

        app.run_worker(work, thread=True, exit_on_error=False, group="versus")

    def _stale(self, move: Move) -> bool:
        """Undone, or another match meanwhile: the answer is dropped."""
        return move.gen != self.gen or len(self.s.game.record) != move.n or self.app.session is not self.s

    def _acted(self, move: Move) -> None:
        """The agent answered: held until the floor has passed since it was asked (rules.md §7a: a forced
        answer must not show sooner than a searched one), then shown."""
        if self._stale(move):
            return
        took = max(0.0, self.clock() - move.asked)
        wait = self.floor.hold_ms(took * 1000) / 1000
        if not self.watch:
            g = self.s.game
            v = observe(g, self.human)
            self.shown.append(Shown(v.turn, v.window, g.decision.kind, round((took + wait) * 1000)))
        if wait > 0:
            self.later(wait, lambda: self._show(move))
            return
        self._show(move)

    def _show(self, move: Move) -> None:
        from c1k_tui.model.recap import recap_entries

        if self._stale(move):
            return
        self.thinking = False
        s = self.s
        g = s.game
        app = self.app
        ms = app.match_screen
        if move.action is None:
            if ms is not None:
                ms.status = f"[b red]the AI failed:[/b red] {move.error} — the match is saved; ctrl+q quits"
            return
        seen = len(g.events)
        out = s.send(move.action, move.seat)
        self.moves += 1
        if not out.ok:
            if ms is not None:
                ms.status = f"[b red]the AI's move was refused:[/b red] {out.message}"
            if not out.changed:
                return
        windows = recap_entries(g, -1 if self.watch else self.human, seen)
        visible = bool(windows)
        if visible and ms is not None:
            self.show_recap()
            # what the AI did (its own events and what they caused), never the human's auto-passes
            who = self._name(move.seat)
            said = move_line(windows, move.seat, (observe(g, move.seat).me.name, who), who)
            if said is not None:
                self.said = said
                ms.status = move_status(said)
        if visible and self.pace_ms > 0 and self.watch:     # against a human the floor paces the moves
            self.waiting = True
            app.refresh_view()

            def go_on() -> None:
                self.waiting = False
                if app.session is s:
                    app.present()

            self._timer(self.pace_ms / 1000, go_on)
            return
        app.call_later(app.present)

    # ---------------------------------------------------------------- keys

    def undo(self) -> None:
        """Undo back to the human's last decision (the AI's answers after it go too), if nothing was
        revealed since. The AI agrees to every undo: no question, no hand-off."""
        app = self.app
        ms = app.match_screen
        if ms is None:
            return
        if self.watch:
            ms.status = "nothing to undo while two agents play"
            return
        ok, why = self.s.undo_check()
        if not ok:
            ms.status = f"[b]can't undo:[/b] {why.replace('[', chr(92) + '[')}"
            return
        self.gen += 1
        self.thinking = self.waiting = False
        self.s.undo()
        app.seen_upto[self.human] = min(app.seen_upto[self.human], len(self.s.game.events))
        ms.status = f"undone: {why.removeprefix('undo ')} — back to your last decision"
        app.present()

    def toggle_pause(self) -> None:
        if not self.watch:
            return
        self.paused = not self.paused
        self.steps = 0
        self.app.refresh_view()
        if not self.paused:
            self.app.present()
        elif self.app.match_screen is not None:
            self.app.match_screen.status = "[b]paused[/b] — p resumes · . makes one decision"

    def step(self) -> None:
        if not self.watch:
            return
        self.paused = True
        self.steps += 1
        self.app.refresh_view()
        if not (self.thinking or self.waiting):
            self.app.present()

    def control(self, what: str, d: int = 0) -> None:
        """The watch screen's keys: pause, one step, the pace."""
        if what == "pause":
            self.toggle_pause()
        elif what == "step":
            self.step()
        elif what == "pace":
            self.change_pace(d)

    def change_pace(self, d: int) -> None:
        if not self.watch:
            return
        i = min(range(len(PACES_MS)), key=lambda k: abs(PACES_MS[k] - self.pace_ms))
        self.pace_ms = PACES_MS[max(0, min(len(PACES_MS) - 1, i + d))]
        self.app.refresh_view()


def attach(app: VersusHost, session: MatchSession) -> Versus | None:
    """The controller for a session with AI seats (None for two humans)."""
    if isinstance(session, VersusSession) and session.agents:
        v = Versus(app, session, app.versus_pace)
        v.paused = v.watch and app.versus_paused    # watching: start paused
        return v
    return None


def screen_for(session: MatchSession, extra: str) -> MatchScreen:
    """The match screen: with pause/step/pace keys when two agents play."""
    if isinstance(session, VersusSession) and session.agents and not session.humans:
        return WatchScreen(extra)
    return MatchScreen(extra, lesson=session.lesson is not None)


# -------------------------------------------------------------------- without a terminal


__all__ = ["Shown", "Versus", "WatchScreen", "attach", "screen_for"]
