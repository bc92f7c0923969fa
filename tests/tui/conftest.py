"""Shared helpers for the app's tests: exact positions from scenarios, and a Pilot runner."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from c1k_tui.model.session import Flow, MatchSession
from c1k_tui.screens.app import C1KApp
from engine.cards import CardDB, load_card_db
from engine.scenario import scenario_from_data

SIZE = (120, 40)

CARDS = [
    {"id": "test-knight", "name": "Test Knight", "type": "unit", "realm": "neutral", "cost": 2, "power": 3,
     "health": 4, "text": "A plain 3/4."},
    {"id": "test-wall", "name": "Test Wall", "type": "unit", "realm": "neutral", "cost": 2, "power": 1,
     "health": 5, "text": "A plain 1/5."},
    {"id": "test-recruit", "name": "Test Recruit", "type": "unit", "realm": "neutral", "cost": 2, "power": 2,
     "health": 2, "text": "A plain 2/2."},
    {"id": "test-bolt", "name": "Test Bolt", "type": "action", "realm": "neutral", "cost": 1, "speed": "fast",
     "text": "Deal 2 damage to a unit.", "effect": [{"do": "damage", "amount": 2, "target": "unit"}]},
    {"id": "test-favor", "name": "Test Favor", "type": "action", "realm": "neutral", "cost": 1, "speed": "fast",
     "text": "Gain 2 Influence.", "effect": [{"do": "gain_influence", "amount": 2}]},
]


def snapshot_data() -> dict[str, Any]:
    """flow_data() with only the test's own cards, so a change to the card set never moves a snapshot."""
    data = flow_data()
    data["p2"]["hand"] = ["Test Bolt", "Test Recruit"]
    return data


@pytest.fixture(autouse=True)
def _no_handoff_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot presses keys faster than people: the hand-off's guard against a double press is off, but in
    tests/tui/test_handoff_guard.py."""
    from c1k_tui.screens.handoff_screen import HandoffScreen
    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.0)


@pytest.fixture(autouse=True)
def _no_own_cards() -> Iterator[None]:
    """This run's own cards (`--cards`, the start screen's *own cards*) are process-wide: none before a test,
    and none left behind for the next one."""
    from c1k_tui.model import cardset

    cardset.use([])
    yield
    cardset.use([])


@pytest.fixture(scope="session")
def db() -> CardDB:
    return load_card_db()


def flow_data(**over: Any) -> dict[str, Any]:
    """p1 (active, main.priority) has a Test Knight in play and a Test Recruit in hand; p2 has a Test Wall in
    play and Emberlash (Fast: 2 damage to a unit) in hand, with Influence to play it."""
    data: dict[str, Any] = {
        "scenario": {"title": "flow", "seed": 5, "turn": 3, "active": "p1", "window": "main.priority"},
        "card": CARDS,
        "p1": {"name": "Mira", "life": 20, "influence": 4, "hand": ["Test Recruit"],
               "library": ["Test Recruit"] * 4, "board": [{"card": "Test Knight", "as": "knight", "slot": 1}]},
        "p2": {"name": "Tomas", "life": 20, "influence": 3, "hand": ["Emberlash", "Test Recruit"],
               "library": ["Test Recruit"] * 4, "board": [{"card": "Test Wall", "as": "wall", "slot": 2}]},
    }
    for k, v in over.items():
        data[k] = v
    return data


def session_from(db: CardDB, data: dict[str, Any], tmp: Path | None = None, flow: str = "full",
                 open_hands: bool = False) -> MatchSession:
    scn = scenario_from_data(data, "<test>", db)
    return MatchSession.from_scenario(scn, db, "<test>", flow=Flow(flow), open_hands=open_hands,
                                      save_path=(tmp / "match.json") if tmp else None)


def run_app(app: C1KApp, body: Callable[[Any], Awaitable[None]], size: tuple[int, int] = SIZE) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(main())


def press_at(app: C1KApp, key: str, at: float) -> None:
    """A key pressed at `at` (monotonic seconds), whenever the app gets to read it (the key guard judges a
    key by when it was pressed)."""
    from textual import events

    ev = events.Key(key, "\r" if key == "enter" else (" " if key == "space" else key))
    ev.time = at
    ev.set_sender(app)
    app.post_message(ev)


def current_screen(app: C1KApp) -> Any:
    return app.screen          # (untyped: a screen asserted earlier in a test is not the screen now)


def favor_first(db: CardDB, tmp: Path, open_hands: bool = False) -> MatchSession:
    """The flow position with Mira's hand Test Favor, Test Recruit: the cursor starts on Test Favor, so an
    Enter that reaches her table plays it."""
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Recruit"]
    return session_from(db, data, tmp, open_hands=open_hands)
