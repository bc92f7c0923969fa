"""A peer on the same work (issue #29 item 5): our search against OpenSpiel's ISMCTS on the same game.

    python bench/peer_ismcts.py --ours search:2 --sims 2 --deals 40 --seed 4711 --json bench/results/peer-ismcts.json
    python bench/peer_ismcts.py --calibrate --ours search:2 --seed 4711     # CPU a decision: ours, ISMCTS a simulation

Both play the OpenSpiel game `python_c1k` (engine.rl.openspiel); ISMCTS is OpenSpiel's own
`open_spiel.python.algorithms.ismcts.ISMCTSBot` with its random-rollout evaluator (UCT c = 2, one rollout a
leaf, unlimited world samples: each simulation re-deals the hidden cards with `resample_from_infostate`).
Ours decides from its `InfoSet` (engine.sampling), as in every match of the engine.

Duplicate design: a deal is an ordered pair of bundled decks and a match seed, drawn from `--seed`; each
deal is played twice, ours in the first seat then in the second (the same decks in the same seats, the same
seed). A deal's score is ours' mean over its two matches (a win 1, a draw ½); the win rate comes with a
paired 95% interval (mean ± 1.96 standard errors of the deal scores). Equal CPU a decision: `--sims` is the
ISMCTS simulation count whose CPU matches ours' median decision (`--calibrate` measures both). Decision CPU
(`time.process_time`, only decisions with more than one legal action) is reported for both: median, p95.

Resumable: the JSON is rewritten after each deal; `--resume` skips the deals it already holds.
Reproducible: ours is deterministic; ISMCTS's own draws come from a generator seeded by the deal, but by
default it re-deals hidden cards with OpenSpiel's `UniformProbabilitySampler`, which seeds itself at random
(as ISMCTS does out of the box); `--seeded-resampler` re-deals from the bot's seeded generator instead.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from ai_bench import _pct  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from engine.ai import make_agent  # noqa: E402
from engine.decks import bundled_deck_paths  # noqa: E402
from engine.rl.openspiel import C1KState, initial_state  # noqa: E402
from engine.rng import SplitMix64, derive_seed  # noqa: E402
from engine.sampling import InfoSet  # noqa: E402

UCT_C = 2.0


def deals(seed: int, n: int) -> list[tuple[str, str, int]]:
    """`n` deals: (deck in the first seat, deck in the second, match seed), drawn from `seed`."""
    stems = [p.stem for p in bundled_deck_paths()]
    pairs = [(a, b) for a in stems for b in stems]
    rng = SplitMix64(seed)
    rng.shuffle(pairs)
    return [(a, b, derive_seed(seed, 1000 + i)) for i, (a, b) in enumerate(pairs[i % len(pairs)] for i in range(n))]


def play(deck1: str, deck2: str, seed: int, ours: str, ours_seat: int, sims: int,
         max_decisions: int = 0, seeded: bool = False) -> dict[str, Any]:
    """One match: ours in `ours_seat`, ISMCTS in the other. The score is ours' (1, ½, 0)."""
    game = pyspiel.load_game("python_c1k", {"deck1": deck1, "deck2": deck2})   # (seeds past 31 bits: initial_state)
    state: C1KState = initial_state(game, seed)
    agent = make_agent(ours, derive_seed(seed, 11 + ours_seat))
    rs = np.random.RandomState(derive_seed(seed, 21 + ours_seat) % (1 << 32))
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), UCT_C, sims,
                           random_state=rs)
    if seeded:   # re-deal from the bot's own generator (pyspiel's default sampler seeds itself at random)
        bot.set_resampler(lambda st, p: st.resample_from_infostate(p, rs.uniform))
    cpu: dict[str, list[float]] = {"ours": [], "ismcts": []}
    while not state.is_terminal():
        p = state.current_player()
        g = state.match
        real = g.pending.kind in ("attackers", "blockers") or len(g.legal_actions()) > 1
        if not real:
            state.apply_action(0)
            continue
        c0 = time.process_time()
        if p == ours_seat:
            state.apply_engine_action(agent.act(InfoSet(g, p)))
            cpu["ours"].append((time.process_time() - c0) * 1000)
        else:
            a = bot.step(state)
            cpu["ismcts"].append((time.process_time() - c0) * 1000)
            state.apply_action(a)
        if max_decisions and len(cpu["ours"]) >= max_decisions and len(cpu["ismcts"]) >= max_decisions:
            break
    o = state.match.outcome
    winner = o.winner if o is not None else None
    score = 0.5 if winner is None else float(winner == ours_seat)
    return {"deck1": deck1, "deck2": deck2, "seed": seed, "ours_seat": ours_seat, "score": score,
            "termination": o.termination.value if o is not None else "action_limit", "turns": state.match.turn,
            "actions": state.actions, "cpu_ms": cpu}


def play_deal(args: tuple[int, str, str, int, str, int, bool]) -> dict[str, Any]:
    i, d1, d2, seed, ours, sims, seeded = args
    games = [play(d1, d2, seed, ours, seat, sims, seeded=seeded) for seat in (0, 1)]
    return {"deal": i, "deck1": d1, "deck2": d2, "seed": seed, "score": sum(m["score"] for m in games) / 2,
            "matches": games}


def summary(done: list[dict[str, Any]]) -> dict[str, Any]:
    scores = [d["score"] for d in done]
    n = len(scores)
    mean = statistics.fmean(scores) if scores else 0.0
    se = statistics.stdev(scores) / math.sqrt(n) if n > 1 else 0.0
    cpu = {k: [x for d in done for m in d["matches"] for x in m["cpu_ms"][k]] for k in ("ours", "ismcts")}
    return {"deals": n, "matches": 2 * n, "win_rate": mean, "ci95_paired": [mean - 1.96 * se, mean + 1.96 * se],
            "wins": sum(1 for d in done for m in d["matches"] if m["score"] == 1.0),
            "draws": sum(1 for d in done for m in d["matches"] if m["score"] == 0.5),
            "decision_cpu_ms": {k: {"median": statistics.median(v) if v else 0.0, "p95": _pct(v, 0.95),
                                    "decisions": len(v)} for k, v in cpu.items()}}


def calibrate(ours: str, seed: int, decisions: int) -> dict[str, Any]:
    """CPU of ours' decisions and of ISMCTS' simulations on the first `decisions` real decisions of two deals."""
    ours_ms: list[float] = []
    per_sim: list[float] = []
    for d1, d2, s in deals(seed, 2):
        m = play(d1, d2, s, ours, 0, 4, max_decisions=decisions)
        ours_ms += m["cpu_ms"]["ours"]
        per_sim += [x / 4 for x in m["cpu_ms"]["ismcts"]]
    med, sim = statistics.median(ours_ms), statistics.median(per_sim)
    return {"ours": ours, "ours_median_ms": med, "ismcts_ms_a_simulation": sim,
            "sims_for_equal_cpu": max(1, round(med / sim)), "decisions": [len(ours_ms), len(per_sim)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default="search:2")
    ap.add_argument("--sims", type=int, default=2, help="ISMCTS simulations a decision")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=4711)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default="")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--seeded-resampler", action="store_true",
                    help="ISMCTS re-deals from its seeded generator: the whole run reproducible match for match")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--decisions", type=int, default=30, help="--calibrate: decisions a deal")
    a = ap.parse_args()
    if a.calibrate:
        print(json.dumps(calibrate(a.ours, a.seed, a.decisions), indent=2))
        return
    done: list[dict[str, Any]] = []
    if a.resume and a.json and Path(a.json).exists():
        done = json.loads(Path(a.json).read_text(encoding="utf-8"))["results"]
    have = {d["deal"] for d in done}
    jobs = [(i, d1, d2, s, a.ours, a.sims, a.seeded_resampler) for i, (d1, d2, s) in enumerate(deals(a.seed, a.deals)) if i not in have]
    meta = {"ours": a.ours, "ismcts": {"simulations": a.sims, "uct_c": UCT_C, "evaluator": "random rollout x1",
                                       "seeded_resampler": a.seeded_resampler},
            "seed": a.seed, "command": " ".join(["python", "bench/peer_ismcts.py"] + sys.argv[1:]),
            "load_average_start": os.getloadavg()}

    def save() -> None:
        done.sort(key=lambda d: d["deal"])
        out = {**meta, "summary": summary(done), "results": done, "load_average_end": os.getloadavg()}
        if a.json:
            tmp = Path(a.json + ".tmp")
            tmp.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
            tmp.replace(a.json)
        s = out["summary"]
        print(f"{s['deals']} deals: ours {s['win_rate']:.1%} [{s['ci95_paired'][0]:.1%}, {s['ci95_paired'][1]:.1%}] "
              f"cpu ours {s['decision_cpu_ms']['ours']['median']:.1f} ms, ismcts "
              f"{s['decision_cpu_ms']['ismcts']['median']:.1f} ms", flush=True)

    with cf.ProcessPoolExecutor(a.workers) as ex:
        for fut in cf.as_completed([ex.submit(play_deal, j) for j in jobs]):
            done.append(fut.result())
            save()
    if not jobs:
        save()


if __name__ == "__main__":
    main()
