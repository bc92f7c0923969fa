"""The hot-seat flow (issue 27): what the players are shown next, as values — no Textual.

`MatchFlow` holds one App's match: the session, the hot-seat `Table` (who has the keyboard, hand-offs),
each seat's options, the lesson's state and the questions open. The App asks it and renders the answer:

- `next()` after each value is taken: `ShowGameOver`, `ShowBanner` ("Turn N — your turn"), `ShowHandOff`
  (the table hidden, the public recap), or `ShowTable` (the decider's own table, maybe with an
  `OpenPrompt`: the engine's Interrupt or choice question);
- `send(command)` a command from the keyboard: a `Sent` saying what the App does next (pace the passed
  windows then `next()`, repaint the same table, confirm a concession…) and the status line;
- `undo()` and `options_chosen()`: a `Status`, or an `AskConsent` (the other player takes the keyboard —
  a hand-off first — and agrees or not), answered through `consent(yes)`;
- `lesson_check()`, `answer_lesson()`: the lesson panel and the learner's answers.

The engine is imported when first needed (the App's first frame never waits for it). A test drives a whole
match through this class (tests/tui/test_flow_model.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from c1k_tui.model.paths import FLOW_SHORT, PlayerPrefs, load_prefs, save_prefs
from c1k_tui.model.styled import Piece, Styled

if TYPE_CHECKING:
    from c1k_tui.model.builders import StartChoice
    from c1k_tui.model.lessons import LessonStatus
    from c1k_tui.model.pacing import Pacing
    from c1k_tui.model.session import Flow, MatchSession
    from c1k_tui.model.summary import MatchSummary
    from c1k_tui.model.table import HandOff, Table, YourTurn
    from c1k_tui.model.view import HandCard, MatchView
    from engine import Action, CardDB, Game

# -------------------------------------------------------------------- what the flow returns


@dataclass(frozen=True)
class ShowGameOver:
    """The match is over: the summary, where the record is, and whether it was a lesson."""

    summary: MatchSummary
    hint: str
    lesson: bool


@dataclass(frozen=True)
class ShowBanner:
    """The keyboard holder keeps it into their own new turn: "Turn N — your turn" first."""

    turn: YourTurn


@dataclass(frozen=True)
class ShowHandOff:
    """Hide the table; `handoff.player` takes the keyboard. `public`: the recap both may read."""

    handoff: HandOff
    public: Styled


@dataclass(frozen=True)
class OpenPrompt:
    """The engine's question to the player at the keyboard. `max_choices` > 1: several options marked
    (in order), else one row picked; each row is (label, the command it sends)."""

    title: str
    help: str
    rows: tuple[tuple[str, str], ...]
    rule: str
    max_choices: int = 1
    options: tuple[str, ...] = ()
    can_decline: bool = False


@dataclass(frozen=True)
class ShowTable:
    """The deciding player's table; the Recap tab brought forward if `switch`; then `prompt`, if any."""

    viewer: int
    switch: bool
    prompt: OpenPrompt | None


Next = ShowGameOver | ShowBanner | ShowHandOff | ShowTable | None


@dataclass(frozen=True)
class Sent:
    """What became of a command. `then`: "next" (pace the windows passed since event `since`, then
    `next()`), "present" (`next()` at once), "table" (refused: the same player's table again), "mistyped"
    (the line says so), "stay" (not sent: the line says why), "answer" (a lesson's question answered),
    "concede" (confirm first)."""

    then: str
    status: str | None = None
    since: int = 0
    refusal_rule: str = ""
    sent: bool = False          # the engine saw it (the keys wait for the next paint)


@dataclass(frozen=True)
class Status:
    """A line for the status bar, then `next()` if `present`."""

    text: str
    present: bool = False


@dataclass(frozen=True)
class AskConsent:
    """One player asks, the other agrees or not: `handoff` first if the keyboard changes hands."""

    handoff: ShowHandOff | None
    title: str
    body: str
    yes: str
    no: str
    refresh: bool = True        # the answering player's own view behind the question


@dataclass(frozen=True)
class LessonCheck:
    """The lesson panel: its goal text, the status (`LessonStatus`), a status line, and whether the lesson
    was completed just now (`title`: the lesson's)."""

    goal: str
    st: LessonStatus
    line: str = ""
    completed: bool = False
    title: str = ""


def escape(text: str) -> str:
    """Text shown through console markup: a `[` is literal."""
    return text.replace("[", r"\[")


MISTYPED = "  (a typing mistake changes nothing; ? for help)"


@dataclass
class MatchFlow:
    """One App's hot-seat flow (see the module's docstring)."""

    session: MatchSession | None = None
    db: CardDB | None = None
    fixed_view: bool = False
    table: Table | None = None
    prefs: list[PlayerPrefs] = field(default_factory=lambda: [PlayerPrefs(), PlayerPrefs()])
    lessons_done: set[str] = field(default_factory=set)
    notices: list[tuple[str, str, str]] = field(default_factory=list)   # (message, title, severity)
    gameover_shown: bool = False
    lesson_complete: bool = False
    lesson_refusal: tuple[str, str] | None = None   # a lesson's last refused command: its hint
    prompt_open: bool = False
    passed_windows: bool = False      # the last command's flow went through a window (learning: show it)
    save_error_shown: str = ""
    parsed: tuple[int, Action] | None = None        # the command `precheck` accepted
    pending: Any = None               # the consent asked: ("undo",) or ("flow", holder, Flow)
    _viewer: int = -2

    # ---------------------------------------------------------------- a match

    def start(self, session: MatchSession) -> None:
        """A new match (new, resume, lesson, rematch): its table, its players' saved options."""
        from c1k_tui.model.table import Table

        self.session = session
        self.table = Table(session)
        self.gameover_shown = self.lesson_complete = self.prompt_open = False
        self.pending = None
        if session.lesson is not None:
            self.fixed_view = True
        self.save_error_shown = ""
        if session.notice:
            self.notice(session.notice, "Record settings")
        self.load_player_prefs()
        session.run_autos()
        session.save()

    @property
    def game(self) -> Game:
        assert self.session is not None
        return self.session.game

    @property
    def viewer(self) -> int:
        """The player at the keyboard (the table's; -2 before a match)."""
        return self.table.viewer if self.table is not None else self._viewer

    @viewer.setter
    def viewer(self, p: int) -> None:
        if self.table is not None:
            self.table.viewer = p
        self._viewer = p

    @property
    def seat(self) -> int:
        return self.viewer if self.viewer in (0, 1) else 0

    @property
    def learning(self) -> bool:
        return self.session is not None and self.session.flow.mode == "learning"

    def pname(self, p: int) -> str:
        """A player's name (public), read through observe."""
        from engine import observe

        return observe(self.game, p).me.name if p in (0, 1) else "nobody"

    def card_db(self) -> CardDB:
        if self.db is None:
            from c1k_tui.model.cardset import card_db

            self.db = card_db()           # the bundled set and this run's own cards (--cards)
        return self.db

    def start_db(self, choice: StartChoice) -> CardDB:
        """The card set of a match from the start screen: the run's set, or — with own cards or a deck that
        names card files — the bundled set, those cards and the decks' own. Raises CardFileError."""
        from c1k_tui.model import cardset
        from engine.cardset import load_cards

        cards = [Path(p).expanduser() for p in choice.cards]
        named = [f for d in (choice.deck_a, choice.deck_b) for f in cardset.named_card_files(d)]
        if not cards and not named:
            return self.card_db()
        return load_cards(cards, cardset.deck_paths([choice.deck_a, choice.deck_b]))

    # ---------------------------------------------------------------- each player's options

    def notice(self, message: str, title: str = "", severity: str = "warning") -> None:
        """A non-blocking notice for the next match screen (not the hand-off's: it waits for the player
        who takes the keyboard)."""
        self.notices.append((message, title, severity))

    def take_notices(self) -> tuple[list[tuple[str, str, str]], bool]:
        """The notices to show now, and whether the autosave's state changed (the title bar says so)."""
        s = self.session
        changed = False
        if s is not None and s.save_error != self.save_error_shown:
            if s.save_error:
                self.notices.append((f"{s.save_error}. The match goes on; the record is not saved until this "
                                     "is fixed (the game-over screen can save it elsewhere).", "Autosave failed",
                                     "error"))
            elif self.save_error_shown:
                self.notices.append((f"autosave to {s.save_path} works again", "Autosave", "information"))
            self.save_error_shown = s.save_error
            changed = True
        pending, self.notices = self.notices, []
        return pending, changed

    def load_player_prefs(self) -> None:
        """Each seat's saved options, by player name (a file that can't be read: a notice, defaults)."""
        err = ""
        for p in (0, 1):
            got, err1 = load_prefs(self.pname(p))
            if got is not None:            # a player with nothing saved keeps the seat's current options
                self.prefs[p] = got
            err = err or err1
        if err:
            self.notice(err, "Player options")

    def save_player_prefs(self) -> str:
        s = self.session
        assert s is not None
        return save_prefs({self.pname(p): PlayerPrefs(list(s.flow.stops[f"p{p + 1}"]), self.prefs[p].pace_ms,
                                                      self.prefs[p].quick_play) for p in (0, 1)})

    @property
    def quick_play(self) -> bool:
        """The player at the keyboard's own quick-play option (setting it sets both seats')."""
        return self.prefs[self.seat].quick_play

    @quick_play.setter
    def quick_play(self, on: bool) -> None:
        for p in self.prefs:
            p.quick_play = on

    @property
    def pace_ms(self) -> int:
        """The player at the keyboard's own pace (setting it sets both seats')."""
        return self.prefs[self.seat].pace_ms

    @pace_ms.setter
    def pace_ms(self, ms: int) -> None:
        for p in self.prefs:
            p.pace_ms = ms

    def pace_plan(self, since: int) -> Pacing:
        """The windows the last command passed through, stepped at the keyboard holder's pace (the learning
        flow steps by even when theirs is off)."""
        from c1k_tui.model.pacing import pace_of, pacing

        plan = pacing(self.game.events.since(since),
                      pace_of((self.prefs[0].pace_ms, self.prefs[1].pace_ms), self.viewer, self.learning))
        self.passed_windows = plan.passed
        return plan

    # ---------------------------------------------------------------- what the players see

    def title_extra(self, versus: str = "") -> str:
        s = self.session
        if s is None:
            return ""
        bits = [f"flow: {s.flow.mode}"] + ([versus] if versus else [])
        if s.open_hands:
            bits.append("open hands")
        if s.save_error:
            bits.append("⚠ NOT AUTOSAVED")
        if s.game.options.practice:
            bits.append("practice")
        if s.lesson is not None:
            bits.append(f"lesson: {s.lesson.get('title', '')}")
        elif s.scenario is not None:
            bits.append(f"scenario: {Path(str(s.scenario.get('path', ''))).name}")
        return " · ".join(bits)

    def view_for(self, viewer: int) -> Any:
        """The `MatchView` of `viewer`'s table (a lesson at an open table: player 1 at the bottom)."""
        from c1k_tui.model.view import match_view

        s = self.session
        assert s is not None
        g = s.game
        bottom = 0 if (self.fixed_view and s.open_hands) else viewer
        return match_view(g, viewer, s.open_hands, stops=s.flow.stop_windows(g, g.current_player())
                          if s.flow.mode in ("stops", "learning") else (), bottom=bottom, auto=frozenset(s.auto))

    def recap_for(self, player: int, since: int, title: str = "", upto: int | None = None,
                  compact: bool | None = None, narrow: bool = False) -> Styled:
        """What happened from event `since` on, as `player` (-1: public only) may know it: the recap, or in
        the learning flow (and in a lesson) every window entered. With open hands both players' private
        events are in it, and its title says so. Compact unless told: in the learning flow, or `narrow`
        (the side panel: 40 columns wide, or a few rows at 80×24)."""
        from c1k_tui.model.recap import recap_for

        s = self.session
        assert s is not None
        open_hands = s.open_hands and player >= 0
        learning = self.learning or s.lesson is not None
        if not title:
            title = f"{'WINDOWS ENTERED' if learning else 'RECAP'} for {self.pname(player)}"
            if open_hands:
                title += " (open hands: both players' private events shown)"
        return recap_for(s.game, player, since, learning=learning, open_hands=open_hands, title=title,
                         compact=(learning or narrow) if compact is None else compact, upto=upto)

    def next(self) -> Next:
        """What comes next after a value was taken: the game-over screen (once), the turn banner, a
        hand-off, or the decider's table (with the engine's question, if it asks one)."""
        from c1k_tui.model.summary import summarise
        from c1k_tui.model.table import GameOver, HandOff, YourTurn

        s, table = self.session, self.table
        assert s is not None and table is not None
        g = s.game
        if g.is_terminal():
            if self.gameover_shown:
                return None
            self.gameover_shown = True
            hint = (f"NOT autosaved — {s.save_error}" if s.save_error
                    else f"The record is autosaved: {s.save_path}" if s.save_path else "The record is not saved")
            return ShowGameOver(summarise(g), hint, s.lesson is not None)
        shown = table.next()
        if isinstance(shown, GameOver):       # (is_terminal above: not reached)
            return None
        if isinstance(shown, YourTurn):
            return ShowBanner(shown)
        if isinstance(shown, HandOff):
            # after the opponent declared attackers (or played), the other player always gets the
            # keyboard: the Interrupt question if the engine asks one, else a plain look — so whether a
            # hand-off happens never tells what a hand holds (rules.md §7a)
            return self.handoff(shown)
        # no hand-off screen here: the Recap tab holds what happened since this player last decided, and is
        # brought forward when the player changed at an open table, or windows were passed through in the
        # learning flow (a lesson keeps its goal in view: the tab is filled, not switched to)
        switch = s.lesson is None and ((s.open_hands and shown.changed) or (self.learning and self.passed_windows))
        self.passed_windows = False
        return ShowTable(shown.viewer, switch, self.prompt())

    def handoff(self, h: HandOff) -> ShowHandOff:
        """The hand-off as shown: the public recap since the incoming player last decided, and the other
        player's changed options (public, said once)."""
        public = self.recap_for(-1, h.public_since, f"Since {h.name} last decided (public):", compact=False)
        if h.announce:
            public = Styled([Piece("\n".join(h.announce) + "\n\n", "head")]) + public
        return ShowHandOff(h, public)

    def took(self, shown: HandOff | YourTurn) -> None:
        """The incoming player took the keyboard (dismissed the hand-off or the banner)."""
        assert self.table is not None
        self.table.took(shown)

    # ---------------------------------------------------------------- questions

    def prompt(self) -> OpenPrompt | None:
        """The engine's Interrupt or choice question, if the player at the keyboard is asked one and no
        prompt is open."""
        s = self.session
        if s is None or self.prompt_open:
            return None
        d = s.game.decision
        if d.kind not in ("interrupt", "choice") or s.game.current_player() != self.viewer:
            return None
        return self.question()

    def question(self) -> OpenPrompt | None:
        """The question asked of the player at the keyboard (i reopens it after Esc)."""
        from engine import Decline, Interrupt, observe

        s = self.session
        if s is None or self.prompt_open:
            return None
        v = observe(s.game, self.viewer if self.viewer in (0, 1) else s.game.current_player())
        d = v.decision
        if d is None:
            return None
        if d.kind == "interrupt":
            known = {h.cid: (h.name, h.text) for h in v.hand}
            for side in (v.me, v.opponent):
                known.update({u.cid: (u.name, u.text) for u in side.units + side.relics if u is not None})
                known[side.champion] = (side.champion_name, side.champion_text)
            rows: list[tuple[str, str]] = []
            for a in d.legal:
                if isinstance(a, Decline):
                    rows.append(("Decline — no Interrupt", "decline"))
                elif isinstance(a, Interrupt):
                    name, text = known.get(a.source, (f"#{a.source}", ""))
                    tg = "".join(f" → #{t}" for t in a.targets)
                    rows.append((f"Use {name} #{a.source}{tg}: {text}", str(a)))
            return OpenPrompt(d.prompt, "An Interrupt answers its event at once: no stack, no priority.",
                              tuple(rows), d.rule)
        if d.kind != "choice":
            return None
        if d.max_choices > 1:
            return OpenPrompt(d.prompt, "", (), d.rule, d.max_choices, tuple(d.options), d.can_decline)
        rows = [(f"{i + 1}. {label}", f"choose {i + 1}") for i, label in enumerate(d.options)]
        if d.can_decline:
            rows.append(("Decline", "decline"))
        return OpenPrompt(d.prompt, "", tuple(rows), d.rule)

    def mode_prompt(self, card: HandCard, modes: list[int]) -> OpenPrompt:
        """A card with branches (KW Thread): which one — the player's own card, in words."""
        from engine import mode_label

        return OpenPrompt(f"{card.name}: choose a branch (KW Thread)", card.text,
                          tuple((mode_label(self.game, card.cid, m), str(m)) for m in modes), "KW Thread")

    def ability_prompt(self, cid: int, ns: list[int]) -> OpenPrompt:
        """A permanent with several abilities: which one."""
        from engine import observe

        v = observe(self.game, self.seat)
        name, text = next(((u.name, u.text) for side in (v.me, v.opponent) for u in side.units + side.relics
                           if u is not None and u.cid == cid), (f"#{cid}", ""))
        if cid in (v.me.champion, v.me.seat):
            name, text = ((v.me.champion_name, v.me.champion_text) if cid == v.me.champion
                          else (v.me.seat_name, v.me.seat_text))
        return OpenPrompt(f"{name}: which ability?", text, tuple((f"ability {n}", str(n)) for n in ns), "")

    # ---------------------------------------------------------------- commands

    def precheck(self, command: str) -> tuple[str, str] | None:
        """A typed command is checked like a picked one (`Table.check`): if the engine would refuse it, it
        is not sent (the player keeps priority) and the line says why — with the rule that "why not?"
        shows, if the engine would refuse it. None: send it."""
        from c1k_tui.model.table import Refused

        assert self.table is not None
        self.parsed = None
        got = self.table.check(command)
        if not isinstance(got, Refused):
            self.parsed = (got.actor, got.action)
            return None
        if got.kind == "malformed":
            return f"[b]?? {escape(got.reason)}[/b]{MISTYPED}", ""
        if got.kind == "illegal":
            return f"[b]✗ {escape(got.reason)}[/b] ([b]{got.rule}[/b]) — not sent", ""
        if got.kind == "not_yours":
            return f"[b]✗ not sent:[/b] {got.reason} ({got.rule})", ""
        return f"[b]✗ {escape(got.reason)}[/b] ([b]{got.rule}[/b]) — not sent: you keep priority", got.rule

    def send(self, command: str) -> Sent:
        """A command from the keyboard (picked or typed): checked, sent, and what the App does next."""
        from c1k_tui.model.yields import until_of

        s, table = self.session, self.table
        assert s is not None and table is not None
        if command.strip().lower() == "concede":
            return Sent("concede")
        if s.lesson is not None and command.strip().lower().startswith("answer"):
            return Sent("answer", self.answer_lesson(command))
        actor = s.game.current_player()
        if s.lesson is None:          # a lesson teaches C1K 10: what the engine refuses is sent
            why = self.precheck(command)
            if why is not None:
                return Sent("stay", why[0], refusal_rule=why[1])
        before, seen = len(s.game.record), len(s.game.events)
        parsed = self.parsed if s.lesson is None and until_of(command) is None else None   # "pass until…": as typed
        self.parsed = None
        out = s.send(parsed[1], parsed[0]) if parsed is not None else s.send(command)
        self.lesson_refusal = None if out.ok or out.malformed else (out.rule, out.reason)
        if out.ok:                    # their decision: the recap starts after it
            table.accepted(actor, seen, s.game.record[before] if len(s.game.record) > before else "")
            return Sent("next", "", since=seen, sent=True)
        if out.malformed:
            return Sent("mistyped", f"[b]?? {escape(out.message)}[/b]{MISTYPED}", sent=True)
        msg = f"[b]✗ refused:[/b] {escape(out.reason)} ([b]{out.rule}[/b])"
        if s.game.current_player() != actor and not s.game.is_terminal():
            return Sent("present", msg, refusal_rule=out.rule, sent=True)
        return Sent("table", msg, refusal_rule=out.rule, sent=True)

    def concede(self) -> None:
        """The player who must decide concedes (after the App asked them to confirm)."""
        assert self.session is not None
        self.session.send("concede")

    # ---------------------------------------------------------------- undo and the shared flow

    def undo(self) -> Status | AskConsent:
        """u: the asker's own last action (hands hidden) or anyone's (open hands), with the other player's
        consent; in a lesson (one learner at an open table) at once."""
        s, table = self.session, self.table
        assert s is not None and table is not None
        g = s.game
        asker = g.current_player() if g.current_player() in (0, 1) else self.viewer
        ok, why = s.undo_check(asker if s.lesson is None and not s.open_hands else None)
        if not ok:
            return Status(f"[b]can't undo:[/b] {escape(why)}")
        if s.lesson is not None:
            line = ""
            if s.undo():
                line = f"undone: {escape(why.removeprefix('undo '))}"
                self.lesson_refusal = None
                self.lesson_complete = False
            return Status(line, present=True)
        other = 1 - asker
        self.pending = ("undo",)
        h = table.undo_request(asker)     # the requester's hand is hidden at once
        return AskConsent(None if h is None else self.handoff(h), "Undo?",
                          f"{self.pname(asker)} asks to {why}.\nUndo replays the match record without it. "
                          f"{self.pname(other)}: do you agree?", f"{self.pname(other)} agrees — undo", "No",
                          refresh=not s.open_hands)

    def options_chosen(self, fixed_view: bool, pace_ms: tuple[int, int], quick_play: tuple[bool, bool],
                       flow: Flow, holder: int | None) -> Status | AskConsent:
        """The options dialog's result: each seat's own options at once; a change of the shared flow mode
        asked by `holder` waits for the other player's consent (tui.md round 3)."""
        from c1k_tui.model.session import flow_change

        s, table = self.session, self.table
        assert s is not None
        self.fixed_view = fixed_view
        self.prefs = [PlayerPrefs(None, pace_ms[p], quick_play[p]) for p in (0, 1)]
        own, shared = flow_change(holder, s.flow, flow)
        if table is not None and holder is not None:
            table.options_changed(holder, s.flow, own)   # announced at the other's hand-off
        s.set_flow(own)
        err = self.save_player_prefs()
        if err:
            self.notice(err, "Player options", "error" if err.startswith("could not") else "warning")
        if shared is None or holder is None or table is None:
            return Status("", present=True)
        other, what = 1 - holder, FLOW_SHORT.get(shared.mode, shared.mode)
        self.pending = ("flow", holder, shared)
        h = table.handoff(other, f"answer {self.pname(holder)}'s request to change the flow", "options")
        return AskConsent(self.handoff(h), "Change the flow?",
                          f"{self.pname(holder)} asks to change the flow for both players to: {what}.\n"
                          f"{self.pname(other)}: do you agree?", f"{self.pname(other)} agrees", "No")

    def consent(self, yes: bool) -> Status:
        """The other player's answer to the pending request (undo or the shared flow); `next()` follows."""
        s, table, pending = self.session, self.table, self.pending
        assert s is not None and table is not None and pending is not None
        self.pending = None
        if pending[0] == "undo":
            return Status("undone" if yes and s.undo() else "undo declined" if not yes else "can't undo", True)
        holder, shared = pending[1], pending[2]
        if yes:
            table.options_changed(holder, s.flow, shared)
            s.set_flow(shared)
        return Status(f"flow: {FLOW_SHORT.get(shared.mode, shared.mode)}" if yes else "the flow was not changed",
                      True)

    # ---------------------------------------------------------------- lessons

    def lesson_check(self) -> LessonCheck | None:
        """The lesson panel (goal, progress over the match's events, windows entered, hint, debrief); a
        lesson completed now is marked so (its key saved as completed)."""
        s = self.session
        if s is None or s.lesson is None:
            return None
        from c1k_tui.model import lessons as course

        les = course.lesson_for(s.lesson, s.db)
        if les is None:
            return None
        taken_back = course.taken_back_of(s.lesson)
        st = course.status(les, s.game, int(s.lesson.get("since", 0)), self.lesson_refusal, s.lesson_answers(),
                           taken_back)
        goal = st.panel + "\n(F3: a solution · F2: the lessons · :rules ID opens a rule)"
        line = ""
        if st.lost and st.wrong_answer:
            line = f"[b]✗ not right:[/b] {escape(st.wrong_answer)} — u takes the answer back · F2 restarts"
        elif st.lost:
            line = "[b]✗ this lesson can't be completed now[/b] — u undoes · F2 restarts"
        if not st.complete or self.lesson_complete:
            return LessonCheck(goal, st, line)
        self.lesson_complete = True
        self.lessons_done.add(Path(str(s.lesson.get("path", ""))).name)
        course.mark_completed(les.key, wrong=len(taken_back))
        return LessonCheck(goal, st, "[b reverse] ✓ lesson complete [/] — ctrl+q quits · F2 back to the lessons",
                           True, str(s.lesson.get("title", "")))

    def answer_lesson(self, command: str) -> str:
        """`answer N` (or the words of an option): the learner answers the lesson's question; the line."""
        s = self.session
        assert s is not None and s.lesson is not None
        from c1k_tui.model import lessons as course
        from engine.lessons import Answer, answer_of, progress

        les = course.lesson_for(s.lesson, s.db)
        said = answer_of(command) or ""
        if les is None or not said:
            return "[b]?? answer what?[/b] type `answer N`, N the number of an option"
        since = int(s.lesson.get("since", 0))
        before = progress(les, s.game, since, [Answer(*a) for a in s.lesson_answers()])
        s.send(f"answer {said}")
        after = progress(les, s.game, since, [Answer(*a) for a in s.lesson_answers()])
        if after.wrong_answer and not before.wrong_answer:
            return f"[b]✗ not right:[/b] {escape(after.wrong_answer)} — u takes the answer back · F2 restarts"
        if len(after.met) > len(before.met):
            return f"[b]✓ right:[/b] {escape(said)}"
        if not before.question:
            return "there is no question to answer now"
        return ""

    def solution(self) -> Styled | None:
        """F3 in a lesson: a solution (the lesson scenario's own steps; an open question's answer is not
        given away: `shown_solution`)."""
        from c1k_tui.model import lessons as course

        s = self.session
        if s is None or s.lesson is None:
            return None
        les = course.lesson_for(s.lesson, s.db)
        steps = (course.shown_solution(les, s.game, int(s.lesson.get("since", 0)), s.lesson_answers())
                 if les is not None else s.lesson.get("solution") or [])
        t = Styled()
        t.append(f"A solution to “{s.lesson.get('title', '')}”\n\n", "head")
        t.append("\n".join(f"{i + 1:>2}. {c}" for i, c in enumerate(steps)) or "(this lesson has no solution steps)")
        t.append("\n\nType them on the command line (:) — without the 'p1:'/'p2:' prefix, or with it.", "quiet")
        return t

    def full_log(self, v: MatchView) -> tuple[tuple[str, ...], str, tuple[str, str]]:
        """L: every line of the match as the player of `v` may read it (the side panel holds the last 200),
        whose log it is, and both names."""
        from c1k_tui.model.view import log_for

        s = self.session
        lines = v.log if s is None else log_for(s.game, v.viewer, s.open_hands, last=0, auto=frozenset(s.auto))
        return tuple(lines), v.bottom.name if v.bottom.player == v.viewer else v.top.name, (self.pname(0),
                                                                                          self.pname(1))

    def save_as(self, path: Path) -> None:
        """The game-over screen's "save as": the match record, written atomically (`engine.record.save`)."""
        from engine.record import save

        assert self.session is not None
        save(self.session.record(), path)

    def graveyards(self) -> Styled:
        """Both graveyards (and voids), top last, as the player at the keyboard sees them."""
        from engine import observe

        v = observe(self.game, self.seat)
        t = Styled()
        for p in (0, 1):
            side = v.side(p)
            t.append(f"{side.name} — graveyard ({side.graveyard}), top last\n", "head")
            t.append(", ".join(f"#{c.cid} {c.name}" for c in side.graveyard_cards) or "(empty)")
            if side.void_cards:
                t.append(f"\nVoid: {', '.join(f'#{c.cid} {c.name}' for c in side.void_cards)}")
            t.append("\n\n")
        return t


__all__ = ["AskConsent", "LessonCheck", "MatchFlow", "Next", "OpenPrompt", "Sent", "ShowBanner", "ShowGameOver",
           "ShowHandOff", "ShowTable", "Status", "escape"]
