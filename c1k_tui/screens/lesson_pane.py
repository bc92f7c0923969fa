"""The lesson pane: a lesson's own place on the match screen (a "Lesson" tab beside Rules, Log and
Recap, at 120×40 and at 80×24 alike).

It shows, most pressing first: the step to do now (or the question to answer), the last hint (a refusal's
"why not?" with the lesson's hint, or the coaching once the lesson can no longer be completed), the goal,
the goal's steps met (✓) and to come (·), and the debrief when it is done — scrolled into view then. The
text comes from `c1k_tui.model.lessons.status` (a LessonStatus); this widget only lays it out.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from c1k_tui.screens.widgets import RulesPanel

#: the first words of the debrief's heading: the row the pane scrolls to when the lesson is complete
DONE = "✓ LESSON COMPLETE"


def pane_text(st: Any) -> Text:
    """A LessonStatus as the pane's text."""
    t = Text()
    if st.complete:
        t.append("NOW ", style="bold reverse")
        t.append(" the lesson is complete — F2: the next lesson\n")
    elif st.current:
        t.append("NOW ", style="bold reverse")
        t.append(f" {st.current}\n")
    if st.hint:
        t.append("HINT", style="bold reverse" if not st.lost else "bold reverse red")
        t.append(f" {st.hint}\n")
    t.append("GOAL", style="bold reverse")
    t.append(f" {st.goal}\n")
    for step in st.steps:
        t.append(f"  {step}\n", style="green" if step.startswith("✓") else "")
    if st.complete:
        t.append(f"\n{DONE}\n", style="bold reverse green")
        t.append(st.debrief + "\n")
    t.append("F3: a solution · F2: the lessons · u: undo · R: the rule book", style="dim")
    return t


class LessonPane(RulesPanel):
    """The lesson's goal, current step, last hint and debrief; PgUp/PgDn scroll it."""

    DEFAULT_CSS = "LessonPane { padding: 0 1; height: 1fr; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.status: Any = None
        self._anchor = ""

    def show(self, st: Any) -> None:
        """Show a LessonStatus; scroll to what changed: the top (the step, the hint) — or, once the lesson
        is complete, its debrief."""
        first_done = st.complete and not (self.status is not None and self.status.complete)
        self.status = st
        self._anchor = DONE if first_done else ""
        if not st.complete or first_done:
            self.update(pane_text(st))
        else:
            self.text = pane_text(st)       # (complete already: keep the learner's scroll position)

    def render(self) -> Text:
        if self._anchor:
            from rich.console import Console

            width = max(10, (self.size.width or 38))
            console = Console(width=width, no_color=False, legacy_windows=False)
            lines = list(self.text.wrap(console, width))
            at = next((i for i, line in enumerate(lines) if self._anchor in line.plain), 0)
            self._anchor = ""
            # one row above it: a scrolled panel's first row says how many rows are above (PgUp)
            self.set_reactive(LessonPane.at, max(0, at - 1))
        return super().render()
