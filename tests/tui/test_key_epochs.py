"""One guard and leaving (tui.md round 3, issue #27 items 1 and 5), in the app: a key acts only on a screen
its player has seen for 0.5 s — the turn banner's table, a hand-off's table, the game-over screen — and a
key on its way when a screen is dismissed never reaches the screen beneath; ctrl+q asks before it ends a
match and says how to come back; the banner names whose turn it is. Keys are posted with the time they
were pressed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from c1k_tui.model.builders import StartChoice, new_session
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.turn_screen import TurnScreen
from engine.cards import CardDB
from tests.tui.conftest import current_screen, flow_data, press_at, run_app, session_from


@pytest.fixture(autouse=True)
def _guard_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.5)



def _text(app: C1KApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]



async def _pass_until(app: C1KApp, pilot: Any, banner: type) -> None:
    """Pass (and take every hand-off) without keys until `banner` is the screen shown."""
    for _ in range(400):
        await pilot.pause()
        screen = current_screen(app)
        if isinstance(screen, banner):
            return
        if isinstance(screen, (HandoffScreen, TurnScreen)):
            screen.dismiss(None)
        elif screen is app.match_screen:
            kind = app.game.decision.kind
            app.send({"attackers": "attack none", "blockers": "block none"}.get(kind, "pass"))
        else:                                     # a question: declined, the table answers it
            screen.dismiss(None)
            await pilot.pause()
            app.send("decline")
    raise AssertionError(f"never reached {banner.__name__}")


def test_a_double_enter_on_the_turn_banner_plays_nothing(db: CardDB, tmp_path: Path) -> None:
    """Issue #27's repro: `c1k play solace-haven dominion-vanguard --flow full --p1 Ana --p2 Tomas --seed 11`,
    pass to "Turn 2 — Tomas's turn", wait 0.8 s, Enter, Enter 0.15 s later: The Coin was played unseen."""
    choice = StartChoice("solace-haven", "dominion-vanguard", 11, "Ana", "Tomas", False, False, "full")
    app = C1KApp(db=db, session=new_session(db, choice, tmp_path / "m.json"))

    async def body(pilot: Any) -> None:
        await _pass_until(app, pilot, TurnScreen)
        await pilot.pause(0.8)                      # Tomas reads the banner
        player = app.viewer
        name = ("Ana", "Tomas")[player]
        assert f"— {name}'s turn" in "\n".join(_text(app)), "the banner names whose turn it is"
        records = len(app.game.record)
        press_at(app, "enter", time.monotonic())
        await pilot.pause(0.15)
        press_at(app, "enter", time.monotonic())        # the bounce, 0.15 s later, on the table he hasn't seen
        await pilot.pause(0.3)
        assert app.game.record[records:] == [], "a key acted on a table its player had not seen"
        assert current_screen(app) is app.match_screen and app.viewer == player
        await pilot.pause(0.6)                      # once he has seen it, his keys act
        press_at(app, "space", time.monotonic())
        await pilot.pause(0.3)
        assert app.game.record[records:] == [f"p{player + 1}: pass"]

    run_app(app, body)


def test_game_over_keys_wait_for_the_screen_to_be_seen(db: CardDB, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`n` is "block none" on the table and "new match" on the game-over screen: a double `n` (or any key
    still on its way when the match ends) does nothing there until the screen has been seen for 0.5 s."""
    from c1k_tui.screens.game_over import GameOverScreen

    app = C1KApp(db=db, session=session_from(db, flow_data(), tmp_path, open_hands=True))
    left: list[str] = []
    monkeypatch.setattr(app, "exit", lambda *a, **k: left.append("exit"))

    async def body(pilot: Any) -> None:
        await pilot.pause(0.6)
        app.send("concede")                         # (the concede question: answered yes at once)
        await pilot.pause()
        current_screen(app).dismiss(True)
        await pilot.pause(0.05)
        assert isinstance(app.screen, GameOverScreen)
        press_at(app, "n", time.monotonic())            # the bounce of the last key of the match
        press_at(app, "q", time.monotonic())
        await pilot.pause(0.2)
        assert isinstance(current_screen(app), GameOverScreen) and left == [], "a key acted on an unseen game over"
        await pilot.pause(0.5)
        press_at(app, "q", time.monotonic())            # seen: q quits
        await pilot.pause(0.2)
        assert left == ["exit"]

    run_app(app, body)


def test_ctrl_q_asks_before_it_ends_a_match_and_says_how_to_come_back(db: CardDB, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from c1k_tui.screens.confirm_modal import QuitModal

    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.0)
    app = C1KApp(db=db, session=session_from(db, flow_data(), tmp_path, open_hands=True))
    left: list[Any] = []
    monkeypatch.setattr(app, "exit", lambda *a, **k: left.append(k.get("message")))

    async def body(pilot: Any) -> None:
        await pilot.pause()
        records = list(app.game.record)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitModal) and left == [], "ctrl+q quit a match without a word"
        shown = "\n".join(_text(app))
        assert "c1k resume" in shown and "match.json" in shown
        await pilot.press("n")                      # keep playing: the table, the match unchanged
        await pilot.pause()
        assert current_screen(app) is app.match_screen and left == [] and app.game.record == records
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert len(left) == 1 and "c1k resume" in str(left[0]) and str(tmp_path / "match.json") in str(left[0])

    run_app(app, body)


def test_every_kind_of_key_message_is_dropped_once_the_screen_changed(db: CardDB,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Each message a key can ask for (a command, a prompt, a branch or ability to pick) reaches the App's
    router, which hands it on only if no screen was shown since it was made (`KeyGuard.stale`): made
    before the change, none acts; made after, each acts once. A new kind must be listed here."""
    from c1k_tui.model.view import HandCard
    from c1k_tui.screens import messages

    def kinds() -> list[messages.KeyAsked]:
        card = HandCard(7, "Test Thread", 1, "slow", "action", "", playable=True)
        return [messages.SendCommand("pass"), messages.AskPrompt(), messages.PickMode(card, [0, 1], []),
                messages.PickAbility(7, [0, 1], [])]

    def every(cls: type[Any]) -> set[type[Any]]:
        return {cls} | {k for sub in cls.__subclasses__() for k in every(sub)}

    assert {type(m) for m in kinds()} == every(messages.KeyAsked) - {messages.KeyAsked}
    reached: list[str] = []
    monkeypatch.setattr(C1KApp, "asked", lambda self, m: reached.append(type(m).__name__))
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))
    got: dict[str, list[str]] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause(0.2)
        stale = kinds()
        await pilot.pause(0.01)
        app.shown("other", app.viewer)            # a screen shown after they were made
        for m in stale:
            app.post_message(m)
        await pilot.pause(0.2)
        got["stale"] = list(reached)
        for m in kinds():
            app.post_message(m)
        await pilot.pause(0.2)
        got["fresh"] = reached[len(got["stale"]):]

    run_app(app, body)
    assert got["stale"] == []
    assert got["fresh"] == ["SendCommand", "AskPrompt", "PickMode", "PickAbility"]
