"""A read-only modal of text (the graveyards, a lesson's solution)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import (
    Static,
)

from c1k_tui.screens.controls import KeysFooter


class GraveyardModal(ModalScreen[None]):
    BINDINGS = [Binding("escape,g,q,enter", "close", "close")]

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(self.text)
        yield KeysFooter()

    def action_close(self) -> None:
        self.dismiss(None)
