"""The table's leftovers a player noticed in play (tui.md round 3, "two copies of a card stay
distinguishable" and friends): the AI's status line names it once, the options dialog's labels are whole at
80×24 and 120×40, the viewer's own hand shows the #ids `play #id` takes (the opponent's hidden hand never),
the order dialog says what Enter needs, the text loop says who won as the app does."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model.builders import find_lessons, lesson_session
from c1k_tui.model.marks import Marks
from c1k_tui.model.recap import recap_entries
from c1k_tui.model.session import Flow
from c1k_tui.model.versus_session import VersusSession, agent_label, move_line
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.controls import ChoiceList
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.match_screen import MatchScreen
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from c1k_tui.screens.options_modal import OptionsModal
from c1k_tui.screens.widgets import HandGrid
from engine import InfoSet, make_agent, observe
from engine.cards import CardDB
from engine.decks import find_deck, load_deck
from engine.state import MatchOptions
from tests.tui.conftest import flow_data, press_at, run_app, session_from
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
        if line is not None:
            lines.append(line)
    assert len(lines) > 5
    draws = [ln for ln in lines if "draws a card" in ln.said]
    assert draws, lines
    for line in lines:                  # the parts, for the screen to style: who once, then what it did
        assert line.who == who and who not in line.said and line.said, line
        assert str(line) == f"{who}: {line.said}" and "p2:" not in line.said, line
    assert any("play #" in ln.said for ln in lines), lines


def test_the_ais_move_is_styled_from_its_parts() -> None:
    """The screen bolds who moved and leaves what it did plain, from the typed parts (not by cutting "who:"
    off a string): a name or card text with brackets or a colon stays text."""
    from rich.text import Text

    from c1k_tui.model.versus_session import MoveLine
    from c1k_tui.screens.versus import move_status, thinking_status

    line = MoveLine("AI [search:1]", "plays Veil Mask [Set]: AI [search:1] ready")
    shown = Text.from_markup(move_status(line))
    assert shown.plain == "AI [search:1]: plays Veil Mask [Set]: AI [search:1] ready"
    bold = "".join(shown.plain[s.start:s.end] for s in shown.spans if "bold" in str(s.style))
    assert bold == "AI [search:1]:"
    thinking = Text.from_markup(thinking_status("AI [search:1]", line))
    assert thinking.plain == "AI [search:1] is thinking…   (last: plays Veil Mask [Set]: AI [search:1] ready)"


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
    thinking = [st for st in statuses if "is thinking" in st]
    assert any("(last: " in st for st in thinking), thinking
    for st in statuses:                # its moves, and "is thinking… (last: …)" while it decides again
        assert st.count(who) <= 1, st


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


# ------------------------------------------------------------------ 3. the hand shows its #ids, the viewer's only

TEN = ["Test Recruit", "Test Recruit", "Test Knight", "Test Wall", "Test Bolt", "Test Favor", "Test Recruit",
       "Test Knight", "Test Wall", "Test Bolt"]


def screen_plain(app: C1KApp) -> str:
    return re.sub(r"<[^>]+>", " ", app.export_screenshot()).replace("&#160;", " ")


async def to_table(pilot: Any, app: C1KApp, viewer: int) -> None:
    """Past the hand-off (and the key guard) to `viewer`'s table."""
    for _ in range(200):
        if app.viewer == viewer and not isinstance(app.screen, HandoffScreen):
            return
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
        await pilot.pause(0.05)
    raise AssertionError(f"no table for p{viewer + 1}")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_each_hand_card_shows_the_id_play_takes(db: CardDB, size: tuple[int, int]) -> None:
    """Ten cards, three copies of Test Recruit: each cell shows its card's whole #id and cost, so the copies
    differ; the second copy's key and Enter play the id its cell shows."""
    data = flow_data()
    data["p1"]["hand"] = TEN
    data["p1"]["influence"] = 6
    s = session_from(db, data, flow="stops")
    app = C1KApp(db=db, session=s)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await to_table(pilot, app, 0)
        await pilot.pause(0.6)                     # the key guard: keys act 0.5 s after the table is painted
        grid = app.screen.query_one("#hand", HandGrid)
        cols = grid.columns()
        w = max(10, grid.size.width // cols)
        rows = grid.render().plain.split("\n")
        out["cells"] = [rows[i // cols][(i % cols) * w:(i % cols + 1) * w] for i in range(len(grid.cards))]
        out["hand"] = grid.cards
        await pilot.press("2", "enter")
        await pilot.pause(0.2)
        for _ in range(3):                         # a slot for the unit: the first empty one
            if s.game.record and s.game.record[-1].startswith("p1: play"):
                break
            await pilot.press("enter")
            await pilot.pause(0.2)

    run_app(app, body, size=size)
    hand = out["hand"]
    assert [c.name for c in hand] == TEN
    for cell, c in zip(out["cells"], hand, strict=True):
        assert re.search(rf"#{c.cid} ", cell) and f"◆{c.cost}" in cell, (cell, c.cid)
    recruits = [cell for cell, c in zip(out["cells"], hand, strict=True) if c.name == "Test Recruit"]
    assert len(set(recruits)) == 3, recruits
    assert s.game.record[-1].startswith(f"p1: play #{hand[1].cid}"), s.game.record[-1]


def test_the_opponents_hand_ids_never_show_while_hidden(db: CardDB) -> None:
    """rules.md §7a: the hand shows the viewer's own ids; at each player's table and at the hand-off between
    them, no id of the other player's hand, Set or library is anywhere on the screen."""
    data = flow_data()
    data["p1"]["hand"] = TEN[:5]
    data["p2"]["hand"] = ["Test Recruit", "Test Bolt", "Test Knight", "Test Recruit"]
    s = session_from(db, data, flow="full")
    app = C1KApp(db=db, session=s)
    g = s.game
    screens: list[tuple[str, int, str]] = []

    async def body(pilot: Any) -> None:
        await to_table(pilot, app, 0)
        screens.append(("table", 0, screen_plain(app)))
        await pilot.pause(0.6)
        await pilot.press("space")                 # Mira passes: Tomas decides, through a hand-off
        for _ in range(100):
            if isinstance(app.screen, HandoffScreen):
                break
            await pilot.pause(0.05)
        screens.append(("handoff", -1, screen_plain(app)))
        await to_table(pilot, app, 1)
        screens.append(("table", 1, screen_plain(app)))

    run_app(app, body, size=(120, 40))
    assert [k for k, _, _ in screens] == ["table", "handoff", "table"]

    def hidden(p: int) -> set[int]:
        ps = g.players[p]
        return set(ps.hand) | set(ps.set_cards) | set(ps.library)

    for kind, viewer, text in screens:
        for p in (0, 1):
            if p == viewer:
                assert all(re.search(rf"#{cid}\b", text) for cid in g.players[p].hand), (kind, p)
                continue
            leaked = [cid for cid in hidden(p) if re.search(rf"#{cid}\b", text)]
            assert not leaked, (kind, viewer, p, leaked)


# ------------------------------------------------------------------ 4. Enter on too few marks says what to do

def test_c1k_9_enter_on_an_unmarked_order_says_how_to_mark_it_and_sends_nothing() -> None:
    m = Marks.for_choice(["Oracle of Ash (#3)", "Oracle of Dew (#4)"], 2, "C1K 8")
    assert m.problem() == "0 of 2 marked: mark the order first — Space on each, the 1st to resolve first, then Enter"
    m.toggle(2)
    assert m.problem() == "1 of 2 marked: mark the 2nd with Space (↑/↓ to it), then Enter"
    m.toggle(1)
    assert m.problem() == "" and m.command() == "choose 2 1"


def test_c1k_5_2_a_choice_with_too_few_or_too_many_marks_says_how_many() -> None:
    m = Marks.for_choice(["Ember", "Wall", "Knight"], 2, "C1K 5.2")
    m.sync({3})
    assert m.problem() == "1 of 2 marked: mark 1 more with Space (exactly 2), then Enter"
    m.sync({1, 2, 3})
    assert m.problem() == "3 of 2 marked: unmark 1 with Space (exactly 2), then Enter"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_enter_in_the_order_dialog_with_nothing_marked_says_what_to_do(db: CardDB, size: tuple[int, int]) -> None:
    """Lesson 37's Flux order dialog: Enter with "0 of 2 marked" keeps the dialog, sends nothing and shows
    (on screen, at both sizes) how to mark the order; with one marked it names the 2nd."""
    info = next(x for x in find_lessons() if x.path.name.startswith("37-"))
    app = C1KApp(db=db, session=lesson_session(db, info), lessons=find_lessons())
    seen: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        for _ in range(50):
            if isinstance(app.screen, MultiChoiceModal):
                break
            await pilot.pause(0.1)
        assert isinstance(app.screen, MultiChoiceModal)
        seen["record"] = list(app.game.record)
        await pilot.pause(0.6)                      # the key guard
        await pilot.press("enter")
        await pilot.pause()
        seen["none"] = (type(app.screen).__name__, screen_plain(app), list(app.game.record))
        await pilot.press("down", "space", "enter")
        await pilot.pause()
        seen["one"] = (type(app.screen).__name__, screen_plain(app), list(app.game.record))

    run_app(app, body, size=size)
    for key, words in (("none", ["mark the order first", "the 1st to", "then Enter"]),
                       ("one", ["mark the 2nd with Space"])):
        screen, text, record = seen[key]
        flat = " ".join(text.split())
        assert screen == "MultiChoiceModal" and record == seen["record"], key
        assert all(w in flat for w in words), (key, flat)


# ------------------------------------------------------------------ 5. the text loop says who won as the app does

@pytest.mark.parametrize(("names", "winner"), [(["--p1", "Mira", "--p2", "Tomas"], "Tomas"), ([], "Player 2")],
                         ids=["named", "default names"])
def test_the_text_loop_says_who_won_in_the_apps_words(names: list[str], winner: str) -> None:
    """`c1k play --text`: p1 concedes; the last line reads as the table's game-over line ("Tomas wins —
    conceded"), then the seed, never "MATCH OVER: p2 (conceded)"."""
    res = CliRunner().invoke(cli, ["play", "ironbound", "emberfall", *names, "--text"], input="concede\n")
    assert res.exit_code == 0, res.output
    last = res.output.strip().splitlines()[-1]
    assert re.fullmatch(rf"{winner} wins — conceded · seed \d+", last), last
    assert "MATCH OVER" not in res.output


def test_the_table_and_the_text_loop_say_the_same_result(db: CardDB) -> None:
    from c1k_tui.cli.textplay import render
    from c1k_tui.model.view import match_view

    g = session_from(db, flow_data()).game
    g.apply_command("concede")
    line = match_view(g, 1).window.result
    assert line == "Tomas wins — conceded"
    assert render(observe(g, 0)).splitlines()[-1].startswith(f"{line} · seed ")


# ------------------------------------------------------------------ found in play: a double Space passed for the next player

def test_a_double_space_never_passes_for_the_player_behind_the_hand_off(db: CardDB,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Played at 120×40: Mira pressed Space twice fast at her main phase; both keys were admitted on her
    table, the first passed, and the second's command — sent later — passed Tomas's turn behind his hand-off,
    unseen (and his discard prompt opened over the hand-off). A command a key asked for is dropped when the
    screen changed after it was asked: only Mira's pass is sent, and the hand-off stays on top."""
    monkeypatch.setattr(HandoffScreen, "GUARD_S", 0.5)
    data = flow_data()
    data["p1"]["board"] = []                      # no attack: Mira's pass ends her turn, Tomas's begins
    s = session_from(db, data, flow="stops")
    app = C1KApp(db=db, session=s)
    seen: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await to_table(pilot, app, 0)
        for _ in range(100):                      # Mira has seen her table for the guard's 0.5 s
            await pilot.pause(0.05)
            if app.keys.admits(time.monotonic()):
                break
        n = len(s.game.record)
        now = time.monotonic()
        press_at(app, "space", now)
        press_at(app, "space", now)               # the same instant: both reach her table
        await pilot.pause(0.8)
        seen["sent"] = [c for i, c in enumerate(s.game.record) if i >= n and i not in s.auto]
        seen["screen"] = type(app.screen).__name__

    run_app(app, body)
    assert seen["sent"] == ["p1: pass"], seen["sent"]
    assert seen["screen"] == "HandoffScreen"


def test_the_80x24_footer_keeps_quit_while_a_target_or_slot_is_picked(db: CardDB) -> None:
    """Played at 80×24: picking a target for Emberlash, the footer gained "c confirm" and lost "^q quit"
    (tui.md round 3: the 80×24 footer keeps "quit"). While a pick is in progress "pass until…" (which a
    pick doesn't take) leaves the footer; quit stays.

    And the footer (`KeysFooter`) builds its keys again only when they change: the table refreshes its
    bindings on every view it shows, and the same view shown again builds nothing."""
    from textual.widgets import Footer

    s = session_from(db, flow_data(), open_hands=True)
    app = C1KApp(db=db, session=s)
    seen: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await to_table(pilot, app, 0)
        seen["before"] = _text_rows(app)[-1]
        await pilot.pause(0.6)
        ms = app.match_screen
        assert ms is not None
        footer = ms.query_one(Footer)
        built: list[int] = []
        real = footer.recompose

        async def counted() -> None:
            built.append(1)
            await real()

        footer.recompose = counted  # type: ignore[method-assign]
        for _ in range(3):                         # the same view again: the same keys
            ms.refresh_bindings()
            app.refresh_view()
            await pilot.pause()
        seen["rebuilt for the same keys"] = len(built)
        await pilot.press("1", "enter")            # Test Recruit: its slot is picked next
        await pilot.pause()
        assert app.match_screen is not None and app.match_screen.pick is not None
        seen["picking"] = _text_rows(app)[-1]
        seen["rebuilt for the pick"] = len(built) - seen["rebuilt for the same keys"]

    run_app(app, body, size=(80, 24))
    assert "quit" in seen["before"], seen
    assert "quit" in seen["picking"] and "confirm" in seen["picking"], seen
    assert seen["rebuilt for the same keys"] == 0, f"the footer was built again for the same keys: {seen}"
    assert seen["rebuilt for the pick"] >= 1, seen


def _text_rows(app: C1KApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]
