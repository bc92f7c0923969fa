"""The hot-seat table, round 2 (issue 18 items 4–10; tui.md "The hot-seat table, round 2"): the start
screen's Enter, 80×24, the whole log, the game-over screen, cursors on legal targets, choices in words,
completion and history. Screens are driven with Pilot at 120×40 and 80×24."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from c1k_tui.model.builders import StartChoice
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.start_screen import StartScreen
from engine.cards import CardDB
from tests.tui.conftest import run_app

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}


# ---------------------------------------------------------------- item 4: Enter starts


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_enter_on_the_first_field_of_the_start_screen_starts_the_match(db: CardDB, tmp_path: Path,
                                                                        size: str) -> None:
    app = C1KApp(db=db, mode="start", autosave=tmp_path / "a.json",
                 start=StartChoice("ironbound", "emberfall", 9, "Ana", "Tomas", False, False, "stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        out["focus"] = app.screen.focused.id if app.screen.focused is not None else None
        await pilot.press("enter")
        await pilot.pause()
        out["screen"] = type(app.screen).__name__
        out["session"] = app.session is not None

    run_app(app, body, SIZES[size])
    assert out["focus"] == "deck-a"                      # the first field has the focus …
    assert out["session"] and out["screen"] != "StartScreen"   # … and Enter started the match there


def test_enter_on_a_start_screen_button_presses_that_button(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, mode="start", autosave=tmp_path / "a.json",
                 start=StartChoice("ironbound", "emberfall", 9, "Ana", "Tomas", False, False, "stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        app.screen.query_one("#lessons").focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        out["screen"] = type(app.screen).__name__

    run_app(app, body)
    assert out["screen"] == "LessonsScreen"


def test_down_opens_the_deck_list_and_enter_there_picks_a_deck(db: CardDB, tmp_path: Path) -> None:
    app = C1KApp(db=db, mode="start", autosave=tmp_path / "a.json",
                 start=StartChoice("ironbound", "emberfall", 9, "Ana", "Tomas", False, False, "stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        from textual.widgets import Select

        await pilot.pause()
        await pilot.press("down")        # opens the list
        await pilot.pause()
        await pilot.press("down", "enter")   # the next deck, picked: the match is not started yet
        await pilot.pause()
        out["screen"] = isinstance(app.screen, StartScreen)
        out["deck"] = app.screen.query_one("#deck-a", Select).value

    run_app(app, body)
    assert out["screen"] and out["deck"] != "ironbound"


# ---------------------------------------------------------------- item 5: 80×24


def screen_text(app: Any) -> list[str]:
    """The screen as it is drawn now, row by row (plain text)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def test_the_hand_off_recap_opens_at_its_newest_lines_and_scrolls_at_80x24() -> None:
    from rich.text import Text
    from textual.app import App

    from c1k_tui.screens.handoff_screen import HandoffScreen

    recap = Text("Since Tomas last decided (public):\n" + "\n".join(f"recap line {i:02d}" for i in range(1, 41)))

    class A(App[None]):
        CSS_PATH = str(Path(__file__).parents[2] / "c1k_tui" / "screens" / "app.tcss")

        def on_mount(self) -> None:
            self.push_screen(HandoffScreen("Tomas", "p2", "see what happened", "C1K 6", 3, "main.priority", recap))

    out: dict[str, list[str]] = {}

    async def main() -> None:
        app = A()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            out["open"] = screen_text(app)
            await pilot.press("pageup")
            await pilot.pause()
            out["pageup"] = screen_text(app)
            await pilot.press("home")
            await pilot.pause()
            out["home"] = screen_text(app)
            await pilot.press("down", "down")
            await pilot.pause()
            out["down"] = screen_text(app)

    import asyncio

    asyncio.run(main())
    opened = "\n".join(out["open"])
    assert "recap line 40" in opened and "press Enter" in opened     # the newest line and the way on
    assert "recap line 01" not in opened
    assert "recap line 40" not in "\n".join(out["pageup"])
    assert "recap line 01" in "\n".join(out["home"]) or "Since Tomas" in "\n".join(out["home"])
    assert out["down"] != out["home"]


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_a_refusal_wraps_to_a_second_row_and_keeps_its_rule_id(db: CardDB, size: str) -> None:
    from c1k_tui.screens.match_screen import MatchScreen
    from tests.tui.conftest import flow_data, session_from

    app = C1KApp(db=db, session=session_from(db, flow_data(), open_hands=True))
    out: dict[str, Any] = {}
    reason = ("you can't afford it: Test Knight costs 2 Influence and you have 1, and this sentence is long "
              "enough to need a second row at eighty columns")

    async def body(pilot: Any) -> None:
        await pilot.pause()
        ms = app.screen
        assert isinstance(ms, MatchScreen)
        ms.status = f"[b]✗ refused:[/b] {reason} ([b]C1K 2.2[/b])"
        await pilot.pause()
        out["text"] = "\n".join(screen_text(app))

    run_app(app, body, SIZES[size])
    assert "(C1K 2.2)" in out["text"] and "✗ refused: you can't afford it" in out["text"]


def test_fit_rows_keeps_the_end_of_a_long_message() -> None:
    from rich.text import Text

    from c1k_tui.screens.match_screen import fit_rows

    short = Text("✗ refused: a short reason (C1K 2.2)")
    assert fit_rows(short, 78, 2) is short
    long = Text("✗ refused: " + "word " * 60 + "(C1K 2.2) — not sent")
    cut = fit_rows(long, 78, 2)
    assert cut.plain.startswith("✗ refused: word") and cut.plain.endswith("(C1K 2.2) — not sent")
    assert "…" in cut.plain and len(cut.plain) <= 2 * 78


# ---------------------------------------------------------------- item 6: the whole log


def long_session(db: CardDB, turns: int = 10, open_hands: bool = False, seed: int = 11) -> Any:
    """A real match (Ironbound vs Emberfall), played by a seeded random policy to the start of `turns`."""
    from c1k_tui.model.session import Flow, MatchSession
    from engine import find_deck, load_deck
    from engine.rng import SplitMix64
    from engine.selfplay import random_action

    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    decks[0].player, decks[1].player = "Ana", "Tomas"
    s = MatchSession.new(db, decks, seed, flow=Flow("full"), open_hands=open_hands)
    rng = SplitMix64(seed)
    g = s.game
    while g.turn < turns and not g.is_terminal():
        g.apply(random_action(g, rng))
    assert not g.is_terminal()
    return s


def test_the_full_log_holds_every_line_and_turn_2_is_found(db: CardDB) -> None:
    from c1k_tui.model.view import log_for
    from c1k_tui.screens.controls import LogView
    from c1k_tui.screens.log_screen import LogScreen
    from engine import observe

    s = long_session(db)
    g = s.game
    out: dict[str, Any] = {}
    app = C1KApp(db=db, session=s)

    async def body(pilot: Any) -> None:
        await pilot.press("enter")          # the first hand-off
        await pilot.pause()
        out["viewer"] = app.viewer
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, LogScreen)
        out["all"] = app.screen.all_lines
        for query in ("t2", "turn 2"):
            await pilot.press("slash")
            inp = app.screen.query_one("#log-filter")
            inp.value = query               # type: ignore[attr-defined]
            await pilot.pause()
            out[query] = app.screen.query_one("#full-log", LogView).lines_
        hidden = [f"{h.name} #{h.cid}" for h in observe(g, 1 - out["viewer"]).hand]
        out["hidden"] = hidden
        found = []
        for label in hidden:
            app.screen.query_one("#log-filter").value = label   # type: ignore[attr-defined]
            await pilot.pause()
            found += list(app.screen.query_one("#full-log", LogView).lines_)
        out["found"] = found

    run_app(app, body)
    mine = log_for(g, out["viewer"], False, last=0)
    assert len(mine) > 200 and out["all"] == mine          # every line, not the last 200
    assert out["all"][0] == mine[0]
    for query in ("t2", "turn 2"):
        assert out[query] and all(x.startswith("T2 ") for x in out[query])
    # the opponent's hand: a search for its cards finds nothing the public log doesn't show
    public = "\n".join(log_for(g, -1, False, last=0))
    assert out["hidden"] and all(label in public for label in out["hidden"] if any(label in x for x in out["found"]))


def test_turn_filters_take_t5_turn_5_and_ranges() -> None:
    from c1k_tui.screens.log_screen import filter_log

    lines = ("T1 main.priority", "a", "T2 main.priority", "b", "T3 combat.damage", "c turn")
    assert filter_log(lines, "turn 2") == ("T2 main.priority", "T2 main.priority │ b")
    assert filter_log(lines, "t2-3") == filter_log(lines, "turn 2-3")
    assert filter_log(lines, "turn") == ("T3 combat.damage │ c turn",)


# ---------------------------------------------------------------- item 7: game over


def _concede_app(db: CardDB, tmp_path: Path, open_hands: bool = False) -> C1KApp:
    from tests.tui.conftest import flow_data, session_from

    return C1KApp(db=db, session=session_from(db, flow_data(), tmp_path, open_hands=open_hands))


async def _concede(pilot: Any, app: C1KApp) -> None:
    from c1k_tui.screens.handoff_screen import HandoffScreen

    await pilot.pause()
    if isinstance(app.screen, HandoffScreen):
        await pilot.press("enter")
        await pilot.pause()
    await pilot.press("colon", *"concede", "enter", "y")
    await pilot.pause()


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_game_over_names_once_life_totals_and_damage_apart(db: CardDB, tmp_path: Path, size: str) -> None:
    from c1k_tui.screens.game_over import GameOverScreen

    app = _concede_app(db, tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await _concede(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        out["text"] = "\n".join(screen_text(app))

    run_app(app, body, SIZES[size])
    text = out["text"]
    assert "Tomas wins — Mira conceded" in text
    assert "(p1)" not in text and "(p2)" not in text
    assert "life" in text and "dealt to Champions" in text and "dealt to units" in text
    rows = [r for r in text.splitlines() if r.strip().startswith(("Mira ", "Tomas "))]
    assert any(r.split()[:2] == ["Mira", "20"] for r in rows) and any(r.split()[:2] == ["Tomas", "20"] for r in rows)
    # hidden information: p2's Emberlash stayed in hand all match — the summary never names it
    assert "Emberlash" not in text


def test_summary_counts_damage_to_units_and_champions_apart(db: CardDB) -> None:
    from c1k_tui.model.summary import summarise
    from engine import observe
    from tests.tui.conftest import flow_data, session_from

    # Mira attacks with the Test Knight (3/4); Tomas answers with Emberlash on it (2 to a unit) and
    # doesn't block: 3 to Tomas's Champion
    s = session_from(db, flow_data(p1={"name": "Mira", "life": 20, "influence": 4, "hand": [],
                                         "library": ["Test Recruit"] * 4,
                                         "board": [{"card": "Test Knight", "as": "knight", "slot": 1}]}))
    g = s.game
    knight = next(u.cid for u in observe(g, 0).me.units if u)
    lashed = False
    while g.turn == 3 and not g.window.startswith("end."):
        d = g.decision
        if d.kind == "attackers":
            cmd = f"attack #{knight}"
        elif d.kind == "blockers":
            cmd = "block none"
        elif d.player == 1 and g.window.startswith("combat.") and not lashed:
            cmd, lashed = f'play "Emberlash" target #{knight}', True
        else:
            cmd = "pass"
        out = s.send(cmd)
        assert out.ok, (cmd, out)
    s.send("concede")
    summ = summarise(g)
    assert lashed and summ.life == (20, 17)
    assert summ.to_champions == (3, 0) and summ.to_units == (0, 2)


def test_review_returns_to_the_game_over_screen(db: CardDB, tmp_path: Path) -> None:
    from c1k_tui.screens.game_over import GameOverScreen
    from c1k_tui.screens.replay import ReplayScreen

    app = _concede_app(db, tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await _concede(pilot, app)
        await pilot.press("v")
        await pilot.pause()
        out["review"] = isinstance(app.screen, ReplayScreen)
        await pilot.press("right", "escape")
        await pilot.pause()
        out["back"] = isinstance(app.screen, GameOverScreen)
        out["running"] = app.is_running
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        out["again"] = isinstance(app.screen, GameOverScreen)

    run_app(app, body)
    assert out["review"] and out["back"] and out["running"] and out["again"]


def test_no_hotkey_types_into_the_save_field_and_r_rematches(db: CardDB, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from c1k_tui.screens.game_over import GameOverScreen

    monkeypatch.chdir(tmp_path)
    app = _concede_app(db, tmp_path, open_hands=True)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await _concede(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        out["field"] = app.screen.query_one("#save-path").value   # type: ignore[attr-defined]
        await pilot.press("enter")            # a late Enter from the last move: nothing happens
        await pilot.pause()
        out["after_enter"] = isinstance(app.screen, GameOverScreen)
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        out["rematch"] = not isinstance(app.screen, GameOverScreen) and not app.game.is_terminal()

    run_app(app, body)
    assert out["field"] == "" and out["after_enter"] and out["rematch"]
    assert not (tmp_path / "r").exists()


# ---------------------------------------------------------------- item 8: cursors where the play is


def _cursor_app(db: CardDB, hand: list[str], **over: Any) -> C1KApp:
    from tests.tui.conftest import CARDS, session_from

    data: dict[str, Any] = {
        "scenario": {"title": "cursors", "seed": 5, "turn": 3, "active": "p1", "window": "main.priority"},
        "card": CARDS,
        "p1": {"name": "Mira", "life": 20, "influence": 6, "hand": hand, "library": ["Test Recruit"] * 4,
               "board": [{"card": "Test Knight", "as": "knight", "slot": 1},
                         {"card": "Test Recruit", "as": "recruit", "slot": 3}]},
        "p2": {"name": "Tomas", "life": 20, "influence": 3, "hand": ["Test Recruit"],
               "library": ["Test Recruit"] * 4,
               "board": [{"card": "Test Wall", "as": "wall", "slot": 2},
                         {"card": "Test Knight", "as": "knight2", "slot": 4}]},
    }
    data.update(over)
    return C1KApp(db=db, session=session_from(db, data, open_hands=True))


def _spot_cid(app: C1KApp) -> int:
    ms = app.match_screen
    assert ms is not None
    return ms.card_at(ms.cursor)


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_a_harmful_target_prompt_starts_on_the_opponents_first_unit_and_skips_the_rest(db: CardDB,
                                                                                     size: str) -> None:
    from engine import observe

    app = _cursor_app(db, ["Test Bolt"])
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.press("1", "enter")          # Test Bolt: deal 2 damage to a unit
        await pilot.pause()
        v = observe(app.game, 1)
        out["opp"] = [u.cid for u in v.me.units if u is not None]
        out["mine"] = [u.cid for u in observe(app.game, 0).me.units if u is not None]
        out["first"] = _spot_cid(app)
        seen = []
        for _ in range(5):
            await pilot.press("right")
            await pilot.pause()
            seen.append(_spot_cid(app))
        out["seen"] = seen
        await pilot.press("down")
        await pilot.pause()
        out["down"] = _spot_cid(app)

    run_app(app, body, SIZES[size])
    assert out["first"] == out["opp"][0]                # the Wall in slot 2, not Mira's own Knight
    order = out["opp"] + out["mine"]
    assert out["seen"] == [order[(i + 1) % len(order)] for i in range(5)]   # only the ◎ targets, no empty slot
    assert out["down"] in order


def test_a_healing_target_prompt_starts_on_your_own_side(db: CardDB) -> None:
    from engine import observe

    app = _cursor_app(db, ["Mending Word"])
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.press("1", "enter")
        await pilot.pause()
        out["first"] = _spot_cid(app)
        out["mine"] = [u.cid for u in observe(app.game, 0).me.units if u is not None]

    run_app(app, body)
    assert out["first"] == out["mine"][0]


def test_a_block_moves_the_cursor_to_the_attackers_it_may_block(db: CardDB) -> None:
    from engine import observe

    app = _cursor_app(db, [])
    g = app.session.game if app.session else None
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        game = app.game
        mine = [u.cid for u in observe(game, 0).me.units if u is not None]
        while game.decision.kind != "attackers":
            app.send("pass")
            await pilot.pause()
        app.send("attack " + " ".join(f"#{c}" for c in mine))
        await pilot.pause()
        while str(game.decision.kind) != "blockers":    # (the engine moves on between the two reads)
            app.send("pass")
            await pilot.pause()
        await pilot.pause()
        blockers = [u.cid for u in observe(game, 1).me.units if u is not None]
        out["start"] = _spot_cid(app)
        out["blockers"] = blockers
        await pilot.press("enter")             # the first blocker picked: the cursor goes to the attackers
        await pilot.pause()
        out["attacker"] = _spot_cid(app)
        out["mine"] = mine
        await pilot.press("right")
        await pilot.pause()
        out["next"] = _spot_cid(app)
        await pilot.press("enter")             # paired: on to the next free blocker
        await pilot.pause()
        out["after"] = _spot_cid(app)

    run_app(app, body)
    assert g is not None
    assert out["start"] == out["blockers"][0]
    assert out["attacker"] == out["mine"][0] and out["next"] == out["mine"][1]
    assert out["after"] == out["blockers"][1]


# ---------------------------------------------------------------- item 9: choices in words


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_thread_modes_are_words_in_the_picker_on_the_stack_and_in_the_hand_off_recap(db: CardDB,
                                                                                   size: str) -> None:
    from textual.widgets import OptionList

    from c1k_tui.screens.handoff_screen import HandoffScreen
    from c1k_tui.screens.prompt_modal import PromptModal
    from tests.tui.conftest import flow_data, session_from

    data = flow_data()
    data["p1"]["hand"] = ["Glimpse the Thousand Paths"]
    app = C1KApp(db=db, session=session_from(db, data, flow="stops"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        assert isinstance(app.screen, PromptModal)
        ol = app.screen.query_one(OptionList)
        out["options"] = [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
        await pilot.press("down", "enter")     # mode 2
        await pilot.pause()
        await pilot.pause()
        out["handoff"] = "\n".join(screen_text(app))
        await pilot.press("enter")
        await pilot.pause()
        out["table"] = "\n".join(screen_text(app))

    run_app(app, body, SIZES[size])
    assert out["options"] == ["mode 1: draw 2 cards", "mode 2: heal 4 to your Champion"]
    assert "mode 2: heal 4 to your" in out["handoff"]          # Tomas's hand-off recap (public)
    assert "mode 2: heal 4" in out["table"]            # the stack, on Tomas's screen


# ---------------------------------------------------------------- item 10: completion, history


def test_completion_names_only_cards_the_typist_may_see_and_cycles() -> None:
    from c1k_tui.model.completion import Cycle, completions

    names = ("Test Recruit", "Test Knight", "Test Wall", "Emberlash")
    assert completions('play "Em', (), names) == ['play "Emberlash"']
    assert completions('play "Em', (), names[:3]) == []           # a hidden name: nothing, like no name
    assert completions("play Em", (), names) == ["play Emberlash"]
    assert completions("play Test K", (), names) == []            # a bare name stops at its first space …
    assert completions('play "Test K', (), names) == ['play "Test Knight"']   # … a quoted one doesn't
    assert completions("pa", ("pass",), ()) == ["pass"] and "play " in completions("p", ("pass",), ())
    c = Cycle()
    cands = completions('play "Te', (), names)
    got: list[str] = []
    line = c.next('play "Te', cands)
    for _ in range(4):
        assert line is not None
        got.append(line)
        line = c.next(line, completions(line, (), names))
    assert got == ['play "Test Recruit"', 'play "Test Knight"', 'play "Test Wall"', 'play "Test Recruit"']


async def _type(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", '"': "quotation_mark", "#": "number_sign"}.get(ch, ch) for ch in text])


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_tab_completes_names_only_from_what_the_typist_may_see(db: CardDB, size: str) -> None:
    from c1k_tui.screens.handoff_screen import HandoffScreen
    from c1k_tui.screens.widgets import CommandLine
    from tests.tui.conftest import flow_data, session_from

    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="full"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await pilot.pause()
        cmd = app.screen.query_one("#command", CommandLine)
        await pilot.press("colon")
        await _type(pilot, 'play "Em')            # Emberlash is in Tomas's hidden hand
        await pilot.press("tab")
        await pilot.pause()
        out["hidden"] = cmd.value
        cmd.value = ""
        await _type(pilot, 'play "Te')
        got = []
        for _ in range(4):
            await pilot.press("tab")
            await pilot.pause()
            got.append(cmd.value)
        out["cycle"] = got
        out["ghost"] = cmd._suggestion

    run_app(app, body, SIZES[size])
    assert out["hidden"] == 'play "Em'
    assert out["cycle"] == ['play "Test Recruit"', 'play "Test Knight"', 'play "Test Wall"', 'play "Test Recruit"']


def test_a_refused_typed_command_stays_for_editing_and_up_recalls_only_your_own(db: CardDB) -> None:
    from c1k_tui.screens.handoff_screen import HandoffScreen
    from c1k_tui.screens.widgets import CommandLine
    from tests.tui.conftest import flow_data, session_from

    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="full"))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await pilot.pause()
        cmd = app.screen.query_one("#command", CommandLine)
        await pilot.press("colon")
        await _type(pilot, 'play "Test Recruit" slot 1')     # slot 1 holds the Knight: refused, not sent
        await pilot.press("enter")
        await pilot.pause()
        out["kept"] = cmd.value
        out["focus"] = cmd.has_focus
        out["record"] = len(app.game.record)
        cmd.value = ""
        await _type(pilot, "play #999")                      # no such card: a typing mistake, kept too
        await pilot.press("enter")
        await pilot.pause()
        out["kept2"] = cmd.value
        cmd.value = ""
        await pilot.press("up")
        await pilot.pause()
        out["up1"] = cmd.value
        await pilot.press("up")
        await pilot.pause()
        out["up2"] = cmd.value
        await pilot.press("down", "down")
        await pilot.pause()
        out["down"] = cmd.value
        await pilot.press("escape")
        await pilot.press("space")                          # Mira passes: Tomas takes the keyboard
        await pilot.pause()
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await pilot.pause()
        out["viewer"] = app.viewer
        cmd = app.screen.query_one("#command", CommandLine)
        await pilot.press("colon", "up")
        await pilot.pause()
        out["other"] = cmd.value

    run_app(app, body)
    assert out["kept"] == 'play "Test Recruit" slot 1' and out["focus"] and out["record"] == 0
    assert out["kept2"] == "play #999"
    assert out["up1"] == "play #999" and out["up2"] == 'play "Test Recruit" slot 1' and out["down"] == ""
    assert out["viewer"] == 1 and out["other"] == ""        # Mira's commands are not Tomas's history


def test_summary_names_a_played_card_that_is_now_nowhere(db: CardDB) -> None:
    """Found in a whole match at 120x40: the game-over summary listed the second player's played Coin as
    "#334" — a token ceases to exist, so no view names it any more. It is named as its public stack line
    named it (the same holds for a card that went back to a hidden zone and was renumbered)."""
    from c1k_tui.model.summary import summarise
    from engine import Game, find_deck, load_deck, observe

    decks = [load_deck(find_deck("emberfall"), db), load_deck(find_deck("ironbound"), db)]
    g = Game.new(db, decks[0], decks[1], 5)
    second = 1 - observe(g, 0).active
    while g.current_player() != second:
        g.apply_command("pass", g.current_player())
    coin = next(h.cid for h in observe(g, second).hand if h.name == "The Coin")
    g.apply_command(f"play #{coin}", second)
    g.apply_command("concede", g.current_player())
    summ = summarise(g)
    assert summ.played[second] == ["The Coin"], summ.played
