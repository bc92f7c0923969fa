"""Each player's own options (issue 8 item 3: saved per player in C1K_HOME, with the stops) and a failed
autosave shown in the app, the match going on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from c1k_tui.model.paths import PlayerPrefs, load_prefs, prefs_file, save_prefs, state_dir
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.controls import ChoiceList
from c1k_tui.screens.game_over import GameOverScreen
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.options_modal import OptionsModal
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


def test_options_round_trip_by_player_name() -> None:
    assert save_prefs({"Mira": PlayerPrefs(["own:main.priority"], 400, True)}) == ""
    assert save_prefs({"Tomas": PlayerPrefs(None, 150, False)}) == ""        # merged, Mira's kept
    assert load_prefs("Mira") == (PlayerPrefs(["own:main.priority"], 400, True), "")
    assert load_prefs("Tomas") == (PlayerPrefs(None, 150, False), "")
    assert load_prefs("Ada") == (None, "")
    assert [p.name for p in prefs_file().parent.iterdir()] == ["players.json"]    # atomic: no stray temp file


def test_the_first_versions_stops_file_is_still_read() -> None:
    state_dir().mkdir(parents=True)
    (state_dir() / "stops.json").write_text(json.dumps({"Mira": ["opp:end.final"]}))
    assert load_prefs("Mira") == (PlayerPrefs(["opp:end.final"]), "")


def test_a_broken_options_file_is_a_message_and_is_kept_aside() -> None:
    state_dir().mkdir(parents=True)
    prefs_file().write_text('{"Mira": {"pace_ms": 400,')               # cut short
    got, err = load_prefs("Mira")
    assert got is None and "players.json is not valid JSON" in err and "the defaults are" in err
    note = save_prefs({"Mira": PlayerPrefs(None, 150, True)})
    assert "kept as" in note and "players.json.broken" in note
    assert (state_dir() / "players.json.broken").read_text().startswith('{"Mira"')
    assert load_prefs("Mira") == (PlayerPrefs(None, 150, True), "")
    # values of the wrong type are not trusted: the defaults, and a notice naming the key (issue #23)
    prefs_file().write_text(json.dumps({"Mira": {"pace_ms": "fast", "quick_play": 1, "stops": "all"}}))
    got2, err2 = load_prefs("Mira")
    assert got2 is None and "'Mira'.stops: expected a list of stops" in err2


def test_options_dialog_saves_each_players_quick_play_and_pace(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="stops"))

    async def body(pilot: Any) -> None:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OptionsModal)
        cl = app.screen.query_one(ChoiceList)
        keys = [c.key for c in cl.choices]
        for key in ("quick-p2", "pace-p2-400", "pace-p1-150"):
            cl.cursor = keys.index(key)
            await pilot.press("space")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert [(p.quick_play, p.pace_ms) for p in app.match.prefs] == [(False, 150), (True, 400)]

    run_app(app, body)
    assert load_prefs("Tomas")[0] == PlayerPrefs(sorted(app.session.flow.stops["p2"]), 400, True)  # type: ignore[union-attr]
    assert load_prefs("Mira")[0].pace_ms == 150  # type: ignore[union-attr]
    # the next match of these players starts with their options, whatever seat they sit in
    app2 = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="stops"))

    async def body2(pilot: Any) -> None:
        assert [(p.quick_play, p.pace_ms) for p in app2.match.prefs] == [(False, 150), (True, 400)]
        assert app2.match.quick_play is False          # Mira (p1) has the keyboard
        app2.viewer = 1
        assert app2.match.quick_play is True and app2.match.pace_ms == 400

    run_app(app2, body2)


def test_a_broken_options_file_is_a_notice_not_a_traceback(db: CardDB) -> None:
    state_dir().mkdir(parents=True)
    prefs_file().write_text("not json")
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))
    said: list[tuple[str, str]] = []
    real = app.notify
    app.notify = lambda message, **kw: (said.append((message, kw.get("title", ""))), real(message, **kw))[1]  # type: ignore[method-assign,func-returns-value]

    async def body(pilot: Any) -> None:
        await pilot.pause()
        assert any("players.json is not valid JSON" in m and t == "Player options" for m, t in said)

    run_app(app, body)


def test_a_failed_autosave_is_one_notice_a_title_mark_and_the_game_overs_hint(db: CardDB, tmp_path: Path) -> None:
    """The model's twin of test_failed_autosave_is_shown_and_the_match_goes_on (slow tier): what the App
    shows of a failed autosave is `MatchFlow`'s — one error notice naming the file and why, "NOT AUTOSAVED"
    in the title, no second notice while it keeps failing, and the game-over screen's hint."""
    from c1k_tui.model.flow import MatchFlow, ShowGameOver

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    target = blocker / "match.json"            # a folder that can't be made: the autosave fails
    s = session_from(db, flow_data(), flow="stops")
    s.save_path = target
    mf = MatchFlow()
    mf.start(s)                                # (starting saves the match)
    notes, changed = mf.take_notices()
    errors = [m for m, t, sev in notes if t == "Autosave failed" and sev == "error"]
    assert changed and len(errors) == 1 and errors[0].startswith(f"autosave to {target} failed: "), notes
    assert str(blocker) in errors[0].split("failed: ", 1)[1]          # the reason: the folder on the way is a file
    assert "NOT AUTOSAVED" in mf.title_extra()
    assert mf.send("pass").sent                 # the game goes on …
    again, changed = mf.take_notices()
    assert not changed and not [m for m, t, _ in again if t == "Autosave failed"], again   # … and says it once
    mf.concede()
    over = mf.next()
    assert mf.game.is_terminal() and isinstance(over, ShowGameOver) and over.hint.startswith("NOT autosaved"), over


def test_failed_autosave_is_shown_and_the_match_goes_on(db: CardDB, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    target = blocker / "match.json"            # a folder that can't be made: the autosave fails
    s = session_from(db, flow_data(), flow="stops")
    s.save_path = target
    app = C1KApp(db=db, session=s)
    said: list[tuple[str, str, str]] = []
    real = app.notify
    app.notify = lambda message, **kw: (said.append((message, kw.get("title", ""), kw.get("severity", ""))),  # type: ignore[method-assign,func-returns-value]
                                        real(message, **kw))[1]

    async def body(pilot: Any) -> None:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await pilot.pause()
        assert s.save_error and str(target) in s.save_error
        errors = [m for m, t, sev in said if t == "Autosave failed" and sev == "error"]
        # the file and the reason: the folder on the way is a file
        assert len(errors) == 1 and errors[0].startswith(f"autosave to {target} failed: ")
        assert str(blocker) in errors[0].split("failed: ", 1)[1]
        assert "NOT AUTOSAVED" in str(app.screen.query_one("#title").render())
        # the game goes on, and the notice is not repeated at every command
        app.send("concede")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.game.is_terminal()
        assert isinstance(app.screen, GameOverScreen)
        assert "NOT autosaved" in " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert len([1 for _, t, _ in said if t == "Autosave failed"]) == 1

    run_app(app, body)
