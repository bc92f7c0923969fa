"""The hand-off screen takes Enter only, and not while the outgoing player's keys are still arriving
(rules.md §7a): Space passes priority on the table, so a double Space — or a key repeat — must leave the
next player's hand hidden behind the hand-off, not carry on through it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.handoff_screen import HandoffScreen
from engine.cards import CardDB
from tests.tui.conftest import current_screen, favor_first, flow_data, press_at, run_app, session_from


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
        await pilot.pause(0.5)                      # and has seen her table (keys wait 0.4 s here)
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




@pytest.mark.parametrize("second, queued", [(0.5, False), (0.15, True)], ids=["0.5s-apart", "both-queued"])
def test_enter_twice_at_a_handoff_plays_no_card(db: CardDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               second: float, queued: bool) -> None:
    """tui.md round 2: dismissing a hand-off can never play a card, even with Enter pressed twice 0.5 s
    apart — the table it uncovers ignores keys for 0.5 s after its player first sees it. Round 3: nor when
    both presses arrive before the app reads either (a busy machine) — the second, admitted while the
    hand-off was up, must not reach the table once the hand-off is gone."""
    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.5)
    app = C1KApp(db=db, session=favor_first(db, tmp_path))

    async def body(pilot: Any) -> None:
        await pilot.pause(0.6)
        assert isinstance(app.screen, HandoffScreen)
        records = len(app.game.record)
        t0 = time.monotonic()
        press_at(app, "enter", t0)                       # Mira takes the keyboard…
        if not queued:
            await pilot.pause()
        press_at(app, "enter", t0 + second)              # …and her second Enter lands on the table
        await pilot.pause(0.2)
        assert len(app.game.record) == records, f"a command was sent: {app.game.record[records:]}"
        assert current_screen(app) is app.match_screen and app.viewer == 0
        await pilot.pause(0.6)                       # once she has seen her table, her keys act
        press_at(app, "space", time.monotonic())
        await pilot.pause(0.3)
        assert app.game.record[records:] == ["p1: pass"], "the table never took a key"

    run_app(app, body)


@pytest.mark.parametrize("open_hands", [True, False])
def test_a_second_enter_on_begin_plays_no_card_on_the_first_table(db: CardDB, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  open_hands: bool) -> None:
    """tui.md round 2: with open hands (or against the AI) no hand-off comes before the first table, so the
    Enter that began the match, pressed twice, would land on the first card of the hand: the first table
    of a match ignores keys for the guard after it appears, like a table after a hand-off."""
    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.5)
    session = favor_first(db, tmp_path, open_hands=open_hands)
    records = len(session.game.record)
    app = C1KApp(db=db, session=session)

    async def body(pilot: Any) -> None:
        # (the first table's paint, not the test's clock: on a loaded machine the test runs well after it)
        t0 = app.keys.painted_at if app.keys.painted_at is not None else time.monotonic()
        if not open_hands:                           # hot-seat: the hand-off comes first, and is guarded
            await pilot.pause(0.6)
            assert isinstance(app.screen, HandoffScreen)
            t0 = time.monotonic()
            press_at(app, "enter", t0)
            await pilot.pause()
        press_at(app, "enter", t0 + 0.1)                 # the second press, 0.1 s after the first
        await pilot.pause(0.2)
        assert current_screen(app) is app.match_screen and app.viewer == 0
        assert len(app.game.record) == records, f"a command was sent: {app.game.record[records:]}"
        await pilot.pause(0.6)                       # once the player has seen the table, keys act
        press_at(app, "space", time.monotonic())
        await pilot.pause(0.3)
        assert app.game.record[records:] == ["p1: pass"], "the table never took a key"

    run_app(app, body)


def test_keys_pressed_while_the_engine_advances_are_dropped(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), tmp_path, open_hands=True))

    async def body(pilot: Any) -> None:
        await pilot.pause()
        assert app.screen is app.match_screen and app.game.current_player() == 0
        records = len(app.game.record)
        t0 = time.monotonic()
        app.keys.command_sent()                       # the engine starts advancing (as in send)
        press_at(app, "space", t0)                       # a key pressed meanwhile: not buffered
        await pilot.pause()
        app.shown("table", app.viewer)                # the same player's table again, repainted
        await pilot.pause(0.1)
        assert len(app.game.record) == records
        press_at(app, "space", time.monotonic())          # after the repaint, keys act again
        for _ in range(40):                               # (a loaded machine reads the key late)
            await pilot.pause(0.05)
            if len(app.game.record) > records:
                break
        assert len(app.game.record) == records + 1

    run_app(app, body)
