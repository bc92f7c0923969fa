"""AI benchmarks (issue #10 targets), measured outside the engine (the engine never reads the clock).

    python bench/ai_bench.py vs --agent greedy --opponent random [--per-pair 2] [--workers 2] [--minutes M]
    python bench/ai_bench.py vs --agent search --opponent greedy [--per-pair 2] [--workers 2] [--minutes M]
                             [--max-matches N] [--seed S]
    python bench/ai_bench.py speedup [--matches 16] [--agent greedy]
    python bench/ai_bench.py decisions --agent search:4 [--decisions 40] [--seed S]

`vs`: every ordered pair of bundled decks (deck A with --agent, deck B with --opponent, mirrors
included), `--per-pair` matches each with the seats alternating (2: both seats). Jobs run in a seeded
shuffled order, so a run cut short by `--minutes` is still a fair sample; the win rate of --agent
(draws ½) comes with its Wilson 95% interval; decision times of --agent (ms): median and 95th
percentile over all decisions and over decisions with a real choice (more than one legal action).
Since issue #20 item 8, `play_match` hands a built-in agent its only legal action without asking it,
so only decisions with a real choice reach the agent and are timed (both figures are then the same).

`--max-matches N` plays only the first N jobs of that order (a reproducible sample); the JSON lists
each played job's index and winner (`results`).

`decisions`: the agent's decision times at the first N real choices of seat 0 in greedy-vs-greedy
matches (its answers thrown away): a level too slow for whole matches on a loaded machine, timed on
positions of the same kind.

`speedup`: the same `c1k simulate` jobs with 1 and with 2 worker processes: wall time of each, the
ratio, and whether the reports are identical.

Say how loaded the machine was next to any number (the script prints the load average).

For one agent against another on duplicate deals (each deal played twice with the agents swapped), with
a paired interval, decision CPU percentiles and a resumable cache, use `bench/ladder.py` (issue #29).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from typing import Any

from c1k_tui.sim.simulate import (
    InlineBackend,
    Job,
    JobResult,
    LocalBackend,
    _load,
    plan,
    resolve_decks,
    run,
    wilson,
)


def timed_job(job: Job) -> tuple[JobResult, list[tuple[float, bool]], list[tuple[float, bool]]]:
    """run_job, with the decision times of deck A's agent: wall clock and this process's CPU time
    (ms, had a real choice). CPU time is what a loaded machine distorts least."""
    from c1k_tui.sim.simulate import _CACHE
    from engine.ai import make_agent, play_match
    from engine.game import Game
    from engine.rng import derive_seed
    from engine.sampling import InfoSet
    from engine.state import MatchOptions

    deck_a, deck_b = _load(job.deck_a), _load(job.deck_b)
    first, second = (deck_a, deck_b) if job.a_first else (deck_b, deck_a)
    game = Game.new(_CACHE["db"], first, second, job.seed, MatchOptions(max_turns=job.max_turns))
    ag_a = make_agent(job.agent_a, derive_seed(job.seed, 1))
    ag_b = make_agent(job.agent_b, derive_seed(job.seed, 2))
    times: list[tuple[float, bool]] = []
    cpu: list[tuple[float, bool]] = []
    inner = ag_a.act

    def act(info: InfoSet) -> Any:
        d = game.pending
        real = d.kind in ("attackers", "blockers") or len(game.legal_actions()) > 1
        t0, c0 = time.perf_counter(), time.process_time()
        a = inner(info)
        times.append(((time.perf_counter() - t0) * 1000, real))
        cpu.append(((time.process_time() - c0) * 1000, real))
        return a

    ag_a.act = act  # type: ignore[method-assign]
    agents = (ag_a, ag_b) if job.a_first else (ag_b, ag_a)
    r = play_match(game, agents)
    seat_a = 0 if job.a_first else 1
    w = "draw" if r.winner is None else ("a" if r.winner == seat_a else "b")
    return JobResult(job.index, w, r.termination, r.turns, r.actions, job.a_first), times, cpu


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def bench_vs(agent: str, opponent: str, per_pair: int, workers: int, minutes: float, seed: int,
             max_turns: int, max_matches: int = 0) -> dict[str, Any]:
    from engine.rng import SplitMix64

    decks = resolve_decks([], True)
    pairs, jobs = plan(decks, agent, opponent, per_pair, seed, max_turns)
    order = list(range(len(jobs)))
    rng = SplitMix64(seed)
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    if max_matches:
        order = order[:max_matches]
    results: list[JobResult] = []
    times: list[tuple[float, bool]] = []
    cpus: list[tuple[float, bool]] = []
    t0 = time.perf_counter()
    deadline = t0 + minutes * 60 if minutes else float("inf")
    ctx = mp.get_context("fork")
    with cf.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futs = [pool.submit(timed_job, jobs[i]) for i in order]
        try:
            for f in cf.as_completed(futs, timeout=None if not minutes else max(1.0, deadline - time.perf_counter())):
                r, ts, cs = f.result()
                results.append(r)
                times += ts
                cpus += cs
                if len(results) % 10 == 0:
                    print(f"  {len(results)}/{len(jobs)} matches, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
                if time.perf_counter() > deadline:
                    break
        except cf.TimeoutError:
            pass
        for f in futs:
            f.cancel()
    elapsed = time.perf_counter() - t0
    wins = sum(r.winner == "a" for r in results)
    draws = sum(r.winner == "draw" for r in results)
    n = len(results)
    lo, hi = wilson(wins + draws / 2, n)
    all_ms = [t for t, _ in times]
    real_ms = [t for t, real in times if real]
    real_cpu = [t for t, real in cpus if real]
    return {
        "agent": agent, "opponent": opponent, "matches": n, "planned": len(jobs), "wins": wins, "draws": draws,
        "losses": n - wins - draws, "win_rate": round((wins + draws / 2) / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "decisions": len(all_ms), "median_ms": round(statistics.median(all_ms), 2) if all_ms else 0.0,
        "p95_ms": round(_pct(all_ms, 0.95), 2),
        "real_decisions": len(real_ms), "real_median_ms": round(statistics.median(real_ms), 2) if real_ms else 0.0,
        "real_p95_ms": round(_pct(real_ms, 0.95), 2),
        "cpu_median_ms": round(statistics.median([t for t, _ in cpus]), 2) if cpus else 0.0,
        "cpu_p95_ms": round(_pct([t for t, _ in cpus], 0.95), 2),
        "cpu_real_median_ms": round(statistics.median(real_cpu), 2) if real_cpu else 0.0,
        "cpu_real_p95_ms": round(_pct(real_cpu, 0.95), 2),
        # the tail the AI's thinking floor must cover (c1k_tui/model/pacing.py, docs/ai.md)
        "real_p99_ms": round(_pct(real_ms, 0.99), 2), "real_max_ms": round(max(real_ms, default=0.0), 2),
        "cpu_real_p99_ms": round(_pct(real_cpu, 0.99), 2), "cpu_real_max_ms": round(max(real_cpu, default=0.0), 2),
        "seconds": round(elapsed, 1), "workers": workers, "load_avg": os.getloadavg(),
        "results": [[r.index, r.winner] for r in sorted(results, key=lambda r: r.index)],
    }


def bench_speedup(matches: int, agent: str, seed: int) -> dict[str, Any]:
    decks = resolve_decks(["ironbound", "emberfall", "veil-masquerade", "genesis-grove"], False)
    pairs, jobs = plan(decks, agent, agent, matches, seed, 200)
    for j in jobs[:2]:       # warm both paths' caches (card data) outside the timing
        _load(j.deck_a)
    out: dict[str, Any] = {"matches": len(jobs), "agent": agent, "load_before": os.getloadavg()}
    reports = {}
    for w in (1, 2):
        t0 = time.perf_counter()
        reports[w] = run(pairs, jobs, InlineBackend() if w == 1 else LocalBackend(2))
        out[f"seconds_{w}"] = round(time.perf_counter() - t0, 2)
    out["speedup"] = round(out["seconds_1"] / out["seconds_2"], 2)
    out["identical"] = reports[1] == reports[2]
    out["load_after"] = os.getloadavg()
    return out


def bench_decisions(agent: str, decisions: int, seed: int) -> dict[str, Any]:
    """The decision times of `agent` (ms, wall and CPU) at `decisions` real choices met in greedy-vs-greedy
    matches of the bundled decks (seat 0's decisions, in the bench's seeded order): a level too slow to
    play whole matches with (search:4 on a loaded machine) is timed on the same kind of positions. The
    agent's answer is thrown away: the greedy match goes on."""
    from engine.ai import make_agent, play_match
    from engine.game import Game
    from engine.rng import derive_seed
    from engine.sampling import InfoSet
    from engine.state import MatchOptions

    decks = resolve_decks([], True)
    _, jobs = plan(decks, "greedy", "greedy", 1, seed, 200)
    wall: list[float] = []
    cpu: list[float] = []
    for job in jobs:
        if len(wall) >= decisions:
            break
        from c1k_tui.sim.simulate import _CACHE

        deck_a, deck_b = _load(job.deck_a), _load(job.deck_b)
        game = Game.new(_CACHE["db"], deck_a, deck_b, job.seed, MatchOptions(max_turns=job.max_turns))
        timed = make_agent(agent, derive_seed(job.seed, 1))
        ga, gb = make_agent("greedy", derive_seed(job.seed, 1)), make_agent("greedy", derive_seed(job.seed, 2))
        inner = ga.act

        def act(info: InfoSet, inner: Any = inner, timed: Any = timed, game: Game = game) -> Any:
            if len(wall) < decisions and len(game.legal_actions()) > 1:
                t0, c0 = time.perf_counter(), time.process_time()
                timed.act(InfoSet(game.clone(), 0))
                wall.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
            return inner(info)

        ga.act = act  # type: ignore[method-assign]
        play_match(game, (ga, gb))
    return {"agent": agent, "decisions": len(wall), "real_decisions": len(wall),
            "real_median_ms": round(statistics.median(wall), 2), "real_p99_ms": round(_pct(wall, 0.99), 2),
            "real_max_ms": round(max(wall), 2), "cpu_real_median_ms": round(statistics.median(cpu), 2),
            "cpu_real_p99_ms": round(_pct(cpu, 0.99), 2), "cpu_real_max_ms": round(max(cpu), 2),
            "matches": 0, "load_avg": os.getloadavg()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("vs")
    v.add_argument("--agent", default="greedy")
    v.add_argument("--opponent", default="random")
    v.add_argument("--per-pair", type=int, default=2)
    v.add_argument("--workers", type=int, default=2)
    v.add_argument("--minutes", type=float, default=0)
    v.add_argument("--seed", type=int, default=1)
    v.add_argument("--max-turns", type=int, default=200)
    v.add_argument("--max-matches", type=int, default=0, help="only the first N jobs of the seeded order")
    s = sub.add_parser("speedup")
    s.add_argument("--matches", type=int, default=8)
    s.add_argument("--agent", default="greedy")
    s.add_argument("--seed", type=int, default=1)
    d = sub.add_parser("decisions")
    d.add_argument("--agent", default="search:4")
    d.add_argument("--decisions", type=int, default=40)
    d.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.cmd == "vs":
        res = bench_vs(a.agent, a.opponent, a.per_pair, a.workers, a.minutes, a.seed, a.max_turns, a.max_matches)
    elif a.cmd == "decisions":
        res = bench_decisions(a.agent, a.decisions, a.seed)
    else:
        res = bench_speedup(a.matches, a.agent, a.seed)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
