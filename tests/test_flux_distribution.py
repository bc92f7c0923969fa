"""Flux (rules.md §6, §7): one outcome at random, drawn from the match's StateSeed generator.

A position with one Flux card of 4 outcomes is resolved for 1,000 different seeds:
- the same seed always gives the same outcome (determinism, RB §4);
- the outcomes are uniform: the counts pass a chi-square goodness-of-fit test at p > 0.001
  (statistic computed by hand; 3 degrees of freedom, critical value 16.27 at p = 0.001).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import load_card_db
from engine.scenario import build, scenario_from_data

N_SEEDS = 1000
OUTCOMES = 4
CHI2_CRITICAL_3DF_P001 = 16.27

DB = load_card_db()


def _data(seed: int) -> dict[str, Any]:
    """Outcome k (1..4) deals k damage to the enemy Champion, so p2's life tells which one happened."""
    return {
        "scenario": {"title": "one Flux card of 4 outcomes", "rule": "KW Flux", "seed": seed, "turn": 3,
                     "active": "p1", "window": "main.priority"},
        "card": [{
            "id": "t-fate-dice", "name": "Fate Dice", "type": "action", "realm": "paradox", "cost": 1,
            "speed": "fast", "keywords": ["flux"],
            "text": "Flux — one at random: deal 1, 2, 3 or 4 damage to the enemy Champion.",
            "effect": [{"do": "flux", "outcomes": [
                [{"do": "damage", "amount": k, "target": "enemy_champion"}] for k in range(1, OUTCOMES + 1)
            ]}],
        }],
        "p1": {"influence": 1, "hand": ["Fate Dice"]},
        "p2": {"life": 20},
    }


def flux_outcome(seed: int) -> int:
    """Play the Flux card with this StateSeed and return the outcome that happened (1..4)."""
    g = build(scenario_from_data(_data(seed), f"<flux seed {seed}>", DB))
    g.apply_command('p1: play "Fate Dice"')
    assert [it.name for it in g.stack_view()] == ["Fate Dice"]
    g.apply_command("p2: pass")
    assert g.stack_view() == [], "the Flux card resolved"
    assert g.pending.kind == "priority"
    k = 20 - g.players[1].life
    assert 1 <= k <= OUTCOMES, f"seed {seed}: p2 lost {k} life, not one of the outcomes"
    assert f"outcome {k} of {OUTCOMES}" in "\n".join(g.log_lines), "the outcome is logged"
    return k


@pytest.fixture(scope="module")
def outcomes() -> dict[int, int]:
    return {seed: flux_outcome(seed) for seed in range(1, N_SEEDS + 1)}


def test_same_seed_same_outcome(outcomes: dict[int, int]) -> None:
    for seed, k in outcomes.items():
        assert flux_outcome(seed) == k, f"seed {seed} gave two different outcomes"


def test_outcomes_are_uniform_chi_square(outcomes: dict[int, int]) -> None:
    counts = [0] * OUTCOMES
    for k in outcomes.values():
        counts[k - 1] += 1
    assert sum(counts) == N_SEEDS
    assert all(c > 0 for c in counts), f"an outcome never happened: {counts}"
    expected = N_SEEDS / OUTCOMES
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < CHI2_CRITICAL_3DF_P001, (
        f"outcome counts {counts} are not uniform: chi-square {chi2:.2f} >= {CHI2_CRITICAL_3DF_P001} "
        "(3 degrees of freedom, p = 0.001)"
    )


def test_different_seeds_give_different_outcomes(outcomes: dict[int, int]) -> None:
    # the seed matters: the 1,000 seeds don't all give one outcome (also implied by the chi-square test)
    assert len(set(outcomes.values())) == OUTCOMES
