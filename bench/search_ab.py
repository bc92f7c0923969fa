"""Two engine trees in one process, timed in turns: search:1 self-play matches/s of A and of B.

    python bench/search_ab.py A_DIR B_DIR [--matches 4] [--rounds 12] [--agent search:1] [--decks-from DIR]
                              [--json]

The question of issue #20 item 8: how many `c1k simulate --agent search:1` matches a second each engine
plays. Each directory is a checkout holding `engine/` and `decks/` (e.g. `git worktree add --detach
/tmp/fc fc08790`). Both engines are imported into this process (their modules swapped in and out of
`sys.modules`, as `bench/engine_ab.py` does); each round plays the same `--matches` matches with A, then
with B (B first on odd rounds), and times them by CPU time (`time.process_time`), so that other load on a
shared machine slows both alike within a round. Match i of round r pairs the bundled decks
`DECKS[k % 11]` and `DECKS[(3k + 1) % 11]` (k = r × matches + i; the deck in the first seat first) with
seed `derive_seed(8, k)`, the agents seeded as `c1k simulate` seeds them, at most 200 turns.

Reports the median matches/s and actions/s of each, the median of the per-round ratios B/A (with its
range), the pooled ratio (all matches over all CPU time: steadier when the two engines play other
matches, whose lengths differ, than a ratio of a few matches), and how many of the matches ended alike (winner, turns and actions: the same decisions give the
same matches; a changed search budget gives other ones).

Each engine plays its own tree's deck lists unless `--decks-from DIR` names one tree whose deck files
both engines load.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

DECKS = ("dominion-vanguard", "emberfall", "genesis-grove", "ironbound", "null-silence", "paradox-flux",
         "ruin-blight", "ruin-genesis-cycle", "solace-haven", "solace-null-wardens", "veil-masquerade")


def _load(tree: str, decks_from: str | None = None) -> dict[str, Any]:
    for k in [k for k in sys.modules if k == "engine" or k.startswith("engine.")]:
        del sys.modules[k]
    sys.path.insert(0, tree)
    try:
        from engine import Game, MatchOptions
        from engine.ai import make_agent, play_match
        from engine.cards import load_card_db
        from engine.decks import load_deck
        from engine.rng import derive_seed

        db = load_card_db()
        src = Path(decks_from or tree) / "decks"
        decks = {n: load_deck(src / f"{n}.toml", db) for n in DECKS}
    finally:
        sys.path.remove(tree)
    mods = {k: v for k, v in sys.modules.items() if k == "engine" or k.startswith("engine.")}
    return {"modules": mods, "Game": Game, "MatchOptions": MatchOptions, "make_agent": make_agent,
            "play_match": play_match, "seed": derive_seed, "db": db, "decks": decks}


def play(env: dict[str, Any], k: int, agent: str) -> tuple[int | None, int, int]:
    """Match k: (winner, turns, actions)."""
    seed = env["seed"](8, k)
    d1, d2 = env["decks"][DECKS[k % len(DECKS)]], env["decks"][DECKS[(3 * k + 1) % len(DECKS)]]
    game = env["Game"].new(env["db"], d1, d2, seed, env["MatchOptions"](max_turns=200))
    agents = (env["make_agent"](agent, env["seed"](seed, 1)), env["make_agent"](agent, env["seed"](seed, 2)))
    r = env["play_match"](game, agents)
    return r.winner, r.turns, r.actions


def main() -> None:
    args = sys.argv[1:]
    opt: dict[str, str] = {"--matches": "4", "--rounds": "12", "--agent": "search:1", "--decks-from": ""}
    for k in opt:
        if k in args:
            i = args.index(k)
            opt[k] = args[i + 1]
            del args[i:i + 2]
    as_json = "--json" in args
    trees = [a for a in args if a != "--json"]
    if len(trees) != 2:
        sys.exit(__doc__)
    m, rounds, agent = int(opt["--matches"]), int(opt["--rounds"]), opt["--agent"]
    envs = [_load(t, opt["--decks-from"] or None) for t in trees]
    rates: list[list[float]] = [[], []]
    cpu = [0.0, 0.0]
    action_rates: list[list[float]] = [[], []]
    ends: list[list[tuple[int | None, int, int]]] = [[], []]
    for r in range(rounds):
        for j in ((0, 1) if r % 2 == 0 else (1, 0)):
            env = envs[j]
            sys.modules.update(env["modules"])   # (an engine imports some modules lazily, by name)
            t = time.process_time()
            n = 0
            for i in range(m):
                end = play(env, r * m + i, agent)
                ends[j].append(end)
                n += end[2]
            dt = time.process_time() - t
            cpu[j] += dt
            rates[j].append(m / dt)
            action_rates[j].append(n / dt)
        print(f"  round {r + 1}/{rounds}: B/A {rates[1][-1] / rates[0][-1]:.2f}", file=sys.stderr, flush=True)
    ratios = [b / a for a, b in zip(rates[0], rates[1], strict=True)]
    out = {
        "a": trees[0], "b": trees[1], "agent": agent, "decks_from": opt["--decks-from"] or "each tree's own",
        "matches_per_round": m, "rounds": rounds,
        "a_matches_per_s": round(statistics.median(rates[0]), 3),
        "b_matches_per_s": round(statistics.median(rates[1]), 3),
        "b_over_a": round(statistics.median(ratios), 3),
        "b_over_a_range": [round(min(ratios), 2), round(max(ratios), 2)],
        "a_pooled_matches_per_s": round(m * rounds / cpu[0], 3), "b_pooled_matches_per_s": round(m * rounds / cpu[1], 3),
        "b_over_a_pooled": round(cpu[0] / cpu[1], 3),
        "a_actions_per_s": round(statistics.median(action_rates[0])),
        "b_actions_per_s": round(statistics.median(action_rates[1])),
        "same_matches": sum(a == b for a, b in zip(ends[0], ends[1], strict=True)), "matches": m * rounds,
        "a_first_seat_wins": sum(e[0] == 0 for e in ends[0]), "b_first_seat_wins": sum(e[0] == 0 for e in ends[1]),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if as_json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{agent}, decks: {out['decks_from']}")
        print(f"A {out['a']}: {out['a_matches_per_s']} matches/s (median, CPU time), {out['a_actions_per_s']} actions/s")
        print(f"B {out['b']}: {out['b_matches_per_s']} matches/s, {out['b_actions_per_s']} actions/s")
        print(f"B/A: {out['b_over_a']} (median of {rounds} per-round ratios; range {out['b_over_a_range']}); "
              f"{out['same_matches']} of {out['matches']} matches ended alike; load average {out['load_average']}")
        print(f"pooled (all matches / all CPU time): A {out['a_pooled_matches_per_s']}, B {out['b_pooled_matches_per_s']} "
              f"matches/s: B/A {out['b_over_a_pooled']}")


if __name__ == "__main__":
    main()
