"""Play against an agent (`c1k play --vs ai[:LEVEL]`) or watch two agents play (`c1k play --ai-vs-ai`).

An *opponent spec* names who sits in a seat: `human`, or `ai` (the search agent at its default level),
`ai:1` … `ai:4` (search levels), `ai:greedy`, `ai:random` — or any agent spec of engine/ai.py after
`ai:` (`ai:search:3`, `ai:halving:2`). `agent_spec()` turns one into the agent spec `make_agent` takes.

How a match against an agent runs (rules.md §7a: the agent reads only its own information set):

- `VersusSession` is a `MatchSession` in which an AI seat playing a human follows the public flow
  (`fair_action` and the AI's fixed stops `AI_STOPS`, both in c1k_tui/model/seats.py): it is asked
  exactly where a human in its seat would be asked with hands hidden — at its stops, when the human put
  something on the stack or acted, at each declaration with a unit able to declare, and at every
  question the engine asks (Interrupt, permission, choice: asked on public facts) —
  and elsewhere the flow passes for it at once, without consulting its hand (rules.md §7a: *whether* the
  AI is seen deciding depends only on public facts). Watching two agents, every decision is the agents'.
  Its record names the AI seats, their agent specs and seeds
  (`agents` in the record), so `c1k resume` and `c1k replay` rebuild the same match; the agent's seed is
  derived from the match seed, so the same match seed + the same human commands give the same match.
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
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from c1k_tui.model.pacing import LEVEL_FLOOR_MS, ThinkFloor, think_floor_ms
from c1k_tui.model.seats import AI_STOPS, ai_decided, fair_action, give_ai_stops
from c1k_tui.model.session import MatchSession, auto_action
from c1k_tui.model.versus_choices import OPPONENTS
from c1k_tui.screens.match_screen import MatchScreen
from engine import InfoSet, make_agent, observe, player_name

if TYPE_CHECKING:
    from c1k_tui.model.session import Flow
    from c1k_tui.screens.app import C1KApp
    from engine import Action, Agent, CardDB, Deck, MatchOptions
    from engine import record as rec

#: the agent when `--vs ai` names no level (the search agent at its default level)
DEFAULT_AI = "search"
#: ms between an AI's visible actions (its moves are shown at a readable pace); against a human also the
#: floor of every AI decision shown: no answer, forced or searched, appears sooner after it was asked
DEFAULT_PACE_MS = 700
WATCH_PACE_MS = 900
PACES_MS = (0, 150, 400, 700, 900, 1500, 3000)
#: event index offset of an agent seat's seed (derived from the match seed)
AGENT_SEED_SALT = 0xA1


def level_floor_ms(spec: str) -> int:
    """The floor an agent's level needs (0 for agents that don't search)."""
    agent = make_agent(spec)
    level = getattr(agent, "level", None)
    return LEVEL_FLOOR_MS.get(level, 0) if isinstance(level, int) else 0


class VersusError(ValueError):
    """A bad opponent spec: shown as a message naming the accepted forms."""


def agent_spec(opponent: str, option: str = "--vs") -> str:
    """`human` → "" (a person); `ai` → the default agent; `ai:N` → search level N; `ai:NAME[:N]` → that
    agent. Raises VersusError naming the forms accepted."""
    text = opponent.strip().lower()
    if text in ("human", ""):
        return ""
    head, _, rest = text.partition(":")
    if head != "ai":
        raise VersusError(f"unknown opponent '{opponent}': use human, ai, ai:1 … ai:4, ai:greedy or ai:random")
    spec = DEFAULT_AI if not rest else (f"search:{rest}" if rest[:1].isdigit() else rest)
    try:
        make_agent(spec)
    except ValueError as err:
        raise VersusError(f"{option} {opponent}: {err} (use ai, ai:1 … ai:4, ai:greedy or ai:random)") from err
    return spec


def agent_label(spec: str) -> str:
    """How the screens name an agent: "AI (search:2)"."""
    name = make_agent(spec).name
    return f"AI ({name})"


def agent_seed(match_seed: int, seat: int) -> int:
    """The seed of the agent in `seat`: from the match seed, so the same match replays the same, through a
    one-way function (SHA-256 of the match seed and the seat), so that the agent's seed, which the record
    shows, says nothing of the match seed (the opening shuffle; rules.md §7)."""
    import hashlib

    data = b"c1k-agent-seed\0" + match_seed.to_bytes(8, "big") + bytes([AGENT_SEED_SALT, seat])
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


# -------------------------------------------------------------------- the session


class VersusSession(MatchSession):
    """A match in which agents play some seats (`agents`: seat → (agent spec, agent seed))."""

    def __init__(self, *args: Any, agents: dict[int, tuple[str, int]] | None = None, **kw: Any) -> None:
        self.agents: dict[int, tuple[str, int]] = dict(agents or {})
        super().__init__(*args, **kw)
        self._ai_stops()

    def _ai_stops(self) -> None:
        give_ai_stops(self.flow, self.agents)     # an AI seat's stops are the AI's own (public, fixed)

    def set_flow(self, flow: Flow) -> None:
        self.flow = flow
        self._ai_stops()
        self.run_autos()
        self.save()

    @classmethod
    def new_vs(cls, db: CardDB, decks: list[Deck], seed: int, options: MatchOptions | None,
               specs: dict[int, str], **kw: Any) -> VersusSession:
        """A new match from decks; `specs`: seat → agent spec (the seat's seed comes from the match's)."""
        agents = {p: (spec, agent_seed(seed, p)) for p, spec in specs.items() if spec}
        s = cls.new(db, decks, seed, options, agents=agents, **kw)
        assert isinstance(s, VersusSession)
        return s

    @classmethod
    def resume_vs(cls, record: rec.MatchRecord, db: CardDB, **kw: Any) -> VersusSession:
        """A saved match with AI seats: replayed (every hash checked) with its agents rebuilt."""
        agents = {0 if seat == "p1" else 1: (spec, seed) for seat, (spec, seed) in record.agents.items()}
        s = cls.from_record(record, db, agents=agents, **kw)
        assert isinstance(s, VersusSession)
        return s

    def is_ai(self, p: int) -> bool:
        return p in self.agents

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(p for p in (0, 1) if p not in self.agents)

    def record(self) -> rec.MatchRecord:
        r = super().record()
        r.agents = {player_name(p): a for p, a in sorted(self.agents.items())}
        return r

    def next_auto(self) -> Action | None:
        """The flow options' command (Session.run_autos sends them). Against an AI the human's forced
        passes are sent at once, as with open hands: no other person watches the screen, and the agent
        reads only its own information set, where a pass is a pass either way. The AI seat follows the
        public flow (`fair_action`), whether its hand is shown or not (the same AI either way); watching
        two agents, they decide everything."""
        g = self.game
        if g.is_terminal():
            return None
        if self.is_ai(g.current_player()):
            return fair_action(g, self.flow) if self.humans else None
        return auto_action(g, self.flow, hidden=not self.open_hands and len(self.humans) > 1)

    def undo_span(self) -> int:
        """Back to the human's last decision: the trailing commands of AI seats and of the flow options,
        and the human's own command before them."""
        cmds = self.game.record
        auto = set(self.auto)
        ai = {f"{player_name(p)}: " for p in self.agents}
        i = len(cmds) - 1
        while i >= 0 and (i in auto or cmds[i][:4] in ai):
            i -= 1
        return len(cmds) - i if i >= 0 else 0

    def undo_check(self) -> tuple[bool, str]:
        """As for two humans, and against an AI one more rule (rules.md §7a): an undo may not take back a
        decision the AI made since — its answer came from its hidden cards, so asking it again (after
        another attack) would let the human compare two answers. Only public facts decide (issue #28 item
        7): whether the AI was asked (c1k_tui/model/seats.py `ai_decided`), never whether it had a choice —
        a forced answer blocks the undo too, or the answer would tell whether the AI held a playable card.
        The flow's passes for it (sent on public facts) are undone with the rest."""
        ok, why = super().undo_check()
        if not ok or not self.agents or not self.humans:
            return ok, why
        cmds = self.game.record
        span = self.undo_span()
        if ai_decided(cmds[len(cmds) - span:], len(cmds) - span, set(self.auto), self.agents):
            return False, (f"'{cmds[len(cmds) - span]}' can't be undone: the AI has decided since, from its own "
                           "hidden cards — it can't be asked the same question again (rules.md §7a)")
        return ok, why

    def rematch(self, seed: int) -> VersusSession:
        """Same decks, a new seed, seats swapped — the agents move with their decks."""
        decks = [self.decks[1], self.decks[0]]
        specs = {1 - p: spec for p, (spec, _) in self.agents.items()}
        return VersusSession.new_vs(self.db, decks, seed, self.game.options, specs, flow=self.flow,
                                    save_path=self.save_path, open_hands=self.open_hands)


def resume_or_none(db: CardDB, record: rec.MatchRecord, **kw: Any) -> VersusSession | None:
    """A VersusSession for a record with AI seats, None for a record of two humans."""
    return VersusSession.resume_vs(record, db, **kw) if record.agents else None


# -------------------------------------------------------------------- the app's controller


class WatchScreen(MatchScreen):
    """The match screen while two agents play: pause, step and pace keys."""

    BINDINGS = [Binding("p", "pause", "pause"), Binding("full_stop", "step", "step"),
                Binding("plus", "pace(-1)", "faster"), Binding("minus", "pace(1)", "slower")]

    def _versus(self) -> Versus | None:
        return getattr(self.app, "versus", None)

    def action_pause(self) -> None:
        if (v := self._versus()) is not None:
            v.toggle_pause()

    def action_step(self) -> None:
        if (v := self._versus()) is not None:
            v.step()

    def action_pace(self, d: int) -> None:
        if (v := self._versus()) is not None:
            v.change_pace(d)


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


class Versus:
    """Runs the AI seats of the app's match: thinking in a worker, pacing, recaps, undo."""

    def __init__(self, app: C1KApp, session: VersusSession, pace_ms: int | None = None) -> None:
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

        app = self.app
        if app.match_screen is None:
            return
        g = self.s.game
        p = self.human
        since = app.seen_upto[p]
        who = "the watcher (public events)" if self.watch else app.pname(p)
        app.match_screen.show_recap(recap_text(recap_entries(g, -1 if self.watch else p, since),
                                               f"RECAP for {who}", limit=12))

    # ---------------------------------------------------------------- the agent's turn

    def _timer(self, seconds: float, then: Callable[[], None]) -> object:
        return self.app.set_timer(seconds, then)

    def _think(self, p: int) -> None:
        app = self.app
        ms = app.match_screen
        g = self.s.game
        self.thinking = True
        if ms is not None:
            last = ms.status if ms.status.startswith(f"[b]{self._name(p)}:[/b]") else ""
            ms.status = f"[b]{self._name(p)} is thinking…[/b]" + (f"   (last: {last})" if last else "")
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
            name = observe(g, move.seat).me.name
            texts = [e.text.removeprefix(f"{player_name(move.seat)}: ").removeprefix(f"{name}: ")
                     for w in windows for e in w.entries
                     if e.actor in (move.seat, -1) and e.kind != "note"]
            said = "; ".join(texts)
            said = said if len(said) <= 160 else said[:157] + "…"
            if said:
                ms.status = f"[b]{self._name(move.seat)}:[/b] " + said.replace("[", "\\[")
        if visible and self.pace_ms > 0 and self.watch:     # against a human the floor paces the moves
            self.waiting = True
            app.refresh_view()

            def go_on() -> None:
                self.waiting = False
                if app.session is s:
                    app.present()

            app.set_timer(self.pace_ms / 1000, go_on)
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

    def change_pace(self, d: int) -> None:
        if not self.watch:
            return
        i = min(range(len(PACES_MS)), key=lambda k: abs(PACES_MS[k] - self.pace_ms))
        self.pace_ms = PACES_MS[max(0, min(len(PACES_MS) - 1, i + d))]
        self.app.refresh_view()


def attach(app: C1KApp, session: MatchSession) -> Versus | None:
    """The controller for a session with AI seats (None for two humans)."""
    if isinstance(session, VersusSession) and session.agents:
        v = Versus(app, session, getattr(app, "versus_pace", None))
        v.paused = v.watch and bool(getattr(app, "versus_paused", False))    # watching: start paused
        return v
    return None


def screen_for(session: MatchSession, extra: str) -> MatchScreen:
    """The match screen: with pause/step/pace keys when two agents play."""
    if isinstance(session, VersusSession) and session.agents and not session.humans:
        return WatchScreen(extra)
    return MatchScreen(extra, lesson=session.lesson is not None)


# -------------------------------------------------------------------- without a terminal


def transcript(session: VersusSession, write: Any, max_actions: int = 20_000) -> None:
    """`c1k play --ai-vs-ai` with piped output: both agents play the match to its end; each command
    and the outcome are printed (both hands were open to the watcher: nothing is hidden here)."""
    g = session.game
    agents = {p: make_agent(spec, seed) for p, (spec, seed) in session.agents.items()}
    n = 0
    while not g.is_terminal() and n < max_actions:
        p = g.current_player()
        a = agents[p].act(InfoSet(g, p))
        turn, window = observe(g, p).turn, g.window
        session.send(a, p)
        if str(a) != "pass":
            write(f"T{turn} {window:<26} {player_name(p)}: {a}")
        n += 1
    v = observe(g, 0)
    if g.outcome is None:
        write(f"stopped after {n} decisions (turn {v.turn})")
        return
    who = "a draw" if v.winner is None else f"{player_name(v.winner)} ({agent_label(session.agents[v.winner][0])}) wins"
    write(f"{who} — {(v.termination or '').replace('_', ' ')} · turn {v.turn} · {len(g.record)} commands · "
          f"seed {v.seed}")


__all__ = ["AI_STOPS", "OPPONENTS", "Shown", "Versus", "VersusError", "VersusSession", "WatchScreen", "agent_label",
           "agent_seed", "agent_spec", "attach", "fair_action", "resume_or_none", "screen_for", "transcript"]
