"""`c1k simulate`: deck against deck, agent against agent, many matches — on a process pool or Ray.

Every match is a job named by (pair, index) with its own StateSeed derived from `--seed`; a worker
plays it and returns a small result. Results are gathered by job index, never in arrival order, so
the same seeds give the same results whatever the number of workers or the backend.

Win rates count a draw as half a win; their 95% intervals are Wilson score intervals. Ratings are a
Bradley–Terry fit (on the Elo scale: 400·log10 of the strength, mean 0) with standard errors from the
Fisher information; every pair of entries gets one virtual draw so that a perfect record stays finite.
"""

from __future__ import annotations

import csv
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, Protocol

import typer

DEFAULT_MAX_TURNS = 200
Z95 = 1.959963984540054


# ---------------------------------------------------------------- jobs


@dataclass(frozen=True)
class Job:
    index: int           # position in the whole run
    pair: int
    k: int               # match number within the pair
    deck_a: str          # deck file paths
    deck_b: str
    agent_a: str
    agent_b: str
    seed: int
    a_first: bool        # deck A sits in p1 (seats alternate within a pair)
    max_turns: int
    #: the second player's compensation (MatchOptions.compensation, RULES Second player); None: the rules' default
    compensation: str | None = None


@dataclass
class JobResult:
    index: int
    winner: str          # "a" | "b" | "draw"
    termination: str
    turns: int
    actions: int
    a_first: bool
    drawn_a: list[str] = field(default_factory=list)
    drawn_b: list[str] = field(default_factory=list)
    played_a: list[str] = field(default_factory=list)
    played_b: list[str] = field(default_factory=list)
    error: str = ""


_CACHE: dict[str, Any] = {}


def _load(path: str) -> Any:
    from engine import load_card_db, load_deck

    if "db" not in _CACHE:
        _CACHE["db"] = load_card_db()
    key = "deck:" + path
    if key not in _CACHE:
        _CACHE[key] = load_deck(Path(path), _CACHE["db"], playtest=True)
    return _CACHE[key]


def run_job(job: Job) -> JobResult:
    """Play one match (in a worker). Pure: the result depends only on the job."""
    from engine import Game, MatchOptions, derive_seed
    from engine.ai import make_agent, play_match

    deck_a, deck_b = _load(job.deck_a), _load(job.deck_b)
    db = _CACHE["db"]
    first, second = (deck_a, deck_b) if job.a_first else (deck_b, deck_a)
    options = MatchOptions(max_turns=job.max_turns)
    if job.compensation is not None:
        options = MatchOptions(max_turns=job.max_turns, compensation=job.compensation)
    game = Game.new(db, first, second, job.seed, options)
    ag_a = make_agent(job.agent_a, derive_seed(job.seed, 1))
    ag_b = make_agent(job.agent_b, derive_seed(job.seed, 2))
    agents = (ag_a, ag_b) if job.a_first else (ag_b, ag_a)
    try:
        r = play_match(game, agents)
    except Exception as err:  # a rules error in one match is reported, not a crash of the whole run
        return JobResult(job.index, "draw", "error", game.turn, 0, job.a_first, error=f"{type(err).__name__}: {err}")
    seat_a = 0 if job.a_first else 1
    if r.winner is None:
        w = "draw"
    else:
        w = "a" if r.winner == seat_a else "b"
    return JobResult(job.index, w, r.termination, r.turns, r.actions, job.a_first,
                     list(r.drawn[seat_a]), list(r.drawn[1 - seat_a]),
                     list(r.played[seat_a]), list(r.played[1 - seat_a]))


# ---------------------------------------------------------------- backends


class Backend(Protocol):
    name: str

    def run(self, jobs: Sequence[Job], done: Callable[[JobResult], None]) -> None: ...


@dataclass
class InlineBackend:
    """In this process, one job after another (tests, and --workers 1)."""

    name: str = "inline"

    def run(self, jobs: Sequence[Job], done: Callable[[JobResult], None]) -> None:
        for j in jobs:
            done(run_job(j))


@dataclass
class LocalBackend:
    """A process pool of `workers` processes."""

    workers: int
    name: str = "local"

    def run(self, jobs: Sequence[Job], done: Callable[[JobResult], None]) -> None:
        if self.workers <= 1:
            InlineBackend().run(jobs, done)
            return
        import concurrent.futures as cf
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with cf.ProcessPoolExecutor(self.workers, mp_context=ctx) as pool:
            futs = [pool.submit(run_job, j) for j in jobs]
            for f in cf.as_completed(futs):
                done(f.result())


@dataclass
class RayBackend:
    """The same jobs as Ray tasks (`pip install -e '.[cluster]'`); `address` None starts a local Ray."""

    address: str | None = None
    name: str = "ray"

    def run(self, jobs: Sequence[Job], done: Callable[[JobResult], None]) -> None:
        try:
            import ray
        except ImportError as err:
            raise SimulateError("the ray backend needs Ray: pip install -e '.[cluster]'") from err
        if not ray.is_initialized():
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False)
        remote = ray.remote(run_job)
        pending = [remote.remote(j) for j in jobs]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for r in ready:
                done(ray.get(r))


class SimulateError(Exception):
    """A problem with the command's input: shown as a message, never a traceback."""


# ---------------------------------------------------------------- statistics


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional: draws count half)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry(names: Sequence[str], games: dict[tuple[int, int], tuple[float, int]],
                  iterations: int = 2000) -> list[dict[str, Any]]:
    """Ratings from pairwise results: games[(i, j)] = (points of i against j, matches), i < j.

    MM algorithm (Hunter 2004) with one virtual draw per pair; Elo scale, mean 0; 95% intervals from
    the inverse Fisher information (pseudo-inverse: the mean is fixed)."""
    k = len(names)
    if k == 0:
        return []
    wins = [0.0] * k
    n = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            pts, m = games.get((i, j), (0.0, 0))
            pts, m = pts + 0.5, m + 1            # the virtual draw
            wins[i] += pts
            wins[j] += m - pts
            n[i][j] += m
            n[j][i] += m
    s = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            den = sum(n[i][j] / (s[i] + s[j]) for j in range(k) if j != i and n[i][j])
            new.append(wins[i] / den if den else s[i])
        g = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        if max(abs(a - b) for a, b in zip(new, s, strict=True)) < 1e-12:
            s = new
            break
        s = new
    theta = [math.log(x) for x in s]
    # Fisher information L (a weighted graph Laplacian); covariance = pseudo-inverse of L
    lap = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j]:
                p = s[i] / (s[i] + s[j])
                w = n[i][j] * p * (1 - p)
                lap[i][j] -= w
                lap[i][i] += w
    cov = _pinv_laplacian(lap)
    scale = 400 / math.log(10)
    out: list[dict[str, Any]] = []
    for i, name in enumerate(names):
        se = math.sqrt(max(0.0, cov[i][i])) * scale
        r = theta[i] * scale
        out.append({"name": name, "rating": round(r, 1), "ci95": [round(r - Z95 * se, 1), round(r + Z95 * se, 1)],
                    "points": round(wins[i] - 0.5 * (k - 1), 2)})
    out.sort(key=lambda d: (-d["rating"], d["name"]))
    return out


def _pinv_laplacian(lap: list[list[float]]) -> list[list[float]]:
    k = len(lap)
    a = [[lap[i][j] + 1.0 / k for j in range(k)] for i in range(k)]
    inv = _invert(a)
    return [[inv[i][j] - 1.0 / k for j in range(k)] for i in range(k)]


def _invert(m: list[list[float]]) -> list[list[float]]:
    k = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(m)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(a[r][c]))
        if abs(a[piv][c]) < 1e-15:
            return [[0.0] * k for _ in range(k)]
        a[c], a[piv] = a[piv], a[c]
        pv = a[c][c]
        a[c] = [x / pv for x in a[c]]
        for r in range(k):
            if r != c and a[r][c]:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [row[k:] for row in a]


# ---------------------------------------------------------------- a whole run


@dataclass
class Entry:
    deck: str            # deck name (file stem)
    path: str
    agent: str

    @property
    def label(self) -> str:
        return f"{self.deck} ({self.agent})"


def plan(decks: Sequence[tuple[str, str]], agent: str, opponent: str, matches: int, seed: int,
         max_turns: int = DEFAULT_MAX_TURNS, compensation: str | None = None,
         ) -> tuple[list[tuple[Entry, Entry]], list[Job]]:
    """The pairs and jobs. Same agent on both sides: each unordered pair of decks once. Different
    agents: every (deck with `agent`, deck with `opponent`) pair, mirrors included."""
    from engine import derive_seed

    if agent == opponent:
        pairs = [(Entry(a[0], a[1], agent), Entry(b[0], b[1], agent))
                 for i, a in enumerate(decks) for b in decks[i + 1:]]
        if len(decks) == 1:
            pairs = [(Entry(decks[0][0], decks[0][1], agent), Entry(decks[0][0], decks[0][1], agent))]
    else:
        pairs = [(Entry(a[0], a[1], agent), Entry(b[0], b[1], opponent)) for a in decks for b in decks]
    jobs: list[Job] = []
    for pi, (ea, eb) in enumerate(pairs):
        ps = derive_seed(seed, pi)
        for k in range(matches):
            jobs.append(Job(len(jobs), pi, k, ea.path, eb.path, ea.agent, eb.agent, derive_seed(ps, k),
                            k % 2 == 0, max_turns, compensation))
    return pairs, jobs


def summarize(pairs: Sequence[tuple[Entry, Entry]], jobs: Sequence[Job],
              results: dict[int, JobResult]) -> dict[str, Any]:
    """The report (the JSON written by --json), from results gathered by job index."""
    per_pair: list[dict[str, Any]] = []
    first_wins = 0.0
    decided = 0
    turns_total = 0
    errors = []
    by_pair: dict[int, list[JobResult]] = {}
    for j in jobs:
        by_pair.setdefault(j.pair, []).append(results[j.index])
    for pi, (ea, eb) in enumerate(pairs):
        rs = by_pair.get(pi, [])
        wa = sum(r.winner == "a" for r in rs)
        wb = sum(r.winner == "b" for r in rs)
        dr = len(rs) - wa - wb
        pts = wa + dr / 2
        lo, hi = wilson(pts, len(rs))
        turns = sum(r.turns for r in rs)
        turns_total += turns
        for r in rs:
            if r.error:
                errors.append(f"{ea.label} vs {eb.label} match {r.index}: {r.error}")
            a_won = r.winner == "a"
            first_won = (a_won and r.a_first) or (r.winner == "b" and not r.a_first)
            first_wins += 1.0 if first_won else (0.5 if r.winner == "draw" else 0.0)
            decided += 1
        per_pair.append({
            "deck_a": ea.deck, "deck_b": eb.deck, "agent_a": ea.agent, "agent_b": eb.agent,
            "matches": len(rs), "wins_a": wa, "wins_b": wb, "draws": dr,
            "win_rate_a": round(pts / len(rs), 4) if rs else 0.0, "ci95_a": [round(lo, 4), round(hi, 4)],
            "avg_turns": round(turns / len(rs), 2) if rs else 0.0,
        })
    # ratings over entries (deck + agent)
    labels: list[str] = []
    idx: dict[str, int] = {}
    for ea, eb in pairs:
        for e in (ea, eb):
            if e.label not in idx:
                idx[e.label] = len(labels)
                labels.append(e.label)
    games: dict[tuple[int, int], tuple[float, int]] = {}
    for row, (ea, eb) in zip(per_pair, pairs, strict=True):
        ia, ib = idx[ea.label], idx[eb.label]
        if ia == ib:
            continue
        pts = row["wins_a"] + row["draws"] / 2
        if ia > ib:
            ia, ib, pts = ib, ia, row["matches"] - pts
        old = games.get((ia, ib), (0.0, 0))
        games[(ia, ib)] = (old[0] + pts, old[1] + row["matches"])
    ratings = bradley_terry(labels, games)
    # cards: per (deck, agent, card)
    cards: dict[tuple[str, str, str], dict[str, float]] = {}
    entry_matches: dict[tuple[str, str], int] = {}
    for j in jobs:
        r = results[j.index]
        ea, eb = pairs[j.pair]
        for e, side, drawn, played in ((ea, "a", r.drawn_a, r.played_a), (eb, "b", r.drawn_b, r.played_b)):
            key = (e.deck, e.agent)
            entry_matches[key] = entry_matches.get(key, 0) + 1
            pts = 1.0 if r.winner == side else (0.5 if r.winner == "draw" else 0.0)
            for cid in set(drawn):
                c = cards.setdefault((e.deck, e.agent, cid), {"drawn": 0, "played": 0, "pts_drawn": 0.0,
                                                               "pts_played": 0.0, "plays": 0})
                c["drawn"] += 1
                c["pts_drawn"] += pts
            for cid in set(played):
                c = cards.setdefault((e.deck, e.agent, cid), {"drawn": 0, "played": 0, "pts_drawn": 0.0,
                                                               "pts_played": 0.0, "plays": 0})
                c["played"] += 1
                c["pts_played"] += pts
            for cid in played:
                cards[(e.deck, e.agent, cid)]["plays"] += 1
    card_rows = []
    from engine import load_card_db

    if "db" not in _CACHE:
        _CACHE["db"] = load_card_db()
    by_id = _CACHE["db"].by_id
    for (deck, agent, cid), c in sorted(cards.items()):
        m = entry_matches[(deck, agent)]
        card_rows.append({
            "deck": deck, "agent": agent, "card": cid, "name": by_id[cid].name if cid in by_id else cid,
            "matches": m,
            "drawn": int(c["drawn"]), "played": int(c["played"]), "plays": int(c["plays"]),
            "drawn_pct": round(100 * c["drawn"] / m, 1), "played_pct": round(100 * c["played"] / m, 1),
            "win_rate_drawn": round(c["pts_drawn"] / c["drawn"], 4) if c["drawn"] else None,
            "win_rate_played": round(c["pts_played"] / c["played"], 4) if c["played"] else None,
        })
    fl, fh = wilson(first_wins, decided)
    return {
        "pairs": per_pair,
        "ratings": ratings,
        "cards": card_rows,
        "first_player": {"matches": decided, "win_rate": round(first_wins / decided, 4) if decided else 0.0,
                         "ci95": [round(fl, 4), round(fh, 4)]},
        "avg_turns": round(turns_total / max(1, len(jobs)), 2),
        "matches": len(jobs),
        "errors": errors,
    }


def run(pairs: Sequence[tuple[Entry, Entry]], jobs: Sequence[Job], backend: Backend,
        progress: Callable[[JobResult], None] | None = None) -> dict[str, Any]:
    results: dict[int, JobResult] = {}

    def done(r: JobResult) -> None:
        results[r.index] = r
        if progress is not None:
            progress(r)

    backend.run(jobs, done)
    return summarize(pairs, jobs, results)


# ---------------------------------------------------------------- output


def write_csv(report: dict[str, Any], path: Path) -> list[Path]:
    """Pairs to `path`, cards to `<stem>.cards.csv` next to it."""
    keys = ["deck_a", "deck_b", "agent_a", "agent_b", "matches", "wins_a", "wins_b", "draws", "win_rate_a",
            "ci95_low", "ci95_high", "avg_turns"]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(keys)
        for p in report["pairs"]:
            w.writerow([p[k] for k in keys[:9]] + [p["ci95_a"][0], p["ci95_a"][1], p["avg_turns"]])
    cpath = path.with_name(path.stem + ".cards.csv")
    ckeys = ["deck", "agent", "card", "name", "matches", "drawn", "played", "plays", "drawn_pct", "played_pct",
             "win_rate_drawn", "win_rate_played"]
    with cpath.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(ckeys)
        for c in report["cards"]:
            w.writerow(["" if c[k] is None else c[k] for k in ckeys])
    return [path, cpath]


def print_report(report: dict[str, Any], console: Any, top_cards: int = 10) -> None:
    for part in report_renderables(report, top_cards):
        console.print(part)


def report_renderables(report: dict[str, Any], top_cards: int = 10) -> list[Any]:
    """The report as rich renderables (tables and lines): what `c1k simulate` prints and the Lab shows."""
    from rich.table import Table

    out: list[Any] = []

    pairs = report["pairs"]
    rows = sorted({(p["deck_a"], p["agent_a"]) for p in pairs})
    cols = sorted({(p["deck_b"], p["agent_b"]) for p in pairs} | (set(rows) if len({p["agent_a"] for p in pairs}
                                                                                  | {p["agent_b"] for p in pairs}) == 1
                                                                 else set()))
    same_agent = all(p["agent_a"] == p["agent_b"] for p in pairs)
    if same_agent:
        cols = rows = sorted(set(rows) | set(cols))
    cell: dict[tuple[tuple[str, str], tuple[str, str]], str] = {}
    for p in pairs:
        a, b = (p["deck_a"], p["agent_a"]), (p["deck_b"], p["agent_b"])
        lo, hi = p["ci95_a"]
        cell[(a, b)] = f"{100 * p['win_rate_a']:.0f}% [{100 * lo:.0f}–{100 * hi:.0f}]"
        if same_agent:
            cell[(b, a)] = f"{100 * (1 - p['win_rate_a']):.0f}% [{100 * (1 - hi):.0f}–{100 * (1 - lo):.0f}]"
    t = Table(title="Win rate of the row against the column (draws = ½), Wilson 95% interval")
    t.add_column("deck (agent)")
    for c in cols:
        t.add_column(c[0] if same_agent else f"{c[0]} ({c[1]})", justify="right")
    for r in rows:
        t.add_row(r[0] if same_agent else f"{r[0]} ({r[1]})", *[cell.get((r, c), "·") for c in cols])
    out.append(t)
    fp = report["first_player"]
    out.append(f"First player wins {100 * fp['win_rate']:.1f}% [{100 * fp['ci95'][0]:.1f}–"
                  f"{100 * fp['ci95'][1]:.1f}] of {fp['matches']} matches; average {report['avg_turns']} turns.")
    rt = Table(title="Ratings (Bradley–Terry, Elo scale, mean 0)")
    for head in ("deck (agent)", "rating", "95% interval"):
        rt.add_column(head, justify="left" if head.startswith("deck") else "right")
    for r in report["ratings"]:
        rt.add_row(r["name"], f"{r['rating']:+.0f}", f"{r['ci95'][0]:+.0f} … {r['ci95'][1]:+.0f}")
    out.append(rt)
    if report["cards"] and top_cards:
        ct = Table(title=f"Cards: the {top_cards} with the highest win rate when played (played in ≥ 10% of matches)")
        for head in ("deck", "card", "drawn %", "played %", "win when drawn", "win when played"):
            ct.add_column(head, justify="left" if head in ("deck", "card") else "right")
        rows_c = [c for c in report["cards"] if c["played_pct"] >= 10 and c["win_rate_played"] is not None]
        rows_c.sort(key=lambda c: (-c["win_rate_played"], c["deck"], c["card"]))
        for c in rows_c[:top_cards]:
            ct.add_row(c["deck"], c["name"], f"{c['drawn_pct']:.0f}", f"{c['played_pct']:.0f}",
                       f"{100 * c['win_rate_drawn']:.0f}%" if c["win_rate_drawn"] is not None else "–",
                       f"{100 * c['win_rate_played']:.0f}%")
        out.append(ct)
    for e in report["errors"][:10]:
        out.append(f"[red]error[/red] {e}")
    return out


# ---------------------------------------------------------------- terminal plots (plotext)


def field_rates(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each entry's win rate against the field: its points (draws ½) over all its matches, with a Wilson
    95% interval — one row per entry (deck, or deck (agent) when agents differ), best first."""
    same_agent = all(p["agent_a"] == p["agent_b"] for p in report["pairs"])
    pts: dict[str, list[float]] = {}
    for p in report["pairs"]:
        a = p["deck_a"] if same_agent else f"{p['deck_a']} ({p['agent_a']})"
        b = p["deck_b"] if same_agent else f"{p['deck_b']} ({p['agent_b']})"
        for name, won in ((a, p["wins_a"]), (b, p["wins_b"])):
            row = pts.setdefault(name, [0.0, 0.0])
            row[0] += won + p["draws"] / 2
            row[1] += p["matches"]
    out: list[dict[str, Any]] = []
    for name, (won, n) in pts.items():
        lo, hi = wilson(won, int(n))
        out.append({"name": name, "matches": int(n), "win_rate": round(won / n, 4) if n else 0.0,
                    "ci95": [round(lo, 4), round(hi, 4)]})
    out.sort(key=lambda r: (-float(r["win_rate"]), str(r["name"])))
    return out


def interval_plot(title: str, rows: Sequence[tuple[str, float, float, float]], width: int = 100,
                  ref: float | None = None, xlim: tuple[float, float] | None = None, color: bool = True) -> str:
    """A forest plot: one row per (label, value, low, high) — the interval as a bar │───●───│, the value as
    ●, an optional reference line (e.g. 50% or rating 0). Text (with ANSI colours unless `color` is off)."""
    import plotext as plt

    plt.clf()
    n = len(rows)
    plt.plotsize(max(40, width), 2 * n + 5)
    plt.theme("clear")
    ys = list(range(n, 0, -1))
    for (_, v, lo, hi), y in zip(rows, ys, strict=True):
        plt.plot([lo, hi], [y, y], marker="─", color="blue")
        plt.scatter([lo, hi], [y, y], marker="│", color="blue")
        plt.scatter([v], [y], marker="●", color="red")
    plt.yticks(ys, [r[0][:24] for r in rows])
    plt.ylim(0.5, n + 0.5)
    if xlim is None:
        lo_all = min([r[2] for r in rows] + ([ref] if ref is not None else []))
        hi_all = max([r[3] for r in rows] + ([ref] if ref is not None else []))
        pad = (hi_all - lo_all) * 0.05 or 1.0
        xlim = (lo_all - pad, hi_all + pad)
    plt.xlim(*xlim)
    if ref is not None:
        plt.vline(ref, "gray")
    plt.title(title)
    out: str = plt.build()
    plt.clf()
    return out if color else plt.uncolorize(out)


def report_plots(report: dict[str, Any], width: int = 100, color: bool = True) -> list[str]:
    """The report's plots: win rate against the field (50% marked) and the ratings (0 marked), both with
    their 95% intervals."""
    if not report["pairs"]:
        return []
    rates = field_rates(report)
    win = interval_plot("Win rate vs the field (draws ½), Wilson 95% interval",
                        [(r["name"], 100 * r["win_rate"], 100 * r["ci95"][0], 100 * r["ci95"][1]) for r in rates],
                        width, ref=50.0, xlim=(0.0, 100.0), color=color)
    ratings = sorted(report["ratings"], key=lambda r: (-r["rating"], r["name"]))
    rat = interval_plot("Ratings (Bradley–Terry, Elo scale, mean 0), 95% interval",
                        [(r["name"], float(r["rating"]), float(r["ci95"][0]), float(r["ci95"][1])) for r in ratings],
                        width, ref=0.0, color=color)
    return [win, rat]


# ---------------------------------------------------------------- the command


def resolve_decks(names: Iterable[str], all_decks: bool) -> list[tuple[str, str]]:
    from engine import CardFileError, bundled_deck_paths, find_deck, load_card_db, load_deck

    paths: list[Path] = []
    if all_decks:
        paths += list(bundled_deck_paths())
    for n in names:
        try:
            paths.append(Path(find_deck(n)))
        except FileNotFoundError as err:
            raise SimulateError(str(err)) from err
    if not paths:
        raise SimulateError("name at least two decks (files or bundled names), or use --all")
    db = load_card_db()
    out = []
    for p in paths:
        try:
            load_deck(p, db, playtest=True)
        except CardFileError as err:
            raise SimulateError(str(err)) from err
        out.append((p.stem, str(p.resolve())))
    return out


def make_backend(backend: str, workers: int, address: str | None) -> Backend:
    if backend == "local":
        return LocalBackend(workers)
    if backend == "ray":
        return RayBackend(address)
    raise SimulateError(f"unknown backend '{backend}': use local or ray")


def simulate(
    decks: Annotated[list[str] | None, typer.Argument(help="Decks (files or bundled names)")] = None,
    all_decks: Annotated[bool, typer.Option("--all", help="Every bundled deck")] = False,
    agent: Annotated[str, typer.Option(help="Agent of deck A: random, greedy, search[:LEVEL]")] = "greedy",
    opponent: Annotated[str | None, typer.Option(help="Agent of deck B (default: the same as --agent)")] = None,
    matches: Annotated[int, typer.Option(help="Matches per pair (seats alternate)")] = 20,
    workers: Annotated[int, typer.Option(help="Worker processes (default: all cores)")] = 0,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (ray backend)")] = None,
    seed: Annotated[int, typer.Option(help="Base seed: same seed, same results")] = 1,
    max_turns: Annotated[int, typer.Option(help="A match still running after this many turns is a draw")]
    = DEFAULT_MAX_TURNS,
    compensation: Annotated[str | None, typer.Option(
        help="The second player's compensation (RULES Second player): none, card, influence, capacity, coin or card+coin "
             "(default: the rules' default)")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the full report as JSON")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write pairs (and FILE.cards.csv) as CSV")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar or tables")] = False,
    plots: Annotated[bool, typer.Option(help="Terminal plots: win rate against the field and ratings, with "
                                             "their 95% intervals")] = True,
) -> None:
    """Simulate matches between decks and agents: win-rate matrix, ratings, per-card statistics."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from engine.ai import make_agent

    console = Console(stderr=False)
    try:
        for a in (agent, opponent or agent):
            try:
                make_agent(a)
            except ValueError as err:
                raise SimulateError(str(err)) from err
        if matches < 1:
            raise SimulateError("--matches must be at least 1")
        if max_turns < 1:
            raise SimulateError("--max-turns must be at least 1")
        from engine import MatchOptions

        try:
            compensation = MatchOptions(compensation=compensation or MatchOptions().compensation).compensation
        except ValueError as err:
            raise SimulateError(f"--compensation: {err}") from err
        deck_list = resolve_decks(decks or [], all_decks)
        if len(deck_list) < 2 and (opponent or agent) == agent:
            raise SimulateError("name at least two decks (or one deck with a different --opponent)")
        pairs, jobs = plan(deck_list, agent, opponent or agent, matches, seed, max_turns, compensation)
        be = make_backend(backend, workers or (os.cpu_count() or 1), address)
        t0 = time.perf_counter()
        if quiet:
            report = run(pairs, jobs, be)
        else:
            with Progress(TextColumn("[bold]simulate[/bold]"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console) as prog:
                task = prog.add_task("matches", total=len(jobs))
                report = run(pairs, jobs, be, lambda r: prog.advance(task))
        elapsed = time.perf_counter() - t0
    except SimulateError as err:
        typer.echo(f"simulate: {err}", err=True)
        raise typer.Exit(2) from err
    report["run"] = {"seed": seed, "agent": agent, "opponent": opponent or agent, "matches_per_pair": matches,
                     "backend": be.name, "workers": getattr(be, "workers", None), "seconds": round(elapsed, 2),
                     "max_turns": max_turns, "compensation": compensation}
    if not quiet:
        print_report(report, console)
        if plots:
            from rich.text import Text

            try:
                charts = report_plots(report, min(console.width, 120), color=console.is_terminal)
            except ImportError:       # an environment installed before plotext was a dependency
                charts = []
                console.print("(no plots: plotext is not installed — pip install -e . installs it)")
            for chart in charts:
                console.print(Text.from_ansi(chart))
        console.print(f"{len(jobs)} matches in {elapsed:.1f} s ({be.name}, "
                      f"{getattr(be, 'workers', '-')} workers)")
    try:
        if json_out:
            json_out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
        if csv_out:
            write_csv(report, csv_out)
    except OSError as err:
        typer.echo(f"simulate: can't write: {err}", err=True)
        raise typer.Exit(2) from err
    if report["errors"]:
        raise typer.Exit(1)


__all__ = ["Backend", "InlineBackend", "Job", "JobResult", "LocalBackend", "RayBackend", "asdict", "bradley_terry",
           "field_rates", "interval_plot", "plan", "report_plots", "run", "run_job", "simulate", "summarize",
           "wilson"]
