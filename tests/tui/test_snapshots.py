"""SVG snapshots (pytest-textual-snapshot, textual pinned in pyproject.toml) at a fixed terminal size.

Positions come from scenarios, so every id, number and word on screen is exact. Update with
`pytest tests/tui/test_snapshots.py --snapshot-update` after checking the new pictures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from c1k_tui.screens.app import C1KApp
from engine.cards import CardDB
from tests.tui.conftest import session_from, snapshot_data

SIZE = (120, 40)


def keys(*pressed: str) -> Any:
    """A run_before that waits until the app has shown its first screen (the match, or a hand-off: the
    app presents after its first refresh, which a loaded machine can delay past the first key), then
    presses the keys one by one — so the picture never depends on the machine's load."""

    async def run(pilot: Any) -> None:
        from c1k_tui.screens.handoff_screen import HandoffScreen

        for _ in range(500):
            if isinstance(pilot.app.screen, HandoffScreen) or pilot.app.viewer in (0, 1):
                break
            await pilot.pause(0.01)
        await pilot.wait_for_scheduled_animations()      # e.g. the tab underline moving to the Recap tab
        for key in pressed:
            await pilot.press(key)
            await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    return run


def _stack_of_three(db: CardDB) -> C1KApp:
    data = snapshot_data()
    data["p1"]["hand"] = ["Test Bolt", "Test Favor"]
    data["p1"]["influence"] = 3
    s = session_from(db, data, open_hands=True)
    g = s.game
    knight, wall = g.players[0].units()[0], g.players[1].units()[0]
    s.send(f"play \"Test Bolt\" target #{wall}")
    s.send(f"play \"Test Bolt\" target #{knight}")
    s.send("play \"Test Favor\"")
    assert len(g.stack) == 3
    return C1KApp(db=db, session=s)


def test_main_screen(snap_compare: Any, db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), open_hands=True))
    assert snap_compare(app, terminal_size=SIZE, run_before=keys())


def test_handoff_screen(snap_compare: Any, db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data()))
    # after p1's pass, p2 must decide: the opaque hand-off screen, public facts only
    assert snap_compare(app, terminal_size=SIZE, run_before=keys("enter", "space"))


def test_stack_with_three_items(snap_compare: Any, db: CardDB) -> None:
    assert snap_compare(_stack_of_three(db), terminal_size=SIZE, run_before=keys())


def test_rules_panel_with_why_not_at_80x24(snap_compare: Any, db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), open_hands=True))
    # after p1's pass, p2 decides; the cursor on a hand card that can't be played now (a Slow unit in the
    # opponent's turn): the card panel says why not, with the rule — in the small layout (rules in tabs)
    assert snap_compare(app, terminal_size=(80, 24), run_before=keys("space", "right"))


# ---- issue 8: the screens a hot-seat match goes through, at both sizes (layouts that fit)

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}


def _params() -> Callable[[Callable[..., None]], Callable[..., None]]:
    import pytest

    return pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))


@_params()
def test_match_screen_sizes(snap_compare: Any, db: CardDB, size: str) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), open_hands=True))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys())


@_params()
def test_handoff_with_recap(snap_compare: Any, db: CardDB, size: str) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), flow="stops"))
    # Mira takes the keyboard, selects the Test Recruit (1), plays it (Enter) into the first empty slot
    # (Enter): Tomas's hand-off screen recaps her play
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys("enter", "1", "enter", "enter"))


@_params()
def test_help_fits(snap_compare: Any, db: CardDB, size: str) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), open_hands=True))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys("question_mark"))


@_params()
def test_flow_options(snap_compare: Any, db: CardDB, size: str) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), open_hands=True))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys("o", "down"))


@_params()
def test_game_over(snap_compare: Any, db: CardDB, size: str) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), open_hands=True))

    async def steady(pilot: Any) -> None:
        await keys()(pilot)                  # the first table is shown (keys before it are dropped)
        await pilot.press("colon", *"concede", "enter", "y")
        await pilot.pause()
        for field in pilot.app.screen.query("Input"):
            field.cursor_blink = False       # the focused save field: no blinking cursor in a picture
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=steady)


# ---- issue 11 item 5 and issue 8: the learning flow, and the recap at 80×24


async def _settle(pilot: Any) -> None:
    """Wait out the phase bar's stepping (pacing) and freeze the focused field's cursor for the picture."""
    for _ in range(500):
        await pilot.pause(0.01)
        if not pilot.app.pacing:
            break
    for field in pilot.app.screen.query("Input"):
        field.cursor_blink = False
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


@_params()
def test_learning_flow_handoff(snap_compare: Any, db: CardDB, size: str) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), flow="learning"))
    app.match.pace_ms = 1

    async def steady(pilot: Any) -> None:
        # Mira takes the keyboard, passes, attacks with nothing: the windows entered on the way to Tomas's
        # turn, each with its rule id and what happened in it
        from c1k_tui.screens.handoff_screen import HandoffScreen

        for _ in range(200):                # Mira's hand-off screen first
            if isinstance(pilot.app.screen, HandoffScreen):
                break
            await pilot.pause(0.01)
        for key in ("enter", "space", "n"):
            await pilot.press(key)
            await _settle(pilot)
        assert isinstance(pilot.app.screen, HandoffScreen) and pilot.app.screen.player_name == "Tomas"

    assert snap_compare(app, terminal_size=SIZES[size], run_before=steady)


def test_recap_tab_at_80x24(snap_compare: Any, db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, snapshot_data(), flow="stops"))

    async def steady(pilot: Any) -> None:
        # Mira plays her Test Recruit; Tomas takes the keyboard: the Recap tab, its newest lines, full width
        from c1k_tui.screens.handoff_screen import HandoffScreen

        for _ in range(200):                # Mira's hand-off screen first
            if isinstance(pilot.app.screen, HandoffScreen):
                break
            await pilot.pause(0.01)
        for key in ("enter", "1", "enter", "enter"):
            await pilot.press(key)
            await pilot.pause()
        assert isinstance(pilot.app.screen, HandoffScreen) and pilot.app.screen.player_name == "Tomas"
        await pilot.press("enter")
        await _settle(pilot)
        assert pilot.app.screen is pilot.app.match_screen

    assert snap_compare(app, terminal_size=(80, 24), run_before=steady)


@_params()
def test_seven_slots_and_two_copies(snap_compare: Any, db: CardDB, size: str) -> None:
    """Issue 27 item 6: a Seat's 7 unit slots on one line at 120 and 80 columns; two copies of a card on
    the board read apart by their numbers."""
    data = snapshot_data()
    data["p1"]["seat"] = "Seat of the Crowded Field"
    data["p1"]["board"] = [{"card": "Test Knight", "as": "knight", "slot": 1},
                           {"card": "Test Recruit", "as": "r1", "slot": 6}, {"card": "Test Recruit", "as": "r2", "slot": 7}]
    app = C1KApp(db=db, session=session_from(db, data, open_hands=True))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=keys())
