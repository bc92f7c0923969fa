"""A question lesson is passed only by a right answer (issue #31 item 2): a wrong answer loses it at once
(coached with why, and the rule), `u` takes the answer back, the debrief lists the wrong answers taken
back and the course list shows the lessons done without one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model import lessons as course_ui
from c1k_tui.model.paths import lessons_dir
from engine.cards import CardDB, load_card_db
from engine.lessons import Lesson, load_course, play


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


@pytest.fixture(scope="module")
def questions(db: CardDB) -> list[Lesson]:
    out = [les for les in load_course(lessons_dir(), db) if any(c.is_question for c in les.checks)]
    assert len(out) >= 10
    return out


def test_typing_every_option_then_passing_completes_no_question_lesson(questions: list[Lesson]) -> None:
    """Each option in turn where the solution answers, then the solution's commands: a guesser's line."""
    for les in questions:
        q = next(c for c in les.checks if c.is_question)
        guesses = [f"answer {i}" for i in range(1, len(q.options) + 1)]
        line: list[str] = []
        for cmd in les.solution:
            line += guesses if cmd == f"answer {q.answer}" else [cmd]
        p = play(les, line).progress
        assert not p.complete, f"{les.key}: guessing every option completes it"
        assert p.lost and p.wrong_answer, les.key


def test_a_wrong_answer_is_coached_with_why_and_the_rule(questions: list[Lesson]) -> None:
    for les in questions:
        q = next(c for c in les.checks if c.is_question)
        wrong = next(i for i, o in enumerate(q.options, 1) if o != q.answer)
        p = play(les, [c for c in les.solution if not c.startswith("answer")][:q.at_step] + [f"answer {wrong}"]).progress
        assert p.wrong_answer == q.options[wrong - 1] and q.why in p.lost, les.key
        assert re.search(r"\((C1K|KW|AS|SEAT|OPP|RB)[^)]*\)", q.why), f"{les.key}: the why names no rule id"


def test_u_takes_a_wrong_answer_back_and_the_course_shows_it(db: CardDB, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    les = next(x for x in load_course(lessons_dir(), db) if x.key.startswith("38-"))
    runner = CliRunner()
    line = ["answer 1", "undo", "answer 2", *les.solution[1:]]
    res = runner.invoke(cli, ["learn", "38-", "--text"], input="\n".join(line) + "\n")
    assert res.exit_code == 0, res.output
    assert "✗ not right: Tough reduces it to 1" in res.output and "u takes the answer back" in res.output
    assert "the answer is taken back" in res.output and "✓ LESSON COMPLETE" in res.output
    assert "Wrong answers taken back: “Tough reduces it to 1, then Ward prevents that 1 (Ward 1 left)”" in res.output
    saved = json.loads(course_ui.progress_path().read_text(encoding="utf-8"))
    assert saved == {"completed": [les.key], "wrong_answers": {les.key: 1}}
    listed = runner.invoke(cli, ["learn", "--list"])
    row = next(x for x in listed.output.splitlines() if "Ward and Tough on the same damage" in x)
    assert row.startswith(" ✓*41. Solace") and "✓* completed after a wrong answer taken back" in listed.output
    clean = runner.invoke(cli, ["learn", "38-", "--text"], input="\n".join(les.solution) + "\n")
    assert clean.exit_code == 0 and "Wrong answers taken back" not in clean.output
    assert course_ui.wrong_answers() == {les.key: 0}      # the better completion counts
    listed = runner.invoke(cli, ["learn", "--list"])
    assert " ✓ 41. Solace" in listed.output and "✓*" not in listed.output


def test_an_old_progress_file_stays_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    path = course_ui.progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"completed": ["01-priority-and-the-stack"]}', encoding="utf-8")
    assert course_ui.progress() == ({"01-priority-and-the-stack"}, "") and course_ui.wrong_answers() == {}
    course_ui.mark_completed("38-solace-ward-before-tough", wrong=2)
    assert course_ui.completed() == {"01-priority-and-the-stack", "38-solace-ward-before-tough"}
    assert course_ui.wrong_answers() == {"38-solace-ward-before-tough": 2}


def test_in_the_app_u_takes_the_answer_back_not_the_command_before_it(db: CardDB, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from c1k_tui.model.builders import find_lessons, lesson_session

    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    info = next(x for x in find_lessons() if x.path.name.startswith("21-"))   # the question after 4 commands
    s = lesson_session(db, info, tmp_path / "l.json")
    les = course_ui.lesson_for(s.lesson or {}, db)
    assert les is not None and s.lesson is not None
    for cmd in les.solution[:4]:
        s.send(cmd)
    record = list(s.game.record)
    s.send("answer 1")
    assert s.undo_check() == (True, "take back the answer '1'")
    assert s.undo() and list(s.game.record) == record and s.lesson_answers() == []
    assert course_ui.taken_back_of(s.lesson) == [(les.checks[0].ask if les.checks[0].is_question else
                                                   next(c.ask for c in les.checks if c.is_question),
                                                   "Tomas's Shieldbearer: the defender's goes on top")]
    s.send("answer 2")
    assert s.undo_check()[1] == "take back the answer '2'" and s.undo()
    assert len(course_ui.taken_back_of(s.lesson)) == 1      # a right answer taken back is no wrong one
