"""The AI at instant speed (issue #20 item 7): its evaluation counts a "this turn" buff only while it can
still matter and gives a Fast card kept with the Influence to cast it a value while the opponent's windows
are ahead, so greedy keeps a combat trick for combat, answers after blockers in the opponent's turn, and
spends what it held at the opponent's end of turn instead of letting the Influence go unused."""

from __future__ import annotations

from typing import Any

from engine import WINDOWS, Game, Pass, Play
from engine.ai import FAST_HELD, GreedyAgent, evaluate, held_fast_value, lasting_unit_value, unit_value
from engine.sampling import InfoSet
from engine.scenario import build, find_unit, scenario_from_data

AI = 1    # p2


def _position(active: str, window: str, p1: dict[str, Any], p2: dict[str, Any]) -> Game:
    data = {"scenario": {"title": "instant speed", "rule": "AI", "seed": 1, "turn": 3, "active": active,
                         "window": window},
            "p1": {"library": ["Shade"] * 3, **p1}, "p2": {"library": ["Shade"] * 3, **p2}}
    return build(scenario_from_data(data, "<test>"))


def _decisions(g: Game, seeds: int = 4) -> list[str]:
    assert g.current_player() == AI
    return [str(GreedyAgent(s).act(InfoSet(g, AI))) for s in range(seeds)]


SENTINEL = {"board": [{"card": "Quietude Sentinel", "as": "sentinel"}]}     # a 2/4


def _sentry(hand: list[str], influence: int = 2) -> dict[str, Any]:
    return {"influence": influence, "hand": hand, "board": [{"card": "Stone Sentry", "as": "sentry"}]}  # 1/2


def test_a_combat_trick_is_kept_in_its_own_main_phase() -> None:
    g = _position("p2", "main.priority", SENTINEL, _sentry(["Shelter of Wings"]))
    assert any(isinstance(a, Play) for a in g.legal_actions())
    assert _decisions(g) == [str(Pass())] * 4


def test_a_this_turn_buff_of_the_whole_board_is_not_wasted_in_its_own_main_phase() -> None:
    """+1/+1 to two units this turn looks worth more than the card and the option of holding it — unless
    the evaluation sees that it ends before any combat it could win."""
    sentries = {"influence": 3, "hand": ["War Chant of the Legions"],
                "board": [{"card": "Stone Sentry", "as": "a"}, {"card": "Stone Sentry", "as": "b"}]}
    g = _position("p2", "main.priority", SENTINEL, sentries)
    assert any(isinstance(a, Play) for a in g.legal_actions())
    assert _decisions(g) == [str(Pass())] * 4


def test_a_combat_trick_saves_a_blocker_after_blockers_in_the_opponents_turn() -> None:
    g = _position("p1", "combat.declare_attackers", SENTINEL, _sentry(["Shelter of Wings"]))
    for cmd in ("p1: attack sentinel", "p1: pass", "p2: pass", "p2: block sentry -> sentinel", "p1: pass"):
        g.apply_command(cmd)
    assert WINDOWS[g.win] == "combat.declare_blockers"
    sentry = find_unit(g, "sentry")
    assert all(d.startswith("play") and f"#{sentry}" in d for d in _decisions(g))


def test_a_held_fast_card_is_spent_at_the_end_of_the_opponents_turn() -> None:
    """2 damage to a 2/4 is worth a card, no more: kept while the opponent's turn is ahead, cast in its
    final window (the Influence would refill unused)."""
    hand = _sentry(["Emberlash"], influence=1)
    g = _position("p2", "main.priority", SENTINEL, hand)
    assert _decisions(g) == [str(Pass())] * 4
    g = _position("p1", "end.final", SENTINEL, hand)
    g.apply_command("p1: pass")
    assert WINDOWS[g.win] == "end.final" and g.current_player() == AI
    assert all(d.startswith("play") for d in _decisions(g))


def test_a_this_turn_buff_is_worth_nothing_once_combat_is_over() -> None:
    g = _position("p2", "main.priority", SENTINEL, _sentry(["Shelter of Wings"]))
    sentry = find_unit(g, "sentry")
    assert sentry is not None
    before = lasting_unit_value(g, sentry)
    g.perms[sentry].temp_health = 2
    g.perms[sentry].temp_power = 2
    assert lasting_unit_value(g, sentry) == before < unit_value(g, sentry)
    g.perms[sentry].damage = 3             # lives only by the buff: dies at cleanup
    assert lasting_unit_value(g, sentry) == 0 < unit_value(g, sentry)


def test_a_held_fast_card_counts_only_while_its_influence_lasts_into_the_opponents_windows() -> None:
    hand = _sentry(["Emberlash", "Emberlash", "Tide of Recall", "Oathsworn Squire"], influence=3)
    g = _position("p2", "main.priority", SENTINEL, hand)
    assert held_fast_value(g, AI) == 2 * FAST_HELD       # 1 + 1 paid, then 2 more is too much; a Unit never
    g.players[AI].influence = 0
    assert held_fast_value(g, AI) == 0
    g = _position("p1", "main.priority", SENTINEL, hand)        # the opponent's turn: still ahead
    assert held_fast_value(g, AI) == 2 * FAST_HELD
    g.win = WINDOWS.index("end.final")                          # their last window: nothing is ahead
    assert held_fast_value(g, AI) == 0
    g = _position("p2", "draw.post", SENTINEL, hand)            # own turn before the refill: nothing held
    assert held_fast_value(g, AI) == 0


def test_the_evaluation_stays_zero_sum() -> None:
    g = _position("p1", "main.priority", SENTINEL, _sentry(["Emberlash", "Shelter of Wings"]))
    assert evaluate(g, 0) == -evaluate(g, 1) != 0
