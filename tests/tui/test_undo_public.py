"""Undo against the AI says nothing of the AI's hand (rules.md §7a, issue #28 item 7).

Whether `u` is allowed may depend only on public facts: twin deals that differ only in the AI's hidden
hand (one holding a card it could play, one holding nothing it could) give the same answer after the
same public commands."""

from __future__ import annotations

from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession
from engine.cards import CardDB
from engine.scenario import scenario_from_data
from tests.tui.conftest import flow_data

CAN_PLAY = ["Emberlash", "Swallowed Word"]          # Fast cards it has the Influence for: a real choice
NOTHING = ["Test Recruit", "Test Wall"]              # slow units: at the human's priority, pass is all it has


def _twin(db: CardDB, hand: list[str]) -> VersusSession:
    data = flow_data()
    data["p2"]["hand"] = hand
    data["p2"]["influence"] = 3
    s = VersusSession.from_scenario(scenario_from_data(data, "<twin>", db), db, "<twin>", flow=Flow("full"),
                                    agents={1: ("random", 5)})
    assert isinstance(s, VersusSession)
    return s


def _answers(db: CardDB, hand: list[str], script: list[tuple[str, int | None]]) -> list[tuple[bool, str]]:
    s = _twin(db, hand)
    out = []
    for cmd, seat in script:
        assert s.send(cmd, seat).ok, (hand, cmd)
        out.append(s.undo_check())
    return out


def test_7a_undo_against_the_ai_gives_the_same_answer_whatever_its_hidden_hand(db: CardDB) -> None:
    # the twins are real twins: after the human passes, the AI has a choice in one and only pass in the other
    choices = []
    for hand in (CAN_PLAY, NOTHING):
        s = _twin(db, hand)
        s.send("pass", 0)
        assert s.game.current_player() == 1
        choices.append(len(s.game.legal_actions()))
    assert choices[0] > 1 and choices[1] == 1, choices
    # the human passes and the AI answers pass (public: the same commands in both twins)
    script: list[tuple[str, int | None]] = [("pass", 0), ("pass", 1)]
    a = _answers(db, CAN_PLAY, script)
    b = _answers(db, NOTHING, script)
    assert a == b, f"undo tells the AI's hand: {a} vs {b}"
    assert not a[-1][0] and "the AI has decided since" in a[-1][1]
    assert "Emberlash" not in a[-1][1] and "Swallowed" not in a[-1][1]
