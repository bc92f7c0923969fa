"""The hand-off screen takes Enter only, and not while the outgoing player's keys are still arriving
(rules.md §7a): Space passes priority on the table, so a double Space — or a key repeat — must leave the
next player's hand hidden behind the hand-off, not carry on through it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.menus import HandoffScreen
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


@pytest.fixture(autouse=True)
def _guard_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.4)


def test_space_never_dismisses_a_handoff(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), tmp_path))

    async def body(pilot: Any) -> None:
        assert isinstance(app.screen, HandoffScreen)
        await pilot.pause(0.5)                      # long after it appeared
        await pilot.press("space", "space")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await pilot.pause()
        back: object = app.screen        # (isinstance above narrowed app.screen; a key changed it)
        assert back is app.match_screen

    run_app(app, body)


def test_a_double_press_on_the_table_stops_at_the_handoff(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), tmp_path))

    async def body(pilot: Any) -> None:
        await pilot.pause(0.5)
        await pilot.press("enter")                  # Mira takes the keyboard
        await pilot.pause()
        assert app.screen is app.match_screen and app.game.current_player() == 0
        # Mira passes priority and her finger bounces: Space, then Enter at once (the table's "play")
        await pilot.press("space", "enter")
        await pilot.pause()
        assert app.game.current_player() == 1
        assert isinstance(app.screen, HandoffScreen), "Tomas's hand must stay behind the hand-off"
        assert app.viewer != 1 or isinstance(app.screen, HandoffScreen)
        await pilot.pause(0.5)                      # Tomas sits down and presses Enter
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.match_screen and app.viewer == 1

    run_app(app, body)
