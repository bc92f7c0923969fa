""""Pass until…" (issue 27 item 2, tui.md round 3, rules.md §7a): a player's own auto-yield, in the model.

Besides passing once, the player with priority passes until the end of this combat, the end of this turn,
or until something happens to them (a card of theirs targeted, an attack on them, a trigger of theirs on
the stack). It is public (the other player is told), ends at the player's next own turn at the latest,
never passes their own Main Phase on an empty stack, survives a resume and goes with an undo of the pass
it came with — and what it does depends only on public facts. Plain Python: no Textual.
"""

from __future__ import annotations

from typing import Any

import pytest

from c1k_tui.model.session import Flow, MatchSession
from c1k_tui.model.settings import check_flow
from c1k_tui.model.table import Checked, HandOff, Refused, ShowTable, Table
from c1k_tui.model.yields import Yield, until_of, until_options
from engine import record as rec
from engine.cards import CardDB
from tests.tui.conftest import flow_data, session_from
from tests.tui.test_table_model import HANDS, _command, _session, values


def _at(s: MatchSession) -> tuple[int, str, str]:
    g = s.game
    return g.current_player(), g.decision.kind, g.window


def _p1_plays(s: MatchSession, card: str = "Test Favor", target: str = "") -> None:
    assert _at(s) == (0, "priority", "main.priority")
    out = s.send(f'play "{card}"' + (f" target {target}" if target else ""))
    assert out.ok, out.message


def _attack(s: MatchSession) -> None:
    """p1 passes their Main Phase (with the stack empty) and attacks with their Knight."""
    assert s.send("pass").ok
    assert _at(s) == (0, "attackers", "combat.declare_attackers")
    assert s.send(f"attack #{s.game.players[0].units()[0]}").ok
    if _at(s) == (0, "priority", "combat.declare_attackers"):     # p1's own stop there: they pass
        assert s.send("pass").ok


def test_pass_until_end_of_turn_passes_the_opponents_attack_but_asks_for_blocks(db: CardDB) -> None:
    """Without a yield p2 is asked when p1 attacks (a stop, and an action of the opponent); passing until
    the end of the turn, p2 is only asked to declare blockers."""
    plain = _session(db, HANDS[1])
    plain.lists = None                       # a scenario's match: every stop asks
    _p1_plays(plain)
    assert _at(plain) == (1, "priority", "main.priority")           # p2 may answer the Action
    assert plain.send("pass").ok
    _attack(plain)
    assert _at(plain) == (1, "priority", "combat.declare_attackers")    # asked: the attack

    s = _session(db, HANDS[1])
    s.lists = None
    _p1_plays(s)
    assert s.send("pass until turn").ok
    assert s.flow.until["p2"].kind == "turn"
    _attack(s)
    assert _at(s) == (1, "blockers", "combat.declare_blockers")     # a declaration is never passed
    assert s.send("block none").ok
    while s.game.turn == 3 and s.game.current_player() == 0:
        assert s.send("pass").ok
    assert s.game.turn == 4 and "p2" not in s.flow.until           # over with the turn


def test_pass_until_something_happens_ends_when_attacked(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    _p1_plays(s)
    assert s.send("pass until me").ok
    _attack(s)
    assert _at(s) == (1, "priority", "combat.declare_attackers")    # attacked: asked as without a yield
    assert "p2" not in s.flow.until


def test_pass_until_something_happens_ends_when_a_card_of_mine_is_targeted(db: CardDB) -> None:
    data = flow_data()
    data["p1"]["hand"] = ["Test Favor", "Test Bolt", "Test Favor"]
    data["p2"]["hand"] = ["Test Recruit"]
    s = session_from(db, data, flow="stops")
    s.lists = None
    s.run_autos()
    _p1_plays(s)
    assert s.send("pass until me").ok
    assert _at(s) == (0, "priority", "main.priority")
    _p1_plays(s)                                     # an untargeted Action: p2 is not asked
    assert _at(s) == (0, "priority", "main.priority") and "p2" in s.flow.until
    wall = s.game.players[1].units()[0]
    _p1_plays(s, "Test Bolt", f"#{wall}")            # p2's Wall targeted: p2 is asked
    assert _at(s) == (1, "priority", "main.priority")
    assert "p2" not in s.flow.until


def test_pass_until_ends_at_the_players_own_next_turn(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    s.flow.stops["p2"] = sorted({*s.flow.stops["p2"], "opp:end.final"})
    while s.game.current_player() == 0:               # p1 passes their turn, attacking with nothing
        assert s.send("attack none" if _at(s)[1] == "attackers" else "pass").ok
    assert _at(s) == (1, "priority", "end.final") and s.game.turn == 3   # p2 at their stop in p1's End Phase
    assert s.send("pass until me").ok
    assert s.game.turn == 4 and _at(s) == (1, "priority", "main.priority")   # their own Main Phase asks
    assert "p2" not in s.flow.until


def test_pass_until_never_passes_your_own_main_phase(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    assert s.send("pass until turn").ok              # p1 in their own Main Phase: passes it once …
    assert s.game.window != "main.priority"
    s2 = _session(db, HANDS[1])
    s2.lists = None
    _p1_plays(s2)
    s2.send("pass")
    assert _at(s2) == (0, "priority", "main.priority")
    s2.flow.until["p1"] = Yield("turn", 3, 0)
    assert s2.next_auto() is None                    # … but their Main Phase with an empty stack still asks


def test_pass_until_is_refused_where_one_may_not_pass_and_changes_nothing(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    s.send("pass")
    assert _at(s) == (0, "attackers", "combat.declare_attackers")
    before = (list(s.game.record), dict(s.flow.until))
    out = s.send("pass until turn")
    assert not out.ok and "where you may pass" in out.message
    assert (list(s.game.record), dict(s.flow.until)) == before
    table = Table(s)
    table.viewer = 0
    assert isinstance(table.check("pass until turn"), Refused)
    got = table.check("pass until tomorrow")
    assert isinstance(got, Refused) and got.kind == "malformed" and "combat | turn | me" in got.reason


def test_pass_until_end_of_combat_is_only_offered_before_combat_ends() -> None:
    assert [c for _, c in until_options("main.priority")] == ["pass until combat", "pass until turn",
                                                              "pass until me"]
    assert [c for _, c in until_options("end.start")] == ["pass until turn", "pass until me"]
    assert until_of("Pass until the end of turn") == "turn" and until_of("pass") is None
    assert until_of("pass until lunch") == "?lunch"


def test_pass_until_is_public_the_other_player_is_told(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    table = Table(s)
    first = table.next()                               # the match's first hand-off, to p1
    assert isinstance(first, HandOff) and first.player == 0
    table.took(first)
    assert isinstance(table.next(), ShowTable)
    _p1_plays(s)
    table.accepted(0, 0, "")
    h = table.next()
    assert isinstance(h, HandOff) and h.player == 1 and h.announce == ()
    table.took(h)
    assert isinstance(table.next(), ShowTable)
    assert isinstance(table.check("pass until combat"), Checked)
    seen = len(s.game.events)
    assert s.send("pass until combat").ok
    table.accepted(1, seen, "")
    h = table.next()
    assert isinstance(h, HandOff) and h.player == 0
    assert h.announce == ("Tomas passes until the end of this combat",)


def test_pass_until_survives_a_resume_and_a_broken_one_is_named(db: CardDB, tmp_path: Any) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    _p1_plays(s)
    assert s.send("pass until turn").ok
    saved = s.record()
    assert saved.app["flow"]["until"] == {"p2": {"kind": "turn", "turn": 3, "since": s.flow.until["p2"].since}}
    rec.save(saved, tmp_path / "m.json")
    again = MatchSession.from_record(rec.load(tmp_path / "m.json"), db)
    assert again.flow.until == s.flow.until
    bad = dict(saved.app["flow"], until={"p2": {"kind": "forever", "turn": 3, "since": 1}})
    assert "app.flow.until.p2.kind: expected one of combat, turn, me" in check_flow(bad)
    assert Flow.from_dict(bad).until == {}


def test_undoing_the_pass_takes_the_yield_back(db: CardDB) -> None:
    s = _session(db, HANDS[1])
    s.lists = None
    _p1_plays(s)
    assert s.send("pass until turn").ok
    assert "p2" in s.flow.until
    ok, why = s.undo_check()
    assert ok, why
    assert s.undo()
    assert _at(s) == (1, "priority", "main.priority") and "p2" not in s.flow.until


def _yield_command(g: Any, played: list[bool]) -> str:
    """The table model tests' script (p1 plays an Action, attacks; p2 never uses a card), with p2 passing
    "until something happens to me" wherever they pass."""
    cmd = _command(g, played)
    return "pass until me" if cmd == "pass" and g.current_player() == 1 else cmd


def _p2_yield(s: MatchSession, actor: int) -> str | None:
    """p2's yield after p1's commands (its event count may differ by p2's private events: not compared)."""
    y = s.flow.until.get("p2")
    return f"p2 passes until: {(y.kind, y.turn) if y else None}" if actor == 0 else None


@pytest.mark.parametrize("hand", HANDS[:1] + HANDS[2:], ids=lambda h: "+".join(h))
def test_rules_7a_pass_until_depends_only_on_public_facts(db: CardDB, hand: list[str]) -> None:
    """Two matches with the same public history, p2 holding a usable Fast card or a Nullify in one and
    nothing usable in the other: with the same "pass until…" choices, the same hand-offs, tables of p1
    and yields, word for word."""
    base = values(_session(db, HANDS[1]), command=_yield_command, after=_p2_yield)
    assert sum("until: ('me', " in v for v in base) >= 2
    assert any("Tomas passes until something happens" in v for v in base)
    assert values(_session(db, hand), command=_yield_command, after=_p2_yield) == base


def test_the_p_key_opens_the_chooser_and_sends_the_choice(db: CardDB) -> None:
    """In the app: `p` opens "Pass until…" with the three choices; picking one passes and keeps it."""
    from c1k_tui.screens.app import C1KApp
    from c1k_tui.screens.handoff_screen import HandoffScreen
    from c1k_tui.screens.prompt_modal import PromptModal
    from tests.tui.conftest import run_app

    s = session_from(db, flow_data(), flow="stops")
    app = C1KApp(db=db, session=s)
    seen: list[str] = []

    async def body(pilot: Any) -> None:
        for _ in range(20):
            if not isinstance(app.screen, HandoffScreen):
                break
            await pilot.press("enter")
            await pilot.pause(0.6)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PromptModal)
        seen.extend(label for label, _ in app.screen.options)
        await pilot.press("down", "enter")             # the second row: until the end of this turn
        await pilot.pause(0.3)

    run_app(app, body)
    assert seen == ["Until the end of this combat", "Until the end of this turn",
                    "Until something happens to me (a card of mine is targeted, I am attacked, a trigger of "
                    "mine goes on the stack) or my next turn"]
    assert s.game.record[0] == "p1: pass" and 0 not in s.auto          # p1's own pass, chosen
    assert s.flow.until["p1"].kind == "turn"


def test_a_pass_until_over_before_the_next_handoff_is_still_told(db: CardDB) -> None:
    """Mira, with no unit to attack with, passes her Main Phase until the end of her turn: it is over
    before Tomas takes the keyboard in his turn, and his hand-off still says why she was not asked."""
    data = flow_data()
    data["p1"]["board"] = []
    s = session_from(db, data, flow="stops")
    s.run_autos()
    table = Table(s)
    first = table.next()
    assert isinstance(first, HandOff)
    table.took(first)
    assert isinstance(table.next(), ShowTable)
    seen = len(s.game.events)
    assert s.send("pass until turn").ok
    table.accepted(0, seen, "")
    assert "p1" not in s.flow.until and s.game.turn == 4      # over: the turn ended in the same send
    h = table.next()
    assert isinstance(h, HandOff) and h.player == 1 and h.turn == 4
    assert h.announce == ("Mira passes until the end of this turn",)
