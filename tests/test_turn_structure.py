"""The turn structure is data (rules.md §2, TPS "Phase System Extensibility"): one table drives the turn
manager; a Seat changes it only through named hooks; `turn_structure()` shows it as it is."""

from __future__ import annotations

from typing import Any

from engine import turn
from engine.cards import load_card_db, parse_cards
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.scenario import build, scenario_from_data
from engine.state import PHASE_TRIGGERS, TURN_TABLE, WINDOWS, MatchOptions

DB = load_card_db()
TWIN = "Seat of the Twin Banners"


def _game(seat: str | None, window: str = "main.priority", **extra: Any) -> Game:
    data: dict[str, Any] = {"scenario": {"seed": 1, "turn": 3, "active": "p1", "window": window},
                            "p1": {"library": ["Shade", "Shade"], **extra},
                            "p2": {"library": ["Shade", "Shade"]}}
    if seat:
        data["p1"]["seat"] = seat
    return build(scenario_from_data(data, "<test>", DB))


def test_the_table_is_the_fifteen_windows_with_kinds_rules_and_phase_triggers() -> None:
    assert tuple(w.id for w in TURN_TABLE) == WINDOWS and len(WINDOWS) == 15
    assert {w.kind for w in TURN_TABLE} == {"trigger", "turn_based", "priority", "declaration"}
    assert PHASE_TRIGGERS == {"draw.start": "start_of_draw", "influence.start": "start_of_influence",
                              "main.priority": "start_of_main", "end.start": "start_of_end"}


def test_default_structure_is_the_table_in_order() -> None:
    g = _game(None)
    assert g.turn_structure() == WINDOWS
    assert "step" not in g.snapshot() or g.snapshot()["step"] is None


def test_a_seat_adds_a_combat_phase_and_skips_draw_post_only_on_its_owners_turns() -> None:
    g = _game(TWIN)
    s = g.turn_structure()
    assert s.count("combat.declare_attackers") == 2 and "draw.post" not in s and len(s) == 19
    assert s[5:16] == ("main.priority",) + WINDOWS[7:12] * 2
    assert turn.turn_windows(g, active=1) == tuple(range(15))


def test_attack_none_in_the_first_combat_goes_to_the_second_then_the_end_phase() -> None:
    g = _game(TWIN)
    g.apply_command("p1: pass")
    g.apply_command("p2: pass")
    assert (g.window, g.step) == ("combat.declare_attackers", 6)
    g.apply_command("p1: attack none")
    assert (g.window, g.step) == ("combat.declare_attackers", 11)
    assert g.snapshot()["step"] == 11
    c = g.clone()
    assert c.step == 11 and c.state_hash() == g.state_hash()
    g.apply_command("p1: attack none")
    assert g.window == "end.final" and g.turn == 3


def test_skip_hooks_for_influence_response_and_combat_exit() -> None:
    seat = {"id": "t-seat", "name": "Hasty Seat", "type": "seat", "text": "x",
            "modifiers": {"skip_influence_response": 1, "skip_combat_exit": 1}}
    cards, problems = parse_cards([seat], "t.toml")
    assert not problems
    db = DB.copy()
    db.add(cards[0])
    data: dict[str, Any] = {"scenario": {"seed": 1, "turn": 3, "active": "p1", "window": "draw.start"},
                            "p1": {"seat": "Hasty Seat", "library": ["Shade"]}, "p2": {"library": ["Shade"]}}
    g = build(scenario_from_data(data, "<test>", db))
    assert "influence.response" not in g.turn_structure() and "combat.exit" not in g.turn_structure()
    g.apply_command("p1: pass")
    g.apply_command("p2: pass")   # draw.post → (influence.start, influence.gain) → main.priority
    assert g.window == "main.priority"


def test_bad_hook_values_are_refused_by_the_card_format() -> None:
    seat = {"id": "t-seat", "name": "Greedy Seat", "type": "seat", "text": "x",
            "modifiers": {"extra_combat_phases": 5}}
    cards, problems = parse_cards([seat], "t.toml")
    assert not cards and "extra_combat_phases" in problems[0]


def test_first_player_draws_option() -> None:
    decks = [load_deck(find_deck(n), DB) for n in ("ironbound", "ironbound")]
    skip = Game.new(DB, decks[0], decks[1], 3)
    draw = Game.new(DB, decks[0], decks[1], 3, MatchOptions(first_player_draws=True))
    assert len(draw.players[0].hand) == len(skip.players[0].hand) + 1
    assert "first_player_draws" not in skip.options.to_dict()


def test_the_phase_bar_shows_the_structure_as_it_is() -> None:
    """rules.md §2: a changed structure is shown by the app's phase bar as it is, not as the default —
    a second COMBAT group, no draw.post, and the current window marked at its own position."""
    from c1k_tui.model.view import match_view, phase_groups
    from c1k_tui.screens.widgets import PhaseBar

    g = _game(TWIN)
    g.apply_command("p1: pass")
    g.apply_command("p2: pass")
    g.apply_command("p1: attack none")          # the second combat phase's declare_attackers
    w = match_view(g, 0).window
    groups = phase_groups(w.structure)
    assert [ph for ph, _ in groups] == ["DRAW", "INFLUENCE", "MAIN", "COMBAT", "COMBAT", "END"]
    assert [label for _, label, _ in groups[0][1]] == ["start", "draw"]
    bar = PhaseBar()
    bar.window = w
    text = bar.render().plain
    assert text.count("COMBAT") == 2 and "post" in text and "draw·post" not in text
    first, second = text.index("COMBAT"), text.rindex("COMBAT")
    assert "[ATK]" in text[second:] and "[ATK]" not in text[first:second]
    assert phase_groups()[0][1] == [(0, "start", 0), (1, "draw", 1), (2, "post", 2)]   # the default turn


def test_the_card_model_knows_every_turn_hook() -> None:
    # CardDef.turn_hooks (turn_windows' shortcut) is derived from cards.TURN_HOOK_MODIFIERS: it must name
    # exactly the turn manager's hooks, or a Seat's hook would be ignored
    from engine.cards import TURN_HOOK_MODIFIERS
    from engine.turn import TURN_HOOKS
    assert sorted(TURN_HOOK_MODIFIERS) == sorted(TURN_HOOKS)


def test_each_players_structure_is_their_seats_kept_through_clones() -> None:
    """PlayerState.structure (what turn_windows reads on every window) is the structure the player's
    Seat's modifiers make, worked out when the Seat is set — for every Seat of the set, on both seats'
    turns, and a clone keeps it."""
    seats = sorted(d.name for d in DB.by_id.values() if d.type == "seat")
    assert TWIN in seats
    for seat in seats:
        g = _game(seat)
        want = turn.seat_structure(DB.lookup(seat).modifiers)
        assert g.players[0].structure == want == turn.turn_windows(g, active=0)
        assert g.players[1].structure == tuple(range(15)) == turn.turn_windows(g, active=1)
        assert g.clone().players[0].structure == want
