"""Replay speed of the TypeScript port against the Python engine on the same records (issue #33).

    python bench/port_speed.py [--repeats R] [--vanilla K] [--seed S]

The records: every fixture record the port replays to its last hash (conformance/fixtures/records/: passes,
plays, combat, refusals, keywords, exhaustion, effects, counters, paradox, random) and K fresh greedy
matches of the vanilla deck (default 4). Each is replayed R times (default 5) by each engine, every hash
checked (Python: `engine.record.load` and `replay_iter`; TypeScript: `conformance/replay --bench`, reading
the file included, Node's start-up not). Prints, per record and in
all, commands per CPU second — medians over the repeats — and the ratio TypeScript / Python. CPU time
(`time.process_time`; Node's `process.cpuUsage`), so a loaded machine slows both alike rather than skewing
the ratio; still, say the load average next to the numbers (printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import record as rec  # noqa: E402
from engine.cards import load_card_db  # noqa: E402

RECORDS = ROOT / "conformance" / "fixtures" / "records"
KINDS = ("passes-", "plays-", "combat-", "refusals-", "keywords-", "exhaustion-", "effects-", "counters-", "paradox-", "random-")


def python_cpu(path: Path, repeats: int) -> tuple[int, list[float]]:
    db = load_card_db()
    times = []
    n = 0
    for _ in range(repeats):
        t0 = time.process_time()
        record = rec.load(path)
        n = -1
        for _g in rec.replay_iter(record, db):
            n += 1
        times.append(time.process_time() - t0)
    return n, times


def ts_cpu(paths: list[Path], repeats: int) -> dict[str, tuple[int, list[float]]]:
    res = subprocess.run(["bash", str(ROOT / "conformance" / "replay"), "--bench", str(repeats), *map(str, paths)],
                         capture_output=True, text=True, timeout=3600, check=True)
    out = {}
    for line in res.stdout.splitlines():
        d = json.loads(line)
        out[Path(d["path"]).name] = (int(d["commands"]), [float(x) for x in d["cpu"]])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--vanilla", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "bench"))
    from port_tally import vanilla_record

    with tempfile.TemporaryDirectory() as tmp:
        paths = sorted(p for p in RECORDS.glob("*.json") if p.name.startswith(KINDS))
        for k in range(args.vanilla):
            p = Path(tmp) / f"vanilla-{args.seed + k}.json"
            p.write_text(vanilla_record(args.seed + k, 400), encoding="utf-8")
            paths.append(p)
        ts = ts_cpu(paths, args.repeats)
        print(f"load average {os.getloadavg()[0]:.1f}; {args.repeats} repeats; medians of CPU time")
        print(f"{'record':24} {'commands':>8} {'Python cmd/s':>13} {'TS cmd/s':>10} {'TS/Python':>9}")
        tot_n = 0
        tot_py = tot_ts = 0.0
        for p in paths:
            n, py = python_cpu(p, args.repeats)
            n_ts, t = ts[p.name]
            assert n == n_ts, (p.name, n, n_ts)
            mp, mt = statistics.median(py), statistics.median(t)
            tot_n += n
            tot_py += mp
            tot_ts += mt
            print(f"{p.name:24} {n:8d} {n / mp:13.0f} {n / mt:10.0f} {mp / mt:9.2f}")
        print(f"{'all':24} {tot_n:8d} {tot_n / tot_py:13.0f} {tot_n / tot_ts:10.0f} {tot_py / tot_ts:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
