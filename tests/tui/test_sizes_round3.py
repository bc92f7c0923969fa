"""The table at every size (issue 27 item 6, issue 31 item 6): a board of 7 slots on one line, the 80×24
footer keeps quit, the prompt line keeps why only Fast is allowed, a 10th hand card has a key, copies
are told apart by their numbers, and a used-up Ward no longer reads "Ward 2"."""

from __future__ import annotations

from typing import Any

import pytest

from c1k_tui.model.view import UnitView, WindowView
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.widgets import BoardRow, WindowLine, hand_key
from engine import observe
from engine.cards import CardDB
from tests.tui.conftest import CARDS, flow_data, run_app, session_from

WARDEN = {"id": "test-warden", "name": "Test Warden", "type": "unit", "realm": "neutral", "cost": 2, "power": 1,
          "health": 3, "keywords": ["ward 2"], "text": "Ward 2."}


def test_kw_ward_the_board_shows_the_ward_points_left(db: CardDB) -> None:
    data = flow_data()
    data["card"] = [*CARDS, WARDEN]
    data["p1"]["hand"] = ["Test Bolt"]
    data["p2"]["board"] = [{"card": "Test Warden", "as": "warden", "slot": 1}]
    s = session_from(db, data, flow="full", open_hands=True)
    warden = s.game.players[1].units()[0]

    def ward() -> tuple[str, ...]:
        u = next(x for x in observe(s.game, 0).side(1).units if x is not None and x.cid == warden)
        return tuple(k for k in u.keywords if k.startswith("Ward"))

    assert ward() == ("Ward 2",)
    assert s.send(f'play "Test Bolt" target #{warden}').ok
    while s.game.stack:
        assert s.send("pass").ok
    assert ward() == ("Ward 0",)                   # spent on the Bolt's 2 damage (KW Ward)


def test_a_tenth_hand_card_has_a_key() -> None:
    assert [hand_key(i) for i in range(11)] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "·"]


def _render(widget: Any, size: tuple[int, int]) -> list[str]:
    """The widget's lines as drawn in an app of `size` (it takes the whole screen's width)."""
    import asyncio

    from textual.app import App, ComposeResult

    lines: list[str] = []

    class A(App[None]):
        def compose(self) -> ComposeResult:
            yield widget

    async def main() -> None:
        async with A().run_test(size=size) as pilot:
            await pilot.pause()
            lines.extend(str(widget.render()).split("\n"))

    asyncio.run(main())
    return lines


def test_seven_slots_fit_on_one_line_and_copies_keep_their_numbers() -> None:
    """A Seat's 7th slot at 80 and at 79 columns (the 120-column table beside the side panel): every slot on
    one line of the table's width, and two copies of a card read apart by their numbers."""
    units = tuple(UnitView(100 + i, "Stillwater Acolyte", "unit", 0, 2, 3, 3) if i < 2 else None for i in range(7))
    for width, compact in ((80, True), (79, False)):
        row = BoardRow(0)
        row.units = units
        row.styles.height = 3 if compact else 5
        lines = _render(row, (width, 24))
        assert len(lines) == (3 if compact else 5)
        assert all(len(x) <= width for x in lines), (width, lines)
        assert lines[0].count("(empty)") == 5 or lines[1].count("(empty)") == 5
        assert "#100" in "".join(lines) and "#101" in "".join(lines)


def test_the_prompt_line_keeps_why_only_fast_is_allowed_at_80_columns() -> None:
    line = WindowLine()
    line.window = WindowView(6, "main.priority", "C1K 3.1", "Main Phase: the active player may play Units", 3,
                             "Mira", "priority", 0, "Mira", "", "Fast only: Actions, abilities and Set cards",
                             "Mira", 1, None, None)
    lines = _render(line, (80, 24))
    assert "· stack 1 · allowed: Fast" in lines[1] and len(lines[1]) <= 80


def test_the_80x24_footer_keeps_quit(db: CardDB) -> None:
    from textual.widgets._footer import FooterKey

    app = C1KApp(db=db, session=session_from(db, flow_data(), flow="stops"))
    got: list[tuple[str, int, int]] = []

    async def body(pilot: Any) -> None:
        await pilot.press("enter")
        await pilot.pause(0.3)
        got.extend((k.description, k.region.x, k.region.right) for k in app.screen.query(FooterKey))

    run_app(app, body, size=(80, 24))
    quit_key = [g for g in got if g[0] == "quit"]
    assert quit_key and quit_key[0][2] <= 80 and quit_key[0][2] > quit_key[0][1], got
    assert [g[0] for g in got if g[2] <= 80][:2] == ["pass", "pass until…"]


TEN = ["Dunecrest Raider", "Thornwood Guardian", "Censer of the Pale Rot", "Gravemoth Swarm", "Seedmother Willow",
       "Rain of Renewal", "Husk Broodmother", "Tanglevine Snare", "Ashmonger Hag", "Ashmonger Hag"]


def test_hand_names_win_over_ids_when_a_cell_is_short() -> None:
    """A hand cell keeps the whole name before the #id (the detail pane and completion still give the id);
    with room for both it shows both; the key, cost and speed are never cut."""
    from c1k_tui.model.view import HandCard
    from c1k_tui.screens.widgets import hand_cell

    card = HandCard(242, "Dunecrest Raider", 4, "slow", "unit", "", 3, 2, playable=True)
    short = str(hand_cell(0, card, frozenset(), 25))
    assert "Dunecrest Raider" in short and "#242" not in short and short.startswith(" 1✓") and "◆4S" in short
    wide = str(hand_cell(0, card, frozenset(), 30))
    assert "#242 Dunecrest Raider ◆4S" in wide
    cut = str(hand_cell(9, card, frozenset(), 14))
    assert cut.startswith(" 0✓Dunecr") and "…" in cut and cut.rstrip().endswith("◆4S") and "#242" not in cut


def test_a_ten_card_hand_reads_at_80x24(db: CardDB) -> None:
    """At 80×24 ten cards in hand take a 4th row rather than a 4th column: every name of up to 18 letters
    whole, longer ones cut no shorter than 17, every key on screen — and the side panel keeps its tabs."""
    from c1k_tui.screens.widgets import HandGrid

    data = flow_data()
    data["p1"]["hand"] = TEN
    app = C1KApp(db=db, session=session_from(db, data, open_hands=True))
    got: list[str] = []
    side: list[int] = []

    async def body(pilot: Any) -> None:
        await pilot.pause(0.3)
        grid = app.screen.query_one("#hand", HandGrid)
        got.extend(str(grid.render()).split("\n")[: grid.size.height])
        side.append(app.screen.query_one("#side").outer_size.height)

    run_app(app, body, size=(80, 24))
    text = "\n".join(got)
    assert len(got) == 4 and all(len(x) <= 80 for x in got), got
    for name in TEN:
        assert (name if len(name) <= 18 else name[:17] + "…") in text, (name, got)
    assert text.count("Ashmonger Hag") == 2
    assert [k for k in "1234567890" if f"{k}✓" in text or f"{k}✗" in text] == list("1234567890")
    assert side == [5]


@pytest.mark.parametrize("cards", [9, 10])
def test_a_two_row_refusal_at_80x24_hides_no_hand_row(db: CardDB, cards: int) -> None:
    """Found in play: at 80×24 a refusal too long for one row takes a second one, and that row came off the
    table — the hand's last row (cards 7 to 9 of 9) went under the side panel while the message showed. It
    comes from the side panel now: every card's key stays on screen."""
    data = flow_data()
    data["p1"]["hand"] = TEN[:cards]
    app = C1KApp(db=db, session=session_from(db, data, open_hands=True))
    seen: list[str] = []

    async def body(pilot: Any) -> None:
        await pilot.pause(0.3)
        ms = app.match_screen
        assert ms is not None
        ms.status = ("[b]✗ pass is not an answer here[/b] — attack: Enter toggles a unit (◎ may attack) · a all · "
                     "c confirm · n attack none (C1K 4.1)")
        await pilot.pause(0.3)
        assert ms.query_one("#status").outer_size.height == 2
        seen.extend(strip.text for strip in app.screen._compositor.render_strips())

    run_app(app, body, size=(80, 24))
    text = "\n".join(seen)
    keys = "1234567890"[:cards]
    assert [k for k in keys if f"{k}✓" in text or f"{k}✗" in text] == list(keys), seen
    assert "(C1K 4.1)" in text and "quit" in seen[-1]
