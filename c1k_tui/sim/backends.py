"""Where `c1k simulate`'s jobs run: inline, a local process pool, or a Ray cluster (the card files shipped
with the jobs). Results are gathered by job index, so every backend gives the same report."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from c1k_tui.sim.jobs import _CACHE, Job, JobResult, SimulateError, run_job


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
            from c1k_tui.sim.ray_auth import client_token, silence_hint

            raise SimulateError(f"Ray at {address} did not answer within {timeout:.0f} s "
                                f"(a busy cluster may need more: C1K_RAY_CONNECT_TIMEOUT=SECONDS). "
                                + silence_hint(client_token()))
    if failure:
        problem = failure[0]
        from c1k_tui.sim.ray_auth import auth_failure, client_token, refused_message

        if auth_failure(problem):
            raise SimulateError(refused_message(address or "a new local cluster", client_token())) from problem
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



def make_backend(backend: str, workers: int, address: str | None) -> Backend:
    if backend == "local":
        return LocalBackend(workers)
    if backend == "ray":
        return RayBackend(address)
    raise SimulateError(f"unknown backend '{backend}': use local or ray")
