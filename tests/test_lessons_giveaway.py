"""Questions don't give themselves away (issue #31 item 3): a question asks; its lesson's goal says what
to watch, and the steps that would answer it are listed only once it is answered."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from c1k_tui.model import lessons as course_ui
from c1k_tui.model.paths import lessons_dir
from engine.cards import CardDB, load_card_db
from engine.lessons import Check, Lesson, answer_now, answer_of, load_course, start

#: a number said in figures or in words is the same answer
NUMBERS = {str(i): w for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven",
                                            "eight", "nine", "ten"))}

#: words any lesson text says about the stack and triggers (a reason's words only when it says more)
COMMON = {"goe", "stack", "trigger", "player", "player'", "same", "moment", "start", "phase", "turn", "window",
          "their", "they", "from", "them", "with", "that"}


@pytest.fixture(scope="module")
def questions() -> list[Lesson]:
    db: CardDB = load_card_db()
    return [les for les in load_course(lessons_dir(), db) if any(c.is_question for c in les.checks)]


def _answer_words(q: Check) -> set[str]:
    """The words that make a question's right answer: its words that are in no other option and not in the
    question (lower case, an 's' ending dropped, short words left out)."""
    def words(text: str) -> set[str]:
        return {w for w in _said(text) if len(w) > 3 or w in NUMBERS.values()}

    others = set().union(*(words(o) for o in q.options if o != q.answer)) | words(q.ask)
    return words(q.answer) - others


def _said(text: str) -> set[str]:
    return {NUMBERS.get(w, w.removesuffix("s")) for w in re.findall(r"[a-z][a-z.']+|(?<![\w.])\d+(?![\w.])",
                                                                      text.lower())}


def _gives_away(les: Lesson) -> list[str]:
    """The question answers that the goal, or the panel before the answer (the step to do and the steps
    listed), state: half or more of the words that make the answer."""
    from engine.lessons import start

    g, since = start(les)
    st = course_ui.status(les, g, since)
    out = []
    for q in (c for c in les.checks if c.is_question):
        key = _answer_words(q)
        for text in (les.goal, *st.steps):          # (the step to do now is the question itself)
            if key and len(key & _said(text)) * 2 >= len(key):
                out.append(f"{q.ask!r}: {sorted(key & _said(text))} in {text!r}")
    return out


def test_no_question_is_answered_by_its_own_lessons_goal(questions: list[Lesson]) -> None:
    """A question asks; the goal says what to watch, and the steps that would answer it are listed only
    once it is answered."""
    told = {les.key: _gives_away(les) for les in questions}
    assert not any(told.values()), {k: v for k, v in told.items() if v}
    les = next(x for x in questions if x.key.startswith("13-"))
    g, since = start(les)
    st = course_ui.status(les, g, since)
    assert st.steps[-1] == "· … 3 more steps, shown once you answer" and not any("end.start" in x for x in st.steps)
    answered = course_ui.status(les, g, since, answers=[answer_now(g, "2").row()])
    assert any("end.start" in x for x in answered.steps)


def _before_answers(les: Lesson) -> list[tuple[str, str, Check]]:
    """Everything the learner is shown before answering each question, as (where, text, question): the
    title, briefing, goal and hints, the lesson panel and the rules panel (the window's rule and the live
    why-not, for either player) at every position of the solution before its answer, the text loop's
    output up to the answer. The question itself (its options name the answer) is left out."""
    from c1k_tui.cli.learn_text import lesson_loop
    from c1k_tui.model import rulesdoc
    from c1k_tui.model.view import match_view

    out: list[tuple[str, str, Check]] = []
    for q in (c for c in les.checks if c.is_question):
        cut = q.question()
        said = [("title", les.title), ("briefing", les.briefing), ("goal", les.goal)] + [("hint", h.text) for h in les.hints]
        g, since = start(les)
        answers: list[tuple[int, int, int, str]] = []
        fed: list[str] = []
        for cmd in les.solution:
            said.append((f"panel after {fed}", course_ui.status(les, g, since, None, answers).panel))
            for who in (0, 1):
                v = match_view(g, who)
                said.append((f"rules panel after {fed}", " ".join(rulesdoc.section(v.window.rule)[1:])))
                said += [(f"why-not after {fed}", f"{e[1]} {e[4]}") for e in v.explain]
            a = answer_of(cmd)
            if a is not None and q.accepts(a):
                break
            if a is not None:
                answers.append(answer_now(g, a).row())
            else:
                g.apply_command(cmd)
            fed.append(cmd)
        lines = iter(fed)
        written: list[str] = []

        def read(_: str, it: Iterable[str] = lines) -> str:
            try:
                return next(iter(it))
            except StopIteration:
                raise EOFError from None

        lesson_loop(les, read, written.append)
        said.append((f"text loop after {fed}", "\n".join(written[:-1])))    # (its last line: "not complete")
        out += [(where, text.replace(cut, ""), q) for where, text in said]
    return out


def _answered_in(q: Check, text: str, names: set[str]) -> list[str]:
    """What in text gives q's answer away: half or more of the words that make the answer (the names of the
    cards and players in play left out: the situation names them), or four words in a row of the reason the
    answer is right (its `why`, said to a wrong answer) that say more than the question does."""
    key = _answer_words(q) - names - {"nothing", "happened"}     # (the panel says "nothing happened")
    told = key & _said(text)
    out = sorted(told) if key and (len(told) * 2 >= len(key) if len(key) > 2 else told == key) else []
    asked = _said(q.ask) | names | COMMON
    said = " " + " ".join(re.findall(r"[a-z0-9.']+", text.lower())) + " "
    for part in re.split(r"[:;.]\s", re.sub(r"\([^)]*\)", " ", q.why.lower())):
        w = re.findall(r"[a-z0-9.']+", part)
        out += [" ".join(n) for n in (w[i:i + 4] for i in range(len(w) - 3))
                if f" {' '.join(n)} " in said and any(len(x) > 3 and x not in asked for x in _said(" ".join(n)))]
    return out


def test_nothing_shown_before_a_question_is_answered_gives_its_answer(questions: list[Lesson],
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    """A course that can't be passed without learning: the briefing, goal, hints, lesson panel, rules panel
    and text loop shown before a question is answered teach the rule in general and pose the situation, and
    never state this question's answer (the debrief, after, does)."""
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    told = {}
    for les in questions:
        g = start(les)[0]
        who = " ".join(p.name for p in g.players)
        names = _said(" ".join([*(d.name for d in g.defs.values() if d is not None), who])) | {
            f"{n}'" for n in _said(who)}      # the cards in play and the players: the situation names them
        found = [f"{where}: {words} in {text!r}" for where, text, q in _before_answers(les)
                 if (words := _answered_in(q, text, names))]
        if found:
            told[les.key] = found
    assert not told, "\n".join(f"{k}: {v}" for k, v in told.items())


def test_a_lesson_lost_before_its_question_is_answered_names_no_step_after_it(questions: list[Lesson]) -> None:
    """The line goes on without answering until the lesson is lost: the coaching (and the panel) say the
    question was not answered in time, and never name the steps after it — those would answer it, and `u`
    would then let the learner answer what they were told."""
    told = {}
    for les in questions:
        first = next(i for i, c in enumerate(les.checks) if c.is_question)
        hidden = [c.describe() for c in les.checks[first + 1:]]
        g, since = start(les)
        for cmd in (c for c in les.solution if answer_of(c) is None):
            g.apply_command(cmd)
            st = course_ui.status(les, g, since)
            if st.lost:
                break
        if not st.lost:
            continue                       # (answered nothing, yet not lost: its question is still open)
        assert les.checks[first].ask in st.hint, (les.key, st.hint)
        named = [h for h in hidden if h in st.hint or h in "\n".join(st.steps)]
        if named:
            told[les.key] = (named, st.hint)
    assert not told, told


def test_asking_for_a_solution_shows_the_way_not_an_open_questions_answer(questions: list[Lesson],
                                                                           monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    """F3 / `solution` before a question is answered: its commands, and `answer …` for the question; once
    it is answered right, the whole solution."""
    from c1k_tui.cli.learn_text import lesson_loop

    for les in questions:
        g, since = start(les)
        shown = course_ui.shown_solution(les, g, since)
        said = [c for c in shown if answer_of(c) is not None]
        assert said and all(c.startswith("answer …") for c in said), (les.key, shown)
        assert [c for c in shown if answer_of(c) is None] == [c for c in les.solution if answer_of(c) is None]
    les = next(x for x in questions if x.key.startswith("38-"))
    g, since = start(les)
    key = next(c for c in les.solution if answer_of(c) is not None)      # "answer Ward prevents all 2 first: …"
    assert course_ui.shown_solution(les, g, since, [answer_now(g, "2").row()]) == list(les.solution)
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    typed = iter(["solution", "answer 2", "solution"])
    out: list[str] = []

    def read(_: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    lesson_loop(les, read, out.append)
    first, second = (x for x in out if x.startswith("a solution: "))
    assert key not in first and "answer …" in first and key in second
