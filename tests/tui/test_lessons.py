"""The lessons (decks/lessons): valid scenarios whose solution reaches the goal, playable in the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.screens.app import C1KApp, find_lessons, lesson_session
from engine.cards import CardDB
from tests.tui.conftest import run_app


def test_there_is_a_lesson_per_topic_and_each_solution_passes() -> None:
    lessons = find_lessons()
    assert 25 <= len(lessons) <= 36
    assert all(les.goal and les.rule for les in lessons)
    res = CliRunner().invoke(cli, ["scenario", "check", str(lessons[0].path.parent)])
    assert res.exit_code == 0, res.output
    listing = CliRunner().invoke(cli, ["learn", "--list"])
    assert listing.exit_code == 0 and lessons[0].title in listing.output


def test_a_lesson_is_complete_when_its_goal_is_reached(db: CardDB, tmp_path: Path) -> None:
    from c1k_tui.model.lessons import lesson_for, status

    for les in find_lessons():
        s = lesson_session(db, les, tmp_path / "l.json")
        assert s.flow.mode == "full" and s.open_hands
        lesson = lesson_for(s.lesson, db)  # type: ignore[arg-type]
        assert lesson is not None
        since = int(s.lesson["since"])  # type: ignore[index]
        assert not status(lesson, s.game, since).complete, f"{les.title}: complete before playing"
        for cmd in s.lesson["solution"]:  # type: ignore[index]
            s.send(cmd)
        assert status(lesson, s.game, since).complete, les.title


def test_lesson_in_the_app_with_full_control(db: CardDB) -> None:
    les = find_lessons()[0]
    app = C1KApp(db=db, session=lesson_session(db, les), lessons=find_lessons())

    async def body(pilot: Any) -> None:
        screen = app.match_screen
        assert screen is not None and les.goal[:20] in str(app.screen.query_one("#rules").render())
        await pilot.press("1", "enter", "enter")   # select the Acolyte, play it, into slot 1
        await pilot.pause()
        assert app.game.current_player() == 1   # no hand-off in a lesson, nothing sent for p2
        await pilot.press("space")
        await pilot.pause()
        assert app.lesson_complete and "lesson complete" in str(screen.status)
        assert "✓ LESSON COMPLETE" in screen.goal and "WINDOWS ENTERED" in screen.goal
        from c1k_tui.model.lessons import completed

        assert completed() == {les.path.name.removesuffix(".scenario.toml")}

    run_app(app, body)
