"""A real log (issue 8 item 4): whole lines, wrapped; scroll by line and page without an empty page;
filters by turn, window and player, and search."""

from __future__ import annotations

import asyncio

from textual.app import App

from c1k_tui.screens.controls import LogView, wrap_rows
from c1k_tui.screens.log_screen import LogScreen, filter_log

LINES = tuple(
    x for t in range(1, 6) for x in (
        f"T{t} main.priority", f"p{t % 2 + 1}: play #{t} target #{t + 10}",
        f"  Ember #{t} deals {t} to Wall #{t + 10} (life 20) and something long enough to need a second row",
        f"T{t} combat.damage", f"  Knight #{t + 20} deals 3 to p{2 - t % 2} (life {20 - t})")
)


def test_wrap_keeps_every_word() -> None:
    rows = wrap_rows(LINES, 40)
    assert all(len(r) <= 40 for r in rows)
    assert " ".join(" ".join(rows).split()) == " ".join(" ".join(LINES).split())
    assert len(rows) > len(LINES)


def test_filters_by_turn_window_player_and_words() -> None:
    assert all(x.startswith("T3 ") for x in filter_log(LINES, "t3"))
    assert len(filter_log(LINES, "t2-3")) == 10
    dmg = filter_log(LINES, "w:combat")
    assert dmg and all("combat.damage" in x for x in dmg)
    assert all("p1" in x for x in filter_log(LINES, "p1"))
    assert [x for x in filter_log(LINES, "t4 knight")] == ["T4 combat.damage │ Knight #24 deals 3 to p2 (life 16)"]
    assert filter_log(LINES, "") == LINES


def test_log_screen_scrolls_by_line_and_page_never_past_the_ends() -> None:
    class A(App[None]):
        def on_mount(self) -> None:
            self.push_screen(LogScreen(LINES, "p1"))

    async def main() -> None:
        app = A()
        async with app.run_test(size=(60, 14)) as pilot:
            await pilot.pause()
            log = app.screen.query_one("#full-log", LogView)
            total, h = len(log.rows()), log.size.height
            assert log.back == 0 and total > h
            await pilot.press("up")
            await pilot.pause()
            assert log.back == 1
            for _ in range(20):
                await pilot.press("pageup")
            await pilot.pause()
            assert log.back == total - h                      # the oldest page is a full page
            assert str(log.render()).splitlines()[0] == log.rows()[0]
            await pilot.press("end")
            await pilot.pause()
            assert log.back == 0
            await pilot.press("slash", *"t5")
            await pilot.pause()
            assert all(r.startswith(("T5", "  ", " ")) for r in log.rows())
            assert str(app.screen.query_one("#log-count").render()) == "5 of 25 lines"

    asyncio.run(main())


