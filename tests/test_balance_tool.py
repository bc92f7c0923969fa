"""bench/balance.py's report: each deck against the field, and whether its 95% interval (not only its
point estimate) lies inside 40–60% — the target of issue #10 item 5."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import bench_module


def _balance() -> Any:
    return bench_module("balance.py", "balance_tool")


def _pair(a: str, b: str, wins_a: int, m: int) -> dict[str, Any]:
    return {"deck_a": a, "deck_b": b, "agent_a": "search:1", "agent_b": "search:1", "matches": m,
            "wins_a": wins_a, "wins_b": m - wins_a, "draws": 0}


def test_report_marks_point_and_interval(capsys: pytest.CaptureFixture[str]) -> None:
    bal = _balance()
    # x beats y 220 of 400 (55%: interval 50.1–59.8, inside); z: 200 of 400 against each (50%)
    # — and w: 48 of 80 (60% point, interval far wider than the band allows)
    report = {"pairs": [_pair("x", "y", 220, 400), _pair("x", "z", 200, 400), _pair("y", "z", 200, 400),
                        _pair("w", "x", 48, 80)],
              "matches": 1280, "first_player": {"win_rate": 0.6, "ci95": [0.55, 0.65]}, "avg_turns": 20}
    decks, rows, _ = bal.field_table(report)
    assert decks == ["x", "y", "z", "w"]
    assert rows["x"]["matches"] == 880 and rows["x"]["points"] == 220 + 200 + 32
    bal.print_report(report, markdown=True)
    out = capsys.readouterr().out
    lines = {ln.split(" | ")[0].strip("| "): ln for ln in out.splitlines() if ln.startswith("| ") and "%" in ln}
    assert lines["w"].endswith("| yes | no |")        # 60.0% is in the band; [49.0–70.1] is not
    assert lines["z"].endswith("| yes | yes |")
    lo, hi = rows["z"]["ci95"]
    assert 0.4 <= lo < 0.5 < hi <= 0.6
    assert "4 of 4 point estimates in 40–60%; 3 of 4 shown inside it by their 95% interval" in out
