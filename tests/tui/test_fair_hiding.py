"""Fair hiding (issue 8 item 2, rules.md §7a): with hands hidden, whether and when the keyboard is handed
over depends only on public facts. Two matches with the same public history but different hidden hands
show the same sequence of hand-off screens, word for word."""

from __future__ import annotations

from typing import Any

import pytest

from c1k_tui.app import C1KApp
from c1k_tui.screens import HandoffScreen
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from

#: p2's hidden hand in each match: a usable Fast card and a Nullify; nothing usable; a Fast card; a Nullify
HANDS = (["Emberlash", "Swallowed Word"], ["Test Recruit", "Test Wall"], ["Test Bolt", "Test Recruit"],
         ["Swallowed Word", "Test Recruit"])


def _data(hand: list[str]) -> dict[str, Any]:
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Recruit"]
    data["p2"]["hand"] = hand
    data["p2"]["influence"] = 3
    return data


_SEEN: dict[tuple[tuple[str, ...], str], list[str]] = {}


def handoff_sequence(db: CardDB, hand: list[str], flow: str = "stops") -> list[str]:
    key = (tuple(hand), flow)
    if key not in _SEEN:
        _SEEN[key] = _handoff_sequence(db, hand, flow)
    return _SEEN[key]


def _handoff_sequence(db: CardDB, hand: list[str], flow: str) -> list[str]:
    """Play the same public history (p1 plays an Action, attacks; p2 never uses a card) and return every
    hand-off screen's full text, in order."""
    app = C1KApp(db=db, session=session_from(db, _data(hand), flow=flow))
    seen: list[str] = []
    played = [False]

    def command(g: Any) -> str:
        d = g.decision
        p = g.current_player()
        if d.kind == "interrupt":
            return "decline"
        if d.kind == "choice":
            return "choose 1"
        if d.kind == "attackers":
            return f"attack #{g.players[0].units()[0]}" if p == 0 else "attack none"
        if d.kind == "blockers":
            return "block none"
        if p == 0 and g.window == "main.priority" and not g.stack and not played[0]:
            played[0] = True
            return 'play "Test Favor"'
        return "pass"

    async def body(pilot: Any) -> None:
        for _ in range(200):
            g = app.game
            if g.is_terminal() or g.turn >= 5:
                break
            if isinstance(app.screen, HandoffScreen):
                seen.append(f"T{g.turn} {g.window}: " + " / ".join(str(w.render()) for w in app.screen.query("Static")))
                await pilot.press("enter")
                await pilot.pause()
                continue
            if app.screen is not app.match_screen:
                app.screen.dismiss(None)          # a prompt: the driver answers by command instead
                await pilot.pause()
            app.send(command(g))
            await pilot.pause()
        assert app.game.turn >= 5, "the scripted match did not reach turn 5"

    run_app(app, body)
    return seen


@pytest.mark.parametrize("hand", HANDS[:1] + HANDS[2:], ids=lambda h: "+".join(h))
def test_same_public_history_same_handoffs(db: CardDB, hand: list[str]) -> None:
    base = handoff_sequence(db, HANDS[1])
    assert len(base) >= 4
    assert handoff_sequence(db, hand) == base


@pytest.mark.slow
def test_full_control_is_fair_too(db: CardDB) -> None:
    assert handoff_sequence(db, HANDS[0], "full") == handoff_sequence(db, HANDS[1], "full")
