"""Wide boards: what legal-action and decision queries cost with many units a side.

    python bench/blocks_bench.py [--json]

Boards of N ready units a side (Ironbound mirror, no Guard units; N > 6 is a board with more slots, as
a Seat with `unit_slots` up to 12 or a scenario's `unit_slots` option makes). For each position the
queries a player or an agent makes — `legal_actions()`, `explain(p)` for both players, `why_not()` of
the last listed action, and `decision` — are timed (median of 5, milliseconds), with
`engine.sampling.random_block` for blocks. Positions:

- blocks N×N (N = 6, 7, 8, 10, 12): all N attack; the defender declares blockers. Block declarations
  are listed up to engine.options.BLOCK_LEAF_CAP candidates; for N ≤ 7 the full list is timed too.
- attacks N (N = 8, 10, 12): N ready units may attack (2^N declarations, listed up to
  engine.options.ATTACK_LIST_CAP).
- discard: a hand of 20 at cleanup with hand size 8 (C(20, 12) = 125,970 answers, listed up to
  engine.options.CHOICE_LIST_CAP).

The target (issue 10): no query over 10 ms in any reachable position.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import engine.options as eg
from engine import zones
from engine.actions import Attack
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.sampling import random_block
from engine.state import END_CLEANUP, MatchOptions

DB = load_card_db()
DECK = load_deck(find_deck("ironbound"), DB)


def _ms(fn: Callable[[], object], runs: int = 5) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(samples), 3)


def _pass_until(g: Game, kind: str) -> None:
    while g.pending.kind != kind:
        acts = g.legal_actions()
        g.apply(next((a for a in acts if str(a) in ("pass", "decline")), acts[0]))


def wide_board(n: int) -> Game:
    """A match at turn 1 with n ready non-Guard units a side on boards of n slots, at p1's attack."""
    g = Game.new(DB, DECK, DECK, 41, MatchOptions(max_turns=200))
    for p in (0, 1):
        ps = g.players[p]
        ps.board = [0] * n
        units = [c for c in ps.library if g.card(c).type == "unit" and "guard" not in g.card(c).keywords]
        while len(units) < n:   # (a 40-card deck has fewer: more copies of its units)
            c = g.new_card(g.card(units[len(units) % 5]), p, 0)
            ps.library.append(c)
            units.append(c)
        for i, c in enumerate(units[:n]):
            ps.library.remove(c)
            zones.enter_play(g, c, p, i, summoned=True)
            g.perms[c].entered_turn = -5
    _pass_until(g, "attackers")
    return g


def queries(g: Game) -> dict[str, float]:
    acts = g.legal_actions()
    p = g.current_player()
    return {
        "legal_actions_ms": _ms(g.legal_actions),
        "listed": len(acts),
        "explain_ms": max(_ms(lambda: g.explain(0)), _ms(lambda: g.explain(1))),
        "why_not_ms": _ms(lambda: g.why_not(acts[-1], p)),
        "decision_ms": _ms(lambda: g.decision),
    }


def main() -> None:
    out: dict[str, Any] = {"load_average": [round(x, 2) for x in os.getloadavg()], "positions": {}}
    res = out["positions"]
    cap = eg.BLOCK_LEAF_CAP
    for n in (6, 7, 8, 10, 12):
        g = wide_board(n)
        g.apply(Attack(tuple(g.players[0].units())))
        _pass_until(g, "blockers")
        r = queries(g)
        if n <= 7:
            eg.BLOCK_LEAF_CAP = 10**9
            try:
                r["full_list_ms"] = _ms(g.legal_actions, 1)
                r["full_list"] = len(g.legal_actions())
            finally:
                eg.BLOCK_LEAF_CAP = cap
        rng = SplitMix64(1)
        r["random_block_ms"] = _ms(functools.partial(random_block, g, rng))
        res[f"blocks {n}x{n}"] = r
    for n in (8, 10, 12):
        res[f"attacks {n}"] = queries(wide_board(n))
    g = wide_board(6)
    g.apply(Attack(()))
    ps = g.players[0]
    while len(ps.hand) < 20:
        ps.hand.append(c := ps.library.pop(0))
        g.zone[c] = 1
    _pass_until(g, "choice")
    assert g.win == END_CLEANUP
    res["discard 12 of 20"] = queries(g)
    worst = max(max(v for k, v in r.items() if k.endswith("_ms") and k != "full_list_ms") for r in res.values())
    out["worst_query_ms"] = worst
    if "--json" in sys.argv:
        print(json.dumps(out, indent=1))
        return
    print(f"load average {out['load_average']}")
    for name, r in res.items():
        print(f"{name:18} " + "  ".join(f"{k} {v}" for k, v in r.items()))
    print(f"slowest query (capped lists): {worst} ms (target ≤ 10 ms)")


if __name__ == "__main__":
    main()
