"""Forgiving input (issue 8 item 5): number keys select and Enter plays; typed and picked refusals cost
the same; text fields take the focus and hotkeys never fire while typing; dialogs are keyboard-first;
on/off differ by glyph; an undo request hands the keyboard to the other player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.confirm_modal import ConfirmModal
from c1k_tui.screens.controls import ChoiceList
from c1k_tui.screens.game_over import GameOverScreen
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.match_screen import MatchScreen
from c1k_tui.screens.options_modal import OptionsModal
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


def test_number_keys_select_and_enter_plays(db: CardDB) -> None:
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Recruit"]      # Test Favor: no target, no slot
    app = C1KApp(db=db, session=session_from(db, data, open_hands=True))

    async def body(pilot: Any) -> None:
        g = app.game
        screen = app.match_screen
        assert screen is not None
        await pilot.press("1")
        await pilot.pause()
        assert g.record == [] and screen.cursor == ("hand", 0)       # selected, nothing sent
        assert "Test Favor" in str(screen.status) and "Enter" in str(screen.status)
        await pilot.press("2")
        await pilot.pause()
        assert g.record == [] and screen.cursor == ("hand", 1)
        await pilot.press("1", "enter")
        await pilot.pause()
        favor = next(c for c in sorted(g.defs) if g.exists(c) and g.card(c).name == "Test Favor")
        assert g.record == [f"p1: play #{favor}"]

    run_app(app, body)


def test_quick_play_restores_one_key_plays(db: CardDB) -> None:
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor"]
    app = C1KApp(db=db, session=session_from(db, data, open_hands=True))
    app.match.quick_play = True

    async def body(pilot: Any) -> None:
        await pilot.press("1")
        await pilot.pause()
        assert len(app.game.record) == 1 and app.game.record[0].startswith("p1: play #")

    run_app(app, body)


def test_a_refusal_costs_the_same_typed_or_picked(db: CardDB) -> None:
    """Both are checked before sending: not sent, the player keeps priority, the reason and rule shown."""
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))

    async def body(pilot: Any) -> None:
        g = app.game
        screen = app.match_screen
        assert screen is not None
        await pilot.press("colon", *'play "Test Knight"', "enter")        # not in hand
        await pilot.pause()
        typed = str(screen.status)
        # the refused command stays on the line for editing (tui.md round 2): Esc clears it
        assert screen.query_one("#command").value == 'play "Test Knight"'   # type: ignore[attr-defined]
        await pilot.press("escape", "colon", *"block none", "enter")
        await pilot.pause()
        assert "C1K 4.2" in str(screen.status) and "not sent" in str(screen.status)
        assert g.record == [] and g.current_player() == 0 and not any("refused" in x for x in g.log_lines)
        assert typed

    run_app(app, body)


def _game_over_app(db: CardDB) -> C1KApp:
    return C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))


def test_game_over_save_field_swallows_hotkeys(db: CardDB, tmp_path: Path) -> None:
    app = _game_over_app(db)
    target = tmp_path / "my-record.json"

    async def body(pilot: Any) -> None:
        await pilot.press("colon", *"concede", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        # the seed is shown once the match is over (rules.md §7), never before
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert f"seed: {app.game.seed}" in shown
        # s enters the save field (tui.md round 2: it no longer has the focus by itself); typing a path
        # with r, n, v, s and q in it: all of it goes into the field, no rematch
        await pilot.press("s", *str(target), "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and target.exists()
        assert "saved to" in str(app.screen.query_one("#save-msg").render())
        await pilot.press("escape")           # out of the field (it has already left it after saving)
        await pilot.press("r")                # now r is the Rematch key
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen) and app.game.record == []

    run_app(app, body)


def test_options_dialog_is_keyboard_first_with_glyphs(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="stops"))

    async def body(pilot: Any) -> None:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OptionsModal)
        cl = app.screen.query_one(ChoiceList)
        assert cl.has_focus
        text = str(cl.render())
        assert "(●)" in text and "( )" in text               # radio states differ by glyph
        first = cl.cursor
        await pilot.press("down", "down", "down")            # arrows move between options (not scroll)
        await pilot.pause()
        assert cl.choices[cl.cursor].key == "flow-full" and cl.cursor > first
        await pilot.press("space", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen) and app.session is not None
        assert app.session.flow.mode == "full"

    run_app(app, body)


def test_undo_request_hides_the_hand_and_asks_the_other_player(db: CardDB) -> None:
    """Mira asks to undo her own last action (her attack): her hand is hidden at once and Tomas, at the
    keyboard, agrees or not; before that, Tomas asking to undo Mira's pass is told nothing of his can be."""
    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="full"))

    async def body(pilot: Any) -> None:
        g = app.game
        await pilot.press("enter")             # Mira (p1) takes the keyboard
        await pilot.pause()
        await pilot.press("space")             # p1 passes: p2 decides
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("u")                 # Tomas asks to undo Mira's pass: not his to undo
        await pilot.pause()
        ms: Any = app.screen                   # no hand-off: Tomas's own table, with the reason
        assert ms is app.match_screen and ms is not None and "nothing of yours can be undone" in str(ms.status)
        await pilot.press("space")             # Tomas passes: Mira declares attackers
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        app.send(f"attack #{g.players[0].units()[0]}")
        await pilot.pause()
        assert app.game.current_player() == 0 and len(app.game.record) == 3
        await pilot.press("u")                 # Mira asks to undo her attack ... Tomas must agree
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        assert "Tomas" in " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert app.match_screen is not None and app.match_screen.view is not None
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        # behind the question: Tomas's own hand, not Mira's
        assert app.match_screen.view.viewer == 1
        assert all(c.cid in g.players[1].hand for c in app.match_screen.view.hand)
        await pilot.press("y")
        await pilot.pause()
        assert app.game.record == ["p1: pass", "p2: pass"]

    run_app(app, body)


def test_pacing_steps_the_phase_bar_through_passed_windows(db: CardDB) -> None:
    from c1k_tui.screens.widgets import PhaseBar

    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="stops"))
    app.match.pace_ms = 1
    steps: list[tuple[int, int]] = []

    async def body(pilot: Any) -> None:
        bar = app.screen.query_one("#phases", PhaseBar)
        real = bar.step_to
        def step_to(turn: int, index: int) -> None:
            steps.append((turn, index))
            real(turn, index)

        bar.step_to = step_to  # type: ignore[method-assign]
        g = app.game
        for _ in range(8):                 # Mira passes; the flow options pass through to Tomas's turn
            kind = g.decision.kind
            app.send({"attackers": "attack none", "blockers": "block none"}.get(kind, "pass"))
            for _ in range(2000):          # until the stepping is over (however slow the machine)
                await pilot.pause(0.01)
                if not app.pacing:
                    break
            assert not app.pacing
            if g.turn > 3:
                break
        assert g.turn >= 4
        # the windows passed through, in the order of the match (the turn changes from 3 to 4 on the way)
        assert len(steps) >= 3 and steps == sorted(steps)
        assert {t for t, _ in steps} >= {3, 4}
        assert app.screen.query_one("#phases", PhaseBar).stepping is None    # back to the real window

    run_app(app, body)


def test_no_pacing_step_acts_once_its_match_screen_is_gone(db: CardDB) -> None:
    """The pacing steps are the match screen's timers: once the screen is gone (a rematch, the start screen
    again, the app quitting) none of them steps a phase bar or shows what comes next, and keys no longer
    wait for them. (A step that fired on a screen being torn down failed a test under load: NoMatches.)"""
    from c1k_tui.screens.widgets import PhaseBar

    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="stops"))
    app.match.pace_ms = 40
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        ms = app.match_screen
        assert ms is not None
        steps: list[tuple[int, int]] = []
        ms.query_one("#phases", PhaseBar).step_to = lambda turn, index: steps.append((turn, index))  # type: ignore[method-assign]
        presented: list[int] = []
        app.present = lambda: presented.append(1)  # type: ignore[method-assign]
        g = app.game
        for _ in range(8):                 # Mira passes until the flow options step through passed windows
            app.send({"attackers": "attack none", "blockers": "block none"}.get(g.decision.kind, "pass"))
            if app.pacing:
                break
            await pilot.pause()
        assert app.pacing, "no pass stepped through windows: the test did not reach pacing"
        before = (len(steps), len(presented))
        app._leave_match()                 # the match screen goes while its steps are due
        for _ in range(50):
            await pilot.pause(0.02)
        out.update(before=before, after=(len(steps), len(presented)), pacing=app.pacing)

    run_app(app, body)
    assert out["after"] == out["before"], f"a pacing step acted after its screen was gone: {out}"
    assert out["pacing"] is False, "keys still wait for a pacing whose screen is gone"


def test_stops_are_saved_per_player_in_c1k_home(db: CardDB, tmp_path: Path) -> None:
    from c1k_tui.model.builders import StartChoice, new_session
    from c1k_tui.model.paths import DEFAULT_STOPS, load_stops, save_stops, stops_file

    assert save_stops({"Mira": ["own:main.priority", "opp:end.final"]}) == ""
    assert "c1k-home" in str(stops_file())                  # under C1K_HOME (the test's own folder)
    assert load_stops("Mira") == ["opp:end.final", "own:main.priority"] and load_stops("Tomas") is None
    s = new_session(db, StartChoice("ironbound", "emberfall", 3, "Tomas", "Mira", False, False, "stops"),
                    tmp_path / "m.json")
    assert s.flow.stops["p2"] == ["opp:end.final", "own:main.priority"]      # Mira's, in seat 2 now
    assert s.flow.stops["p1"] == list(DEFAULT_STOPS)


def test_multi_choice_is_keyboard_first_with_glyphs() -> None:
    import asyncio

    from textual.app import App

    from c1k_tui.screens.multi_choice_modal import MultiChoiceModal

    got: list[str | None] = []

    class A(App[None]):
        def on_mount(self) -> None:
            self.push_screen(MultiChoiceModal("Discard 2", ["Ember", "Wall", "Knight"], 2, True, "C1K 5.2"),
                             got.append)

    async def main() -> None:
        app = A()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            cl = app.screen.query_one(ChoiceList)
            assert "[ ] 1. Ember" in str(cl.render())
            await pilot.press("space", "enter")              # one marked: not enough, says so
            await pilot.pause()
            assert not got and "mark 1 more with Space (exactly 2)" in str(app.screen.query_one("#multi-msg").render())
            assert "[✓] 1. Ember" in str(cl.render())
            await pilot.press("down", "down", "space", "enter")
            await pilot.pause()
            assert got == ["choose 1 3"]

    asyncio.run(main())


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_space_at_a_declaration_names_the_keys_that_answer_it(db: CardDB, size: tuple[int, int]) -> None:
    """C1K 4.1: Space (pass) can't answer "declare attackers"; the refusal says which keys do (n attack none,
    c confirm) instead of leaving the player to guess, nothing is sent, and at 80 columns the message takes
    a second row rather than losing its end (the keys and the rule id)."""
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))

    async def body(pilot: Any) -> None:
        g = app.game
        app.send("pass")          # p1 passes the Main Phase, p2 passes: p1 declares attackers
        app.send("pass")
        await pilot.pause()
        screen = app.match_screen
        assert screen is not None and g.decision.kind == "attackers" and g.current_player() == 0
        sent = list(g.record)
        await pilot.press("space")
        await pilot.pause()
        said = str(screen.status)
        assert "not an answer" in said and "n attack none" in said and "c confirm" in said
        row = screen.query_one("#status", Static)
        shown = str(row.render())
        assert "n attack none" in shown and "C1K 4.1" in shown
        if size[0] == 80:
            assert row.styles.height is not None and row.styles.height.value == 2
        assert g.record == sent and g.decision.kind == "attackers"
        await pilot.press("n")
        await pilot.pause()
        assert g.record == [*sent, "p1: attack none"]

    run_app(app, body, size)
