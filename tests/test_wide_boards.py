"""Wide boards (a Seat with 12 unit slots): legal_actions lists a bounded prefix of the declarations and
answers, in the engine's fixed order, every listed one legal (issue 10: no query explodes with slots)."""

from __future__ import annotations

from engine import zones
from engine.actions import Attack, Choose
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.options import ATTACK_LIST_CAP, CHOICE_LIST_CAP
from engine.state import END_CLEANUP, HAND, MatchOptions

DB = load_card_db()
DECK = load_deck(find_deck("ironbound"), DB)


def _pass_until(g: Game, kind: str) -> None:
    while g.pending.kind != kind:
        acts = g.legal_actions()
        g.apply(next((a for a in acts if str(a) in ("pass", "decline")), acts[0]))


def _twelve_ready_units(p: int) -> Game:
    g = Game.new(DB, DECK, DECK, 41, MatchOptions(max_turns=200))
    ps = g.players[p]
    ps.board = [0] * 12   # (as a Seat with unit_slots = 12, the most a Seat may give)
    units = [c for c in ps.library if g.card(c).type == "unit"]
    while len(units) < 12:
        c = g.new_card(g.card(units[len(units) % 5]), p, 0)
        ps.library.append(c)
        units.append(c)
    for i, c in enumerate(units[:12]):
        ps.library.remove(c)
        zones.enter_play(g, c, p, i, summoned=True)
        g.perms[c].entered_turn = -5
    return g


def test_twelve_attackers_list_the_smallest_attacks_first_up_to_the_cap() -> None:
    """2^12 = 4096 attack declarations: the first ATTACK_LIST_CAP in order (none, each unit alone, pairs …)."""
    g = _twelve_ready_units(0)
    _pass_until(g, "attackers")
    listed = g.legal_actions()
    units = tuple(g.players[0].units())
    assert len(units) == 12 and len(listed) == ATTACK_LIST_CAP
    assert listed[0] == Attack(()) and listed[1:13] == [Attack((u,)) for u in units]
    assert all(isinstance(a, Attack) and len(a.units) <= 4 for a in listed)
    assert all(g.why_not(a, 0) is None for a in listed[::31])
    assert g.why_not(Attack(units), 0) is None   # not listed, still legal


def test_discarding_twelve_of_twenty_lists_a_prefix_of_the_answers() -> None:
    """C1K 5.2: discard down to hand size. C(20, 12) = 125,970 answers or more: the first CHOICE_LIST_CAP."""
    g = _twelve_ready_units(1)
    _pass_until(g, "attackers")
    g.apply(Attack(()))
    ps = g.players[0]
    while len(ps.hand) < 20:
        c = ps.library.pop(0)
        ps.hand.append(c)
        g.zone[c] = HAND
    _pass_until(g, "choice")
    assert g.win == END_CLEANUP
    n, k = len(ps.hand), len(ps.hand) - ps.hand_size
    assert n >= 20 and k >= 12
    listed = g.legal_actions()
    assert len(listed) == CHOICE_LIST_CAP and listed[0] == Choose(tuple(range(1, k + 1)))
    assert all(g.why_not(a, 0) is None for a in listed[::37])
    assert g.why_not(Choose(tuple(range(n - k + 1, n + 1))), 0) is None
