"""The recap (issue 8 item 1): every hand-off screen, and the first screen after it, tells the incoming
player what happened since their last decision, window by window with rule ids — from typed events; the
hand-off screen (read by both) only public events, the screen after it the player's own private ones too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from c1k_tui.model.builders import StartChoice, new_session
from c1k_tui.model.recap import RecapEntry, RecapWindow, recap_entries
from c1k_tui.model.view import log_for
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.handoff_screen import HandoffScreen
from engine.cards import CardDB
from tests.tui.conftest import flow_data, run_app, session_from


def _statics(screen: Any) -> str:
    return "\n".join(str(w.render()) for w in screen.query("Static"))


def test_recap_on_the_handoff_and_the_screen_after_it_in_order(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="stops"))

    async def body(pilot: Any) -> None:
        g = app.game
        await pilot.press("enter")
        await pilot.pause()
        recruit = g.players[0].hand[0]
        app.send(f"play #{recruit} slot 2")            # Mira plays; Tomas must see it
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = _statics(app.screen)
        assert "Since Tomas last decided" in text and "T3 main.priority (C1K 3.1)" in text
        assert f"p1: play #{recruit} slot 2" in text
        await pilot.press("enter")
        await pilot.pause()
        ms = app.match_screen
        assert ms is not None
        side = str(ms.query_one("#recap").render())
        assert "RECAP for Tomas" in side and f"p1: play #{recruit} slot 2" in side
        app.send("pass")                                # the Recruit resolves; back to Mira eventually
        await pilot.pause()
        while isinstance(app.screen, HandoffScreen) and app.viewer != 0:
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = _statics(app.screen)
        # what followed Mira's play, in order: Tomas's pass is left out, the resolution and its result kept
        assert "p2: pass" not in text
        i, j = text.index("resolve"), text.index("enters play")
        assert i < j and f"p1: play #{recruit}" not in text     # her own decision is not recapped

    run_app(app, body)


def test_first_screen_shows_the_opening_hand_and_turn_1(db: CardDB, tmp_path: Path) -> None:
    s = new_session(db, StartChoice("ironbound", "emberfall", 5, "Mira", "Tomas", False, False, "stops"),
                    tmp_path / "a.json")
    app = C1KApp(db=db, session=s)

    async def body(pilot: Any) -> None:
        g = app.game
        assert isinstance(app.screen, HandoffScreen) and g.turn == 1 and g.current_player() == 0
        public = _statics(app.screen)
        assert "Mira draws a card ×5" in public and "Tomas draws a card ×8" in public   # Emberfall: Hasty Counsel
        assert "Tomas goes second and gets the Coin" in public                       # (+1 card: RULES Second player)
        assert not any(g.card(c).name in public for c in g.players[0].hand)     # both read this screen
        await pilot.press("enter")
        await pilot.pause()
        ms = app.match_screen
        assert ms is not None
        ms.query_one("#recap").size   # noqa: B018 - laid out
        entries = [e.text for w in recap_entries(g, 0, 0) for e in w.entries]
        for c in g.players[0].hand:
            assert f"Mira draws {g.card(c).name} #{c}" in entries
        assert not any(f"#{c}" in x for x in entries for c in g.players[1].hand)
        assert g.window == "main.priority" and g.turn == 1   # p1 sees turn 1 though nothing may be playable

    run_app(app, body)


def test_the_other_player_never_sees_auto(db: CardDB) -> None:
    s = session_from(db, flow_data(), flow="stops")
    s.send("pass")            # Mira passes; the flow options may pass for Tomas
    g = s.game
    auto = frozenset(s.auto)
    for viewer in (0, 1):
        for line in log_for(g, viewer, False, auto=auto):
            if "(auto)" in line:
                assert line.startswith(f"p{viewer + 1}:"), (viewer, line)


def test_the_recap_is_plain_pieces_styled_by_the_screens(db: CardDB) -> None:
    """Issue #32 item 9: the model returns the recap as plain pieces with a kind (no Rich object); the
    screens give each kind its style, and the text is the same either way."""
    from c1k_tui.model.recap import recap_text
    from c1k_tui.model.styled import KINDS, Piece, Styled
    from c1k_tui.screens.styled import STYLES, rich_text

    windows = (RecapWindow(3, "main.priority", "C1K 3.1", (RecapEntry(3, "main.priority", "C1K 6", "stack", 0,
                                                                      "p1 plays Emberlash"),)),)
    got = recap_text(windows, "RECAP")
    assert isinstance(got, Styled)
    assert got.pieces == [Piece("RECAP\n", "head"), Piece("T3 main.priority", "head"), Piece(" (C1K 3.1)\n", "rule"),
                          Piece("  p1 plays Emberlash"), Piece("  (C1K 6)", "aside")]
    assert set(STYLES) == set(KINDS)
    shown = rich_text(got)
    assert shown.plain == got.plain == "RECAP\nT3 main.priority (C1K 3.1)\n  p1 plays Emberlash  (C1K 6)"
    assert [str(s.style) for s in shown.spans] == ["bold", "bold", "cyan", "dim cyan"]
