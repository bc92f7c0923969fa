"""C1K 4.2 in the app: pairing a blocker onto an attacker it can't block says the rule and the reason
(an attacker already blocked, a Veiled attacker), as a refused command would, and sends nothing."""

from __future__ import annotations

from typing import Any

from c1k_tui.screens.app import C1KApp
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


def _blockers_app(db: CardDB) -> C1KApp:
    data = flow_data()
    data["scenario"]["window"] = "combat.declare_attackers"
    data["p1"]["board"] = [{"card": "Test Knight", "as": "knight", "slot": 1},
                           {"card": "Test Recruit", "as": "recruit", "slot": 2, "status": ["veiled"]}]
    data["p2"]["board"] = [{"card": "Test Wall", "as": "wall", "slot": 1},
                           {"card": "Test Recruit", "as": "guard2", "slot": 2}]
    s = session_from(db, data, open_hands=True)
    assert s.send("p1: attack knight recruit").ok
    while s.game.decision.kind != "blockers":
        assert s.send("pass").ok
    return C1KApp(db=db, session=s)


def test_c1k_4_2_pairing_onto_an_already_blocked_attacker_gives_the_rule_and_the_reason(db: CardDB) -> None:
    app = _blockers_app(db)

    async def body(pilot: Any) -> None:
        g = app.game
        screen = app.match_screen
        assert screen is not None
        ids = {g.card(c).name: c for c in sorted(g.defs) if g.exists(c) and g.in_play(c)}
        knight, wall = ids["Test Knight"], ids["Test Wall"]
        guard2 = next(c for c in sorted(g.defs) if g.exists(c) and g.in_play(c) and g.owner[c] == 1
                      and g.card(c).name == "Test Recruit")
        recruit = next(c for c in sorted(g.defs) if g.exists(c) and g.in_play(c) and g.owner[c] == 0
                       and g.card(c).name == "Test Recruit")
        n = len(g.record)
        screen._block_select(wall)
        screen._block_select(knight)            # the Wall blocks the Knight
        screen._block_select(guard2)
        screen._block_select(knight)            # a second blocker onto the Knight
        said = str(screen.status)
        assert f"#{guard2}" in said and f"#{knight}" in said and "(C1K 4.2" in said.replace("[b]", "")
        assert f"at most one unit, and #{wall} already blocks it" in said
        screen._block_select(recruit)           # the Recruit is Veiled: only Veiled units block it
        said = str(screen.status).replace("[b]", "").replace("[/b]", "")
        assert "Test Recruit is Veiled: only Veiled units can block it (KW Veiled)" in said
        assert len(g.record) == n and screen.refusal_rule == "KW Veiled"

    run_app(app, body)
