"""The lessons (decks/lessons): valid scenarios whose solution reaches the goal, playable in the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model.builders import find_lessons, lesson_session
from c1k_tui.screens.app import C1KApp
from engine.cards import CardDB
from tests.tui.conftest import run_app


def test_there_is_a_lesson_per_topic_and_each_solution_passes() -> None:
    lessons = find_lessons()
    assert 35 <= len(lessons) <= 48
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
        assert status(lesson, s.game, since, answers=s.lesson_answers()).complete, les.title


def test_lesson_in_the_app_with_full_control(db: CardDB) -> None:
    les = find_lessons()[0]
    app = C1KApp(db=db, session=lesson_session(db, les), lessons=find_lessons())

    async def body(pilot: Any) -> None:
        screen = app.match_screen
        from c1k_tui.screens.lesson_pane import LessonPane

        assert screen is not None and les.goal[:20] in app.screen.query_one("#lesson-pane", LessonPane).text.plain
        await pilot.press("1", "enter", "enter")   # select the Acolyte, play it, into slot 1
        await pilot.pause()
        assert app.game.current_player() == 1   # no hand-off in a lesson, nothing sent for p2
        await pilot.press("space")
        await pilot.pause()
        assert app.match.lesson_complete and "lesson complete" in str(screen.status)
        assert "✓ LESSON COMPLETE" in screen.goal and "WINDOWS ENTERED" in screen.goal
        from c1k_tui.model.lessons import completed

        assert completed() == {les.path.name.removesuffix(".scenario.toml")}

    run_app(app, body)


def _app_on(db: CardDB, tmp_path: Path, prefix: str, size: tuple[int, int] = (120, 40)) -> C1KApp:  # noqa: ARG001
    info = next(x for x in find_lessons() if x.path.name.startswith(prefix))
    return C1KApp(db=db, session=lesson_session(db, info, tmp_path / "l.json"), lessons=find_lessons())


def test_enter_on_a_refused_card_sends_it_in_the_refusal_lesson(db: CardDB, tmp_path: Path) -> None:
    """Lesson 3 teaches C1K 10: picking the ✗ card and pressing Enter sends it, and it is refused."""
    app = _app_on(db, tmp_path, "03-")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.send("p1: pass")
        await pilot.pause()
        assert app.game.current_player() == 1
        await pilot.press("1", "enter")              # Tomas's Lantern Acolyte, Slow in Mira's turn
        await pilot.pause()
        assert app.game.current_player() == 0        # refused, and priority passed back to Mira
        screen = app.match_screen
        assert screen is not None and "✓ Tomas, holding priority in Mira's turn" in screen.goal

    run_app(app, body)


def test_undo_in_a_lesson_asks_no_one_and_the_prompt_opens_again(db: CardDB, tmp_path: Path) -> None:
    from c1k_tui.screens.confirm_modal import ConfirmModal
    from c1k_tui.screens.prompt_modal import PromptModal

    app = _app_on(db, tmp_path, "04-")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.send('p1: play "Emberlash" target acolyte')
        await pilot.pause()
        assert isinstance(app.screen, PromptModal)      # Tomas is asked about the Sigil's Interrupt
        app.screen.dismiss("decline")
        await pilot.pause()
        assert not isinstance(app.screen, PromptModal) and app.game.decision.kind == "priority"
        await pilot.press("u")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmModal)  # no consent asked in a lesson
        assert isinstance(app.screen, PromptModal)      # the Interrupt question is back
        assert app.game.decision.kind == "interrupt"

    run_app(app, body)


def test_a_lost_lesson_coaches_and_undo_gets_it_back(db: CardDB, tmp_path: Path) -> None:
    app = _app_on(db, tmp_path, "15-")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.send("p1: pass")
        app.send("p2: pass")                             # Tomas lets Mira's end.final go by
        await pilot.pause()
        screen = app.match_screen
        assert screen is not None
        assert "can't be completed now" in screen.goal and "u undoes" in screen.goal and "F2 restarts" in screen.goal
        assert "u undoes" in str(screen.status)
        await pilot.press("u")
        await pilot.pause()
        assert "can't be completed now" not in screen.goal
        app.send('p2: play "Emberlash" target acolyte')
        for cmd in ("p1: pass", "p1: pass", "p2: pass"):
            app.send(cmd)
        await pilot.pause()
        assert app.match.lesson_complete

    run_app(app, body)


def test_a_question_is_answered_in_the_app(db: CardDB, tmp_path: Path) -> None:
    app = _app_on(db, tmp_path, "05-")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        screen = app.match_screen
        assert screen is not None and "? Tomas's end.final" in screen.goal and "answer N" in screen.goal
        app.send("answer 1")                          # wrong: the lesson is lost until it is taken back
        await pilot.pause()
        assert "✗ not right:[/b] Mira's draw.draw" in str(screen.status) and "u takes the answer back" in str(screen.status)
        assert "can't be completed now: you answered “Mira's draw.draw: she draws”" in screen.goal
        app.send("answer 2")                          # a right answer after a wrong one doesn't complete it
        await pilot.pause()
        assert "✗ not right" in str(screen.status)
        await pilot.press("u")
        await pilot.pause()
        assert "you answered “Mira's draw.draw" in screen.goal     # (that took back the 2nd answer)
        await pilot.press("u")
        await pilot.pause()
        assert "can't be completed" not in screen.goal and "? Tomas's end.final" in screen.goal
        app.send("answer 2")
        await pilot.pause()
        assert "right" in str(screen.status) and "? Tomas's end.final" not in screen.goal
        for cmd in ("p2: pass", "p1: pass", "p1: pass", "p2: pass"):
            app.send(cmd)
        await pilot.pause()
        assert app.match.lesson_complete and "Wrong answers taken back: “Mira's draw.draw: she draws”" in screen.goal

    run_app(app, body)


def test_the_lessons_screen_offers_the_learning_flow_against_the_ai(db: CardDB, tmp_path: Path,
                                                                   monkeypatch: Any) -> None:
    from c1k_tui.model.versus_session import VersusSession
    from c1k_tui.screens.lessons_screen import VS_AI, LessonsScreen

    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    app = C1KApp(db=db, mode="learn", lessons=find_lessons())

    async def body(pilot: Any) -> None:
        await pilot.pause()
        assert isinstance(app.screen, LessonsScreen)
        app.screen.dismiss(VS_AI)
        for _ in range(100):                       # the match screen mounted (slow machines take a while)
            await pilot.pause(0.05)
            ms = app.match_screen
            if ms is not None and ms.is_current and ms.query("#recap"):
                break
        s = app.session
        assert isinstance(s, VersusSession) and s.flow.mode == "learning" and s.game.options.practice
        for _ in range(6):                         # pass through windows: the AI answers, windows are listed
            if app.game.current_player() == 0:
                app.send("pass")
            await pilot.pause()
        text = app.recap_for(0, 0).plain
        assert "nothing happened" in text and "(C1K 1.1)" in text

    run_app(app, body)


def test_windows_where_nothing_happened_fold_into_one_line() -> None:
    from c1k_tui.model.recap import learning_text
    from engine.lessons import WindowVisit

    visits = [WindowVisit(3, "draw.start", "C1K 1.1", (), 0), WindowVisit(3, "draw.draw", "C1K 1.2",
                                                                         (("Mira draws a card", ()),), 1),
              WindowVisit(3, "draw.post", "C1K 1.3", (), 2), WindowVisit(3, "influence.start", "C1K 2.1", (), 3),
              WindowVisit(4, "draw.start", "C1K 1.1", (), 4)]
    lines = learning_text(visits, compact=True).plain.splitlines()
    assert "draw.post (C1K 1.3), influence.start (C1K 2.1): nothing happened" in lines
    assert lines.count("draw.start (C1K 1.1): nothing happened") == 2     # a new turn starts a new line


def _pane_rows(app: C1KApp) -> list[str]:
    """The lesson pane's rows as drawn on screen (what the learner reads), if its tab is the active one."""
    from textual.widgets import TabbedContent

    from c1k_tui.screens.lesson_pane import LessonPane

    ms = app.match_screen
    assert ms is not None and ms.query_one("#tabs", TabbedContent).active == "tab-lesson"
    pane = ms.query_one("#lesson-pane", LessonPane)
    assert pane.size.height >= 4, pane.size
    return pane.render().plain.splitlines()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_the_lesson_pane_shows_goal_step_hint_and_debrief(db: CardDB, tmp_path: Path, size: tuple[int, int]) -> None:
    """Issue #19 item 4: at both sizes the learner reads the step, the hint and (scrolled into view) the
    debrief in the lesson's own tab."""
    app = _app_on(db, tmp_path, "07-", size)

    async def body(pilot: Any) -> None:
        await pilot.pause()
        text = " ".join(_pane_rows(app))
        assert text.startswith("NOW  next: try the Acolyte in") and "GOAL" in text, text
        await pilot.press("r")                         # another tab, then a refusal brings the pane back
        await pilot.pause()
        app.send('p1: play "Lantern Acolyte"')
        await pilot.pause()
        rows = _pane_rows(app)
        text = " ".join(rows)
        assert text.startswith("NOW  next: influence.gain"), rows
        assert "HINT why not?" in text and rows.index(next(r for r in rows if r.startswith("HINT"))) <= 2, rows
        for cmd in ("p1: pass", "p2: pass", "p1: pass", "p2: pass", 'p1: play "Lantern Acolyte" slot 1',
                    "p2: pass"):
            app.send(cmd)
        await pilot.pause()
        assert app.match.lesson_complete
        rows = _pane_rows(app)
        done = [i for i, r in enumerate(rows) if r.startswith("✓ LESSON COMPLETE")]
        assert done, rows                                              # the debrief scrolled into view
        assert "draw.post allows only Fast cards" in " ".join(rows[done[0]:]), rows

    run_app(app, body, size)


SOLUTION_07 = ('p1: play "Lantern Acolyte"', "p1: pass", "p2: pass", "p1: pass", "p2: pass",
               'p1: play "Lantern Acolyte" slot 1', "p2: pass")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_no_toast_covers_the_debrief(db: CardDB, tmp_path: Path, monkeypatch: Any, size: tuple[int, int]) -> None:
    """Issue #31 item 6: at 80×24 the lesson tab runs along the bottom, where a toast goes: completion is
    said on the status line and in the tab, no toast over the debrief; at 120×40 the toast is beside it."""
    import asyncio

    from textual.widgets._toast import Toast

    from c1k_tui.screens.lesson_pane import LessonPane

    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    app = _app_on(db, tmp_path, "07-", size)

    async def main() -> None:
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            for cmd in SOLUTION_07:
                app.send(cmd)
            await pilot.pause()
            await pilot.pause(0.2)
            ms = app.match_screen
            assert ms is not None and app.match.lesson_complete and "lesson complete" in str(ms.status)
            pane = ms.query_one("#lesson-pane", LessonPane).region
            toasts = [t.region for t in ms.query(Toast)]
            assert not any(t.overlaps(pane) for t in toasts), (toasts, pane)
            assert bool(toasts) == (size == (120, 40))

    asyncio.run(main())


def test_lesson_complete_at_80x24_snapshot(snap_compare: Any, db: CardDB, tmp_path: Path, monkeypatch: Any) -> None:
    """The completed lesson at 80×24: the debrief's heading and first line in the Lesson tab, nothing over it."""
    from tests.tui.test_snapshots import keys

    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    app = _app_on(db, tmp_path, "07-", (80, 24))

    async def run_before(pilot: Any) -> None:
        await keys()(pilot)
        for cmd in SOLUTION_07:
            app.send(cmd)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_the_lessons_screen_marks_a_lesson_done_only_after_a_wrong_answer(db: CardDB, tmp_path: Path,
                                                                          monkeypatch: Any) -> None:
    """Issue #31 item 2: the course list shows which lessons were done without a wrong answer taken back."""
    from textual.widgets import OptionList, Static

    from c1k_tui.model import lessons as course_ui
    from c1k_tui.screens.lessons_screen import LessonsScreen

    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    course_ui.mark_completed("01-priority-and-the-stack")
    course_ui.mark_completed("38-solace-ward-before-tough", wrong=1)
    app = C1KApp(db=db, mode="learn", lessons=find_lessons())

    async def body(pilot: Any) -> None:
        await pilot.pause()
        assert isinstance(app.screen, LessonsScreen)
        rows = [str(o.prompt).split("\n")[0] for o in app.screen.query_one("#lesson-list", OptionList).options]
        assert rows[0].startswith("✓  1. Priority") and rows[40].startswith("✓*41. Solace"), rows[:2] + rows[40:41]
        assert rows[1].startswith("   2. Respond")
        assert "✓* done after a wrong answer taken back" in str(app.screen.query_one("#lessons-title", Static).render())

    run_app(app, body)


def test_f3_shows_the_way_not_the_answer_to_an_open_question(db: CardDB) -> None:
    """F3 in a question lesson before it is answered: the solution's commands, `answer …` for the question."""
    from c1k_tui.screens.graveyard_modal import GraveyardModal

    les = next(x for x in find_lessons() if x.path.name.startswith("38-"))
    session = lesson_session(db, les)
    key = next(c for c in session.lesson["solution"] if c.startswith("answer "))  # type: ignore[index]
    app = C1KApp(db=db, session=session, lessons=find_lessons())

    async def body(pilot: Any) -> None:
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, GraveyardModal)
        shown = app.screen.text.plain
        assert "answer …" in shown and key not in shown and "play Bolt target shell" in shown

    run_app(app, body)
