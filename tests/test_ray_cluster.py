"""`c1k simulate --backend ray` against a real cluster (issue #21 item 6): a head started here, with its Ray
Client server on 127.0.0.1, reached as `ray://127.0.0.1:PORT` the way a laptop outside the cluster
reaches one. Jobs carry the decks' contents (and the card files travel once, as an object), never a
path of the driver. An address that doesn't answer is a message, bounded by a timeout — not a hang.

Needs the cluster extra (`pip install -e '.[dev,cluster]'`, which `.ci/run` installs)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from c1k_tui.sim.simulate import (
    SimulateError,
    land,
    plan,
    ray_connect,
    ray_endpoint,
    resolve_decks,
    run_job,
    ship,
)

#: one Ray head for the module, on one process of a parallel run (`--dist loadgroup`), not one per process
pytestmark = pytest.mark.xdist_group("ray-head")

ROOT = Path(__file__).resolve().parent.parent
RAY = Path(sys.executable).parent / "ray"


#: a loaded CI machine starts a client's server process on the head slowly: Ray's own bounds (30 s for the
#: head to see it, 5 s for the client's first try) are raised for the test, and c1k's own with them
#: RAY_AUTH_MODE: a cluster of the test's own on 127.0.0.1 — without it, a token some earlier local
#: `ray.init()` left in ~/.ray turns token authentication on for the head, which this client then lacks
SLOW_OK = {"RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": "300", "RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S": "60",
           "RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S": "120", "C1K_RAY_CONNECT_TIMEOUT": "600",
           "RAY_AUTH_MODE": "disabled"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    """A one-CPU Ray head in its own process group (stopped by that group's id, nothing else). Its folder
    is a short one of its own: pytest's rotate away while the head runs, and Ray's socket paths are
    limited to 107 characters."""
    tmp = Path(tempfile.mkdtemp(prefix="c1k-ray-"))
    client = _free_port()
    log = (tmp / "head.log").open("w")
    proc = subprocess.Popen(
        [str(RAY), "start", "--head", "--block", f"--port={_free_port()}", f"--ray-client-server-port={client}",
         "--node-ip-address=127.0.0.1", "--num-cpus=1", "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={tmp / 't'}"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT, env={**os.environ, **SLOW_OK})
    try:
        for _ in range(240):                    # the head is up when its client port answers
            if proc.poll() is not None:
                raise RuntimeError(f"ray start exited: {(tmp / 'head.log').read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", client), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("the Ray head did not open its client port")
        address = f"ray://127.0.0.1:{client}"
        for _ in range(3):      # the head serves clients (the first may time out while it starts up)
            warm = subprocess.run([sys.executable, "-c", "import ray, sys; ray.init(sys.argv[1], logging_level="
                                   "'ERROR'); print(ray.get(ray.remote(lambda: 1).remote()))", address],
                                  capture_output=True, text=True, timeout=900, env={**os.environ, **SLOW_OK})
            if warm.stdout.strip() == "1":
                break
        assert warm.stdout.strip() == "1", warm.stderr[-2000:]
        yield address
    finally:
        for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(wait)
                break
            except subprocess.TimeoutExpired:
                continue
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "c1k_tui", "simulate", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=900, env={**os.environ, "NO_COLOR": "1", **SLOW_OK})


def test_the_cluster_gets_contents_not_paths(tmp_path: Path) -> None:
    """What goes to the cluster is the files' contents; a node writes them to a folder of its own and
    plays the same match from there."""
    deck = tmp_path / "mine.toml"
    deck.write_text((ROOT / "decks" / "emberfall.toml").read_text(encoding="utf-8"), encoding="utf-8")
    _, jobs = plan(resolve_decks(["ironbound", str(deck)], False), "random", "random", 2, 1, 10)
    files = ship(jobs)
    assert str(deck) in files and files[str(deck)].startswith(deck.read_text(encoding="utf-8")[:40])
    landed = land(jobs[0], files)
    assert str(tmp_path) not in landed.deck_a + landed.deck_b
    assert Path(landed.deck_b if "mine" in jobs[0].deck_b else landed.deck_a).read_text(encoding="utf-8") == \
        deck.read_text(encoding="utf-8")
    assert run_job(landed) == run_job(jobs[0])


@pytest.mark.slow
def test_ray_client_from_outside_gives_the_local_report(head: str, tmp_path: Path) -> None:
    deck = tmp_path / "my-deck.toml"              # a deck only the driver has: its contents travel
    deck.write_text((ROOT / "decks" / "emberfall.toml").read_text(encoding="utf-8"), encoding="utf-8")
    common = ["ironbound", str(deck), "--agent", "random", "--matches", "2", "--max-turns", "20", "--json", "-"]
    remote = _simulate(*common, "--backend", "ray", "--address", head)
    assert remote.returncode == 0, remote.stderr[-3000:]
    local = _simulate(*common, "--workers", "1")
    assert local.returncode == 0, local.stderr
    got, want = json.loads(remote.stdout), json.loads(local.stdout)
    assert got["run"]["backend"] == "ray"
    for report in (got, want):     # the run (backend, workers, seconds) differs, and so the seal's hash
        report.pop("run")
        seal = report.pop("integrity")
        seal["parts"].pop("run")
        report["parts"] = seal["parts"]   # every other part's digest is the same
    assert got == want


@pytest.mark.slow            # (imports Ray: the fast tier runs on Pythons without the cluster extra too)
def test_an_unreachable_address_is_a_message() -> None:
    port = _free_port()                           # nobody listens there
    res = _simulate("ironbound", "emberfall", "--matches", "1", "--quiet", "--backend", "ray",
                    "--address", f"ray://127.0.0.1:{port}")
    assert res.returncode == 2
    assert f"can't reach Ray at ray://127.0.0.1:{port}" in res.stderr and "Traceback" not in res.stderr


def test_an_address_that_never_answers_gives_up_at_the_timeout() -> None:
    """A port that accepts and then says nothing (a firewall, another service): the connection attempt
    is abandoned at the timeout with a message."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()

    class SlowRay:
        """Stands in for the `ray` module: an init that never returns (what a silent port gives)."""

        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**_: object) -> None:
            stop.wait()

    try:
        with pytest.raises(SimulateError, match="did not answer within 1 s"):
            ray_connect(SlowRay, f"ray://127.0.0.1:{port}", timeout=1.0)
    finally:
        stop.set()
        t.join()
        for c in held:
            c.close()
        server.close()


@pytest.mark.parametrize(("address", "endpoint"), [
    ("ray://10.0.0.5:10001", ("10.0.0.5", 10001)),
    ("ray://head.example", ("head.example", 10001)),
    ("10.0.0.5:6379", ("10.0.0.5", 6379)),
    ("ray://[::1]:10001", ("::1", 10001)),
    ("auto", None),
])
def test_the_address_names_host_and_port(address: str, endpoint: tuple[str, int] | None) -> None:
    assert ray_endpoint(address) == endpoint
