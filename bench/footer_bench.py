"""Benchmark of the footer (issue #32 item 11): a scripted hot-seat session with `KeysFooter`, which builds
its keys again only when they change and starts each key at the footer's `compact`, against Textual's
stock Footer (every binding refresh rebuilds the keys; each key is restyled twice as it mounts).

    .venv/bin/python bench/footer_bench.py [--runs 5] [--moves 12]

The session: the flow position of tests/tui/conftest.py (open hands, full flow) at 120×40, headless;
`--moves` times a pass (or "attack none" / "block none") followed by a cursor move. Each run starts the app
anew; the two footers alternate run by run. Prints the median CPU time (`time.process_time`) of each, their
ratio, and how many times the footer recomposed in a run. Say how loaded the machine was next to any
number (the script prints the load average).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--moves", type=int, default=12)
    args = ap.parse_args()

    from textual.widgets import Footer

    from c1k_tui.screens import controls
    from c1k_tui.screens.app import C1KApp
    from engine.cards import load_card_db
    from tests.tui.conftest import flow_data, session_from

    db = load_card_db()
    built = [0]
    stock_recompose = Footer.recompose

    async def counted(self: Any) -> None:
        built[0] += 1
        await stock_recompose(self)

    Footer.recompose = counted  # type: ignore[method-assign]
    keys_changed, keys_compose = controls.KeysFooter.bindings_changed, controls.KeysFooter.compose
    modes: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
        "stock": (Footer.bindings_changed, Footer.compose), "KeysFooter": (keys_changed, keys_compose)}

    def session() -> None:
        app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="full"))

        async def run() -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                for _ in range(args.moves):
                    kind = app.game.decision.kind
                    app.send({"attackers": "attack none", "blockers": "block none"}.get(kind, "pass"))
                    await pilot.pause()
                    await pilot.press("right")
                    await pilot.pause()

        asyncio.run(run())

    session()                                  # warm-up: imports, caches
    cpu: dict[str, list[float]] = {m: [] for m in modes}
    rebuilt: dict[str, int] = {}
    for _ in range(args.runs):
        for mode, (changed, compose) in modes.items():
            controls.KeysFooter.bindings_changed = changed  # type: ignore[method-assign]
            controls.KeysFooter.compose = compose  # type: ignore[method-assign]
            built[0] = 0
            t0 = time.process_time()
            session()
            cpu[mode].append(time.process_time() - t0)
            rebuilt[mode] = built[0]
    controls.KeysFooter.bindings_changed, controls.KeysFooter.compose = keys_changed, keys_compose  # type: ignore[method-assign]
    print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs of {args.moves} moves each")
    for mode in modes:
        print(f"{mode:>10}: median {statistics.median(cpu[mode]):.3f} s CPU, footer rebuilt {rebuilt[mode]}× a run")
    print(f"ratio KeysFooter/stock: {statistics.median(cpu['KeysFooter']) / statistics.median(cpu['stock']):.2f}")


if __name__ == "__main__":
    main()
