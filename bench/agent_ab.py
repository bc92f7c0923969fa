"""An agent of this tree against an agent of another tree's `engine/ai.py`, on the ladder's duplicate deals.

    python bench/agent_ab.py OTHER_TREE [--agent greedy] [--opponent SPEC] [--seed 1] [--max-deals 30]
                             [--json FILE]

The question a change to the agents raises: is this tree's `greedy` (or `search:1`, …) as strong as it
was? OTHER_TREE is a checkout of the old code (a `git archive` or a `git worktree`); only its
`engine/ai.py` is loaded (as a module of its own, on this tree's engine), so the two trees must differ in
that file alone. AGENT (this tree) plays OPPONENT (default: the same spec, from OTHER_TREE) on the first
`--max-deals` deals of bench/ladder.py's seeded order, each deal twice with the seats swapped, the agents
seeded as the ladder seeds them. Reports AGENT's win rate (draws ½) with the paired 95% interval over
deals and each side's decision CPU (`time.process_time`, ms: median, p95, max) over its decisions with a
real choice. Single process; on a shared machine run it at `nice -n 19`.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from ladder import _DB, _deck, deals, emit, paired_interval, percentiles, score  # noqa: E402


def other_ai(tree: Path) -> Any:
    """OTHER_TREE's engine/ai.py as a module of its own (it imports this tree's engine)."""
    path = tree / "engine" / "ai.py"
    if not path.is_file():
        raise ValueError(f"{tree}: no engine/ai.py there (give the root of a checkout)")
    spec = importlib.util.spec_from_file_location("engine._other_ai", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod          # (its dataclasses look their module up there)
    spec.loader.exec_module(mod)
    return mod


class _Timed:
    """An agent handed its forced actions without being asked (as `play_match` does for a built-in agent),
    its real decisions timed in CPU ms."""

    def __init__(self, agent: Any, out: list[float]) -> None:
        self.agent, self.out, self.name = agent, out, agent.name

    def act(self, info: Any) -> Any:
        forced = info.forced_action()
        if forced is not None:
            return forced
        c0 = time.process_time()
        a = self.agent.act(info)
        self.out.append((time.process_time() - c0) * 1000)
        return a


def run(tree: Path, agent: str, opponent: str, seed: int, max_deals: int) -> dict[str, Any]:
    from engine.ai import make_agent, play_match
    from engine.game import Game
    from engine.rng import derive_seed
    from engine.state import MatchOptions

    old = other_ai(tree)
    cpu: dict[str, list[float]] = {"agent": [], "opponent": []}
    rows: list[dict[str, Any]] = []
    for index, deck1, deck2, s in deals(seed, 1)[:max_deals]:
        results: list[str] = []
        for seat in (0, 1):
            d1, d2 = _deck(deck1), _deck(deck2)
            game = Game.new(_DB["db"], d1, d2, s, MatchOptions(max_turns=200))
            ours = _Timed(make_agent(agent, derive_seed(s, 1)), cpu["agent"])
            theirs = _Timed(old.make_agent(opponent, derive_seed(s, 2)), cpu["opponent"])
            r = play_match(game, (ours, theirs) if seat == 0 else (theirs, ours))
            results.append("draw" if r.winner is None else ("agent" if r.winner == seat else "opponent"))
        rows.append({"deal": index, "decks": [deck1, deck2], "seed": s, "results": results})
    deal_scores = [sum(score(x) for x in r["results"]) / 2 for r in rows]
    mean, lo, hi = paired_interval(deal_scores)
    return {"agent": agent, "opponent": f"{opponent} (the other tree)", "seed": seed, "deals": len(rows),
            "matches": 2 * len(rows), "win_rate": round(mean, 4), "paired95": [round(lo, 4), round(hi, 4)],
            "cpu_ms": {k: percentiles(v) for k, v in cpu.items()}, "rows": rows}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--opponent", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-deals", type=int, default=30)
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    try:
        rep = run(a.tree, a.agent, a.opponent or a.agent, a.seed, a.max_deals)
    except ValueError as e:
        print(f"agent_ab: {e}", file=sys.stderr)
        return 2
    rep["command"] = "python bench/agent_ab.py OLD_TREE " + " ".join((argv if argv is not None else sys.argv[1:])[1:])
    return emit(rep, a.json)


if __name__ == "__main__":
    raise SystemExit(main())
