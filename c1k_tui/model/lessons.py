"""The course of lessons in the app and on the command line: progress saved in the user data folder, the lesson panel
(goal, progress, the windows entered with their rule ids, hints, debrief), and the coverage table.

The lesson logic itself (the goal over typed events, hints, windows entered) is `engine/lessons.py`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from c1k_tui.model.paths import PROGRESS_NAME as PROGRESS_NAME  # (re-exported: its home is paths)
from c1k_tui.model.paths import data_dir, lessons_dir, moved_in
from engine.errors import BadInput

if TYPE_CHECKING:
    from engine import CardDB, Game
    from engine.lessons import CoverageRow, Lesson

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
    from engine.safeio import write_atomic  # the one write policy: never a device, FIFO or link

    write_atomic(path, json.dumps({"completed": sorted(done), "wrong_answers": dict(sorted(counts.items()))},
                                  indent=1), "settings", force=True, make_folder=True)


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


def short_key(key: str) -> str:
    """A lesson's key as the coverage table shows it: its number (`03`)."""
    return key.split("-", 1)[0]


# -------------------------------------------------------------------- `c1k learn LESSON`


class LessonPick(BadInput, ValueError):
    """What `c1k learn LESSON` can't open, in words (the command shows it and exits 2)."""


def pick_lesson(which: str, keys: list[str]) -> int | Path:
    """`c1k learn WHICH`: the index of a course lesson (a number from 1, or the start of a lesson's name),
    or the path of a lesson file to load (it exists; loading it says what is wrong with it). LessonPick
    for anything else: empty text, 0 or a number past the course, a digit that isn't 0-9, a control
    character, a name that is neither a lesson nor a file."""
    from c1k_tui.model.safetext import escape_output
    from engine.safeio import control_refusal

    n = len(keys)
    listing = "`c1k learn --list` lists them"
    if not which.strip():
        raise LessonPick(f"a lesson is a number from 1 to {n}, a lesson's name or a lesson file, not empty text")
    why = control_refusal(which, "a lesson's name")
    if why:
        raise LessonPick(f"{escape_output(which)!r}: {why}")
    if which.isascii() and which.isdigit():
        if len(which) <= 6 and 1 <= int(which) <= n:
            return int(which) - 1
        raise LessonPick(f"no lesson {which[:12]}: the lessons are numbered 1 to {n}; {listing}")
    if which.isdigit() or which.isnumeric():          # ², ٣, Ⅻ: digits Python reads, but not a lesson number
        raise LessonPick(f"'{which}' is not a lesson number: the lessons are numbered 1 to {n} (0-9); {listing}")
    for i, key in enumerate(keys):
        if key.startswith(which):
            return i
    p = Path(which)
    if not p.exists() and not p.is_symlink():
        raise LessonPick(f"no lesson '{which}'; {listing}")
    return p
