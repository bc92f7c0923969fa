"""Hot-seat hiding: what reaches the widgets for one player never holds the other's hand or library."""

from __future__ import annotations

from c1k_tui.model.session import reveal_reason
from c1k_tui.model.view import log_for, match_view
from engine import events_for
from engine.cards import CardDB
from tests.tui.conftest import flow_data, session_from


def _private_ids(g, p: int) -> list[int]:  # type: ignore[no-untyped-def]
    return list(g.players[p].hand) + list(g.players[p].library)


def test_the_view_of_one_player_holds_nothing_private_of_the_other(db: CardDB) -> None:
    g = session_from(db, flow_data()).game
    for viewer in (0, 1):
        v = match_view(g, viewer)
        text = repr(v)
        other = 1 - viewer
        assert v.top_hand is None and v.top.hand_size == len(g.players[other].hand)
        for cid in _private_ids(g, other):
            assert f"cid={cid}," not in text and f"#{cid} " not in text, cid
        assert [c.cid for c in v.hand] == g.players[viewer].hand
        # a library's order is never shown, even to its owner: only its size
        assert v.bottom.library == len(g.players[viewer].library)
        for cid in g.players[viewer].library:
            assert f"cid={cid}," not in text
    opened = match_view(g, 0, open_hands=True)
    assert opened.top_hand is not None and [c.cid for c in opened.top_hand] == g.players[1].hand


def test_a_refused_command_is_redacted_for_the_other_player(db: CardDB) -> None:
    s = session_from(db, flow_data())
    g = s.game
    s.send("pass")
    recruit = next(c for c in g.players[1].hand if g.card(c).name == "Test Recruit")
    out = s.send(f"play #{recruit}")                    # Slow in the opponent's turn: refused (C1K 10)
    assert not out.ok and out.rule == "OPP Slow"
    refused = next(e for e in g.events if e.kind == "refusal")
    assert f"#{recruit}" in refused.text and refused.private_to == 1 and refused.rule == "OPP Slow"
    seen_by_p1 = log_for(g, 0, False)
    assert not any(f"#{recruit}" in x for x in seen_by_p1)
    assert any("p2 tried an action not allowed now (OPP Slow)" in x for x in seen_by_p1)
    assert not any(f"#{recruit}" in e.text for e in events_for(g, 0))
    assert any(f"#{recruit}" in x for x in log_for(g, 1, False))
    assert any(f"#{recruit}" in x for x in log_for(g, 0, True))   # open hands: everything


def test_undo_rule_sees_draws_plays_and_randomness(db: CardDB) -> None:
    g = session_from(db, flow_data()).game
    a = g.clone()
    a.apply_command("pass")
    assert reveal_reason(g, a) is None
    b = g.clone()
    b.apply_command('play "Test Recruit" slot 2')
    assert reveal_reason(g, b) == "a card left a hand (it is now seen)"
