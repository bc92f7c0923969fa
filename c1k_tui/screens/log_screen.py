"""The full log (and the recap) full screen, with a filter."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import (
    Input,
    Static,
)

from c1k_tui.screens.controls import KeysFooter, LogView


def log_rows(lines: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """(turn, window, line) for each log line: the "T5 combat.damage" headers give turn and window."""
    turn, window = 0, ""
    out = []
    for line in lines:
        head = line.split(" ", 1)
        if len(head) == 2 and head[0][:1] == "T" and head[0][1:].isdigit() and "." in head[1] and " " not in head[1]:
            turn, window = int(head[0][1:]), head[1]
        out.append((turn, window, line))
    return out


def _turn_range(s: str) -> tuple[int, int] | None:
    """"5" -> (5, 5), "5-7" -> (5, 7); None if `s` is not a turn or a range of turns."""
    a, dash, b = s.partition("-")
    if not a.isdigit() or (dash and not b.isdigit()) or len(s) > 12:
        return None
    return int(a), int(b or a)


def filter_log(lines: tuple[str, ...], query: str, names: tuple[str, str] = ("p1", "p2")) -> tuple[str, ...]:
    """The log lines matching a filter: `t5` or `t5-7` (turns; also `turn 5`, `turn 5-7`), `w:combat`
    (window), `p1` / `p2` (that player's commands and lines naming them), other words searched (all must
    appear, any case)."""
    turns: tuple[int, int] | None = None
    window = ""
    player = -1
    words: list[str] = []
    toks = query.split()
    for i, tok in enumerate(toks):
        low = tok.lower()
        if low in ("turn", "turns", "t") and i + 1 < len(toks) and _turn_range(toks[i + 1]) is not None:
            continue                               # "turn 2": the number that follows is the turn
        if i > 0 and toks[i - 1].lower() in ("turn", "turns", "t") and _turn_range(low) is not None:
            turns = _turn_range(low)
        elif low[:1] == "t" and _turn_range(low[1:]) is not None:
            turns = _turn_range(low[1:])
        elif low.startswith("w:"):
            window = low[2:]
        elif low in ("p1", "p2"):
            player = int(low[1]) - 1
        else:
            words.append(low)
    if turns is None and not window and player < 0 and not words:
        return lines
    out = []
    for turn, win, line in log_rows(lines):
        low = line.lower()
        if turns is not None and not turns[0] <= turn <= turns[1]:
            continue
        if window and window not in win:
            continue
        if player >= 0:
            me = f"p{player + 1}"
            if not (low.startswith(me + ":") or f" {me} " in f" {low} " or names[player].lower() in low):
                continue
        if any(w not in low for w in words):
            continue
        out.append(f"T{turn} {win} │ {line.strip()}" if win and not line.startswith(f"T{turn} ") else line)
    return tuple(out)


class LogScreen(Screen[None]):
    """The whole log, full width: lines wrap; ↑/↓ scroll a line, PgUp/PgDn a page, Home/End; `/` types a
    filter — turns (t5, t5-7), a window (w:combat), a player (p1), words to search."""

    AUTO_FOCUS = ""
    BINDINGS = [Binding("escape,q,L", "close", "back to the table"),
                Binding("slash,f", "filter", "filter / search"),
                Binding("up,k", "scroll(-1)", show=False), Binding("down,j", "scroll(1)", show=False),
                Binding("pageup", "page(-1)", "page up"), Binding("pagedown", "page(1)", "page down"),
                Binding("home", "end(0)", show=False), Binding("end", "end(1)", show=False)]

    def __init__(self, lines: tuple[str, ...], viewer: str, names: tuple[str, str] = ("p1", "p2"),
                 title: str = "LOG") -> None:
        super().__init__()
        self.all_lines = lines
        self.viewer = viewer
        self.names = names
        self.title_text = title

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((self.title_text, "bold reverse"), f"  as {self.viewer} may read it · ",
                                   ("/", "bold"), " filter: t5 · turn 5-7 · w:combat · p1 · words"), id="log-head")
        yield LogView(id="full-log")
        yield Static(id="log-count", classes="dim")
        yield Input(placeholder="filter (Enter keeps it, Esc leaves the field)", id="log-filter")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#full-log", LogView).lines_ = self.all_lines
        self._count(len(self.all_lines))

    def _count(self, n: int) -> None:
        self.query_one("#log-count", Static).update(f"{n} of {len(self.all_lines)} lines")

    def on_input_changed(self, event: Input.Changed) -> None:
        shown = filter_log(self.all_lines, event.value, self.names)
        self.query_one("#full-log", LogView).lines_ = shown
        self._count(len(shown))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_focus(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if isinstance(self.focused, Input) and action != "close":
            return False
        return True

    def action_close(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        self.dismiss(None)

    def action_filter(self) -> None:
        self.query_one("#log-filter", Input).focus()

    def action_scroll(self, d: int) -> None:
        self.query_one("#full-log", LogView).scroll_lines(d)

    def action_page(self, d: int) -> None:
        self.query_one("#full-log", LogView).scroll_page(d)

    def action_end(self, newest: int) -> None:
        self.query_one("#full-log", LogView).follow(bool(newest))
