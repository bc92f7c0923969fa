"""bench/suite_costs.py's report (issue #32 item 11: find what grew): per-file sums of every test's CPU,
subprocess CPU and wall time, and against an earlier run, what grew and which dear tests are new."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import suite_costs  # noqa: E402


def _run(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"args": ["-m", "not slow"], "wall": 9.0, "cpu": 8.0, "rows": rows, "summary": suite_costs.summarise(rows)}


def _row(nodeid: str, cpu: float, child: float = 0.0, wall: float = 0.0) -> dict[str, Any]:
    return {"id": nodeid, "cpu": cpu, "child": child, "wall": wall or cpu + child}


def test_files_sum_their_tests_and_the_dearest_come_first() -> None:
    run = _run([_row("tests/a.py::one", 1.0), _row("tests/a.py::two", 0.5, 2.0), _row("tests/b.py::three", 0.25)])
    s = run["summary"]
    assert s["tests"] == 3 and s["cpu"] == 1.75 and s["child"] == 2.0
    assert s["files"]["tests/a.py"] == {"tests": 2, "cpu": 1.5, "child": 2.0, "wall": 3.5}
    text = suite_costs.report(run, 10, None)
    assert text.index("| tests/a.py | 2 | 1.5 | 2.0 | 3.5 |") < text.index("| tests/b.py |")
    assert text.index("2.50  tests/a.py::two") < text.index("1.00  tests/a.py::one")


def test_against_an_earlier_run_shows_what_grew_and_which_tests_are_new() -> None:
    then = _run([_row("tests/a.py::one", 1.0), _row("tests/b.py::three", 0.25)])
    now = _run([_row("tests/a.py::one", 3.0), _row("tests/b.py::three", 0.25), _row("tests/b.py::four", 2.0)])
    text = suite_costs.report(now, 10, then)
    assert "| tests/a.py | 1 | 3.0 | 0.0 | 3.0 | 1.0 | +2.0 |" in text
    assert "| tests/b.py | 2 | 2.2 | 0.0 | 2.2 | 0.2 | +2.0 |" in text
    assert "tests/b.py::four  (new)" in text and "tests/a.py::one  (new)" not in text
