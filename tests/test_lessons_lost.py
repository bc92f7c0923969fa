"""A lesson says it can't be completed at the moment it can't (issue #31 items 1 and 2): at the event
that made the next step impossible (the card it needs left the hand, the decision was made otherwise, the
permission closed, the Ward was spent, a wrong answer), with why and the way back — and never while a line
that would still complete it is being played."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.cards import CardDB, load_card_db
from engine.lessons import (
    Answer,
    Lesson,
    Progress,
    coaching,
    load_lesson,
    play,
    play_one,
    progress,
    start,
)
from tests.test_lessons_goals import FILES, IDS

#: detours per lesson: the solution with a few random legal actions slipped in
DETOURS = 12


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


def _lesson(db: CardDB, prefix: str) -> Lesson:
    return load_lesson(next(p for p in FILES if p.name.startswith(prefix)), db)


def _line(les: Lesson, commands: list[str]) -> tuple[list[Progress], Progress]:
    """Progress after every command of a line from the lesson's position (and the last one)."""
    g, since = start(les)
    answers: list[Answer] = []
    seen = []
    for cmd in commands:
        if g.is_terminal():
            break
        play_one(g, answers, cmd)
        seen.append(progress(les, g, since, answers))
    return seen, progress(les, g, since, answers)


def _detour(les: Lesson, rng: random.Random) -> list[str]:
    """The solution with up to 3 random legal actions of the player to act slipped in at random places
    (passes, plays, answers to the question — right or wrong): some still complete the lesson, some don't."""
    g, _ = start(les)
    out: list[str] = []
    at = sorted(rng.sample(range(len(les.solution) + 1), k=min(3, len(les.solution) + 1)))
    options = [o for c in les.checks for o in c.options]
    answers: list[Answer] = []
    for i, cmd in enumerate([*les.solution, ""]):
        if i in at and not g.is_terminal():
            acts = g.legal_actions()
            extra = rng.choice(options) if options and rng.random() < 0.2 else None
            if extra is not None:
                out.append(f"answer {extra}")
            elif acts:
                a = rng.choice(acts)
                p = g.current_player()
                out.append(f"p{p + 1}: {a}")
            if out and out[-1] != "":
                play_one(g, answers, out[-1])
        if cmd and not g.is_terminal():
            out.append(cmd)
            play_one(g, answers, cmd)
    return out


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_line_that_completes_a_lesson_is_ever_called_lost(path: Path, db: CardDB) -> None:
    """The sweep: the solution, prefix by prefix, is never lost; every wrong line is called lost by its
    end (or at least not complete); and of the solution with random detours slipped in, whichever
    completes was never called lost on the way — a lost lesson stays lost."""
    les = load_lesson(path, db)
    seen, last = _line(les, list(les.solution))
    assert last.complete
    assert not any(p.lost for p in seen), [p.lost for p in seen if p.lost][0]
    for wrong in les.wrong:
        _, end = _line(les, list(wrong))
        assert not end.complete
    rng = random.Random(f"lost {les.key}")
    completed = 0
    for _ in range(DETOURS):
        line = _detour(les, rng)
        seen, last = _line(les, line)
        lost_at = next((i for i, p in enumerate(seen) if p.lost), None)
        if last.complete:
            completed += 1
            assert lost_at is None, f"{les.key}: {line[:lost_at + 1]} was called lost: {seen[lost_at].lost}"
        elif lost_at is not None:
            assert all(p.lost for p in seen[lost_at:]), f"{les.key}: lost, then not lost: {line}"
    assert completed > 0 or les.key.startswith(("03", "12")), f"{les.key}: no detour completed (vacuous)"


def test_lesson_16_a_unit_played_from_the_hand_is_coached_at_once(db: CardDB) -> None:
    les = _lesson(db, "15a-")                    # course lesson 16: Permissions
    played = play(les, ['p1: play "Briar Scout" slot 1'])
    p = played.progress
    assert p.lost.startswith("“Mira plays the Briar Scout through the permission” can't happen any more")
    assert "Briar Scout it needs is on the stack, not in a hand" in p.lost
    declined = play(les, ['p1: play "Muster the Reserves"', "p2: pass", "p1: decline"]).progress
    assert "“p1: decline”" in declined.lost and "(OPP Permissions)" in declined.lost
    text = coaching(declined)
    assert "u undoes your last action" in text and "F2 restarts" in text
    asked = play(les, ['p1: play "Muster the Reserves"', "p2: pass"]).progress
    assert not asked.lost and asked.todo[0].startswith("Mira plays the Briar Scout")


def test_lesson_40_ordering_the_triggers_the_other_way_is_coached_at_once(db: CardDB) -> None:
    les = _lesson(db, "37-")                     # course lesson 40: order your own Flux triggers
    p = play(les, ["p1: choose 1 2"]).progress
    assert "Mira chose otherwise (“Mira orders the Flux effects: Oracle of Ash, Oracle of Dew”, T3 influence.start)" \
        in p.lost, p.lost
    assert not play(les, []).progress.lost


def test_lesson_41_a_bolt_before_the_answer_or_a_wrong_answer_loses_it_at_once(db: CardDB) -> None:
    les = _lesson(db, "38-")                     # course lesson 41: Ward before Tough
    bolt = play(les, ["p1: play Bolt target shell", "p2: pass", "answer 2"]).progress
    assert bolt.lost and "prevents 2 damage (0 left)" in bolt.lost and "(KW Ward)" in bolt.lost
    assert not bolt.complete and "next:" not in coaching(bolt)
    from c1k_tui.model.lessons import status
    from c1k_tui.screens.lesson_pane import pane_text

    run = play(les, ["p1: play Bolt target shell", "p2: pass", "answer 2"])
    panel = status(les, run.game, run.since, answers=[a.row() for a in run.answers])
    assert panel.current == "" and panel.lost and panel.hint.startswith("✗ This lesson can't be completed now")
    assert "NOW" not in pane_text(panel).plain and "next:" not in pane_text(panel).plain   # (the "NOW next:")
    wrong = play(les, ["answer 1"]).progress
    assert wrong.wrong_answer.startswith("Tough reduces it to 1") and wrong.wrong_to.startswith("Shellback has") \
        and not wrong.question
    assert "you answered “Tough reduces it to 1, then Ward prevents that 1 (Ward 1 left)”" in wrong.lost
    assert "prevention first, then modification" in wrong.lost and "KW Ward" in wrong.lost
    assert "u takes the answer back" in coaching(wrong) and "F2 restarts" in coaching(wrong)
    then_right = play(les, ["answer 1", "answer 2", *les.solution[1:]]).progress
    assert not then_right.complete and then_right.wrong_answer.startswith("Tough reduces it to 1")
