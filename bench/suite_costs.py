"""Where the test suite's time goes, test by test (issue #32 item 11: find what grew).

    python bench/suite_costs.py [--top 25] [--json FILE] [--against FILE] [-- PYTEST ARGS ...]

Runs pytest (by default the fast tier as the README runs it: `-m "not slow" -n 2 --dist loadgroup`) with
this file as a plugin, which records for every test its CPU time (`time.process_time` in the process that
ran it), the CPU time of the subprocesses it waited for (`RUSAGE_CHILDREN`: the CLI run as a process, the
Node port) and its wall time. Then prints the run's wall and CPU time, the files that cost most and the
dearest tests. `--json FILE` keeps it all; `--against FILE` (an earlier `--json`) shows per file what grew
or shrank since, and the tests that are new among the dearest.

Wall-clock timing lives here, never in tests. Pytest's `--durations` gives wall times only, which on a
shared machine measure the machine; CPU time is the steadier figure, and a test's wall well above its CPU
is waiting (Pilot's idle waits, `pilot.pause(0.5)`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = "C1K_SUITE_COSTS_DIR"
FAST_TIER = ["-m", "not slow", "-n", "2", "--dist", "loadgroup"]


# ------------------------------------------------------------------------------ the plugin (in each worker)

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    out = os.environ.get(ENV)
    if not out:
        yield
        return
    cpu, wall = time.process_time(), time.perf_counter()
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    yield
    ch2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    row = {"id": item.nodeid.rpartition("@")[0] if "@" in item.nodeid else item.nodeid,
           "cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
           "child": (ch2.ru_utime + ch2.ru_stime) - (ch.ru_utime + ch.ru_stime)}
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(Path(out) / f"{worker}.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")


# ------------------------------------------------------------------------------------------- the report

def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    files: dict[str, dict[str, float]] = {}
    for r in rows:
        f = files.setdefault(r["id"].split("::")[0], {"tests": 0, "cpu": 0.0, "child": 0.0, "wall": 0.0})
        f["tests"] += 1
        for k in ("cpu", "child", "wall"):
            f[k] += r[k]
    return {"tests": len(rows), "cpu": sum(r["cpu"] for r in rows), "child": sum(r["child"] for r in rows),
            "wall": sum(r["wall"] for r in rows), "files": files}


def report(run: dict[str, Any], top: int, against: dict[str, Any] | None) -> str:
    s = run["summary"]
    lines = [f"pytest {' '.join(run['args'])}",
             f"{s['tests']} tests: run {run['wall']:.1f} s wall, {run['cpu']:.1f} s CPU (all processes); "
             f"the tests' own {s['cpu']:.1f} s CPU + {s['child']:.1f} s in their subprocesses, "
             f"{s['wall']:.1f} s of test wall summed over the workers", "",
             "| file | tests | CPU s | subprocess CPU s | wall s |" + (" CPU+sub then | change |" if against else ""),
             "|---|---|---|---|---|" + ("---|---|" if against else "")]
    before = against["summary"]["files"] if against else {}
    cost = {f: v["cpu"] + v["child"] for f, v in s["files"].items()}
    for f in sorted(cost, key=lambda k: -cost[k])[:top]:
        v = s["files"][f]
        row = f"| {f} | {v['tests']} | {v['cpu']:.1f} | {v['child']:.1f} | {v['wall']:.1f} |"
        if against:
            b = before.get(f)
            old = b["cpu"] + b["child"] if b else 0.0
            row += f" {old:.1f} | {cost[f] - old:+.1f} |"
        lines.append(row)
    lines += ["", "the dearest tests (CPU + subprocess CPU, s):"]
    known = {r["id"] for r in against["rows"]} if against else set()
    for r in sorted(run["rows"], key=lambda r: -(r["cpu"] + r["child"]))[:top]:
        new = "  (new)" if against and r["id"] not in known else ""
        lines.append(f"{r['cpu'] + r['child']:7.2f}  {r['id']}{new}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ours, _, theirs = (argv[:argv.index("--")], None, argv[argv.index("--") + 1:]) if "--" in argv \
        else (argv, None, [])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--top", type=int, default=25, help="how many files and tests to list")
    ap.add_argument("--json", type=Path, help="write the whole run (every test's times) to this file")
    ap.add_argument("--against", type=Path, help="an earlier --json: what grew since, per file")
    a = ap.parse_args(ours)
    against = json.loads(a.against.read_text(encoding="utf-8")) if a.against else None
    args = theirs or FAST_TIER
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, **{ENV: out})
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "bench"), str(ROOT), env.get("PYTHONPATH", "")])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "suite_costs", "-p", "no:randomly",
                               *args], cwd=ROOT, env=env, check=False)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows = [json.loads(line) for f in sorted(Path(out).glob("*.jsonl"))
                for line in f.read_text(encoding="utf-8").splitlines()]
    run = {"args": args, "exit": done.returncode, "wall": wall,
           "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
           "summary": summarise(rows), "rows": rows}
    print(report(run, a.top, against))
    if a.json:
        a.json.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
