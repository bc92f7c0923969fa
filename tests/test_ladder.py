"""bench/ladder.py: the duplicate design, the paired interval over deals, and resuming from its cache."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import bench_module


def _ladder() -> Any:
    return bench_module("ladder.py", "ladder_tool")


def test_paired_interval_on_a_known_input() -> None:
    lad = _ladder()
    # deal scores 1, ½, ½, 0: mean ½, sample sd √(½ / 3), standard error √(1/24) → ½ ± 1.959964 × 0.2041
    mean, lo, hi = lad.paired_interval([1.0, 0.5, 0.5, 0.0])
    half = 1.959964 * math.sqrt(0.5 / 3 / 4)
    assert mean == 0.5
    assert lo == pytest.approx(0.5 - half) and hi == pytest.approx(0.5 + half)
    assert (round(lo, 4), round(hi, 4)) == (0.0999, 0.9001)
    # clamped to [0, 1]; one deal says nothing about the spread
    assert lad.paired_interval([1.0, 1.0, 0.75]) [2] == 1.0
    assert lad.paired_interval([0.75]) == (0.75, 0.0, 1.0)


def test_pairing_narrows_the_interval_when_deals_decide() -> None:
    lad = _ladder()
    # 10 deals each won by the first seat whoever sits there: every deal scores ½, no evidence either way —
    # the paired interval is a point at ½, while Wilson over the 20 matches spreads ±21 points
    recs = [{"deal": i, "decks": ["a", "b"], "seed": i, "results": ["agent", "opponent"], "turns": [9, 9],
             "cpu_ms": {"agent": [1.0], "opponent": [2.0]}} for i in range(10)]
    header = {"agent": "x", "opponent": "y", "seed": 1, "per_pair": 1, "max_turns": 200, "decks": "d", "engine": "e"}
    rep = lad.summarize(header, recs)
    assert rep["win_rate"] == 0.5 and rep["ci95_paired"] == [0.5, 0.5]
    assert rep["ci95_wilson"][0] < 0.3 and rep["ci95_wilson"][1] > 0.7
    assert rep["agent_by_seat"][0]["win_rate"] == 1.0 and rep["agent_by_seat"][1]["win_rate"] == 0.0
    assert rep["deal_scores"]["0.5"] == 10


def test_percentiles_nearest_rank() -> None:
    lad = _ladder()
    p = lad.percentiles(float(x) for x in range(1, 101))
    assert (p["count"], p["median"], p["p90"], p["p95"], p["p99"], p["max"]) == (100, 50.5, 90, 95, 99, 100)


def test_deals_cover_every_ordered_pair_in_a_seeded_order() -> None:
    lad = _ladder()
    ds = lad.deals(7, 2)
    names = lad.deck_names()
    assert len(names) == 11 and len(ds) == 242
    assert {(a, b) for _, a, b, _ in ds} == {(a, b) for a in names for b in names}
    assert sorted(i for i, *_ in ds) == list(range(242))
    assert ds == lad.deals(7, 2) and ds != lad.deals(8, 2)
    assert [d[0] for d in ds[:10]] != list(range(10))          # shuffled: a prefix is a fair sample


def test_each_deal_is_played_twice_with_the_agents_swapped() -> None:
    lad = _ladder()
    rec = lad.play_deal(((0, "ironbound", "emberfall", 12345), "greedy", "random", 200))
    assert len(rec["results"]) == 2 and set(rec["results"]) <= {"agent", "opponent", "draw"}
    # greedy beats random from either seat on this deal; the decision times are the agents' own
    assert rec["results"] == ["agent", "agent"]
    assert rec["cpu_ms"]["agent"] and rec["cpu_ms"]["opponent"]
    # the same deal with the agents' roles exchanged: the same two matches, seen from the other side
    back = lad.play_deal(((0, "ironbound", "emberfall", 12345), "random", "greedy", 200))
    assert back["results"] == ["opponent", "opponent"]


def test_resume_plays_only_the_missing_deals(tmp_path: Path) -> None:
    lad = _ladder()
    cache = tmp_path / "c.jsonl"
    first = lad.run("random", "random", seed=3, max_deals=2, cache=cache)
    assert first["played_now"] == 2 and first["deals"] == 2
    lines = cache.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["agent"] == "random"
    # a killed run leaves half a line: it is ignored, and that deal played again
    rec = lad.play_deal((lad.deals(3, 1)[2], "random", "random", 200))
    cache.write_text(cache.read_text() + json.dumps(rec)[:40])
    again = lad.run("random", "random", seed=3, max_deals=4, cache=cache)
    assert again["played_now"] == 2 and again["deals"] == 4
    fresh = lad.run("random", "random", seed=3, max_deals=4)
    assert {k: v for k, v in again.items() if k not in ("played_now", "decision_cpu_ms")} == \
        {k: v for k, v in fresh.items() if k not in ("played_now", "decision_cpu_ms")}
    done = lad.run("random", "random", seed=3, max_deals=4, cache=cache)
    assert done["played_now"] == 0 and done["results"] == fresh["results"]
    assert all(json.loads(x) for x in cache.read_text().splitlines()[:3])


def test_a_cache_of_another_run_is_refused(tmp_path: Path) -> None:
    lad = _ladder()
    cache = tmp_path / "c.jsonl"
    lad.run("random", "random", seed=3, max_deals=1, cache=cache)
    with pytest.raises(lad.LadderError, match=r"c.jsonl:1: .*another run \(differs in seed\)"):
        lad.run("random", "random", seed=4, max_deals=1, cache=cache)
    cache.write_text("not json\n")
    with pytest.raises(lad.LadderError, match=r"c.jsonl:1: not a ladder cache"):
        lad.run("random", "random", seed=3, max_deals=1, cache=cache)


def test_parallel_workers_give_the_same_report(tmp_path: Path) -> None:
    lad = _ladder()
    one = lad.run("random", "random", seed=5, max_deals=4, workers=1)
    two = lad.run("random", "random", seed=5, max_deals=4, workers=2)
    assert one["results"] == two["results"] and one["win_rate"] == two["win_rate"]


def test_cli_refuses_an_unknown_agent_without_a_traceback(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lad = _ladder()
    assert lad.main(["search:9", "greedy", "--cache", str(tmp_path / "c"), "--json", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "ladder: unknown search level '9'" in err and "Traceback" not in err
