"""A question with one answer to pick (an Interrupt, a choice, a mode, an ability)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import (
    OptionList,
    Static,
)
from textual.widgets.option_list import Option

from c1k_tui.screens.controls import KeysFooter


class PromptModal(ModalScreen[str | None]):
    """A list of answers (Interrupts, Thread modes, abilities, a single choice); returns the command."""

    BINDINGS = [Binding("escape", "close", "back to the board")]

    def __init__(self, title: str, body: str, options: list[tuple[str, str]], rule: str = "") -> None:
        super().__init__()
        self.title_text, self.body, self.options, self.rule = title, body, options, rule

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text.assemble((self.title_text, "bold"), (f"   {self.rule}" if self.rule else "", "cyan")))
            if self.body:
                yield Static(self.body)
            yield OptionList(*[Option(label, id=str(i)) for i, (label, _) in enumerate(self.options)],
                             id="prompt-options")
        yield KeysFooter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.options[int(event.option.id or 0)][1])

    def action_close(self) -> None:
        self.dismiss(None)
