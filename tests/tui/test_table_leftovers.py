"""The table's leftovers a player noticed in play (tui.md round 3, "two copies of a card stay
distinguishable" and friends): the AI's status line names it once, the options dialog's labels are whole at
80×24 and 120×40, the viewer's own hand shows the #ids `play #id` takes (the opponent's hidden hand never),
the order dialog says what Enter needs, the text loop says who won as the app does."""

from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len

from c1k_tui.model.recap import recap_entries
from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession, agent_label, move_line
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.controls import ChoiceList
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.match_screen import MatchScreen
from c1k_tui.screens.options_modal import OptionsModal
from engine import InfoSet, make_agent, observe
from engine.cards import CardDB
from engine.decks import find_deck, load_deck
from engine.state import MatchOptions
from tests.tui.conftest import flow_data, run_app, session_from
from tests.tui.test_versus import drive, human_command


def named_vs(db: CardDB, spec: str = "greedy", seed: int = 11, max_turns: int = 5) -> VersusSession:
    """A match against the AI whose seat is named as `c1k play --vs ai` names it: "AI (greedy)"."""
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    decks[0].player, decks[1].player = "Mira", agent_label(spec)
    return VersusSession.new_vs(db, decks, seed, MatchOptions(max_turns=max_turns), {1: spec}, flow=Flow("stops"))


# ------------------------------------------------------------------ 1. the AI's status line names it once

def test_the_ais_move_line_names_the_ai_once(db: CardDB) -> None:
    """Each AI move's status line starts with the AI's name and never repeats it ("AI (greedy): AI (greedy)
    draws a card" was the bug), nor its seat ("p2: play #453")."""
    s = named_vs(db)
    g = s.game
    who = agent_label("greedy")
    agent = make_agent("greedy", 3)
    lines = []
    for _ in range(400):
        if g.is_terminal():
            break
        p = g.current_player()
        if not s.is_ai(p):
            s.send(human_command(g, p, plays=True), p)
            continue
        seen = len(g.events)
        assert s.send(agent.act(InfoSet(g.clone(), p)), p).ok
        line = move_line(recap_entries(g, 0, seen), p, (observe(g, p).me.name, who), who)
        if line:
            lines.append(line)
    assert len(lines) > 5
    draws = [ln for ln in lines if "draws a card" in ln]
    assert draws, lines
    for line in lines:
        assert line.startswith(f"{who}: ") and line.count(who) == 1, line
        assert "p2:" not in line, line
    assert any("play #" in ln for ln in lines), lines


def test_the_status_line_after_an_ai_move_names_it_once_in_the_app(db: CardDB,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Every status line the app shows after an AI move (recorded as it is set, not only when the human is
    asked) names the AI once."""
    statuses: list[str] = []
    shown = MatchScreen.watch_status

    def watch(self: MatchScreen, status: str) -> None:
        statuses.append(status)
        shown(self, status)

    monkeypatch.setattr(MatchScreen, "watch_status", watch)
    s = named_vs(db, max_turns=6)
    app = C1KApp(db=db, session=s)
    app.versus_pace = 0
    who = agent_label("greedy")

    async def body(pilot: Any) -> None:
        await drive(pilot, app)

    run_app(app, body)
    said = [st for st in statuses if st.startswith(f"[b]{who}:[/b]")]
    assert len(said) > 3, statuses
    assert any("draws a card" in st for st in said), said
    for st in said:
        assert st.count(who) == 1, st


# ------------------------------------------------------------------ 2. the options dialog's labels are whole

@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("open_hands", [True, False], ids=["open", "hidden"])
def test_every_options_label_is_whole_at_both_sizes(db: CardDB, size: tuple[int, int], open_hands: bool) -> None:
    """Walking the options dialog from top to bottom, every row's label is on screen whole at some point
    (a long label wraps under itself, never ends in "…"), and no row is wider than the list."""
    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=open_hands, flow="stops"))
    seen: dict[int, str] = {}
    labels: list[str] = []

    async def body(pilot: Any) -> None:
        for _ in range(200):                      # past the hand-off and the key guard, to the dialog
            if isinstance(app.screen, OptionsModal):
                break
            await pilot.press("enter" if isinstance(app.screen, HandoffScreen) else "o")
            await pilot.pause(0.05)
        assert isinstance(app.screen, OptionsModal)
        box = app.screen.query_one("#options-box")
        assert box.region.right <= size[0] and box.region.bottom <= size[1], box.region
        cl = app.screen.query_one(ChoiceList)
        labels.extend(c.label for c in cl.choices)
        for n in range(len(cl.choices)):     # the cursor on each row in turn, as ↓ would put it
            cl.cursor = n
            rows = cl.render().plain.split("\n")
            assert all(cell_len(r) <= cl.size.width for r in rows), (cl.size.width, rows)
            for i in set(cl.row_of):
                text = " ".join(r.strip() for r, j in zip(rows, cl.row_of, strict=False) if j == i)
                if len(text) > len(seen.get(i, "")):
                    seen[i] = text

    run_app(app, body, size=size)
    assert len(labels) > 10
    for i, label in enumerate(labels):
        assert " ".join(label.split()) in " ".join(seen.get(i, "").split()), (label, seen.get(i))
