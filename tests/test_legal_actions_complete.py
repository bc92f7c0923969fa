"""legal_actions skips candidates by cheap checks before the full refusal (engine/options.py): every
skip must be one the refusal would make. Checked against the plain definition — every card's play
options and every ability through the full refusal checks, nothing skipped — in mid-match positions of
every bundled deck pair, and every listed action legal (why_not is None)."""

from __future__ import annotations

import itertools

from engine.actions import Action, Activate, Pass, SetCard
from engine.cards import load_card_db
from engine.decks import bundled_deck_paths, load_deck
from engine.game import Game
from engine.legality import activate_refusal, set_refusal
from engine.options import play_options
from engine.rng import SplitMix64, derive_seed
from engine.selfplay import random_action
from engine.targets import choice_slots, target_combos

DB = load_card_db()
DECKS = [load_deck(p, DB) for p in bundled_deck_paths()]


def plain_priority_actions(g: Game) -> list[Action]:
    """The priority actions by definition, in legal_actions' order, with no cheap filter."""
    p = g.current_player()
    ps = g.players[p]
    out: list[Action] = [Pass()]
    for cid in (ps.hand + ps.graveyard if ps.permits else ps.hand):
        out += play_options(g, cid, p, voidcast=True) if g.card(cid).voidcast is not None else []
        out += play_options(g, cid, p)
    for cid in ps.set_cards:
        out += play_options(g, cid, p)
    for cid in ps.hand:
        if set_refusal(g, SetCard(cid), p) is None:
            out.append(SetCard(cid))
    for cid in itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)):
        if not cid:
            continue
        for n, (_, ab) in enumerate(g.card(cid).act, 1):
            if activate_refusal(g, Activate(cid, n), p, check_targets=False) is None:
                out += [Activate(cid, n, ts) for ts in target_combos(g, choice_slots(g, ab.effect), p, cid)]
    return out


def test_legal_actions_skip_only_what_the_rules_refuse() -> None:
    checked = 0
    for i in range(2 * len(DECKS)):
        seed = derive_seed(77, i)
        g = Game.new(DB, DECKS[i % len(DECKS)], DECKS[(i * 5 + 2) % len(DECKS)], seed)
        agent = SplitMix64(seed)
        while not g.is_terminal() and g.turn <= 14:
            listed = g.legal_actions()
            if g.decision.kind == "priority":
                assert listed == plain_priority_actions(g), (seed, g.turn, g.window)
                checked += 1
            assert all(g.why_not(a) is None for a in listed[:40]), (seed, g.turn, g.window)
            g.apply(random_action(g, agent))
    assert checked > 500
