"""The Textual hot-seat app (`c1k play`, `c1k resume`, `c1k replay`, `c1k learn`).

The App alone talks to the engine, through `MatchSession.send` (→ `Game.apply_command`). Screens post
typed messages (`MatchScreen.Send`), the App sends the command, then `present()` decides what the players
see next: a hand-off screen whenever the player who must decide changes (unless hands are open), the
match screen re-rendered from a fresh `MatchView` for the deciding player, an Interrupt or choice
prompt, or the game-over screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.binding import Binding

from c1k_tui.model.builders import (
    LessonInfo,
    StartChoice,
    come_back_hint,
    find_lessons,
    learning_vs_ai_session,
    lesson_session,
    new_seed,
    new_session,
    rematch,
    resume_session,
)
from c1k_tui.model.keys import KeyGuard, screen_of
from c1k_tui.model.paths import (
    FLOW_SHORT,
    PlayerPrefs,
    bundled_deck_names,
    default_autosave,
    load_prefs,
    save_prefs,
)
from c1k_tui.model.summary import summarise
from c1k_tui.screens import messages
from c1k_tui.screens.confirm_modal import ConfirmModal, QuitModal
from c1k_tui.screens.game_over import GameOverScreen
from c1k_tui.screens.graveyard_modal import GraveyardModal
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.help_screen import HelpScreen
from c1k_tui.screens.lessons_screen import LessonsScreen
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from c1k_tui.screens.options_modal import OptionsModal, OptionsResult
from c1k_tui.screens.prompt_modal import PromptModal
from c1k_tui.screens.splash_screen import SplashScreen
from c1k_tui.screens.start_screen import StartScreen
from c1k_tui.screens.turn_screen import TurnScreen

# The engine (≈0.3 s to import: pydantic) and everything built on it are imported when first needed, so
# the first frame never waits for them.
if TYPE_CHECKING:
    from c1k_tui.model.session import Flow, MatchSession
    from c1k_tui.model.table import HandOff, Table
    from c1k_tui.model.view import HandCard
    from c1k_tui.screens.match_screen import MatchScreen
    from c1k_tui.screens.versus import Versus
    from engine import Action, CardDB, Game
    from engine.record import MatchRecord

#: the screens of a match's flow: dismissing one starts a new key epoch at once (`C1KApp.pop_screen`)
FLOW_SCREENS = (HandoffScreen, TurnScreen, GameOverScreen, PromptModal, MultiChoiceModal, ConfirmModal,
                OptionsModal)


def key_guard_s() -> float:
    """Seconds a screen its player hasn't seen ignores keys (tui.md round 2: 0.5 s). The hand-off screen's
    own guard is the same setting (tests that press faster than people set it to 0)."""
    return HandoffScreen.GUARD_S


class C1KApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "Council of 1000"
    ENABLE_COMMAND_PALETTE = False     # nothing private may show up in a palette
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, *, db: CardDB | None = None, session: MatchSession | None = None, mode: str = "match",
                 start: StartChoice | None = None, lessons: list[LessonInfo] | None = None,
                 replay: MatchRecord | None = None, autosave: Path | None = None, start_error: str = "",
                 fixed_view: bool | None = None, builder: Callable[[], MatchSession] | None = None,
                 splash: list[str] | None = None) -> None:
        super().__init__()
        self.builder = builder
        self.splash_lines = splash or []
        self.splash: SplashScreen | None = None
        self.built: MatchSession | None = None
        self.db = db
        self.session = session
        self.mode = mode
        self.start_choice = start
        self.lessons = lessons or []
        self.lessons_done: set[str] = set()
        self.replay_record = replay
        self.autosave = autosave
        self.start_error = start_error
        self.table: Table | None = None     # the hot-seat model (c1k_tui/model/table.py): keyboard, hand-offs
        self._viewer = -2
        self.fixed_view = fixed_view if fixed_view is not None else bool(session and session.lesson)
        self.match_screen: MatchScreen | None = None
        self.prompt_open = False
        self.gameover_shown = False
        self.lesson_complete = False
        self.lesson_refusal: tuple[str, str] | None = None   # a lesson's last refused command: its hint
        self.lesson_status: Any = None     # the lesson pane's last LessonStatus (c1k_tui.model.lessons)
        self.last_decks: tuple[str, str] | None = None
        self.parsed: tuple[int, Action] | None = None   # the command precheck() accepted
        self.pacing = False            # the phase bar is stepping through passed windows: keys wait
        # each seat's own options (saved by player name in C1K_HOME): quick play (1…9 play at once,
        # otherwise they select and Enter plays) and pace (passed windows step through the phase bar)
        self.prefs = [PlayerPrefs(), PlayerPrefs()]
        self.passed_windows = False    # the last command's flow went through a window (learning: show it)
        self.notices: list[tuple[str, str, str]] = []   # (message, title, severity) for the next match screen
        self.save_error_shown = ""
        self.versus: Versus | None = None      # the AI seats of a match against an agent (c1k_tui/screens/versus.py)
        self.versus_pace: int | None = None    # ms between an AI's visible moves (None: versus.py's default)
        self.versus_paused = False             # watching two AIs: start paused (versus.py)
        #: the one key guard (c1k_tui/model/keys.py): each screen an epoch; a key acts only once its
        #: player has seen the screen it would act on
        self.keys = KeyGuard(key_guard_s(), painted_at=0.0)
        self._key_epochs: dict[int, tuple[events.Key, int]] = {}   # each admitted key's epoch, by id

    # ---------------------------------------------------------------- the key guard

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.key not in ("ctrl+q", "ctrl+c"):
            if not event.is_forwarded:
                if not self.keys.admits(event.time):
                    return      # pressed before its player could see the screen it would act on: dropped
                self._key_epochs[id(event)] = (event, self.keys.epoch)
                while len(self._key_epochs) > 32:
                    del self._key_epochs[next(iter(self._key_epochs))]
            else:
                # back from the screen it was sent to, for the bindings: a key admitted on a screen that has
                # been dismissed since would act on the one beneath, which its player hasn't seen
                stamped = self._key_epochs.get(id(event))
                if stamped is not None and stamped[0] is event and stamped[1] != self.keys.epoch:
                    return
        await super().on_event(event)

    def shown(self, screen: str, viewer: int = -2) -> None:
        """`screen` is about to be shown: its epoch (the model's), painted once the terminal shows it."""
        epoch = self.keys.show(screen, viewer)
        if self.keys.guard_s <= 0:
            self.keys.painted(epoch, time.monotonic())   # (tests that press faster than people: no paint wait)
            return
        self.call_after_refresh(lambda: self.keys.painted(epoch, time.monotonic()))

    def pop_screen(self) -> AwaitComplete:
        """A screen of the match's flow (hand-off, banner, prompt, game over) is dismissed: no key acts until
        the next screen is painted, and that one is a new epoch — at once, before a key already on its way
        can reach the table beneath (the callback that shows the next screen runs later)."""
        if isinstance(self.screen, FLOW_SCREENS):
            self.keys.dismissed()
            self.call_after_refresh(self._after_pop)
        return super().pop_screen()

    def _after_pop(self) -> None:
        if self.keys.screen == "":            # nothing was shown after the dismissal: what is there now
            self.shown("table" if self.screen is self.match_screen else "other", self.viewer)

    # ---------------------------------------------------------------- leaving

    async def action_quit(self) -> None:
        """ctrl+q: a match in progress asks first and says how to come back (tui.md round 3); anywhere
        else (the start screen, a replay, a match that is over) it quits at once."""
        s = self.session
        if s is None or self.match_screen is None or s.game.is_terminal() or self.match_screen not in \
                self.screen_stack:
            self.exit()
            return
        if isinstance(self.screen, QuitModal):
            return                    # (asked already: y quits, n or Esc goes back)
        hint = come_back_hint(s.save_path, s.save_error)

        def done(yes: bool | None) -> None:
            if yes:
                self.exit(message=hint)

        self.push_screen(QuitModal("Quit the match?", hint, "Quit", "Keep playing"), done)
        self.shown("prompt", self.viewer)

    # ---------------------------------------------------------------- the model's keyboard

    @property
    def viewer(self) -> int:
        """The player at the keyboard (the model's; -2 before a match)."""
        return self.table.viewer if self.table is not None else self._viewer

    @viewer.setter
    def viewer(self, p: int) -> None:
        if self.table is not None:
            self.table.viewer = p
        self._viewer = p

    @property
    def seen_upto(self) -> list[int]:
        """Per player: the event count when they last had the table (where their recap starts)."""
        return self.table.seen_upto if self.table is not None else [0, 0]

    # ---------------------------------------------------------------- each player's options

    def _seat(self) -> int:
        return self.viewer if self.viewer in (0, 1) else 0

    @property
    def quick_play(self) -> bool:
        """The player at the keyboard's own quick-play option."""
        return self.prefs[self._seat()].quick_play

    @quick_play.setter
    def quick_play(self, on: bool) -> None:
        for p in self.prefs:
            p.quick_play = on

    @property
    def pace_ms(self) -> int:
        """The player at the keyboard's own pace (the windows their command passed through step by)."""
        return self.prefs[self._seat()].pace_ms

    @pace_ms.setter
    def pace_ms(self, ms: int) -> None:
        for p in self.prefs:
            p.pace_ms = ms

    def notice(self, message: str, title: str = "", severity: str = "warning") -> None:
        """A non-blocking notice, shown on the next match screen (a hand-off screen clears toasts: the
        notice waits for the player who takes the keyboard)."""
        self.notices.append((message, title, severity))
        if self.match_screen is not None and self.screen is self.match_screen:
            self.show_notices()

    def show_notices(self) -> None:
        s = self.session
        if s is not None and s.save_error != self.save_error_shown:
            if s.save_error:
                self.notices.append((f"{s.save_error}. The match goes on; the record is not saved until this "
                                     "is fixed (the game-over screen can save it elsewhere).", "Autosave failed",
                                     "error"))
            elif self.save_error_shown:
                self.notices.append((f"autosave to {s.save_path} works again", "Autosave", "information"))
            self.save_error_shown = s.save_error
            if self.match_screen is not None:
                from c1k_tui.screens.widgets import TitleBar

                self.match_screen.query_one("#title", TitleBar).extra = self._title_extra()
        pending, self.notices = self.notices, []
        for message, title, severity in pending:
            self.notify(message, title=title, severity=severity, timeout=12, markup=False)  # type: ignore[arg-type]

    def load_player_prefs(self) -> None:
        """Each seat's saved options, by player name (a file that can't be read: a notice, defaults)."""
        names = (self.pname(0), self.pname(1))
        err = ""
        for p in (0, 1):
            got, err1 = load_prefs(names[p])
            if got is not None:            # a player with nothing saved keeps the seat's current options
                self.prefs[p] = got
            err = err or err1
        if err:
            self.notice(err, "Player options")

    def save_player_prefs(self) -> str:
        s = self.session
        assert s is not None
        names = (self.pname(0), self.pname(1))
        return save_prefs({names[p]: PlayerPrefs(list(s.flow.stops[f"p{p + 1}"]), self.prefs[p].pace_ms,
                                                 self.prefs[p].quick_play) for p in (0, 1)})

    # ---------------------------------------------------------------- start-up

    def on_mount(self) -> None:
        if self.builder is not None:
            # the worker starts once the splash has been painted (SplashScreen.on_mount), so loading the
            # engine never delays the first frame
            self.splash = SplashScreen(self.splash_lines)
            self.push_screen(self.splash, lambda _: self._after_splash())
        elif self.mode == "start":
            self.show_start()
        elif self.mode == "learn":
            self.show_lessons()
        elif self.mode == "replay" and self.replay_record is not None:
            self.start_replay(self.replay_record)
        elif self.session is not None:
            self.start_session(self.session)

    def on_splash_screen_painted(self, _: SplashScreen.Painted) -> None:
        self.start_build()

    def start_build(self) -> None:
        self.run_worker(self._build, thread=True, exit_on_error=False)

    def _build(self) -> None:
        """In a worker thread, after the first frame: import the engine, load the cards, set up the match."""
        assert self.builder is not None
        try:
            session = self.builder()
        except Exception as err:  # noqa: BLE001 - shown to the player on the splash screen
            msg = str(err)
            self.call_from_thread(lambda: self.splash.set_error(msg))  # type: ignore[union-attr]
            return
        self.built = session
        self.call_from_thread(lambda: self.splash.set_ready())  # type: ignore[union-attr]

    def _after_splash(self) -> None:
        if self.built is not None:
            self.db = self.built.db
            self.start_session(self.built)

    def _db(self) -> CardDB:
        if self.db is None:
            from c1k_tui.model.cardset import card_db

            self.db = card_db()           # the bundled set and this run's own cards (--cards)
        return self.db

    def _start_db(self, choice: StartChoice) -> CardDB:
        """The card set of a match from the start screen: the run's (a test's) set, or — with own cards or a deck
        that names card files — the bundled set, those cards and the decks' own. Raises CardFileError."""
        from c1k_tui.model import cardset
        from engine.cardset import load_cards

        cards = [Path(p).expanduser() for p in choice.cards]
        named = [f for d in (choice.deck_a, choice.deck_b) for f in cardset.named_card_files(d)]
        if not cards and not named:
            return self._db()
        return load_cards(cards, cardset.deck_paths([choice.deck_a, choice.deck_b]))

    def show_start(self, error: str = "") -> None:
        decks = bundled_deck_names()
        default = self.start_choice or StartChoice("ironbound", "emberfall", new_seed(), "p1", "p2", False, False,
                                                   "stops")
        can_resume = default_autosave().exists()
        from c1k_tui.model.cardset import extra

        self.push_screen(StartScreen(decks, default, can_resume, error or self.start_error,
                                     [str(p) for p in extra()]), self._on_start)

    def on_start_screen_open(self, message: StartScreen.Open) -> None:
        """The Lab (F4) or the deck builder (F5) over the start screen, which stays as it was beneath."""
        if message.what == "lab":
            from c1k_tui.screens.lab_screen import LabScreen

            self.push_screen(LabScreen(bundled_deck_names() + message.decks, cards=message.cards))
        elif message.what == "builder" and message.db is not None:
            from c1k_tui.screens.deck_builder import DeckBuilderScreen

            self.push_screen(DeckBuilderScreen(message.db, None, [Path(p).expanduser() for p in message.cards]),
                             message.then)

    def on_start_screen_cards_changed(self, message: StartScreen.CardsChanged) -> None:
        """The start screen's own cards are this run's from now on (the Lab's, the deck builder's, a match's)."""
        from c1k_tui.model import cardset

        paths = [Path(p).expanduser() for p in message.paths]
        if paths != cardset.extra():
            cardset.use(paths)
            self.db = None

    def _on_start(self, choice: StartChoice | str | None) -> None:
        if choice == "quit" or choice is None:
            self.exit()
            return
        if choice == "lessons":
            self.show_lessons()
            return
        if choice == "resume":
            try:
                self.start_session(resume_session(self._db(), default_autosave()))
            except (OSError, ValueError) as err:  # CardFileError is a ValueError
                self.show_start(f"can't resume: {err}")
            return
        assert isinstance(choice, StartChoice)
        self.start_choice = choice
        try:
            session = new_session(self._start_db(choice), choice, self.autosave or default_autosave())
        except (OSError, ValueError) as err:  # CardFileError is a ValueError
            self.show_start(str(err))
            return
        self.start_session(session)

    def show_lessons(self) -> None:
        if not self.lessons:
            self.lessons = find_lessons()
        from c1k_tui.model.lessons import progress, wrong_answers

        done, note = progress()
        if note:
            self.notify(note, title="Lessons completed", severity="warning", timeout=12, markup=False)
        self.lessons_done |= {f"{key}.scenario.toml" for key in done}
        flagged = {f"{key}.scenario.toml" for key, n in wrong_answers().items() if n > 0}
        self.push_screen(LessonsScreen(self.lessons, self.lessons_done, flagged), self._on_lesson)
        nxt = next((i for i, les in enumerate(self.lessons) if les.path.name not in self.lessons_done), None)
        if nxt is not None:
            self.notify(f"{nxt + 1}. {self.lessons[nxt].title}", title="Next lesson")

    def _on_lesson(self, lesson: LessonInfo | str | None) -> None:
        if lesson is None:
            if self.mode == "learn":
                self.exit()
            else:
                self.show_start()
            return
        if isinstance(lesson, str):          # the practice match against the AI, in the learning flow
            self.start_session(learning_vs_ai_session(self._db(), new_seed()))
            return
        self.start_session(lesson_session(self._db(), lesson))

    # ---------------------------------------------------------------- a match

    def start_session(self, session: MatchSession) -> None:
        from c1k_tui.model.table import Table
        from c1k_tui.screens.versus import attach, screen_for

        self.keys.dismissed()       # (a second press of the key that started the match must not reach it)
        self.session = session
        self.table = Table(session)
        self.versus = attach(self, session)
        self.gameover_shown = False
        self.lesson_complete = False
        self.prompt_open = False
        if session.lesson is not None:
            self.fixed_view = True
        self.save_error_shown = ""
        if session.notice:
            self.notice(session.notice, "Record settings")
        self.load_player_prefs()
        session.run_autos()
        session.save()
        extra = self._title_extra()
        screen = screen_for(session, extra)
        if self.match_screen is not None:
            self.switch_to_match(screen)
        else:
            self.push_screen(screen)
        self.match_screen = screen
        if session.lesson is not None:
            screen.goal = str(session.lesson.get("goal", "")) + "  (F3: a solution · F2: the lessons)"
            self.call_after_refresh(self.check_lesson)
        self.call_after_refresh(self.present)

    def switch_to_match(self, screen: MatchScreen) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    def _title_extra(self) -> str:
        s = self.session
        if s is None:
            return ""
        bits = [f"flow: {s.flow.mode}"] + ([self.versus.title()] if self.versus is not None else [])
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

    def pname(self, p: int) -> str:
        """A player's name (public), read through observe."""
        from engine import observe

        return observe(self.game, p).me.name if p in (0, 1) else "nobody"

    @property
    def game(self) -> Game:
        assert self.session is not None
        return self.session.game

    def view_for(self, viewer: int) -> Any:
        from c1k_tui.model.view import match_view

        s = self.session
        assert s is not None
        g = s.game
        bottom = 0 if (self.fixed_view and s.open_hands) else viewer
        return match_view(g, viewer, s.open_hands, stops=s.flow.stop_windows(g, g.current_player())
                          if s.flow.mode in ("stops", "learning") else (), bottom=bottom, auto=frozenset(s.auto))

    def refresh_view(self) -> None:
        if self.match_screen is None or self.session is None:
            return
        viewer = self.viewer if self.viewer in (0, 1) else 0
        self.match_screen.view = self.view_for(viewer)
        self.match_screen.quick_play = self.quick_play
        from c1k_tui.screens.widgets import TitleBar

        self.match_screen.query_one("#title", TitleBar).extra = self._title_extra()

    def present(self) -> None:
        """Show the players what comes next: hand-off, the match, a prompt, or the end."""
        s = self.session
        if s is None or self.match_screen is None:
            return
        g = s.game
        if g.is_terminal():
            self.refresh_view()
            self.check_lesson()
            if not self.gameover_shown:
                self.gameover_shown = True
                hint = (f"NOT autosaved — {s.save_error}" if s.save_error
                        else f"The record is autosaved: {s.save_path}" if s.save_path else "The record is not saved")
                self.push_screen(GameOverScreen(summarise(g), hint, s.lesson is not None, save=self.save_record_as),
                                 self._on_gameover)
                self.shown("gameover")
            return
        from c1k_tui.model.table import GameOver, HandOff, YourTurn

        table = self.table
        assert table is not None
        if self.versus is not None:
            if self.versus.present():
                # an AI's move changed the human's table: a new epoch; watching two agents: one screen
                self.shown("watch" if self.versus.watch else "table", self.viewer)
                return
        shown = table.next()
        if isinstance(shown, GameOver):       # (is_terminal above: not reached)
            return
        if isinstance(shown, YourTurn):
            self.match_screen.clear_private()
            turn = shown

            def took(_: Any) -> None:
                table.took(turn)
                self.present()

            self.push_screen(TurnScreen(shown.name, shown.turn, shown.player), took)
            self.shown(screen_of(shown), shown.player)
            return
        if isinstance(shown, HandOff):
            # after the opponent declared attackers (or played), the other player always gets the
            # keyboard: the Interrupt question if the engine asks one, else a plain look — so whether a
            # hand-off happens never tells what a hand holds (rules.md §7a)
            self._handoff(shown, then=self._after_handoff)
            return
        decider = shown.viewer
        self.refresh_view()
        # no hand-off screen here: the Recap tab holds what happened since this player last decided, and
        # is shown when the player changed at an open table, or windows were passed through in the
        # learning flow (a lesson keeps its goal in view: the tab is filled, not switched to)
        self.update_recap(decider, switch=s.lesson is None and ((s.open_hands and shown.changed) or
                                                                (self.learning and self.passed_windows)))
        self.passed_windows = False
        self.check_lesson()
        self.show_notices()
        # a new epoch (guarded) unless it is the same player's table after their own command (model/keys.py)
        self.shown(screen_of(shown), decider)
        self.maybe_prompt()

    def _handoff(self, h: HandOff, then: Callable[[], None]) -> None:
        """Render the model's hand-off: the table is hidden, the screen names the incoming player and
        shows the public recap; once they take the keyboard, the recap again with their private events."""
        assert self.match_screen is not None and self.table is not None
        self.match_screen.clear_private()
        since = h.public_since
        public = self.recap_for(-1, since, f"Since {h.name} last decided (public):", compact=False)
        if h.announce:                        # the other player's changed options: public, said once
            public = Text("\n".join(h.announce) + "\n\n", style="bold") + public
        table = self.table

        def after(_: Any) -> None:
            table.took(h)
            # the first screen after the hand-off: the recap again, now with the player's own private events
            if self.match_screen is not None:
                self.match_screen.show_recap(self.recap_for(h.player, since))
            then()

        self.push_screen(HandoffScreen(h.name, f"p{h.player + 1}", h.what, h.rule, h.turn, h.window, public),
                         after)
        self.shown(screen_of(h), h.player)

    @property
    def learning(self) -> bool:
        return self.session is not None and self.session.flow.mode == "learning"

    def recap_for(self, player: int, since: int, title: str = "", upto: int | None = None,
                  compact: bool | None = None) -> Text:
        """What happened from event `since` on, as `player` (-1: public only) may know it: the recap, or in
        the learning flow (and in a lesson) every window entered. With open hands (no hiding at that table)
        both players' private events are in it, and its title says so."""
        from c1k_tui.model.recap import recap_for
        from c1k_tui.screens.styled import rich_text

        s = self.session
        assert s is not None
        open_hands = s.open_hands and player >= 0
        learning = self.learning or s.lesson is not None
        if not title:
            title = f"{'WINDOWS ENTERED' if learning else 'RECAP'} for {self.pname(player)}"
            if open_hands:
                title += " (open hands: both players' private events shown)"
        if compact is None:        # the side panel: 40 columns wide, or a few rows at 80×24
            compact = learning or (self.match_screen is not None and self.match_screen.has_class("-narrow"))
        return rich_text(recap_for(s.game, player, since, learning=learning, open_hands=open_hands, title=title,
                                   compact=compact, upto=upto))

    def update_recap(self, player: int, switch: bool) -> None:
        """The Recap tab (open hands, the learning flow): what happened since `player` last decided."""
        if self.match_screen is None or player not in (0, 1):
            return
        self.match_screen.show_recap(self.recap_for(player, self.seen_upto[player]), switch=switch)

    def _after_handoff(self) -> None:
        self.refresh_view()
        self.show_notices()
        self.shown("table", self.viewer)      # the incoming player's table: a new epoch, not seen yet
        self.maybe_prompt()

    def on_match_screen_send(self, message: Any) -> None:
        ms, before = self.match_screen, len(self.game.record) if self.session is not None else 0
        self.send(message.command)
        # a typed command that was not sent (refused, or a typing mistake) stays on the line for editing
        if (getattr(message, "typed", False) and ms is not None and ms is self.match_screen
                and self.session is not None and len(self.game.record) == before
                and ms.status.startswith(("[b]✗", "[b]??"))):
            ms.keep_typed(message.command)

    def send(self, command: str) -> None:
        s = self.session
        if s is None or self.match_screen is None:
            return
        if self.pacing:
            return
        if self.versus is not None and self.versus.busy():
            self.match_screen.status = "[b]wait:[/b] the AI is deciding"
            return
        if command.strip().lower() == "concede":
            self.confirm_concede()
            return
        if s.lesson is not None and command.strip().lower().startswith("answer"):
            self.answer_lesson(command)
            return
        actor = s.game.current_player()
        ms = self.match_screen
        why = self.precheck(command) if s.lesson is None else None   # a lesson teaches C1K 10: it is sent
        if why is not None:
            ms.status = why
            self.refresh_view()
            return
        from c1k_tui.model.yields import until_of

        before = len(s.game.record)
        seen = len(s.game.events)
        parsed = self.parsed if s.lesson is None and until_of(command) is None else None   # "pass until…": as typed
        self.parsed = None
        self.keys.command_sent()            # keys wait for the next screen's paint (model/keys.py)
        out = s.send(parsed[1], parsed[0]) if parsed is not None else s.send(command)
        self.lesson_refusal = None if out.ok or out.malformed else (out.rule, out.reason)
        if out.ok:
            ms.status = ""
            assert self.table is not None          # their decision: the recap starts after it
            self.table.accepted(actor, seen, s.game.record[before] if len(s.game.record) > before else "")
            self.pace_then_present(seen)
            return
        if out.malformed:
            ms.status = f"[b]?? {escape(out.message)}[/b]  (a typing mistake changes nothing; ? for help)"
            self.shown("table", self.viewer)
            return
        ms.refusal_rule = out.rule
        msg = f"[b]✗ refused:[/b] {escape(out.reason)} ([b]{out.rule}[/b])"
        if s.game.current_player() != actor and not s.game.is_terminal():
            ms.status = msg
            self.present()
            return
        ms.status = msg
        self.check_lesson()     # a lesson adds its hint to the engine's "why not?"
        self.refresh_view()
        self.shown("table", self.viewer)

    def pace_then_present(self, since: int) -> None:
        """Pacing: the windows the flow options passed through step visibly through the phase bar
        (`pace_ms` each; public: which windows a match goes through), then what comes next is shown. In
        the learning flow each window also joins the Recap tab as it is entered."""
        from c1k_tui.model.pacing import pacing

        s = self.session
        ms = self.match_screen
        if s is None or ms is None:
            self.present()
            return
        plan = pacing(s.game.events.since(since), self.effective_pace())
        self.passed_windows = plan.passed
        if not plan.stepping:
            self.present()
            return
        from c1k_tui.screens.widgets import PhaseBar

        bar = ms.query_one("#phases", PhaseBar)
        self.pacing = True
        actor = self.viewer

        def show(turn: int, index: int, n: int) -> None:
            bar.step_to(turn, index)
            if self.learning and actor in (0, 1) and self.match_screen is ms:
                ms.show_recap(self.recap_for(actor, since, upto=n + 1), switch=True)

        first, *rest = plan.steps
        show(first.turn, first.window, first.n)
        for st in rest:
            self.set_timer(st.at_ms / 1000, lambda t=st.turn, x=st.window, m=st.n: show(t, x, m))

        def done() -> None:
            self.pacing = False
            self.present()

        self.set_timer(plan.done_ms / 1000, done)

    def effective_pace(self) -> int:
        """The pace that applies now (model.pacing.pace_of): the keyboard holder's own; the learning flow
        steps by even when theirs is off."""
        from c1k_tui.model.pacing import pace_of

        return pace_of((self.prefs[0].pace_ms, self.prefs[1].pace_ms), self.viewer, self.learning)

    def precheck(self, command: str) -> str | None:
        """A typed command is checked like a picked one (`Table.check`): if the engine would refuse it, it
        is not sent (the player keeps priority) and the screen says why, with the rule. None: send it."""
        from c1k_tui.model.table import Refused

        assert self.table is not None
        self.parsed = None
        got = self.table.check(command)
        if not isinstance(got, Refused):
            self.parsed = (got.actor, got.action)
            return None
        if got.kind == "malformed":
            return f"[b]?? {escape(got.reason)}[/b]  (a typing mistake changes nothing; ? for help)"
        if got.kind == "illegal":
            return f"[b]✗ {escape(got.reason)}[/b] ([b]{got.rule}[/b]) — not sent"
        if got.kind == "not_yours":
            return f"[b]✗ not sent:[/b] {got.reason} ({got.rule})"
        self.match_screen.refusal_rule = got.rule  # type: ignore[union-attr]
        return f"[b]✗ {escape(got.reason)}[/b] ([b]{got.rule}[/b]) — not sent: you keep priority"

    def maybe_prompt(self) -> None:
        s = self.session
        if s is None or self.prompt_open or self.match_screen is None:
            return
        d = s.game.decision
        if d.kind in ("interrupt", "choice") and s.game.current_player() == self.viewer:
            self.action_decision_prompt()

    def on_watch_screen_control(self, m: Any) -> None:
        """The watch screen's pause, step and pace keys (screens/versus.py `WatchScreen.Control`)."""
        if self.versus is not None:
            self.versus.control(m.what, m.d)

    @on(messages.AskPrompt)
    def _ask_prompt(self) -> None:
        self.action_decision_prompt()

    @on(messages.PickMode)
    def _pick_mode(self, m: messages.PickMode) -> None:
        self.action_pick_mode(m.card, m.modes, m.cands)

    @on(messages.PickAbility)
    def _pick_ability(self, m: messages.PickAbility) -> None:
        self.action_pick_ability(m.cid, m.ns, m.cands)

    @on(messages.ShowHelp)
    def _show_help(self) -> None:
        self.action_help()

    def action_decision_prompt(self) -> None:
        from engine import Decline, Interrupt, observe

        s = self.session
        if s is None or self.prompt_open:
            return
        v = observe(s.game, self.viewer if self.viewer in (0, 1) else s.game.current_player())
        d = v.decision
        if d is None:
            return
        if d.kind == "interrupt":
            known = {h.cid: (h.name, h.text) for h in v.hand}
            for side in (v.me, v.opponent):
                known.update({u.cid: (u.name, u.text) for u in side.units + side.relics if u is not None})
                known[side.champion] = (side.champion_name, side.champion_text)
            opts: list[tuple[str, str]] = []
            for a in d.legal:
                if isinstance(a, Decline):
                    opts.append(("Decline — no Interrupt", "decline"))
                elif isinstance(a, Interrupt):
                    name, text = known.get(a.source, (f"#{a.source}", ""))
                    tg = "".join(f" → #{t}" for t in a.targets)
                    opts.append((f"Use {name} #{a.source}{tg}: {text}", str(a)))
            self._prompt(PromptModal(d.prompt, "An Interrupt answers its event at once: no stack, no priority.",
                                     opts, d.rule))
        elif d.kind == "choice":
            if d.max_choices > 1:
                self._prompt(MultiChoiceModal(d.prompt, list(d.options), d.max_choices, d.can_decline, d.rule))
                return
            opts = [(f"{i + 1}. {label}", f"choose {i + 1}") for i, label in enumerate(d.options)]
            if d.can_decline:
                opts.append(("Decline", "decline"))
            self._prompt(PromptModal(d.prompt, "", opts, d.rule))

    def _prompt(self, modal: Any) -> None:
        self.prompt_open = True
        self.shown("prompt", self.viewer)

        def done(result: str | None) -> None:
            self.prompt_open = False
            if result:
                self.send(result)
            elif self.match_screen is not None:
                self.match_screen.status = "press i to answer the prompt"

        self.push_screen(modal, done)

    def action_pick_mode(self, card: HandCard, modes: list[int], cands: list[Action]) -> None:
        from c1k_tui.screens.match_screen import Pick
        from engine import Play, mode_label

        opts = [(mode_label(self.game, card.cid, m), str(m)) for m in modes]   # the player's own card, in words

        def done(result: str | None) -> None:
            if result and self.match_screen is not None:
                m = int(result)
                self.match_screen.begin_pick(Pick("play", card.cid, [a for a in cands if isinstance(a, Play)
                                                                      and a.mode == m],
                                                  needs_slot=card.type in ("unit", "relic")))

        self.push_screen(PromptModal(f"{card.name}: choose a branch (KW Thread)", card.text, opts, "KW Thread"), done)

    def action_pick_ability(self, cid: int, ns: list[int], cands: list[Action]) -> None:
        from c1k_tui.screens.match_screen import Pick
        from engine import Activate, observe

        v = observe(self.game, self.viewer if self.viewer in (0, 1) else 0)
        name, text = next(((u.name, u.text) for side in (v.me, v.opponent) for u in side.units + side.relics
                           if u is not None and u.cid == cid), (f"#{cid}", ""))
        if cid in (v.me.champion, v.me.seat):
            name, text = ((v.me.champion_name, v.me.champion_text) if cid == v.me.champion
                          else (v.me.seat_name, v.me.seat_text))
        opts = [(f"ability {n}", str(n)) for n in ns]

        def done(result: str | None) -> None:
            if result and self.match_screen is not None:
                n = int(result)
                self.match_screen.begin_pick(Pick("activate", cid, [a for a in cands if isinstance(a, Activate)
                                                                    and a.n == n]))

        self.push_screen(PromptModal(f"{name}: which ability?", text, opts), done)

    # ---------------------------------------------------------------- undo, concede, options

    def action_undo(self) -> None:
        s = self.session
        if s is None or self.match_screen is None:
            return
        if self.versus is not None:
            self.versus.undo()
            return
        g = s.game
        asker = g.current_player() if g.current_player() in (0, 1) else self.viewer
        # with hands hidden, only the asker's own last action (open hands: one table, anyone's)
        ok, why = s.undo_check(asker if s.lesson is None and not s.open_hands else None)
        if not ok:
            self.match_screen.status = f"[b]can't undo:[/b] {escape(why)}"
            return
        if s.lesson is not None:          # one learner at an open table: nobody else to ask
            if s.undo():
                self.match_screen.status = f"undone: {escape(why.removeprefix('undo '))}"
                self.lesson_refusal = None
                self.lesson_complete = False
            self.present()
            return
        other = 1 - asker

        def done(yes: bool | None) -> None:
            if yes and s.undo():
                self.match_screen.status = "undone"  # type: ignore[union-attr]
            elif self.match_screen is not None:
                self.match_screen.status = "undo declined" if not yes else "can't undo"
            self.present()

        def ask() -> None:
            if not s.open_hands:
                self.refresh_view()        # the other player's own view behind the question
            self.push_screen(ConfirmModal(
                "Undo?", f"{self.pname(asker)} asks to {why}.\nUndo replays the match record without it. "
                         f"{self.pname(other)}: do you agree?", f"{self.pname(other)} agrees — undo", "No"),
                done)

        assert self.table is not None
        h = self.table.undo_request(asker)
        if h is None:
            ask()
            return
        # the requester's hand is hidden at once; the other player takes the keyboard to answer
        self._handoff(h, then=ask)

    def confirm_concede(self) -> None:
        s = self.session
        if s is None:
            return
        p = s.game.current_player()

        def done(yes: bool | None) -> None:
            if yes:
                s.send("concede")
                self.present()

        self.push_screen(ConfirmModal("Concede?", f"{self.pname(p)} concedes the match.",
                                      "Concede", "Keep playing"), done)

    def action_options(self) -> None:
        s = self.session
        if s is None:
            return
        names = (self.pname(0), self.pname(1))

        def done(res: OptionsResult | None) -> None:
            if res is None:
                return
            self.fixed_view = res.fixed_view
            self.prefs = [PlayerPrefs(None, res.pace_ms[p], res.quick_play[p]) for p in (0, 1)]
            from c1k_tui.model.session import flow_change

            own, shared = flow_change(holder, s.flow, res.flow)    # theirs at once; a shared mode: consent
            if self.table is not None and holder is not None:
                self.table.options_changed(holder, s.flow, own)   # announced at the other's hand-off
            s.set_flow(own)
            err = self.save_player_prefs()
            if err:
                self.notice(err, "Player options", "error" if err.startswith("could not") else "warning")
            if shared is None or holder is None or self.table is None:
                self.present()
                return
            self.ask_shared_flow(holder, shared)

        holder = self.viewer if not s.open_hands and self.viewer in (0, 1) else None
        self.push_screen(OptionsModal(s.flow, names, self.fixed_view, s.open_hands,
                                      (self.prefs[0].quick_play, self.prefs[1].quick_play),
                                      (self.prefs[0].pace_ms, self.prefs[1].pace_ms), hidden=not s.open_hands,
                                      holder=holder), done)

    def ask_shared_flow(self, holder: int, shared: Flow) -> None:
        """A change of the shared flow mode asked by `holder`: the other player takes the keyboard and
        agrees or not (as for undo); only then does it apply."""
        s, table, other = self.session, self.table, 1 - holder
        assert s is not None and table is not None
        what = FLOW_SHORT.get(shared.mode, shared.mode)

        def done(yes: bool | None) -> None:
            if yes:
                table.options_changed(holder, s.flow, shared)
                s.set_flow(shared)
            if self.match_screen is not None:
                self.match_screen.status = f"flow: {what}" if yes else "the flow was not changed"
            self.present()

        def ask() -> None:
            self.refresh_view()            # the other player's own view behind the question
            self.push_screen(ConfirmModal(
                "Change the flow?", f"{self.pname(holder)} asks to change the flow for both players to: {what}.\n"
                                    f"{self.pname(other)}: do you agree?",
                f"{self.pname(other)} agrees", "No"), done)

        self._handoff(table.handoff(other, f"answer {self.pname(holder)}'s request to change the flow",
                                    "options"), then=ask)

    def action_full_log(self) -> None:
        if self.match_screen is None or self.match_screen.view is None:
            return
        from c1k_tui.model.view import log_for
        from c1k_tui.screens.log_screen import LogScreen

        v = self.match_screen.view
        s = self.session
        # every line of the match as this player may read it (the side panel holds the last 200)
        lines = v.log if s is None else log_for(s.game, v.viewer, s.open_hands, last=0, auto=frozenset(s.auto))
        self.push_screen(LogScreen(lines, f"{v.bottom.name if v.bottom.player == v.viewer else v.top.name}",
                                   (self.pname(0), self.pname(1))))

    def action_recap_full(self) -> None:
        """w: the recap (or, in the learning flow, the windows entered) last shown, full screen — on a
        small terminal the Recap tab has only a few rows."""
        ms = self.match_screen
        if ms is None or ms.view is None:
            return
        from c1k_tui.screens.log_screen import LogScreen

        lines = tuple(ms.recap_text.plain.splitlines()) or ("(nothing to recap yet)",)
        v = ms.view
        self.push_screen(LogScreen(lines, v.bottom.name if v.bottom.player == v.viewer else v.top.name,
                                   title="WHAT HAPPENED"))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_graveyards(self) -> None:
        from engine import observe

        s = self.session
        if s is None:
            return
        v = observe(s.game, self.viewer if self.viewer in (0, 1) else 0)
        t = Text()
        for p in (0, 1):
            side = v.side(p)
            t.append(f"{side.name} — graveyard ({side.graveyard}), top last\n", style="bold")
            t.append(", ".join(f"#{c.cid} {c.name}" for c in side.graveyard_cards) or "(empty)")
            if side.void_cards:
                t.append(f"\nVoid: {', '.join(f'#{c.cid} {c.name}' for c in side.void_cards)}")
            t.append("\n\n")
        self.push_screen(GraveyardModal(t))

    def save_record_as(self, path: Path) -> None:
        assert self.session is not None
        from engine.record import save

        save(self.session.record(), path)

    # ---------------------------------------------------------------- lessons, game over, replay

    def check_lesson(self) -> None:
        """The lesson panel (goal, progress over the match's events, windows entered, hint, debrief)."""
        refusal = self.lesson_refusal
        s = self.session
        if s is None or s.lesson is None or self.match_screen is None:
            return
        from c1k_tui.model import lessons as course

        les = course.lesson_for(s.lesson, s.db)
        if les is None:
            return
        taken_back = course.taken_back_of(s.lesson)
        st = course.status(les, s.game, int(s.lesson.get("since", 0)), refusal, s.lesson_answers(), taken_back)
        self.match_screen.goal = st.panel + "\n(F3: a solution · F2: the lessons · :rules ID opens a rule)"
        self.lesson_status = st
        self.show_lesson_pane(st)
        if st.lost and st.wrong_answer:
            self.match_screen.status = f"[b]✗ not right:[/b] {escape(st.wrong_answer)} — u takes the answer back " \
                                       f"· F2 restarts"
        elif st.lost:
            self.match_screen.status = "[b]✗ this lesson can't be completed now[/b] — u undoes · F2 restarts"
        if not st.complete or self.lesson_complete:
            return
        self.lesson_complete = True
        self.lessons_done.add(Path(str(s.lesson.get("path", ""))).name)
        course.mark_completed(les.key, wrong=len(taken_back))
        self.match_screen.status = "[b reverse] ✓ lesson complete [/] — ctrl+q quits · F2 back to the lessons"
        if self.match_screen.has_class("-wide") and self.match_screen.has_class("-tall"):
            # (in the smaller layouts the lesson tab is along the bottom, where a toast would cover the
            # debrief: the status line and the tab's "✓ LESSON COMPLETE" say it there)
            self.notify("Lesson complete!", title=str(s.lesson.get("title", "")))

    def show_lesson_pane(self, st: Any) -> None:
        """The lesson pane (its own tab): the step, the hint, the goal, the steps, the debrief. A new hint,
        the coaching or the debrief brings the tab to the front."""
        ms = self.match_screen
        if ms is None or not ms.lesson:
            return
        from textual.css.query import NoMatches
        from textual.widgets import TabbedContent

        from c1k_tui.screens.lesson_pane import LessonPane

        try:
            pane = ms.query_one("#lesson-pane", LessonPane)
        except NoMatches:
            return
        before = pane.status
        pane.show(st)
        news = st.hint and (before is None or before.hint != st.hint) or (st.complete and not (
            before is not None and before.complete))
        if news:
            ms.query_one("#tabs", TabbedContent).active = "tab-lesson"

    def answer_lesson(self, command: str) -> None:
        """`answer N` (or the words of an option): the learner answers the lesson's question."""
        s = self.session
        if s is None or s.lesson is None or self.match_screen is None:
            return
        from c1k_tui.model import lessons as course
        from engine.lessons import Answer, answer_of, progress

        les = course.lesson_for(s.lesson, s.db)
        said = answer_of(command) or ""
        if les is None or not said:
            self.match_screen.status = "[b]?? answer what?[/b] type `answer N`, N the number of an option"
            return
        since = int(s.lesson.get("since", 0))
        before = progress(les, s.game, since, [Answer(*a) for a in s.lesson_answers()])
        s.send(f"answer {said}")
        after = progress(les, s.game, since, [Answer(*a) for a in s.lesson_answers()])
        if after.wrong_answer and not before.wrong_answer:
            self.match_screen.status = f"[b]✗ not right:[/b] {escape(after.wrong_answer)} — u takes the answer " \
                                       f"back · F2 restarts"
        elif len(after.met) > len(before.met):
            self.match_screen.status = f"[b]✓ right:[/b] {escape(said)}"
        elif not before.question:
            self.match_screen.status = "there is no question to answer now"
        self.check_lesson()
        self.refresh_view()

    def sends_refusals(self) -> bool:
        """In a lesson, a card the engine would refuse is sent anyway when the learner picks it: the
        refusal, its rule and what it does to priority (C1K 10) are what some lessons teach."""
        return self.session is not None and self.session.lesson is not None

    def _on_gameover(self, choice: str | None) -> None:
        s = self.session
        assert s is not None
        if choice == "quit" or choice is None:
            self.exit()
        elif choice == "rematch":
            self.start_session(rematch(s))
        elif choice == "new":
            self.match_screen = None
            while len(self.screen_stack) > 1:
                self.pop_screen()
            if s.lesson is not None:
                self.show_lessons()
            else:
                self.show_start()
        elif choice == "review":
            # the replay, over this screen: Esc (or q) comes back to the game-over screen
            from c1k_tui.screens.replay import ReplayScreen

            self.gameover_shown = False
            self.push_screen(ReplayScreen(s.record(), self._db(), back=True), lambda _: self.present())

    def start_replay(self, record: MatchRecord) -> None:
        from c1k_tui.screens.replay import ReplayScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.match_screen = None
        self.push_screen(ReplayScreen(record, self._db()))

    def key_f3(self) -> None:
        """In a lesson: show a solution (the lesson scenario's own steps)."""
        s = self.session
        if s is None or s.lesson is None:
            return
        from c1k_tui.model import lessons as course

        les = course.lesson_for(s.lesson, s.db)
        steps = (course.shown_solution(les, s.game, int(s.lesson.get("since", 0)), s.lesson_answers())
                 if les is not None else s.lesson.get("solution") or [])
        t = Text()
        t.append(f"A solution to “{s.lesson.get('title', '')}”\n\n", style="bold")
        t.append("\n".join(f"{i + 1:>2}. {c}" for i, c in enumerate(steps)) or "(this lesson has no solution steps)")
        t.append("\n\nType them on the command line (:) — without the 'p1:'/'p2:' prefix, or with it.", style="dim")
        self.push_screen(GraveyardModal(t))

    def key_f2(self) -> None:
        if self.session is not None and self.session.lesson is not None:
            self.match_screen = None
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.show_lessons()


def escape(text: str) -> str:
    return text.replace("[", r"\[")



__all__ = ["C1KApp"]
