"""What a key costs in the app's `:` line as the line grows (issue #23 item 5). The pilot presses KEYS
keys on an empty line, then on a line already at the 1,000-character cap (the keys are refused), then —
for comparison, the cap lifted — on a line of 10,000 characters (what 10,000 typed keys gave before the
cap). Per-key times include the pilot's own overhead, the same in each case.

    PYTHONPATH=. nice -n 19 .venv/bin/python bench/command_line_keys.py [KEYS]
"""

from __future__ import annotations

import asyncio
import sys
import time

from c1k_tui.model.session import Flow, MatchSession
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.widgets import CommandLine
from engine.actions import MAX_COMMAND_CHARS
from engine.cards import load_card_db
from engine.scenario import scenario_from_data
from tests.tui.conftest import flow_data


def main(keys: int = 200) -> None:
    db = load_card_db()
    scn = scenario_from_data(flow_data(), "<bench>", db)
    app = C1KApp(db=db, session=MatchSession.from_scenario(scn, db, "<bench>", flow=Flow("full"), open_hands=True))

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("colon")
            assert app.match_screen is not None
            line = app.match_screen.query_one("#command", CommandLine)
            for label, start, cap in (("empty line", "", MAX_COMMAND_CHARS),
                                      ("at the cap", "a" * MAX_COMMAND_CHARS, MAX_COMMAND_CHARS),
                                      ("10,000 chars, no cap", "a" * 10_000, 0)):
                line.max_length = cap
                line.value = start
                line.cursor_position = len(start)
                await pilot.pause()
                t = time.perf_counter()
                await pilot.press(*("b" * keys))
                await pilot.pause()
                dt = time.perf_counter() - t
                print(f"{label:<22} {keys} keys {dt:6.2f} s  {1000 * dt / keys:6.1f} ms/key  line {len(line.value)}",
                      flush=True)

    asyncio.run(run())


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
