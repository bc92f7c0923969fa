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
    assert all(getattr(h, name) is getattr(c, name) for name in MatchState._FIELDS)
    assert h.state_hash() == g.state_hash()
