"""`c1k simulate`: the same seeds give the same report whatever the workers or the backend; the
statistics are the textbook ones; bad input gets a message, not a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    diff_interval,
    paired_interval,
    plan,
    resolve_decks,
    run,
    run_job,
    sorted_cards,
    wilson,
)

RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


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
    assert res.exit_code == 2 and "pip install 'c1k[cluster]'" in res.output and "Traceback" not in res.output


@pytest.mark.slow
def test_ray_backend_gives_the_local_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """A local Ray started in this process (the cluster extra: CI installs it; tests/test_ray_cluster.py
    connects through Ray Client). (RAY_AUTH_MODE: a new local Ray would otherwise write a token to
    ~/.ray, which turns authentication on for every Ray head started later on the machine.)"""
    import ray

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")

    from c1k_tui.sim.simulate import RayBackend

    pairs, jobs = _small_plan(matches=1)
    try:
        got = run(pairs, jobs, RayBackend())
    finally:
        ray.shutdown()
    assert got == run(pairs, jobs, InlineBackend())


# ---------------------------------------------------------------- decks by identity (issue #20 item 2)


def _report(args: list[str], tmp_path: Path, name: str) -> dict[str, Any]:
    out = tmp_path / name
    res = RUNNER.invoke(app, ["simulate", *args, "--agent", "random", "--max-turns", "40", "--workers", "1",
                              "--json", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    rep: dict[str, Any] = json.loads(out.read_text())
    return rep


def test_the_order_decks_are_named_in_changes_nothing(tmp_path: Path) -> None:
    """Same seed, decks named in two orders: the same report (only the run's own timing differs)."""
    one = _report(["ironbound", "emberfall", "veil-masquerade", "--matches", "2"], tmp_path, "one.json")
    two = _report(["veil-masquerade", "emberfall", "ironbound", "--matches", "2"], tmp_path, "two.json")
    for rep in (one, two):
        rep.pop("run")
        rep.pop("integrity")    # (its digests cover the run's timing too)
    assert one == two
    # a pair's matches depend on its two decks only: adding a third changes none of them
    alone = _report(["emberfall", "ironbound", "--matches", "2"], tmp_path, "alone.json")
    pair = [(g["seed"], g["p1"], g["winner_deck"], g["turns"]) for g in alone["games"]]
    assert pair == [(g["seed"], g["p1"], g["winner_deck"], g["turns"]) for g in one["games"]
                    if {g["deck_a"], g["deck_b"]} == {"emberfall", "ironbound"}]


def test_two_lists_with_the_same_stem_are_two_rows_labelled_by_path(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    copy = tmp_path / "mine" / "ironbound.toml"
    copy.write_text((ROOT / "decks" / "ironbound.toml").read_text(encoding="utf-8")
                    .replace('"emberlash" = 3', '"emberlash" = 2\n"ashen-skirmisher" = 1'), encoding="utf-8")
    rep = _report(["ironbound", str(copy), "--matches", "2"], tmp_path, "r.json")
    assert sorted(rep["decks"]) == sorted(["ironbound", str(copy)])
    assert len(rep["pairs"]) == 1 and {r["name"] for r in rep["ratings"]} == {"ironbound (random)",
                                                                              f"{copy} (random)"}
    assert rep["decks"]["ironbound"]["digest"] != rep["decks"][str(copy)]["digest"]
    assert {c["deck"] for c in rep["cards"]} == {"ironbound", str(copy)}


def test_every_match_is_a_row_and_replays_from_it(tmp_path: Path) -> None:
    from c1k_tui.sim.simulate import seal_report

    rep = _report(["ironbound", "emberfall", "--matches", "2"], tmp_path, "r.json")
    assert [g["match"] for g in rep["games"]] == [1, 2]
    g = rep["games"][1]
    for k in ("seed", "p1", "p2", "agent_p1", "agent_p2", "winner", "winner_deck", "turns", "termination"):
        assert k in g
    assert {g["p1"], g["p2"]} == {"ironbound", "emberfall"}
    res = RUNNER.invoke(app, ["replay", str(tmp_path / "r.json"), "--match", "2", "--save", str(tmp_path / "m.json")])
    assert res.exit_code == 0, res.output
    assert "every state hash checked" in res.output
    from engine import record as rec

    r = rec.load(tmp_path / "m.json")
    assert r.seed == int(g["seed"]) and r.agents["p1"][0] == g["agent_p1"]
    res = RUNNER.invoke(app, ["replay", str(tmp_path / "r.json"), "--match", "7"])
    assert res.exit_code == 2 and "its matches are numbered 1 to 2" in res.output
    # a report written with other cards than today's (sealed as written) is refused, naming the card
    changed = json.loads(json.dumps(rep))
    card = sorted(changed["card_set"]["digests"])[0]
    changed["card_set"]["digests"][card] = "0" * 16
    (tmp_path / "cards.json").write_text(json.dumps(seal_report(changed)))
    res = RUNNER.invoke(app, ["replay", str(tmp_path / "cards.json"), "--match", "2"])
    assert res.exit_code == 2 and f"card '{card}'" in res.output and "differs" in res.output
    # a report whose match no longer plays as it says (the engine changed since) is refused, with what differs
    rep["games"][1]["turns"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(seal_report(rep)))
    res = RUNNER.invoke(app, ["replay", str(tmp_path / "bad.json"), "--match", "2"])
    assert res.exit_code == 2 and "plays differently now" in res.output and "Traceback" not in res.output


# ---------------------------------------------------------------- card statistics (issue #20 item 4)


def test_card_statistics_add_up() -> None:
    pairs, jobs = _small_plan(matches=4)
    rep = run(pairs, jobs, InlineBackend())
    lists = {e.deck: e.counts for pair in pairs for e in pair}
    for c in rep["cards"]:
        assert c["opening"] <= c["drawn"] <= c["matches"] and c["drawn"] + c["not_drawn"] == c["matches"]
        for rate, ci in (("win_rate_drawn", "ci95_drawn"), ("win_rate_not_drawn", "ci95_not_drawn"),
                         ("win_rate_opening", "ci95_opening"), ("win_rate_played", "ci95_played")):
            if c[rate] is not None:
                assert c[ci][0] <= c[rate] <= c[ci][1]
        if c["iwd"] is not None:
            assert c["iwd"] == pytest.approx(c["win_rate_drawn"] - c["win_rate_not_drawn"], abs=2e-4)
            assert c["ci95_iwd"][0] <= c["iwd"] <= c["ci95_iwd"][1]
    # every card of every list has a row, drawn or not
    for deck, counts in lists.items():
        assert set(counts) <= {c["card"] for c in rep["cards"] if c["deck"] == deck}
        assert all(c["copies"] == counts[c["card"]] for c in rep["cards"] if c["deck"] == deck and c["card"] in counts)


def test_newcombe_interval_textbook_example() -> None:
    """Newcombe (1998), method 10, his example: 56/70 against 48/80 gives 0.0524 to 0.3339."""
    lo, hi = diff_interval(56, 70, 48, 80)
    assert round(lo, 4) == 0.0524 and round(hi, 4) == 0.3339


def test_card_table_sorts_and_limits(tmp_path: Path) -> None:
    rep = _report(["ironbound", "emberfall", "--matches", "4"], tmp_path, "r.json")
    by_drawn = sorted_cards(rep["cards"], "drawn")
    assert [c["drawn"] for c in by_drawn] == sorted((c["drawn"] for c in rep["cards"]), reverse=True)
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--agent", "random", "--matches", "2",
                              "--max-turns", "40", "--workers", "1", "--no-plots", "--top", "3", "--sort", "played",
                              "--csv", str(tmp_path / "r.csv")])
    assert res.exit_code == 0, res.output
    assert "the first 3 of" in res.output and "by played" in res.output
    head = (tmp_path / "r.cards.csv").read_text().splitlines()[0]
    assert head.startswith("deck,agent,card,name,copies,matches,opening") and "iwd,ci95_iwd_low,ci95_iwd_high" in head
    assert (tmp_path / "r.matches.csv").read_text().startswith("match,pair,k,seed")
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--sort", "best", "--quiet"])
    assert res.exit_code == 2 and "unknown --sort 'best'" in res.output


# ---------------------------------------------------------------- A/B (issue #20 item 3)


def test_compare_plays_both_lists_on_the_same_seeds_and_seats(tmp_path: Path) -> None:
    new = tmp_path / "ironbound.toml"
    new.write_text((ROOT / "decks" / "ironbound.toml").read_text(encoding="utf-8")
                   .replace('"tithe-collector" = 1', '"warhorn-captain" = 1')
                   .replace('"riverglass-oracle" = 1', '"field-surgeon" = 1'), encoding="utf-8")
    rep = _report(["--compare", "ironbound", str(new), "--field", "emberfall", "--field", "veil-masquerade",
                   "--matches", "2"], tmp_path, "ab.json")
    cmp = rep["compare"]
    assert cmp["old"] == "ironbound" and cmp["new"] == str(new) and cmp["field"] == ["emberfall", "veil-masquerade"]
    seats = {(g["deck_a"], g["deck_b"], g["k"]): (g["seed"], g["p1"] == g["deck_a"]) for g in rep["games"]}
    for f in cmp["field"]:
        for k in range(2):
            assert seats[("ironbound", f, k)] == seats[(str(new), f, k)]
    assert cmp["paired_matches"] == 4
    assert cmp["diff"] == pytest.approx(cmp["new_vs_field"]["win_rate"] - cmp["old_vs_field"]["win_rate"], abs=1e-3)
    assert cmp["ci95"][0] <= cmp["diff"] <= cmp["ci95"][1]
    moved = [c for c in cmp["cards_moved"] if c["changed"]]
    assert {c["card"] for c in moved} == {"tithe-collector", "riverglass-oracle", "warhorn-captain", "field-surgeon"}
    res = RUNNER.invoke(app, ["simulate", "--compare", "ironbound", "ironbound", "--quiet"])
    assert res.exit_code == 2 and "the same file" in res.output


def test_paired_interval() -> None:
    mean, lo, hi = paired_interval([1.0, 0.0, 0.0, 1.0])
    assert mean == 0.5 and lo < 0.5 < hi
    assert paired_interval([]) == (0.0, -1.0, 1.0)


def test_tables_name_decks_by_their_own_name_and_the_path_only_to_tell_two_apart(tmp_path: Path) -> None:
    """Issue #30 item 3: "Ironbound", not the file stem; two lists both named Ironbound keep their labels."""
    import io

    from rich.console import Console

    from c1k_tui.sim.simulate import deck_names, report_renderables

    def text(rep: dict[str, Any]) -> str:
        console = Console(width=160, record=True, file=io.StringIO())
        for part in report_renderables(rep, top_cards=3, width=160):
            console.print(part)
        return console.export_text()

    rep = _report(["ironbound", "emberfall", "--matches", "1"], tmp_path, "one.json")
    assert deck_names(rep) == {"ironbound": "Ironbound", "emberfall": "Emberfall"}
    shown = text(rep)
    assert "Ironbound" in shown and "Emberfall (random)" in shown and "ironbound" not in shown
    copy = tmp_path / "other" / "ironbound.toml"
    copy.parent.mkdir()
    copy.write_text((ROOT / "decks" / "ironbound.toml").read_text(encoding="utf-8")
                    .replace('"emberlash" = 3', '"emberlash" = 2\n"ashen-skirmisher" = 1'), encoding="utf-8")
    two = _report(["ironbound", str(copy), "--matches", "1"], tmp_path, "two.json")
    assert deck_names(two) == {"ironbound": "Ironbound (ironbound)", str(copy): f"Ironbound ({copy})"}
