"""The start screen: decks, own cards, seed, names and options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    Input,
    Label,
    RadioSet,
    Select,
    Static,
)

from c1k_tui.model.builders import StartChoice
from c1k_tui.model.cardset import join_paths, split_paths
from c1k_tui.model.paths import FLOW_SHORT, FLOWS
from c1k_tui.model.safetext import escape_text
from c1k_tui.model.versus_choices import OPPONENTS
from c1k_tui.screens.controls import GlyphCheckbox, GlyphRadio, KeysFooter

if TYPE_CHECKING:
    from c1k_tui.model.cardset import Pool
    from engine import CardDB


def deck_label(value: str) -> str:
    """A deck list's label: a bundled deck by name, a deck file by its path (the end of a long one)."""
    return value if len(value) <= 24 else "…" + value[-23:]


#: what the start screen's messages add to an unknown card
UNKNOWN_CARD_HINT = "a card of your own: its file or folder goes in 'own cards', or in the deck's [deck] card_files"


class StartScreen(Screen[StartChoice | str]):
    """Pick decks (bundled, or a file path), own cards, seed, names and options.

    *own cards* holds card files or folders (as `--cards`; prefilled from it, and with the card files a chosen
    deck file names). Enter there, or leaving it, loads them: the deck lists then offer the deck files found
    beside them, and a card that doesn't load is a message naming its file. Start checks both decks against
    that pool first — a problem is a message here, and nothing typed is lost. F4 (the Lab) and F5 (the deck
    builder) open over this screen with the same cards and come back to it as it was."""

    # Enter starts from every field, as the screen (and the README) says: a priority binding, so a deck
    # Select doesn't open its list on Enter (↓ or Space opens it) and a checkbox doesn't toggle (Space
    # does). It stands aside on a button (Enter presses it), in an open list (Enter picks) and in a text
    # field (its own Enter starts, through on_input_submitted; in *own cards* it loads them).
    BINDINGS = [Binding("ctrl+s", "start", "start"), Binding("enter", "enter_start", "start", priority=True),
                Binding("f2", "lessons", "lessons"),
                Binding("f3", "resume", "resume"), Binding("f4", "lab", "lab"),
                Binding("f5", "builder", "decks"), Binding("f6", "own_cards", "cards")]

    class CardsChanged(Message):
        """The own cards this screen loaded: from now on this run's own cards (the app's card set)."""

        def __init__(self, paths: list[str]) -> None:
            super().__init__()
            self.paths = paths

    class Open(Message):
        """Open the Lab or the deck builder over this screen (the app pushes it; closing it comes back here):
        with these own cards, deck files and card set, and `then` called with the deck the builder saved."""

        def __init__(self, what: str, cards: list[str], decks: list[str], db: CardDB | None = None,
                     then: Callable[[Path | None], None] | None = None) -> None:
            super().__init__()
            self.what = what
            self.cards = cards
            self.decks = decks
            self.db = db
            self.then = then

    def __init__(self, decks: list[str], default: StartChoice, can_resume: bool, error: str = "",
                 cards: Sequence[str] = ()) -> None:
        super().__init__()
        self.decks = decks
        self.default = default
        self.can_resume = can_resume
        self.error = error
        self.cards = list(cards or default.cards)
        self.found: list[str] = []                   # deck files beside the own cards …
        self.saved: list[str] = []                   # … and saved from the deck builder (F5)
        self.deck_files: list[str] = []              # both: the deck lists after the bundled decks
        self.auto: dict[str, list[str]] = {"a": [], "b": []}   # card files added because that deck names them
        self.loaded: str | None = None               # the own-cards text last loaded
        self.pool: Pool | None = None

    def compose(self) -> ComposeResult:
        d = self.default
        opts = [(n, n) for n in self.decks]
        with VerticalScroll(id="start-box"):
            yield Static(Text("Council of 1000 — new match", style="bold"), id="start-title")
            yield Static("Two players at one terminal. Tab moves between fields; Enter (or ctrl+s) starts; "
                         "↓ or Space opens a list.", classes="dim")
            for side, who, deck in (("a", "p1", d.deck_a), ("b", "p2", d.deck_b)):
                with Horizontal(classes="row"):
                    yield Label(f"{who} deck", classes="lab")
                    yield Select(opts, value=deck if deck in self.decks else Select.NULL, id=f"deck-{side}",
                                 allow_blank=True, prompt="(a file path below)")
                    yield Input(value="" if deck in self.decks else deck, placeholder="or a deck file path",
                                id=f"file-{side}")
            with Horizontal(classes="row"):
                yield Label("own cards", classes="lab")
                yield Input(value=join_paths(self.cards), id="own-cards",
                            placeholder="card files or folders, space between (Enter loads them)")
            yield Static("", id="start-cards")
            yield Static(self.error, id="start-error")
            with Horizontal(classes="row"):
                yield Label("names", classes="lab")
                yield Input(value=d.p1, id="name-a")
                yield Input(value=d.p2, id="name-b")
            with Horizontal(classes="row"):
                yield Label("p2 is", classes="lab")
                yield Select([(label, spec) for label, spec in OPPONENTS], value=d.opponent if d.opponent in
                             {spec for _, spec in OPPONENTS} else "human", id="opponent", allow_blank=False)
            with Horizontal(classes="row"):
                yield Label("seed", classes="lab")
                yield Input(value="", placeholder="random (shown at game over)", id="seed", type="integer")
            with RadioSet(id="start-flow"):
                for m in FLOWS:
                    yield GlyphRadio(FLOW_SHORT[m], value=d.flow == m, id=f"start-flow-{m}")
            yield GlyphCheckbox("open hands (teaching, solo: no hiding, no hand-off screen)",
                                value=d.open_hands, id="open-hands")
            yield GlyphCheckbox("practice mode (a refused action never moves priority)", value=d.practice,
                                id="practice")
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Lessons (F2)", id="lessons")
                yield Button("Resume last (F3)", id="resume", disabled=not self.can_resume)
                yield Button("Lab (F4)", id="lab")
                yield Button("Decks (F5)", id="builder")
                yield Button("Quit", id="quit")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#start-cards", Static).display = False
        self.query_one("#start-error", Static).display = False
        if self.error:
            self.show_error(self.error)
        # the first field, so the screen opens at its top (focusing Start scrolled a small terminal down)
        self.query_one("#deck-a", Select).focus()
        self.query_one("#start-box", VerticalScroll).scroll_home(animate=False)
        if self.cards or any(Path(self._deck(s)).is_file() for s in ("a", "b")):
            # own cards (--cards, or a deck file's card_files): loaded once the first frame is painted
            self.call_after_refresh(self._first_load)

    def _first_load(self) -> None:
        for side in ("a", "b"):
            self._deck_cards(side)
        if self.loaded is None:
            self.load_cards()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "enter_start":
            from textual.widgets._select import SelectOverlay

            f = self.focused
            return not isinstance(f, (Button, Input, SelectOverlay))
        return True

    def action_enter_start(self) -> None:
        self.action_start()

    def _deck(self, which: str) -> str:
        path = self.query_one(f"#file-{which}", Input).value.strip()
        if path:
            return path
        sel = self.query_one(f"#deck-{which}", Select).value
        return str(sel) if sel is not Select.NULL and sel is not None else ""

    # ---------------------------------------------------------------- own cards

    def _cards_input(self) -> Input:
        return self.query_one("#own-cards", Input)

    def _deck_cards(self, side: str) -> None:
        """The card files the deck of `side` names join *own cards* (those the side's earlier deck added
        leave it, unless something else put them there)."""
        deck = self._deck(side)
        if not self.auto[side] and not Path(deck).expanduser().is_file():
            return                      # a bundled deck, or a path not typed in full (nothing to load yet)
        from c1k_tui.model.cardset import named_card_files
        from engine import CardFileError

        try:
            named = [str(p) for p in named_card_files(deck)]
        except CardFileError as err:
            self.show_error(str(err))
            named = []
        field = self._cards_input()
        try:
            typed = split_paths(field.value)
        except ValueError:
            return                      # a half-typed quote: the field is the designer's; Enter says why
        if named == self.auto[side]:
            return
        other = set(self.auto["b" if side == "a" else "a"])
        keep = [p for p in typed if p not in self.auto[side] or p in other or p in self.cards]
        self.auto[side] = [p for p in named if p not in keep]
        keep += self.auto[side]
        if keep != typed:
            field.value = join_paths(keep)
            self.load_cards()

    def load_cards(self) -> Pool | None:
        """Load *own cards* (with the card files the chosen decks name): the deck lists offer the deck files
        beside them, and a problem is a message naming the file. None if they don't load."""
        from c1k_tui.model.cardset import load_pool
        from engine import CardFileError

        text = self._cards_input().value
        try:
            paths = split_paths(text)
            pool = load_pool([Path(p).expanduser() for p in paths], [self._deck("a"), self._deck("b")])
        except (ValueError, OSError) as err:          # CardFileError is a ValueError
            self.pool = None
            self.loaded = None
            self.query_one("#start-cards", Static).display = False
            why = "\n".join(err.problems) if isinstance(err, CardFileError) else str(err)
            self.show_error(f"own cards: {why}")
            return None
        self.pool, self.loaded = pool, text
        self.clear_error()
        status = self.query_one("#start-cards", Static)
        status.update(Text(pool.summary()))
        status.display = bool(pool.files)
        self.found = [str(d) for d in pool.decks]
        self._set_deck_files()
        self.post_message(self.CardsChanged(paths))
        return pool

    def _set_deck_files(self) -> None:
        """The deck lists: the bundled decks, then the deck files found and saved (each list keeps its choice
        if it is still offered)."""
        files = [f for f in dict.fromkeys(self.found + self.saved) if f not in self.decks]
        if files == self.deck_files:
            return
        self.deck_files = files
        opts = [(n, n) for n in self.decks] + [(deck_label(f), f) for f in files]
        for side in ("a", "b"):
            sel = self.query_one(f"#deck-{side}", Select)
            value = sel.value
            with sel.prevent(Select.Changed):
                sel.set_options(opts)
                if value in self.decks or value in files:
                    sel.value = value

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("file-a", "file-b"):
            self._deck_cards(event.input.id[-1])

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("deck-a", "deck-b"):
            self._deck_cards(event.select.id[-1])

    def on_input_blurred(self, event: Input.Blurred) -> None:
        if event.input.id == "own-cards" and event.input.value != self.loaded:
            self.load_cards()

    def action_own_cards(self) -> None:
        self._cards_input().focus()

    def _ready_pool(self) -> Pool | None:
        """The pool of *own cards* as typed now (loaded again if the text changed)."""
        if self.pool is not None and self._cards_input().value == self.loaded:
            return self.pool
        return self.load_cards()

    # ---------------------------------------------------------------- starting

    def action_start(self) -> None:
        from c1k_tui.model.cardset import check_decks
        from engine import CardFileError

        a, b = self._deck("a"), self._deck("b")
        if not a or not b:
            self.show_error("pick a deck for each player (or type a file path)")
            return
        pool = self.load_cards()         # with the card files these decks name
        if pool is None:
            return
        try:
            check_decks(pool.db, [a, b])
        except (FileNotFoundError, CardFileError) as err:
            msg = str(err)
            self.show_error(msg + (f"\n({UNKNOWN_CARD_HINT})" if "unknown card" in msg else ""))
            return
        try:
            typed = self.query_one("#seed", Input).value.strip()
            seed = int(typed) % 2**64 if typed else self.default.seed   # the seed stays hidden (rules.md §7)
        except ValueError:
            seed = self.default.seed
        rs = self.query_one("#start-flow", RadioSet)
        flow = FLOWS[rs.pressed_index] if rs.pressed_index >= 0 else "stops"
        self.dismiss(StartChoice(a, b, seed, escape_text(self.query_one("#name-a", Input).value.strip()) or "p1",
                                 escape_text(self.query_one("#name-b", Input).value.strip()) or "p2",
                                 self.query_one("#open-hands", Checkbox).value,
                                 self.query_one("#practice", Checkbox).value, flow,
                                 str(self.query_one("#opponent", Select).value),
                                 tuple(split_paths(self._cards_input().value))))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "own-cards":
            self.load_cards()
            return
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "start":
            self.action_start()
        elif bid == "lab":
            self.action_lab()
        elif bid == "builder":
            self.action_builder()
        elif bid in ("lessons", "resume", "quit"):
            self.dismiss(str(bid))

    def action_lessons(self) -> None:
        self.dismiss("lessons")

    def action_lab(self) -> None:
        """The Lab, over this screen, with these own cards and their decks; Esc there comes back to this screen
        as it was."""
        if self._ready_pool() is None:
            return
        # the deck files beside the own cards (and saved from F5) join its deck list, not marked
        self.post_message(self.Open("lab", split_paths(self._cards_input().value),
                                    [f for f in self.deck_files if Path(f).is_file()]))

    def action_builder(self) -> None:
        """The deck builder, over this screen, with the same card pool; a deck saved there joins the lists."""
        pool = self._ready_pool()
        if pool is None:
            return
        self.post_message(self.Open("builder", split_paths(self._cards_input().value), [], pool.db, self._built))

    def _built(self, saved: Path | None) -> None:
        if saved is not None:
            self.saved.append(str(saved))
            self._set_deck_files()
            self.show_note(f"✓ {saved} is in the deck lists")

    def action_resume(self) -> None:
        if self.can_resume:
            self.dismiss("resume")

    # ---------------------------------------------------------------- messages

    #: at most this many lines of problems on the screen (`c1k validate` lists them all)
    MAX_LINES = 8

    def show_error(self, msg: str) -> None:
        lines = msg.splitlines()
        if len(lines) > self.MAX_LINES:
            lines = lines[:self.MAX_LINES] + [f"… and {len(lines) - self.MAX_LINES} more (c1k validate lists "
                                               "every problem)"]
        err = self.query_one("#start-error", Static)
        err.update(Text("✗ " + "\n".join(lines), style="bold red"))
        err.display = True
        self.call_after_refresh(lambda: err.scroll_visible(animate=False))

    def show_note(self, msg: str) -> None:
        err = self.query_one("#start-error", Static)
        err.update(Text(msg, style="bold green"))     # not the error colour: the ✓ says it went well
        err.display = True

    def clear_error(self) -> None:
        err = self.query_one("#start-error", Static)
        err.update("")
        err.display = False
