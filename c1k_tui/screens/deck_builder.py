"""The deck builder (start screen F5, the Lab F5): browse and filter the card pool — bundled cards and this
run's own (`--cards` or the start screen's *own cards*, and the card files an opened deck names) — add
and remove cards, with the curve, Realms and counts summarised live and every construction problem listed
as `c1k validate` words it; open a deck file, save TOML (asking for a path, confirming before overwriting;
written atomically).

The policy lives in c1k_tui/model/deckbuild.py; this screen shows it and passes keys to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Label, Static

from c1k_tui.model import deckbuild as m
from c1k_tui.screens.controls import KeysFooter
from c1k_tui.screens.save_dialog import AskPathModal, ask_save_path
from engine import CardDB, CardFileError

SPARK = " ▁▂▃▄▅▆▇█"


class DeckBuilderScreen(Screen[Path | None]):
    """Build or edit one deck. Dismisses with the path last saved (None if nothing was saved)."""

    CSS_PATH = "deck_builder.tcss"
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("plus,equals_sign,enter", "add", "add", key_display="+"),
        Binding("minus,delete", "remove", "remove", key_display="-"),
        Binding("slash", "find", "filter", key_display="/"),
        Binding("ctrl+o", "open", "open"),
        Binding("ctrl+s", "save", "save"),
        Binding("ctrl+n", "new", "new"),
        Binding("escape", "back", "back"),
    ]

    def __init__(self, db: CardDB, path: Path | None = None, extra_cards: list[Path] | None = None) -> None:
        super().__init__()
        self.base_db = db
        self.db = db
        self.extra = list(extra_cards or [])
        self.draft = m.DeckDraft()
        self.filter = m.CardFilter()
        self.shown: list[str] = []        # the pool's card ids, in table order
        self.saved: Path | None = None
        self.dirty = False
        self.start_path = path

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        champs = [c.name for c in m.heads(self.db, "champion")]
        seats = [c.name for c in m.heads(self.db, "seat")]
        yield Static(id="db-title")
        with Horizontal(id="db-filters"):
            yield Label("find", classes="db-lab")
            yield Input(placeholder="name or text", id="f-text", classes="db-text")
            yield Label("cost", classes="db-lab")
            # ("any", as the other filters: an example such as "2-4" would read as an active filter)
            yield Input(placeholder="any", id="f-cost", classes="db-short",
                        tooltip="a cost: N, a range N-M or N+ (e.g. 2-4, 5+); empty: any cost")
            yield Label("realm", classes="db-lab")
            yield Input(placeholder="any", id="f-realm", classes="db-mid",
                        suggester=SuggestFromList(m.realms(self.db), case_sensitive=False))
            yield Label("type", classes="db-lab")
            yield Input(placeholder="any", id="f-type", classes="db-mid",
                        suggester=SuggestFromList(list(m.LIBRARY_TYPES), case_sensitive=False))
            yield Label("kw", classes="db-lab")
            yield Input(placeholder="any", id="f-keyword", classes="db-mid",
                        suggester=SuggestFromList(m.keywords(self.db), case_sensitive=False))
        with Horizontal(id="db-head"):
            yield Label("name", classes="db-lab")
            yield Input(placeholder="deck name", id="d-name", classes="db-name")
            yield Label("champion", classes="db-lab")
            yield Input(placeholder="champion", id="d-champion", classes="db-head-in",
                        suggester=SuggestFromList(champs, case_sensitive=False))
            yield Label("seat", classes="db-lab")
            yield Input(placeholder="seat", id="d-seat", classes="db-head-in",
                        suggester=SuggestFromList(seats, case_sensitive=False))
        with Horizontal(id="db-main"):
            with Vertical(id="db-pool-box"):
                yield Static(id="db-pool-title", classes="db-sub")
                yield DataTable(id="db-pool", cursor_type="row", zebra_stripes=False)
            with Vertical(id="db-deck-box"):
                yield Static(id="db-deck-title", classes="db-sub")
                yield DataTable(id="db-deck", cursor_type="row")
                yield Static(id="db-summary")
                with VerticalScroll(id="db-problems-box"):
                    yield Static(id="db-problems")
        yield Static(id="db-card")
        yield Static(id="db-status")
        yield KeysFooter()

    def on_mount(self) -> None:
        pool = self.query_one("#db-pool", DataTable)
        narrow = self.app.size.width < 100
        pool.add_column("in", width=3)
        pool.add_column("cost", width=4)
        pool.add_column("card", width=20 if narrow else 28)
        pool.add_columns("realm", "type", "stats")
        deck = self.query_one("#db-deck", DataTable)
        deck.add_columns("×", "cost", "card")
        if self.start_path is not None:
            self.load(self.start_path)
        self.refresh_pool()
        self.refresh_deck()
        pool.focus()
        self._breakpoints()

    def on_resize(self) -> None:
        self._breakpoints()

    def _breakpoints(self) -> None:
        self.set_class(self.size.width < 100, "-narrow")
        self.set_class(self.size.height < 30, "-short")
        self.show_card()                  # the card panel's layout follows the size

    # ---------------------------------------------------------------- showing

    def refresh_pool(self) -> None:
        table = self.query_one("#db-pool", DataTable)
        try:
            cards = m.filter_pool(self.db, self.filter)
        except ValueError as err:
            self._status(Text(f"✗ {err}", style="bold red"))
            return
        row = table.cursor_row
        table.clear()
        self.shown = [c.id for c in cards]
        for c in cards:
            n = self.draft.copies(c.id)
            table.add_row(f"×{n}" if n else "·", str(c.cost), c.name, c.realm, c.type, m.stats(c), key=c.id)
        if cards:
            table.move_cursor(row=min(max(row, 0), len(cards) - 1))
        words = [f"{k} {v}" for k, v in (("find", self.filter.text), ("cost", self.filter.cost),
                                         ("realm", self.filter.realm), ("type", self.filter.type),
                                         ("kw", self.filter.keyword)) if v]
        self.query_one("#db-pool-title", Static).update(
            Text(f"Card pool: {len(cards)} of {len(m.pool(self.db))}" + (" · " + " · ".join(words) if words else ""),
                 style="bold"))
        self.show_card()

    def _mark_pool(self, card_id: str) -> None:
        """Update one pool row's `in` cell (the whole table is rebuilt only when the filter changes)."""
        table = self.query_one("#db-pool", DataTable)
        if card_id in self.shown:
            n = self.draft.copies(card_id)
            table.update_cell(card_id, table.ordered_columns[0].key, f"×{n}" if n else "·")

    def refresh_deck(self) -> None:
        d, db = self.draft, self.db
        table = self.query_one("#db-deck", DataTable)
        row = table.cursor_row
        table.clear()
        entries = sorted(d.counts.items(), key=lambda kv: (db.by_id[kv[0]].cost, db.by_id[kv[0]].name)
                         if kv[0] in db.by_id else (99, kv[0]))
        for cid, n in entries:
            c = db.by_id.get(cid)
            table.add_row(str(n), str(c.cost) if c else "?", c.name if c else f"? {cid}", key=cid)
        if entries:
            table.move_cursor(row=min(max(row, 0), len(entries) - 1))
        s = m.summary(d, db)
        self.query_one("#db-deck-title", Static).update(Text(f"Deck {s.size}/{m.LIBRARY_SIZE} · {s.distinct} "
                                                             f"kinds · avg {s.average_cost}", style="bold"))
        peak = max((n for _, n in s.curve), default=0) or 1
        costs = "".join(f"{k:>3}" for k, _ in s.curve)
        bars = "".join(f"{SPARK[round(8 * n / peak)] if n else '·':>3}" for _, n in s.curve)
        nums = "".join(f"{n:>3}" for _, n in s.curve)
        summary = Text()
        summary.append("cost ", style="dim").append(costs + "\n")
        summary.append("curve").append(bars + "\n")
        summary.append("     ").append(nums + "\n")
        summary.append("realms ", style="dim").append(" · ".join(f"{r} {n}" for r, n in s.realms) or "—")
        summary.append("\ntypes  ", style="dim").append(" · ".join(f"{t} {n}" for t, n in s.types) or "—")
        self.query_one("#db-summary", Static).update(summary)
        probs = m.problems(d, db)
        out = Text()
        if probs:
            out.append(f"✗ {len(probs)} construction problem(s):\n", style="bold red")
            for p in probs:
                out.append(f"• {p}\n")
        else:
            out.append("✓ a legal deck: no construction problems", style="bold green")
        self.query_one("#db-problems", Static).update(out)
        self._title()

    def _title(self) -> None:
        where = str(self.draft.path) if self.draft.path else "not saved yet"
        self.query_one("#db-title", Static).update(
            Text(f"Deck builder — {self.draft.name or 'new deck'} ({where}){' · changed' if self.dirty else ''}",
                 style="bold"))

    def _focused_card(self) -> str | None:
        """The card under the cursor of the pool or the deck list (whichever was focused last)."""
        table = self.focused if isinstance(self.focused, DataTable) else self.query_one("#db-pool", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    def show_card(self) -> None:
        """The highlighted card as the table's card panel draws it: name, kind, cost, stats and keywords
        with their rules; its text; and what the engine does with it (`describe_effects`), one line each
        (cut, not wrapped, so the panel keeps its height). At 80×24 the keywords join the first line."""
        cid = self._focused_card()
        c = self.db.by_id.get(cid) if cid else None
        box = self.query_one("#db-card", Static)
        if c is None:
            box.update("")
            return
        p = m.card_preview(c)
        short = self.has_class("-short")
        head = Text.assemble((p.name, "bold"), f" — {p.kind} · in deck ×{self.draft.copies(c.id)}")
        kws = ("keywords: " + ", ".join(f"{k} ({rule})" for k, rule in p.keywords)) if p.keywords else ""
        if short and kws:                # 80×24: the keywords' names on the first line (R has their rules)
            head.append(" · " + ", ".join(k for k, _ in p.keywords), style="dim")
        lines = [head, Text(p.text or "(no text)", style="italic"),
                 Text("does: " + (" · ".join(p.effects) if p.effects else "nothing of its own"), style="cyan")]
        if kws and not short:
            lines.append(Text(kws, style="dim"))
        width = max(20, (box.content_size.width or self.size.width - 2))
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        box.update(Text("\n").join(lines))

    def _status(self, msg: str | Text) -> None:
        self.query_one("#db-status", Static).update(msg)

    # ---------------------------------------------------------------- events

    @on(DataTable.RowHighlighted)
    def _highlighted(self, _: DataTable.RowHighlighted) -> None:
        self.show_card()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()        # Enter on a row adds a copy (the binding)
        self.action_add()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        iid = event.input.id or ""
        if iid.startswith("f-"):
            f = {k: self.query_one(f"#f-{k}", Input).value.strip() for k in ("text", "cost", "realm", "type",
                                                                              "keyword")}
            self.filter = m.CardFilter(**f)
            self.refresh_pool()
        elif iid.startswith("d-"):
            value = event.value.strip()
            if iid == "d-name":
                changed = value != self.draft.name
                self.draft.name = value
            else:
                card = self.db.get(value)
                ident = card.id if card is not None else value
                key = iid[2:]
                changed = ident != getattr(self.draft, key)
                setattr(self.draft, key, ident)
            self.dirty = self.dirty or changed
            self.refresh_deck()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#db-pool", DataTable).focus()      # Enter in a field: back to the pool

    # ---------------------------------------------------------------- actions

    def action_add(self) -> None:
        cid = self._focused_card()
        if cid is None:
            return
        self.draft.add(cid)
        self._changed_card(cid, "added")

    def action_remove(self) -> None:
        cid = self._focused_card()
        if cid is None or not self.draft.copies(cid):
            self._status("that card isn't in the deck")
            return
        self.draft.remove(cid)
        self._changed_card(cid, "removed")

    def _changed_card(self, cid: str, what: str) -> None:
        self.dirty = True
        self._mark_pool(cid)
        self.refresh_deck()
        self.show_card()
        c = self.db.by_id.get(cid)
        self._status(f"{what} {c.name if c else cid}: ×{self.draft.copies(cid)} in the deck · "
                     f"{self.draft.size()}/{m.LIBRARY_SIZE} cards")

    def action_find(self) -> None:
        self.query_one("#f-text", Input).focus()

    def action_new(self) -> None:
        self.db = self.base_db
        self.draft = m.DeckDraft()
        self.dirty = False
        self._fill_head()
        self.refresh_pool()
        self.refresh_deck()
        self._status("a new, empty deck")

    def load(self, path: Path) -> bool:
        """Open a deck file (with the card files it names); False and a message if it can't be read."""
        from engine.cardset import load_cards

        try:
            db = load_cards(self.extra, [path])
            draft = m.open_deck(path, db)
        except (OSError, CardFileError) as err:
            probs = getattr(err, "problems", None)
            self._status(Text(f"✗ can't open {path}: " + ("; ".join(probs) if probs else str(err)), style="bold red"))
            return False
        self.db, self.draft, self.dirty = db, draft, False
        self._fill_head()
        return True

    def _fill_head(self) -> None:
        d = self.draft
        with self.prevent(Input.Changed):
            self.query_one("#d-name", Input).value = d.name
            for key in ("champion", "seat"):
                ident = getattr(d, key)
                card = self.db.by_id.get(ident)
                self.query_one(f"#d-{key}", Input).value = card.name if card else ident

    def action_open(self) -> None:
        def got(text: str | None) -> None:
            if text is None:
                return
            from engine import find_deck

            try:
                path = find_deck(text)
            except FileNotFoundError as err:
                self._status(Text(f"✗ {err}", style="bold red"))
                return
            if self.load(Path(path)):
                self.refresh_pool()
                self.refresh_deck()
                self._status(f"opened {path}")

        self.app.push_screen(AskPathModal("Open a deck", str(self.draft.path or ""),
                                          "a deck file, or a bundled deck's name (ironbound); Enter opens"), got)

    def action_save(self) -> None:
        ask_save_path(self, "Save the deck as", m.suggest_path(self.draft), self.save_to,
                      "a .toml file; Enter saves (you are asked before a file is replaced)")

    def save_to(self, path: Path) -> None:
        try:
            m.save(self.draft, path, self.db, overwrite=True)
        except (OSError, ValueError) as err:
            self._status(Text(f"✗ could not save: {err}", style="bold red"))
            return
        self.saved, self.dirty = path, False
        self._title()
        probs = m.problems(self.draft, self.db)
        self._status(Text(f"✓ saved {path}" + (f" — with {len(probs)} construction problem(s): it won't play "
                                                 "until they are fixed" if probs else f" — play it: c1k play {path} …"),
                          style="bold"))

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#db-pool", DataTable).focus()
            return
        if not self.dirty:
            self.dismiss(self.saved)
            return
        from c1k_tui.screens.confirm_modal import ConfirmModal

        def leave(yes: bool | None) -> None:
            if yes:
                self.dismiss(self.saved)

        self.app.push_screen(ConfirmModal("Leave the deck builder?", "The deck has changes that aren't saved.",
                                          "Leave", "Stay"), leave)


def open_builder(app: Any, then: Any = None, path: Path | None = None) -> None:
    """Push the deck builder with this run's card set; `then(saved_path_or_None)` when it closes."""
    from c1k_tui.model.cardset import card_db, extra

    try:
        db = card_db()
    except CardFileError as err:
        app.notify("; ".join(err.problems), severity="error")
        return
    app.push_screen(DeckBuilderScreen(db, path, extra()), then)


__all__ = ["DeckBuilderScreen", "open_builder"]
