"""Terminal plots of `c1k simulate` (plotext): win rate against the field and ratings, each with its 95%
interval drawn as │──●──│ on one row per deck."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.sim.simulate import field_rates, interval_plot, report_plots

# plotext is a dependency (pyproject.toml); an environment installed before it was skips these tests
pytest.importorskip("plotext")
runner = CliRunner()


def _report() -> dict[str, Any]:
    pair = {"deck_a": "ironbound", "deck_b": "emberfall", "agent_a": "greedy", "agent_b": "greedy",
            "matches": 10, "wins_a": 7, "wins_b": 2, "draws": 1, "win_rate_a": 0.75, "ci95_a": [0.47, 0.91]}
    pair2 = {**pair, "deck_b": "veil-masquerade", "wins_a": 5, "wins_b": 5, "draws": 0}
    ratings = [{"name": "ironbound", "rating": 120.0, "ci95": [40.0, 200.0]},
               {"name": "emberfall", "rating": -80.0, "ci95": [-160.0, 0.0]},
               {"name": "veil-masquerade", "rating": -40.0, "ci95": [-120.0, 40.0]}]
    return {"pairs": [pair, pair2], "ratings": ratings}


def test_field_rates_count_every_match_of_a_deck_and_draws_as_half() -> None:
    rows = {r["name"]: r for r in field_rates(_report())}
    assert rows["ironbound"]["matches"] == 20 and rows["ironbound"]["win_rate"] == round(12.5 / 20, 4)
    assert rows["emberfall"]["win_rate"] == 0.25 and rows["veil-masquerade"]["win_rate"] == 0.5
    lo, hi = rows["ironbound"]["ci95"]
    assert lo < rows["ironbound"]["win_rate"] < hi
    assert [r["name"] for r in field_rates(_report())][0] == "ironbound"     # best first


def test_an_interval_plot_has_a_row_per_label_with_its_interval() -> None:
    text = interval_plot("T", [("alpha", 50.0, 30.0, 70.0), ("beta", 20.0, 10.0, 40.0)], width=60,
                         ref=50.0, xlim=(0.0, 100.0), color=False)
    lines = text.splitlines()
    assert "\x1b[" not in text
    for label in ("alpha", "beta"):
        row = next(x for x in lines if label in x)
        assert row.count("●") == 1 and row.count("│") >= 2
    # alpha's point sits right of beta's (50 vs 20 on the same axis)
    a = next(x for x in lines if "alpha" in x)
    b = next(x for x in lines if "beta" in x)
    assert a.index("●") > b.index("●")


def test_report_plots_win_rates_and_ratings() -> None:
    win, rat = report_plots(_report(), 80, color=False)
    assert "Win rate vs the field" in win and "Ratings" in rat
    for name in ("ironbound", "emberfall", "veil-masquerade"):
        assert name in win and name in rat
    assert report_plots({"pairs": [], "ratings": []}) == []


def test_simulate_prints_the_plots_unless_told_not_to() -> None:
    args = ["simulate", "ironbound", "emberfall", "--agent", "random", "--matches", "2", "--workers", "1",
            "--max-turns", "4"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Win rate vs the field" in res.output and "Ratings (Bradley" in res.output and "●" in res.output
    res = runner.invoke(app, [*args, "--no-plots"])
    assert res.exit_code == 0 and "●" not in res.output


def test_without_plotext_simulate_says_so_instead_of_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "plotext", None)          # import plotext -> ImportError
    res = runner.invoke(app, ["simulate", "ironbound", "emberfall", "--agent", "random", "--matches", "1",
                              "--workers", "1", "--max-turns", "3"])
    assert res.exit_code == 0 and "no plots: plotext is not installed" in res.output
