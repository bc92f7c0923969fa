"""The "Turn 8 — your turn" interstitial (tui.md round 2): the player at the keyboard keeps it into their
own new turn, so the turn's start is shown before their table, and a key they were still pressing in the
last turn (a double Space) can't pass their Main Phase. Enter dismisses it; the App's key guard drops
keys pressed before it was seen for 0.5 s. It shows only public facts: whose turn, which turn."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static


class TurnScreen(Screen[None]):
    AUTO_FOCUS = ""
    BINDINGS = [Binding("enter", "go", "my turn")]

    def __init__(self, name: str, turn: int) -> None:
        super().__init__()
        self.player_name = name
        self.turn = turn

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            yield Static(Text(f"Turn {self.turn} — your turn, {self.player_name}", style="bold"),
                         id="handoff-title")
            yield Static(Text.assemble(("press Enter", "bold reverse"), " to see your table"), id="handoff-go")
        yield Footer()

    def action_go(self) -> None:
        self.dismiss(None)


__all__ = ["TurnScreen"]
