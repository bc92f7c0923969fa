"""Every shipped scenario (tests/scenarios/**/*.scenario.toml) must pass: rules are tested as scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cards import load_card_db
from engine.scenario import load_scenario, run

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.rglob("*.scenario.toml"))
DB = load_card_db()


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_scenario(path: Path) -> None:
    result = run(load_scenario(path, DB))
    assert result.ok, f"{path.name}: {result.message}"
