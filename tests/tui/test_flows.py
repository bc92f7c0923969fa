"""Whole flows through the app with Textual's Pilot: keys in, commands to the engine, screens out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input

from c1k_tui.model.builders import resume_session
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.confirm_modal import ConfirmModal
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.help_screen import HelpScreen
from c1k_tui.screens.match_screen import MatchScreen
from engine import record as rec
from engine.cards import CardDB
from engine.scenario import find_unit
from tests.tui.conftest import flow_data, run_app, session_from


class Driver:
    """Presses keys and checks, after each step, that the hand-off screen is up exactly when the player
    who must decide has changed — then hands over."""

    def __init__(self, pilot: Any, app: C1KApp) -> None:
        self.pilot = pilot
        self.app = app
        self.handoffs = 0
        self.decider = app.game.current_player()

    @property
    def screen(self) -> MatchScreen:
        assert self.app.match_screen is not None
        return self.app.match_screen

    async def keys(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        await self.pilot.pause()
        await self.settle()

    async def settle(self) -> None:
        g = self.app.game
        now = g.current_player()
        changed = now != self.decider and not g.is_terminal()
        if isinstance(self.app.screen, HandoffScreen) and not changed:
            # hidden hands: after a declaration of attackers the other player always looks ("continue"),
            # whether or not the engine asks them anything — then the keyboard comes back
            text = " ".join(str(w.render()) for w in self.app.screen.query("Static"))
            assert "see what happened" in text and g.players[1 - now].name in text, text
            self.handoffs += 1
            await self.pilot.press("enter")
            await self.pilot.pause()
            changed = True
        assert isinstance(self.app.screen, HandoffScreen) == changed, (
            f"decider {self.decider} -> {now}; screen {type(self.app.screen).__name__}")
        if changed:
            self.handoffs += 1
            text = " ".join(str(w.render()) for w in self.app.screen.query("Static"))
            assert g.players[now].name in text
            await self.pilot.press("enter")
            await self.pilot.pause()
        self.decider = now

    async def at(self, cid: int) -> None:
        """Move the cursor onto a card with the arrow keys (as a player would)."""
        target = self.screen.spot_of(cid)
        assert target is not None, f"#{cid} is not on screen"
        for _ in range(40):
            if self.screen.cursor == target:
                return
            rows = self.screen.rows()
            cur = self.screen.cursor
            ri = next((i for i, r in enumerate(rows) if cur in r), len(rows) - 1)
            ti = next(i for i, r in enumerate(rows) if target in r)
            if ri != ti:
                await self.pilot.press("down" if ti > ri else "up")
            else:
                await self.pilot.press("right")
            await self.pilot.pause()
        raise AssertionError(f"could not reach #{cid}: {target} cursor {self.screen.cursor} rows {self.screen.rows()}")


def test_play_respond_resolve_attack_block_damage(db: CardDB, tmp_path: Path) -> None:
    session = session_from(db, flow_data(), tmp_path)
    app = C1KApp(db=db, session=session)
    g0 = session.game
    knight = find_unit(g0, "knight")
    wall = find_unit(g0, "wall")
    assert knight and wall

    async def body(pilot: Any) -> None:
        d = Driver(pilot, app)
        assert isinstance(app.screen, HandoffScreen)       # the first decider takes the keyboard
        await pilot.press("enter")
        await pilot.pause()
        g = app.game
        # p1 plays the Test Recruit from hand: key 1 selects it (nothing sent), Enter picks it, its empty
        # slots light up, Enter chooses one
        n0 = len(g.record)
        await d.keys("1")
        assert d.screen.cursor == ("hand", 0) and d.screen.pick is None and len(g.record) == n0
        assert "Enter" in str(d.screen.status)
        await d.keys("enter")
        assert "legal" in d.screen.marks_for(("unit", 0, 1))
        assert "◎" in str(app.screen.query_one("#bottom-units").render())
        await d.keys("enter")
        assert g.record[-1].startswith("p1: play #") and " slot 2" in g.record[-1]
        assert [it.name for it in g.stack_view()] == ["Test Recruit"]
        # p2 responds with a Fast action: Emberlash, target the Knight (◎ marks the legal targets)
        hand = [c.cid for c in d.screen.view.hand]  # type: ignore[union-attr]
        ember = next(c for c in hand if g.card(c).name == "Emberlash")
        d.screen.cursor = ("hand", hand.index(ember))
        await d.keys("enter")
        assert d.screen.pick is not None and knight in d.screen.pick.next_targets()
        await d.at(knight)
        await d.keys("enter")
        assert g.record[-1] == f"p2: play #{ember} target #{knight}"
        assert [it.name for it in g.stack_view()] == ["Emberlash", "Test Recruit"]
        # pass until both resolve: the top first (C1K 6)
        await d.keys("space")                                # p1 passes: Emberlash resolves
        assert g.perms[knight].damage == 2 and [it.name for it in g.stack_view()] == ["Test Recruit"]
        await d.keys("space")                                # p1 (AP first again) passes
        await d.keys("space")                                # p2 passes: the Recruit resolves
        assert not g.stack and g.window == "main.priority"
        await d.keys("space")
        await d.keys("space")                                # both pass on an empty stack: to combat
        assert g.window == "combat.declare_attackers"
        # attack mode: Enter toggles the unit under the cursor, c confirms
        assert d.screen.cursor == d.screen.spot_of(knight)
        await d.keys("enter")
        assert "toggled" in d.screen.marks_for(("unit", 0, 0))
        assert "✓" in str(app.screen.query_one("#bottom-units").render())
        await d.keys("c")
        assert g.record[-1] == f"p1: attack #{knight}"
        await d.keys("space")
        await d.keys("space")
        assert g.window == "combat.declare_blockers" and g.current_player() == 1
        # block mode: pick the blocker, then the attacker it blocks, then confirm
        await d.at(wall)
        await d.keys("enter")
        await d.at(knight)
        await d.keys("enter")
        await d.keys("c")
        assert g.record[-1] == f"p2: block #{wall} -> #{knight}"
        await d.keys("space")
        await d.keys("space")                                # combat damage
        assert g.perms[knight].damage == 3 and g.perms[wall].damage == 3
        assert g.window == "combat.exit"
        assert d.handoffs >= 8

    run_app(app, body)
    # every command went to the record, autosaved atomically
    saved = rec.load(tmp_path / "match.json")
    assert saved.commands == session.game.record


def test_illegal_action_shows_the_engines_reason_and_rule(db: CardDB, tmp_path: Path) -> None:
    session = session_from(db, flow_data(), tmp_path)
    app = C1KApp(db=db, session=session)

    async def body(pilot: Any) -> None:
        d = Driver(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        g = app.game
        # typed on the command line: refused exactly like a pick — not sent, p1 keeps priority, reason + rule
        n = len(g.record)
        unit = next(c for c in g.players[0].board if c)
        await pilot.press("colon", *f"attack #{unit}", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen)
        assert "C1K 4.1" in str(d.screen.status) and "attackers are declared only" in str(d.screen.status)
        assert "not sent" in str(d.screen.status)
        assert g.current_player() == 0 and len(g.record) == n and "refused" not in g.log_lines[-1]
        assert app.screen.query_one("#command", Input).value == f"attack #{unit}"   # kept for editing (tui.md round 2)
        await pilot.press("escape")                        # Esc leaves the line; then space passes
        await pilot.press("space")
        await pilot.pause()
        await d.settle()                                   # then the hand-off to p2
        # picking a card that can't be played now shows why — and sends nothing
        n = len(g.record)
        recruit = next(i for i, c in enumerate(d.screen.view.hand) if c.name == "Test Recruit")  # type: ignore[union-attr]
        await pilot.press(str(recruit + 1), "enter")
        await pilot.pause()
        assert len(g.record) == n
        assert "OPP Slow" in str(d.screen.status)
        assert "OPP Slow" in str(app.screen.query_one("#rules").render())

    run_app(app, body)


def test_practice_mode_refusal_keeps_priority_and_shows_rule(db: CardDB) -> None:
    data = flow_data()
    data["scenario"]["options"] = {"practice": True}
    app = C1KApp(db=db, session=session_from(db, data))

    async def body(pilot: Any) -> None:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("colon", *"block none", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen)
        assert "C1K 4.2" in str(app.screen.status) and app.game.current_player() == 0

    run_app(app, body)


def test_malformed_command_changes_nothing(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data()))

    async def body(pilot: Any) -> None:
        await pilot.press("enter")
        await pilot.pause()
        h = app.game.state_hash()
        await pilot.press("colon", *"pley", "enter")
        await pilot.pause()
        assert "did you mean 'play'" in str(app.match_screen.status)  # type: ignore[union-attr]
        assert app.game.state_hash() == h

    run_app(app, body)


def test_resume_after_a_crash_gives_the_same_state_hash(db: CardDB, tmp_path: Path) -> None:
    session = session_from(db, flow_data(), tmp_path, flow="auto")
    app = C1KApp(db=db, session=session)
    seen: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        d = Driver(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        await d.keys("1")
        await d.keys("enter")
        await d.keys("enter")
        await d.keys("space")
        seen["hash"] = app.game.state_hash()
        seen["n"] = len(app.game.record)
        # the terminal is closed here: no quit, no save on exit

    run_app(app, body)
    assert seen["n"] >= 2
    resumed = resume_session(db, tmp_path / "match.json")
    assert resumed.game.state_hash() == seen["hash"]
    assert resumed.flow.mode == "auto" and resumed.auto == session.auto
    app2 = C1KApp(db=db, session=resumed)

    async def body2(pilot: Any) -> None:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app2.screen, MatchScreen)
        assert app2.game.state_hash() == seen["hash"]

    run_app(app2, body2)


def test_open_hands_shows_no_handoff_and_both_hands(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))

    async def body(pilot: Any) -> None:
        assert isinstance(app.screen, MatchScreen)
        assert "Tomas's hand (open)" in str(app.screen.query_one("#other-hand").render())
        assert "Emberlash" in str(app.screen.query_one("#other-hand").render())
        await pilot.press("1", "enter", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen) and app.game.current_player() == 1
        assert any(c.name == "Emberlash" for c in app.match_screen.view.hand)  # type: ignore[union-attr]
        assert "Mira's hand (open)" in str(app.screen.query_one("#other-hand").render())

    run_app(app, body)


def test_undo_needs_agreement_and_no_hidden_information(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))

    async def body(pilot: Any) -> None:
        g = app.game
        h0 = g.state_hash()
        await pilot.press("space")            # p1 passes: nothing hidden revealed
        await pilot.pause()
        assert app.game.current_player() == 1
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")                # not both agree: nothing happens
        await pilot.pause()
        assert len(app.game.record) == 1
        await pilot.press("u", "y")
        await pilot.pause()
        assert app.game.record == [] and app.game.state_hash() == h0
        # playing a card from hand reveals it: no undo
        await pilot.press("1", "enter", "enter")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, MatchScreen)
        assert "can't undo" in str(app.screen.status) and "left a hand" in str(app.screen.status)

    run_app(app, body)


def test_help_and_cursor_keys_do_not_touch_the_match(db: CardDB) -> None:
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))

    async def body(pilot: Any) -> None:
        h = app.game.state_hash()
        await pilot.press("up", "up", "left", "right", "down", "r", "r", "g", "escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.game.state_hash() == h and app.game.record == []

    run_app(app, body)


def test_set_a_card_with_s_then_play_it_from_the_set_zone_at_fast_speed(db: CardDB, tmp_path: Path) -> None:
    """KW Set in the app: `s` on an Ambush card Sets it (1 Influence, the player keeps priority); the card
    then shows in the hand row as "[Set]" and Enter plays it — at Fast speed, in the opponent's turn too."""
    data = flow_data()
    data["p1"]["hand"] = ["Snare of Shadows"]
    session = session_from(db, data, tmp_path)
    app = C1KApp(db=db, session=session)

    async def body(pilot: Any) -> None:
        d = Driver(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        g = app.game
        snare = g.players[0].hand[0]
        for _ in range(6):                                # arrow down to the hand row (the Snare)
            if d.screen.cursor and d.screen.cursor[0] == "hand":
                break
            await d.keys("down")
        assert d.screen.cursor == ("hand", 0)
        await d.keys("s")
        # Set face down, it has a fresh number (rules.md §7a), which its owner sees
        (face_down,) = g.players[0].set_cards
        assert face_down != snare and g.card(face_down).name == "Snare of Shadows" and g.players[0].influence == 3
        assert g.record[-1] == f"p1: set #{snare}" and g.current_player() == 0
        view = d.screen.view
        assert view is not None and any(c.cid == face_down and c.name.endswith(" [Set]") for c in view.hand)
        assert "[Set]" in str(app.screen.query_one("#hand").render())
        assert any(str(a) == f"play #{face_down} target #{find_unit(g, 'wall')}" for a in view.legal)

    run_app(app, body)
