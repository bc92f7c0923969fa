"""An AI seat's stops (issue #20 item 7, rules.md §7a): an AI playing a human is asked where a human with
the AI's stops would be — a human's defaults plus the opponent's combat exit and end of turn — so it can
answer at Fast speed at the end of your turn; the stops are a fixed public set, and the human's own stops
are untouched."""

from __future__ import annotations

from c1k_tui.model.paths import DEFAULT_STOPS
from c1k_tui.model.seats import AI_STOPS
from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession
from engine import (
    WINDOWS,
    Attack,
    Block,
    CardDB,
    Decline,
    MatchOptions,
    Pass,
    Play,
    SplitMix64,
    find_deck,
    load_card_db,
    load_deck,
    random_action,
)


def _session(db: CardDB) -> VersusSession:
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    return VersusSession.new_vs(db, decks, 7, MatchOptions(max_turns=6), {1: "random"}, flow=Flow("stops"))


def _asked_in_the_humans_turns(s: VersusSession) -> set[str]:
    """Play the match (the human and the AI both pass or declare nothing); the windows of the human's turns
    where the AI seat was asked."""
    asked: set[str] = set()
    for _ in range(3000):
        s.run_autos()
        g = s.game
        if g.is_terminal():
            break
        p = g.current_player()
        if p == 1 and g.active == 0:
            asked.add(WINDOWS[g.win])
        acts = g.legal_actions()
        simple = [a for a in acts if isinstance(a, Pass | Decline) or a in (Attack(()), Block(()))]
        s.send(simple[0] if simple else acts[0], p)
    return asked


def test_an_ai_seat_has_the_ai_stops_and_the_human_keeps_theirs() -> None:
    s = _session(load_card_db())
    assert s.flow.stops["p2"] == list(AI_STOPS) and s.flow.stops["p1"] == list(DEFAULT_STOPS)
    assert set(DEFAULT_STOPS) < set(AI_STOPS) and {"opp:combat.exit", "opp:end.final"} <= set(AI_STOPS)
    s.set_flow(Flow("stops"))            # changing the flow options keeps the AI's stops
    assert s.flow.stops["p2"] == list(AI_STOPS)


def test_the_ai_is_asked_at_the_end_of_the_humans_turn() -> None:
    db = load_card_db()
    assert "end.final" in _asked_in_the_humans_turns(_session(db))
    before = _session(db)                 # with a human's stops (the AI before issue #20): never there
    before.flow.stops["p2"] = list(DEFAULT_STOPS)
    assert "end.final" not in _asked_in_the_humans_turns(before)


def test_the_ai_is_asked_after_blockers_in_the_humans_combat_and_in_response_to_the_human() -> None:
    """Where an answer at Fast speed gains something, the AI seat is asked: after blockers in the human's
    combat (a trick that saves its blocker), when the human has something on the stack or just acted, at
    the end of the human's combat and of their turn."""
    db = load_card_db()
    s = _session(db)
    s.game.options = MatchOptions(max_turns=12)
    rng = SplitMix64(3)
    asked: set[str] = set()
    for _ in range(4000):
        s.run_autos()
        g = s.game
        if g.is_terminal():
            break
        p = g.current_player()
        if p == 1 and g.active == 0 and g.decision.kind == "priority":
            asked.add(WINDOWS[g.win] + (" (stack)" if g.stack else ""))
        if p == 0:        # the human: attacks with all it may, plays what it can, otherwise random
            acts = g.legal_actions()
            plays = [a for a in acts if isinstance(a, Play)]
            a = plays[0] if plays else random_action(g, rng)
            if g.decision.kind == "attackers":
                a = max((x for x in acts if isinstance(x, Attack)), key=lambda x: len(x.units))
        else:
            acts = g.legal_actions()
            simple = [a for a in acts if isinstance(a, Pass | Decline) or a in (Attack(()), Block(()))]
            a = simple[0] if simple else acts[0]
        s.send(a, p)
    assert {"combat.declare_blockers", "combat.exit", "end.final", "main.priority (stack)"} <= asked, asked
