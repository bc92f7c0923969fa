"""Two engine trees in one process, timed in turns: random self-play actions/s of A and of B.

    python bench/engine_ab.py A_DIR B_DIR [--matches 3] [--rounds 60] [--decks-from DIR] [--plain] [--json]
    python bench/engine_ab.py --once TREE [--matches 8] [--decks-from DIR] [--plain]
    python bench/engine_ab.py A_DIR B_DIR --clone [--rounds 60] [--decks-from DIR] [--json]

Each directory is a checkout holding `engine/` and `decks/` (e.g. a `git worktree` or a `git archive`
of an old commit). Both engines are imported into this process (their modules swapped in and out of
`sys.modules`), then each round plays the same `--matches` random matches (Ironbound vs Emberfall,
seeds `derive_seed(round * matches + i)`, as `c1k bench` does) with A, then with B (B first on odd
rounds), and times them by CPU time (`time.process_time`). On a shared machine, where other processes
slow both alike within a round, the median of the per-round ratios B/A is far steadier than comparing
separate `c1k bench` runs. Reports the median actions/s of each and that median ratio (with its range).

Each engine plays its own tree's deck lists unless `--decks-from DIR` names one tree whose
`decks/ironbound.toml` and `decks/emberfall.toml` both engines load: the same lists, so the same kind
of matches (a rebalance changes the lists, and with them what an action costs on average). The engine
comparison of the README uses `--decks-from` the older tree.

Each engine plays with its own tree's `engine.selfplay.play_random` loop unless `--plain`: then both
play this file's loop — `legal_actions()` and `apply()` for every action, nothing else — so that only the
engines differ (since issue #29 play_random takes forced passes through `Game.pass_if_forced`, which an
older engine doesn't have; the same matches and the same count of actions either way).

`--once TREE` plays one warm-up match (seed `derive_seed(1, 999)`), then `--matches` matches (0: none)
with one tree, and prints the count of actions: to count instructions an action with `valgrind
--tool=callgrind` (the run with N matches less the run with 0, over the actions; `PYTHONHASHSEED=0`).

`--clone` times `clone()` instead: each engine plays 20 random matches with the plain loop and keeps a
copy of every 97th state of turns 6-20 (as `c1k bench` picks its mid-game states); then, in `--rounds`
rounds, each engine (in turns, as above) clones each of its states 50 times; a round's figure is the
median us a clone over its states. Reports the median of rounds of each, and the median per-round
ratio A/B (above 1: B clones faster).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from typing import Any


def _plain(game_cls: Any, rng_cls: Any, options: Any) -> Any:
    """play_random's loop as every engine can run it: list the legal actions, take one at random."""
    def play(db: Any, deck_a: Any, deck_b: Any, seed: int) -> tuple[Any, int]:
        game = game_cls.new(db, deck_a, deck_b, seed, options)
        agent = rng_cls(seed ^ 0x5EED)
        n = 0
        legal, apply, below = game.legal_actions, game.apply, agent.below
        while game.outcome is None:
            acts = legal()
            apply(acts[below(len(acts))])
            n += 1
        return game, n
    return play


def _load(tree: str, decks_from: str | None = None, plain: bool = False) -> dict[str, Any]:
    for k in [k for k in sys.modules if k == "engine" or k.startswith("engine.")]:
        del sys.modules[k]
    sys.path.insert(0, tree)
    try:
        from engine.cards import load_card_db
        from engine.decks import find_deck, load_deck
        from engine.game import Game
        from engine.rng import SplitMix64, derive_seed
        from engine.selfplay import SELFPLAY_MAX_TURNS, play_random
        from engine.state import MatchOptions

        db = load_card_db()
        if decks_from:
            from pathlib import Path
            decks = tuple(load_deck(Path(decks_from) / "decks" / f"{n}.toml", db) for n in ("ironbound", "emberfall"))
        else:
            decks = (load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db))
    finally:
        sys.path.remove(tree)
    mods = {k: v for k, v in sys.modules.items() if k == "engine" or k.startswith("engine.")}
    play = _plain(Game, SplitMix64, MatchOptions(max_turns=SELFPLAY_MAX_TURNS)) if plain else play_random
    return {"modules": mods, "play": play, "seed": derive_seed, "db": db, "decks": decks, "game": Game,
            "rng": SplitMix64, "options": MatchOptions(max_turns=SELFPLAY_MAX_TURNS)}


def _clone_states(env: dict[str, Any]) -> list[Any]:
    """Copies of every 97th state of turns 6-20 of 20 random matches (the plain loop), each cloned once
    already (the first clone of a state turns its new events into Events: not the steady cost)."""
    game_cls, rng_cls = env["game"], env["rng"]
    states: list[Any] = []
    for i in range(20):
        seed = env["seed"](1, i)
        g = game_cls.new(env["db"], *env["decks"], seed, env["options"])
        agent = rng_cls(seed ^ 0x5EED)
        n = 0
        while g.outcome is None:
            acts = g.legal_actions()
            g.apply(acts[agent.below(len(acts))])
            n += 1
            if 6 <= g.turn <= 20 and n % 97 == 0 and g.outcome is None:
                states.append(g.clone())
    for g in states:
        g.clone()
    return states


def _clone_ab(trees: list[str], decks_from: str | None, rounds: int, as_json: bool) -> None:
    envs = [_load(t, decks_from, True) for t in trees]
    states = []
    for env in envs:
        sys.modules.update(env["modules"])
        states.append(_clone_states(env))
    per: list[list[float]] = [[], []]
    for r in range(rounds):
        for j in ((0, 1) if r % 2 == 0 else (1, 0)):
            sys.modules.update(envs[j]["modules"])
            us = []
            for g in states[j]:
                t = time.perf_counter_ns()
                for _ in range(50):
                    g.clone()
                us.append((time.perf_counter_ns() - t) / 50 / 1000)
            per[j].append(statistics.median(us))
    ratios = [a / b for a, b in zip(per[0], per[1], strict=True)]
    out = {"a": trees[0], "b": trees[1], "rounds": rounds, "states": [len(s) for s in states],
           "a_clone_us": round(statistics.median(per[0]), 2), "b_clone_us": round(statistics.median(per[1]), 2),
           "a_over_b": round(statistics.median(ratios), 3),
           "a_over_b_range": [round(min(ratios), 2), round(max(ratios), 2)],
           "load_average": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(out, indent=1) if as_json else out)


def main() -> None:
    args = sys.argv[1:]
    decks_from = None
    if "--decks-from" in args:
        i = args.index("--decks-from")
        decks_from = args[i + 1]
        del args[i:i + 2]
    opt = {"--matches": 3, "--rounds": 60}
    for k in opt:
        if k in args:
            i = args.index(k)
            opt[k] = int(args[i + 1])
            del args[i:i + 2]
    as_json = "--json" in args
    plain = "--plain" in args
    clone = "--clone" in args
    trees = [a for a in args if a not in ("--json", "--plain", "--clone")]
    if clone and len(trees) == 2:
        _clone_ab(trees, decks_from, opt["--rounds"], as_json)
        return
    if trees[:1] == ["--once"] and len(trees) == 2:
        env = _load(trees[1], decks_from, plain)
        env["play"](env["db"], *env["decks"], env["seed"](1, 999))   # warm-up
        n = sum(env["play"](env["db"], *env["decks"], env["seed"](1, i))[1]
                for i in range(opt["--matches"] if "--matches" in sys.argv else 8))
        print(f"actions {n}")
        return
    if len(trees) != 2:
        sys.exit(__doc__)
    envs = [_load(t, decks_from, plain) for t in trees]
    m, rounds = opt["--matches"], opt["--rounds"]
    rates: list[list[float]] = [[], []]
    for r in range(rounds):
        for j in ((0, 1) if r % 2 == 0 else (1, 0)):
            env = envs[j]
            sys.modules.update(env["modules"])   # (an engine imports some modules lazily, by name)
            t = time.process_time()
            n = 0
            for i in range(m):
                _, k = env["play"](env["db"], *env["decks"], env["seed"](1, r * m + i))
                n += k
            rates[j].append(n / (time.process_time() - t))
    ratios = [b / a for a, b in zip(rates[0], rates[1], strict=True)]
    out = {
        "a": trees[0], "b": trees[1], "decks_from": decks_from or "each tree's own", "matches_per_round": m,
        "loop": "plain" if plain else "each tree's play_random",
        "rounds": rounds,
        "a_actions_per_s": round(statistics.median(rates[0])), "b_actions_per_s": round(statistics.median(rates[1])),
        "b_over_a": round(statistics.median(ratios), 3),
        "b_over_a_range": [round(min(ratios), 2), round(max(ratios), 2)],
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if as_json:
        print(json.dumps(out, indent=1))
    else:
        print(f"decks: {out['decks_from']}")
        print(f"A {out['a']}: {out['a_actions_per_s']} actions/s (median, CPU time)")
        print(f"B {out['b']}: {out['b_actions_per_s']} actions/s")
        print(f"B/A: {out['b_over_a']} (median of {rounds} per-round ratios; range {out['b_over_a_range']}); "
              f"load average {out['load_average']}")


if __name__ == "__main__":
    main()
