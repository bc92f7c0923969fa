"""The course of lessons in the app and on the command line: progress saved in the user data folder, the lesson panel
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

from c1k_tui.model.paths import data_dir, lessons_dir, moved_in

if TYPE_CHECKING:
    from rich.console import Console

    from engine import CardDB, Game
    from engine.lessons import CoverageRow, Lesson

PROGRESS_NAME = "lessons.json"
#: how many windows the lesson panel shows (the most recent last)
PANEL_WINDOWS = 8


# -------------------------------------------------------------------- progress (lessons.json in data_dir())


def progress_path() -> Path:
    return moved_in(data_dir() / PROGRESS_NAME)


def completed() -> set[str]:
    """The keys of the lessons completed (a missing or broken file is no progress: `progress_notice`)."""
    return progress()[0]


def progress() -> tuple[set[str], str]:
    """(the keys of the lessons completed, a notice if lessons.json is broken: it names the file and the
    key, and it was kept as lessons.json.broken)."""
    from c1k_tui.model.settings import check_progress, read_settings

    data, err = read_settings(progress_path(), check_progress, "the lessons completed")
    done = data.get("completed", []) if isinstance(data, dict) else []
    return {str(k) for k in done if isinstance(k, str)}, err


def wrong_answers() -> dict[str, int]:
    """For each lesson completed since wrong answers were recorded: the fewest wrong answers taken back in
    a completion (0: done without one). A lesson completed before that has no entry."""
    from c1k_tui.model.settings import check_progress, read_settings

    data, _ = read_settings(progress_path(), check_progress, "the lessons completed")
    raw = data.get("wrong_answers", {}) if isinstance(data, dict) else {}
    return {str(k): int(v) for k, v in raw.items() if type(v) is int} if isinstance(raw, dict) else {}


def mark_completed(key: str, wrong: int = 0) -> None:
    """Record a completed lesson and how many wrong answers were taken back on the way (the fewest of its
    completions is kept), atomically (a temporary file in the same folder, then a rename)."""
    done = completed() | {key}
    counts = wrong_answers()
    counts[key] = min(wrong, counts.get(key, wrong))
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".lessons-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"completed": sorted(done), "wrong_answers": dict(sorted(counts.items()))}, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def taken_back_of(session_lesson: dict[str, Any]) -> list[tuple[str, str]]:
    """The wrong answers a lesson's session took back so far: (question, answer) each."""
    raw = session_lesson.get("taken_back", [])
    return [(str(x[0]), str(x[1])) for x in raw if isinstance(x, list) and len(x) == 2] \
        if isinstance(raw, list) else []


def wrong_taken_back(lesson: Lesson, since: int, game: Game, answers: list[tuple[int, int, int, str]],
                     back_to: Game, kept: list[tuple[int, int, int, str]]) -> tuple[str, str] | None:
    """The wrong answer (question, answer) that going back from (`game`, `answers`) to (`back_to`, `kept`)
    takes back, or None."""
    from engine.lessons import Answer, progress

    before = progress(lesson, game, since, [Answer(*a) for a in answers])
    if not before.wrong_answer:
        return None
    after = progress(lesson, back_to, since, [Answer(*a) for a in kept])
    if (after.wrong_to, after.wrong_answer) == (before.wrong_to, before.wrong_answer):
        return None
    return before.wrong_to, before.wrong_answer


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
    goal: str = ""
    current: str = ""   # the step to do now (or its question), "" once complete
    hint: str = ""      # the last hint (a refusal's why-not and the lesson's hint) or the coaching
    debrief: str = ""   # once complete
    lost: bool = False  # the lesson can no longer be completed (the coaching says why)
    wrong_answer: str = ""  # the wrong answer that lost it (`u` takes it back)
    steps: tuple[str, ...] = ()


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


def status(lesson: Lesson, game: Game, since: int, refusal: tuple[str, str] | None = None,
           answers: list[tuple[int, int, int, str]] | None = None,
           taken_back: list[tuple[str, str]] | None = None) -> LessonStatus:
    """The lesson panel: goal, the goal's steps met (✓) and to come, the question to answer, the windows
    entered so far with their rule ids and what happened in each, the hint for a refusal, the coaching
    once it can no longer be completed, and the debrief once complete."""
    from engine.lessons import Answer, coaching, debrief, events_of, hint, progress, windows_entered

    given = [Answer(*a) for a in answers or []]
    p = progress(lesson, game, since, given)
    lines = [lesson.goal, ""]
    if not p.met:
        lines[1:1] = ["", lesson.briefing]
    steps = tuple(f"✓ {m}" for m in p.met) + shown_todo(lesson, len(p.met), p.todo)
    lines += list(steps)
    current = "" if p.lost else p.question or (f"next: {p.todo[0]}" if p.todo else "")   # (lost: the coaching)
    if p.question:
        lines += ["", p.question]
    if not p.todo and p.failures:
        lines.append("· and: " + "; ".join(p.failures))
    visits = windows_entered(events_of(game), 0)   # the set-up's windows too: where the lesson starts
    if visits:
        lines += ["", "WINDOWS ENTERED"] + fold_lines(visits[-PANEL_WINDOWS:])
    said = ""
    if p.lost:
        said = coaching(p)
    elif refusal is not None and not p.complete:
        said = hint(lesson, game, refusal[0], refusal[1], since, given)
    if said:
        lines += ["", said]
    told = ""
    if p.complete:
        told = debrief(lesson, game, since, given, taken_back or ())
        lines += ["", "✓ LESSON COMPLETE", told]
    return LessonStatus(p.complete, "\n".join(lines), goal=lesson.goal, current=current, hint=said, debrief=told,
                        lost=bool(p.lost), steps=steps, wrong_answer=p.wrong_answer)


def shown_solution(lesson: Lesson, game: Game, since: int,
                   answers: list[tuple[int, int, int, str]] | None = None) -> list[str]:
    """The lesson's solution as F3 / `solution` show it: its commands, and its answers only to the questions
    already answered right (the others read `answer …`: asking for a solution shows the way, not the
    answer to a question still open)."""
    from engine.lessons import Answer, answer_of, progress

    p = progress(lesson, game, since, [Answer(*a) for a in answers or []])
    right = sum(1 for c in lesson.checks[:len(p.met)] if c.is_question)
    out: list[str] = []
    for cmd in lesson.solution:
        if answer_of(cmd) is not None:
            right -= 1
            if right < 0:
                cmd = "answer …  (its answer is shown once you have answered it)"
        out.append(cmd)
    return out


def shown_todo(lesson: Lesson, met: int, todo: tuple[str, ...]) -> tuple[str, ...]:
    """The goal's steps to come as the panel lists them: up to the next question still to answer; the steps
    after it are not shown before it is answered (they would answer it)."""
    ask = next((i for i, c in enumerate(lesson.checks[met:]) if c.is_question), None)
    if ask is None or ask + 1 >= len(todo):
        return tuple(f"· {t}" for t in todo)
    hidden = len(todo) - ask - 1
    return tuple(f"· {t}" for t in todo[:ask + 1]) + (f"· … {hidden} more step{'s' if hidden > 1 else ''}, shown "
                                                       f"once you answer",)


def fold_lines(visits: list[Any]) -> list[str]:
    """The windows entered, one line each, except that windows in a row where nothing happened fold into
    one line ("T3 draw.start, influence.start: nothing happened")."""
    out: list[str] = []
    quiet: list[Any] = []

    def flush() -> None:
        if not quiet:
            return
        if len(quiet) == 1:
            out.append(quiet[0].line())
        else:
            turns = sorted({v.turn for v in quiet})
            head = f"T{turns[0]}" if len(turns) == 1 else f"T{turns[0]}–T{turns[-1]}"
            out.append(f"{head} {', '.join(v.window for v in quiet)}: nothing happened")
        quiet.clear()

    for v in visits:
        if v.happened:
            flush()
            out.append(v.line())
        else:
            quiet.append(v)
    flush()
    return out


# -------------------------------------------------------------------- coverage


def live_by_lesson(lessons: list[Lesson], candidates: tuple[str, ...] | None = None) -> dict[str, set[str]]:
    """For each lesson, the rule ids the app shows live while its scripted solution is played: after each
    command, the learning flow's text of the windows entered (`c1k_tui.model.recap.recap_for`, the text the
    app's Recap tab shows in the learning flow and in a lesson), searched for each candidate rule id — the
    ids on screen, not the ids the engine knows."""
    from c1k_tui.model.recap import recap_for
    from engine import IllegalAction, MalformedCommand
    from engine.lessons import answer_of, coverage_table, start

    ids = candidates or tuple(dict.fromkeys(s for r in coverage_table() for s in r.shown))
    out = {}
    for les in lessons:
        g, _ = start(les)
        seen: set[str] = set()
        for cmd in les.solution:
            if g.is_terminal():
                break
            if answer_of(cmd) is not None:
                continue
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


def coverage_rows(lessons: list[Lesson] | None = None) -> list[CoverageRow]:
    """Every coverage row (C1K sections, Realm timing modifiers, speeds and permissions, action steps,
    keywords, Seats) × (text | a lesson whose goal requires it | shown live)."""
    from c1k_tui.model import rulesdoc
    from engine.lessons import coverage

    lessons = lessons if lessons is not None else course()
    docs = [rid for rid, (_title, body) in rulesdoc.rules().items() if body.strip()]
    return coverage(lessons, docs, live_by_lesson(lessons))


def print_coverage(console: Console, lessons: list[Lesson] | None = None) -> bool:
    """Print the coverage table; True when every row has text, a lesson that requires it and a live
    explanation."""
    from rich.table import Table

    rows = coverage_rows(lessons)
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
            t.add_row(r.section, "✓" if r.text else "✗ missing", ", ".join(_short(k) for k in r.lessons) or "✗ none",
                      "✓" if r.live else "✗ never")
            ok = ok and r.ok
        console.print(t)
    console.print("text: its section in docs/rules.md · live: its rule id shown in the learning flow while "
                  "such a lesson's solution plays", style="dim")
    console.print("every row has text, a lesson whose goal requires it, and a live explanation" if ok else
                  "✗ some rows lack text, a lesson that requires them, or a live explanation",
                  style="bold" if ok else "bold red")
    return ok


def _short(key: str) -> str:
    return key.split("-", 1)[0]


def print_course(console: Console, lessons: list[Lesson] | None = None) -> None:
    """The course with completion marks and the suggested next lesson."""
    lessons = lessons if lessons is not None else course()
    done, note = progress()
    flagged = {k for k, n in wrong_answers().items() if n > 0}
    if note:
        from rich.text import Text

        console.print(Text(f"note: {note}", style="yellow"))
    part = ""
    for i, les in enumerate(lessons, 1):
        if les.part != part:
            part = les.part
            console.print(f"\n[b]{part.upper()}[/b]")
        mark = ("✓*" if les.key in flagged else "✓ ") if les.key in done else "  "
        console.print(f" {mark}{i:>2}. {les.title} [cyan]\\[{les.rule}][/cyan]", highlight=False)
    nxt = suggest_next(lessons, done)
    n_done = sum(1 for les in lessons if les.key in done)
    if flagged & done:
        console.print("\n ✓* completed after a wrong answer taken back: done again with right answers only, it "
                      "loses the *", highlight=False)
    console.print(f"\n{n_done} of {len(lessons)} completed."
                  + (f" Next: c1k learn {lessons.index(nxt) + 1}  ({nxt.title})" if nxt else " The course is done."),
                  highlight=False)
