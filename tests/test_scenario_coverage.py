"""The shipped scenarios cover every window id and every rule of docs/rules.md — each id its headings
give (each scenario names its rule in `[scenario] rule`)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from engine.state import WINDOWS

HERE = Path(__file__).parent / "scenarios"
DATA = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(HERE.rglob("*.scenario.toml"))]

#: every rule of docs/rules.md, read from its section headings (`### \`C1K 4.3\` Combat damage`): a rule
#: added there needs a scenario named after it
REQUIRED_RULES = [m.group(1) for m in re.finditer(r"^#{2,4}\s+`([^`]+)`",
                                                 (HERE.parent.parent / "docs" / "rules.md").read_text(encoding="utf-8"),
                                                 re.M)]


def test_every_rule_has_a_scenario_named_after_it() -> None:
    rules = {d.get("scenario", {}).get("rule") for d in DATA}
    missing = [r for r in REQUIRED_RULES if r not in rules]
    assert len(REQUIRED_RULES) > 60 and not missing, f"no scenario for {missing}"


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
