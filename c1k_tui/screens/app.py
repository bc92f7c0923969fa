"""The Textual hot-seat app (`c1k play`, `c1k resume`, `c1k replay`, `c1k learn`): a router.

What the players see next is the model's (`c1k_tui.model.flow.MatchFlow`: the match, its table, each seat's
options, undo and flow consent, the lesson); which key may act is the model's too (`model/keys.py`). The
App pushes the screens those values name, starts the timers (pacing, the AI's moves), and routes the
screens' typed messages (`messages.py`) to the model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.binding import Binding

from c1k_tui.model import flow
from c1k_tui.model.builders import LessonInfo, StartChoice, come_back_hint, rematch
from c1k_tui.model.keys import screen_of
from c1k_tui.screens import messages
from c1k_tui.screens.confirm_modal import ConfirmModal, QuitModal
from c1k_tui.screens.game_over import GameOverScreen
from c1k_tui.screens.graveyard_modal import GraveyardModal
from c1k_tui.screens.guarded_app import GuardedApp
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.help_screen import HelpScreen
from c1k_tui.screens.launcher import Launcher
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from c1k_tui.screens.options_modal import OptionsModal, OptionsResult
from c1k_tui.screens.prompt_modal import PromptModal
from c1k_tui.screens.splash_screen import SplashScreen
from c1k_tui.screens.start_screen import StartScreen
from c1k_tui.screens.styled import rich_text
from c1k_tui.screens.turn_screen import TurnScreen

# The engine (≈0.3 s to import: pydantic) and everything built on it are imported when first needed, so
# the first frame never waits for them.
if TYPE_CHECKING:
    from rich.text import Text

    from c1k_tui.model.session import MatchSession
    from c1k_tui.model.table import YourTurn
    from c1k_tui.screens.versus import Versus
    from engine import Action, CardDB, Game
    from engine.record import MatchRecord

class C1KApp(GuardedApp):
    """Pushes screens, starts timers and routes messages; what comes next is the model's (`MatchFlow`)."""

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
        self.builder, self.splash_lines, self.mode, self.replay_record = builder, splash or [], mode, replay
        #: the hot-seat flow (c1k_tui/model/flow.py): the match, its table, each seat's options, the lesson
        self.match = flow.MatchFlow(session, db, fixed_view if fixed_view is not None else bool(session and session.lesson))
        #: the menus: splash, start screen, lessons (c1k_tui/screens/launcher.py)
        self.launcher = Launcher(self, self.match, self.start_session, mode, start, lessons or [], autosave,
                                 start_error)
        self.pacing = False            # the phase bar is stepping through passed windows: keys wait
        self.versus: Versus | None = None      # the AI seats of a match against an agent (c1k_tui/screens/versus.py)
        self.versus_pace: int | None = None    # ms between an AI's visible moves (None: versus.py's default)
        self.versus_paused = False             # watching two AIs: start paused (versus.py)

    # ---------------------------------------------------------------- leaving

    async def action_quit(self) -> None:
        """ctrl+q: a match in progress asks first and says how to come back; elsewhere it quits at once."""
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

    # ---------------------------------------------------------------- the model's match, read

    @property
    def session(self) -> MatchSession | None:
        return self.match.session

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def viewer(self) -> int:
        """The player at the keyboard (the model's; -2 before a match)."""
        return self.match.viewer

    @viewer.setter
    def viewer(self, p: int) -> None:
        self.match.viewer = p

    @property
    def seen_upto(self) -> list[int]:
        """Per player: the event count when they last had the table (where their recap starts)."""
        return self.match.table.seen_upto if self.match.table is not None else [0, 0]

    def pname(self, p: int) -> str:
        return self.match.pname(p)

    def show_notices(self) -> None:
        pending, changed = self.match.take_notices()
        if changed:
            self.refresh_title()
        for message, title, severity in pending:
            self.notify(message, title=title, severity=severity, timeout=12, markup=False)  # type: ignore[arg-type]

    # ---------------------------------------------------------------- start-up (the menus: launcher.py)

    def on_mount(self) -> None:
        if self.builder is not None:
            self.launcher.show_splash(self.builder, self.splash_lines)
        elif self.mode == "start":
            self.launcher.show_start()
        elif self.mode == "learn":
            self.launcher.show_lessons()
        elif self.mode == "replay" and self.replay_record is not None:
            self.start_replay(self.replay_record)
        elif self.session is not None:
            self.start_session(self.session)

    def on_splash_screen_painted(self, _: SplashScreen.Painted) -> None:
        self.launcher.painted()

    def on_start_screen_open(self, message: StartScreen.Open) -> None:
        self.launcher.open(message)

    def on_start_screen_cards_changed(self, message: StartScreen.CardsChanged) -> None:
        self.launcher.cards_changed(message)

    # ---------------------------------------------------------------- a match

    def start_session(self, session: MatchSession) -> None:
        from c1k_tui.screens.versus import attach, screen_for

        self.keys.dismissed()       # (a second press of the key that started the match must not reach it)
        self.pacing = False         # (the last match's pacing stopped with its screen)
        self.match.start(session)
        self.versus = attach(self, session)
        screen = screen_for(session, self._title_extra())
        if self.match_screen is not None:
            while len(self.screen_stack) > 1:
                self.pop_screen()
        self.push_screen(screen)
        self.match_screen = screen
        if session.lesson is not None:
            screen.goal = str(session.lesson.get("goal", "")) + "  (F3: a solution · F2: the lessons)"
            self.call_after_refresh(self.check_lesson)
        self.call_after_refresh(self.present)

    def _title_extra(self) -> str:
        return self.match.title_extra(self.versus.title() if self.versus is not None else "")

    def refresh_view(self) -> None:
        if self.match_screen is None or self.session is None:
            return
        self.match_screen.view = self.match.view_for(self.match.seat)
        self.match_screen.quick_play = self.match.quick_play
        self.refresh_title()

    def refresh_title(self) -> None:
        from c1k_tui.screens.widgets import TitleBar

        if self.match_screen is not None:
            self.match_screen.query_one("#title", TitleBar).extra = self._title_extra()

    def present(self) -> None:
        """Show the players what comes next (`MatchFlow.next`): hand-off, banner, the table, a prompt, the end."""
        ms = self.match_screen
        if self.session is None or ms is None:
            return
        if self.game.is_terminal():
            self.refresh_view()
            self.check_lesson()
        elif self.versus is not None and self.versus.present():
            # an AI's move changed the human's table: a new epoch; watching two agents: one screen
            self.shown("watch" if self.versus.watch else "table", self.viewer)
            return
        nxt = self.match.next()
        if isinstance(nxt, flow.ShowGameOver):
            self.push_screen(GameOverScreen(nxt.summary, nxt.hint, nxt.lesson, save=self.match.save_as),
                             self._on_gameover)
            self.shown("gameover")
        elif isinstance(nxt, flow.ShowBanner):
            ms.clear_private()
            turn = nxt.turn
            self.push_screen(TurnScreen(turn.name, turn.turn, turn.player), lambda _: self._took(turn))
            self.shown("turn", turn.player)
        elif isinstance(nxt, flow.ShowHandOff):
            self._handoff(nxt, then=self._after_handoff)
        elif isinstance(nxt, flow.ShowTable):
            self.refresh_view()
            self.update_recap(nxt.viewer, nxt.switch)
            self.check_lesson()
            self.show_notices()
            # a new epoch (guarded) unless it is the same player's table after their own command (model/keys.py)
            self.shown("table", nxt.viewer)
            if nxt.prompt is not None:
                self._prompt(nxt.prompt)

    def _took(self, turn: YourTurn) -> None:
        self.match.took(turn)
        self.present()

    def _handoff(self, h: flow.ShowHandOff, then: Callable[[], None]) -> None:
        """The model's hand-off: the table hidden, the incoming player named, the public recap; once they take
        the keyboard, the recap again with their own private events."""
        assert self.match_screen is not None
        self.match_screen.clear_private()
        ho = h.handoff

        def after(_: Any) -> None:
            self.match.took(ho)
            if self.match_screen is not None:
                self.match_screen.show_recap(self.recap_for(ho.player, ho.public_since))
            then()

        self.push_screen(HandoffScreen(ho.name, f"p{ho.player + 1}", ho.what, ho.rule, ho.turn, ho.window,
                                       rich_text(h.public), ho.turn_start), after)
        self.shown(screen_of(ho), ho.player)

    def recap_for(self, player: int, since: int, upto: int | None = None) -> Text:
        narrow = self.match_screen is not None and self.match_screen.has_class("-narrow")
        return rich_text(self.match.recap_for(player, since, upto=upto, narrow=narrow))

    def update_recap(self, player: int, switch: bool) -> None:
        """The Recap tab (open hands, the learning flow): what happened since `player` last decided."""
        if self.match_screen is not None and player in (0, 1):
            self.match_screen.show_recap(self.recap_for(player, self.seen_upto[player]), switch=switch)

    def _after_handoff(self) -> None:
        self.refresh_view()
        self.show_notices()
        self.shown("table", self.viewer)      # the incoming player's table: a new epoch, not seen yet
        self.maybe_prompt()

    def asked(self, m: messages.KeyAsked) -> None:
        """A key's message its player saw the screen for (`GuardedApp.route_key_asked` drops the rest)."""
        if isinstance(m, messages.SendCommand):
            ms, before = self.match_screen, len(self.game.record) if self.session is not None else 0
            self.send(m.command)
            # a typed command that was not sent (refused, or a typing mistake) stays on the line for editing
            if (m.typed and ms is not None and ms is self.match_screen and self.session is not None
                    and len(self.game.record) == before and ms.status.startswith(("[b]✗", "[b]??"))):
                ms.keep_typed(m.command)
        elif isinstance(m, messages.AskPrompt):
            self.action_decision_prompt()
        elif isinstance(m, messages.PickMode):
            slot = m.card.type in ("unit", "relic")
            self._pick(self.match.mode_prompt(m.card, m.modes), "play", m.card.cid, m.cands, slot)
        elif isinstance(m, messages.PickAbility):
            self._pick(self.match.ability_prompt(m.cid, m.ns), "activate", m.cid, m.cands, False)

    def send(self, command: str) -> None:
        """A command from the keyboard, through the model (`MatchFlow.send`); then what it says comes next."""
        ms = self.match_screen
        if self.session is None or ms is None or self.pacing:
            return
        if self.versus is not None and self.versus.busy():
            ms.status = "[b]wait:[/b] the AI is deciding"
            return
        out = self.match.send(command)
        if out.sent:
            self.command_sent()             # keys wait for the next screen's paint (model/keys.py)
        if out.status is not None:
            ms.status = out.status
        if out.refusal_rule:
            ms.refusal_rule = out.refusal_rule
        if out.then == "concede":
            self.confirm_concede()
        elif out.then == "next":
            self.pace_then_present(out.since)
        elif out.then == "present":
            self.present()
        elif out.then == "mistyped":
            self.shown("table", self.viewer)
        else:
            if out.then in ("table", "answer"):
                self.check_lesson()         # (a lesson adds its hint to the engine's "why not?")
            self.refresh_view()
            if out.then == "table":
                self.shown("table", self.viewer)

    def pace_then_present(self, since: int) -> None:
        """Pacing: the windows the flow options passed through step visibly through the phase bar, then what
        comes next is shown. In the learning flow each window also joins the Recap tab as it is entered."""
        ms = self.match_screen
        plan = self.match.pace_plan(since) if ms is not None else None
        if ms is None or plan is None or not plan.stepping:
            self.present()
            return
        from c1k_tui.screens.widgets import PhaseBar

        bar = ms.query_one("#phases", PhaseBar)
        self.pacing = True
        actor = self.viewer

        def show(turn: int, index: int, n: int) -> None:
            bar.step_to(turn, index)
            if self.match.learning and actor in (0, 1) and self.match_screen is ms:
                ms.show_recap(self.recap_for(actor, since, upto=n + 1), switch=True)

        first, *rest = plan.steps
        show(first.turn, first.window, first.n)
        for st in rest:
            ms.set_timer(st.at_ms / 1000, lambda t=st.turn, x=st.window, m=st.n: show(t, x, m))

        def done() -> None:
            self.pacing = False
            self.present()

        ms.set_timer(plan.done_ms / 1000, done)     # (the screen's timers: none fires once it is torn down)

    # ---------------------------------------------------------------- prompts

    def maybe_prompt(self) -> None:
        ask = self.match.prompt() if self.match_screen is not None else None
        if ask is not None:
            self._prompt(ask)

    def on_watch_screen_control(self, m: Any) -> None:
        """The watch screen's pause, step and pace keys (screens/versus.py `WatchScreen.Control`)."""
        if self.versus is not None:
            self.versus.control(m.what, m.d)

    def action_decision_prompt(self) -> None:
        ask = self.match.question()
        if ask is not None:
            self._prompt(ask)

    @on(messages.ShowHelp)
    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def _prompt(self, ask: flow.OpenPrompt) -> None:
        self.match.prompt_open = True
        self.shown("prompt", self.viewer)

        def done(result: str | None) -> None:
            self.match.prompt_open = False
            if result:
                self.send(result)
            elif self.match_screen is not None:
                self.match_screen.status = "press i to answer the prompt"

        self.push_screen(MultiChoiceModal(ask.title, list(ask.options), ask.max_choices, ask.can_decline, ask.rule)
                         if ask.max_choices > 1 else PromptModal(ask.title, ask.help, list(ask.rows), ask.rule), done)

    def _pick(self, ask: flow.OpenPrompt, kind: str, cid: int, cands: list[Action], needs_slot: bool) -> None:
        """Which branch or ability; then the match screen goes on picking (targets, a slot)."""

        def done(result: str | None) -> None:
            if result and self.match_screen is not None:
                self.match_screen.picked(kind, cid, cands, int(result), needs_slot)

        self.push_screen(PromptModal(ask.title, ask.help, list(ask.rows), ask.rule), done)

    # ---------------------------------------------------------------- undo, concede, options

    def action_undo(self) -> None:
        if self.session is None or self.match_screen is None:
            return
        if self.versus is not None:
            self.versus.undo()
            return
        self._then(self.match.undo())

    def _then(self, step: flow.Status | flow.AskConsent) -> None:
        """A model's answer to undo or options: a status line (then what comes next), or one player asks the
        other — after a hand-off if the keyboard changes hands."""
        if isinstance(step, flow.Status):
            if step.text and self.match_screen is not None:
                self.match_screen.status = step.text
            if step.present:
                self.present()
            return

        def ask() -> None:
            if step.refresh:
                self.refresh_view()        # the other player's own view behind the question
            self.push_screen(ConfirmModal(step.title, step.body, step.yes, step.no),
                             lambda yes: self._then(self.match.consent(bool(yes))))

        if step.handoff is None:
            ask()
        else:
            self._handoff(step.handoff, then=ask)

    def confirm_concede(self) -> None:
        s = self.session
        if s is None:
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.match.concede()
                self.present()

        self.push_screen(ConfirmModal("Concede?", f"{self.pname(s.game.current_player())} concedes the match.",
                                      "Concede", "Keep playing"), done)

    def action_options(self) -> None:
        s, m = self.session, self.match
        if s is None:
            return
        holder = self.viewer if not s.open_hands and self.viewer in (0, 1) else None

        def done(res: OptionsResult | None) -> None:
            if res is not None:
                self._then(m.options_chosen(res.fixed_view, res.pace_ms, res.quick_play, res.flow, holder))

        self.push_screen(OptionsModal(s.flow, (self.pname(0), self.pname(1)), m.fixed_view, s.open_hands,
                                      (m.prefs[0].quick_play, m.prefs[1].quick_play),
                                      (m.prefs[0].pace_ms, m.prefs[1].pace_ms), hidden=not s.open_hands,
                                      holder=holder), done)

    # ---------------------------------------------------------------- the log, the graveyards

    def action_full_log(self) -> None:
        from c1k_tui.screens.log_screen import LogScreen

        if self.match_screen is not None and self.match_screen.view is not None:
            self.push_screen(LogScreen(*self.match.full_log(self.match_screen.view)))

    def action_graveyards(self) -> None:
        if self.session is not None:
            self.push_screen(GraveyardModal(rich_text(self.match.graveyards())))

    # ---------------------------------------------------------------- lessons, game over, replay

    def check_lesson(self) -> None:
        """The lesson panel (`MatchFlow.lesson_check`) on the match screen; a lesson completed: a notice."""
        ms = self.match_screen
        got = self.match.lesson_check() if ms is not None else None
        if got is not None and ms is not None:
            ms.show_lesson(got)        # (no toast over the lesson tab at 80×24: the status line says it)
            if got.completed and ms.has_class("-wide") and ms.has_class("-tall"):
                self.notify("Lesson complete!", title=got.title)

    def _on_gameover(self, choice: str | None) -> None:
        s = self.session
        assert s is not None
        if choice == "quit" or choice is None:
            self.exit()
        elif choice == "rematch":
            self.start_session(rematch(s))
        elif choice == "new":
            self._leave_match()
            self.launcher.show_lessons() if s.lesson is not None else self.launcher.show_start()
        elif choice == "review":
            # the replay, over this screen: Esc (or q) comes back to the game-over screen
            from c1k_tui.screens.replay import ReplayScreen

            self.match.gameover_shown = False
            self.push_screen(ReplayScreen(s.record(), self.match.card_db(), back=True), lambda _: self.present())

    def _leave_match(self) -> None:
        self.match_screen = None
        self.pacing = False         # (its pacing timers stop with the match screen)
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def start_replay(self, record: MatchRecord) -> None:
        from c1k_tui.screens.replay import ReplayScreen

        self._leave_match()
        self.push_screen(ReplayScreen(record, self.match.card_db()))

    def key_f3(self) -> None:
        """In a lesson: show a solution (the lesson scenario's own steps)."""
        if (t := self.match.solution()) is not None:
            self.push_screen(GraveyardModal(rich_text(t)))

    def key_f2(self) -> None:
        if self.session is not None and self.session.lesson is not None:
            self._leave_match()
            self.launcher.show_lessons()


__all__ = ["C1KApp"]
