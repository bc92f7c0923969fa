"""The lessons screen: the course, and a practice match against the AI."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import (
    OptionList,
    Static,
)
from textual.widgets.option_list import Option

from c1k_tui.model.builders import LessonInfo
from c1k_tui.screens.controls import KeysFooter

#: the lessons screen's last entry: a whole match against the AI in the learning flow
VS_AI = "vs-ai"


class LessonsScreen(Screen[LessonInfo | str | None]):
    BINDINGS = [Binding("escape,q", "close", "back")]

    def __init__(self, lessons: list[LessonInfo], done: set[str] | None = None,
                 flagged: set[str] | None = None) -> None:
        super().__init__()
        self.lessons = lessons
        self.done = done or set()
        self.flagged = flagged or set()     # completed only with a wrong answer taken back

    def compose(self) -> ComposeResult:
        legend = "  ✓* done after a wrong answer taken back" if self.flagged & self.done else ""
        yield Static(Text.assemble(("Lessons — one timing window or rule each. Enter starts one (full control, open "
                                    "hands).", "bold"), (legend, "yellow")), id="lessons-title")
        opts = []
        for i, les in enumerate(self.lessons):
            mark = ("✓*" if les.path.name in self.flagged else "✓ ") if les.path.name in self.done else "  "
            opts.append(Option(Text.assemble(mark, (f"{i + 1:>2}. {les.title}", "bold"), (f"  {les.rule}", "cyan"),
                                             "\n      ", (les.goal, "dim")), id=str(i)))
        opts.append(Option(Text.assemble(("  ▶ Practice match against the AI", "bold"), ("  learning flow", "cyan"),
                                         "\n      ", ("A whole match (Ironbound against the AI's Emberfall) "
                                                     "with every window shown as it is entered, each with its rule "
                                                     "id; practice mode: a refused action never moves priority.",
                                                     "dim")), id=VS_AI))
        yield OptionList(*opts, id="lesson-list")
        yield KeysFooter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == VS_AI:
            self.dismiss(VS_AI)
            return
        self.dismiss(self.lessons[int(event.option.id or 0)])

    def action_close(self) -> None:
        self.dismiss(None)
