"""Lesson goals pin the act they teach (issue #19): every lesson's own solution completes it, none of its
wrong lines do, and random lines from its position complete it only by doing what the solution does —
the same player, window, kind of event, rule and card for every goal step."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from c1k_tui.model.paths import lessons_dir
from engine.cards import CardDB, load_card_db
from engine.game import Game
from engine.lessons import (
    Answer,
    EventLike,
    Lesson,
    answer_now,
    answer_of,
    coaching,
    deadlines,
    load_course,
    load_lesson,
    met_events,
    play,
    progress,
    start,
)

FILES = sorted(lessons_dir().glob("*.scenario.toml"))
IDS = [p.name.split("-")[0] for p in FILES]
#: random lines per lesson (each up to LINE_LENGTH actions): a few in the fast tier, 150 in the slow one
LINES = 30
SLOW_LINES = 150
LINE_LENGTH = 40


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


@pytest.fixture(scope="module")
def course(db: CardDB) -> list[Lesson]:
    return load_course(lessons_dir(), db)


def _name(g: Game, cards: tuple[int, ...], i: int) -> str:
    if len(cards) <= i or not g.exists(cards[i]):
        return ""
    return g.card(cards[i]).name


def signature(lesson: Lesson, g: Game, since: int, answers: list[Answer]) -> list[tuple[object, ...]]:
    """What met each goal step, as the act it is: the event's kind, player, window and rule, its card and
    target where the step names them, whether its amount changed something, or whether the answer was
    right."""
    out: list[tuple[object, ...]] = []
    for c, m in zip(lesson.checks, met_events(lesson, g, since, answers), strict=False):
        if isinstance(m, Answer):
            out.append(("answer", c.accepts(m.text)))
            continue
        e: EventLike = m
        others = tuple(sorted(_name(g, e.cards, i) for i in range(1, len(e.cards))))   # (blocks: any order)
        out.append((e.kind, e.actor, e.window, e.rule, _name(g, e.cards, 0) if c.card else "",
                    others if c.target else (), e.amount > 0 if e.kind in ("damage", "heal") else True))
    return out


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_solution_completes_and_no_wrong_line_does(path: Path, db: CardDB) -> None:
    les = load_lesson(path, db)
    g, since = start(les)
    assert not progress(les, g, since).complete, "complete before the learner did anything"
    done = play(les, les.solution)
    assert done.progress.complete, (done.progress, done.refusals)
    assert not done.progress.lost
    assert len(les.wrong) >= 2 or len(les.checks) == 1, f"{path.name}: wrong lines cover one way of drifting only"
    for line in les.wrong:
        w = play(les, line)
        assert not w.progress.complete, f"{path.name}: the wrong line {line} completes it"


def _random_line(les: Lesson, rng: random.Random) -> tuple[Game, int, list[Answer]]:
    """A random line from the lesson's position: mostly legal actions, sometimes an attempt that may be
    refused (a card of either player played now), sometimes an answer to the lesson's question."""
    g, since = start(les)
    answers: list[Answer] = []
    options = [o for c in les.checks for o in c.options]
    for _ in range(LINE_LENGTH):
        if g.is_terminal():
            break
        roll = rng.random()
        if roll < 0.1 and options:
            answers.append(answer_now(g, rng.choice(options)))
            continue
        if roll < 0.2:
            p = rng.randrange(2)
            hand = list(g.players[p].hand)
            if hand:
                try:
                    g.apply_command(f"p{p + 1}: play #{rng.choice(hand)}")
                except ValueError:
                    pass
                continue
        acts = g.legal_actions()
        if not acts:
            break
        g.apply(rng.choice(acts))
    return g, since, answers


def _random_lines_complete_only_by_the_taught_act(les: Lesson, lines: int, seed: str) -> int:
    sol = play(les, les.solution)
    want = signature(les, sol.game, sol.since, sol.answers)
    rng = random.Random(f"{seed} {les.key}")
    completed = 0
    for _ in range(lines):
        g, since, answers = _random_line(les, rng)
        if progress(les, g, since, answers).complete:
            completed += 1
            assert signature(les, g, since, answers) == want, f"{les.key}: completed by another act"
    assert completed < lines, f"{les.key}: every random line completes it"
    return completed


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_a_random_line_completes_a_lesson_only_by_the_taught_act(path: Path, db: CardDB) -> None:
    """Property (seeded): whenever a random line from the lesson's position completes it, every goal step
    was met by the same act as in the lesson's own solution."""
    _random_lines_complete_only_by_the_taught_act(load_lesson(path, db), LINES, "lesson")


@pytest.mark.slow
def test_many_random_lines_complete_lessons_only_by_the_taught_acts(course: list[Lesson]) -> None:
    """The same property over 150 lines per lesson, on other seeds; and random lines do complete some
    lessons (the property is not vacuous)."""
    done = sum(_random_lines_complete_only_by_the_taught_act(les, SLOW_LINES, "many") for les in course)
    assert done > len(course)


def test_a_lesson_that_can_no_longer_be_completed_says_so_and_why(db: CardDB) -> None:
    les = load_lesson(lessons_dir() / "15-final-window.scenario.toml", db)
    played = play(les, ["p1: pass", "p2: pass"])           # Tomas lets Mira's end.final go by
    p = played.progress
    assert p.lost and "by T3 end.final" in p.lost and "now at T4" in p.lost
    text = coaching(p)
    assert text.startswith("✗ This lesson can't be completed now") and "u undoes" in text and "F2 restarts" in text
    fresh = play(les, ["p1: pass"])
    assert not fresh.progress.lost and coaching(fresh.progress) == ""


def test_a_question_is_answered_before_its_moment_passes(db: CardDB) -> None:
    les = load_lesson(lessons_dir() / "05-start-of-draw.scenario.toml", db)
    first = play(les, [])
    assert first.progress.question.startswith("? Tomas's end.final") and "2)" in first.progress.question
    late = play(les, ["p2: pass", "p1: pass", "answer 2"])
    assert late.progress.lost and not late.progress.met
    right = play(les, ["answer 2", "p2: pass", "p1: pass"])
    assert right.progress.met and not right.progress.lost
    assert answer_of("answer  2 ") == "2" and answer_of("p1: pass") is None


def test_every_goal_step_has_a_deadline_from_the_solution(course: list[Lesson]) -> None:
    for les in course:
        dl = deadlines(les)
        assert len(dl) == len(les.checks) and all(t < 10**9 for t, _ in dl), les.key
        assert list(dl) == sorted(dl), f"{les.key}: the goal's steps are met out of order in its solution"
