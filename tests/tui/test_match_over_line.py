"""Issue #30 item 3, the match screen: at game over the window line says who won and how, in the replay's
words ("Tomas wins — conceded"), not "MATCH OVER: p2 (conceded)"."""

from __future__ import annotations

from c1k_tui.model.matchnames import result_words
from c1k_tui.model.view import match_view
from c1k_tui.screens.widgets import WindowLine
from engine.cards import CardDB
from tests.tui.conftest import flow_data, session_from
from tests.tui.test_sizes_round3 import _render


def test_the_window_line_names_the_winner_and_how_the_match_ended(db: CardDB) -> None:
    g = session_from(db, flow_data()).game
    assert match_view(g, 0).window.result == ""          # not over: no result
    g.apply_command("concede")                           # Mira (p1) has priority and concedes
    for viewer in (0, 1):                                 # both players read the same line
        w = match_view(g, viewer).window
        assert w.result == "Tomas wins — conceded"
    line = WindowLine()
    line.window = match_view(g, 0).window
    lines = _render(line, (80, 24))
    assert lines[1].strip() == "Tomas wins — conceded"
    assert "MATCH OVER" not in "".join(lines)


def test_a_draw_and_a_defeat_read_as_the_replay_does() -> None:
    assert result_words("Ana", "champion_defeated") == "Ana wins — Champion defeated"
    assert result_words(None, "turn_limit") == "Draw — the turn limit"
