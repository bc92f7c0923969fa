"""The shipped scenarios cover every window id and every rule of rules.md §1-5 and §8 that this
engine implements (each scenario names its rule in `[scenario] rule`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from engine.state import WINDOWS

HERE = Path(__file__).parent / "scenarios"
DATA = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(HERE.rglob("*.scenario.toml"))]

REQUIRED_RULES = [
    "C1K 1.1", "C1K 1.2", "C1K 1.3", "C1K 2.1", "C1K 2.2", "C1K 2.3", "C1K 3.1", "C1K 3.2", "C1K 3.4",
    "C1K 4.1", "C1K 4.2", "C1K 4.3", "C1K 4.4", "C1K 4.5", "C1K 5.1", "C1K 5.2", "C1K 5.3",
    "C1K 6", "C1K 7", "C1K 8", "C1K 10", "OPP Slow", "OPP Fast", "OPP Permissions",
    "RB 1.2", "RB 2.1", "RB 3.1", "RB 3.2", "AS Unit play", "AS Action play", "AS Combat",
    "KW Strike", "KW Tough", "KW Barrier", "KW Overwhelm", "KW Regeneration", "KW Guard", "KW Charge",
    "KW Lifedrain",
]


def test_every_rule_has_a_scenario_named_after_it() -> None:
    rules = {d.get("scenario", {}).get("rule") for d in DATA}
    missing = [r for r in REQUIRED_RULES if r not in rules]
    assert not missing, f"no scenario for {missing}"


def test_every_window_is_visited_by_a_scenario() -> None:
    seen = set()
    for d in DATA:
        seen.add(d.get("scenario", {}).get("window", "main.priority"))
        for step in d.get("step", []):
            w = step.get("expect", {}).get("window")
            if w:
                seen.add(w)
    # turn-based windows with no decision are seen through the log
    logs = " ".join(str(s.get("expect", {}).get("log_contains", "")) for d in DATA for s in d.get("step", []))
    missing = [w for w in WINDOWS if w not in seen and w not in logs]
    assert not missing, f"no scenario stops in or checks {missing}"
