"""The learning flow for ordinary matches (issue 11 item 5), the recap with open hands and at 80×24 (issue 8),
and keyword rule ids on cards opening their rule text (issue 11 item 4)."""

from __future__ import annotations

import re
from typing import Any

from textual.widgets import Markdown, TabbedContent
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model.paths import FLOWS
from c1k_tui.model.session import Flow
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.log_screen import LogScreen
from c1k_tui.screens.rule_screen import RuleBrowser
from c1k_tui.screens.start_screen import StartScreen
from c1k_tui.screens.turn_screen import TurnScreen
from engine.cards import CardDB
from tests.tui.conftest import CARDS, flow_data, run_app, session_from

#: the turn-based windows, with no decision in them, and their rule ids
TURN_BASED = {"draw.draw": "C1K 1.2", "influence.gain": "C1K 2.2", "combat.damage": "C1K 4.3",
              "end.cleanup": "C1K 5.2"}


def _command(g: Any) -> str:
    """Mira attacks with everything she may, nobody blocks, both pass otherwise."""
    d = g.decision
    if d.kind == "attackers":
        return "attack " + " ".join(f"#{u}" for u in d.eligible) if d.eligible and g.current_player() == 0 \
            else "attack none"
    if d.kind == "blockers":
        return "block none"
    if d.kind == "interrupt":
        return "decline"
    return "pass"


async def _play_until(app: C1KApp, pilot: Any, turn: int, shown: list[str]) -> None:
    """Drive the app as two players would (Enter on every hand-off), collecting every recap shown."""
    for _ in range(300):
        g = app.game
        if g.is_terminal() or g.turn >= turn:
            return
        while app.pacing:
            await pilot.pause(0.01)
        if isinstance(app.screen, HandoffScreen):
            shown.append("HANDOFF " + " / ".join(str(w.render()) for w in app.screen.query("Static")))
            await pilot.press("enter")
            await pilot.pause()
            continue
        assert app.match_screen is not None
        shown.append(f"SCREEN p{app.viewer + 1} " + app.match_screen.recap_text.plain)
        app.send(_command(g))
        await pilot.pause()
    raise AssertionError("the scripted match did not reach the turn")


def test_learning_flow_shows_every_window_as_entered_with_its_rule(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="learning"))
    app.match.pace_ms = 1
    shown: list[str] = []

    async def body(pilot: Any) -> None:
        await _play_until(app, pilot, 6, shown)

    run_app(app, body)
    text = "\n".join(shown)
    for window, rule in TURN_BASED.items():
        assert f"{window} ({rule})" in text, window
    # what happened in them: the combat damage by attacker, a draw, the Influence gained
    assert re.search(r"combat\.damage \(C1K 4\.3\)[^\n]*\n?.*Test Knight[^\n]*deals 3", text), text
    assert "Tomas draws a card" in text and re.search(r"Tomas draws Test Recruit #\d+", text)
    assert "nothing happened" in text
    # the windows in their order, as entered on turn 3 (Mira's) — the declarations, then the damage
    recap = next(s for s in shown if s.startswith("HANDOFF") and "combat.damage (" in s).split("(public):")[1]
    order = [recap.index(f"{w} (") for w in ("combat.damage", "combat.post", "combat.exit", "end.start",
                                             "end.cleanup", "end.final", "draw.start", "draw.draw")]
    assert order == sorted(order)


def test_learning_flow_is_offered_and_recorded(db: CardDB) -> None:
    assert "learning" in FLOWS
    assert Flow.from_dict(Flow("learning").to_dict()).mode == "learning"
    res = CliRunner().invoke(cli, ["play", "--help"])
    assert "--flow" in res.output and "learning" in res.output
    res = CliRunner().invoke(cli, ["play", "--flow", "nonsense"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    app = C1KApp(db=db, mode="start")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#start-flow-learning") is not None

    run_app(app, body)


def test_recap_with_open_hands_shows_both_sides_private_events_and_says_so(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True, flow="stops"))

    async def body(pilot: Any) -> None:
        assert app.match_screen is not None
        for _ in range(40):                 # to Tomas's turn: he draws
            if app.game.turn >= 4 and app.viewer == 1:
                break
            app.send(_command(app.game))
            await pilot.pause()
        text = app.match_screen.recap_text.plain
        assert "open hands: both players' private events shown" in text
        assert re.search(r"Tomas draws Test Recruit #\d+", text), text
        assert str(app.match_screen.query_one("#tabs", TabbedContent).active) == "tab-recap"

    run_app(app, body)


def test_recap_at_80x24_opens_at_the_newest_lines_and_w_shows_it_all(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="stops"))

    async def body(pilot: Any) -> None:
        ms = app.match_screen
        assert ms is not None
        await pilot.press("enter")                  # Mira takes the keyboard
        await pilot.pause()
        for _ in range(60):                         # on through Tomas's turn to Mira's next
            while app.pacing:
                await pilot.pause(0.01)
            if isinstance(app.screen, HandoffScreen | TurnScreen):   # (Mira may keep the keyboard: her turn)
                if app.game.turn >= 5 and app.screen.player_name == "Mira":
                    break
                await pilot.press("enter")
                await pilot.pause()
                continue
            app.send(_command(app.game))
            await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.viewer == 0 and str(ms.query_one("#tabs", TabbedContent).active) == "tab-recap"
        panel = str(ms.query_one("#recap").render())
        last = ms.recap_text.plain.splitlines()[-1]
        assert last.strip() in panel.replace("\n", " ") or last[:40] in panel, (panel, last)   # the newest line
        assert "earlier rows (PgUp) · w: all" in panel
        assert not ms.query_one("#stack").display              # an empty stack gives the tabs its width
        assert "▸Recap" in str(ms.query_one("#tabs", TabbedContent).get_tab("tab-recap").label)
        assert ms.query_one("#recap").size.width >= 76 and ms.query_one("#recap").size.height >= 4
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen) and app.screen.title_text == "WHAT HAPPENED"
        assert app.screen.all_lines == tuple(ms.recap_text.plain.splitlines())
        await pilot.press("escape")
        await pilot.pause()
        back: object = app.screen        # (isinstance above narrowed app.screen; a key changed it)
        assert back is ms

    run_app(app, body, size=(80, 24))


def test_keyword_rule_ids_on_a_card_open_their_rules(db: CardDB) -> None:
    data = flow_data()
    data["card"] = CARDS + [{"id": "test-sentry", "name": "Test Sentry", "type": "unit", "realm": "neutral",
                             "cost": 1, "power": 1, "health": 3, "keywords": ["guard", "ward 2"],
                             "text": "Guard. Ward 2."}]
    data["p1"]["hand"] = ["Test Sentry", "Test Recruit"]
    app = C1KApp(db=db, session=session_from(db, data, open_hands=True))

    async def body(pilot: Any) -> None:
        ms = app.match_screen
        assert ms is not None
        await pilot.press("1")                      # the cursor on the Test Sentry in Mira's hand
        await pilot.pause()
        info = " ".join(str(ms.query_one("#card-info").render()).split())
        assert "Guard (KW Guard)" in info and "Ward 2 (KW Ward)" in info and "R: their rules" in info
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RuleBrowser)
        assert app.screen.pinned[:2] == ["KW Guard", "KW Ward"] and app.screen.rule_id == "KW Guard"
        assert "Guard" in app.screen.query_one("#rule-md", Markdown).source
        await pilot.press("down")                   # the next rule on screen: Ward
        await pilot.pause()
        assert app.screen.rule_id == "KW Ward"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("2")                      # a card without keywords: the window's rule
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RuleBrowser) and app.screen.pinned == ["C1K 3.1"]

    run_app(app, body)
