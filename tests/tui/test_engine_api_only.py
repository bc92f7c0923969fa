"""The app changes the match only through the engine's command API, and the engine's window never
changes without a command."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from c1k_tui.screens.app import C1KApp
from engine import turn
from engine.cards import CardDB
from engine.game import Game
from tests.tui.conftest import SIZE, flow_data, session_from


def test_every_state_change_comes_from_a_command(db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    inside = [0]
    real_apply, real_goto = Game.apply, turn.goto
    entered = [0]

    def apply(self: Game, action: Any, player: int | None = None) -> None:
        calls.append(str(action))
        inside[0] += 1
        try:
            real_apply(self, action, player)
        finally:
            inside[0] -= 1

    def goto(g: Game, w: int | None) -> None:
        # the only way windows move (engine.turn); it must run inside a command (or while building a position)
        assert inside[0] or building[0], "a window changed outside Game.apply"
        entered[0] += 1
        real_goto(g, w)

    building = [1]
    session = session_from(db, flow_data(), open_hands=True, flow="stops")
    building[0] = 0
    monkeypatch.setattr(Game, "apply", apply)
    # goto is imported by name where it is called (engine.commands, engine.priority …): hook every binding
    hooked = [m for name, m in list(sys.modules.items())
              if name.split(".")[0] in ("engine", "c1k_tui") and getattr(m, "goto", None) is real_goto]
    assert turn in hooked and len(hooked) >= 3
    for m in hooked:
        monkeypatch.setattr(m, "goto", goto)
    app = C1KApp(db=db, session=session)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            keys = ["1", "enter", "space", "up", "left", "enter", "escape", "space", "space", "space",
                    "space", "enter", "c", "space", "space", "n", "space", "space", "space", "space"]
            for k in keys:
                g = app.game
                before = (g.window, g.state_hash(), len(calls))
                await pilot.press(k)
                await pilot.pause()
                g = app.game
                after = (g.window, g.state_hash(), len(calls))
                if after[2] == before[2]:
                    assert after[:2] == before[:2], f"state changed on '{k}' without a command"
            assert len(calls) >= 8
            assert entered[0] > 0   # (the hook saw the windows move: it guards something)
            # while the app runs: the record holds exactly the commands it sent, in order, each with a seat
            record = list(app.game.record)
            assert [r.split(": ", 1)[1] for r in record] == calls
            assert all(r.split(": ", 1)[0] in ("p1", "p2") for r in record)

    asyncio.run(main())
    # every command the app sent is in the record, in order, as the engine's own text
    assert [r.split(": ", 1)[1] for r in session.game.record] == calls


def test_auto_pass_sends_explicit_recorded_passes(db: CardDB) -> None:
    # "auto-pass" looks at what a hand holds, so it is for open hands only (issue 8: fair hiding)
    session = session_from(db, flow_data(), flow="auto", open_hands=True)
    g = session.game
    assert session.run_autos() == 0               # p1 can act: nothing is sent
    session.send("pass")                          # p2 has Emberlash: asked
    assert g.current_player() == 1 and not session.auto
    data = flow_data()
    data["p2"]["hand"] = []
    s2 = session_from(db, data, flow="auto", open_hands=True)
    s2.send("pass")                               # p2 can only pass: the app sends it, recorded
    assert s2.auto == [1] and s2.game.record[1] == "p2: pass"
    assert s2.record().app["flow"]["auto_pass"] is True
    assert [e.auto for e in s2.record().entries] == [False, True]
