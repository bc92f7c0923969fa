"""`c1k bench`: random-legal-action self-play of the two starter decks, timed.

Reports matches/s and actions/s over whole matches, and medians (µs) of `legal_actions()`, `clone()`
and `snapshot()`+SHA-256 measured on mid-game states (turns 6-20). Wall-clock timing lives here, never
in `engine/`.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from typing import Any

from engine.cards import CardDB
from engine.decks import Deck
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.selfplay import SELFPLAY_MAX_TURNS, random_action
from engine.state import MatchOptions


def _median_us(fn: Any, states: list[Game], repeat: int) -> float:
    samples = []
    for g in states:
        t0 = time.perf_counter_ns()
        for _ in range(repeat):
            fn(g)
        samples.append((time.perf_counter_ns() - t0) / repeat / 1000)
    return statistics.median(samples) if samples else 0.0   # (no mid-game state: a very short run)


def run_bench(db: CardDB, deck_a: Deck, deck_b: Deck, matches: int = 200, seed: int = 1) -> dict[str, Any]:
    opts = MatchOptions(max_turns=SELFPLAY_MAX_TURNS)
    total_actions = 0
    mid_states: list[Game] = []
    t0 = time.perf_counter()
    for i in range(matches):
        s = derive_seed(seed, i)
        game = Game.new(db, deck_a, deck_b, s, opts)
        agent = SplitMix64(s ^ 0x5EED)
        while not game.is_terminal():
            game.apply(random_action(game, agent))
            total_actions += 1
            if 6 <= game.turn <= 20 and total_actions % 97 == 0 and len(mid_states) < 300:
                mid_states.append(game.clone())
    elapsed = time.perf_counter() - t0
    mid_states = [g for g in mid_states if not g.is_terminal()]
    return {
        "matches": matches,
        "actions": total_actions,
        "seconds": round(elapsed, 3),
        "matches_per_s": round(matches / elapsed, 1),
        "actions_per_s": round(total_actions / elapsed),
        "legal_actions_us": round(_median_us(lambda g: g.legal_actions(), mid_states, 20), 1),
        "clone_us": round(_median_us(lambda g: g.clone(), mid_states, 20), 1),
        "snapshot_us": round(_median_us(lambda g: g.state_hash(), mid_states, 5), 1),
        "mid_game_states": len(mid_states),
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.python_implementation()} "
                   f"{platform.python_version()}, {platform.system()}",
    }
