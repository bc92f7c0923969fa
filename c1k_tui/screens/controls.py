"""Light widgets (Textual only, no engine import: the start screen and dialogs use them before the
engine is loaded): the wrapped, scrollable log; keyboard-first option lists; check and radio boxes
whose state shows by glyph, not colour alone."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Checkbox, Footer, RadioButton
from textual.widgets._footer import FooterKey


def wrap_rows(lines: tuple[str, ...], width: int) -> list[str]:
    """Log lines wrapped to `width` (continuation rows indented), so every word is on screen."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        indent = " " * min(width // 3, lead + 4)
        out += textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent, drop_whitespace=True,
                             break_on_hyphens=False) or [line[:width]]
    return out


class LogView(Widget):
    """The match log as the viewer may read it: whole lines, wrapped; the newest at the bottom. Up/Down
    (or the mouse wheel) scroll by a line, PgUp/PgDn by a page, End follows the newest again. It draws
    its own rows in a fixed area, so a new log line never re-runs layout."""

    lines_: reactive[tuple[str, ...]] = reactive(())
    back: reactive[int] = reactive(0)          # wrapped rows scrolled back from the newest

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._rows_key: tuple[tuple[str, ...] | None, int] = (None, -1)
        self._rows: list[str] = []

    def watch_lines_(self, old: tuple[str, ...], new: tuple[str, ...]) -> None:
        self.back = 0

    def rows(self) -> list[str]:
        w = max(8, self.size.width or 40)
        if self._rows_key[0] is not self.lines_ or self._rows_key[1] != w:
            self._rows = wrap_rows(self.lines_, w)
            self._rows_key = (self.lines_, w)
        return self._rows

    def _clamp(self, back: int) -> int:
        h = max(1, self.size.height or 4)
        return max(0, min(max(0, len(self.rows()) - h), back))

    def scroll_page(self, d: int) -> None:
        """d < 0: back (older), d > 0: forward (newer), by a page (the height less one row)."""
        h = max(1, (self.size.height or 10) - 1)
        self.back = self._clamp(self.back - d * h)

    def scroll_lines(self, d: int) -> None:
        self.back = self._clamp(self.back - d)

    def follow(self, newest: bool = True) -> None:
        self.back = 0 if newest else self._clamp(len(self.rows()))

    def on_mouse_scroll_up(self, event: Any) -> None:
        event.stop()
        self.scroll_lines(-3)

    def on_mouse_scroll_down(self, event: Any) -> None:
        event.stop()
        self.scroll_lines(3)

    def render(self) -> Text:
        h = max(1, self.size.height or 4)
        rows = self.rows()
        back = self._clamp(self.back)
        end = len(rows) - back
        shown = rows[max(0, end - h): end]
        t = Text("\n".join(shown), no_wrap=True, overflow="ellipsis")
        if back and shown:
            t = Text("\n".join(shown[:-1]), no_wrap=True)
            t.append(("\n" if len(shown) > 1 else "") + f"  ↓ {back} newer rows (PgDn · End)", style="dim reverse")
        return t


class GlyphCheckbox(Checkbox):
    """A checkbox whose state shows by glyph (✓ on, blank off), not by colour alone."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.BUTTON_INNER = "✓" if self.value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "✓" if self.value else " "
        super().watch_value()


class GlyphRadio(RadioButton):
    """A radio button whose state shows by glyph (● chosen, ○ not), not by colour alone."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.BUTTON_INNER = "●" if self.value else "○"

    def watch_value(self) -> None:
        self.BUTTON_INNER = "●" if self.value else "○"
        super().watch_value()


@dataclass
class Choice:
    """One row of a `ChoiceList`: a radio (one per group), a check box, a heading, or an action."""

    key: str
    label: str
    kind: str = "check"            # radio | check | head | action
    group: str = ""
    on: bool = False
    disabled: bool = False


GLYPHS = {("radio", True): "(●)", ("radio", False): "( )", ("check", True): "[✓]", ("check", False): "[ ]"}


class ChoiceList(Widget, can_focus=True):
    """A keyboard-first list of options: ↑/↓ (Home/End, PgUp/PgDn) move, Space or Enter toggles a box,
    picks a radio, or runs an action row. States differ by glyph: (●)/( ) and [✓]/[ ]."""

    BINDINGS = [
        Binding("up,k", "move(-1)", show=False), Binding("down,j", "move(1)", show=False),
        Binding("pageup", "move(-8)", show=False), Binding("pagedown", "move(8)", show=False),
        Binding("home", "move(-1000)", show=False), Binding("end", "move(1000)", show=False),
        Binding("space", "flip", "toggle"), Binding("enter", "enter", "choose"),
    ]

    cursor: reactive[int] = reactive(0)
    version: reactive[int] = reactive(0)

    class Activated(Message):
        """An action row was chosen."""

        def __init__(self, key: str) -> None:
            self.key = key
            super().__init__()

    def __init__(self, choices: list[Choice], enter: str = "", **kw: Any) -> None:
        super().__init__(**kw)
        self.choices = choices
        self.enter = enter          # Enter on a box runs this action row instead of toggling it
        self.top = 0
        self.row_of: list[int] = []       # the choice on each row as last rendered (for clicks)
        self.cursor = self._next(-1, 1)

    def _selectable(self, i: int) -> bool:
        c = self.choices[i]
        return c.kind != "head" and not c.disabled

    def _next(self, i: int, d: int) -> int:
        j = i + d
        while 0 <= j < len(self.choices):
            if self._selectable(j):
                return j
            j += d
        return i if 0 <= i < len(self.choices) else 0

    def action_move(self, d: int) -> None:
        step = 1 if d > 0 else -1
        i = self.cursor
        for _ in range(abs(d)):
            j = self._next(i, step)
            if j == i:
                break
            i = j
        self.cursor = i

    def action_flip(self) -> None:
        c = self.choices[self.cursor]
        if c.disabled:
            return
        if c.kind == "check":
            c.on = not c.on
        elif c.kind == "radio":
            for o in self.choices:
                if o.kind == "radio" and o.group == c.group:
                    o.on = o is c
        elif c.kind == "action":
            self.post_message(self.Activated(c.key))
        self.version += 1

    def action_enter(self) -> None:
        c = self.choices[self.cursor]
        if self.enter and c.kind != "action":
            self.post_message(self.Activated(self.enter))
            return
        self.action_flip()

    def value(self, key: str) -> bool:
        return next((c.on for c in self.choices if c.key == key), False)

    def radio(self, group: str) -> str:
        return next((c.key for c in self.choices if c.kind == "radio" and c.group == group and c.on), "")

    def on_click(self, event: Click) -> None:
        rows = self.row_of
        i = rows[event.y] if 0 <= event.y < len(rows) else -1
        if 0 <= i < len(self.choices) and self._selectable(i):
            self.cursor = i
            self.action_flip()

    def _lines(self, i: int, w: int) -> list[Text]:
        """Choice `i` as screen rows of at most `w` cells: a long label wraps under itself (never cut),
        its mark and glyph on the first row."""
        c = self.choices[i]
        here = i == self.cursor and self.has_focus
        if c.kind == "head":
            lead, label = Text(""), Text(c.label, style="bold")
        elif c.kind == "action":
            lead = Text("▶ " if i == self.cursor else "  ", style="bold")
            label = Text(f"‹ {c.label} ›", style="bold reverse" if here else "bold")
        else:
            lead = Text("▶ " if i == self.cursor else "  ", style="bold")
            lead.append(GLYPHS[(c.kind, c.on)] + " ", style="bold")
            label = Text(c.label, style="dim" if c.disabled else ("reverse" if here else ""))
        indent = lead.cell_len if c.kind != "head" else 2
        parts = label.wrap(self.app.console, max(4, w - indent), overflow="fold")
        return [Text.assemble(lead if n == 0 else " " * indent, part) for n, part in enumerate(parts)]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Every row, wrapped to `width` (a `height: auto` list with a `max-height` scrolls past that)."""
        return sum(len(self._lines(i, max(10, width))) for i in range(len(self.choices)))

    def render(self) -> Text:
        full = max(1, self.size.height or 10)
        w = max(10, self.size.width or 60)
        lines = {i: self._lines(i, w) for i in range(len(self.choices))}
        h = full if sum(len(x) for x in lines.values()) <= full else max(1, full - 1)   # a row for "↓ more"
        if self.cursor < self.top:
            self.top = self.cursor
        while self.top < self.cursor and sum(len(lines[i]) for i in range(self.top, self.cursor + 1)) > h:
            self.top += 1
        if self._next(self.cursor, -1) == self.cursor:
            self.top = 0        # the first selectable row: show the heading above it too
        rows: list[Text] = []
        self.row_of = []
        shown = self.top
        for i in range(self.top, len(self.choices)):
            if len(rows) >= h:
                break
            take = lines[i][:h - len(rows)]
            rows += take
            self.row_of += [i] * len(take)
            shown = i + 1 if len(take) == len(lines[i]) else i
        more = len(self.choices) - shown
        if more > 0:
            rows.append(Text(f"  ↓ {more} more (↓ · PgDn)", style="dim reverse"))
        out = Text("\n").join(rows)
        out.no_wrap = True
        return out


class KeysFooter(Footer):
    """Textual's Footer, recomposed only when the keys it shows change: a screen refreshes its bindings on
    every view it shows (each command at the table), and the stock Footer then builds all its keys again —
    mounting and styling a widget per key — even when they are the same keys."""

    _shown: tuple[object, ...] | None = None

    def _keys(self, screen: Screen[Any]) -> tuple[object, ...]:
        """What compose() shows, as a value: each shown binding with its display, state and tooltip."""
        app = self.app
        keys = tuple((b.key, app.get_key_display(b), b.description, b.action, enabled, tooltip,
                      b.group.description if b.group is not None else None, b.group.compact if b.group else None)
                     for (_, b, enabled, tooltip) in screen.active_bindings.values() if b.show)
        return keys, self.show_command_palette and app.ENABLE_COMMAND_PALETTE

    def compose(self) -> ComposeResult:
        # Textual's FooterKey starts compact and is then bound to the footer's `compact`: two restyles of
        # each key every time the footer is built; started at the footer's own value, none
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if not screen.app.app_focus or not (self.is_attached and screen is self.screen):
            super().bindings_changed(screen)
            return
        shown = self._keys(screen)
        if shown == self._shown and self._bindings_ready:
            return
        self._shown = shown
        super().bindings_changed(screen)
