"""`c1k simulate`: the same seeds give the same report whatever the workers or the backend; the
statistics are the textbook ones; bad input gets a message, not a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.sim.simulate import (
    Entry,
    InlineBackend,
    Job,
    JobResult,
    LocalBackend,
    bradley_terry,
    plan,
    resolve_decks,
    run,
    run_job,
    wilson,
)

RUNNER = CliRunner()


@dataclass
class ReversedBackend:
    """A stand-in for a cluster: runs the jobs in another order (results arrive out of order)."""

    name: str = "reversed"

    def run(self, jobs: Sequence[Job], done: Callable[[JobResult], None]) -> None:
        for j in reversed(jobs):
            done(run_job(j))


def _small_plan(agent: str = "random", opponent: str = "random",
                matches: int = 3) -> tuple[list[tuple[Entry, Entry]], list[Job]]:
    decks = resolve_decks(["ironbound", "emberfall", "veil-masquerade"], False)
    return plan(decks, agent, opponent, matches, seed=7, max_turns=60)


def test_plan_pairs_and_seeds() -> None:
    pairs, jobs = _small_plan()
    assert len(pairs) == 3 and len(jobs) == 9
    assert [j.a_first for j in jobs[:3]] == [True, False, True]
    assert len({j.seed for j in jobs}) == 9
    pairs2, _ = _small_plan("greedy", "random", 1)
    assert len(pairs2) == 9            # every deck with greedy against every deck with random
    assert {(a.agent, b.agent) for a, b in pairs2} == {("greedy", "random")}


def test_same_seeds_same_results_whatever_the_workers_and_order() -> None:
    pairs, jobs = _small_plan(matches=2)
    one = run(pairs, jobs, InlineBackend())
    two = run(pairs, jobs, LocalBackend(2))
    rev = run(pairs, jobs, ReversedBackend())
    assert one == two == rev
    assert sum(p["matches"] for p in one["pairs"]) == 6
    other = run(*plan(resolve_decks(["ironbound", "emberfall"], False), "random", "random", 2, 8, 60),
                InlineBackend())
    assert other != one


def test_report_fields() -> None:
    pairs, jobs = _small_plan(matches=2)
    rep = run(pairs, jobs, InlineBackend())
    p = rep["pairs"][0]
    for k in ("deck_a", "deck_b", "agent_a", "agent_b", "matches", "wins_a", "wins_b", "draws", "win_rate_a",
              "ci95_a"):
        assert k in p
    assert p["wins_a"] + p["wins_b"] + p["draws"] == p["matches"]
    assert p["ci95_a"][0] <= p["win_rate_a"] <= p["ci95_a"][1]
    assert {r["name"] for r in rep["ratings"]} == {"ironbound (random)", "emberfall (random)",
                                                  "veil-masquerade (random)"}
    c = rep["cards"][0]
    assert c["name"] and c["name"] != c["card"]
    assert 0 <= c["played"] <= c["matches"] and 0 <= c["drawn_pct"] <= 100
    # a card is played only if it was in hand first (drawn), except cards played from elsewhere
    assert any(c["drawn"] for c in rep["cards"])


def test_wilson_interval() -> None:
    lo, hi = wilson(5, 10)
    assert round(lo, 4) == 0.2366 and round(hi, 4) == 0.7634
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and round(lo, 4) == 0.7225
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry() -> None:
    even = bradley_terry(["a", "b"], {(0, 1): (5.0, 10)})
    assert all(abs(r["rating"]) < 1e-6 for r in even)
    strong = bradley_terry(["a", "b", "c"], {(0, 1): (9.0, 10), (0, 2): (9.0, 10), (1, 2): (5.0, 10)})
    assert strong[0]["name"] == "a" and strong[0]["rating"] > 200
    assert strong[0]["ci95"][0] < strong[0]["rating"] < strong[0]["ci95"][1]
    # a perfect record stays finite (one virtual draw per pair)
    perfect = bradley_terry(["a", "b"], {(0, 1): (10.0, 10)})
    assert 0 < perfect[0]["rating"] < 1000


def test_cli_writes_json_and_csv(tmp_path: Path) -> None:
    out, csv_out = tmp_path / "r.json", tmp_path / "r.csv"
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--agent", "random", "--matches", "2",
                              "--workers", "1", "--max-turns", "40", "--json", str(out), "--csv", str(csv_out),
                              "--quiet"])
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text())
    assert rep["pairs"][0]["matches"] == 2 and rep["run"]["seed"] == 1
    assert csv_out.read_text().startswith("deck_a,deck_b,agent_a,agent_b,matches")
    assert (tmp_path / "r.cards.csv").exists()


@pytest.mark.parametrize(("args", "msg"), [
    (["ironbound", "emberfall", "--agent", "grandmaster"], "unknown agent"),
    (["ironbound", "no-such-deck"], "no-such-deck"),
    (["ironbound"], "at least two decks"),
    (["ironbound", "emberfall", "--matches", "0"], "--matches"),
    (["ironbound", "emberfall", "--backend", "cloud"], "unknown backend"),
])
def test_cli_bad_input_is_a_message(args: list[str], msg: str) -> None:
    res = RUNNER.invoke(app, ["simulate", *args, "--quiet"])
    assert res.exit_code == 2
    assert msg in res.output and "Traceback" not in res.output


def test_ray_backend_without_ray_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)    # import ray -> ImportError
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--backend", "ray", "--matches", "1",
                              "--quiet"])
    assert res.exit_code == 2 and "pip install -e '.[cluster]'" in res.output and "Traceback" not in res.output


@pytest.mark.slow
def test_ray_backend_gives_the_local_results() -> None:
    """Runs only where the optional extra is installed (pip install -e '.[cluster]'): a local Ray."""
    ray = pytest.importorskip("ray")
    from c1k_tui.sim.simulate import RayBackend

    pairs, jobs = _small_plan(matches=1)
    try:
        got = run(pairs, jobs, RayBackend())
    finally:
        ray.shutdown()
    assert got == run(pairs, jobs, InlineBackend())
