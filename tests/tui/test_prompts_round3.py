"""The choice dialog (issue 27 item 4, issue 31 item 6): an order choice numbers the rows in the order they
are marked and sends that order; it says how many are marked; its rule label is the Paradox exception.
`model/marks.py` is plain Python; the lesson on ordering Flux triggers is done from the dialog with Pilot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from c1k_tui.model.builders import find_lessons, lesson_session
from c1k_tui.model.marks import Marks, is_order, ordinal
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.controls import ChoiceList
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from engine.cards import CardDB
from tests.tui.conftest import run_app


def test_c1k_9_an_order_choice_is_sent_in_marking_order() -> None:
    m = Marks.for_choice(["Oracle of Ash (#3)", "Oracle of Dew (#4)", "Oracle of Fog (#5)"], 3, "C1K 8")
    assert m.ordered and m.rule_shown == "C1K 9" and m.summary() == "0 of 3 marked"
    m.toggle(2)
    m.toggle(3)
    m.toggle(1)
    assert m.command() == "choose 2 3 1"
    assert m.row(2) == "1st — 2. Oracle of Dew (#4)" and m.row(1) == "3rd — 1. Oracle of Ash (#3)"
    m.toggle(2)                                             # unmarked: the later ones move up
    assert m.order == [3, 1] and m.row(3).startswith("1st — ") and m.summary() == "2 of 3 marked"
    assert m.problem() == "2 of 3 marked: mark the 3rd with Space (↑/↓ to it), then Enter"


def test_c1k_5_2_a_discard_choice_is_not_an_order() -> None:
    m = Marks.for_choice(["Ember", "Wall", "Knight"], 2, "C1K 5.2")
    assert not m.ordered and m.rule_shown == ""
    m.sync({3})
    m.sync({3, 1})
    assert m.command() == "choose 1 3" and m.row(3) == "3. Knight"
    assert not is_order("C1K 8", 1, 2) and [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


def test_c1k_9_the_flux_order_lesson_is_done_from_the_dialog(db: CardDB, tmp_path: Path) -> None:
    """The lesson "Paradox — order your own Flux triggers": Mira marks the Oracle of Dew first in the
    dialog, which says "0 of 2 marked" and C1K 9, and sends `choose 2 1`; the lesson completes."""
    info = next(x for x in find_lessons() if x.path.name.startswith("37-"))
    app = C1KApp(db=db, session=lesson_session(db, info, tmp_path / "l.json"), lessons=find_lessons())
    seen: dict[str, str] = {}

    async def body(pilot: Any) -> None:
        for _ in range(20):
            if isinstance(app.screen, MultiChoiceModal):
                break
            await pilot.pause(0.1)
        modal = app.screen
        assert isinstance(modal, MultiChoiceModal)
        seen["rule"] = modal.rule
        seen["before"] = str(modal.query_one("#multi-msg").render())
        await pilot.press("down", "space", "up", "space")     # the Oracle of Dew, then the Oracle of Ash
        await pilot.pause()
        seen["rows"] = str(modal.query_one(ChoiceList).render())
        await pilot.press("enter")
        await pilot.pause()
        for _ in range(8):
            if app.match.lesson_complete or app.game.is_terminal():
                break
            app.send(f"p{app.game.current_player() + 1}: pass")
            await pilot.pause()

    run_app(app, body)
    assert seen["rule"] == "C1K 9" and seen["before"] == "0 of 2 marked"
    assert "1st — 2. Oracle of Dew" in seen["rows"] and "2nd — 1. Oracle of Ash" in seen["rows"]
    assert "Confirm (2 of 2 marked)" in seen["rows"]
    assert app.game.record[0] == "p1: choose 2 1"
    assert app.match.lesson_complete


def _footer(app: C1KApp) -> list[str]:
    """The footer's shown bindings of the screen: their descriptions."""
    return [b.binding.description for b in app.screen.active_bindings.values()
            if b.binding.show and b.enabled]


def test_c1k_7_after_esc_on_an_interrupt_prompt_the_footer_says_how_to_reopen_it(db: CardDB,
                                                                                 tmp_path: Path) -> None:
    """Esc on an Interrupt question: the footer offers "answer: Enter or i", never a refused pass; Enter
    (and i) open the question again."""
    from c1k_tui.screens.prompt_modal import PromptModal

    info = next(x for x in find_lessons() if x.path.name.startswith("04-"))
    app = C1KApp(db=db, session=lesson_session(db, info, tmp_path / "l.json"), lessons=find_lessons())
    got: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        got["before"] = _footer(app)
        app.send('p1: play "Emberlash" target acolyte')
        await pilot.pause()
        assert isinstance(app.screen, PromptModal)      # Tomas is asked about the Sigil's Interrupt
        await pilot.press("escape")
        await pilot.pause()
        back: Any = app.screen
        assert back is app.match_screen
        got["after"] = _footer(app)
        await pilot.press("enter")
        await pilot.pause()
        got["enter"] = isinstance(app.screen, PromptModal)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        got["i"] = isinstance(app.screen, PromptModal)

    run_app(app, body)
    assert "pass" in got["before"] and "answer: Enter or i" not in got["before"]
    assert "answer: Enter or i" in got["after"] and "pass" not in got["after"]
    assert "pass until…" not in got["after"]
    assert got["enter"] and got["i"]


def test_undo_takes_back_only_the_askers_own_last_action(db: CardDB) -> None:
    """The model: after Mira's pass, Tomas (asking) is told nothing of his can be undone; Mira may."""
    from tests.tui.conftest import flow_data, session_from

    s = session_from(db, flow_data(), flow="full")
    assert s.send("pass").ok and s.game.current_player() == 1
    ok, why = s.undo_check(1)
    assert not ok and why.startswith("nothing of yours can be undone: the last action was Mira's")
    ok, why = s.undo_check(0)
    assert ok and why == "undo 'p1: pass'"
    assert s.undo_check() == (True, "undo 'p1: pass'")        # open hands, a lesson: nobody asks


def test_rules_7a_full_control_is_the_choosers_own_and_a_shared_mode_needs_consent(db: CardDB) -> None:
    """tui.md round 3: one player's choice of full control changes only their own stops; a change of the
    shared mode is split off, to apply only once the other player agrees."""
    from c1k_tui.model.session import Flow, auto_action, flow_change
    from c1k_tui.model.settings import check_flow
    from tests.tui.conftest import flow_data, session_from

    before = Flow("stops")
    own, shared = flow_change(1, before, Flow("full", {"p1": [], "p2": ["opp:end.final"]}))
    assert shared is None and own.mode == "stops" and own.full == ["p2"]
    assert own.stops["p1"] == before.stops["p1"] and own.stops["p2"] == ["opp:end.final"]
    assert own.mode_for("p2") == "full" and own.mode_for("p1") == "stops"
    own2, shared2 = flow_change(0, own, Flow("learning", own.stops))
    assert own2.mode == "stops" and shared2 is not None and shared2.mode == "learning" and shared2.full == ["p2"]
    assert flow_change(None, before, Flow("learning")) == (Flow("learning"), None)    # open hands: one table
    assert Flow.from_dict(own.to_dict()).to_dict() == own.to_dict() and check_flow(dict(own.to_dict(), full=["p3"]))

    s = session_from(db, flow_data(), flow="full")            # (every decision asked: p2 at main.priority)
    assert s.send("pass").ok and s.game.current_player() == 1 and s.game.window == "main.priority"
    g = s.game
    mine = Flow("stops", {"p1": [], "p2": []}, full=["p1"])
    theirs = Flow("stops", {"p1": [], "p2": []}, full=["p2"])
    assert auto_action(g, mine, hidden=True) is not None      # p2 is not asked: p1's full control is p1's
    assert auto_action(g, theirs, hidden=True) is None        # p2's own full control asks p2


def test_a_shared_flow_change_asks_the_other_player_and_full_control_does_not(db: CardDB) -> None:
    """Hands hidden: Mira's full control is hers at once (no hand-off); her asking for the learning flow
    hands the keyboard to Tomas, and it applies only when he agrees."""
    from c1k_tui.screens.confirm_modal import ConfirmModal
    from c1k_tui.screens.handoff_screen import HandoffScreen
    from c1k_tui.screens.options_modal import OptionsModal
    from tests.tui.conftest import flow_data, session_from

    s = session_from(db, flow_data(), flow="stops")
    app = C1KApp(db=db, session=s)
    got: dict[str, Any] = {}

    async def pick(pilot: Any, key: str) -> None:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OptionsModal)
        cl = app.screen.query_one(ChoiceList)
        cl.cursor = [c.key for c in cl.choices].index(key)
        await pilot.press("space", "ctrl+s")
        await pilot.pause()

    async def body(pilot: Any) -> None:
        await pilot.press("enter")                 # Mira takes the keyboard
        await pilot.pause()
        await pick(pilot, "flow-full")
        got["full"] = (type(app.screen).__name__, s.flow.mode, list(s.flow.full))
        await pick(pilot, "flow-learning")
        assert isinstance(app.screen, HandoffScreen)
        got["handoff"] = " ".join(str(w.render()) for w in app.screen.query("Static"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        got["before"] = s.flow.mode
        await pilot.press("y")
        await pilot.pause()
        got["after"] = (s.flow.mode, list(s.flow.full))

    run_app(app, body)
    assert got["full"] == ("MatchScreen", "stops", ["p1"])
    assert "Tomas" in got["handoff"] and "request to change the flow" in got["handoff"]
    assert got["before"] == "stops" and got["after"] == ("learning", [])     # (she left her full control)


def test_c1k_5_2_the_discard_dialog_tells_two_copies_apart(db: CardDB) -> None:
    """Discarding down to hand size with two copies of a card in hand: each row of the dialog names its card
    with the #id (as the hand does), so the player knows which copy goes; the rows are all different."""
    from c1k_tui.model.session import Flow, MatchSession
    from engine import observe
    from engine.scenario import scenario_from_data

    hand = ["Emberlash", "Emberlash", "Unmake", "Hoarded Favor", "Tide of Recall", "Wild Omen", "Whispered Doubt",
            "Exhume the Fallen", "Briar Scout", "Briar Scout"]
    data = {"scenario": {"title": "discard", "seed": 1, "turn": 3, "active": "p1", "window": "end.start"},
            "p1": {"name": "Mira", "hand": hand}, "p2": {"name": "Tomas"}}
    s = MatchSession.from_scenario(scenario_from_data(data, "<test>", db), db, "<test>", flow=Flow("full"))
    g = s.game
    for _ in range(10):
        if g.decision.kind == "choice":
            break
        assert s.send("pass", g.current_player()).ok
    d = observe(g, 0).decision
    assert d is not None and d.kind == "choice" and d.rule == "C1K 5.2" and len(d.options) == 10
    assert len(set(d.options)) == 10, d.options
    for cid, label in zip(d.eligible, d.options, strict=True):
        assert label.endswith(f" #{cid}"), (cid, label)
