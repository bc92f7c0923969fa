"""The `c1k` command run two ways for the tests that read its exit code, stdout and stderr apart.

`c1k_process` starts the real command (`python -m c1k_tui`) in a child process: the only way to see what a
process alone shows — the interpreter's own traceback or "Exception ignored" lines, a signal's exit status,
a real pipe. It costs the interpreter's start and the imports (≈0.5 s of CPU a run).

`c1k_forked` runs the same Typer app in a fork of the test's own process, with everything already imported
(≈0.02 s): Typer's CliRunner keeps stdout and stderr apart, an exception the command does not handle is
written to stderr as the interpreter would print it ("Traceback (most recent call last): ..." and exit
status 1), and the fork keeps the safety net of a child process — a read that hangs (a FIFO opened by
mistake) is killed at the timeout and fails the test, and one that would fill the memory (/dev/zero read by
mistake) meets a memory limit instead of the machine's. docs/performance.md, "The test suite"."""

from __future__ import annotations

import importlib
import json
import os
import resource
import select
import signal
import subprocess
import sys
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from c1k_tui.cli.main import app

# what the commands import on first use, imported here once so that no fork imports it again
for _name in ("engine.game", "engine.record", "engine.scenario", "engine.validation", "c1k_tui.cli.textplay",
              "c1k_tui.model.hiddenmatch", "c1k_tui.model.matchnames", "c1k_tui.sim.simulate"):
    importlib.import_module(_name)
CliRunner().invoke(app, ["--version"])   # the click command built before the forks (tests/conftest.py: once)

ROOT = Path(__file__).resolve().parent.parent

#: the most memory the forked command may take beyond what the test's process already holds
FORK_MEMORY = 512 << 20


@dataclass(frozen=True)
class Ran:
    """What a run of the command left: its exit status and what it wrote on stdout and on stderr."""

    returncode: int
    stdout: str
    stderr: str


def c1k_process(args: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path = ROOT,
                timeout: float = 120) -> Ran:
    """`c1k ARGS` as a user runs it: a child process, stdin empty, stdout and stderr pipes (not terminals).
    A run still going at `timeout` seconds fails the test (a hang is a failure, not a stuck test run)."""
    try:
        res = subprocess.run([sys.executable, "-m", "c1k_tui", *args], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, cwd=cwd, timeout=timeout,
                             env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", **(env or {})})
    except subprocess.TimeoutExpired as err:
        raise AssertionError(f"`c1k {' '.join(args)}` still runs after {timeout:g} s") from err
    return Ran(res.returncode, res.stdout, res.stderr)


def c1k_forked(args: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None,
               input: str | None = None, timeout: float = 60) -> Ran:
    """`c1k ARGS` run by the Typer app in a fork of this process (see the module's docstring); `env` is
    added to the environment and `cwd` is the folder it runs in, as for `c1k_process`."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                              # the child: run, write the outcome, leave
        os.close(read_end)
        _run_and_report(list(args), env or {}, cwd, input, write_end)
    os.close(write_end)
    try:
        data = _read_all(read_end, pid, timeout, args)
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if not data:
        raise AssertionError(f"`c1k {' '.join(args)}` died without an outcome (wait status {status})")
    code, out, err = json.loads(data)
    return Ran(code, out, err)


def _read_all(fd: int, pid: int, timeout: float, args: Sequence[str]) -> bytes:
    chunks: list[bytes] = []
    left = timeout
    while True:
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"`c1k {' '.join(args)}` still runs after {timeout:g} s")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _run_and_report(args: list[str], env: Mapping[str, str], cwd: Path | None, input: str | None,
                    fd: int) -> None:
    """In the forked child: never returns (os._exit), so no test code of the parent runs twice."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[0])
        limit = pages * os.sysconf("SC_PAGE_SIZE") + FORK_MEMORY
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
        if cwd is not None:
            os.chdir(cwd)
        res = CliRunner().invoke(app, args, input=input, env={"NO_COLOR": "1", **env}, prog_name="c1k")
        err = res.stderr
        if res.exc_info is not None and res.exception is not None and not isinstance(res.exception, SystemExit):
            err += "".join(traceback.format_exception(*res.exc_info))
        outcome = [res.exit_code, res.stdout, err]
    except BaseException as exc:                              # the runner itself broke: say so, never hang
        outcome = [1, "", "".join(traceback.format_exception(exc))]
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(outcome).encode())
    finally:
        os._exit(0)
