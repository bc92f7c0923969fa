"""A lesson in the text loop (`c1k learn N --text`, or `c1k learn N` with piped input): the same goal,
steps, questions, hints, coaching and debrief as the app's lesson pane, one line at a time.

Commands are the match's (`pass`, `play "Lantern Acolyte" slot 1`, `p2: pass`, …), plus `answer N` (the
lesson's question: a wrong answer loses the lesson until it is taken back), `undo` (takes back your last
answer, or goes back to before your last command, practice refusals kept), `goal` (the whole lesson pane),
`solution`, `help` and `quit`.
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
    taken_back: list[tuple[str, str]] = []       # the wrong answers taken back (the debrief lists them)
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
            write("a solution: " + " · ".join(course.shown_solution(lesson, g, since, answers)))
            continue
        if word in ("undo", "u"):
            if answers and answers[-1][0] >= len(g.events):     # the last act was an answer: take it back
                back_to, kept, said_back = g, answers[:-1], "the answer is taken back"
            elif history:
                back_to, n = history[-1]
                kept, said_back = answers[:n], "undone"
                history.pop()
            else:
                write("nothing to undo")
                continue
            wrong = course.wrong_taken_back(lesson, since, g, answers, back_to, kept)
            if wrong is not None:
                taken_back.append(wrong)
            g, answers = back_to, kept
            write(said_back)
            st = course.status(lesson, g, since, None, answers, taken_back)
            now(st)
            continue
        said = answer_of(cmd)
        if said is not None:
            before = st
            answers.append(answer_now(g, said).row())
            st = course.status(lesson, g, since, None, answers, taken_back)
            if st.wrong_answer and not before.wrong_answer:
                write(f"✗ not right: {st.wrong_answer}")
                write(st.hint)
            elif len(st.steps) - sum(1 for s in st.steps if s.startswith("·")) > \
                    len(before.steps) - sum(1 for s in before.steps if s.startswith("·")):
                write(f"✓ right: {said}")
            elif not before.current.startswith("?"):
                write("there is no question to answer now")
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
            st = course.status(lesson, g, since, refusal, answers, taken_back)
            if st.hint:
                write(st.hint)
        if st.complete:
            write("✓ LESSON COMPLETE")
            write(st.debrief)
            course.mark_completed(lesson.key, wrong=len(taken_back))
            return True
        if not st.hint or not st.current.startswith("next:"):   # (a hint ends with the next step already)
            now(st)
    st = course.status(lesson, g, since, None, answers)
    if not st.complete:
        write(f"not complete: {st.current or 'the goal is not met'}" + (" — " + st.hint.splitlines()[0]
                                                                          if st.lost else ""))
    return st.complete
