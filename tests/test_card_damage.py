"""Issue #30 item 4: per-card damage and Influence efficiency in the card statistics (`c1k simulate`, the
Lab): each card's damage to Champions and to units, per play and per Influence paid for it, from the
match's typed damage events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from c1k_tui.cli.main import app
from c1k_tui.sim.jobs import damage_by_card, influence_paid
from engine import Pass, Play
from engine.cards import load_card_db
from engine.scenario import build, scenario_from_data
from tests.tui.conftest import flow_data

RUNNER = CliRunner()


def test_a_bolt_counts_its_damage_to_a_unit_and_the_influence_paid_for_it() -> None:
    """p1 plays Test Bolt (cost 1: 2 damage to a unit) on p2's Test Wall: the bolt dealt 2 to a unit,
    none to a Champion, and cost 1 — what the engine took from p1's Influence."""
    data = flow_data()
    data["p1"]["hand"] = ["Test Bolt"]
    g = build(scenario_from_data(data, "<test>", load_card_db()))
    wall = next(u for u in g.players[1].board if u)
    bolt = next(a for a in g.legal_actions() if isinstance(a, Play) and a.targets == (wall,))
    before = g.players[0].influence
    assert influence_paid(g, 0, bolt) == ("test-bolt", 1)
    g.apply(bolt, 0)
    assert g.players[0].influence == before - 1
    while g.stack:                                # both pass: the bolt resolves
        g.apply(Pass(), g.current_player())
    assert damage_by_card(g) == ({"test-bolt": [0, 2]}, {})
    assert influence_paid(g, g.current_player(), Pass()) is None


def _report(tmp_path: Path, width: int) -> tuple[dict[str, Any], str]:
    out = tmp_path / "r.json"
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--agent", "greedy", "--matches", "4",
                              "--workers", "1", "--no-plots", "--sort", "damage", "--json", str(out)],
                        env={"COLUMNS": str(width)}, terminal_width=width)
    assert res.exit_code == 0, res.output
    return json.loads(out.read_text(encoding="utf-8")), res.output


def test_the_card_rows_carry_damage_per_play_and_per_influence(tmp_path: Path) -> None:
    rep, shown = _report(tmp_path, 120)
    rows = rep["cards"]
    assert sum(c["damage_champions"] for c in rows) > 0 and sum(c["damage_units"] for c in rows) > 0
    for c in rows:
        total = c["damage_champions"] + c["damage_units"]
        assert c["damage_per_play"] == (round(total / c["plays"], 2) if c["plays"] else None)
        assert c["damage_per_influence"] == (round(total / c["influence_spent"], 2) if c["influence_spent"] else None)
    # a played unit or action paid for itself: at least its cost per play (Set cards pay 1, free plays 0)
    played = [c for c in rows if c["plays"]]
    assert played and all(c["influence_spent"] > 0 for c in played if c["card"] != "the-coin")
    # the table at 120 columns shows both ratios, sorted by damage per play
    assert "dmg/play" in shown and "dmg/Inf" in shown
    best = max(rows, key=lambda c: c["damage_per_play"] or 0)
    assert f"{best['damage_per_play']:.2f}" in shown
    assert "dmg/play" not in _report(tmp_path, 100)[1]      # narrower: in the JSON and CSV only
    head = (tmp_path / "r.cards.csv")
    res = RUNNER.invoke(app, ["simulate", "ironbound", "emberfall", "--agent", "greedy", "--matches", "2",
                              "--workers", "1", "--quiet", "--csv", str(head)])
    assert res.exit_code == 0, res.output
    assert "damage_per_play" in (tmp_path / "r.cards.cards.csv").read_text().splitlines()[0]
