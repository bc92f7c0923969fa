"""Who goes first is a match option (rules.md §1, TPS turn order): p1 (default), p2, or random — drawn
from the StateSeed's generator before the shuffle, so the record replays it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import record as rec
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.state import MatchOptions

DB = load_card_db()
DECKS = [load_deck(find_deck(n), DB) for n in ("ironbound", "emberfall")]


def test_default_is_p1_and_the_option_is_left_out_of_the_record() -> None:
    g = Game.new(DB, DECKS[0], DECKS[1], 3)
    assert (g.active, g.first_player, g.window) == (0, 0, "draw.post")
    assert "first" not in g.options.to_dict()


def test_p2_goes_first_and_skips_its_first_draw() -> None:
    # (no compensation here: what the second player gets is RULES Second player, tests/test_second_player.py)
    g = Game.new(DB, DECKS[0], DECKS[1], 3, MatchOptions(first="p2", compensation="none"))
    assert (g.active, g.first_player, g.turn) == (1, 1, 1)
    assert g.current_player() == 1 and g.window == "draw.post"
    default = Game.new(DB, DECKS[0], DECKS[1], 3, MatchOptions(compensation="none"))
    # nobody has drawn yet: the first player (now p2) skips the draw of their first turn
    assert [len(p.hand) for p in g.players] == [len(p.hand) for p in default.players]
    assert "the first player skips the draw of their first turn" in "\n".join(g.log_lines)
    assert "(p2) goes first" in g.log_lines[0]


def test_random_is_drawn_from_the_seed_before_the_shuffle_and_replays() -> None:
    firsts = {s: Game.new(DB, DECKS[0], DECKS[1], s, MatchOptions(first="random")).first_player
              for s in range(1, 9)}
    assert set(firsts.values()) == {0, 1}
    for s, fp in firsts.items():
        assert Game.new(DB, DECKS[0], DECKS[1], s, MatchOptions(first="random")).first_player == fp
    # the draw comes before the shuffle: same seed, p1 going first either way, but a different library order
    g = Game.new(DB, DECKS[0], DECKS[1], 1, MatchOptions(first="random"))
    fixed = Game.new(DB, DECKS[0], DECKS[1], 1, MatchOptions(first="p2"))
    assert g.first_player == fixed.first_player == 1
    assert [g.card(c).id for c in g.players[0].library] != [fixed.card(c).id for c in fixed.players[0].library]
    again, _ = rec.begin_game(rec.Start.of_decks(DECKS, 1, MatchOptions(first="random")), DB)
    assert again.state_hash() == g.state_hash()


def test_an_unknown_choice_is_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="expected one of p1, p2, random"):
        MatchOptions(first="p3")


def test_cli_play_first_option(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    res = CliRunner().invoke(app, ["play", "--seed", "3", "--first", "p2", "--save", str(save)],
                             input="p2: pass\n")
    assert res.exit_code == 0, res.output
    record = rec.load(save)
    assert record.start.options.get("first") == "p2" and record.commands[0] == "p2: pass"
    bad = CliRunner().invoke(app, ["play", "--first", "p3"])
    assert bad.exit_code != 0 and "p3" in bad.output
