"""The hand-off screen: the keyboard changes hands; only public facts are shown."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Static,
)

from c1k_tui.model.names import seat_name
from c1k_tui.screens.controls import KeysFooter


class HandoffScreen(Screen[None]):
    """Opaque: shows only public facts — and the public recap of what happened since the incoming player
    last decided (the outgoing player reads it too; the private part waits on the next screen).
    Enter hands the screen to the next player — Enter only, and not in the first moments: Space passes
    priority on the table and Enter plays, so a double press there must not carry on through this screen
    and show the next player's hand to the one who just acted (rules.md §7a: hidden information)."""

    AUTO_FOCUS = ""
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]     # 80×24: the recap takes the rows left
    #: seconds after it appears during which Enter is taken for the tail of the outgoing player's keys
    #: (a double press, a key repeat) and ignored (tests set 0; tests/tui/test_handoff_guard.py checks it)
    GUARD_S = 0.5

    BINDINGS = [Binding("enter", "go", "show my screen"),
                Binding("up", "scroll(-1)", show=False), Binding("down", "scroll(1)", show=False),
                Binding("pageup", "page(-1)", show=False), Binding("pagedown", "page(1)", show=False),
                Binding("home", "page(-1000)", show=False), Binding("end", "page(1000)", show=False)]

    def __init__(self, name: str, player: str, what: str, rule: str, turn: int, window: str,
                 recap: Text | None = None, turn_start: bool = False) -> None:
        super().__init__()
        self.turn_start = turn_start   # the incoming player's turn begins: the title is the turn banner
        self.player_name = name
        self.lines = (name, player, what, rule, turn, window)
        self.shown_at = time.monotonic()   # (set again when it is shown)
        self.recap = recap

    def compose(self) -> ComposeResult:
        typed, player, what, rule, turn, window = self.lines
        name = seat_name(typed, int(player[1:]) - 1 if player[1:].isdigit() else -1)   # not "Pass to p1"
        with Vertical(id="handoff-box"):
            title = f"Turn {turn} — {name}'s turn · pass to {name} ({player})" if self.turn_start else \
                f"Pass to {name} ({player})"
            yield Static(Text(title, style="bold"), id="handoff-title")
            yield Static(Text.assemble(f"{name} to decide: ", (what, "bold"), f"   ({rule})"))
            yield Static(Text(f"Turn {turn} · {window}", style="dim"))
            # above the recap, so a long recap never pushes it off a small screen
            yield Static(Text.assemble(("press Enter", "bold reverse"), f" when {name} has the keyboard",
                                       ("  (↑/↓ PgUp/PgDn: the recap)" if self.recap is not None else "", "dim")),
                         id="handoff-go")
            if self.recap is not None:
                with VerticalScroll(id="handoff-recap"):
                    yield Static(self.recap)
        yield KeysFooter()

    def action_scroll(self, d: int) -> None:
        for w in self.query("#handoff-recap"):
            w.release_anchor()
            w.scroll_relative(y=d, animate=False, immediate=True)

    def action_page(self, d: int) -> None:
        """PgUp/PgDn: a page of the recap (one row kept for context); Home/End: its ends."""
        for w in self.query("#handoff-recap"):
            w.release_anchor()
            w.scroll_relative(y=d * max(1, w.scrollable_content_region.height - 1), animate=False,
                              immediate=True)

    def on_mount(self) -> None:
        self.app.clear_notifications()
        self.shown_at = time.monotonic()
        # the recap opens at its newest lines (what just happened), and stays there as it is laid out;
        # ↑/PgUp for the earlier ones
        for w in self.query("#handoff-recap"):
            w.anchor()

    def action_go(self) -> None:
        if time.monotonic() - self.shown_at < self.GUARD_S:
            return   # the outgoing player's own key, still arriving: the screen stays
        self.dismiss(None)
