"""The game-over screen: the outcome, the summary, save/rematch/new/review/quit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Input,
    Static,
)

from c1k_tui.model.safetext import escape_text
from c1k_tui.model.summary import MatchSummary
from c1k_tui.screens.controls import KeysFooter


def _cannot_save(path: Path) -> None:
    raise OSError(0, "this match has no record to save")


class GameOverScreen(Screen[str]):
    """The outcome and a summary; save the record, rematch, new match, review, quit."""

    AUTO_FOCUS = ""

    BINDINGS = [Binding("r", "choose('rematch')", "rematch"), Binding("n", "choose('new')", "new match"),
                Binding("v", "choose('review')", "review (replay)"), Binding("s", "save", "save record"),
                Binding("q", "choose('quit')", "quit"), Binding("escape", "leave_field", "leave the field"),
                Binding("left,up", "app.focus_previous", show=False),
                Binding("right,down", "app.focus_next", show=False)]

    def __init__(self, summary: MatchSummary, save_hint: str, lesson: bool = False,
                 save: Callable[[Path], None] | None = None) -> None:
        super().__init__()
        self.summary = summary
        self.save = save or _cannot_save      # writes the match record to a path (the App's)
        self.save_hint = save_hint
        self.lesson = lesson

    def compose(self) -> ComposeResult:
        s = self.summary
        t = Text()
        t.append("MATCH OVER\n", style="bold reverse")
        t.append(f"{s.outcome}\n\n", style="bold")
        t.append(f"turns: {s.turns} · commands: {s.commands}")
        if s.seed is not None:
            t.append(f" · seed: {s.seed}")
        t.append("\n\n")
        w = max(6, *(len(n) for n in s.players))
        # the damage each player's cards *dealt* (the loser's 0 is damage dealt, not taken)
        t.append(f"{'':<{w}}  {'life':>4}  {'dealt to Champions':>18}  {'dealt to units':>14}  "
                 f"{'cards played':>12}\n", style="bold")
        for i, name in enumerate(s.players):
            t.append(f"{name:<{w}}  {s.life[i]:>4}  {s.to_champions[i]:>18}  {s.to_units[i]:>14}  "
                     f"{len(s.played[i]):>12}\n")
        for i, name in enumerate(s.players):
            if s.played[i]:
                t.append(f"\n{name} played: ", style="bold")
                t.append(", ".join(s.played[i]) + "\n")
        if s.damage:
            t.append("\ndamage by source\n", style="bold")
            for src, n in sorted(s.damage.items(), key=lambda kv: -kv[1])[:12]:
                t.append(f"  {n:>3}  {src}\n")
        with VerticalScroll(id="gameover-box"):
            yield Static(t)
            yield Static(self.save_hint, classes="dim")
            yield Static("s: save the record as (type a path, Enter) — in the field every key types; Esc leaves it",
                         classes="dim")
            with Horizontal(classes="save-row"):
                yield Input(placeholder="e.g. my-record.json", id="save-path")
            with Horizontal(classes="buttons"):
                yield Button("Rematch (r)", id="rematch", variant="primary")
                yield Button("New match (n)", id="new")
                yield Button("Review (v)", id="review")
                yield Button("Quit (q)", id="quit")
            yield Static(id="save-msg")
        yield KeysFooter()

    def on_mount(self) -> None:
        # the keys first: the save field takes the focus only on `s` (a hotkey meant for the screen must
        # never become a file name: r typed into it, then Enter, saved a file named "r"); no button has
        # it either, so a late Enter from the last move of the match does nothing here
        self.set_focus(None)
        self.query_one("#gameover-box", VerticalScroll).scroll_home(animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def _typing(self) -> bool:
        return isinstance(self.focused, Input)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # hotkeys never fire while the save field has the focus (its letters are typed into it)
        if action in ("choose", "save") and self._typing():
            return False
        return True

    def action_leave_field(self) -> None:
        if self._typing():
            self.query_one("#rematch", Button).focus()

    def action_choose(self, what: str) -> None:
        if self._typing():
            return
        self.dismiss(what)

    def action_save(self) -> None:
        self.query_one("#save-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from engine.record import WouldReplace, allow_replace

        path = event.value.strip()
        if not path:
            return
        target = Path(path).expanduser()
        if getattr(self, "_confirm", None) == target:        # asked: Enter again on the same file replaces it
            allow_replace(target)
        self._confirm: Path | None = None
        try:
            self.save(target)
            self.query_one("#save-msg", Static).update(f"saved to {escape_text(path)}")
        except WouldReplace:
            self._confirm = target
            self.query_one("#save-msg", Static).update(
                f"{escape_text(path)} exists and is not a match record: Enter again to replace it, or type another file")
            return
        except OSError as err:
            self.query_one("#save-msg", Static).update(f"could not save: {escape_text(err.strerror or str(err))}")
            return
        self.query_one("#rematch", Button).focus()
