"""Asking for a file path, and confirming before a file is overwritten: the deck builder's open and save,
the Lab's save. Nothing is written here; `ask_save_path` only decides the path with the user."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from c1k_tui.screens.confirm_modal import ConfirmModal
from c1k_tui.screens.controls import KeysFooter


class AskPathModal(ModalScreen[str | None]):
    """One line: a path, Enter to accept, Esc to go back (None)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, default: str = "", hint: str = "") -> None:
        super().__init__()
        self.title_text, self.default, self.hint = title, default, hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="ask-path"):
            yield Static(Text(self.title_text, style="bold"))
            if self.hint:
                yield Static(self.hint, classes="dim")
            yield Input(value=self.default, id="ask-path-input", placeholder="a file path")
            yield Static("", id="ask-path-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#ask-path-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self.query_one("#ask-path-error", Static).update(Text("✗ type a path (Esc goes back)", style="bold red"))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


def ask_save_path(screen: Screen[Any], title: str, default: str, then: Callable[[Path], None],
                  hint: str = "") -> None:
    """Ask for a path (prefilled with `default`); if a file is there, ask before overwriting it; then call
    `then(path)`. Esc at either question saves nothing."""

    def confirmed(path: Path) -> Callable[[bool | None], None]:
        def go(yes: bool | None) -> None:
            if yes:
                then(path)
        return go

    def got(text: str | None) -> None:
        if text is None:
            return
        path = Path(text).expanduser()
        from engine.safeio import place_refusal

        if path.exists() and place_refusal(path) is None:      # a FIFO, device or link: refused, never asked
            screen.app.push_screen(ConfirmModal("Overwrite?", f"{path} exists. Replace it?", "Overwrite", "Keep it"),
                                   confirmed(path))
        else:
            then(path)

    screen.app.push_screen(AskPathModal(title, default, hint), got)


__all__ = ["AskPathModal", "ask_save_path"]
