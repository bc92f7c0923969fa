"""Issue #29 item 6: in the opponent's combat an agent that blocks and holds a combat trick casts it after
blockers where a player would — when it wins the fight. Each agent decides by itself, from its own
information set: the block, then the trick (the attacker's player passes).

For that the Influence must still be there: the searching levels keep it open in their own Main Phase when
the trick is worth more than what it would buy now (the last test: their rollouts cast a trick in a blocked
fight and no longer spend a held Fast card at random; docs/ai.md, "Tricks in the opponent's combat")."""

from __future__ import annotations

from typing import Any

import pytest

from engine import WINDOWS, Game
from engine.ai import make_agent
from engine.sampling import InfoSet
from engine.scenario import build, find_unit, scenario_from_data
from engine.state import BOARD, COMBAT_POST, GRAVEYARD

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


def _holding(influence: int = 1) -> Game:
    """p2's (the AI's) Main Phase with 1 Influence left: Dampen (Fast, 1: an enemy unit gets -2/-0 this turn)
    or Briar Scout (a 1/1 for 1) in hand. Its 2/2 came this turn (it can't attack); p1's 3/2 faces it. A
    player keeps the 1 Influence open: when the 3/2 attacks into the 2/2, the block and Dampen kill it and
    the 2/2 lives — a trade turned into a won fight, worth more than a 1/1."""
    data: dict[str, Any] = {
        "scenario": {"title": "hold a trick for the opponent's combat", "rule": "AI", "seed": 1, "turn": 4,
                     "active": "p2", "window": "main.priority"},
        "p1": {"library": ["Shade"] * 3, "board": [{"card": "Oathbound Lancer", "as": "lancer"}]},
        "p2": {"library": ["Shade"] * 3, "influence": influence, "hand": ["Dampen", "Briar Scout"],
               "board": [{"card": "Hearthkeeper Novice", "as": "novice", "deployed_this_turn": True}]}}
    return build(scenario_from_data(data, "<test>"))


@pytest.mark.parametrize("spec", ["greedy", "search:2", "search:3"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_trick_is_held_in_its_own_main_phase_and_cast_after_blockers_in_the_opponents(spec: str, seed: int) -> None:
    """Every decision of p2 from its Main Phase to the opponent's combat damage is the AI's own (from its
    information set); p1 passes, and attacks with its 3/2 in its turn. Greedy holds since its evaluation
    counts what a held trick would win (`held_trick`: before, it deployed the 1/1 on every seed)."""
    g = _holding()
    lancer, novice = find_unit(g, "lancer"), find_unit(g, "novice")
    assert lancer is not None and novice is not None
    agent = make_agent(spec, seed)
    first = agent.act(InfoSet(g, AI))
    assert str(first) == "pass", f"{spec} spent its Influence in its own Main Phase: {first}"
    ai_actions: list[str] = []
    while g.outcome is None and g.turn <= 5 and not (g.turn == 5 and g.win >= COMBAT_POST):   # damage dealt
        p = g.current_player()
        if p == AI:
            a = agent.act(InfoSet(g, AI))
            ai_actions.append(str(a))
            g.apply(a, AI)
        elif g.pending.kind == "attackers":
            g.apply_command("p1: attack lancer")
        else:
            g.apply_command("p1: pass")
    assert f"block #{novice} -> #{lancer}" in ai_actions, ai_actions
    assert any(a.startswith("play") and f"target #{lancer}" in a for a in ai_actions), ai_actions
    assert g.zone[lancer] == GRAVEYARD and g.zone[novice] == BOARD    # the fight was won, not traded


GLASS = {"id": "test-glass-cannon", "name": "Test Glass Cannon", "type": "unit", "realm": "neutral", "cost": 3,
         "power": 4, "health": 1}
WALL = {"id": "test-wall", "name": "Test Wall", "type": "unit", "realm": "neutral", "cost": 3, "power": 3,
        "health": 4}


def _cannon_attacks(hand: list[str], influence: int, blockers: list[dict[str, Any]], **p2: Any) -> Game:
    """p1's 4/1 (no keywords) attacks; p2 holds `hand` with `influence` (and `p2`'s other keys: a champion)
    and must declare blockers."""
    data: dict[str, Any] = {
        "scenario": {"title": "a block a trick wins", "rule": "AI", "seed": 1, "turn": 3, "active": "p1",
                     "window": "combat.declare_attackers"},
        "card": [GLASS, WALL],
        "p1": {"library": ["Shade"] * 3, "board": [{"card": "Test Glass Cannon", "as": "attacker"}]},
        "p2": {"library": ["Shade"] * 3, "influence": influence, "hand": hand, "board": blockers, **p2}}
    g = build(scenario_from_data(data, "<test>"))
    for cmd in ("p1: attack attacker", "p1: pass", "p2: pass"):
        g.apply_command(cmd)
    assert g.pending.kind == "blockers"
    return g


def test_the_rollouts_block_in_a_fight_only_the_held_trick_wins_then_cast_it() -> None:
    """The heuristic block (the rollouts' and greedy's play-out's) doesn't trade its 3/4 for a 4/1 — but with
    Dampen (-2/-0, 1 Influence) in hand and paid for the 3/4 kills it and lives, so it blocks; after blockers
    the rollout policy casts Dampen on the attacker."""
    from engine.ai import heuristic_block, rollout_policy
    from engine.rng import SplitMix64

    wall = [{"card": "Test Wall", "as": "blocker"}]
    assert str(heuristic_block(_cannon_attacks(["Dampen"], 0, wall))) == "block none"
    g = _cannon_attacks(["Dampen"], 1, wall)
    blocker, attacker = find_unit(g, "blocker"), find_unit(g, "attacker")
    assert blocker is not None and attacker is not None
    block = heuristic_block(g)
    assert str(block) == f"block #{blocker} -> #{attacker}"
    g.apply(block, AI)
    g.apply_command("p1: pass")
    trick = rollout_policy(SplitMix64(7))(g)
    assert str(trick) == f"play #{find_unit(g, 'Dampen')} target #{attacker}", trick
    g.apply(trick, AI)
    while WINDOWS[g.win] != "combat.exit" and g.outcome is None:
        g.apply_command(f"p{g.current_player() + 1}: pass")
    assert g.zone[attacker] == GRAVEYARD and g.zone[blocker] == BOARD


def _main_phase(board: list[dict[str, Any]]) -> Game:
    """p2's Main Phase, 1 Influence, Dampen in hand and `board`; p1's 4/1 faces it."""
    data: dict[str, Any] = {
        "scenario": {"title": "what a held trick is worth", "rule": "AI", "seed": 1, "turn": 4, "active": "p2",
                     "window": "main.priority"},
        "card": [GLASS, WALL],
        "p1": {"library": ["Shade"] * 3, "board": [{"card": "Test Glass Cannon", "as": "cannon"}]},
        "p2": {"library": ["Shade"] * 3, "influence": 1, "hand": ["Dampen"], "board": board}}
    return build(scenario_from_data(data, "<test>"))


def test_a_held_trick_is_worth_the_fight_it_turns_and_nothing_where_guard_blocks_first() -> None:
    """In its own Main Phase p2's Dampen with the Influence for it is worth half the 4/1 it would kill when
    its 3/4 blocks (the attack may not come), on top of any Fast card's option value. KW Guard: while a Guard
    unit is ready and not blocking no other unit blocks — with a 0/2 Guard beside the 3/4, the fight Dampen
    turns can't happen, and holding it is worth only the option."""
    from engine.ai import FAST_HELD, held_fast_value, held_trick, unit_value

    g = _main_phase([{"card": "Test Wall", "as": "wall"}])
    cannon = find_unit(g, "cannon")
    assert cannon is not None
    assert held_trick(g, AI, 1) == (unit_value(g, cannon) // 2, 1)
    assert held_fast_value(g, AI) == FAST_HELD + unit_value(g, cannon) // 2
    assert held_trick(g, AI, 0) == (0, 0)                # not paid for
    guarded = _main_phase([{"card": "Test Wall", "as": "wall"}, {"card": "Hushling", "as": "guard"}])
    guard = find_unit(guarded, "guard")
    assert guard is not None and guarded.keyword(guard, "guard") is not None
    assert held_trick(guarded, AI, 1) == (0, 0)
    assert held_fast_value(guarded, AI) == FAST_HELD


def test_what_a_card_does_to_a_fight() -> None:
    """`trick_shifts` reads a Fast card's effects: a friendly pump (its health only when it lasts: damage
    stays past the turn), an enemy debuff, damage, a Thread's branches; a Slow card, a heal or a counter is
    no combat trick."""
    from engine.ai import BARRIER, act_shifts, trick_shifts
    from engine.cards import load_card_db

    db = load_card_db()
    shifts = {n: trick_shifts(db.lookup(n)) for n in ("Dampen", "Forward, March!", "Stitch the Moment", "Emberlash",
                                                       "War Chant of the Legions", "Flanking Maneuver", "Mending Word",
                                                       "Swallowed Word", "Arrow Storm", "Briar Scout", "Shelter of Wings")}
    assert shifts == {
        "Dampen": ((0, 0, -2, 0),), "Forward, March!": ((2, 0, 0, 0),), "Stitch the Moment": ((2, 0, 0, 0),),
        "Emberlash": ((0, 0, 0, -2),), "War Chant of the Legions": ((1, 0, 0, 0),),
        "Flanking Maneuver": ((1, 0, 0, -2),), "Mending Word": (), "Swallowed Word": (), "Arrow Storm": (),
        "Briar Scout": (), "Shelter of Wings": ((0, BARRIER, 0, 0),)}
    # activated abilities that are tricks: a Fast Barrier (Aldric's, the Chalice's); a Slow one is none
    acts = {n: [(a.cost, i, sh) for a, i, sh in act_shifts(db.lookup(n))]
            for n in ("Aldric Stonevow", "Chalice of Quiet Mercy", "Kaela Emberbrand", "Cinder Reliquary", "Dampen")}
    assert acts == {"Aldric Stonevow": [(2, 0, ((0, BARRIER, 0, 0),))],
                    "Chalice of Quiet Mercy": [(1, 1, ((0, BARRIER, 0, 0),))],
                    "Kaela Emberbrand": [], "Cinder Reliquary": [], "Dampen": []}


@pytest.mark.parametrize("source", ["Shelter of Wings", "Aldric Stonevow"])
def test_a_barrier_held_or_on_the_champion_is_a_trick_the_block_and_the_rollouts_use(source: str) -> None:
    """A Barrier is a combat trick too: the 3/4 trades with the 4/1 (each kills the other), so the heuristic
    block doesn't block it — with Shelter of Wings in hand (Fast, 2) or Aldric Stonevow as its Champion
    (2 Influence, Fast: a friendly unit gets Barrier) and 2 Influence it blocks, and the rollout policy then
    gives the 3/4 the Barrier: the 4/1 dies, the 3/4 lives. With 1 Influence, no block."""
    from engine.ai import heuristic_block, rollout_policy
    from engine.rng import SplitMix64

    hand, extra = ([source], {}) if source == "Shelter of Wings" else ([], {"champion": source})
    wall = [{"card": "Test Wall", "as": "blocker"}]
    assert str(heuristic_block(_cannon_attacks(hand, 1, wall, **extra))) == "block none"
    g = _cannon_attacks(hand, 2, wall, **extra)
    blocker, attacker = find_unit(g, "blocker"), find_unit(g, "attacker")
    assert blocker is not None and attacker is not None
    block = heuristic_block(g)
    assert str(block) == f"block #{blocker} -> #{attacker}"
    g.apply(block, AI)
    g.apply_command("p1: pass")
    trick = rollout_policy(SplitMix64(7))(g)
    assert str(trick).startswith("play" if hand else "activate") and str(trick).endswith(f"target #{blocker}"), trick
    g.apply(trick, AI)
    while WINDOWS[g.win] != "combat.exit" and g.outcome is None:
        g.apply_command(f"p{g.current_player() + 1}: pass")
    assert g.zone[attacker] == GRAVEYARD and g.zone[blocker] == BOARD


def test_the_bench_counts_a_window_where_a_trick_wins_the_fight_and_not_one_where_passing_does_as_well() -> None:
    """bench/tricks.py's `winning_plays` (the measure of "where a player would"): after blockers, a Fast play
    wins when, played out by `reply_policy` on the true game, it kills an attacker or keeps a blocker that
    passing would not. A 2/3 blocking a 2/4: Forward, March! (+2/+0) kills the 2/4, passing kills nothing —
    it counts. A 3/4 blocking a 4/1 trades; Forward, March! there still trades (the 4/1 dies either way and
the 3/4 takes 4), so it wins nothing — where Dampen (−2/−0) would keep the 3/4 alive."""
    from tests.helpers import bench_module

    tricks = bench_module("tricks.py", "tricks_tool")
    g = _attacked("Quietude Sentinel", "Balm-Bearer Zealot", ["Forward, March!"])
    for cmd in ("p2: block blocker -> attacker", "p1: pass"):
        g.apply_command(cmd)
    plays = [a for a in g.legal_actions() if str(a).startswith("play")]
    assert len(plays) == 1 and tricks.winning_plays(g, AI) == plays
    for hand, wins in ((["Forward, March!"], False), (["Dampen"], True)):
        wall = _cannon_attacks(hand, 1, [{"card": "Test Wall", "as": "blocker"}])
        for cmd in ("p2: block blocker -> attacker", "p1: pass"):
            wall.apply_command(cmd)
        plays = [a for a in wall.legal_actions() if str(a).startswith("play")]
        assert plays                                                          # castable
        assert tricks.winning_plays(wall, AI) == (plays if wins else []), hand
    # `winnable_kept`: the Influence spent before the window (0 left of a capacity of 1) would have paid for it
    spent = _cannon_attacks(["Dampen"], 0, [{"card": "Test Wall", "as": "blocker"}], capacity=1)
    for cmd in ("p2: block blocker -> attacker", "p1: pass"):
        spent.apply_command(cmd)
    assert tricks.winning_plays(spent, AI) == [] and tricks.winnable_kept(spent, AI)
    assert not tricks.winnable_kept(wall, AI)               # it has its Influence: nothing was spent
