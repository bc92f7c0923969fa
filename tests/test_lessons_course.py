"""The course (decks/lessons, engine/lessons.py, c1k_tui/model/lessons.py): every lesson's scripted solution
completes it and its wrong line does not; the goal is read from the match's events; coverage of the C1K
sections is complete; progress is saved in C1K_HOME."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model import lessons as course_ui
from c1k_tui.model import rulesdoc
from c1k_tui.model.paths import lessons_dir
from engine.cards import CardDB, load_card_db
from engine.lessons import (
    C1K_SECTIONS,
    PARTS,
    REALM_MODIFIERS,
    Lesson,
    LessonError,
    debrief,
    events_of,
    exercised,
    hint,
    load_course,
    load_lesson,
    play,
    windows_entered,
)
from engine.scenario import run

if TYPE_CHECKING:
    from c1k_tui.screens.app import C1KApp

FILES = sorted(lessons_dir().glob("*.scenario.toml"))


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


@pytest.fixture(scope="module")
def course(db: CardDB) -> list[Lesson]:
    return load_course(lessons_dir(), db)


@pytest.mark.parametrize("path", FILES, ids=[p.name.split("-")[0] for p in FILES])
def test_the_solution_passes_its_steps_and_the_debrief_names_what_the_line_did(path: Path, db: CardDB) -> None:
    les = load_lesson(path, db)
    res = run(les.scenario)                       # the solution's own step expectations
    assert res.ok, res.message
    done = play(les, les.solution)
    assert done.progress.complete, (done.progress, done.refusals)
    for rid in les.rules:
        assert rulesdoc.normalize_id(rid) == rid, f"{path.name}: rule id {rid!r} has no section in docs/rules.md"
    text = debrief(les, done.game, done.since, done.answers)
    assert les.debrief in text and les.rule in text
    named = text.rsplit("Rules your line exercised: ", 1)[1].split(", ")
    assert set(named) <= set(exercised(done.game, done.since, les, done.answers))


def test_the_course_runs_basics_then_combat_then_realms(course: list[Lesson]) -> None:
    assert 35 <= len(course) <= 48
    parts = [PARTS.index(les.part) for les in course]
    assert parts == sorted(parts) and set(parts) == {0, 1, 2}
    assert len({les.key for les in course}) == len(course)
    assert all(les.briefing and les.goal and les.checks and les.wrong for les in course)


def test_a_lesson_is_one_of_a_section_or_a_realm_modifier(course: list[Lesson]) -> None:
    taught = {r for les in course for r in les.rules}
    assert set(C1K_SECTIONS) <= taught
    assert {r for _, r in REALM_MODIFIERS} | {"SEAT"} <= taught


def test_the_goal_is_read_from_events_not_the_final_position(db: CardDB) -> None:
    les = load_lesson(lessons_dir() / "02-respond-at-fast-speed.scenario.toml", db)
    played = play(les, les.wrong[0])        # Emberlash resolves unanswered
    assert played.progress.met == ("Mira plays Emberlash at the Acolyte",)
    assert played.progress.todo[0] == "Tomas answers with Tide of Recall (Fast)"


def test_a_refusal_gets_the_engines_why_not_and_the_lessons_hint(db: CardDB) -> None:
    les = load_lesson(lessons_dir() / "07-slow-waits-for-main.scenario.toml", db)
    played = play(les, ['p1: play "Lantern Acolyte"'])
    (cmd, rule, reason), = played.refusals
    assert rule == "OPP Slow"
    text = hint(les, played.game, rule, reason, played.since)
    assert text.startswith(f"why not? {reason} (OPP Slow)")
    assert "pass (space) until" in text and "next: influence.gain" in text


def test_every_window_entered_is_listed_with_its_rule_even_with_no_decision(db: CardDB) -> None:
    les = load_lesson(lessons_dir() / "09-influence-response.scenario.toml", db)
    played = play(les, les.solution)
    visits = windows_entered(events_of(played.game), played.since)
    assert [v.window for v in visits][:4] == ["draw.post", "influence.start", "influence.gain", "influence.response"]
    gain = visits[2]
    assert gain.rule == "C1K 2.2" and gain.line().startswith("T3 influence.gain (C1K 2.2): ")
    les = load_lesson(lessons_dir() / "26-ruin-decay-and-wither.scenario.toml", db)
    played = play(les, les.solution)
    damage = next(v for v in windows_entered(events_of(played.game)) if v.window == "combat.damage")
    assert damage.rule == "C1K 4.3" and any("Wither" in text for text, _ in damage.happened)


def test_every_coverage_row_has_text_a_lesson_that_requires_it_and_a_live_explanation(course: list[Lesson]) -> None:
    rows = course_ui.coverage_rows(course)
    sections = [r.section for r in rows if r.group == "C1K sections"]
    assert sections == list(C1K_SECTIONS) and {"C1K 3.2", "C1K 3.3", "C1K 3.4"} <= set(sections)
    labels = {r.section for r in rows}
    assert {"OPP Slow", "OPP Fast", "OPP Permissions", "AS Start of main", "AS Combat", "KW Veiled", "KW Tough",
            "KW Lifedrain", "SEAT"} <= labels
    assert any("Rooted" in x for x in labels) and any("Flux triggers" in x for x in labels)
    assert any("before Tough" in x for x in labels) and any("Pulse works from a relic" in x for x in labels)
    missing = [(r.section, r.text, r.lessons, r.live) for r in rows if not r.ok]
    assert not missing


def test_c1k_learn_coverage_prints_the_table() -> None:
    res = CliRunner().invoke(cli, ["learn", "--coverage"])
    assert "C1K 4.5" in res.output and "KW Voidcast" in res.output and "Traceback" not in res.output
    assert res.exit_code == 0 and "every row has text, a lesson whose goal requires it" in res.output


def test_progress_is_saved_in_c1k_home_and_suggests_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            course: list[Lesson]) -> None:
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    assert course_ui.completed() == set()
    assert course_ui.suggest_next(course, set()) is course[0]
    course_ui.mark_completed(course[0].key)
    course_ui.mark_completed(course[1].key)
    saved = json.loads((tmp_path / "lessons.json").read_text())
    assert saved == {"completed": sorted([course[0].key, course[1].key]),
                     "wrong_answers": {course[0].key: 0, course[1].key: 0}}
    assert [p.name for p in tmp_path.iterdir()] == ["lessons.json"]     # no temporary file left behind
    assert course_ui.suggest_next(course, course_ui.completed()) is course[2]
    res = CliRunner().invoke(cli, ["learn", "--list"])
    assert res.exit_code == 0
    assert f"✓  1. {course[0].title}" in res.output and f"Next: c1k learn 3  ({course[2].title})" in res.output
    (tmp_path / "lessons.json").write_text("{not json")
    assert course_ui.completed() == set()


def test_a_lesson_file_without_its_parts_is_refused_with_the_file(tmp_path: Path, db: CardDB) -> None:
    src = (lessons_dir() / "01-priority-and-the-stack.scenario.toml").read_text()
    bad = tmp_path / "x.scenario.toml"
    import re

    bad.write_text(re.sub(r"wrong = \[.*?\n\]\n", "", src, flags=re.S).replace('kind = "play"', 'kinds = "play"'))
    with pytest.raises(LessonError) as err:
        load_lesson(bad, db)
    text = "\n".join(err.value.problems)
    assert str(bad) in text and "lesson.wrong" in text and "lesson.check[1]: unknown key 'kinds'" in text


def _lesson_app(db: CardDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str) -> C1KApp:
    """The app on the lesson whose file name starts with `prefix`, progress saved under `tmp_path`."""
    from c1k_tui.model.builders import find_lessons, lesson_session
    from c1k_tui.screens.app import C1KApp

    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    info = next(x for x in find_lessons() if x.path.name.startswith(prefix))
    return C1KApp(db=db, session=lesson_session(db, info, tmp_path / "l.json"), lessons=find_lessons())


def test_the_lesson_panel_in_the_app_shows_windows_hints_and_progress(db: CardDB, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import Any

    from tests.tui.conftest import run_app

    app = _lesson_app(db, tmp_path, monkeypatch, "07-")

    async def body(pilot: Any) -> None:
        screen = app.match_screen
        assert screen is not None
        await pilot.pause()
        assert "· influence.gain: capacity 0 → 1" in screen.goal and "T3 draw.post (C1K 1.3)" in screen.goal
        assert "Units are Slow" in screen.goal            # the briefing, until the first step is met
        app.send('p1: play "Lantern Acolyte"')          # refused (practice mode): the hint joins the why-not
        await pilot.pause()
        assert "why not?" in screen.goal and "(OPP Slow)" in screen.goal and "pass (space) until" in screen.goal
        for cmd in ("p1: pass", "p2: pass"):
            app.send(cmd)
        await pilot.pause()
        assert "✓ influence.gain: capacity 0 → 1" in screen.goal
        assert "T3 influence.gain (C1K 2.2)" in screen.goal and not app.match.lesson_complete
        await pilot.pause(0.6)                            # the key guard: no key acts within 0.5 s of a table
        await pilot.press("R")                            # the rule book opens at the rule on screen
        await pilot.pause()
        from c1k_tui.screens.rule_screen import RuleBrowser

        assert isinstance(app.screen, RuleBrowser) and app.screen.rule_id == "OPP Slow"   # the last refusal

    run_app(app, body)


def test_the_learning_flow_of_a_hidden_match_names_no_hidden_card(db: CardDB) -> None:
    """rules.md §7a: the windows a player is shown carry only what that player may know."""
    from engine.lessons import windows_seen

    les = load_lesson(lessons_dir() / "35-seats.scenario.toml", db)
    played = play(les, les.solution)
    draw = [v for v in windows_seen(played.game, 0, played.since) if v.window == "draw.draw"]
    mine = " ".join(text for v in draw for text, _ in v.happened)
    assert "Mira draws Lantern Acolyte" in mine and "(draw_count)" in mine
    theirs = [v for v in windows_seen(played.game, 1, played.since) if v.window == "draw.draw"]
    text = " ".join(t for v in theirs for t, _ in v.happened)
    assert theirs and "Lantern Acolyte" not in text and "Briar Scout" not in text
    assert text.count("draws a card") == 2, text
    assert all(v.rule == "C1K 1.2" for v in theirs) and "SEAT" in theirs[0].rules()


def test_the_timing_violation_lesson_can_be_played_in_the_app(db: CardDB, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """In a lesson a refused command is sent to the engine (C1K 10 is what lesson 3 teaches)."""
    from typing import Any

    from tests.tui.conftest import run_app

    app = _lesson_app(db, tmp_path, monkeypatch, "03-")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.send("p1: pass")
        app.send('p2: play "Lantern Acolyte"')
        await pilot.pause()
        assert app.game.current_player() == 0                  # priority passed back to Mira
        screen = app.match_screen
        assert screen is not None and "✓ Tomas, holding priority in Mira's turn, tries his Unit" in screen.goal
        app.send("p1: pass")
        await pilot.pause()
        assert app.match.lesson_complete and course_ui.completed() == {"03-timing-violations"}

    run_app(app, body)


def test_the_debrief_lists_only_what_the_learners_own_line_exercised(db: CardDB) -> None:
    """Issue #19 item 6: not the lesson's declared rules, not every window passed through."""
    les = load_lesson(lessons_dir() / "07-slow-waits-for-main.scenario.toml", db)
    drift = play(les, les.wrong[0])      # the refusal, then passes through the Influence Phase into main
    assert exercised(drift.game, drift.since, les) == ["OPP Slow", "C1K 1.3", "C1K 10", "C1K 2.2"]
    text = debrief(les, drift.game, drift.since)
    assert text.endswith("Rules your line exercised: OPP Slow, C1K 1.3, C1K 10, C1K 2.2")
    assert "C1K 3.1" not in text.rsplit("\n", 1)[1] and "C1K 2.3" not in text   # windows merely passed through
    done = play(les, les.solution)
    assert exercised(done.game, done.since, les)[-3:] == ["C1K 3.1", "C1K 6", "AS Unit play"]
    idle = play(load_lesson(lessons_dir() / "01-priority-and-the-stack.scenario.toml", db), ["p1: pass", "p2: pass"])
    assert exercised(idle.game, idle.since) == []


def test_the_debrief_lists_the_rules_the_line_used_not_what_the_turn_did_by_itself(db: CardDB) -> None:
    """Issue #31 item 5: the windows the line's commands were typed in and what those commands invoked —
    not the draw, the Influence gained or the cleanup of windows merely passed through."""
    final = load_lesson(lessons_dir() / "15-final-window.scenario.toml", db)
    drift = play(final, ["p1: pass", "p2: pass"])         # into Tomas's turn: his draw, his Influence
    assert exercised(drift.game, drift.since, final) == ["C1K 5.3"]
    charge = load_lesson(lessons_dir() / "16-attack-with-charge.scenario.toml", db)
    idle = play(charge, charge.wrong[1])                   # passes to combat, declares no attack
    assert exercised(idle.game, idle.since, charge) == ["C1K 4.1"]   # not end.cleanup's C1K 5.2
    exhaust = load_lesson(lessons_dir() / "06-draw-and-deck-exhaustion.scenario.toml", db)
    done = play(exhaust, exhaust.solution)                 # the pass that resolved it: what put it there too
    assert "KW Deck exhaustion" in exercised(done.game, done.since, exhaust, done.answers)
    ties = load_lesson(lessons_dir() / "22-realm-tie-breaks.scenario.toml", db)
    done = play(ties, ties.solution)
    assert {"KW Decay check", "KW Regeneration", "C1K 8"} <= set(exercised(done.game, done.since, ties, done.answers))
    wither = load_lesson(lessons_dir() / "26-ruin-decay-and-wither.scenario.toml", db)
    unblocked = play(wither, wither.wrong[0])              # the line's attack: its combat damage is the line's
    assert "C1K 4.3" in exercised(unblocked.game, unblocked.since, wither)


def test_a_lesson_plays_in_the_text_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db: CardDB) -> None:
    """`c1k learn N` with piped input: the lesson's steps, hints, coaching and debrief as text."""
    monkeypatch.setenv("C1K_HOME", str(tmp_path))
    les = load_lesson(lessons_dir() / "15-final-window.scenario.toml", db)
    runner = CliRunner()
    res = runner.invoke(cli, ["learn", "15-final"], input="\n".join(les.solution) + "\n")
    assert res.exit_code == 0, res.output
    assert "NOW: next: Mira passes in her end.final" in res.output and "✓ LESSON COMPLETE" in res.output
    assert "Rules your line exercised:" in res.output and course_ui.completed() == {"15-final-window"}
    lost = runner.invoke(cli, ["learn", "15-final", "--text"], input="p1: pass\np2: pass\nundo\nquit\n")
    assert lost.exit_code == 1 and "can't be completed now" in lost.output and "undone" in lost.output
    assert "Traceback" not in lost.output
    bad = runner.invoke(cli, ["learn", "99-nothing", "--text"], input="")
    assert bad.exit_code != 0 and "no lesson '99-nothing'" in bad.output


def test_a_lesson_counts_for_a_coverage_row_only_if_its_goal_requires_the_rows_event(db: CardDB) -> None:
    """Tagging a rule (`lesson.rules`) is not enough: the event of one of its goal steps must be the row's."""
    import tomllib

    from engine.lessons import lesson_from_scenario, required_rows
    from engine.scenario import load_scenario

    path = lessons_dir() / "36-genesis-rooted-leaves-combat.scenario.toml"
    rooted = "Genesis: Rooted after its declaration, an attacker leaves combat"
    les = load_lesson(path, db)
    assert "KW Rooted" in les.rules and required_rows(les)[rooted] == 4 and required_rows(les)["KW Rooted"] == 4
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["lesson"]["check"] = data["lesson"]["check"][:3]          # the leaving-combat step dropped
    tagged = lesson_from_scenario(load_scenario(path, db), data)
    assert "KW Rooted" in tagged.rules
    assert rooted not in required_rows(tagged) and "KW Rooted" not in required_rows(tagged)


def test_lesson_29_completes_whichever_training_dummy_blocks_which_attacker(db: CardDB) -> None:
    """Issue #31 item 4: the goal says "each with a Training Dummy", and checks no more than that."""
    les = load_lesson(lessons_dir() / "26-ruin-decay-and-wither.scenario.toml", db)
    head = ["p1: attack hag rat", "p1: pass", "p2: pass"]
    for blocks in ("dummy1 -> hag, dummy2 -> rat", "dummy2 -> hag, dummy1 -> rat"):
        done = play(les, [*head, f"p2: block {blocks}", "p1: pass", "p2: pass"])
        assert not done.refusals and done.progress.complete, (blocks, done.progress)
    for blocks in ("dummy2 -> hag", "dummy1 -> rat", "none"):       # not each attacker blocked by a dummy
        assert not play(les, [*head, f"p2: block {blocks}", "p1: pass", "p2: pass"]).progress.complete, blocks
