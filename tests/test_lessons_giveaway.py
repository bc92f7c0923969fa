"""Questions don't give themselves away (issue #31 item 3): a question asks; its lesson's goal says what
to watch, and the steps that would answer it are listed only once it is answered."""

from __future__ import annotations

import re

import pytest

from c1k_tui.model import lessons as course_ui
from c1k_tui.model.paths import lessons_dir
from engine.cards import CardDB, load_card_db
from engine.lessons import Check, Lesson, answer_now, load_course, start

#: a number said in figures or in words is the same answer
NUMBERS = {str(i): w for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven",
                                            "eight", "nine", "ten"))}

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
    return {NUMBERS.get(w, w.removesuffix("s")) for w in re.findall(r"[a-z][a-z.']+|\d+", text.lower())}


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
