"""The course of lessons in the app and on the command line: progress saved in C1K_HOME, the lesson panel
(goal, progress, the windows entered with their rule ids, hints, debrief), and the coverage table.

The lesson logic itself (the goal over typed events, hints, windows entered) is `engine/lessons.py`.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from c1k_tui.model.paths import lessons_dir, state_dir

if TYPE_CHECKING:
    from rich.console import Console

    from engine import CardDB, Game
    from engine.lessons import CoverageRow, Lesson

PROGRESS_NAME = "lessons.json"
#: how many windows the lesson panel shows (the most recent last)
PANEL_WINDOWS = 8


# -------------------------------------------------------------------- progress (C1K_HOME/lessons.json)


def progress_path() -> Path:
    return state_dir() / PROGRESS_NAME


def completed() -> set[str]:
    """The keys of the lessons completed (a missing or unreadable file is no progress)."""
    try:
        data = json.loads(progress_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    done = data.get("completed", []) if isinstance(data, dict) else []
    return {str(k) for k in done if isinstance(k, str)}


def mark_completed(key: str) -> None:
    """Record a completed lesson, atomically (a temporary file in the same folder, then a rename)."""
    done = completed() | {key}
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".lessons-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"completed": sorted(done)}, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def course(db: CardDB | None = None, folder: Path | None = None) -> list[Lesson]:
    from engine.lessons import load_course

    return load_course(folder or lessons_dir(), db)


def suggest_next(lessons: list[Lesson], done: set[str]) -> Lesson | None:
    """The first lesson of the course not completed yet."""
    return next((les for les in lessons if les.key not in done), None)


# -------------------------------------------------------------------- the lesson panel


@dataclass(frozen=True)
class LessonStatus:
    complete: bool
    panel: str          # what the lesson panel shows (plain text with simple markup)


_LOADED: dict[tuple[str, int], Lesson | None] = {}


def lesson_for(session_lesson: dict[str, Any], db: CardDB) -> Lesson | None:
    """The lesson a session plays (loaded once per file and card set); None for a scenario that is not a
    lesson file (it then plays as a plain scenario)."""
    from engine.lessons import LessonError, load_lesson

    key = (str(session_lesson.get("path", "")), id(db))
    if key not in _LOADED:
        try:
            _LOADED[key] = load_lesson(Path(key[0]), db)
        except (OSError, LessonError, ValueError):
            _LOADED[key] = None
    return _LOADED[key]


def status(lesson: Lesson, game: Game, since: int, refusal: tuple[str, str] | None = None) -> LessonStatus:
    """The lesson panel: goal, the goal's steps met (✓) and to come, the windows entered so far with their
    rule ids and what happened in each, the hint for a refusal, and the debrief once complete."""
    from engine.lessons import debrief, events_of, hint, progress, windows_entered

    p = progress(lesson, game, since)
    lines = [lesson.goal, ""]
    if not p.met:
        lines[1:1] = ["", lesson.briefing]
    lines += [f"✓ {m}" for m in p.met] + [f"· {t}" for t in p.todo]
    if not p.todo and p.failures:
        lines.append("· and: " + "; ".join(p.failures))
    visits = windows_entered(events_of(game), 0)   # the set-up's windows too: where the lesson starts
    if visits:
        lines += ["", "WINDOWS ENTERED"] + [v.line() for v in visits[-PANEL_WINDOWS:]]
    if refusal is not None and not p.complete:
        lines += ["", hint(lesson, game, refusal[0], refusal[1], since)]
    if p.complete:
        lines += ["", "✓ LESSON COMPLETE", debrief(lesson, game, since)]
    return LessonStatus(p.complete, "\n".join(lines))


# -------------------------------------------------------------------- coverage


def live_by_lesson(lessons: list[Lesson], candidates: tuple[str, ...] | None = None) -> dict[str, set[str]]:
    """For each lesson, the rule ids the app shows live while its scripted solution is played: after each
    command, the learning flow's text of the windows entered (`c1k_tui.model.recap.recap_for`, the text the
    app's Recap tab shows in the learning flow and in a lesson), searched for each candidate rule id — the
    ids on screen, not the ids the engine knows."""
    from c1k_tui.model.recap import recap_for
    from engine import IllegalAction, MalformedCommand
    from engine.lessons import C1K_SECTIONS, REALM_MODIFIERS, start

    ids = candidates or (*C1K_SECTIONS, *(r for _, r in REALM_MODIFIERS), "SEAT")
    out = {}
    for les in lessons:
        g, _ = start(les)
        seen: set[str] = set()
        for cmd in les.solution:
            if g.is_terminal():
                break
            before = len(g.events)
            try:
                g.apply_command(cmd)
            except (IllegalAction, MalformedCommand):
                pass
            p = g.current_player()
            text = recap_for(g, p if p in (0, 1) else 0, before, learning=True, open_hands=True, compact=True).plain
            seen |= ids_on_screen(text, ids)
        out[les.key] = seen
    return out


def ids_on_screen(text: str, ids: tuple[str, ...] | list[str]) -> set[str]:
    """The rule ids among `ids` that a text shows ("C1K 4" is not found in "C1K 4.3")."""
    import re

    return {rid for rid in ids if re.search(re.escape(rid) + r"(?!\.?\w)", text)}


def coverage_rows(lessons: list[Lesson] | None = None) -> tuple[list[CoverageRow], list[CoverageRow]]:
    """(the C1K sections, the Realm timing modifiers and Seats) × (text | lesson | shown live)."""
    from c1k_tui.model import rulesdoc
    from engine.lessons import C1K_SECTIONS, REALM_MODIFIERS, coverage

    lessons = lessons if lessons is not None else course()
    docs = [rid for rid, (_title, body) in rulesdoc.rules().items() if body.strip()]
    live = live_by_lesson(lessons)
    realm = [r for _, r in REALM_MODIFIERS] + ["SEAT"]
    return coverage(lessons, docs, live, C1K_SECTIONS), coverage(lessons, docs, live, realm)


def print_coverage(console: Console, lessons: list[Lesson] | None = None) -> bool:
    """Print the coverage table; True when every C1K section and Realm modifier has all three."""
    from rich.table import Table

    sections, realms = coverage_rows(lessons)
    ok = True
    for title, rows in (("C1K sections", sections), ("Realm timing modifiers and Seats", realms)):
        t = Table(title=title, title_justify="left", header_style="bold")
        t.add_column("rule")
        t.add_column("text (docs/rules.md)", justify="center")
        t.add_column("lesson")
        t.add_column("shown live", justify="center")
        for r in rows:
            t.add_row(r.section, "✓" if r.text else "✗ missing", ", ".join(_short(k) for k in r.lessons) or "✗ none",
                      "✓" if r.live else "✗ never")
            ok = ok and r.ok
        console.print(t)
    console.print("every section has text, a lesson and a live explanation" if ok else
                  "✗ some sections lack text, a lesson or a live explanation", style="bold" if ok else "bold red")
    return ok


def _short(key: str) -> str:
    return key.split("-", 1)[0]


def print_course(console: Console, lessons: list[Lesson] | None = None) -> None:
    """The course with completion marks and the suggested next lesson."""
    lessons = lessons if lessons is not None else course()
    done = completed()
    part = ""
    for i, les in enumerate(lessons, 1):
        if les.part != part:
            part = les.part
            console.print(f"\n[b]{part.upper()}[/b]")
        mark = "✓" if les.key in done else " "
        console.print(f" {mark} {i:>2}. {les.title} [cyan]\\[{les.rule}][/cyan]", highlight=False)
    nxt = suggest_next(lessons, done)
    n_done = sum(1 for les in lessons if les.key in done)
    console.print(f"\n{n_done} of {len(lessons)} completed."
                  + (f" Next: c1k learn {lessons.index(nxt) + 1}  ({nxt.title})" if nxt else " The course is done."),
                  highlight=False)
