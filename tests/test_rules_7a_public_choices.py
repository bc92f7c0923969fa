"""rules.md §7a (added 2026-11-27): choices made on play are public — a chosen Thread mode, the targets
and a Voidcast payment are shown in words on the stack and in the log (so in every recap), to both
players, derived from the card definitions ("Glimpse the Thousand Paths — mode 2: …"), never as a bare
"mode 2"."""

from __future__ import annotations

from typing import Any

from engine import events_for, mode_label, mode_words, observe
from engine.cards import load_card_db
from engine.game import Game
from engine.scenario import build, scenario_from_data

DB = load_card_db()


def _game(hand: list[str], influence: int = 6) -> Game:
    data: dict[str, Any] = {
        "scenario": {"title": "choices", "seed": 3, "turn": 3, "active": "p1", "window": "main.priority"},
        "p1": {"name": "Mira", "life": 12, "influence": influence, "hand": hand,
               "library": ["Glimpse the Thousand Paths"] * 4},
        "p2": {"name": "Tomas", "life": 20, "influence": 3, "hand": ["Emberlash"],
               "library": ["Emberlash"] * 4, "board": [{"card": "Briar Scout", "as": "scout", "slot": 2}]},
    }
    return build(scenario_from_data(data, "<test>", DB))


def _stack_line(g: Game, viewer: int) -> str:
    return next(e.text for e in reversed(events_for(g, viewer)) if e.kind == "stack")


def test_rules_7a_a_thread_mode_is_public_in_words_on_the_stack_and_in_the_log() -> None:
    g = _game(["Glimpse the Thousand Paths"])
    g.apply_command('play "Glimpse the Thousand Paths" mode 2')
    for viewer in (0, 1, -1):
        line = _stack_line(g, viewer)
        assert line.endswith("→ stack (p1) — mode 2: heal 4 to your Champion"), line
    for viewer in (0, 1):
        (top,) = observe(g, viewer).stack
        assert top.choice == "mode 2: heal 4 to your Champion"
    d = DB.lookup("Glimpse the Thousand Paths")
    assert mode_words(d, 1) == "mode 1: draw 2 cards"
    # and when the branch resolves, the log says what it does
    g.apply_command("pass")
    g.apply_command("pass")
    assert any("branch 2 of 2 resolves — heal 4 to your Champion" in e.text for e in events_for(g, 1))


def test_rules_7a_targets_are_public_in_words() -> None:
    g = _game(["Emberlash"])
    scout = next(u.cid for u in observe(g, 1).me.units if u is not None)
    g.apply_command(f"play Emberlash target #{scout}")
    for viewer in (0, 1):
        assert _stack_line(g, viewer).endswith(f"— targeting Briar Scout #{scout}")


def test_rules_7a_a_voidcast_payment_is_public_in_words() -> None:
    g = _game(["Echo into Nothing"])
    g.apply_command('play "Echo into Nothing" pay voidcast')
    for viewer in (0, 1):
        line = _stack_line(g, viewer)
        assert "— Voidcast: paid 1 instead of 3" in line, line
        assert observe(g, viewer).stack[0].choice.startswith("Voidcast: paid 1 instead of 3")


def test_the_words_are_deterministic_and_come_from_the_definitions() -> None:
    a, b = _game(["Glimpse the Thousand Paths"]), _game(["Glimpse the Thousand Paths"])
    for g in (a, b):
        g.apply_command('play "Glimpse the Thousand Paths" mode 1')
    assert [e.text for e in events_for(a, 1)] == [e.text for e in events_for(b, 1)]
    cid = observe(a, 0).stack[0].source
    assert mode_label(a, cid, 1) == "mode 1: draw 2 cards" == observe(a, 1).stack[0].choice
