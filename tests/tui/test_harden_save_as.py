"""Issue #23 item 3 in the app: the game-over screen's "save record" never replaces a file that isn't a
match record without asking — Enter once says so and leaves the file; Enter again on the same path
replaces it (atomically); a FIFO or a device is never replaced."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.confirm_modal import ConfirmModal
from c1k_tui.screens.game_over import GameOverScreen
from engine import record as rec
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


def _over(app: C1KApp) -> Any:
    async def to_game_over(pilot: Any) -> None:
        await pilot.press("colon", *"concede", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
    return to_game_over


def test_save_as_asks_before_replacing_a_file_that_isnt_a_record(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))
    deck = tmp_path / "deck.toml"
    deck.write_text("[deck]\nname = 'mine'\n", encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    said: list[str] = []

    async def body(pilot: Any) -> None:
        await _over(app)(pilot)
        msg = app.screen.query_one("#save-msg")
        await pilot.press("s")                      # the save field takes no keys until `s` (tui.md round 2)
        await pilot.press(*str(deck), "enter")
        await pilot.pause()
        said.append(str(msg.render()))
        assert deck.read_text(encoding="utf-8") == "[deck]\nname = 'mine'\n"
        app.screen.query_one("#save-path").focus()
        await pilot.press("enter")                  # the same path again: the player said yes
        await pilot.pause()
        said.append(str(msg.render()))
        field = app.screen.query_one("#save-path")
        field.value = str(fifo)                     # type: ignore[attr-defined]
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        said.append(str(msg.render()))

    run_app(app, body)
    assert "is not a match record: Enter again to replace it" in said[0], said
    assert said[1].startswith("saved to") and rec.load(deck).start.scenario is not None
    assert "FIFO" in said[2] and fifo.is_fifo()
