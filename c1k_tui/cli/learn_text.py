"""A lesson in the text loop (`c1k learn N --text`, or `c1k learn N` with piped input): the same goal,
steps, questions, hints, coaching and debrief as the app's lesson pane, one line at a time.

Commands are the match's (`pass`, `play "Lantern Acolyte" slot 1`, `p2: pass`, …), plus `answer N` (the
lesson's question), `undo` (back to before your last command, practice refusals kept), `goal` (the whole
lesson pane), `solution`, `help` and `quit`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from c1k_tui.model import lessons as course

if TYPE_CHECKING:
    from engine import Game
    from engine.lessons import Lesson

HELP = ("commands: the match's (pass · play \"Card\" slot 1 · attack #5 · p2: pass …) · answer N · undo · goal · "
        "solution · help · quit")


def lesson_loop(lesson: Lesson, read: Callable[[str], str], write: Callable[[str], None]) -> bool:
    """Play one lesson at a text terminal. True when it was completed (and marked so in C1K_HOME)."""
    from engine import IllegalAction, MalformedCommand
    from engine.lessons import answer_now, answer_of, start, windows_entered

    g, since = start(lesson)
    answers: list[tuple[int, int, int, str]] = []
    history: list[tuple[Game, int]] = []
    write(f"LESSON: {lesson.title}  [{lesson.rule}]")
    write(lesson.briefing)
    write(f"GOAL: {lesson.goal}")
    write(HELP)

    def now(st: course.LessonStatus) -> None:
        if st.current:
            write(f"NOW: {st.current}")

    st = course.status(lesson, g, since, None, answers)
    now(st)
    while True:
        try:
            line = read("> ")
        except EOFError:
            break
        cmd = line.strip()
        if not cmd:
            continue
        word = cmd.lower()
        if word in ("quit", "q", "exit"):
            break
        if word in ("help", "?"):
            write(HELP)
            continue
        if word == "goal":
            write(st.panel)
            continue
        if word == "solution":
            write("a solution: " + " · ".join(lesson.solution))
            continue
        if word in ("undo", "u"):
            if not history:
                write("nothing to undo")
                continue
            g, n = history.pop()
            del answers[n:]
            write("undone")
            st = course.status(lesson, g, since, None, answers)
            now(st)
            continue
        said = answer_of(cmd)
        if said is not None:
            asked = bool(st.current.startswith("?"))
            answers.append(answer_now(g, said).row())
            before = len(st.steps) - sum(1 for s in st.steps if s.startswith("·"))
            st = course.status(lesson, g, since, None, answers)
            met = len(st.steps) - sum(1 for s in st.steps if s.startswith("·"))
            write("there is no question to answer now" if not asked else
                  f"✓ right: {said}" if met > before else f"✗ not quite: {said} — try again")
        else:
            history.append((g.clone(), len(answers)))
            seen = len(g.events)
            refusal: tuple[str, str] | None = None
            try:
                g.apply_command(cmd)
            except MalformedCommand as err:
                history.pop()
                write(f"?? {err} (a typing mistake changes nothing; `help` lists the commands)")
                continue
            except IllegalAction as err:
                refusal = (err.rule, err.reason)
                write(f"✗ refused: {err.reason} ({err.rule})")
            for v in course.fold_lines(windows_entered(g.events, seen)):
                write("  " + v)
            st = course.status(lesson, g, since, refusal, answers)
            if st.hint:
                write(st.hint)
        if st.complete:
            write("✓ LESSON COMPLETE")
            write(st.debrief)
            course.mark_completed(lesson.key)
            return True
        if not st.hint or not st.current.startswith("next:"):   # (a hint ends with the next step already)
            now(st)
    st = course.status(lesson, g, since, None, answers)
    if not st.complete:
        write(f"not complete: {st.current or 'the goal is not met'}" + (" — " + st.hint.splitlines()[0]
                                                                          if st.lost else ""))
    return st.complete
