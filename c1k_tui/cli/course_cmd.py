"""`c1k learn --list` and `c1k learn --coverage` on the terminal: the course and the coverage table as Rich
prints them, from the rows `c1k_tui/model/lessons.py` computes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from c1k_tui.model import lessons as course

if TYPE_CHECKING:
    from rich.console import Console

    from engine.lessons import Lesson

__all__ = ["print_course", "print_coverage"]


def print_coverage(console: Console, lessons: list[Lesson] | None = None) -> bool:
    """Print the coverage table; True when every row has text, a lesson that requires it and a live
    explanation."""
    from rich.table import Table

    rows = course.coverage_rows(lessons)
    ok = True
    groups = list(dict.fromkeys(r.group for r in rows))
    for title in groups:
        t = Table(title=title, title_justify="left", header_style="bold")
        t.add_column("rule", ratio=3)
        t.add_column("text", justify="center")
        t.add_column("lessons whose goal requires it", ratio=2)
        t.add_column("live", justify="center")
        for r in rows:
            if r.group != title:
                continue
            t.add_row(r.section, "✓" if r.text else "✗ missing", ", ".join(course.short_key(k) for k in r.lessons) or "✗ none",
                      "✓" if r.live else "✗ never")
            ok = ok and r.ok
        console.print(t)
    console.print("text: its section in docs/rules.md · live: its rule id shown in the learning flow while "
                  "such a lesson's solution plays", style="dim")
    console.print("every row has text, a lesson whose goal requires it, and a live explanation" if ok else
                  "✗ some rows lack text, a lesson that requires them, or a live explanation",
                  style="bold" if ok else "bold red")
    return ok


def print_course(console: Console, lessons: list[Lesson] | None = None) -> None:
    """The course with completion marks and the suggested next lesson."""
    lessons = lessons if lessons is not None else course.course()
    done, note = course.progress()
    flagged = {k for k, n in course.wrong_answers().items() if n > 0}
    if note:
        from rich.text import Text

        console.print(Text(f"note: {note}", style="yellow"), soft_wrap=True)    # (a path is never broken)
    part = ""
    for i, les in enumerate(lessons, 1):
        if les.part != part:
            part = les.part
            console.print(f"\n[b]{part.upper()}[/b]")
        mark = ("✓*" if les.key in flagged else "✓ ") if les.key in done else "  "
        console.print(f" {mark}{i:>2}. {les.title} [cyan]\\[{les.rule}][/cyan]", highlight=False)
    nxt = course.suggest_next(lessons, done)
    n_done = sum(1 for les in lessons if les.key in done)
    if flagged & done:
        console.print("\n ✓* completed after a wrong answer taken back: done again with right answers only, it "
                      "loses the *", highlight=False)
    console.print(f"\n{n_done} of {len(lessons)} completed."
                  + (f" Next: c1k learn {lessons.index(nxt) + 1}  ({nxt.title})" if nxt else " The course is done."),
                  highlight=False)
