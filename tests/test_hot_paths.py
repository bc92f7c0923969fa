"""What keeps the engine's hot paths fast under CPython's specializing interpreter (docs/performance.md,
"Engine speed against a baseline"): the match state has slots, not an instance dict."""

from __future__ import annotations

from engine.cards import load_card_db
from engine.core import MatchState
from engine.decks import find_deck, load_deck
from engine.game import Game

DB = load_card_db()


def test_the_match_state_has_slots_and_restore_and_clone_set_every_one() -> None:
    """With more than 30 attributes in an instance dict, CPython 3.11 gives each instance a dict of its
    own and can't specialize a method call on it (g.log, g.keyword … — 3.5% of an action). Every field
    is a slot (a Game adds none), and a clone and a restore set every one."""
    g = Game.new(DB, load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB), 7)
    assert not hasattr(g, "__dict__") and Game.__slots__ == ()
    for _ in range(40):
        g.apply(g.legal_actions()[-1])
    c = g.clone()
    assert all(hasattr(c, name) for name in MatchState._FIELDS)
    h = Game.new(DB, load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB), 8)
    h.restore(c)
    assert all(getattr(h, name) is getattr(c, name) for name in MatchState._FIELDS if name != "_may_memo")
    assert h._may_memo == c._may_memo and h._may_memo is not c._may_memo
    assert h.state_hash() == g.state_hash()


def test_the_hottest_functions_make_no_cells_and_no_comprehension_functions() -> None:
    """A comprehension is a function of its own in CPython 3.11: made on every call of the function
    around it, each name it takes from there a cell made on every call (PyCell_New) and read through
    LOAD_DEREF — 2.5% of an action in these (docs/performance.md). The functions run for most
    actions have neither (a rare case goes to a helper)."""
    from engine import commands, options, priority, sba, targets, triggers, turn
    hot = [turn.goto, turn.next_window, turn.open_priority, commands.apply, commands.listed, commands._pass,
           commands._vouched, options._priority_actions,
           options._plays, options._may_act, options._may_act_scan, priority.do_pass, sba.sba_quiet,
           triggers.answering, triggers.fire, targets.target_candidates]
    for fn in hot:
        code = fn.__code__
        assert not code.co_cellvars, f"{fn.__qualname__}: cells {code.co_cellvars}"
        inner = [c.co_name for c in code.co_consts if hasattr(c, "co_code")]
        assert not inner, f"{fn.__qualname__}: makes {inner} on every call"


DECKS = ["ironbound", "emberfall", "genesis-grove", "paradox-flux", "null-silence", "solace-haven",
         "veil-masquerade", "ruin-blight", "dominion-vanguard", "ruin-genesis-cycle", "solace-null-wardens"]


def test_the_remembered_first_filter_is_never_stale() -> None:
    """options._may_act remembers its answer per player while the Influence, Slow speed and the numbers
    in the hand and in play stay the same (MatchState._may_memo). At every decision of random matches
    over every starter deck (Evolve among them), before each action, the remembered answer is the one
    a fresh look gives — and it is used."""
    from engine import options
    from engine.rng import SplitMix64, derive_seed
    from engine.state import MAIN, MatchOptions

    used = asked = 0
    for i, a in enumerate(DECKS):
        b = DECKS[(i + 4) % len(DECKS)]
        for k in range(2):
            seed = derive_seed(90 + i, k)
            g = Game.new(DB, load_deck(find_deck(a), DB), load_deck(find_deck(b), DB), seed,
                         MatchOptions(max_turns=40))
            agent = SplitMix64(seed)
            while not g.is_terminal():
                d = g.pending
                if d.kind == "priority":
                    p = d.player
                    ps = g.players[p]
                    slow_ok = p == g.active and g.win == MAIN and not g.stack
                    fresh = options._may_act_scan(g, ps, ps.influence, slow_ok)
                    before = g._may_memo[p]
                    assert options._may_act(g, p, slow_ok) == fresh or ps.set_cards or ps.permits, \
                        f"{a} vs {b} seed {seed}, turn {g.turn} {g.window}: a stale first filter"
                    asked += 1
                    used += before is not None and g._may_memo[p] is before
                if k % 2 and g.pass_if_forced():
                    agent.below(1)
                    continue
                acts = g.legal_actions()
                g.apply(acts[agent.below(len(acts))])
    assert used > asked // 3, "the memo is used (else this test checks nothing)"


def test_evolve_makes_the_remembered_first_filter_look_again() -> None:
    """Evolve changes a card's definition in place, under the same number: the hand, the Influence and
    the numbers in play stay as they were. p1's Egg (no ability) evolves, while p1 only watches, into a
    Hatchling with a Fast ability p1 can pay for: p1's next decision lists it."""
    from engine.actions import Activate
    from engine.scenario import build, scenario_from_data

    egg = {"id": "t-egg", "name": "Egg", "type": "unit", "cost": 1, "power": 1, "health": 3,
           "keywords": ["evolve"], "evolve": {"into": "t-hatchling", "power": 2}}
    hatchling = {"id": "t-hatchling", "name": "Hatchling", "type": "unit", "cost": 1, "power": 2, "health": 3,
                 "abilities": [{"activate": {"cost": 1, "speed": "fast"}, "effect": [{"do": "draw", "amount": 1}]}]}
    vigor = {"id": "t-vigor", "name": "Vigor", "type": "action", "cost": 1, "speed": "fast",
             "effect": [{"do": "buff", "power": 1, "until": "permanent", "target": "enemy_unit"}]}
    data = {"scenario": {"window": "main.priority", "turn": 4, "active": "p2"},
            "card": [egg, hatchling, vigor],
            "p1": {"influence": 1, "library": ["Egg"], "board": [{"card": "Egg", "as": "egg", "slot": 1}]},
            "p2": {"influence": 1, "hand": ["Vigor"], "library": ["Egg"]}}
    g = build(scenario_from_data(data, "<test>", DB))
    g.apply_command("p2: play Vigor target egg")
    assert g.legal_actions() == [g.legal_actions()[0]]        # p1: pass only (the Egg has no ability)
    g.apply_command("p1: pass")                              # Vigor resolves: the Egg evolves
    g.apply_command("p2: pass")
    assert g.current_player() == 0 and g.card(g.aliases["egg"]).name == "Hatchling"
    assert any(isinstance(a, Activate) for a in g.legal_actions())
