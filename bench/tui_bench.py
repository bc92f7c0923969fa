"""Benchmark of the Textual app (issue 4): key press → repaint, and start-up vs an empty Textual app.

    .venv/bin/python bench/tui_bench.py [--keys 200] [--runs 7] [--json]

1. Key → repaint, on a full board (6 units a side, 8 cards in the deciding hand, 3 items on the stack),
   120×40, headless: for each key press, the time from the key event being posted to the end of the
   screen update that shows its effect (the last `App._display` call it caused). Textual paints at most
   60 frames a second, so this includes waiting for the next frame (0–16.7 ms); the "work" figure is the
   CPU time the app's process spent in that interval (event handling, the engine, layout, render; the
   frame wait costs no CPU, and neither does another process sharing the machine).
   Keys: cursor moves (←/→: two cards and the rules panel repaint), picking a card (Enter: its legal
   targets light up) and cancelling (Esc), and a command (space = pass: the engine acts, the whole view
   is rebuilt for the next player).
2. Start-up: wall time from starting a Python process to its first interactive frame (the hand-off
   screen of `c1k play ironbound emberfall`, built exactly as the CLI does), against a process running an
   empty Textual `App` to its first frame. Medians of alternating runs. The app's own modules are
   byte-compiled first (`compileall`), as an installed package's are and as Python does on the first run —
   Textual's are in site-packages — so that a sandbox with PYTHONDONTWRITEBYTECODE=1 doesn't time the
   compiler on one side only.

Wall-clock timing lives here, never in tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FULL_BOARD: dict[str, Any] = {
    "scenario": {"title": "full board", "seed": 3, "turn": 9, "active": "p1", "window": "main.priority"},
    "p1": {"name": "Mira", "influence": 9, "capacity": 9,
           "hand": ["Emberlash", "Hoarded Favor", "Wild Omen", "Unmake"],
           "library": ["Lantern Acolyte"] * 10,
           "board": [{"card": c} for c in ("Bastion Squire", "Vowkeeper Templar", "Gloomfang Stalker",
                                            "Mossback Tender", "Grudgebearer", "Pillarback Tortoise")],
           "relics": [{"card": "Sunroot Shrine"}]},
    "p2": {"name": "Tomas", "influence": 6, "capacity": 8,
           "hand": ["Emberlash", "Hoarded Favor", "Emberlash", "Wild Omen", "Bastion Squire", "Tide of Recall",
                    "Field Surgeon", "Lantern Acolyte", "Grudgebearer"],
           "library": ["Briar Scout"] * 10,
           "board": [{"card": c} for c in ("Ashen Skirmisher", "Dunecrest Raider", "Emberstep Duelist",
                                            "Ledger Thief", "Duskveil Harrier", "Lancer of the Dawn Column")],
           "relics": [{"card": "Banner of the Muster"}]},
}


def full_board_session() -> Any:
    from c1k_tui.model.session import Flow, MatchSession
    from engine.cards import load_card_db
    from engine.scenario import scenario_from_data

    db = load_card_db()
    scn = scenario_from_data(FULL_BOARD, "<bench>", db)
    s = MatchSession.from_scenario(scn, db, "<bench>", flow=Flow("full"), open_hands=True)
    g = s.game
    # three items on the stack: p1 Emberlash, p2 Emberlash in response, p1 Hoarded Favor on top
    p2_units = g.players[1].units()
    p1_units = g.players[0].units()
    s.send(f'play "Emberlash" target #{p2_units[0]}')
    s.send(f'play "Emberlash" target #{p1_units[0]}')
    s.send('play "Hoarded Favor"')
    assert len(g.stack) == 3 and len(g.players[1].hand) == 8 and g.current_player() == 1, \
        (len(g.stack), len(g.players[1].hand))
    return s


async def _key_latency(keys: int) -> dict[str, Any]:
    from textual.pilot import Pilot

    from c1k_tui.screens.app import C1KApp
    from engine.game import Game

    session = full_board_session()
    start: Game = session.game.clone()
    app = C1KApp(db=session.db, session=session)
    displays: list[tuple[float, float]] = []
    original = app._display

    def display(screen: Any, update: Any) -> None:
        original(screen, update)
        displays.append((time.perf_counter(), time.process_time()))

    app._display = display  # type: ignore[method-assign, assignment]
    out: dict[str, list[float]] = {"move": [], "pick": [], "cancel": [], "pass": []}
    cpu: dict[str, list[float]] = {k: [] for k in out}

    async def press(pilot: Pilot[Any], key: str, bucket: str) -> None:
        await asyncio.sleep(0.02)
        displays.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        await app._press_keys([key])       # what the terminal driver does with a real key (no test waits)
        await asyncio.sleep(0.05)          # let any frame it caused be painted
        if displays:
            out[bucket].append((displays[-1][0] - t0) * 1000)
            cpu[bucket].append((displays[-1][1] - c0) * 1000)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.match_screen
        assert screen is not None and len(screen.view.stack) == 3  # type: ignore[union-attr]
        for i in range(keys):
            await press(pilot, "right" if i % 2 == 0 else "left", "move")
        hand = screen.view.hand  # type: ignore[union-attr]
        ember = next(i for i, c in enumerate(hand) if c.name == "Emberlash")
        for _ in range(max(10, keys // 10)):
            screen.cursor = ("hand", ember)
            await press(pilot, "enter", "pick")
            await press(pilot, "escape", "cancel")
        for _ in range(max(10, keys // 10)):
            session.game = start.clone()
            app.viewer = session.game.current_player()
            app.refresh_view()
            await pilot.pause()
            await press(pilot, "space", "pass")
    res: dict[str, Any] = {}
    for k, v in out.items():
        med = statistics.median(v) if v else float("nan")
        res[k] = {"samples": len(v), "median_ms": round(med, 2),
                  "p90_ms": round(sorted(v)[int(len(v) * 0.9) - 1], 2) if v else None,
                  "cpu_median_ms": round(statistics.median(cpu[k]), 2) if cpu[k] else None}
    allv = out["move"] + out["pick"] + out["cancel"]
    res["all_keys_median_ms"] = round(statistics.median(allv), 2)
    res["all_keys_cpu_median_ms"] = round(statistics.median(cpu["move"] + cpu["pick"] + cpu["cancel"]), 2)
    return res


CHILD_APP = r"""
import os, sys, time
sys.path.insert(0, {root!r})
from c1k_tui.cli import main as cli          # the `c1k` entry point's module (Typer), as `c1k play` imports it
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.splash_screen import SplashScreen

def build():                     # what `c1k play ironbound emberfall` builds, in the app's worker thread
    from c1k_tui.model.session import Flow, MatchSession
    from engine.state import MatchOptions
    db = cli._db()
    decks = cli._decks(db, "ironbound", "emberfall")
    return MatchSession.new(db, decks, 42, MatchOptions(), flow=Flow("stops"), save_path=None)

app = C1KApp(builder=build, splash=["p1 (ironbound) vs p2 (emberfall) · seed 42"])
orig = app._display
MODE = {mode!r}
def display(screen, update):
    orig(screen, update)
    if MODE == "first" and isinstance(app.screen, SplashScreen):
        print("FRAME", time.time() - float(os.environ["C1K_BENCH_SPAWN"]), flush=True)
        os._exit(0)
    elif MODE == "ready" and app.launcher.built is not None:
        print("FRAME", time.time() - float(os.environ["C1K_BENCH_SPAWN"]), flush=True)
        os._exit(0)
app._display = display
app.run(headless=True, size=(120, 40))
"""

CHILD_EMPTY = r"""
import os, time
from textual.app import App
class Empty(App):
    pass
app = Empty()
orig = app._display
def display(screen, update):
    orig(screen, update)
    print("FRAME", time.time() - float(os.environ["C1K_BENCH_SPAWN"]), flush=True)
    os._exit(0)
app._display = display
app.run(headless=True, size=(120, 40))
"""


def _time_child(code: str) -> float:
    """Milliseconds from spawning a Python process to its first frame (measured in the child, which then
    exits at once, so interpreter and thread shutdown are not counted for either app)."""
    spawn = time.time()
    out = subprocess.run([sys.executable, "-c", code], check=True, cwd=str(ROOT), capture_output=True, text=True,
                         env={**os.environ, "C1K_HOME": "/tmp/c1k-bench", "C1K_BENCH_SPAWN": repr(spawn)}).stdout
    line = next(x for x in out.splitlines() if x.startswith("FRAME"))
    return float(line.split()[1]) * 1000


def startup(runs: int) -> dict[str, Any]:
    first = CHILD_APP.replace("{root!r}", repr(str(ROOT))).replace("{mode!r}", repr("first"))
    ready = CHILD_APP.replace("{root!r}", repr(str(ROOT))).replace("{mode!r}", repr("ready"))
    import compileall

    for pkg in ("c1k_tui", "engine"):   # bytecode, as an installed package has it (see the docstring)
        compileall.compile_dir(str(ROOT / pkg), quiet=1)
    apps: list[float] = []
    readies: list[float] = []
    empties: list[float] = []
    _time_child(CHILD_EMPTY)            # warm the OS file cache
    _time_child(first)
    for _ in range(runs):
        empties.append(_time_child(CHILD_EMPTY))
        apps.append(_time_child(first))
        readies.append(_time_child(ready))
    a, e, r = statistics.median(apps), statistics.median(empties), statistics.median(readies)
    return {"runs": runs, "app_ms": round(a, 1), "empty_textual_app_ms": round(e, 1), "ratio": round(a / e, 2),
            "match_ready_ms": round(r, 1), "match_ready_ratio": round(r / e, 2)}


def main(argv: list[str]) -> None:  # noqa: C901
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", type=int, default=200)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import textual

    res: dict[str, Any] = {"key_to_repaint": asyncio.run(_key_latency(args.keys)), "startup": startup(args.runs),
           "textual": textual.__version__,
           "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.python_implementation()} "
                      f"{platform.python_version()}, {platform.system()}"}
    if args.json:
        print(json.dumps(res, indent=1))
        return
    k = res["key_to_repaint"]
    for name in ("move", "pick", "cancel", "pass"):
        print(f"key→repaint {name:>6}: median {k[name]['median_ms']} ms, p90 {k[name]['p90_ms']} ms, "
              f"CPU {k[name]['cpu_median_ms']} ms ({k[name]['samples']} presses)")
    print(f"key→repaint all UI keys: median {k['all_keys_median_ms']} ms wall, "
          f"{k['all_keys_cpu_median_ms']} ms CPU")
    s = res["startup"]
    print(f"start-up to first interactive frame: app {s['app_ms']} ms, empty Textual app "
          f"{s['empty_textual_app_ms']} ms, ratio {s['ratio']}×")
    print(f"start-up until the match is set up behind it (engine loaded, cards validated, decks shuffled): "
          f"{s['match_ready_ms']} ms ({s['match_ready_ratio']}×)")
    print(f"textual {res['textual']}; {res['machine']}")


if __name__ == "__main__":
    main(sys.argv[1:])
