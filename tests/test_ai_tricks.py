"""Issue #29 item 6: in the opponent's combat an agent that blocks and holds a combat trick casts it after
blockers where a player would — when it wins the fight. Each agent decides by itself, from its own
information set: the block, then the trick (the attacker's player passes).

What keeps the agents from doing so in AI-vs-AI play is not this decision but the Influence: they spend it
in their own turn (docs/ai.md, "Tricks in the opponent's combat")."""

from __future__ import annotations

from typing import Any

import pytest

from engine import WINDOWS, Game
from engine.ai import make_agent
from engine.sampling import InfoSet
from engine.scenario import build, find_unit, scenario_from_data
from engine.state import BOARD, GRAVEYARD

AI = 1          # p2 defends
AGENTS = ("greedy", "search:1", "search:2")


def _attacked(attacker: str, blocker: str, hand: list[str], influence: int = 0) -> Game:
    """p1 has attacked with `attacker`; p2 (the AI) holds `hand` and has `blocker` ready to block."""
    data: dict[str, Any] = {
        "scenario": {"title": "a trick after blockers", "rule": "AI", "seed": 1, "turn": 3, "active": "p1",
                     "window": "combat.declare_attackers"},
        "p1": {"library": ["Shade"] * 3, "board": [{"card": attacker, "as": "attacker"}]},
        "p2": {"library": ["Shade"] * 3, "influence": influence, "hand": hand,
               "board": [{"card": blocker, "as": "blocker"}]}}
    g = build(scenario_from_data(data, "<test>"))
    for cmd in ("p1: attack attacker", "p1: pass", "p2: pass"):
        g.apply_command(cmd)
    return g


def _defend(g: Game, spec: str, seed: int) -> list[str]:
    """The AI declares its block, p1 passes after blockers, then the AI acts: its two decisions."""
    agent = make_agent(spec, seed)
    assert g.pending.kind == "blockers" and g.current_player() == AI
    block = agent.act(InfoSet(g, AI))
    g.apply(block, AI)
    g.apply_command("p1: pass")
    assert WINDOWS[g.win] == "combat.declare_blockers" and g.current_player() == AI
    answer = agent.act(InfoSet(g, AI))
    return [str(block), str(answer)]


@pytest.mark.parametrize("spec", AGENTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_a_pump_that_wins_the_fight_is_cast_after_blockers(spec: str, seed: int) -> None:
    # a 2/4 attacks a 2/3: blocked, neither dies; with Forward, March! (+2/+0) the blocker kills it and lives
    g = _attacked("Quietude Sentinel", "Balm-Bearer Zealot", ["Forward, March!"])
    blocker, attacker = find_unit(g, "blocker"), find_unit(g, "attacker")
    assert blocker is not None and attacker is not None
    block, answer = _defend(g, spec, seed)
    assert block == f"block #{blocker} -> #{attacker}"
    assert answer.startswith("play") and f"target #{blocker}" in answer, answer
    g.apply_command(answer.replace("play", "p2: play", 1))
    turn = g.turn
    while g.turn == turn and WINDOWS[g.win] != "combat.exit" and g.outcome is None:
        g.apply_command(f"p{g.current_player() + 1}: pass")   # the trick resolves, combat damage is dealt
    assert g.zone[attacker] == GRAVEYARD and g.zone[blocker] == BOARD   # the attacker died, the blocker lives
