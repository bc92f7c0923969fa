"""A ladder rung: two agents on duplicate deals, with a paired interval and decision CPU percentiles.

    python bench/ladder.py AGENT OPPONENT [--seed S] [--per-pair K] [--max-deals N] [--workers W]
                           [--max-turns T] [--cache FILE] [--json FILE] [--quiet]

e.g. `python bench/ladder.py search:1 greedy --seed 4711 --workers 2`.

**Duplicate design.** A *deal* is a deck pair — one of the 121 ordered pairs of the 11 bundled decks,
the first deck in the first seat — and a match seed. Every deal is played twice with the agents
swapped: AGENT in the first seat then in the second, OPPONENT in the other, on the same decks and seeds
(the same shuffles); each agent's own seed follows the agent, not the seat. AGENT's score of a deal is
the mean of its two results (a win 1, a draw ½), so luck of the deal — a deck pair that favours a seat,
a good draw — falls on both agents alike and cancels. The deals of a seed are `--per-pair` seeds for
each deck pair (seed `derive_seed(S, pair × K + k)`), played in a seeded shuffled order: `--max-deals N`
(the first N of that order) is a fair sample of all of them.

**Statistics.** AGENT's win rate (draws ½) is the mean deal score; its 95% interval is the paired one,
mean ± 1.96 standard errors of the deal scores (a normal interval over deals; the deals are the
independent units, not the matches). The Wilson interval over matches, which ignores the pairing, is
reported beside it. Decision times are this process's CPU time (`time.process_time`) of each call of
an agent's `act` — only decisions with a real choice reach an agent (`play_match` hands over forced
actions) — as the median, 90th, 95th and 99th percentiles and the maximum, per agent.

**Resumable.** Every finished deal is appended as one JSON line to the cache file (default
`bench/results/ladder-cache/AGENT-v-OPPONENT-seedS-kK-tT-ENGINE.jsonl`, ENGINE a digest of
the engine's source). Its first line records the run (agents,
seed, per-pair, max turns, a digest of the deck lists and of the engine's source); a run with the same
cache plays only the deals it lacks and refuses a cache written for another run or another engine.
A line cut short by a killed run is ignored (that deal is played again).

**Parallel.** `--workers W` plays deals in W processes; results are gathered by deal, so the report
(apart from the timings) is the same whatever W. The JSON (default `bench/results/ladder-AGENT-v-OPPONENT-seedS.json`)
holds the summary, the timings and every deal's two results.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing as mp
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:            # run as a script from anywhere: this tree's engine
    sys.path.insert(0, str(ROOT))

from c1k_tui.sim.simulate import wilson  # noqa: E402  (Wilson's interval over matches, as `c1k simulate`)

Z95 = 1.959964
RESULTS = ROOT / "bench" / "results"


# ---------------------------------------------------------------- statistics


def paired_interval(scores: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): a normal interval on the mean of per-deal scores (each in [0, 1]), clamped to
    [0, 1]; with fewer than two deals, the whole range."""
    n = len(scores)
    if n == 0:
        return (0.0, 0.0, 1.0)
    mean = sum(scores) / n
    if n == 1:
        return (mean, 0.0, 1.0)
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, max(0.0, mean - half), min(1.0, mean + half))


def percentiles(xs: Iterable[float]) -> dict[str, Any]:
    """count, median, p90, p95, p99 and max (nearest rank) of decision times in ms."""
    s = sorted(xs)
    if not s:
        return {"count": 0}

    def q(p: float) -> float:
        return round(s[min(len(s) - 1, max(0, math.ceil(p * len(s)) - 1))], 2)
    return {"count": len(s), "median": round(statistics.median(s), 2), "p90": q(0.90), "p95": q(0.95),
            "p99": q(0.99), "max": round(s[-1], 2)}


def emit(rep: dict[str, Any], path: Path | None) -> int:
    """Print a bench report without its per-match rows and write all of it to `path` (JSON) if given; 0."""
    print(json.dumps({k: v for k, v in rep.items() if k != "rows"}, indent=1))
    if path:
        path.write_text(json.dumps(rep, indent=1) + "\n")
    return 0


def score(result: str) -> float:
    """AGENT's points from one match: 'agent', 'opponent' or 'draw'."""
    return {"agent": 1.0, "opponent": 0.0, "draw": 0.5}[result]


# ---------------------------------------------------------------- deals


def deck_names() -> list[str]:
    from engine.decks import bundled_deck_paths

    return [p.stem for p in bundled_deck_paths()]


def deals(seed: int, per_pair: int) -> list[tuple[int, str, str, int]]:
    """Every deal (index, first deck, second deck, match seed), in the seeded shuffled playing order."""
    from engine.rng import SplitMix64, derive_seed

    names = deck_names()
    pairs = [(a, b) for a in names for b in names]
    out = [(i * per_pair + k, a, b, derive_seed(seed, i * per_pair + k))
           for i, (a, b) in enumerate(pairs) for k in range(per_pair)]
    rng = SplitMix64(seed ^ 0x1ADDE5)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


_DB: dict[str, Any] = {}


def _deck(name: str) -> Any:
    from engine.cards import load_card_db
    from engine.decks import find_deck, load_deck

    if "db" not in _DB:
        _DB["db"] = load_card_db()
    if name not in _DB:
        _DB[name] = load_deck(find_deck(name), _DB["db"])
    return _DB[name]


def play_deal(job: tuple[tuple[int, str, str, int], str, str, int]) -> dict[str, Any]:
    """Both matches of a deal: AGENT first then second. Returns the deal's cache record."""
    from engine.ai import make_agent, play_match
    from engine.game import Game
    from engine.rng import derive_seed
    from engine.state import MatchOptions

    (index, deck1, deck2, seed), agent, opponent, max_turns = job
    results: list[str] = []
    turns: list[int] = []
    cpu: dict[str, list[float]] = {"agent": [], "opponent": []}
    for agent_seat in (0, 1):
        d1, d2 = _deck(deck1), _deck(deck2)
        game = Game.new(_DB["db"], d1, d2, seed, MatchOptions(max_turns=max_turns))
        ours = _timed(make_agent(agent, derive_seed(seed, 1)), cpu["agent"])
        theirs = _timed(make_agent(opponent, derive_seed(seed, 2)), cpu["opponent"])
        r = play_match(game, (ours, theirs) if agent_seat == 0 else (theirs, ours))
        results.append("draw" if r.winner is None else ("agent" if r.winner == agent_seat else "opponent"))
        turns.append(r.turns)
    return {"deal": index, "decks": [deck1, deck2], "seed": seed, "results": results, "turns": turns,
            "cpu_ms": {k: [round(t, 3) for t in v] for k, v in cpu.items()}}


def _timed(agent: Any, out: list[float]) -> Any:
    """The agent, its `act` timed in CPU ms into `out` (forced actions never reach it: see play_match)."""
    inner = agent.act

    def act(info: Any) -> Any:
        c0 = time.process_time()
        a = inner(info)
        out.append((time.process_time() - c0) * 1000)
        return a
    agent.act = act
    return agent


# ---------------------------------------------------------------- the cache


def run_header(agent: str, opponent: str, seed: int, per_pair: int, max_turns: int) -> dict[str, Any]:
    """What a cache's deals depend on: the run's arguments, the deck lists and the engine's source."""
    from engine.decks import bundled_deck_paths

    h = hashlib.sha256()
    for p in bundled_deck_paths():
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    decks = h.hexdigest()[:16]
    h = hashlib.sha256()
    for p in sorted((ROOT / "engine").rglob("*.py")):
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return {"ladder": 1, "agent": agent, "opponent": opponent, "seed": seed, "per_pair": per_pair,
            "max_turns": max_turns, "decks": decks, "engine": h.hexdigest()[:16]}


class LadderError(Exception):
    """A problem with the command's input or its cache: shown as a message, never a traceback."""


def read_cache(path: Path, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The finished deals of a cache written for this run (by deal index); none if there is no cache."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").split("\n")
    try:
        head = json.loads(lines[0])
    except ValueError:
        raise LadderError(f"{path}:1: not a ladder cache (expected its run header as JSON)") from None
    if head != header:
        diff = [k for k in header if head.get(k) != header[k]] if isinstance(head, dict) else ["ladder"]
        raise LadderError(f"{path}:1: this cache was written for another run (differs in {', '.join(diff)}); "
                          "use another --cache or delete it")
    out: dict[int, dict[str, Any]] = {}
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            out[int(rec["deal"])] = rec
        except (ValueError, KeyError, TypeError):
            if n == len(lines):
                continue          # a last line cut short by a killed run (no newline): played again
            raise LadderError(f"{path}:{n}: not a deal record") from None
    return out


def run(agent: str, opponent: str, seed: int = 1, per_pair: int = 1, max_deals: int = 0, workers: int = 1,
        max_turns: int = 200, cache: Path | None = None,
        progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the deals not yet in `cache` (all of them without one) and summarize them all."""
    from engine.ai import make_agent

    for spec in (agent, opponent):
        try:
            make_agent(spec)
        except ValueError as err:
            raise LadderError(str(err)) from None
    header = run_header(agent, opponent, seed, per_pair, max_turns)
    order = deals(seed, per_pair)
    if max_deals:
        order = order[:max_deals]
    done = read_cache(cache, header) if cache else {}
    todo = [d for d in order if d[0] not in done]
    fh = None
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        old = cache.read_bytes() if cache.exists() else b""
        if old and not old.endswith(b"\n"):     # a line cut short by a killed run: drop it (atomically)
            tmp = cache.with_suffix(cache.suffix + ".tmp")
            tmp.write_bytes(old[:old.rfind(b"\n") + 1])
            tmp.replace(cache)
        fh = cache.open("a", encoding="utf-8")
        if not old:
            fh.write(json.dumps(header) + "\n")
        fh.flush()
    jobs = [(d, agent, opponent, max_turns) for d in todo]
    played = 0
    try:
        if workers > 1 and len(jobs) > 1:
            with mp.get_context("fork").Pool(workers) as pool:
                for rec in pool.imap_unordered(play_deal, jobs):
                    played = _store(rec, done, fh, played, len(jobs), progress)
        else:
            for job in jobs:
                played = _store(play_deal(job), done, fh, played, len(jobs), progress)
    finally:
        if fh is not None:
            fh.close()
    report = summarize(header, [done[d[0]] for d in order])
    report["played_now"] = played
    return report


def _store(rec: dict[str, Any], done: dict[int, dict[str, Any]], fh: Any, played: int, total: int,
           progress: Callable[[int, int], None] | None) -> int:
    done[rec["deal"]] = rec
    if fh is not None:
        fh.write(json.dumps(rec) + "\n")
        fh.flush()
    if progress is not None:
        progress(played + 1, total)
    return played + 1


def summarize(header: dict[str, Any], recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The report of these deals (in the playing order)."""
    scores = [sum(score(r) for r in rec["results"]) / 2 for rec in recs]
    mean, lo, hi = paired_interval(scores)
    points = sum(score(r) for rec in recs for r in rec["results"])
    matches = 2 * len(recs)
    wl, wh = wilson(points, matches)
    by_seat = []
    for s in (0, 1):
        pts = sum(score(rec["results"][s]) for rec in recs)
        by_seat.append({"seat": s + 1, "matches": len(recs), "win_rate": round(pts / len(recs), 4) if recs else 0.0})
    res = [r for rec in recs for r in rec["results"]]
    return {
        **{k: header[k] for k in ("agent", "opponent", "seed", "per_pair", "max_turns")},
        "deals": len(recs), "matches": matches, "planned_deals": 121 * header["per_pair"],
        "wins": res.count("agent"), "draws": res.count("draw"), "losses": res.count("opponent"),
        "win_rate": round(mean, 4), "ci95_paired": [round(lo, 4), round(hi, 4)],
        "ci95_wilson": [round(wl, 4), round(wh, 4)],
        "deal_scores": {str(k): scores.count(k) for k in (0.0, 0.25, 0.5, 0.75, 1.0)},
        "agent_by_seat": by_seat,
        "avg_turns": round(sum(t for rec in recs for t in rec["turns"]) / matches, 2) if matches else 0.0,
        "decision_cpu_ms": {header["agent"] if role == "agent" else header["opponent"] + " (opponent)":
                            percentiles(t for rec in recs for t in rec["cpu_ms"][role])
                            for role in ("agent", "opponent")},
        "engine": header["engine"], "decks_digest": header["decks"],
        "results": [[rec["deal"], *rec["decks"], rec["seed"], *rec["results"]] for rec in recs],
    }


def _slug(s: str) -> str:
    return s.replace(":", "")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("agent")
    ap.add_argument("opponent")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-pair", type=int, default=1, help="deals per ordered deck pair (121 pairs)")
    ap.add_argument("--max-deals", type=int, default=0, help="only the first N deals of the seeded order")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    if a.per_pair < 1 or a.max_deals < 0 or a.workers < 1 or a.max_turns < 1:
        print("ladder: --per-pair, --workers and --max-turns must be at least 1, --max-deals at least 0",
              file=sys.stderr)
        return 2
    stem = f"{_slug(a.agent)}-v-{_slug(a.opponent)}-seed{a.seed}"
    engine = run_header(a.agent, a.opponent, a.seed, a.per_pair, a.max_turns)["engine"]
    cache = a.cache or RESULTS / "ladder-cache" / f"{stem}-k{a.per_pair}-t{a.max_turns}-{engine}.jsonl"
    out = a.json or RESULTS / f"ladder-{stem}.json"
    t0 = time.perf_counter()

    def progress(i: int, n: int) -> None:
        if not a.quiet:
            print(f"  {i}/{n} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    try:
        report = run(a.agent, a.opponent, a.seed, a.per_pair, a.max_deals, a.workers, a.max_turns, cache, progress)
    except LadderError as err:
        print(f"ladder: {err}", file=sys.stderr)
        return 2
    report["wall_seconds"] = round(time.perf_counter() - t0, 1)
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    args = list(sys.argv[1:] if argv is None else argv)
    for opt in ("--json", "--cache"):          # where the files went is not how to reproduce them
        while opt in args and args.index(opt) + 1 < len(args):
            i = args.index(opt)
            del args[i:i + 2]
    report["command"] = "python bench/ladder.py " + " ".join(args)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out)
    lo, hi = report["ci95_paired"]
    print(f"{a.agent} v {a.opponent}, seed {a.seed}: {report['matches']} matches ({report['deals']} deals), "
          f"win rate {100 * report['win_rate']:.1f}% [paired 95% {100 * lo:.1f}–{100 * hi:.1f}]")
    for who, p in report["decision_cpu_ms"].items():
        if p["count"]:
            print(f"  {who}: decision CPU ms median {p['median']}, p95 {p['p95']}, max {p['max']} "
                  f"({p['count']} decisions)")
    print(f"  -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
