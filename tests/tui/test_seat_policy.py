"""The AI seat's policy as plain functions (c1k_tui/model/seats.py; rules.md §7a): an AI playing a human is
asked where a human in its seat would be asked with hands hidden, on public facts only, with a fixed public
set of stops. Two matches that differ only in the AI's hidden cards give the human the same decisions to
watch: the flow passes for the AI at the same places and asks it at the same places."""

from __future__ import annotations

import pytest

from c1k_tui.model.paths import DEFAULT_STOPS
from c1k_tui.model.seats import AI_STOPS, fair_action, give_ai_stops
from c1k_tui.model.session import Flow
from engine import WINDOWS, Action, Attack, Block, Decline, Game, MatchOptions, Pass, events_for
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.rng import SplitMix64
from engine.selfplay import random_action

DB = load_card_db()
AI = 1          # the AI's seat; seat 0 is the human


def _match(seed: int) -> Game:
    decks = [load_deck(find_deck("ironbound"), DB), load_deck(find_deck("emberfall"), DB)]
    g = Game.new(DB, decks[0], decks[1], seed, MatchOptions(max_turns=8))
    g.players[AI].hand_size = 99     # the AI, which only passes, never discards a card and so shows none
    return g


def _ai_twin(g: Game) -> Game:
    """The same match for the human, but the AI's hand and library dealt differently (the human's cards,
    their library order and the generator untouched)."""
    t = g.clone()
    ps = t.players[AI]
    ids = sorted(ps.library + ps.hand)
    defs = [t.defs[c] for c in ids]
    defs = defs[1:] + defs[:1]              # rotate: each hidden id of the AI becomes another card
    for c, d in zip(ids, defs, strict=True):
        t.defs[c] = d
    return t


def _ai_answer(g: Game) -> Action:
    """The agent's answer where the flow asks it: the simplest, so that the public history is the same
    in both twins (the test is of the flow, not of the agent)."""
    acts = g.legal_actions()
    simple = [a for a in acts if isinstance(a, Pass | Decline) or a in (Attack(()), Block(()))]
    return simple[0] if simple else acts[0]


def flow_decisions(g: Game, seed: int, steps: int = 4000) -> tuple[list[str], list[str]]:
    """Play the match: the human by a seeded random policy (their own cards and the board only), the AI
    by `fair_action` and, where it asks, the simplest answer. Returns the flow's decision for the AI at
    each of its decision points (where it was asked, or what was sent for it) and the human's log."""
    flow = Flow("stops")
    give_ai_stops(flow, [AI])
    rng = SplitMix64(seed)
    seen: list[str] = []
    for _ in range(steps):
        if g.is_terminal():
            break
        p = g.current_player()
        if p != AI:
            g.apply(random_action(g, rng), p)
            continue
        sent = fair_action(g, flow)
        seen.append(f"t{g.turn} {WINDOWS[g.win]} {g.decision.kind}: "
                    + ("asked" if sent is None else f"sent {type(sent).__name__}"))
        g.apply(sent if sent is not None else _ai_answer(g), p)
    return seen, [e.text for e in events_for(g, 1 - AI)]


@pytest.mark.parametrize("seed", [5, 11, 23])
def test_two_hidden_ai_hands_with_the_same_public_history_get_the_same_flow_decisions(seed: int) -> None:
    a = _match(seed)
    b = _ai_twin(a)
    assert [a.card(c).id for c in a.players[AI].hand] != [b.card(c).id for c in b.players[AI].hand]
    seen_a, log_a = flow_decisions(a, seed)
    seen_b, log_b = flow_decisions(b, seed)
    assert log_a == log_b                            # the same public history …
    assert len(seen_a) >= 30 and any(d.endswith("asked") for d in seen_a) and any("sent" in d for d in seen_a)
    assert seen_a == seen_b                          # … the same flow decisions for both AI hands


def test_ai_stops_are_a_humans_defaults_plus_the_opponents_combat_exit_and_end_of_turn() -> None:
    assert AI_STOPS == (*DEFAULT_STOPS, "opp:combat.exit", "opp:end.final")
    flow = Flow("stops")
    flow.stops["p1"] = ["main.priority"]
    give_ai_stops(flow, [AI])
    assert flow.stops == {"p1": ["main.priority"], "p2": list(AI_STOPS)}    # the human keeps their own
    give_ai_stops(flow, [AI])
    assert flow.stops["p2"] == list(AI_STOPS)
