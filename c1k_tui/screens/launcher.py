"""The way into a match: the splash while the engine loads, the start screen (with the Lab and the deck
builder over it), the lessons menu — a controller the App hosts, as it hosts `versus.py`'s.

It pushes those screens, builds the session a choice names (`c1k_tui.model.builders`), and hands it to the
App's `start_session`; a choice that can't be built (a broken deck, card file or autosave) comes back to the
start screen with the reason. No import of the App here (it imports this module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from c1k_tui.model.builders import (
    LessonInfo,
    StartChoice,
    find_lessons,
    learning_vs_ai_session,
    lesson_session,
    new_seed,
    new_session,
    resume_session,
)
from c1k_tui.model.paths import bundled_deck_names, default_autosave
from c1k_tui.screens.lessons_screen import LessonsScreen
from c1k_tui.screens.splash_screen import SplashScreen
from c1k_tui.screens.start_screen import StartScreen

if TYPE_CHECKING:
    from textual.app import App

    from c1k_tui.model.flow import MatchFlow
    from c1k_tui.model.session import MatchSession


@dataclass
class Launcher:
    """The menus of one App: `start` is the App's `start_session`."""

    app: App[Any]
    match: MatchFlow
    start: Callable[[MatchSession], None]
    mode: str = "match"                     # "start", "learn": which menu Esc from the lessons goes back to
    choice: StartChoice | None = None       # the start screen's last choice (its defaults next time)
    lessons: list[LessonInfo] = field(default_factory=list)
    autosave: Path | None = None
    error: str = ""                         # shown on the first start screen (a broken --deck, say)
    splash: SplashScreen | None = None
    builder: Callable[[], MatchSession] | None = None
    built: MatchSession | None = None

    def show_splash(self, builder: Callable[[], MatchSession], lines: list[str]) -> None:
        """The splash first; the worker that imports the engine and builds the match starts once it is painted
        (`painted`), so loading never delays the first frame."""
        self.splash = SplashScreen(lines)
        self.builder = builder
        self.app.push_screen(self.splash, lambda _: self.start(self.built) if self.built else None)

    def painted(self) -> None:
        self.app.run_worker(self._build, thread=True, exit_on_error=False)

    def _build(self) -> None:
        """In a worker thread, after the first frame: import the engine, load the cards, set up the match."""
        splash, builder = self.splash, self.builder
        assert splash is not None and builder is not None
        try:
            self.built = builder()
        except Exception as err:  # noqa: BLE001 - shown to the player on the splash screen
            msg = str(err)
            self.app.call_from_thread(lambda: splash.set_error(msg))
            return
        self.match.db = self.built.db
        self.app.call_from_thread(splash.set_ready)

    def show_start(self, error: str = "") -> None:
        from c1k_tui.model.cardset import extra

        default = self.choice or StartChoice("ironbound", "emberfall", new_seed(), "p1", "p2", False, False, "stops")
        self.app.push_screen(StartScreen(bundled_deck_names(), default, default_autosave().exists(),
                                         error or self.error, [str(p) for p in extra()]), self._on_start)

    def open(self, message: StartScreen.Open) -> None:
        """The Lab (F4) or the deck builder (F5) over the start screen, which stays as it was beneath."""
        if message.what == "lab":
            from c1k_tui.screens.lab_screen import LabScreen

            self.app.push_screen(LabScreen(bundled_deck_names() + message.decks, cards=message.cards))
        elif message.what == "builder" and message.db is not None:
            from c1k_tui.screens.deck_builder import DeckBuilderScreen

            self.app.push_screen(DeckBuilderScreen(message.db, None, [Path(p).expanduser() for p in message.cards]),
                                 message.then)

    def cards_changed(self, message: StartScreen.CardsChanged) -> None:
        """The start screen's own cards are this run's from now on (the Lab's, the deck builder's, a match's)."""
        from c1k_tui.model import cardset

        paths = [Path(p).expanduser() for p in message.paths]
        if paths != cardset.extra():
            cardset.use(paths)
            self.match.db = None

    def _on_start(self, choice: StartChoice | str | None) -> None:
        if choice == "quit" or choice is None:
            self.app.exit()
        elif choice == "lessons":
            self.show_lessons()
        elif choice == "resume":
            try:
                self.start(resume_session(self.match.card_db(), default_autosave()))
            except (OSError, ValueError) as err:  # CardFileError is a ValueError
                self.show_start(f"can't resume: {err}")
        elif isinstance(choice, StartChoice):
            self.choice = choice
            try:
                session = new_session(self.match.start_db(choice), choice, self.autosave or default_autosave())
            except (OSError, ValueError) as err:  # CardFileError is a ValueError
                self.show_start(str(err))
                return
            self.start(session)

    def show_lessons(self) -> None:
        from c1k_tui.model.lessons import progress, wrong_answers

        self.lessons = self.lessons or find_lessons()
        done, note = progress()
        if note:
            self.app.notify(note, title="Lessons completed", severity="warning", timeout=12, markup=False)
        self.match.lessons_done |= {f"{key}.scenario.toml" for key in done}
        flagged = {f"{key}.scenario.toml" for key, n in wrong_answers().items() if n > 0}
        self.app.push_screen(LessonsScreen(self.lessons, self.match.lessons_done, flagged), self._on_lesson)
        nxt = next((i for i, les in enumerate(self.lessons) if les.path.name not in self.match.lessons_done), None)
        if nxt is not None:
            self.app.notify(f"{nxt + 1}. {self.lessons[nxt].title}", title="Next lesson")

    def _on_lesson(self, lesson: LessonInfo | str | None) -> None:
        if lesson is None:
            self.app.exit() if self.mode == "learn" else self.show_start()
        elif isinstance(lesson, str):          # the practice match against the AI, in the learning flow
            self.start(learning_vs_ai_session(self.match.card_db(), new_seed()))
        else:
            self.start(lesson_session(self.match.card_db(), lesson))


__all__ = ["Launcher"]
