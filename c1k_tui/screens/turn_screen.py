"""The "Turn 8 — Tomas's turn" banner (tui.md round 2): the player at the keyboard keeps it into their
own new turn, so the turn's start is shown before their table, and a key they were still pressing in the
last turn (a double Space) can't pass their Main Phase. Enter dismisses it; the App's key guard drops
keys pressed before it was seen for 0.5 s. It shows only public facts: whose turn, which turn."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from c1k_tui.model.names import possessive, seat_name
from c1k_tui.screens.controls import KeysFooter


class TurnScreen(Screen[None]):
    AUTO_FOCUS = ""
    BINDINGS = [Binding("enter", "go", "my turn")]

    def __init__(self, name: str, turn: int, seat: int = -1) -> None:
        super().__init__()
        self.player_name = seat_name(name, seat)
        self.turn = turn

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            # whose turn, by name (tui.md round 3): it reads as a turn banner, not one more hand-off
            yield Static(Text(f"Turn {self.turn} — {possessive(self.player_name)} turn", style="bold"),
                         id="handoff-title")
            yield Static(Text.assemble(("press Enter", "bold reverse"), " to see your table"), id="handoff-go")
        yield KeysFooter()

    def action_go(self) -> None:
        self.dismiss(None)


__all__ = ["TurnScreen"]
