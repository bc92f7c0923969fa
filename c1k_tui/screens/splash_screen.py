"""The first frame: shown while the rules engine loads."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (
    Static,
)

from c1k_tui.screens.controls import KeysFooter


class SplashScreen(Screen[None]):
    """The first frame: the match about to start, shown while the rules engine loads in the background.
    Enter (or any key the player presses meanwhile) waits for it; nothing private is shown."""

    AUTO_FOCUS = ""
    BINDINGS = [Binding("enter", "go", "begin")]

    class Painted(Message):
        """The splash is on the terminal: the App may start loading the engine."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines
        self.ready = False
        self.wanted = False
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            yield Static(Text("Council of 1000", style="bold"), id="handoff-title")
            for line in self.lines:
                yield Static(line)
            yield Static("")
            yield Static(Text("loading the rules engine…", style="dim"), id="splash-state")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.call_after_refresh(lambda: self.post_message(self.Painted()))

    def set_ready(self) -> None:
        self.ready = True
        self.query_one("#splash-state", Static).update(Text.assemble(("press Enter", "bold reverse"), " to begin"))
        if self.wanted:
            self.dismiss(None)

    def set_error(self, error: str) -> None:
        self.error = error
        self.query_one("#splash-state", Static).update(Text(f"{error}\n\npress Enter to quit", style="bold red"))

    def action_go(self) -> None:
        if self.error:
            self.app.exit(return_code=2, message=self.error)
        elif self.ready:
            self.dismiss(None)
        else:
            self.wanted = True
