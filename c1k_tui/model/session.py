"""A match as the app runs it: the engine `Game`, its decks, the flow options, autosave and undo.

Everything here changes the match only through the engine's command API (`Game.apply` /
`Game.apply_command`); a new state is only ever made by replaying a record's commands. The flow options
(auto-pass, stops, full control) never skip a window: they *send* an explicit `pass` (or the one forced
`attack none` / `block none`) for a player, and each such command is recorded as a command like any
other, its index listed in the record's options (`"auto"`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from c1k_tui.model.paths import (  # noqa: F401  (re-exported)
    AUTOSAVE_NAME,
    DEFAULT_STOPS,
    FLOW_TEXT,
    FLOWS,
    default_autosave,
    state_dir,
)
from c1k_tui.model.respond import could_respond
from c1k_tui.model.savelock import hold
from c1k_tui.model.yields import Yield, may_choose, until_of
from c1k_tui.model.yields import holds as yield_holds
from c1k_tui.model.yields import over as until_over
from engine import (
    WINDOW_INDEX,
    Action,
    Attack,
    Block,
    CardDB,
    Deck,
    Decline,
    Game,
    IllegalAction,
    MalformedCommand,
    MatchOptions,
    Pass,
    PlayerView,
    RulesLoopError,
    observe,
    player_name,
)
from engine import record as rec
from engine.scenario import Scenario, build

AUTO_LOOP_CAP = 100_000


@dataclass
class Flow:
    """The flow options of a match (recorded in the match record's options under "flow")."""

    mode: str = "stops"                      # stops | auto | full
    stops: dict[str, list[str]] = field(default_factory=lambda: {"p1": list(DEFAULT_STOPS),
                                                                 "p2": list(DEFAULT_STOPS)})
    #: each player's "pass until…" (model/yields.py), by seat: their own choice, public
    until: dict[str, Yield] = field(default_factory=dict)
    #: the seats that chose full control for themselves (asked at every decision of theirs); the other
    #: player's flow is unchanged (tui.md round 3: the flow is per player)
    full: list[str] = field(default_factory=list)

    def mode_for(self, seat: str) -> str:
        """The flow mode a player is under: their own full control, or the shared mode."""
        return "full" if seat in self.full else self.mode

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"mode": self.mode, "auto_pass": self.mode != "full", "full_control": self.mode == "full",
                             "stops": {k: sorted(v) for k, v in self.stops.items()}}
        if self.until:
            d["until"] = {k: y.to_dict() for k, y in sorted(self.until.items())}
        if self.full:
            d["full"] = sorted(self.full)
        return d

    @staticmethod
    def from_dict(d: dict[str, Any] | None) -> Flow:
        from c1k_tui.model.settings import check_flow

        if not d or check_flow(d):            # a wrong shape: the defaults (resume_session says so)
            return Flow()
        mode = str(d.get("mode", "stops"))
        stops = d.get("stops") or {}
        until = {seat: y for seat, raw in (d.get("until") or {}).items()
                 if (y := Yield.from_dict(raw)) is not None}
        return Flow(mode if mode in FLOWS else "stops",
                    {p: list(stops.get(p, DEFAULT_STOPS)) for p in ("p1", "p2")}, until,
                    sorted(set(d.get("full") or ())))

    def stop_key(self, g: Game, p: int, v: PlayerView | None = None) -> str:
        """"own:" or "opp:" (whose turn it is, for p) and the window id: how stops are named. `v`: a
        view of g already at hand (any player's: the turn's facts are public)."""
        v = v or observe(g, p)
        return ("own:" if p == v.active else "opp:") + v.window

    def stops_here(self, g: Game, p: int, v: PlayerView | None = None) -> bool:
        return self.stop_key(g, p, v) in self.stops[player_name(p)]

    def stop_windows(self, g: Game, p: int) -> tuple[int, ...]:
        """The windows (indices) where player p stops this turn."""
        if p not in (0, 1):
            return ()
        own = "own:" if p == observe(g, p).active else "opp:"
        return tuple(sorted(WINDOW_INDEX[k[4:]] for k in self.stops[player_name(p)]
                            if k.startswith(own) and k[4:] in WINDOW_INDEX))


def flow_change(holder: int | None, before: Flow, after: Flow) -> tuple[Flow, Flow | None]:
    """A change of the flow options made by `holder` (the player at the keyboard; None: open hands, one
    table, the change applies whole), split in what applies at once — their own stops, their own full
    control — and a shared change that needs the other player's consent (None if there is none): the
    shared mode (stops, learning, auto) is both players', as undo is."""
    if holder is None:
        return after, None
    seat = player_name(holder)
    stops = {p: list(after.stops[p] if p == seat else before.stops[p]) for p in ("p1", "p2")}
    wants_full = after.mode == "full"
    full = sorted({*before.full, seat} if wants_full else set(before.full) - {seat})
    own = Flow(before.mode, stops, dict(before.until), full)
    if wants_full or after.mode == before.mode:
        return own, None
    return own, Flow(after.mode, stops, dict(before.until), full)


def forced_action(g: Game) -> Action | None:
    """The one legal action of the deciding player when it is a pass / `attack none` / `block none`."""
    d = g.decision
    if g.is_terminal():
        return None
    if d.kind == "attackers":
        return Attack(()) if not d.eligible else None
    if d.kind == "blockers":
        return Block(()) if not d.eligible else None
    if d.kind == "priority":
        acts = g.legal_actions()
        return acts[0] if len(acts) == 1 and isinstance(acts[0], Pass) else None
    return None


def acted_here(g: Game, who: int, passes: bool = False, unanswered: bool = False) -> bool:
    """Public: whether player `who` took an action in the current window of this turn — any command
    with `passes`, otherwise one other than a pass (a play, an activation, a Set, attackers declared).
    With `unanswered`: only an action taken after the other player's last command in this window (one
    they have not had a chance to answer yet). Read from the public typed events (a declined Interrupt
    is private: it never counts)."""
    ev = g.events
    for i in range(len(ev) - 1, -1, -1):
        e = ev[i]
        if e.kind == "window":
            return False
        if e.command < 0 or e.private_to >= 0:
            continue
        if e.actor != who:
            if unanswered:
                return False
            continue
        if passes or e.kind in ("play", "activate", "set", "interrupt") or (e.kind == "attack" and e.cards):
            return True
    return False


def auto_action(g: Game, flow: Flow, hidden: bool = False, lists: PublicLists | None = None) -> Action | None:
    """The command the flow options send for the deciding player now, or None (ask the player).

    With hands hidden (`hidden`), whether a player is asked depends only on public facts — the player's
    stops, the stack, what the opponent just did — never on what their hand holds (rules.md §7a): a
    player at a stop is asked even when pass is all they can do, and "auto-pass" (which looks at the
    hand) works as "stops". With open hands, a pass that is the only legal action is sent at once.

    With hands hidden and the public deck lists known (`lists`), a player is only asked where they
    decide: their own Main Phase with an empty stack is always a stop (it can't be lost while hands are
    hidden), and elsewhere a stop, a waiting stack item or an unanswered action of the opponent asks them
    only if they could respond on public facts (`respond.could_respond`: the deck list minus the cards
    seen, their Influence, what they control) — as the engine asks an Interrupt question."""
    if g.is_terminal():
        return None
    d = g.decision
    if flow.until and d.kind in ("priority", "interrupt"):
        p = g.current_player()
        if yield_holds(g, p, flow.until.get(player_name(p))):
            if d.kind == "priority":
                return Pass()
            acts = g.legal_actions()       # an Interrupt question: "pass until…" declines it
            return next((a for a in acts if isinstance(a, Decline)), None)
    cp = g.current_player()
    if flow.mode == "full" or (cp in (0, 1) and player_name(cp) in flow.full):
        return None          # full control: the shared mode, or this player's own choice
    if d.kind in ("attackers", "blockers"):
        return forced_action(g)          # who may attack or block is public (the board)
    if d.kind in ("interrupt", "choice"):
        return _empty_decline(g, flow, hidden, lists)
    if d.kind != "priority":
        return None
    p = g.current_player()
    v = observe(g, p)          # the turn, the window and the stack: public facts, read from the view
    if v.turn == 1 and v.window == "main.priority" and p == v.active and not v.stack \
            and not acted_here(g, p, passes=True):
        return None                      # the first screen of a match: p1 sees their opening hand, turn 1
    if not hidden:
        forced = forced_action(g)
        if forced is not None:
            return forced
        if flow.mode == "auto":
            return None
    if hidden and p == v.active and v.window == "main.priority" and not v.stack:
        return None          # your own Main Phase: always a stop with hands hidden (rules.md §7a)
    asked = (bool(v.stack) and v.stack[0].controller_seat != p     # something of the opponent's waits
             or flow.stops_here(g, p, v) or acted_here(g, 1 - p, unanswered=True))
    if not asked:
        return Pass()
    if hidden and lists is not None and not could_respond(g, p, lists.names[p], lists.db):
        return Pass()        # nothing they could do, on public facts: no hand-off for a pass
    return None


def _empty_decline(g: Game, flow: Flow, hidden: bool, lists: PublicLists | None = None) -> Action | None:
    """`decline` for a player whose only answer is decline — an Interrupt question or a permission to
    play from the hand that the engine asks on public facts (rules.md §7a) while the hand holds nothing
    usable. With hands hidden only when it can't show: the same player is asked next anyway (so the
    hand-off to them happens either way and the other player sees the same flow)."""
    acts = g.legal_actions()
    if len(acts) != 1 or not isinstance(acts[0], Decline):
        return None
    if not hidden:
        return acts[0]
    p = g.current_player()
    nxt = g.clone()
    try:
        nxt.apply(acts[0], p)
    except (IllegalAction, RulesLoopError):
        return None
    if nxt.is_terminal() or nxt.current_player() != p or auto_action(nxt, flow, hidden, lists) is not None:
        return None
    return acts[0]


@dataclass(frozen=True)
class PublicLists:
    """The public deck lists of a match (card names, seat by seat) and the card database: what
    `could_respond` reads besides the public view."""

    names: tuple[tuple[str, ...], tuple[str, ...]]
    db: CardDB

    @staticmethod
    def of(decks: list[Deck], db: CardDB) -> PublicLists | None:
        if len(decks) != 2:
            return None          # a scenario: no public deck list, every stop asks
        a, b = (tuple(c.name for c in d.library) for d in decks)
        return PublicLists((a, b), db)


@dataclass
class Outcome:
    ok: bool
    message: str = ""
    rule: str = ""
    reason: str = ""
    malformed: bool = False
    changed: bool = False          # the state changed (an accepted command, or C1K 10 moved priority)


#: why going from one state to another revealed hidden information (None if it did not): the engine's
#: own check (engine/record.py), so the app needn't read the Game's zones or generator
reveal_reason = rec.reveal_reason


class MatchSession:
    """One match in the app: the Game, its decks (or scenario), flow options, record file, undo."""

    def __init__(self, game: Game, db: CardDB, decks: list[Deck], flow: Flow | None = None,
                 save_path: Path | None = None, scenario: dict[str, Any] | None = None,
                 open_hands: bool = False, auto: list[int] | None = None, lesson: dict[str, Any] | None = None,
                 recorder: rec.Recorder | None = None, start: rec.Start | None = None) -> None:
        self.game = game
        self.db = db
        self.decks = decks
        self.flow = flow or Flow()
        self.save_path = save_path
        self.scenario = scenario            # {"path": ..., "data": ...} for a match started from a scenario
        self.open_hands = open_hands
        self.auto: list[int] = list(auto or [])   # record indices of the commands the flow options sent
        self.lists = PublicLists.of(decks, db)   # public deck lists: who could respond (hands hidden)
        self.lesson = lesson
        #: in a lesson, the match before each accepted command: undo goes back to it exactly, with the
        #: practice-mode refusals the lesson's goal may count (they are events, not in the record)
        self.lesson_history: list[Game] = []
        #: each seat's last "pass until…" as chosen (kept when it is over: the table announces it even when
        #: it ended before the other player's next hand-off)
        self.chosen_until: dict[str, Yield] = {}
        self.save_error = ""
        self.notice = ""           # shown once when the match starts (e.g. a record's broken app settings)
        if recorder is None:
            if start is None and scenario is not None:
                start = rec.Start.of_scenario(str(scenario.get("path", "<scenario>")), scenario["data"])
            if start is None:
                raise ValueError("a match session needs how its match began (start) or its recorder")
            recorder = rec.Recorder(start, game)
        self.recorder = recorder

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(cls, db: CardDB, decks: list[Deck], seed: int, options: MatchOptions | None = None,
            **kw: Any) -> MatchSession:
        game = Game.new(db, decks[0], decks[1], seed, options)
        return cls(game, db, decks, start=rec.Start.of_decks(decks, seed, options), **kw)

    @classmethod
    def from_scenario(cls, scn: Scenario, db: CardDB, path: str, **kw: Any) -> MatchSession:
        game = build(scn)
        return cls(game, db, [], scenario={"path": path, "data": scn.data}, **kw)

    @classmethod
    def from_record(cls, record: rec.MatchRecord, db: CardDB, upto: int | None = None,
                    **kw: Any) -> MatchSession:
        """Resume a record: it is replayed with every hash checked (RecordError at the first that differs)."""
        game, decks, recorder = rec.resume(record, db, upto)
        app = record.app
        kw.setdefault("flow", Flow.from_dict(app.get("flow") if isinstance(app.get("flow"), dict) else None))
        kw.setdefault("open_hands", app.get("open_hands") is True)
        lesson = app.get("lesson")
        auto = [i for i, e in enumerate(recorder.entries) if e.auto]
        return cls(game, db, decks, scenario=record.start.scenario, auto=auto,
                   lesson=lesson if isinstance(lesson, dict) else None, recorder=recorder, **kw)

    # ---------------------------------------------------------------- records

    def record(self) -> rec.MatchRecord:
        app: dict[str, Any] = {"flow": self.flow.to_dict(), "open_hands": self.open_hands}
        if self.lesson is not None:
            app["lesson"] = self.lesson
        return self.recorder.record(self.game, set(self.auto), app)

    def save(self, path: Path | None = None) -> None:
        target = path or self.save_path
        if target is None:
            return
        try:
            hold(target)        # one process at a time writes a match's file (savelock.py)
            rec.save(self.record(), target)
            self.save_error = ""
        except OSError as err:       # a full disk must not end the match: say so and carry on
            why = err.strerror or str(err)
            if err.filename and Path(str(err.filename)) in Path(target).parents and str(err.filename) not in why:
                why += f" ({err.filename})"      # e.g. a folder on the way that is a file
            self.save_error = f"autosave to {target} failed: {why}"

    # ---------------------------------------------------------------- commands

    def send(self, command: Action | str, player: int | None = None, until: Yield | None = None) -> Outcome:
        """Send one command of the deciding player (or `player`) to the engine, then let the flow options
        send what they must, then autosave. Returns what happened. `until` (with a pass: `pass_until`)
        sets its player's "pass until…"; acting again ends it (`note_until`)."""
        g = self.game
        if isinstance(command, str) and until is None and (kind := until_of(command)) is not None:
            return self.pass_until(kind, player)
        before = len(g.record)
        if self.lesson is not None and isinstance(command, str):
            from engine.lessons import answer_now, answer_of

            said = answer_of(command)
            if said is not None:         # a lesson's question answered: not a command to the engine
                answers = self.lesson.setdefault("answers", [])
                answers.append(list(answer_now(g, said).row()))
                self.save()
                return Outcome(True)
            self.lesson_history.append(g.clone())
        try:
            if isinstance(command, str):
                g.apply_command(command)
            else:
                g.apply(command, player)
            out = Outcome(True, changed=True)
        except MalformedCommand as err:
            if self.lesson is not None and isinstance(command, str) and self.lesson_history:
                self.lesson_history.pop()
            return Outcome(False, str(err), malformed=True)
        except IllegalAction as err:
            out = Outcome(False, f"{err.reason} ({err.rule})", err.rule, err.reason,
                          changed=len(g.record) > before)
        except RulesLoopError as err:      # the cards cause each other without end: nothing changed
            if self.lesson is not None and isinstance(command, str) and self.lesson_history:
                self.lesson_history.pop()
            return Outcome(False, f"{err} — nothing changed; a player may concede", "RULES 1", str(err))
        if not out.changed and self.lesson is not None and isinstance(command, str) and self.lesson_history:
            self.lesson_history.pop()       # nothing to undo: the command changed nothing
        if out.ok:
            self.note_until(g.record[before] if len(g.record) > before else "", until)
        if out.changed:
            try:
                self.run_autos()
            except RulesLoopError as err:
                out = Outcome(False, f"{err} — nothing more was sent; a player may concede", "RULES 1", str(err),
                              changed=True)
            self.save()
        return out

    def note_until(self, line: str, until: Yield | None) -> None:
        """After an accepted command (`line`, "p2: play …"): `until` is its player's new "pass until…";
        otherwise a play, an activation, a Set or an Interrupt of theirs ends theirs (they act again), while
        a declaration or an answer to a question they could not pass leaves it."""
        seat, _, rest = line.partition(": ")
        if seat not in ("p1", "p2"):
            return
        if until is not None:
            self.flow.until[seat] = until
            self.chosen_until[seat] = until
        elif rest.split(" ", 1)[0] in ("play", "activate", "set", "interrupt"):
            self.flow.until.pop(seat, None)

    def pass_until(self, kind: str, player: int | None = None) -> Outcome:
        """The deciding player passes now and keeps passing until `kind` (model/yields.py): their own
        choice, at a priority decision of theirs. Refused (nothing sent) anywhere else."""
        g = self.game
        p = g.current_player() if player is None else player
        if g.is_terminal() or p not in (0, 1) or p != g.current_player() or g.decision.kind != "priority":
            return Outcome(False, "pass until… is chosen where you may pass (your priority)", "C1K 10",
                           "pass until… is chosen where you may pass (your priority)")
        v = observe(g, p)
        why = may_choose(kind, v.window)
        if why:
            return Outcome(False, why, "C1K 10", why)
        return self.send(Pass(), p, until=Yield(kind, v.turn, len(g.events)))

    def run_autos(self) -> int:
        """Send the flow options' explicit commands until a player must decide. Returns how many."""
        n = 0
        g = self.game
        while n < AUTO_LOOP_CAP:
            a = self.next_auto()
            if a is None:
                break
            self.auto.append(len(g.record))
            g.apply(a, g.current_player())
            n += 1
        self.prune_until()
        return n

    def prune_until(self) -> None:
        """Drop the yields that are over: the turn or combat they were for has ended, their player's own
        turn has come, or (until something happens) it happened."""
        g = self.game
        for seat, y in sorted(self.flow.until.items()):
            if g.is_terminal() or until_over(g, 0 if seat == "p1" else 1, y):
                del self.flow.until[seat]

    def next_auto(self) -> Action | None:
        """The command the flow options send now for the player to decide, or None: they must decide."""
        return auto_action(self.game, self.flow, hidden=not self.open_hands, lists=self.lists)

    def set_flow(self, flow: Flow) -> None:
        self.flow = flow
        self.run_autos()
        self.save()

    # ---------------------------------------------------------------- undo

    def undo_span(self) -> int:
        """How many trailing commands an undo removes: the last command a player chose, and the
        flow options' commands that followed it."""
        cmds = self.game.record
        i = len(cmds) - 1
        auto = set(self.auto)
        while i >= 0 and i in auto:
            i -= 1
        return len(cmds) - i if i >= 0 else 0

    def lesson_answers(self) -> list[tuple[int, int, int, str]]:
        """A lesson's answers to its questions so far: (events at the time, turn, window index, answer)."""
        raw = self.lesson.get("answers", []) if self.lesson is not None else []
        out = []
        for a in raw if isinstance(raw, list) else []:
            if isinstance(a, list) and len(a) == 4 and all(isinstance(x, int) for x in a[:3]):
                out.append((a[0], a[1], a[2], str(a[3])))
        return out

    def lesson_answer_open(self) -> bool:
        """Whether the learner's last act in a lesson was an answer (given after their last command)."""
        answers = self.lesson_answers()
        return bool(answers) and answers[-1][0] >= len(self.game.events)

    def _lesson_taken_back(self, game: Game, kept: list[tuple[int, int, int, str]]) -> None:
        """Note in the lesson a wrong answer that going back to `self.game` with `kept` takes back (the
        debrief lists them; the course list shows the lessons completed without one)."""
        assert self.lesson is not None
        from c1k_tui.model import lessons as course

        les = course.lesson_for(self.lesson, self.db)
        if les is None:
            return
        wrong = course.wrong_taken_back(les, int(self.lesson.get("since", 0)), game, self.lesson_answers(),
                                        self.game, kept)
        if wrong is not None:
            self.lesson.setdefault("taken_back", []).append(list(wrong))

    def undo_check(self, asker: int | None = None) -> tuple[bool, str]:
        """(allowed, explanation). Undo replays the record without its last chosen command; it is allowed
        only if that command (and what the app sent after it) revealed no hidden information, and — when a
        player asks (`asker`) — only if it is their own: nobody undoes the other player's action. In a
        lesson (open hands, one learner) it goes back to the position before the learner's last command."""
        if self.lesson is not None and self.lesson_answer_open():
            return True, f"take back the answer '{self.lesson_answers()[-1][3]}'"
        if self.lesson is not None and self.lesson_history:
            last = self.game.record[len(self.lesson_history[-1].record)] \
                if len(self.game.record) > len(self.lesson_history[-1].record) else "the last command"
            return True, f"undo '{last}'"
        span = self.undo_span()
        if span == 0:
            return False, "there is no command of a player to undo"
        if self.game.is_terminal():
            return False, "the match is over"
        n = len(self.game.record)
        last = self.game.record[n - span]
        if asker in (0, 1) and not last.startswith(f"{player_name(asker)}: "):
            other = observe(self.game, 1 - asker).me.name
            return False, (f"nothing of yours can be undone: the last action was {other}'s — undo takes back "
                           "only your own last action")
        prev = self.replay_upto(n - span)
        g = prev
        cmds = self.game.record[n - span:]
        for text in cmds:
            nxt = g.clone()
            rec.play_line(nxt, text)
            why = reveal_reason(g, nxt)
            if why is not None:
                return False, f"'{cmds[0]}' can't be undone: {why}"
            g = nxt
        return True, f"undo '{cmds[0]}'" + (f" (and {span - 1} automatic pass(es))" if span > 1 else "")

    def undo(self) -> bool:
        ok, _ = self.undo_check()
        if not ok:
            return False
        if self.lesson is not None and self.lesson_answer_open():   # the learner's last act was an answer
            answers = self.lesson_answers()
            self._lesson_taken_back(self.game, answers[:-1])
            self.lesson["answers"] = [list(a) for a in answers[:-1]]
            self.save()
            return True
        if self.lesson is not None and self.lesson_history:
            before = self.game
            self.game = self.lesson_history.pop()
            n = len(self.game.record)
            self.auto = [i for i in self.auto if i < n]
            self.undo_until()
            if "answers" in self.lesson:    # an answer given after that position is undone with it
                kept = [a for a in self.lesson_answers() if a[0] <= len(self.game.events)]
                self._lesson_taken_back(before, kept)
                self.lesson["answers"] = [list(a) for a in kept]
            self.save()
            return True
        n = len(self.game.record) - self.undo_span()
        self.game = self.replay_upto(n)
        self.auto = [i for i in self.auto if i < n]
        self.undo_until()
        self.save()
        return True

    def undo_until(self) -> None:
        """After an undo: a "pass until…" set at or after the position gone back to goes with the pass it
        came with (the player decides again, from there)."""
        n = len(self.game.events)
        for seat, y in sorted(self.flow.until.items()):
            if y.since >= n:
                del self.flow.until[seat]

    def replay_upto(self, n: int) -> Game:
        game, _, _ = rec.resume(self.record(), self.db, n)
        return game


def game_from_record(record: rec.MatchRecord, db: CardDB, upto: int | None = None) -> tuple[Game, list[Deck]]:
    """Replay a record (a match from decks, or one that started from a scenario) to its end or `upto`,
    checking every hash (RecordError at the first command that differs)."""
    game, decks, _ = rec.resume(record, db, upto)
    return game, decks
