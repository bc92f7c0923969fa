"""A choice of several options (KW Flux order, choose up to N)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import (
    Footer,
    Static,
)

from c1k_tui.screens.controls import Choice, ChoiceList


class MultiChoiceModal(ModalScreen[str | None]):
    """A choice of exactly N options (e.g. discard down to hand size): ↑/↓ move, Space marks [✓], Enter
    confirms; a Decline row when the choice may be declined."""

    BINDINGS = [Binding("escape", "close", "back to the board")]

    def __init__(self, title: str, labels: list[str], count: int, can_decline: bool, rule: str) -> None:
        super().__init__()
        self.title_text, self.labels, self.count, self.can_decline, self.rule = title, labels, count, can_decline, rule

    def compose(self) -> ComposeResult:
        rows = [Choice(str(i + 1), f"{i + 1}. {lab}", "check") for i, lab in enumerate(self.labels)]
        rows.append(Choice("confirm", f"Confirm ({self.count} marked)", "action"))
        if self.can_decline:
            rows.append(Choice("decline", "Decline", "action"))
        with Vertical(classes="dialog"):
            yield Static(Text.assemble((self.title_text, "bold"), (f"   {self.rule}", "cyan")))
            yield Static(f"Mark exactly {self.count} with Space, then Enter.")
            yield ChoiceList(rows, enter="confirm", id="multi")
            yield Static(id="multi-msg")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(ChoiceList).focus()

    def on_choice_list_activated(self, event: ChoiceList.Activated) -> None:
        if event.key == "decline":
            self.dismiss("decline")
            return
        sel = [int(c.key) for c in self.query_one(ChoiceList).choices if c.kind == "check" and c.on]
        if len(sel) != self.count:
            self.query_one("#multi-msg", Static).update(f"marked {len(sel)}; mark exactly {self.count}")
            return
        self.dismiss("choose " + " ".join(str(x) for x in sel))

    def action_close(self) -> None:
        self.dismiss(None)
