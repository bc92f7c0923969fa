"""SVG snapshots of a match against the AI (c1k_tui/screens/versus.py) at 120×40 and 80×24: the human's own view,
the title saying the AI's hand is hidden, and — after the AI answered — the recap of what it did.
Update with `pytest tests/tui/test_versus_snapshots.py --snapshot-update` after checking the pictures."""

from __future__ import annotations

from typing import Any

import pytest

from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession
from c1k_tui.screens.app import C1KApp
from engine.cards import CardDB
from engine.scenario import scenario_from_data
from tests.tui.conftest import snapshot_data

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}


def _app(db: CardDB) -> C1KApp:
    scn = scenario_from_data(snapshot_data(), "<test>", db)
    s = VersusSession.from_scenario(scn, db, "<test>", flow=Flow("stops"), agents={1: ("greedy", 5)})
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    return app


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_vs_ai_screen(snap_compare: Any, db: CardDB, size: str) -> None:
    assert snap_compare(_app(db), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_vs_ai_after_the_ai_answered(snap_compare: Any, db: CardDB, size: str) -> None:
    async def answer(pilot: Any) -> None:
        await pilot.pause()
        # the human plays a unit: the AI (greedy) is asked (rules.md §7a: on public facts — a pass here
        # would not ask it, its flow would pass for it) and answers in its worker
        pilot.app.send('play "Test Recruit"')
        for _ in range(50):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            if not pilot.app.versus.busy():
                break

    assert snap_compare(_app(db), terminal_size=SIZES[size], run_before=answer)
