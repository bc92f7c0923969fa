"""The second player's compensation (docs/rules.md `RULES Second player`, issue #22 item 3), measured.

    python bench/compensation.py run --compensation card+coin --cache C.jsonl [--agent search:1] [--seed 7]
                                     [--max-matches 20] [--workers 2]
    python bench/compensation.py report card+coin=C1.jsonl [none=C2.jsonl ...] [--agent search:1] [--seed 7]
                                        [--json OUT] [--markdown]

`run` is `bench/balance.py run` with the option: the jobs of `c1k simulate --all --agent A --matches N
--seed S --compensation C`, played round by round (the k-th match of every pair, then the (k+1)-th:
seats alternate with k), each result appended to the cache as it finishes, so a run cut short keeps a
balanced sample. `report` reads caches (one per candidate, any number of rounds, the last one partial)
and prints, for each: the matches, the first player's win rate (draws ½) with its Wilson 95% interval,
and every deck's win rate against the field with its interval, and whether all of them are within 40–60%.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from balance import _decks, _key, cmd_run, field_table  # noqa: E402

from c1k_tui.sim.simulate import JobResult, plan, summarize  # noqa: E402


def _rows(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["key"]] = row["result"]
    return out


def summary(path: Path, compensation: str, agent: str, seed: int) -> dict[str, Any]:
    """One candidate's cache: what finished, whatever the rounds."""
    rows = _rows(path)
    comp = compensation
    rounds = 1
    while True:   # (the rounds started: jobs of round k are looked up by their keys)
        _pairs, jobs = plan(_decks(None), agent, agent, rounds + 1, seed, compensation=comp)
        if not any(_key(j, seed) in rows for j in jobs if j.k == rounds):
            break
        rounds += 1
    pairs, jobs = plan(_decks(None), agent, agent, rounds, seed, compensation=comp)
    done = [j for j in jobs if _key(j, seed) in rows]
    results = {}
    for j in done:
        r = dict(rows[_key(j, seed)])
        r["index"] = j.index
        results[j.index] = JobResult(**r)
    report = summarize(pairs, done, results)
    decks, field, _cell = field_table(report)
    fp = report["first_player"]
    return {
        "compensation": comp, "agent": agent, "seed": seed, "matches": len(done),
        "complete_rounds": min((sum(1 for j in done if j.pair == p) for p in range(len(pairs))), default=0),
        "first_player": {"win_rate": fp["win_rate"], "ci95": fp["ci95"]},
        "avg_turns": report["avg_turns"], "errors": len(report["errors"]),
        "decks": {d: {"matches": field[d]["matches"], "win_rate": round(field[d]["win_rate"], 4),
                      "ci95": [round(x, 4) for x in field[d]["ci95"]]} for d in decks},
        "all_decks_in_40_60": all(0.4 <= field[d]["win_rate"] <= 0.6 for d in decks),
        "all_intervals_in_40_60": all(0.4 <= field[d]["ci95"][0] and field[d]["ci95"][1] <= 0.6 for d in decks),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("run")
    u.add_argument("--compensation", required=True)
    u.add_argument("--cache", type=Path, required=True)
    u.add_argument("--agent", default="search:1")
    u.add_argument("--seed", type=int, default=7)
    u.add_argument("--max-matches", type=int, default=20)
    u.add_argument("--workers", type=int, default=1)
    u.add_argument("--minutes", type=float, default=0)
    r = sub.add_parser("report")
    r.add_argument("caches", nargs="+", metavar="COMPENSATION=CACHE")
    r.add_argument("--agent", default="search:1")
    r.add_argument("--seed", type=int, default=7)
    r.add_argument("--json", type=Path)
    r.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.cmd == "run":
        cmd_run(a.agent, a.seed, a.max_matches, a.cache, a.workers, a.minutes, None, [], None, [], [],
                a.compensation)
        return
    out = [summary(Path(c.split("=", 1)[1]), c.split("=", 1)[0], a.agent, a.seed) for c in a.caches]
    for s in out:
        fp = s["first_player"]
        lo, hi = fp["ci95"]
        worst = min(s["decks"].items(), key=lambda kv: kv[1]["win_rate"])
        best = max(s["decks"].items(), key=lambda kv: kv[1]["win_rate"])
        print(f"{s['compensation']:10s} {s['agent']} seed {s['seed']}: {s['matches']} matches "
              f"({s['complete_rounds']} complete rounds); first player {100 * fp['win_rate']:.1f}% "
              f"[{100 * lo:.1f}–{100 * hi:.1f}]; decks {100 * worst[1]['win_rate']:.1f}% ({worst[0]}) to "
              f"{100 * best[1]['win_rate']:.1f}% ({best[0]}); all in 40–60%: {s['all_decks_in_40_60']}")
        if a.markdown:
            print("\n| deck | matches | win rate vs field | 95% interval |\n|---|---|---|---|")
            for d, v in sorted(s["decks"].items(), key=lambda kv: -kv[1]["win_rate"]):
                print(f"| {d} | {v['matches']} | {100 * v['win_rate']:.1f}% | "
                      f"{100 * v['ci95'][0]:.1f}–{100 * v['ci95'][1]:.1f} |")
            print()
    if a.json:
        a.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
