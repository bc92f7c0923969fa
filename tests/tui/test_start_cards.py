"""The start screen's *own cards* (issue #20 item 1): card files or folders, prefilled from `--cards` and
from the card files a chosen deck names; the deck lists then offer the decks beside them; a bad path, an
unknown card or a taken id is a message naming the file — on the start screen, with everything typed kept;
the match uses the cards (its record carries them), and the deck builder (F5) and the Lab (F4) opened from
there see the same pool. Driven by keys with Pilot at 120×40 and 80×24; SVG snapshots of the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select, Static

from c1k_tui.model.builders import StartChoice
from c1k_tui.screens.app import C1KApp
from c1k_tui.screens.deck_builder import DeckBuilderScreen
from c1k_tui.screens.lab_screen import LabScreen
from c1k_tui.screens.start_screen import StartScreen
from engine import Game, MatchOptions, load_deck
from engine.cardset import load_cards
from tests.tui.conftest import run_app

SIZES = {"120x40": (120, 40), "80x24": (80, 24)}
ROOT = Path(__file__).resolve().parents[2]

WHELP = '''[[card]]
id = "cinder-whelp"
name = "Cinder Whelp"
type = "unit"
realm = "neutral"
cost = 1
power = 2
health = 2
keywords = ["charge"]
text = "Charge."
'''


def design(folder: Path, card_files: str = "") -> tuple[Path, Path]:
    """A designer's folder: my-cards.toml (Cinder Whelp) and whelpfall.toml (Emberfall, its two Ashen
    Skirmishers swapped for two Whelps; naming its card file if `card_files` is given)."""
    folder.mkdir(parents=True, exist_ok=True)
    cards = folder / "my-cards.toml"
    cards.write_text(WHELP, encoding="utf-8")
    text = (ROOT / "decks" / "emberfall.toml").read_text(encoding="utf-8")
    text = text.replace('"ashen-skirmisher" = 2', '"cinder-whelp" = 2')
    text = text.replace('name = "Emberfall"', 'name = "Whelpfall"' + (f"\ncard_files = {card_files}"
                                                                     if card_files else ""))
    deck = folder / "whelpfall.toml"
    deck.write_text(text, encoding="utf-8")
    return cards, deck


def start_app(tmp_path: Path, **kw: Any) -> C1KApp:
    choice = StartChoice("ironbound", "emberfall", kw.pop("seed", 9), "Ana", "Tomas", kw.pop("open_hands", False),
                         False, "stops", **kw)
    return C1KApp(mode="start", start=choice, autosave=tmp_path / "autosave.json")


async def on_start(pilot: Any) -> StartScreen:
    for _ in range(100):
        await pilot.pause()
        if isinstance(pilot.app.screen, StartScreen):
            return pilot.app.screen
    raise AssertionError(f"no start screen (got {type(pilot.app.screen).__name__})")


async def type_into(pilot: Any, screen: StartScreen, wid: str, text: str) -> None:
    """Focus the field, empty it and type `text` (as keys)."""
    screen.query_one(wid, Input).focus()
    await pilot.press("home", "ctrl+k")
    await pilot.press(*[{" ": "space", "/": "slash", "-": "minus", ".": "full_stop"}.get(c, c) for c in text])
    await pilot.pause()


def shown(screen: StartScreen, wid: str) -> str:
    w = screen.query_one(wid, Static)
    return str(w.render()) if w.display else ""


def whelp_seed(cards: Path, deck: Path) -> int:
    """A seed at which p1 (Whelpfall) goes first with a Cinder Whelp in the opening hand."""
    db = load_cards([cards])
    for seed in range(1, 500):
        g = Game.new(db, load_deck(deck, db), load_deck(ROOT / "decks" / "ironbound.toml", db), seed, MatchOptions())
        if g.active == 0 and any(getattr(g.defs[c], "id", "") == "cinder-whelp" for c in g.players[0].hand):
            return seed
    raise AssertionError("no seed deals p1 a Cinder Whelp")


# ---------------------------------------------------------------- typing a path


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_typed_own_cards_load_offer_their_decks_and_the_match_plays_with_them(tmp_path: Path, size: str,
                                                                              monkeypatch: pytest.MonkeyPatch
                                                                              ) -> None:
    monkeypatch.chdir(tmp_path)
    cards, deck = design(tmp_path / "design")
    seed = whelp_seed(cards, deck)
    app = start_app(tmp_path, seed=seed, open_hands=True)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        out["empty"] = s.query_one("#own-cards", Input).value
        await pilot.press("f6")                               # F6: the own-cards field
        out["focus"] = s.focused.id if s.focused is not None else None
        await type_into(pilot, s, "#own-cards", "design")
        await pilot.press("enter")                            # Enter there loads them (it doesn't start)
        await pilot.pause()
        out["status"] = shown(s, "#start-cards")
        out["still"] = pilot.app.screen is s
        sel = s.query_one("#deck-a", Select)
        out["offered"] = [v for _, v in sel._options]
        sel.value = "design/whelpfall.toml"                   # the deck found beside the cards
        await pilot.pause()
        await pilot.press("ctrl+s")
        for _ in range(50):
            await pilot.pause()
            if pilot.app.session is not None:
                break
        session = pilot.app.session
        out["hand"] = [session.game.defs[c].name for c in session.game.players[0].hand]
        out["record"] = session.record().cards
        await pilot.pause()
        out["screen"] = "\n".join(strip.text for strip in pilot.app.screen._compositor.render_strips())

    run_app(app, body, SIZES[size])
    assert out["empty"] == ""
    assert out["focus"] == "own-cards"
    assert out["still"] and "Cinder Whelp" in out["status"] and "design/my-cards.toml" in out["status"]
    assert "whelpfall.toml" in out["status"]
    assert "design/whelpfall.toml" in out["offered"] and "ironbound" in out["offered"]
    assert "Cinder Whelp" in out["hand"]
    assert "Cinder Whelp" in out["screen"]                                 # in p1's hand, on the match screen
    assert "cinder-whelp" in out["record"]["digests"]                      # the record carries the card …
    assert [d["id"] for d in out["record"]["defs"]] == ["cinder-whelp"]    # … and its definition


def test_a_path_that_is_not_there_is_a_message_and_nothing_typed_is_lost(tmp_path: Path) -> None:
    app = start_app(tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await type_into(pilot, s, "#name-a", "Mira")
        await type_into(pilot, s, "#seed", "77")
        await type_into(pilot, s, "#own-cards", "nowhere.toml")
        await pilot.press("enter")
        await pilot.pause()
        out["loaded"] = shown(s, "#start-error")
        await pilot.press("ctrl+s")                         # start: refused, with the same message
        await pilot.pause()
        out["start"] = shown(s, "#start-error")
        out["screen"] = pilot.app.screen is s and pilot.app.session is None
        out["typed"] = [s.query_one(w, Input).value for w in ("#own-cards", "#name-a", "#seed")]
        await type_into(pilot, s, "#own-cards", "")          # emptied: the bundled cards, and the match starts
        await pilot.press("ctrl+s")
        await pilot.pause()
        out["started"] = pilot.app.session is not None

    run_app(app, body)
    for msg in (out["loaded"], out["start"]):
        assert "✗" in msg and "nowhere.toml: no such card file or folder" in msg
    assert out["screen"] and out["typed"] == ["nowhere.toml", "Mira", "77"]
    assert out["started"]


def test_a_deck_of_own_cards_without_them_names_the_deck_file_the_line_and_the_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)              # short paths to type, key by key
    _, deck = design(Path("design"))
    app = start_app(tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await type_into(pilot, s, "#file-a", str(deck))
        await type_into(pilot, s, "#seed", "5")
        await pilot.press("ctrl+s")
        await pilot.pause()
        out["msg"] = shown(s, "#start-error")
        out["kept"] = (pilot.app.screen is s, s.query_one("#file-a", Input).value, s.query_one("#seed", Input).value)
        await type_into(pilot, s, "#own-cards", str(Path("design") / "my-cards.toml"))
        await pilot.press("ctrl+s")                          # with the card file: it starts
        await pilot.pause()
        out["started"] = pilot.app.session is not None and pilot.app.session.decks[0].name == "Whelpfall"

    run_app(app, body)
    assert f"{deck}:" in out["msg"] and "unknown card 'cinder-whelp'" in out["msg"]
    assert "'own cards'" in out["msg"]                        # where such a card's file goes
    assert out["kept"] == (True, str(deck), "5")
    assert out["started"]


def test_an_id_taken_by_a_bundled_card_names_both_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)              # short paths to type, key by key
    clash = Path("clash.toml")
    clash.write_text(WHELP.replace('id = "cinder-whelp"', 'id = "emberlash"').replace("Cinder Whelp", "Ember Two"),
                     encoding="utf-8")
    app = start_app(tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await type_into(pilot, s, "#own-cards", str(clash))
        await pilot.press("tab")                              # leaving the field loads it too
        await pilot.pause()
        out["msg"] = shown(s, "#start-error")
        out["status"] = shown(s, "#start-cards")
        await pilot.press("ctrl+s")
        await pilot.pause()
        out["stays"] = pilot.app.screen is s and pilot.app.session is None
        out["typed"] = s.query_one("#own-cards", Input).value

    run_app(app, body)
    assert f"{clash}:1: duplicate card id 'emberlash'" in out["msg"]
    assert "decks/cards/core.toml" in out["msg"]              # the bundled file that has it
    assert out["status"] == "" and out["stays"] and out["typed"] == str(clash)


# ---------------------------------------------------------------- prefilled


def test_cards_from_the_command_line_fill_the_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from c1k_tui.model import cardset

    monkeypatch.chdir(tmp_path)
    design(tmp_path / "design")
    cardset.use([Path("design/my-cards.toml")])             # c1k play --cards design/my-cards.toml
    app = start_app(tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await pilot.pause()
        out["field"] = s.query_one("#own-cards", Input).value
        out["status"] = shown(s, "#start-cards")
        out["offered"] = [v for _, v in s.query_one("#deck-b", Select)._options]

    run_app(app, body)
    assert out["field"] == "design/my-cards.toml"
    assert "Cinder Whelp" in out["status"] and "design/whelpfall.toml" in out["offered"]


def test_a_deck_that_names_its_card_files_fills_the_field_and_another_deck_empties_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)              # short paths to type, key by key
    (tmp_path / "d" / "cards").mkdir(parents=True)
    _, deck = design(Path("d"), card_files='["cards/my-cards.toml"]')
    (tmp_path / "d" / "my-cards.toml").rename(tmp_path / "d" / "cards" / "my-cards.toml")
    app = start_app(tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await type_into(pilot, s, "#file-b", str(deck))
        out["filled"] = s.query_one("#own-cards", Input).value
        out["status"] = shown(s, "#start-cards")
        await type_into(pilot, s, "#file-b", "")              # back to the list's deck (Emberfall)
        out["emptied"] = s.query_one("#own-cards", Input).value
        await type_into(pilot, s, "#file-b", str(deck))
        await pilot.press("ctrl+s")
        await pilot.pause()
        session = pilot.app.session
        out["p2"] = session.decks[1].name if session is not None else None

    run_app(app, body)
    assert out["filled"] == str(Path("d") / "cards" / "my-cards.toml")   # beside the deck, as typed
    assert "Cinder Whelp" in out["status"]
    assert out["emptied"] == ""
    assert out["p2"] == "Whelpfall"


def test_back_on_the_start_screen_after_a_match_the_deck_file_and_own_cards_are_still_there(tmp_path: Path) -> None:
    """The start screen again (after a match, or a start the app refused): the last choice's deck file and own
    cards fill it, and the blank deck list beside a deck file doesn't stop it opening (it raised on main)."""
    cards, deck = design(tmp_path / "design")
    app = C1KApp(mode="start", autosave=tmp_path / "autosave.json",
                 start=StartChoice(str(deck), "emberfall", 4, "Ana", "Tomas", False, False, "stops",
                                   cards=(str(cards),)))
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await pilot.pause()
        out["fields"] = (s.query_one("#file-a", Input).value, s.query_one("#own-cards", Input).value,
                         s.query_one("#deck-a", Select).is_blank())
        await pilot.press("ctrl+s")
        await pilot.pause()
        out["p1"] = pilot.app.session.decks[0].name if pilot.app.session is not None else shown(s, "#start-error")

    run_app(app, body)
    assert out["fields"] == (str(deck), str(cards), True)
    assert out["p1"] == "Whelpfall"


# ---------------------------------------------------------------- F5 and F4 see the same pool


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_deck_builder_and_the_lab_see_the_own_cards_and_come_back_to_the_screen_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    monkeypatch.chdir(tmp_path)              # short paths to type, key by key
    cards, _ = design(Path("design"))
    app = start_app(tmp_path)
    out: dict[str, Any] = {}

    async def body(pilot: Any) -> None:
        s = await on_start(pilot)
        await type_into(pilot, s, "#own-cards", str(cards))
        await type_into(pilot, s, "#name-b", "Tomasz")
        await pilot.press("f5")
        await pilot.pause()
        b = pilot.app.screen
        out["builder"] = isinstance(b, DeckBuilderScreen) and "cinder-whelp" in b.db.by_id
        await pilot.press("escape")
        await pilot.pause()
        out["back"] = pilot.app.screen is s and s.query_one("#name-b", Input).value == "Tomasz"
        await pilot.press("f4")
        await pilot.pause()
        lab = pilot.app.screen
        out["lab"] = isinstance(lab, LabScreen) and lab.query_one("#lab-cards", Input).value == str(cards)
        await pilot.press("escape")
        await pilot.pause()
        out["back2"] = pilot.app.screen is s and s.query_one("#own-cards", Input).value == str(cards)

    run_app(app, body, SIZES[size])
    assert out == {"builder": True, "back": True, "lab": True, "back2": True}


# ---------------------------------------------------------------- the screen's look


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_start_screen_with_own_cards_snapshot(snap_compare: Any, size: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)              # the paths on screen are then the same in every checkout
    design(tmp_path / "design")

    async def run(pilot: Any) -> None:
        s = await on_start(pilot)
        await type_into(pilot, s, "#own-cards", "design")
        await pilot.press("enter")
        s.query_one("#deck-a", Select).focus()       # off the text field: its blinking cursor isn't drawn
        await pilot.pause()

    assert snap_compare(start_app(tmp_path), terminal_size=SIZES[size], run_before=run)
