"""Fair hiding (issue 8 item 2, rules.md §7a): with hands hidden, whether and when the keyboard is handed
over depends only on public facts. Two matches with the same public history but different hidden hands
show the same sequence of hand-off screens, word for word — in the learning flow too, where every window
entered is shown (issue 11 item 5), and there also p1's own Recap tab reads the same whatever p2 holds."""

from __future__ import annotations

from typing import Any

import pytest

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.handoff_screen import HandoffScreen
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


_SEEN: dict[tuple[tuple[str, ...], str, int], list[str]] = {}


def handoff_sequence(db: CardDB, hand: list[str], flow: str = "stops", turns: int = 5) -> list[str]:
    key = (tuple(hand), flow, turns)
    if key not in _SEEN:
        _SEEN[key] = _handoff_sequence(db, hand, flow, turns)
    return _SEEN[key]


def _handoff_sequence(db: CardDB, hand: list[str], flow: str, turns: int) -> list[str]:
    """Play the same public history (p1 plays an Action, attacks; p2 never uses a card) and return every
    hand-off screen's full text, in order."""
    app = C1KApp(db=db, session=session_from(db, _data(hand), flow=flow))
    app.match.pace_ms = 1                       # the learning flow steps through passed windows: quickly here
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
            if g.is_terminal() or g.turn >= turns:
                break
            while app.pacing:
                await pilot.pause(0.01)
            if isinstance(app.screen, HandoffScreen):
                seen.append(f"T{g.turn} {g.window}: " + " / ".join(str(w.render()) for w in app.screen.query("Static")))
                await pilot.press("enter")
                await pilot.pause()
                continue
            if app.screen is not app.match_screen:
                app.screen.dismiss(None)          # a prompt: the driver answers by command instead
                await pilot.pause()
            if app.viewer == 0 and app.match_screen is not None:
                seen.append(f"p1's Recap tab: {app.match_screen.recap_text.plain}")   # p1's own view
            app.send(command(g))
            await pilot.pause()
        assert app.game.turn >= turns, f"the scripted match did not reach turn {turns}"

    run_app(app, body)
    return seen


@pytest.mark.parametrize("hand", HANDS[:1] + HANDS[2:], ids=lambda h: "+".join(h))
def test_same_public_history_same_handoffs(db: CardDB, hand: list[str]) -> None:
    base = handoff_sequence(db, HANDS[1])
    assert len(base) >= 4
    assert handoff_sequence(db, hand) == base


def test_the_learning_flow_is_fair_too(db: CardDB) -> None:
    base = handoff_sequence(db, HANDS[1], "learning", turns=6)
    assert sum("Since" in x for x in base) >= 4 and any("nothing happened" in x for x in base)
    assert any("draw.draw (C1K 1.2)" in x for x in base)          # the windows with no decision shown too
    for hand in HANDS[:1] + HANDS[2:]:
        assert handoff_sequence(db, hand, "learning", turns=6) == base


@pytest.mark.slow
def test_full_control_is_fair_too(db: CardDB) -> None:
    assert handoff_sequence(db, HANDS[0], "full") == handoff_sequence(db, HANDS[1], "full")
