"""The starter decks against the field.

    python bench/balance.py report FILE [--markdown]      # FILE: a `c1k simulate --all --json FILE` report
    python bench/balance.py run --agent search:1 --seed 7 --max-matches 8 --cache CACHE.jsonl \
                                [--read MORE.jsonl ...] [--decks-dir DIR] [--only DECK ...] \
                                [--workers 1] [--minutes M] [--json FILE]

`report`: for each deck, its matches against every other deck (both seats), its win rate against the
field (draws ½) with the Wilson 95% interval, and the pairwise matrix (row deck's win rate against
the column deck, %). A deck is "in band" when its win rate is within 40–60%.

`run`: the jobs of `c1k simulate --all --agent A --matches N --seed S`, played match number by match
number (the k-th match of every pair, then the (k+1)-th), each result appended to CACHE as it
finishes, keyed by the two deck lists (in file order, comments aside), the agent, the seed and (pair, k). A job's seed and
seat depend only on (seed, pair, k), not on N, so after K rounds the report (`--json`) is exactly the
one `c1k simulate --all --agent A --matches K --seed S --json` writes; a deck edit re-plays only the
pairs of that deck; a run cut short (`--minutes`) keeps what it finished.

Trying a deck edit without touching `decks/`: copy the eleven deck files to DIR, edit one there and
pass `--decks-dir DIR` (same file names, so the same pairs and seeds); `--only NAME` plays only the
pairs of that deck, `--skip NAME` none of them; `--read` adds caches that are read but not written (e.g. the main one, while a
second run writes its own file).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import tomllib
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from c1k_tui.sim.simulate import DeckRef, Job, JobResult, plan, resolve_decks, run_job, summarize, wilson  # noqa: E402
from engine import MatchOptions  # noqa: E402


def _digest(path: str) -> str:
    """The deck's list (its [deck] table and card counts, in file order: the library is built in that order
    before the shuffle, so moving a line deals other hands), not its bytes: comments don't re-play a pair."""
    data = tomllib.loads(Path(path).read_text())
    canon = json.dumps({"deck": data["deck"], "cards": list(data["cards"].items())}, sort_keys=True)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


def _key(job: Job, seed: int) -> str:
    # the job's own seed and seats are in the key: since the seeds of a pair come from its two lists (issue
    # #20), a cache written with the older, position-derived seeds is never read as these jobs' results
    assert job.compensation is not None   # (always explicit here: None would change with the rules' default)
    comp = "" if job.compensation == "none" else f":{job.compensation}"
    return (f"{_digest(job.deck_a)}:{_digest(job.deck_b)}:{_agent(job.agent_a)}:{_agent(job.agent_b)}:{seed}:"
            f"{job.pair}:{job.k}:{job.seed}:{int(job.a_first)}" + comp)


def _agent(spec: str) -> str:
    """An agent in a cache key: a search level with its budget other than the one it had before issue #20
    item 8 (search:1 played 40 iterations then, 8 now) names that budget, so results of another
    budget are never read as this one's."""
    from engine.ai import LEVELS, make_agent

    agent = make_agent(spec)
    level = getattr(agent, "level", None)
    if spec.startswith(("search", "ismcts", "halving")) and level == 1 and LEVELS[1] != (40, 0, 6):
        return f"{spec}/{'.'.join(map(str, LEVELS[1]))}"
    return spec


def _read_cache(*paths: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in paths:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    out[row["key"]] = row["result"]
    return out


def _decks(decks_dir: Path | None) -> list[DeckRef]:
    if decks_dir is None:
        return resolve_decks([], True)
    return resolve_decks([str(p) for p in sorted(decks_dir.glob("*.toml"))], False)


def cmd_run(agent: str, seed: int, max_matches: int, cache: Path, workers: int, minutes: float,
            out: Path | None, read: list[Path], decks_dir: Path | None, only: list[str],
            skip: list[str], compensation: str = "none") -> None:
    import concurrent.futures as cf
    import multiprocessing as mp

    decks = _decks(decks_dir)
    pairs, jobs = plan(decks, agent, agent, max_matches, seed, compensation=compensation)
    done = _read_cache(cache, *read)
    todo = sorted((j for j in jobs if _key(j, seed) not in done
                   and (not only or pairs[j.pair][0].deck in only or pairs[j.pair][1].deck in only)
                   and pairs[j.pair][0].deck not in skip and pairs[j.pair][1].deck not in skip),
                  key=lambda j: (j.k, j.pair))
    print(f"{len(jobs)} jobs, {len(jobs) - len(todo)} cached, {len(todo)} to play", file=sys.stderr)
    t0 = time.perf_counter()
    deadline = t0 + minutes * 60 if minutes else float("inf")
    with cache.open("a") as fh, cf.ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        it = iter(todo)
        running: dict[cf.Future[JobResult], Job] = {}
        for j in it:
            running[pool.submit(run_job, j)] = j
            if len(running) >= workers:
                break
        n = 0
        while running:
            fin, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for f in fin:
                j = running.pop(f)
                fh.write(json.dumps({"key": _key(j, seed), "result": asdict(f.result())}) + "\n")
                fh.flush()
                n += 1
                if time.perf_counter() < deadline:
                    nxt = next(it, None)
                    if nxt is not None:
                        running[pool.submit(run_job, nxt)] = nxt
            if n % 10 == 0:
                print(f"  {n}/{len(todo)} played, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if out is not None:
        write_report(agent, seed, [cache, *read], out, decks_dir, compensation)


def write_report(agent: str, seed: int, caches: list[Path], out: Path, decks_dir: Path | None = None,
                 compensation: str = "none") -> int:
    """The `c1k simulate --all --matches K` report for the largest K whose rounds are all cached."""
    decks = _decks(decks_dir)
    done = _read_cache(*caches)
    k = 0
    while True:
        pairs, jobs = plan(decks, agent, agent, k + 1, seed, compensation=compensation)
        if not all(_key(j, seed) in done for j in jobs):
            break
        k += 1
    pairs, jobs = plan(decks, agent, agent, k, seed, compensation=compensation)
    results = {}
    for j in jobs:
        r = dict(done[_key(j, seed)])
        r["index"] = j.index
        results[j.index] = JobResult(**r)
    report = summarize(pairs, jobs, results)
    report["command"] = (f"c1k simulate --all --agent {agent} --matches {k} --seed {seed}"
                         f" --compensation {compensation}")
    report["run"] = {"seed": seed, "agent": agent, "matches_per_pair": k, "compensation": compensation}
    out.write_text(json.dumps(report, indent=1))
    print(f"{out}: {k} matches per pair ({len(jobs)} matches)", file=sys.stderr)
    return k


def field_table(report: dict[str, Any]) -> tuple[list[str], dict[str, dict[str, Any]], dict[tuple[str, str], tuple[float, int]]]:
    decks: list[str] = []
    pts: dict[str, float] = {}
    n: dict[str, int] = {}
    cell: dict[tuple[str, str], tuple[float, int]] = {}
    for p in report["pairs"]:
        a, b = p["deck_a"], p["deck_b"]
        for d in (a, b):
            if d not in pts:
                decks.append(d)
                pts[d], n[d] = 0.0, 0
        pa = p["wins_a"] + p["draws"] / 2
        m = p["matches"]
        pts[a] += pa
        pts[b] += m - pa
        n[a] += m
        n[b] += m
        cell[(a, b)] = (pa, m)
        cell[(b, a)] = (m - pa, m)
    rows = {}
    for d in decks:
        lo, hi = wilson(pts[d], n[d])
        rows[d] = {"matches": n[d], "points": pts[d], "win_rate": pts[d] / n[d] if n[d] else 0.0,
                   "ci95": (lo, hi)}
    return decks, rows, cell


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("report")
    r.add_argument("report", type=Path)
    r.add_argument("--markdown", action="store_true", help="markdown tables (field, then matrix)")
    u = sub.add_parser("run")
    u.add_argument("--agent", default="search:1")
    u.add_argument("--seed", type=int, default=7)
    u.add_argument("--max-matches", type=int, default=8)
    u.add_argument("--cache", type=Path, required=True)
    u.add_argument("--workers", type=int, default=1)
    u.add_argument("--minutes", type=float, default=0)
    u.add_argument("--json", type=Path)
    u.add_argument("--read", type=Path, nargs="*", default=[], help="more caches, read only")
    u.add_argument("--decks-dir", type=Path, help="the eleven deck files (default: the bundled decks)")
    u.add_argument("--only", nargs="*", default=[], help="play only the pairs of these decks")
    u.add_argument("--skip", nargs="*", default=[], help="don't play the pairs of these decks")
    u.add_argument("--compensation", default=MatchOptions().compensation,
                   help="the second player's compensation (RULES Second player): none, or card, coin, "
                        "influence, capacity joined by + in that order")
    w = sub.add_parser("write", help="the report of what a cache holds (the largest complete round)")
    w.add_argument("--agent", default="search:1")
    w.add_argument("--seed", type=int, default=7)
    w.add_argument("--cache", type=Path, nargs="+", required=True)
    w.add_argument("--json", type=Path, required=True)
    w.add_argument("--compensation", default=MatchOptions().compensation)
    a = ap.parse_args()
    if a.cmd == "run":
        cmd_run(a.agent, a.seed, a.max_matches, a.cache, a.workers, a.minutes, a.json, a.read, a.decks_dir,
                a.only, a.skip, a.compensation)
        return
    if a.cmd == "write":
        write_report(a.agent, a.seed, a.cache, a.json, None, a.compensation)
        return
    print_report(json.loads(a.report.read_text()), a.markdown)


def print_report(report: dict[str, Any], markdown: bool) -> None:
    decks, rows, cell = field_table(report)
    order = sorted(decks, key=lambda d: -rows[d]["win_rate"])
    agents = sorted({p["agent_a"] for p in report["pairs"]} | {p["agent_b"] for p in report["pairs"]})
    fp = report.get("first_player", {})
    print(f"agents: {', '.join(agents)}; {report.get('matches')} matches; first player "
          f"{100 * fp.get('win_rate', 0):.1f}% [{100 * fp.get('ci95', [0, 0])[0]:.1f}–{100 * fp.get('ci95', [0, 0])[1]:.1f}];"
          f" average turns {report.get('avg_turns')}")
    if markdown:
        print("\n| deck | matches | win rate vs field | 95% interval | point in 40–60% | interval in 40–60% |\n"
              "|---|---|---|---|---|---|")
    # the two marks: the point estimate in 40–60%, and the whole 95% interval in it (shown in the band)
    in_band = {d: 0.4 <= rows[d]["win_rate"] <= 0.6 for d in order}
    shown_in = {d: 0.4 <= rows[d]["ci95"][0] and rows[d]["ci95"][1] <= 0.6 for d in order}
    for d in order:
        r = rows[d]
        lo, hi = r["ci95"]
        band = "yes" if in_band[d] else "NO"
        shown = "yes" if shown_in[d] else "no"
        if markdown:
            print(f"| {d} | {r['matches']} | {100 * r['win_rate']:.1f}% | {100 * lo:.1f}–{100 * hi:.1f} | {band} | {shown} |")
        else:
            print(f"{d:24} {r['matches']:5} {100 * r['win_rate']:6.1f}%  [{100 * lo:5.1f}–{100 * hi:5.1f}]  {band:3}  {shown}")
    print(f"\n{sum(in_band.values())} of {len(order)} point estimates in 40–60%; "
          f"{sum(shown_in.values())} of {len(order)} shown inside it by their 95% interval")
    short = {d: "".join(w[0] for w in d.split("-")) for d in order}
    print()
    if markdown:
        print("| row vs column | " + " | ".join(short[d] for d in order) + " |")
        print("|---" * (len(order) + 1) + "|")
    else:
        print(" " * 24 + "".join(f"{short[d]:>5}" for d in order))
    for d in order:
        vals = []
        for e in order:
            if d == e:
                vals.append("—" if markdown else "    -")
                continue
            p, m = cell.get((d, e), (0.0, 0))
            vals.append(f"{100 * p / m:.0f}" if m and markdown else (f"{100 * p / m:5.0f}" if m else "    ?"))
        if markdown:
            print(f"| {d} ({short[d]}) | " + " | ".join(vals) + " |")
        else:
            print(f"{d:24}" + "".join(vals))


if __name__ == "__main__":
    main()
