"""`c1k bench`: random-legal-action self-play of the two starter decks, timed.

Reports matches/s and actions/s over whole matches, and medians (µs) of `legal_actions()`, `clone()`
and `snapshot()`+SHA-256 measured on mid-game states (turns 6-20); and `clone()` by match length (turn
5, turn 50, and the turn-5 state with its event log and record grown to 10,000 entries each). Wall-clock
timing lives here, never in `engine/`.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from typing import Any

from engine import (
    SELFPLAY_MAX_TURNS,
    CardDB,
    Deck,
    Game,
    MatchOptions,
    SplitMix64,
    derive_seed,
    random_action,
)


def _median_us(fn: Any, states: list[Game], repeat: int) -> float:
    samples = []
    for g in states:
        t0 = time.perf_counter_ns()
        for _ in range(repeat):
            fn(g)
        samples.append((time.perf_counter_ns() - t0) / repeat / 1000)
    return statistics.median(samples) if samples else 0.0   # (no mid-game state: a very short run)


def _clone_us(states: dict[str, Game], rounds: int = 15, batch: int = 100) -> dict[str, float]:
    """µs per `clone()` of each state: the median of `rounds` batches, the states taking turns batch by
    batch (so that a busy machine slows them all alike)."""
    samples: dict[str, list[float]] = {k: [] for k in states}
    for _ in range(rounds):
        for k, g in states.items():
            t0 = time.perf_counter_ns()
            for _ in range(batch):
                g.clone()
            samples[k].append((time.perf_counter_ns() - t0) / batch / 1000)
    return {k: round(statistics.median(v), 1) for k, v in samples.items()}


def clone_by_length(db: CardDB, deck_a: Deck, deck_b: Deck, seed: int = 1) -> dict[str, Any]:
    """`clone()` at turn 5 and turn 50 of one long match (both players always take the first legal
    action: pass, attack with none, block with none — it lasts until Deck Exhaustion), and at turn 5
    with the event log and the record grown to 10,000 entries each (copies of its own entries: the log
    and the record are bookkeeping, not state). Clones fork both, so the three should cost the same."""
    game = Game.new(db, deck_a, deck_b, seed, MatchOptions(max_turns=SELFPLAY_MAX_TURNS))
    at: dict[int, Game] = {}
    while not game.is_terminal() and game.turn <= 50:
        if game.turn in (5, 50) and game.turn not in at and game.decision.kind == "priority":
            at[game.turn] = game.clone()
        game.apply(game.legal_actions()[0])
    states = {f"turn_{turn}": g for turn, g in sorted(at.items())}
    if 5 in at:
        big = at[5].clone()
        events, record = list(big.events), list(big.record)
        while len(big.events) < 10_000:
            for e in events:
                big.events.append(e)
        while len(big.record) < 10_000:
            for r in record:
                big.record.append(r)
        states["events_10k"] = big
    us = _clone_us(states)
    return {k: {"clone_us": us[k], "events": len(g.events), "record": len(g.record)} for k, g in states.items()}


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
        "clone_by_length": clone_by_length(db, deck_a, deck_b, seed),
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.python_implementation()} "
                   f"{platform.python_version()}, {platform.system()}",
    }
