"""Issue #23 item 5: the app's `:` line takes at most the engine's 1,000 characters (docs/formats.md §1), so
that each key costs the same however much was typed (10,000 keys froze the app for 9 s: the line, its
rendering and its completion grew with every key). A pasted line over the cap is not taken either."""

from __future__ import annotations

from typing import Any

from textual import events

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.widgets import CommandLine
from engine.actions import MAX_COMMAND_CHARS
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


def test_the_command_line_stops_at_the_engines_cap(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))

    async def body(pilot: Any) -> None:
        await pilot.press("colon")
        assert app.match_screen is not None
        line = app.match_screen.query_one("#command", CommandLine)
        line.value = "x" * (MAX_COMMAND_CHARS - 3)
        line.cursor_position = len(line.value)
        await pilot.press(*"abcdefgh")
        await pilot.pause()
        assert len(line.value) == MAX_COMMAND_CHARS and line.value.endswith("abc")
        said: list[str] = []
        setattr(line, "notify", lambda message, **kw: said.append(message))   # noqa: B010
        line.post_message(events.Paste("y" * 5000))
        await pilot.pause()
        assert len(line.value) == MAX_COMMAND_CHARS
        assert said and "not pasted: a command is at most 1,000 characters" in said[0], said   # not silently
        await pilot.press("enter")
        await pilot.pause()
        assert app.game.record == []             # refused as a malformed command: nothing sent

    run_app(app, body)


def test_completion_costs_nothing_past_the_longest_command(db: CardDB) -> None:
    import asyncio

    from c1k_tui.screens.match_screen import LegalSuggester

    s = LegalSuggester()
    s.commands = ("play #12 target #21",)
    assert asyncio.run(s.get_suggestion("pl")) == "play #12 target #21"
    assert asyncio.run(s.get_suggestion("p" * 10_000)) is None
