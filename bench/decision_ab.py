"""An agent's decisions on fixed positions with two engine trees in one process, timed in turns.

    python bench/decision_ab.py A_DIR B_DIR [--agent search:1] [--positions 30] [--rounds 9] [--json]
    python bench/decision_ab.py --once TREE [--agent search:1] [--positions 12] [--build-only]

Each directory is a checkout holding `engine/` and `decks/` (a `git worktree` or a `git archive`), as
for bench/engine_ab.py. The positions: random self-play of three deck pairs (ironbound–emberfall,
veil-masquerade–genesis-grove, null-silence–paradox-flux, in turn), position i being the first priority
decision at turn ≥ 4 + i mod 6 where the player to act has more than two legal actions (match seed
`derive_seed(11, i)`, the random agent's `SplitMix64(i)`). Each round asks the agent (seed i) for its
decision at every position with A, then with B (B first on odd rounds), timed by CPU time
(`time.process_time`); the median of the per-round ratios A/B is the speed-up of B. Both engines must
decide alike: a different decision is reported (the engines would not be interchangeable).

`--once TREE` makes the decisions once with one tree and prints them — to count instructions
(`valgrind --tool=callgrind`), less the same command with `--build-only` (the positions alone).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

PAIRS = (("ironbound", "emberfall"), ("veil-masquerade", "genesis-grove"), ("null-silence", "paradox-flux"))


def _load(tree: str, agent: str, positions: int) -> tuple[dict[str, Any], Callable[[], list[str]]]:
    for k in [k for k in sys.modules if k == "engine" or k.startswith("engine.")]:
        del sys.modules[k]
    sys.path.insert(0, tree)
    try:
        from engine.ai import make_agent
        from engine.cards import load_card_db
        from engine.decks import find_deck, load_deck
        from engine.game import Game
        from engine.rng import SplitMix64, derive_seed
        from engine.sampling import InfoSet
        from engine.state import MatchOptions

        db = load_card_db()
        pos: list[Any] = []
        for i in range(positions):
            a, b = PAIRS[i % len(PAIRS)]
            g = Game.new(db, load_deck(find_deck(a), db), load_deck(find_deck(b), db), derive_seed(11, i),
                         MatchOptions(max_turns=200))
            r = SplitMix64(i)
            while not g.is_terminal():
                acts = g.legal_actions()
                if g.turn >= 4 + i % 6 and len(acts) > 2 and g.pending.kind == "priority":
                    break
                g.apply(acts[r.below(len(acts))])
            if not g.is_terminal():
                pos.append(g)
    finally:
        sys.path.remove(tree)
    mods = {k: v for k, v in sys.modules.items() if k == "engine" or k.startswith("engine.")}

    def run() -> list[str]:
        return [str(make_agent(agent, j).act(InfoSet(g, g.current_player()))) for j, g in enumerate(pos)]
    return mods, run


def _option(args: list[str], name: str, default: str) -> str:
    if name in args:
        i = args.index(name)
        value = args[i + 1]
        del args[i:i + 2]
        return value
    return default


def main() -> None:
    args = sys.argv[1:]
    agent = _option(args, "--agent", "search:1")
    once = _option(args, "--once", "")
    positions = int(_option(args, "--positions", "12" if once else "30"))
    rounds = int(_option(args, "--rounds", "9"))
    if once:
        _, run = _load(once, agent, positions)
        if "--build-only" not in args:
            print("\n".join(run()))
        return
    as_json = "--json" in args
    trees = [a for a in args if a != "--json"]
    if len(trees) != 2:
        sys.exit(__doc__)
    envs = [_load(t, agent, positions) for t in trees]
    secs: list[list[float]] = [[], []]
    decided: list[list[str] | None] = [None, None]
    for r in range(rounds):
        for j in ((0, 1) if r % 2 == 0 else (1, 0)):
            mods, run = envs[j]
            sys.modules.update(mods)   # (an engine imports some modules lazily, by name)
            t = time.process_time()
            out = run()
            secs[j].append(time.process_time() - t)
            decided[j] = decided[j] or out
    ratios = [a / b for a, b in zip(secs[0], secs[1], strict=True)]
    res = {
        "a": trees[0], "b": trees[1], "agent": agent, "positions": len(decided[0] or []), "rounds": rounds,
        "same_decisions": decided[0] == decided[1],
        "a_seconds": round(statistics.median(secs[0]), 4), "b_seconds": round(statistics.median(secs[1]), 4),
        "b_speedup": round(statistics.median(ratios), 3),
        "b_speedup_range": [round(min(ratios), 2), round(max(ratios), 2)],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if as_json:
        print(json.dumps(res, indent=1))
    else:
        print(f"{agent} on {res['positions']} positions; the same decisions: {res['same_decisions']}")
        print(f"A {res['a']}: {res['a_seconds']} s a round (median, CPU time)")
        print(f"B {res['b']}: {res['b_seconds']} s")
        print(f"B's speed-up: {res['b_speedup']} (median of {rounds} per-round ratios; range "
              f"{res['b_speedup_range']}); load average {res['load_average']}")


if __name__ == "__main__":
    main()
