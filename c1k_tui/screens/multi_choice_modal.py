"""A choice of several options (KW Flux order, choose up to N)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import (
    Static,
)

from c1k_tui.model.marks import Marks
from c1k_tui.screens.controls import Choice, ChoiceList, KeysFooter


class MultiChoiceModal(ModalScreen[str | None]):
    """A choice of exactly N options (e.g. discard down to hand size, the order of Flux triggers): ↑/↓
    move, Space marks, Enter confirms; a Decline row when the choice may be declined. The marks are kept
    in marking order (`model.marks.Marks`): an order choice numbers them 1st, 2nd… and sends that order."""

    BINDINGS = [Binding("escape", "close", "back to the board")]

    def __init__(self, title: str, labels: list[str], count: int, can_decline: bool, rule: str) -> None:
        super().__init__()
        self.marks = Marks.for_choice(labels, count, rule)
        self.title_text, self.can_decline = title, can_decline
        self.rule = self.marks.rule_shown or rule

    def compose(self) -> ComposeResult:
        m = self.marks
        rows = [Choice(str(i), m.row(i), "check") for i in range(1, len(m.labels) + 1)]
        rows.append(Choice("confirm", f"Confirm ({m.summary()})", "action"))
        if self.can_decline:
            rows.append(Choice("decline", "Decline", "action"))
        with Vertical(classes="dialog"):
            yield Static(Text.assemble((self.title_text, "bold"), (f"   {self.rule}", "cyan")))
            yield Static(m.hint())
            yield ChoiceList(rows, enter="confirm", id="multi")
            yield Static(m.summary(), id="multi-msg")
        yield KeysFooter()

    def on_mount(self) -> None:
        cl = self.query_one(ChoiceList)
        cl.focus()
        self.watch(cl, "version", self._marked, init=False)

    def _marked(self) -> None:
        cl = self.query_one(ChoiceList)
        m = self.marks
        m.sync({int(c.key) for c in cl.choices if c.kind == "check" and c.on})
        for c in cl.choices:
            if c.kind == "check":
                c.label = m.row(int(c.key))
            elif c.key == "confirm":
                c.label = f"Confirm ({m.summary()})"
        self.query_one("#multi-msg", Static).update(m.summary())
        cl.refresh()

    def on_choice_list_activated(self, event: ChoiceList.Activated) -> None:
        if event.key == "decline":
            self.dismiss("decline")
            return
        self._marked()
        why = self.marks.problem()
        if why:
            self.query_one("#multi-msg", Static).update(Text(why, style="bold"))
            return
        self.dismiss(self.marks.command())

    def action_close(self) -> None:
        self.dismiss(None)
