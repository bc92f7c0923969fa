"""`c1k simulate`: deck against deck, agent against agent, many matches — on a process pool or Ray.

A deck is what it contains: two lists with the same file name are two rows (labelled by path), and a
pair's seeds come from its decks' contents and agents (a digest of each list), never from where they
were named — so listing the decks in another order, or adding one, changes no pair's matches. Every
match is a job named by (pair, index) with its own StateSeed derived from `--seed` and the pair; a
worker plays it and returns a small result. Results are gathered by job index, never in arrival
order, so the same seeds give the same results whatever the number of workers or the backend. The
report lists every match (seed, seats, agents, winner, turns, how it ended): `c1k replay REPORT
--match N` plays one again from its seed and agents.

`--compare OLD NEW` plays both lists against the same field on the same seeds and seats, and reports
the difference of their win rates with a paired 95% interval, and the cards whose statistics moved.

Win rates count a draw as half a win; their 95% intervals are Wilson score intervals. Ratings are a
Bradley–Terry fit (on the Elo scale: 400·log10 of the strength, mean 0) with standard errors from the
Fisher information; every pair of entries gets one virtual draw so that a perfect record stays finite.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, NamedTuple, Protocol

import typer

DEFAULT_MAX_TURNS = 200
Z95 = 1.959963984540054
#: the card statistics' sort keys (`--sort`): report field, and whether larger is first
CARD_SORTS: dict[str, tuple[str, bool]] = {
    "iwd": ("iwd", True), "drawn": ("drawn", True), "played": ("played", True), "opening": ("opening", True),
    "win-drawn": ("win_rate_drawn", True), "win-played": ("win_rate_played", True),
    "win-opening": ("win_rate_opening", True), "win-not-drawn": ("win_rate_not_drawn", True),
    "name": ("name", False),
}


# ---------------------------------------------------------------- jobs


def _complete_decks(incomplete: str) -> list[str]:
    from c1k_tui.cli.completion import decks

    return decks(incomplete)


def _complete_agents(incomplete: str) -> list[str]:
    from c1k_tui.cli.completion import agents

    return agents(incomplete)



@dataclass(frozen=True)
class Job:
    index: int           # position in the whole run
    pair: int
    k: int               # match number within the pair
    deck_a: str          # the decks' contents (JSON of name, champion, seat, cards), never a path
    deck_b: str
    agent_a: str
    agent_b: str
    seed: int
    a_first: bool        # deck A sits in p1 (seats alternate within a pair)
    max_turns: int
    cards: tuple[str, ...] = ()   # own card files (--cards and the decks' card_files), besides the bundled set
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
    opening_a: list[str] = field(default_factory=list)   # card ids of the opening hand
    opening_b: list[str] = field(default_factory=list)


_CACHE: dict[str, Any] = {}


def _card_db(cards: Sequence[str] = ()) -> Any:
    """The bundled set plus these own card files (cached per process; `_CACHE["db"]`: the last one)."""
    from engine.cardset import load_cards

    key = "db:" + "\n".join(cards)
    if key not in _CACHE:
        _CACHE[key] = load_cards([Path(c) for c in cards])
    _CACHE["db"] = _CACHE[key]
    return _CACHE[key]


def _load(path: str, cards: Sequence[str] = ()) -> Any:
    from engine import load_deck

    db = _card_db(cards)
    key = "deck:" + path + "\n" + "\n".join(cards)
    if key not in _CACHE:
        _CACHE[key] = load_deck(Path(path), db, playtest=True)
    return _CACHE[key]


def start_job(job: Job) -> tuple[Any, tuple[Any, Any]]:
    """The job's match before its first action, and its agents by seat (p1, p2)."""
    from engine import Game, MatchOptions, derive_seed
    from engine.ai import make_agent

    deck_a, deck_b = _load(job.deck_a, job.cards), _load(job.deck_b, job.cards)
    first, second = (deck_a, deck_b) if job.a_first else (deck_b, deck_a)
    options = MatchOptions(max_turns=job.max_turns)
    if job.compensation is not None:
        options = MatchOptions(max_turns=job.max_turns, compensation=job.compensation)
    game = Game.new(_card_db(job.cards), first, second, job.seed, options)
    ag_a = make_agent(job.agent_a, derive_seed(job.seed, 1))
    ag_b = make_agent(job.agent_b, derive_seed(job.seed, 2))
    return game, ((ag_a, ag_b) if job.a_first else (ag_b, ag_a))


def run_job(job: Job) -> JobResult:
    """Play one match (in a worker). Pure: the result depends only on the job."""
    from engine.ai import play_match

    game, agents = start_job(job)
    seat_a = 0 if job.a_first else 1
    from engine import observe

    db = _card_db(job.cards)          # the opening hands, as each player sees their own (the public face)
    opening = [sorted(db.lookup(h.name).id for h in observe(game, p).hand) for p in (0, 1)]
    try:
        r = play_match(game, agents)
    except Exception as err:  # a rules error in one match is reported, not a crash of the whole run
        return JobResult(job.index, "draw", "error", game.turn, 0, job.a_first, error=f"{type(err).__name__}: {err}")
    if r.winner is None:
        w = "draw"
    else:
        w = "a" if r.winner == seat_a else "b"
    return JobResult(job.index, w, r.termination, r.turns, r.actions, job.a_first,
                     list(r.drawn[seat_a]), list(r.drawn[1 - seat_a]),
                     list(r.played[seat_a]), list(r.played[1 - seat_a]), "",
                     opening[seat_a], opening[1 - seat_a])


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


#: seconds to reach a Ray cluster before giving up with a message (docs/cluster.md); a port that refuses
#: or doesn't route fails at once (a 10 s probe); $C1K_RAY_CONNECT_TIMEOUT sets another bound
RAY_CONNECT_TIMEOUT = 30.0


def _connect_timeout() -> float:
    try:
        return max(1.0, float(os.environ.get("C1K_RAY_CONNECT_TIMEOUT", RAY_CONNECT_TIMEOUT)))
    except ValueError:
        return RAY_CONNECT_TIMEOUT


def ray_endpoint(address: str) -> tuple[str, int] | None:
    """(host, port) to try before connecting: `ray://HOST[:10001]` (Ray Client) or `HOST[:6379]` (a node
    of the cluster); None for `auto` / `local`."""
    if address in ("auto", "local"):
        return None
    client = address.startswith("ray://")
    rest = address.removeprefix("ray://").rstrip("/")
    if rest.startswith("["):                       # [IPv6]:port
        host, _, tail = rest[1:].partition("]")
        port = tail.removeprefix(":")
    elif rest.count(":") == 1:
        host, _, port = rest.partition(":")
    else:
        host, port = rest, ""
    host = host or "127.0.0.1"
    if port and not port.isdigit():
        raise SimulateError(f"--address {address}: the port must be a number (e.g. ray://HOST:10001)")
    return host, int(port) if port else (10001 if client else 6379)


def ray_connect(ray: Any, address: str | None, timeout: float | None = None) -> None:
    """ray.init, bounded: an address that doesn't answer is a message within `timeout` seconds, not a hang."""
    import socket
    import threading

    if ray.is_initialized():
        return
    timeout = timeout if timeout is not None else _connect_timeout()
    if address:
        end = ray_endpoint(address)
        if end is not None:
            try:
                socket.create_connection(end, timeout=min(10.0, timeout)).close()
            except OSError as err:
                raise SimulateError(
                    f"can't reach Ray at {address} ({err.strerror or err}): is the head running, and is "
                    f"port {end[1]} open to this machine? From outside the cluster use ray://HEAD:10001 "
                    f"(Ray Client; see docs/cluster.md)") from err
    failure: list[BaseException] = []

    deadline = time.monotonic() + timeout

    def init() -> None:
        while True:
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
                return
            except ConnectionError as err:   # Ray Client gave up its own attempts: again, while time is left
                if not (address or "").startswith("ray://") or time.monotonic() + 1 >= deadline:
                    failure.append(err)
                    return
                time.sleep(1)
            except Exception as err:  # shown as a message below
                failure.append(err)
                return

    if not (address or "").startswith("ray://"):
        # a local Ray, or a node of the cluster: ray.init must run in the main thread (it installs signal
        # handlers); the probe above already failed fast on an address that doesn't answer
        init()
    else:
        t = threading.Thread(target=init, name="ray-connect", daemon=True)
        t.start()
        t.join(timeout)
        if t.is_alive():
            raise SimulateError(f"Ray at {address} did not answer within {timeout:.0f} s "
                                f"(a busy cluster may need more: C1K_RAY_CONNECT_TIMEOUT=SECONDS)")
    if failure:
        problem = failure[0]
        said = str(problem).splitlines()[0] if str(problem) else ""
        hint = " (Ray Client needs pip install 'c1k[cluster]')" if "client" in said.lower() else ""
        raise SimulateError(f"can't connect to Ray at {address or 'a new local cluster'}: "
                            f"{type(problem).__name__}: {said}{hint}") from problem


def ship(jobs: Sequence[Job]) -> dict[str, str]:
    """The files the jobs name — both decks and the own card files (a folder: its `*.toml` files) — by
    path, with their contents: what goes to a cluster, whose nodes don't have the driver's files."""
    files: dict[str, str] = {}
    for j in jobs:
        for name in (j.deck_a, j.deck_b, *j.cards):
            p = Path(name)
            for f in (sorted(p.rglob("*.toml")) if p.is_dir() else [p]):
                if str(f) not in files:
                    files[str(f)] = f.read_text(encoding="utf-8")
    return files


def land(job: Job, files: dict[str, str]) -> Job:
    """The job on a node: the shipped files written once to a folder of this process (by their digest),
    and the job's paths pointing there."""
    import tempfile

    digest = hashlib.sha256(json.dumps(sorted(files.items())).encode()).hexdigest()[:16]
    key = "landed:" + digest
    if key not in _CACHE:
        root = Path(tempfile.mkdtemp(prefix=f"c1k-jobs-{digest}-"))
        where: dict[str, str] = {}
        for i, (name, text) in enumerate(sorted(files.items())):
            target = root / str(i) / Path(name).name
            target.parent.mkdir(parents=True)
            target.write_text(text, encoding="utf-8")
            where[name] = str(target)
        _CACHE[key] = where
    where = _CACHE[key]

    def moved(name: str) -> str:
        p = Path(name)
        if name in where:
            return where[name]
        if p.suffix != ".toml":          # a folder of card files: the folder its files landed in
            inside = [w for n, w in where.items() if Path(n).parent == p or p in Path(n).parents]
            if inside:
                return str(Path(inside[0]).parent.parent)
        return name

    return dataclasses.replace(job, deck_a=moved(job.deck_a), deck_b=moved(job.deck_b),
                               cards=tuple(moved(c) for c in job.cards))


def run_shipped(job: Job, files: dict[str, str]) -> JobResult:
    """run_job on a node of a cluster, from the files that came with the jobs."""
    return run_job(land(job, files))


@dataclass
class RayBackend:
    """The same jobs as Ray tasks (`pip install 'c1k[cluster]'`); `address` None starts a local Ray,
    `ray://HOST:10001` connects through Ray Client from outside the cluster. The files the jobs name
    (decks, own card files) go to the cluster once, as an object, and each node writes them to a folder
    of its own: the nodes need c1k installed, not the driver's files."""

    address: str | None = None
    name: str = "ray"

    def run(self, jobs: Sequence[Job], done: Callable[[JobResult], None]) -> None:
        try:
            import ray
        except ImportError as err:
            raise SimulateError("the ray backend needs Ray: pip install 'c1k[cluster]'") from err
        ray_connect(ray, self.address)
        files = ray.put(ship(jobs))
        remote: Any = ray.remote(run_shipped)
        pending = [remote.remote(j, files) for j in jobs]
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


def diff_interval(s1: float, n1: int, s2: float, n2: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of p1 − p2 for two independent proportions: Newcombe's hybrid score interval (from the
    two Wilson intervals; it stays inside [−1, 1] and behaves at 0% and 100%)."""
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    return (max(-1.0, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)),
            min(1.0, d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)))


def paired_interval(diffs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) of paired differences (each match of one list against the same match of the
    other: same seed, opponent and seats), a normal interval on the mean."""
    n = len(diffs)
    if n == 0:
        return (0.0, -1.0, 1.0)
    mean = sum(diffs) / n
    if n == 1:
        return (mean, -1.0, 1.0)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, max(-1.0, mean - half), min(1.0, mean + half))


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


class DeckRef(NamedTuple):
    """A deck as the run knows it: its label (file stem; its path when two stems are the same), file, the
    digest of its list (what it contains: Champion, Seat, cards) and the list itself."""

    label: str
    path: str
    digest: str = ""
    cards: tuple[tuple[str, int], ...] = ()      # the library, in file order: (card id, copies)
    champion: str = ""
    seat: str = ""
    name: str = ""


def deck_digest(champion: str, seat: str, counts: Iterable[tuple[str, int]]) -> str:
    """A deck's identity: the digest of its list, whatever its file is called or where it is."""
    text = json.dumps({"champion": champion, "seat": seat, "cards": sorted(counts)}, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Entry:
    deck: str            # the deck's label
    path: str
    agent: str
    digest: str = ""     # of the deck's list (DeckRef.digest)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.deck} ({self.agent})"

    @property
    def identity(self) -> str:
        return f"{self.digest or self.path}/{self.agent}"


def _entry(d: tuple[str, str] | DeckRef, agent: str) -> Entry:
    if isinstance(d, DeckRef):
        return Entry(d.label, d.path, agent, d.digest, dict(d.cards))
    return Entry(d[0], d[1], agent)


def _key(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)


def pair_seed(seed: int, ea: Entry, eb: Entry) -> tuple[int, bool]:
    """The seed of a pair's series, from the two entries' identities (never their order or position),
    and whether `ea` is the entry that sits first in the pair's even matches."""
    from engine import derive_seed

    ia, ib = ea.identity, eb.identity
    a_canon = (ia, ea.deck) <= (ib, eb.deck)
    lo, hi = (ia, ib) if a_canon else (ib, ia)
    return derive_seed(seed, _key(f"pair|{lo}|{hi}")), a_canon


def plan(decks: Sequence[tuple[str, str] | DeckRef], agent: str, opponent: str, matches: int, seed: int,
         max_turns: int = DEFAULT_MAX_TURNS,
         cards: Sequence[str] = (), compensation: str | None = None) -> tuple[list[tuple[Entry, Entry]], list[Job]]:
    """The pairs and jobs. Same agent on both sides: each unordered pair of decks once. Different
    agents: every (deck with `agent`, deck with `opponent`) pair, mirrors included. Decks are taken in
    label order and each pair's seeds come from its identity (pair_seed), so the order they are given in
    changes nothing."""
    from engine import derive_seed

    ordered = sorted(decks, key=lambda d: (d[0], d[1]))
    if agent == opponent:
        pairs = [(_entry(a, agent), _entry(b, agent)) for i, a in enumerate(ordered) for b in ordered[i + 1:]]
        if len(ordered) == 1:
            pairs = [(_entry(ordered[0], agent), _entry(ordered[0], agent))]
    else:
        pairs = [(_entry(a, agent), _entry(b, opponent)) for a in ordered for b in ordered]
    jobs: list[Job] = []
    for pi, (ea, eb) in enumerate(pairs):
        ps, a_canon = pair_seed(seed, ea, eb)
        for k in range(matches):
            jobs.append(Job(len(jobs), pi, k, ea.path, eb.path, ea.agent, eb.agent, derive_seed(ps, k),
                            (k % 2 == 0) == a_canon, max_turns, tuple(cards), compensation))
    return pairs, jobs


def plan_compare(old: DeckRef, new: DeckRef, field_decks: Sequence[DeckRef], agent: str, opponent: str,
                 matches: int, seed: int, max_turns: int = DEFAULT_MAX_TURNS,
                 cards: Sequence[str] = ()) -> tuple[list[tuple[Entry, Entry]], list[Job]]:
    """OLD and NEW each against every deck of the field, on the same seeds and seats: match k against
    deck F has the same seed for both (from F's identity, the agents and k), and the candidate sits first
    in the even matches. Pairs: OLD's first (in field order), then NEW's."""
    from engine import derive_seed

    ordered = sorted(field_decks, key=lambda d: (d.label, d.path))
    pairs = [(_entry(x, agent), _entry(f, opponent)) for x in (old, new) for f in ordered]
    jobs: list[Job] = []
    for pi, (ex, ef) in enumerate(pairs):
        ps = derive_seed(seed, _key(f"compare|{ef.identity}|{ex.agent}"))
        for k in range(matches):
            jobs.append(Job(len(jobs), pi, k, ex.path, ef.path, ex.agent, ef.agent, derive_seed(ps, k),
                            k % 2 == 0, max_turns, tuple(cards)))
    return pairs, jobs


def _rate(points: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(points, n)
    return {"n": n, "win_rate": round(points / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)]}


def card_stats(pairs: Sequence[tuple[Entry, Entry]], jobs: Sequence[Job], results: dict[int, JobResult],
               names: dict[str, str]) -> list[dict[str, Any]]:
    """Per (deck, agent, card of its list or seen in its matches): how often it was in the opening hand,
    drawn (seen in hand, the opening hand included), played — each with the deck's win rate then and a
    Wilson 95% interval — and the win rate when not drawn, and their difference (IWD, improvement when
    drawn) with Newcombe's 95% interval. Draws count ½."""
    acc: dict[tuple[str, str], dict[str, Any]] = {}
    for j in jobs:
        r = results[j.index]
        ea, eb = pairs[j.pair]
        for e, side, opening, drawn, played in ((ea, "a", r.opening_a, r.drawn_a, r.played_a),
                                                (eb, "b", r.opening_b, r.drawn_b, r.played_b)):
            if ea is eb and side == "b":
                continue                  # a deck against itself: its statistics once, from side a
            key = (e.deck, e.agent)
            st = acc.setdefault(key, {"matches": 0, "points": 0.0, "counts": e.counts, "cards": {}})
            pts = 1.0 if r.winner == side else (0.5 if r.winner == "draw" else 0.0)
            st["matches"] += 1
            st["points"] += pts
            seen = set(drawn) | set(opening)
            for cid in set(e.counts) | seen | set(played):
                c = st["cards"].setdefault(cid, [0, 0.0, 0, 0.0, 0, 0.0, 0])  # oh, pts, drawn, pts, played, pts, plays
                if cid in opening:
                    c[0] += 1
                    c[1] += pts
                if cid in seen:
                    c[2] += 1
                    c[3] += pts
                if cid in played:
                    c[4] += 1
                    c[5] += pts
                    c[6] += played.count(cid)
    rows: list[dict[str, Any]] = []
    for (deck, agent), st in sorted(acc.items()):
        m, total = st["matches"], st["points"]
        for cid, (oh, p_oh, dr, p_dr, pl, p_pl, plays) in sorted(st["cards"].items()):
            nd, p_nd = m - dr, total - p_dr
            o, d, nd_r, p = _rate(p_oh, oh), _rate(p_dr, dr), _rate(p_nd, nd), _rate(p_pl, pl)
            iwd = round(p_dr / dr - p_nd / nd, 4) if dr and nd else None
            ilo, ihi = diff_interval(p_dr, dr, p_nd, nd)
            rows.append({
                "deck": deck, "agent": agent, "card": cid, "name": names.get(cid, cid),
                "copies": st["counts"].get(cid, 0), "matches": m,
                "opening": oh, "opening_pct": round(100 * oh / m, 1) if m else 0.0,
                "win_rate_opening": o["win_rate"], "ci95_opening": o["ci95"],
                "drawn": dr, "drawn_pct": round(100 * dr / m, 1) if m else 0.0,
                "win_rate_drawn": d["win_rate"], "ci95_drawn": d["ci95"],
                "not_drawn": nd, "win_rate_not_drawn": nd_r["win_rate"], "ci95_not_drawn": nd_r["ci95"],
                "iwd": iwd, "ci95_iwd": [round(ilo, 4), round(ihi, 4)] if iwd is not None else [-1.0, 1.0],
                "played": pl, "played_pct": round(100 * pl / m, 1) if m else 0.0, "plays": plays,
                "win_rate_played": p["win_rate"], "ci95_played": p["ci95"],
            })
    return rows


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
            "path_a": ea.path, "path_b": eb.path,
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
    db = _card_db(jobs[0].cards if jobs else ())
    names = {cid: c.name for cid, c in db.by_id.items()}
    match_rows = []
    for j in jobs:
        r = results[j.index]
        ea, eb = pairs[j.pair]
        first, second = (ea, eb) if r.a_first else (eb, ea)
        winner = {"a": ea.deck, "b": eb.deck}.get(r.winner, "")
        seat = "" if r.winner == "draw" else ("p1" if (r.winner == "a") == r.a_first else "p2")
        match_rows.append({"match": j.index, "pair": j.pair, "k": j.k, "seed": str(j.seed), "a_first": r.a_first,
                           "deck_a": ea.deck, "deck_b": eb.deck, "agent_a": ea.agent, "agent_b": eb.agent,
                           "p1": first.deck, "p2": second.deck, "agent_p1": first.agent, "agent_p2": second.agent,
                           "winner": r.winner, "winner_deck": winner, "winner_seat": seat,
                           "turns": r.turns, "actions": r.actions, "termination": r.termination,
                           "error": r.error})
    fl, fh = wilson(first_wins, decided)
    return {
        "pairs": per_pair,
        "ratings": ratings,
        "cards": card_stats(pairs, jobs, results, names),
        "games": match_rows,
        "first_player": {"matches": decided, "win_rate": round(first_wins / decided, 4) if decided else 0.0,
                         "ci95": [round(fl, 4), round(fh, 4)]},
        "avg_turns": round(turns_total / max(1, len(jobs)), 2),
        "matches": len(jobs),
        "errors": errors,
    }


def compare_section(report: dict[str, Any], old: str, new: str, agent: str, moved: int = 8) -> dict[str, Any]:
    """NEW against OLD from a --compare run's report: each one's win rate against the field (Wilson), the
    difference NEW − OLD with a paired 95% interval (match k against deck F has the same seed and seats
    for both), per field deck, and the cards whose statistics moved most."""
    score: dict[tuple[str, str, int], float] = {}
    for g in report["games"]:
        pts = 1.0 if g["winner"] == "a" else (0.5 if g["winner"] == "draw" else 0.0)
        score[(g["deck_a"], g["deck_b"], g["k"])] = pts
    field_decks = sorted({d for (x, d, _) in score if x == old})
    out_field = []
    diffs: list[float] = []
    totals = {old: [0.0, 0], new: [0.0, 0]}
    for f in field_decks:
        ks = sorted(k for (x, d, k) in score if x == old and d == f and (new, f, k) in score)
        ds = [score[(new, f, k)] - score[(old, f, k)] for k in ks]
        diffs += ds
        so = sum(score[(old, f, k)] for k in ks)
        sn = sum(score[(new, f, k)] for k in ks)
        totals[old][0] += so
        totals[old][1] += len(ks)
        totals[new][0] += sn
        totals[new][1] += len(ks)
        mean, lo, hi = paired_interval(ds)
        out_field.append({"deck": f, "matches": len(ks), "old": _rate(so, len(ks)), "new": _rate(sn, len(ks)),
                          "diff": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]})
    mean, lo, hi = paired_interval(diffs)
    uo, un = totals[old], totals[new]
    ulo, uhi = diff_interval(un[0], int(un[1]), uo[0], int(uo[1]))
    by_card: dict[str, dict[str, dict[str, Any]]] = {old: {}, new: {}}
    for c in report["cards"]:
        if c["agent"] == agent and c["deck"] in by_card:
            by_card[c["deck"]][c["card"]] = c
    rows = []
    for cid in sorted(set(by_card[old]) | set(by_card[new])):
        a, b = by_card[old].get(cid), by_card[new].get(cid)
        if a is not None and b is not None and not a["copies"] and not b["copies"]:
            continue                    # a token or a card of the opponent's, in neither list
        name = (a or b or {}).get("name", cid)
        def val(c: dict[str, Any] | None, k: str) -> Any:
            return None if c is None else c.get(k)
        d_wr = (b["win_rate_drawn"] - a["win_rate_drawn"]
                if a is not None and b is not None and a["win_rate_drawn"] is not None
                and b["win_rate_drawn"] is not None else None)
        d_iwd = (b["iwd"] - a["iwd"] if a is not None and b is not None and a["iwd"] is not None
                 and b["iwd"] is not None else None)
        copies = (val(a, "copies") or 0, val(b, "copies") or 0)
        rows.append({"card": cid, "name": name, "copies_old": copies[0], "copies_new": copies[1],
                     "drawn_old": val(a, "drawn"), "drawn_new": val(b, "drawn"),
                     "played_pct_old": val(a, "played_pct"), "played_pct_new": val(b, "played_pct"),
                     "win_rate_drawn_old": val(a, "win_rate_drawn"), "win_rate_drawn_new": val(b, "win_rate_drawn"),
                     "iwd_old": val(a, "iwd"), "iwd_new": val(b, "iwd"),
                     "diff_win_rate_drawn": None if d_wr is None else round(d_wr, 4),
                     "diff_iwd": None if d_iwd is None else round(d_iwd, 4),
                     "changed": copies[0] != copies[1]})
    rows.sort(key=lambda r: (not r["changed"], -abs(r["diff_win_rate_drawn"] or 0.0), r["card"]))
    return {"old": old, "new": new, "agent": agent, "field": field_decks, "paired_matches": len(diffs),
            "old_vs_field": _rate(uo[0], int(uo[1])), "new_vs_field": _rate(un[0], int(un[1])),
            "diff": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "ci95_unpaired": [round(ulo, 4), round(uhi, 4)],
            "per_field": out_field, "cards_moved": rows[:moved], "cards_all": rows}


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


CARD_CSV = ["deck", "agent", "card", "name", "copies", "matches", "opening", "opening_pct", "win_rate_opening",
            "ci95_opening", "drawn", "drawn_pct", "win_rate_drawn", "ci95_drawn", "not_drawn", "win_rate_not_drawn",
            "ci95_not_drawn", "iwd", "ci95_iwd", "played", "played_pct", "plays", "win_rate_played", "ci95_played"]
MATCH_CSV = ["match", "pair", "k", "seed", "deck_a", "deck_b", "agent_a", "agent_b", "p1", "p2", "agent_p1",
             "agent_p2", "winner", "winner_deck", "winner_seat", "turns", "actions", "termination", "error"]


def _csv_row(row: dict[str, Any], keys: Sequence[str]) -> list[Any]:
    out: list[Any] = []
    for k in keys:
        v = row.get(k)
        if k.startswith("ci95"):
            out += ["", ""] if v is None else list(v)
        else:
            out.append("" if v is None else v)
    return out


def _csv_head(keys: Sequence[str]) -> list[str]:
    out: list[str] = []
    for k in keys:
        out += [f"{k}_low", f"{k}_high"] if k.startswith("ci95") else [k]
    return out


def write_csv(report: dict[str, Any], path: Path, force: bool = False) -> list[Path]:
    """Pairs to `path`, cards to `<stem>.cards.csv` and matches to `<stem>.matches.csv` next to it."""
    keys = ["deck_a", "deck_b", "agent_a", "agent_b", "matches", "wins_a", "wins_b", "draws", "win_rate_a",
            "ci95_low", "ci95_high", "avg_turns", "path_a", "path_b"]
    from engine.safeio import atomic_text  # the one write policy (atomic, never a device, FIFO, link…)

    with atomic_text(path, "csv", force) as f:
        w = csv.writer(f)
        w.writerow(keys)
        for p in report["pairs"]:
            w.writerow([p[k] for k in keys[:9]] + [p["ci95_a"][0], p["ci95_a"][1], p["avg_turns"],
                                                   p.get("path_a", ""), p.get("path_b", "")])
    written = [path]
    for suffix, rows, ks in ((".cards.csv", report["cards"], CARD_CSV), (".matches.csv", report.get("games", []),
                                                                         MATCH_CSV)):
        p2 = path.with_name(path.stem + suffix)
        with atomic_text(p2, "csv", force) as f:
            w = csv.writer(f)
            w.writerow(_csv_head(ks))
            for row in rows:
                w.writerow(_csv_row(row, ks))
        written.append(p2)
    return written


def sorted_cards(cards: Sequence[dict[str, Any]], sort: str = "iwd") -> list[dict[str, Any]]:
    """Card rows by a CARD_SORTS key (rows without a value last), then deck and card."""
    key, desc = CARD_SORTS[sort]
    have = [c for c in cards if c.get(key) is not None]
    none = [c for c in cards if c.get(key) is None]
    have.sort(key=lambda c: (c["deck"], c["agent"], c["card"]))
    have.sort(key=lambda c: c[key], reverse=desc)
    return have + sorted(none, key=lambda c: (c["deck"], c["agent"], c["card"]))


def _pct(rate: float | None, ci: Sequence[float] | None = None) -> str:
    if rate is None:
        return "–"
    return f"{100 * rate:.0f}" + (f" {100 * ci[0]:.0f}–{100 * ci[1]:.0f}" if ci is not None else "")


def _points(x: float) -> str:
    return f"{round(100 * x) + 0:+d}"        # (+ 0: never "-0")


def _signed(d: float | None, ci: Sequence[float] | None = None) -> str:
    if d is None:
        return "–"
    return _points(d) + (f" {_points(ci[0])}…{_points(ci[1])}" if ci is not None else "")


def card_table(report: dict[str, Any], top: int | None = None, sort: str = "iwd", width: int = 120) -> Any:
    """The card statistics as a table: every card (or the first `top` by `sort`), each rate in % with its n
    and its Wilson 95% interval; IWD = win rate when drawn − when not drawn (points, Newcombe 95% interval).
    Narrower than 124 columns: without the win rates in the opening hand and when played; narrower than 96,
    without the win rate when not drawn either (they are all in the JSON and CSV)."""
    from rich import box
    from rich.table import Table

    rows = sorted_cards(report["cards"], sort)
    agents = {c["agent"] for c in rows}
    decks = {c["deck"] for c in rows}
    wide = width >= 124             # every column
    medium = width >= 96            # and the win rate when not drawn
    shown = rows if top is None else rows[:top]
    what = "every card" if top is None or top >= len(rows) else f"the first {top} of {len(rows)}"
    t = Table(title=f"Cards ({what}, by {sort}) — win rates in % with 95% intervals, draws ½; n = matches; "
                    "hand₀ = in the opening hand; drawn includes it; IWD = win drawn − win not drawn",
              title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    heads = ["deck"] if len(decks) > 1 or len(agents) > 1 else []
    narrow = width < 76             # a small panel: without the opening hand's count too
    heads += ["card", "n"] + ([] if narrow else ["hand₀"]) + (["win hand₀"] if wide else []) + ["drawn", "win drawn"]
    heads += (["win not drawn"] if medium else []) + ["IWD", "played"]
    heads += ["win played"] if wide else []
    for head in heads:
        t.add_column(head, justify="left" if head in ("deck", "card") else "right", no_wrap=True,
                     overflow="ellipsis", max_width={"deck": 18 if wide else 12 - 2 * narrow, "card": 22 if wide else 16 - 2 * narrow}.get(head),
                     min_width=6 if head in ("deck", "card") else (12 if head == "IWD" else
                                                                  10 if head.startswith("win") else len(head)))
    for c in shown:
        cells = [c["deck"] if len(agents) == 1 else f"{c['deck']} ({c['agent']})"] if heads[0] == "deck" else []
        cells += [c["name"], str(c["matches"])] + ([] if narrow else [str(c["opening"])])
        if wide:
            cells.append(_pct(c["win_rate_opening"], c["ci95_opening"] if c["opening"] else None))
        cells += [str(c["drawn"]), _pct(c["win_rate_drawn"], c["ci95_drawn"] if c["drawn"] else None)]
        if medium:
            cells.append(_pct(c["win_rate_not_drawn"], c["ci95_not_drawn"] if c["not_drawn"] else None))
        cells += [_signed(c["iwd"], c["ci95_iwd"] if c["iwd"] is not None else None), str(c["played"])]
        if wide:
            cells.append(_pct(c["win_rate_played"], c["ci95_played"] if c["played"] else None))
        t.add_row(*cells)
    return t


def _pct_text(rate: float | None, ci: Sequence[float]) -> str:
    return "–" if rate is None else f"{100 * rate:.1f}% [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def compare_renderables(cmp: dict[str, Any]) -> list[Any]:
    """The A/B answer: both lists' win rates against the same field, the difference and the cards that moved."""
    from rich.table import Table

    old, new = cmp["old_vs_field"], cmp["new_vs_field"]
    lo, hi = cmp["ci95"]
    if lo > 0:
        verdict = f"[green]{cmp['new']} is better than {cmp['old']}[/green] (the interval is above 0)"
    elif hi < 0:
        verdict = f"[red]{cmp['new']} is worse than {cmp['old']}[/red] (the interval is below 0)"
    else:
        verdict = "no difference shown at 95% (the interval contains 0): play more matches to narrow it"
    out: list[Any] = [
        f"[bold]A/B[/bold] against the same {len(cmp['field'])} decks, same seeds and seats "
        f"({cmp['paired_matches']} matches each, agent {cmp['agent']}):",
        f"  old  {cmp['old']:<28} {_pct_text(old['win_rate'], old['ci95'])}  (n {old['n']})",
        f"  new  {cmp['new']:<28} {_pct_text(new['win_rate'], new['ci95'])}  (n {new['n']})",
        f"  new − old: {100 * cmp['diff']:+.1f} points, 95% interval [{100 * lo:+.1f}, {100 * hi:+.1f}] "
        f"(paired; unpaired [{100 * cmp['ci95_unpaired'][0]:+.1f}, {100 * cmp['ci95_unpaired'][1]:+.1f}])",
        "  " + verdict,
    ]
    t = Table(title="Against each deck of the field (win rate, Wilson 95%; difference, paired 95%)",
              title_justify="left")
    for head in ("field deck", "n", "old", "new", "new − old"):
        t.add_column(head, justify="left" if head == "field deck" else "right")
    for f in cmp["per_field"]:
        same = f["ci95"][0] == f["ci95"][1] == f["diff"]
        t.add_row(f["deck"], str(f["matches"]), _pct(f["old"]["win_rate"], f["old"]["ci95"]),
                  _pct(f["new"]["win_rate"], f["new"]["ci95"]),
                  "+0 (every match alike)" if same else _signed(f["diff"], f["ci95"]))
    out.append(t)
    ct = Table(title="Cards that moved most (changed copies first, then |Δ win rate when drawn|)",
               title_justify="left")
    for head in ("card", "copies", "drawn n", "played %", "win when drawn", "IWD"):
        ct.add_column(head, justify="left" if head == "card" else "right")

    def arrow(a: Any, b: Any, fmt: Callable[[Any], str]) -> str:
        return f"{fmt(a)} → {fmt(b)}"

    for c in cmp["cards_moved"]:
        ct.add_row(c["name"], arrow(c["copies_old"], c["copies_new"], str),
                   arrow(c["drawn_old"], c["drawn_new"], lambda v: "–" if v is None else str(v)),
                   arrow(c["played_pct_old"], c["played_pct_new"], lambda v: "–" if v is None else f"{v:.0f}"),
                   arrow(c["win_rate_drawn_old"], c["win_rate_drawn_new"], _pct),
                   arrow(c["iwd_old"], c["iwd_new"], _signed))
    out.append(ct)
    return out


def print_report(report: dict[str, Any], console: Any, top_cards: int | None = 10, sort: str = "iwd") -> None:
    for part in report_renderables(report, top_cards, sort, console.width):
        console.print(part)


def report_renderables(report: dict[str, Any], top_cards: int | None = 10, sort: str = "iwd",
                       width: int = 120) -> list[Any]:
    """The report as rich renderables (tables and lines): what `c1k simulate` prints and the Lab shows.
    `top_cards`: how many card rows (None: every card; 0: no card table)."""
    from rich.table import Table

    out: list[Any] = []
    if report.get("compare"):
        out += compare_renderables(report["compare"])
        if report["cards"] and top_cards not in (0, None):
            out.append(card_table(report, top_cards, sort, width))
        return out

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
    if report["cards"] and top_cards != 0:
        out.append(card_table(report, top_cards, sort, width))
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


def resolve_decks(names: Iterable[str], all_decks: bool, cards: Sequence[Path] = ()) -> list[DeckRef]:
    """The decks named (files or bundled names) and, with `all_decks`, every bundled deck — each file once,
    in label order. A label is the file's stem, or its path when another deck has the same stem (a bundled
    deck keeps its name). Every deck is loaded (with the bundled cards, `cards` and its own card files)."""
    from engine import CardFileError, bundled_deck_paths, find_deck, load_deck
    from engine.cardset import load_cards

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
    unique: dict[Path, Path] = {}
    for p in paths:
        unique.setdefault(p.resolve(), p)
    bundled = {b.resolve() for b in bundled_deck_paths()}
    try:
        db = load_cards(list(cards), list(unique.values()))
    except CardFileError as err:
        raise SimulateError(str(err)) from err
    stems: dict[str, int] = {}
    for r in unique:
        stems[r.stem] = stems.get(r.stem, 0) + 1
    out = []
    for r, p in unique.items():
        try:
            deck = load_deck(p, db, playtest=True)
        except CardFileError as err:
            raise SimulateError(str(err)) from err
        label = r.stem if stems[r.stem] == 1 or r in bundled else str(p)
        counts = tuple(deck.counts.items())
        out.append(DeckRef(label, str(r), deck_digest(deck.champion.id, deck.seat.id, counts), counts,
                           deck.champion.id, deck.seat.id, deck.name))
    out.sort(key=lambda d: (d.label, d.path))
    return out


def own_card_files(cards: Sequence[Path], decks: Sequence[DeckRef]) -> tuple[str, ...]:
    """The run's own card files (absolute): `--cards` and those the decks name — what every worker loads."""
    from engine.cardset import bundled_cards_dir, card_files_for

    bundled = bundled_cards_dir().resolve()
    files = card_files_for(cards, [Path(d.path) for d in decks])
    return tuple(str(f.resolve()) for f in files if f.resolve().parent != bundled)


def deck_table(decks: Sequence[DeckRef]) -> dict[str, Any]:
    """The report's decks: label → file, digest and list (what `c1k replay REPORT --match N` plays)."""
    return {d.label: {"path": d.path, "digest": d.digest, "name": d.name, "champion": d.champion, "seat": d.seat,
                      "cards": [list(c) for c in d.cards]} for d in decks}


def make_backend(backend: str, workers: int, address: str | None) -> Backend:
    if backend == "local":
        return LocalBackend(workers)
    if backend == "ray":
        return RayBackend(address)
    raise SimulateError(f"unknown backend '{backend}': use local or ray")


def simulate(
    decks: Annotated[list[str] | None, typer.Argument(help="Decks (files or bundled names)",
                                                      autocompletion=_complete_decks)] = None,
    all_decks: Annotated[bool, typer.Option("--all", help="Every bundled deck")] = False,
    agent: Annotated[str, typer.Option(help="Agent of deck A: random, greedy, search[:LEVEL]",
                                       autocompletion=_complete_agents)] = "greedy",
    opponent: Annotated[str | None, typer.Option(help="Agent of deck B (default: the same as --agent)",
                                                 autocompletion=_complete_agents)] = None,
    matches: Annotated[int, typer.Option(help="Matches per pair (seats alternate; 1 to 1,000,000)", min=1,
                                         max=1_000_000)] = 20,
    workers: Annotated[int | None, typer.Option(help="Worker processes, 1 to 1,024 (default: all cores)", min=1,
                                                max=1024)] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (ray backend)")] = None,
    seed: Annotated[int, typer.Option(help="Base seed: same seed, same results (0 to 2^64 - 1)", min=0,
                                      max=2**64 - 1)] = 1,
    max_turns: Annotated[int, typer.Option(help="A match still running after this many turns is a draw "
                                                "(1 to 1,000,000)", min=1, max=1_000_000)]
    = DEFAULT_MAX_TURNS,
    compensation: Annotated[str | None, typer.Option(
        metavar="PARTS", help="The second player's compensation (RULES Second player): none, or card, coin, "
        "influence, capacity joined by + in that order (default: the rules' default, card+coin+influence)")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help="Write the full report as JSON "
                                                  "to FILE, - for stdout instead of the tables (with every match: "
                                                  "`c1k replay FILE --match N` opens one)")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write the pairs to FILE as CSV, and the cards and "
                                                               "matches to <stem>.cards.csv and <stem>.matches.csv "
                                                               "beside it")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar or tables")] = False,
    plots: Annotated[bool, typer.Option(help="Terminal plots: win rate against the field and ratings, with "
                                             "their 95% intervals")] = True,
    cards: Annotated[list[Path] | None, typer.Option("--cards", help="Your own cards: a card file or a folder "
                                                                     "of them (repeatable)")] = None,
    compare: Annotated[tuple[str, str] | None, typer.Option(
        "--compare", metavar="OLD NEW", help="A/B: two lists of a deck against the same field, seeds and seats; "
                                             "reports the difference with its 95% interval")] = None,
    field_decks: Annotated[list[str] | None, typer.Option("--field", help="With --compare: the decks to play "
                                                                          "against (repeatable; default: every "
                                                                          "bundled deck but OLD and NEW)")] = None,
    top: Annotated[int | None, typer.Option("--top", help="Card statistics: only the first N cards (default: "
                                                          "every card; 0: none)")] = None,
    sort: Annotated[str, typer.Option("--sort", help="Card statistics order: " + ", ".join(CARD_SORTS))] = "iwd",
    force: Annotated[bool, typer.Option("--force", help="Let --json/--csv replace files that aren't a report/CSV")]
    = False,
) -> None:
    """Simulate matches between decks and agents: win-rate matrix, ratings, per-card statistics, every match.

    With --compare OLD NEW: is the new list better against the field? Both play the same field on the
    same seeds and seats."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from c1k_tui.model.jsonout import report_refusal, to_stdout, write_json
    from engine.ai import make_agent

    console = Console(stderr=False)
    # the progress bar goes to stderr: `simulate > report.txt` keeps the report alone, and a terminal
    # on stderr still shows the bar while stdout is redirected
    progress_console = Console(stderr=True)
    if to_stdout(json_out):
        quiet_tables = True
    else:
        quiet_tables = quiet
    opp = opponent or agent
    try:
        if why := report_refusal(json_out, csv_out, force):     # before the matches, not after them
            raise SimulateError(why)
        for a in (agent, opp):
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
        if sort not in CARD_SORTS:
            raise SimulateError(f"unknown --sort '{sort}'; expected one of {', '.join(CARD_SORTS)}")
        if top is not None and top < 0:
            raise SimulateError("--top must be 0 or more")
        own = list(cards or [])
        cmp_labels: tuple[str, str] | None = None
        if compare is not None:
            if decks or all_decks:
                raise SimulateError("--compare OLD NEW plays against --field decks: name no other decks")
            deck_list, old, new, fld = resolve_compare(compare[0], compare[1], field_decks, own)
            cmp_labels = (old.label, new.label)
            card_files = own_card_files(own, deck_list)
            pairs, jobs = plan_compare(old, new, fld, agent, opp, matches, seed, max_turns, card_files)
        else:
            if field_decks:
                raise SimulateError("--field goes with --compare OLD NEW")
            deck_list = resolve_decks(decks or [], all_decks, own)
            if len(deck_list) < 2 and opp == agent:
                raise SimulateError("name at least two decks (or one deck with a different --opponent)")
            card_files = own_card_files(own, deck_list)
            pairs, jobs = plan(deck_list, agent, opp, matches, seed, max_turns, card_files, compensation)
        be = make_backend(backend, workers or (os.cpu_count() or 1), address)
        t0 = time.perf_counter()
        if quiet:
            report = run(pairs, jobs, be)
        else:
            with Progress(TextColumn("[bold]simulate[/bold]"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                          console=progress_console) as prog:
                task = prog.add_task("matches", total=len(jobs))
                report = run(pairs, jobs, be, lambda r: prog.advance(task))
        elapsed = time.perf_counter() - t0
    except SimulateError as err:
        typer.echo(f"simulate: {err}", err=True)
        raise typer.Exit(2) from err
    from engine.cardset import manifest

    report["decks"] = deck_table(deck_list)
    db = _card_db(card_files)
    report["card_set"] = manifest(db, [cid for d in deck_list for cid, _ in d.cards]
                                  + [x for d in deck_list for x in (d.champion, d.seat)])
    if cmp_labels is not None:
        report["compare"] = compare_section(report, cmp_labels[0], cmp_labels[1], agent)
    report["run"] = {"seed": seed, "agent": agent, "opponent": opp, "matches_per_pair": matches,
                     "backend": be.name, "workers": getattr(be, "workers", None), "seconds": round(elapsed, 2),
                     "max_turns": max_turns, "compensation": compensation, "cards": [str(c) for c in own],
                     "compare": list(compare) if compare else None}
    if not quiet_tables:
        shown = top if top is not None else (0 if compare is not None else None)
        print_report(report, console, shown, sort)
        if plots and compare is None:
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
            write_json(report, json_out, "reports", force)
        if csv_out:
            write_csv(report, csv_out, force)
    except OSError as err:
        typer.echo(f"simulate: can't write: {err}", err=True)
        raise typer.Exit(2) from err
    if report["errors"]:
        raise typer.Exit(1)


def load_report(path: Path) -> dict[str, Any]:
    """A `c1k simulate --json` report (bounded read); SimulateError names the file and what is wrong."""
    from engine.safeio import ReadRefused, read_bounded

    try:           # a regular file within the cap, or refused before a byte is read (a FIFO, /dev/zero)
        data = json.loads(read_bounded(path, "reports").decode("utf-8"))
    except ReadRefused as err:
        raise SimulateError(str(err)) from err
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        raise SimulateError(f"{path}: can't be read as a simulation report: {err}") from err
    if not isinstance(data, dict) or not isinstance(data.get("games"), list) or not isinstance(data.get("decks"), dict):
        raise SimulateError(f"{path}: not a simulation report with its matches (written by `c1k simulate --json` "
                            "of this version: it lists 'games' and 'decks')")
    return data


def replay_match(report: dict[str, Any], index: int, where: str = "the report") -> Any:
    """Play match `index` of a simulation report again, from its seed, decks, cards and agents, and return
    its match record (engine/record.py). SimulateError if the report lacks it, or if the match now ends
    otherwise than the report says (the engine, the agents or the cards changed)."""
    from engine import CardFileError, Game, MatchOptions, deck_from_data, derive_seed, load_card_db
    from engine.ai import make_agent, play_match
    from engine.cardset import with_manifest
    from engine.record import Recorder, Start

    rows = {g.get("match"): g for g in report["games"] if isinstance(g, dict)}
    row = rows.get(index)
    if row is None:
        raise SimulateError(f"{where} has no match {index}; its matches are numbered 0 to {len(rows) - 1}")
    try:
        db = with_manifest(load_card_db(), report.get("card_set") or {}, where)
    except CardFileError as err:
        raise SimulateError("the report's matches were played with other cards:\n" + "\n".join(err.problems)) from err
    try:
        decks = {}
        for side in ("a", "b"):
            label = row[f"deck_{side}"]
            d = report["decks"][label]
            data: dict[str, object] = {"deck": {"name": d.get("name") or label, "champion": d["champion"], "seat": d["seat"]},
                    "cards": {str(cid): int(n) for cid, n in d["cards"]}}
            decks[side] = deck_from_data(data, db, f"deck '{label}' of {where}", playtest=True)
        seed = int(row["seed"])
        a_first = bool(row["a_first"])
        max_turns = int((report.get("run") or {}).get("max_turns", DEFAULT_MAX_TURNS))
        agent_a, agent_b = make_agent(row["agent_a"], derive_seed(seed, 1)), make_agent(row["agent_b"],
                                                                                         derive_seed(seed, 2))
    except CardFileError as err:
        raise SimulateError("\n".join(err.problems)) from err
    except (KeyError, TypeError, ValueError) as err:
        raise SimulateError(f"{where}: match {index} can't be set up: {type(err).__name__}: {err}") from err
    first, second = (decks["a"], decks["b"]) if a_first else (decks["b"], decks["a"])
    options = MatchOptions(max_turns=max_turns)
    game = Game.new(db, first, second, seed, options)
    recorder = Recorder(Start.of_decks([first, second], seed, options), game)
    result = play_match(game, (agent_a, agent_b) if a_first else (agent_b, agent_a))
    seat_a = 0 if a_first else 1
    winner = "draw" if result.winner is None else ("a" if result.winner == seat_a else "b")
    now = (winner, result.turns, result.termination)
    then = (row.get("winner"), row.get("turns"), row.get("termination"))
    if now != then:
        raise SimulateError(f"match {index} plays differently now: {where} says {then[0]} won after {then[1]} turns "
                            f"({then[2]}); it now ends {now[0]} after {now[1]} turns ({now[2]}) — the engine or "
                            "the agents changed since the report was written")
    record = recorder.record(game)
    record.agents = {"p1": (row["agent_p1"], derive_seed(seed, 1 if a_first else 2)),
                     "p2": (row["agent_p2"], derive_seed(seed, 2 if a_first else 1))}
    return record


def resolve_compare(old: str, new: str, field_names: Sequence[str] | None,
                    cards: Sequence[Path]) -> tuple[list[DeckRef], DeckRef, DeckRef, list[DeckRef]]:
    """(every deck, OLD, NEW, the field): the field is `field_names`, or every bundled deck that is neither
    OLD's nor NEW's file or list."""
    from engine import bundled_deck_paths, find_deck

    try:
        po, pn = find_deck(old).resolve(), find_deck(new).resolve()
    except FileNotFoundError as err:
        raise SimulateError(str(err)) from err
    if po == pn:
        raise SimulateError(f"--compare: OLD and NEW are the same file ({po})")
    names = list(field_names or [])
    every = resolve_decks([old, new, *names], not names, cards)
    ref_old = next(d for d in every if d.path == str(po))
    ref_new = next(d for d in every if d.path == str(pn))
    if ref_old.digest == ref_new.digest:
        raise SimulateError(f"--compare: {ref_old.label} and {ref_new.label} hold the same list")
    if names:
        wanted = {find_deck(n).resolve() for n in names}
        fld = [d for d in every if Path(d.path) in wanted and d.path not in (str(po), str(pn))]
    else:
        bundled = {b.resolve() for b in bundled_deck_paths()}
        fld = [d for d in every if Path(d.path) in bundled and d.path not in (str(po), str(pn))
               and d.digest not in (ref_old.digest, ref_new.digest)]
    if not fld:
        raise SimulateError("--compare: no deck left in the field to play against")
    used = {ref_old.path, ref_new.path} | {d.path for d in fld}
    return [d for d in every if d.path in used], ref_old, ref_new, fld


__all__ = ["Backend", "DeckRef", "InlineBackend", "Job", "JobResult", "LocalBackend", "RayBackend", "asdict",
           "bradley_terry", "card_stats", "compare_section", "diff_interval", "field_rates", "interval_plot",
           "paired_interval", "plan", "plan_compare", "report_plots", "run", "run_job", "simulate", "summarize",
           "wilson"]
