"""The hot-seat table, round 2 (issue 18 items 4–10; tui.md "The hot-seat table, round 2"): the start
screen's Enter, 80×24, the whole log, the game-over screen, cursors on legal targets, choices in words,
completion and history. Screens are driven with Pilot at 120×40 and 80×24."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from c1k_tui.app import C1KApp
from c1k_tui.screens import StartChoice, StartScreen
from engine.cards import CardDB

from .conftest import run_app

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}


# ---------------------------------------------------------------- item 4: Enter starts


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_enter_on_the_first_field_of_the_start_screen_starts_the_match(db: CardDB, tmp_path: Path,
                                                                        size: str) -> None:
    app = C1KApp(db=db, mode="start", autosave=tmp_path / "a.json",
                 start=StartChoice("ironbound", "emberfall", 9, "Ana", "Tomas", False, False, "stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        out["focus"] = app.screen.focused.id if app.screen.focused is not None else None
        await pilot.press("enter")
        await pilot.pause()
        out["screen"] = type(app.screen).__name__
        out["session"] = app.session is not None

    run_app(app, body, SIZES[size])
    assert out["focus"] == "deck-a"                      # the first field has the focus …
    assert out["session"] and out["screen"] != "StartScreen"   # … and Enter started the match there


def test_enter_on_a_start_screen_button_presses_that_button(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, mode="start", autosave=tmp_path / "a.json",
                 start=StartChoice("ironbound", "emberfall", 9, "Ana", "Tomas", False, False, "stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.screen.query_one("#lessons").focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        out["screen"] = type(app.screen).__name__

    run_app(app, body)
    assert out["screen"] == "LessonsScreen"


def test_down_opens_the_deck_list_and_enter_there_picks_a_deck(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, mode="start", autosave=tmp_path / "a.json",
                 start=StartChoice("ironbound", "emberfall", 9, "Ana", "Tomas", False, False, "stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        from textual.widgets import Select

        await pilot.pause()
        await pilot.press("down")        # opens the list
        await pilot.pause()
        await pilot.press("down", "enter")   # the next deck, picked: the match is not started yet
        await pilot.pause()
        out["screen"] = isinstance(app.screen, StartScreen)
        out["deck"] = app.screen.query_one("#deck-a", Select).value

    run_app(app, body)
    assert out["screen"] and out["deck"] != "ironbound"
