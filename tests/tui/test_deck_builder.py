"""The deck builder screen (c1k_tui/screens/deck_builder.py), driven by keys at 80×24 and 120×40: reached from
the start screen (F5), filtering the pool, adding and removing cards with the summary live, problems as
you go, saving (asks for a path, confirms before replacing a file), opening a deck; SVG snapshots."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Static

from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.confirm_modal import ConfirmModal
from c1k_tui.screens.deck_builder import DeckBuilderScreen
from c1k_tui.screens.save_dialog import AskPathModal
from c1k_tui.screens.start_screen import StartScreen
from engine import load_deck
from engine.cardset import load_cards
from tests.tui.conftest import run_app

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}
DECKS = Path(__file__).resolve().parents[2] / "decks"
CSS = str(Path(__file__).resolve().parents[2] / "c1k_tui" / "screens" / "app.tcss")


class BuilderApp(C1KApp):
    CSS_PATH = CSS

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(mode="lab")
        self.path = path

    def on_mount(self) -> None:
        self.push_screen(DeckBuilderScreen(load_cards(), self.path))


def text(screen: Any, wid: str) -> str:
    return str(screen.query_one(wid, Static).render())


async def type_in(pilot: Any, text: str) -> None:
    for ch in text:
        await pilot.press(ch if ch not in " -+/" else {" ": "space", "-": "minus", "+": "plus", "/": "slash"}[ch])


async def wait_for(pilot: Any, kind: type) -> Any:
    for _ in range(200):
        await pilot.pause()
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
    raise AssertionError(f"no {kind.__name__} on screen (got {type(pilot.app.screen).__name__})")


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_start_screen_f5_opens_the_builder_and_esc_comes_back(size: str) -> None:
    async def body(pilot: Any) -> None:
        await wait_for(pilot, StartScreen)
        await pilot.press("f5")
        b = await wait_for(pilot, DeckBuilderScreen)
        assert "Card pool:" in text(b, "#db-pool-title")
        await pilot.press("escape")            # nothing changed: straight back
        await wait_for(pilot, StartScreen)

    run_app(C1KApp(mode="start"), body, SIZES[size])


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_build_a_legal_deck_from_scratch_and_save_it(size: str, tmp_path: Path) -> None:
    target = tmp_path / "sparks.toml"

    async def body(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        assert "needs 'champion'" in text(b, "#db-problems")
        b.query_one("#d-name", Input).value = "Sparks"
        b.query_one("#d-champion", Input).value = "Kaela Emberbrand"       # by name: stored as its id
        b.query_one("#d-seat", Input).value = "seat-of-hasty-counsel"
        await pilot.pause()
        await pilot.press("slash")                                          # / focuses the text filter
        await type_in(pilot, "emberlash")
        await pilot.press("enter")                                          # back to the pool
        pool = b.query_one("#db-pool", DataTable)
        assert b.shown == ["emberlash"] and pool.has_focus
        for _ in range(3):
            await pilot.press("plus")
        assert "×3" in str(pool.get_row_at(0)[0]) and b.draft.counts == {"emberlash": 3}
        await pilot.press("plus")                                           # a fourth: allowed, and named
        assert "4 copies of 'Emberlash': at most 3" in text(b, "#db-problems")
        await pilot.press("minus")
        assert "4 copies" not in text(b, "#db-problems")
        # the rest from neutral units of cost 1-3, three of each, filtered by type and cost
        b.query_one("#f-text", Input).value = ""
        b.query_one("#f-type", Input).value = "unit"
        b.query_one("#f-cost", Input).value = "1-3"
        b.query_one("#f-realm", Input).value = "neutral"
        await pilot.pause()
        pool.focus()
        assert b.shown and all(b.db.by_id[c].realm == "neutral" for c in b.shown)
        for _ in range(13):
            cid = b.shown[pool.cursor_row]
            for _ in range(3):
                if b.draft.size() < 40:
                    await pilot.press("plus")
            assert b.draft.copies(cid) in (1, 2, 3)
            await pilot.press("down")
            if b.draft.size() == 40:
                break
        assert b.draft.size() == 40, b.draft.counts
        assert "✓ a legal deck" in text(b, "#db-problems")
        assert "Deck 40/40" in text(b, "#db-deck-title")
        await pilot.press("ctrl+s")
        ask = await wait_for(pilot, AskPathModal)
        ask.query_one(Input).value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, DeckBuilderScreen)
        assert "✓ saved" in text(b, "#db-status")
        deck = load_deck(target, load_cards())
        assert deck.name == "Sparks" and len(deck.library) == 40 and deck.champion.id == "kaela-emberbrand"

    run_app(BuilderApp(), body, SIZES[size])


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_saving_over_a_file_asks_first_and_no_keeps_it(size: str, tmp_path: Path) -> None:
    mine = tmp_path / "emberfall.toml"
    shutil.copy(DECKS / "emberfall.toml", mine)
    before = mine.read_text(encoding="utf-8")

    async def body(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        assert b.draft.name == "Emberfall" and b.draft.size() == 40 and "✓" in text(b, "#db-problems")
        await pilot.press("plus")                       # the pool's first card, one more copy
        await pilot.press("ctrl+s")
        ask = await wait_for(pilot, AskPathModal)
        assert ask.query_one(Input).value == str(mine)  # the file it was opened from
        await pilot.press("enter")
        await wait_for(pilot, ConfirmModal)
        await pilot.press("n")                          # keep it
        await wait_for(pilot, DeckBuilderScreen)
        assert mine.read_text(encoding="utf-8") == before
        await pilot.press("ctrl+s")
        await wait_for(pilot, AskPathModal)
        await pilot.press("enter")
        await wait_for(pilot, ConfirmModal)
        await pilot.press("y")
        await wait_for(pilot, DeckBuilderScreen)
        assert mine.read_text(encoding="utf-8") != before
        assert sum(load_deck(mine, load_cards(), playtest=True).counts.values()) == 41

    run_app(BuilderApp(mine), body, SIZES[size])


def test_open_a_deck_by_name_and_leaving_with_changes_asks(tmp_path: Path) -> None:
    async def body(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        await pilot.press("ctrl+o")
        ask = await wait_for(pilot, AskPathModal)
        ask.query_one(Input).value = "ironbound"
        await pilot.press("enter")
        await wait_for(pilot, DeckBuilderScreen)
        assert b.draft.size() == 40 and b.draft.path is not None and b.draft.path.stem == "ironbound"
        await pilot.press("ctrl+o")
        ask = await wait_for(pilot, AskPathModal)
        ask.query_one(Input).value = str(tmp_path / "nope.toml")
        await pilot.press("enter")
        await wait_for(pilot, DeckBuilderScreen)
        assert "✗" in text(b, "#db-status") and b.draft.path.stem == "ironbound"
        await pilot.press("minus")                       # the pool's first card isn't in the deck: a message
        await pilot.press("plus")
        await pilot.press("escape")
        await wait_for(pilot, ConfirmModal)              # unsaved changes: asks
        await pilot.press("n")
        await wait_for(pilot, DeckBuilderScreen)

    run_app(BuilderApp(), body, (80, 24))


def test_a_bad_cost_filter_is_a_message(tmp_path: Path) -> None:
    async def body(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        b.query_one("#f-cost", Input).value = "4-2"
        await pilot.pause()
        assert "expected costs from 0 up" in text(b, "#db-status")

    run_app(BuilderApp(), body, (80, 24))


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_builder_snapshot(snap_compare: Any, size: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DECKS)          # the deck's path on screen is then the same in every checkout
    async def run(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        await pilot.press("plus", "plus", "plus", "plus")        # a fourth copy of the pool's first card
        b.query_one("#f-realm", Input).value = "ruin"
        await pilot.pause()
        b.query_one("#db-pool", DataTable).focus()
        await pilot.pause()

    assert snap_compare(BuilderApp(Path("emberfall.toml")), terminal_size=SIZES[size], run_before=run)


def test_the_cost_filter_looks_empty_when_it_is(tmp_path: Path) -> None:
    """Issue #30 item 4: an empty cost filter shows "any", as the other filters, not an example ("2-4")
    that reads as an active filter; the example is in its tooltip. Empty, it filters nothing."""
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        cost = b.query_one("#f-cost", Input)
        out["placeholder"], out["tooltip"], out["value"] = cost.placeholder, str(cost.tooltip), cost.value
        out["others"] = {b.query_one(f"#f-{w}", Input).placeholder for w in ("realm", "type", "keyword")}
        out["rows"] = b.query_one("#db-pool", DataTable).row_count

    run_app(BuilderApp(), body, (120, 40))
    assert out["placeholder"] == "any" and out["placeholder"] in out["others"] and out["value"] == ""
    assert "2-4" in out["tooltip"]
    assert out["rows"] > 100                       # the whole pool: no cost filter is on


# ---- issue #30 item 4: the highlighted card, as the table draws it, with the engine's words for its effects


def test_the_preview_shows_the_highlighted_card_and_follows_the_cursor() -> None:
    seen: list[str] = []

    async def body(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        b.query_one("#f-text", Input).value = "squire"
        await pilot.pause()
        b.query_one("#db-pool", DataTable).focus()
        await pilot.pause()
        seen.append(text(b, "#db-card"))
        await pilot.press("down")
        await pilot.pause()
        seen.append(text(b, "#db-card"))

    run_app(BuilderApp(), body, (120, 40))
    first, second = seen
    assert first.splitlines() == [                  # no keywords: no keyword line
        "Oathsworn Squire — unit, ◆2, Slow, 2/2 · neutral · in deck ×0",
        "When this unit loses a combat (it is destroyed by the unit it fought), draw a card.",
        "does: when on combat loss: draw 1 card",
    ]
    lines = second.splitlines()
    assert lines[0] == "Bastion Squire — unit, ◆3, Slow, 2/4 · neutral · in deck ×0"
    assert lines[1] == "Guard. Tough. When this unit blocks, it gains Barrier this turn."
    assert lines[2] == "does: when on block: itself gains barrier"           # the engine's describe_effects
    assert lines[3] == "keywords: guard (KW Guard), tough (KW Tough)"


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_preview_snapshot(snap_compare: Any, size: str) -> None:
    async def run(pilot: Any) -> None:
        b = await wait_for(pilot, DeckBuilderScreen)
        b.query_one("#f-text", Input).value = "squire"
        await pilot.pause()
        b.query_one("#db-pool", DataTable).focus()
        await pilot.press("down")
        await pilot.pause()

    assert snap_compare(BuilderApp(), terminal_size=SIZES[size], run_before=run)
