"""The match screen's widgets. Each renders one immutable value from `c1k_tui.model.view`, held in a reactive
that the screen assigns fresh values to, so a widget repaints only when what it shows has changed.
Widgets never touch the engine: a click posts a typed message (`SpotClicked`) and the screen decides.

Marks (cursor, legal target, picked, toggled attacker, paired blocker) are shown with glyphs *and*
styles, never by colour alone: ▶ cursor · ◎ legal target/slot · » picked · ✓ chosen attacker · ⚔ attacking · ⛨ blocking.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Static

from c1k_tui.model.completion import Cycle
from c1k_tui.model.view import HandCard, SideView, StackEntry, UnitView, WindowView, phase_groups
from c1k_tui.screens.controls import LogView


@runtime_checkable
class _HasCandidates(Protocol):
    def candidates(self, value: str) -> list[str]: ...


Spot = tuple[Any, ...]   # ("hand", i) | ("unit", player, slot) | ("relic", player, slot) | ("champ", player)

MARK_GLYPH = {"cursor": "▶", "legal": "◎", "picked": "»", "toggled": "✓", "paired": "⛨"}


class SpotClicked(Message):
    """A card, slot or champion was clicked."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        super().__init__()


def _cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[: max(0, n - 1)] + "…"


def _mark_prefix(marks: frozenset[str]) -> str:
    out = "▶" if "cursor" in marks else ""
    for m in ("legal", "toggled", "picked", "paired"):
        if m in marks:
            return out + MARK_GLYPH[m]
    return out


def mark_style(marks: frozenset[str]) -> str:
    if "cursor" in marks:
        return "reverse bold"
    for name, style in (("toggled", "bold red"), ("paired", "bold magenta"), ("picked", "bold yellow"),
                        ("legal", "bold green")):
        if name in marks:
            return style
    return ""


BOXES = {"round": "╭╮╰╯─│", "heavy": "┏┓┗┛━┃", "double": "╔╗╚╝═║"}
SLOT_WIDTH = 13


def _box(body: list[Text], width: int, title: str, subtitle: str, kind: str, style: str) -> list[Text]:
    """A bordered card drawn as text lines: the border shows the marks (heavy: cursor, double: legal)."""
    tl, tr, bl, br, h, v = tuple(BOXES[kind])
    inner = max(1, width - 2)
    title = _cut(title, max(0, inner - 2))
    subtitle = _cut(subtitle, max(0, inner - 2))
    out = [Text(tl + h + title + h * max(0, inner - 1 - len(title)) + tr, style=style)]
    for line in body:
        line = line.copy()
        line.truncate(inner, overflow="ellipsis", pad=True)
        row = Text(v, style=style)
        row.append_text(line)
        row.append(v, style=style)
        out.append(row)
    out.append(Text(bl + h * max(0, inner - 1 - len(subtitle)) + subtitle + h + br, style=style))
    return out


@lru_cache(maxsize=512)
def slot_lines(u: UnitView | None, slot: int, marks: frozenset[str], width: int, compact: bool) -> tuple[Text, ...]:
    """Cached: a unit's lines are drawn once per (unit view, marks, size) — a cursor move or a pick
    repaints two or three slots' worth of new text, not twelve. The caller must not change them."""
    return tuple(_slot_lines(u, slot, marks, width, compact))


def _slot_lines(u: UnitView | None, slot: int, marks: frozenset[str], width: int, compact: bool) -> list[Text]:
    """One unit slot as lines of text: 5 with a border, or 3 borderless (compact)."""
    prefix = _mark_prefix(marks)
    mstyle = mark_style(marks)
    inner = width if compact else width - 2
    if u is None:
        body = [Text(f"{prefix}{' ' if prefix else ''}(empty)", style=mstyle or "dim"),
                Text(f"slot {slot + 1}" if compact else "", style="dim"), Text("")]
        title, sub = f"slot {slot + 1}", ""
    else:
        head = f"{prefix}#{u.cid} {u.name}" if compact else f"{prefix}{u.name}"
        stats = f"{u.power}/{u.health}"
        if u.damage:
            stats += f" dmg{u.damage}"
        tag = status_tag(u)
        if compact and tag:
            stats += " " + tag
        extra = list(u.keywords) + [x.capitalize() for x in u.statuses] + [f"{k} {v}" for k, v in u.counters]
        body = [Text(_cut(head, inner), style=mstyle or "bold"), Text(_cut(stats, inner)),
                Text(_cut(" ".join(extra), inner), style="italic")]
        title, sub = f"#{u.cid}", tag
    if compact:
        bg = {"reverse bold": "reverse", "bold red": "on dark_red", "bold magenta": "on purple4",
              "bold yellow": "on dark_goldenrod", "bold green": "on dark_green"}.get(mstyle, "")
        if not bg and u is not None and u.attacking:
            bg = "on dark_red"
        out = []
        for line in body:
            line = line.copy()
            line.truncate(width - 1, overflow="ellipsis", pad=True)
            line.stylize(bg or ("on grey15" if u is not None else ""))
            line.append(" ")
            out.append(line)
        return out
    kind = "round"
    style = "dim" if u is None else ""
    if u is not None and (u.attacking or u.blocking):
        kind, style = "heavy", "red" if u.attacking else "magenta"
    if "legal" in marks:
        kind, style = "double", "green"
    for name, st in (("toggled", "red"), ("paired", "magenta"), ("picked", "yellow")):
        if name in marks:
            kind, style = "heavy", st
    if "cursor" in marks:
        kind, style = ("double" if "legal" in marks else "heavy"), "bold bright_cyan"
    return _box(body, width, title, sub, kind, style)


def status_tag(u: UnitView) -> str:
    tags = []
    if u.attacking:
        tags.append("⚔atk")
    if u.blocking:
        tags.append(f"⛨#{u.blocking}")
    if u.deploying:
        tags.append("⤳dep")
    if u.exhausted and not u.attacking:
        tags.append("z")
    return " ".join(tags)


class BoardRow(Widget):
    """One player's six unit slots, drawn as one widget (one repaint, one compositor region)."""

    units: reactive[tuple[UnitView | None, ...]] = reactive(())
    marks: reactive[tuple[frozenset[str], ...]] = reactive(())

    def __init__(self, player: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.player = player

    @property
    def slot_width(self) -> int:
        """Each slot's columns: `SLOT_WIDTH`, narrower when more slots than fit (a Seat's 7th slot at 80
        or 120 columns) — every slot on one line."""
        n = max(1, len(self.units))
        return max(8, min(SLOT_WIDTH, (self.size.width or SLOT_WIDTH * n) // n))

    def render(self) -> Text:
        compact = (self.size.height or 5) < 5
        rows: list[Text] = [Text(no_wrap=True) for _ in range(3 if compact else 5)]
        w = self.slot_width
        for i, u in enumerate(self.units):
            m = self.marks[i] if i < len(self.marks) else frozenset()
            for r, line in zip(rows, slot_lines(u, i, m, w, compact), strict=False):
                r.append_text(line)
        return Text("\n", no_wrap=True).join(rows)

    def on_click(self, event: Click) -> None:
        i = event.x // self.slot_width
        if 0 <= i < len(self.units):
            event.stop()
            self.post_message(SpotClicked(("unit", self.player, i)))


class ChipsRow(Widget):
    """A player's Champion (life, Influence, counts) and relic slots, on one line."""

    side: reactive[SideView | None] = reactive(None)
    marks: reactive[tuple[frozenset[str], ...]] = reactive(())   # champion, relic 1..3

    def __init__(self, player: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.player = player
        self._ranges: list[tuple[int, int, Spot]] = []

    def render(self) -> Text:
        s = self.side
        if s is None:
            return Text("")
        w = max(20, self.size.width or 80)
        marks = self.marks or (frozenset(),) * (1 + len(s.relics))
        relics: list[Text] = []
        for i, u in enumerate(s.relics):
            m = marks[i + 1] if i + 1 < len(marks) else frozenset()
            prefix = _mark_prefix(m)
            if u is None:
                relics.append(Text(f" {prefix}·r{i + 1}", style=mark_style(m) or "dim"))
            else:
                relics.append(Text(_cut(f" {prefix}◇#{u.cid} {u.name}{' z' if u.exhausted else ''}", 21),
                                   style=mark_style(m)))
        rw = sum(len(r) for r in relics)
        cw = max(10, w - rw)
        m0 = marks[0] if marks else frozenset()
        t = Text(no_wrap=True, overflow="ellipsis", style=mark_style(m0))
        prefix = _mark_prefix(m0)
        if prefix:
            t.append(prefix)
        t.append(("★" if s.active else "") + s.name, style="bold")
        t.append(f" ♥{s.life}", style="bold red" if s.life <= 5 else "bold")
        t.append(f" ◆{s.influence}/{s.capacity}")
        t.append(f" hand {s.hand_size}")
        t.append(f" lib {s.library} gy {s.graveyard}", style="dim")
        if s.set_count:
            t.append(f" set {'▒' * s.set_count}")
        t.append(f" · {s.champion_name}", style="italic")
        if s.seat_name:
            t.append(f" · {s.seat_name}", style="dim italic")
        t.truncate(cw, overflow="ellipsis", pad=True)
        self._ranges = [(0, cw, ("champ", s.player))]
        x = cw
        for i, r in enumerate(relics):
            self._ranges.append((x, x + len(r), ("relic", s.player, i)))
            x += len(r)
            t.append_text(r)
        return t

    def on_click(self, event: Click) -> None:
        for a, b, spot in self._ranges:
            if a <= event.x < b:
                event.stop()
                self.post_message(SpotClicked(spot))
                return


SET_MARK = " [Set]"     # engine.view names a Set card "<name> [Set]"


def hand_key(i: int) -> str:
    """The key that selects hand card i (0-based): 1…9, then 0 for the 10th; "·" past it (the arrows)."""
    return str(i + 1) if i < 9 else "0" if i == 9 else "·"


def hand_cell(i: int, c: HandCard, marks: frozenset[str], width: int) -> Text:
    """One hand card in `width` columns: its key, ✓/✗, the name, the cost and speed, and the #id that
    `play #id` takes when the whole name leaves room for it. A player must read their cards: the name wins
    over the id (which the card's detail pane and the command line's completion still give; copies read
    apart by their keys), and is cut only when even without the id it does not fit — never the key, the
    cost, speed or [Set] mark."""
    head = Text(no_wrap=True, style=mark_style(marks))
    head.append(_mark_prefix(marks) or " ")
    head.append(hand_key(i), style="bold")
    head.append("✓" if c.playable else "✗", style="green" if c.playable else "dim")
    is_set = c.name.endswith(SET_MARK)
    name = c.name[: -len(SET_MARK)] if is_set else c.name
    tail = f" ◆{c.cost}{'F' if c.speed == 'fast' else 'S'}" + SET_MARK * is_set
    cid = f"#{c.cid} "
    if len(head) + len(cid) + len(name) + len(tail) <= width:
        head.append(cid, style="dim")
    room = max(3, width - len(head) - len(tail))
    head.append(_cut(name, room), style="bold" if c.playable else "dim")
    head.append(tail, style="bold" if is_set else "")
    head.truncate(width, overflow="ellipsis", pad=True)
    return head


class HandGrid(Widget):
    """The deciding player's hand: numbered cards in columns, ✓ playable now / ✗ not now."""

    cards: reactive[tuple[HandCard, ...]] = reactive(())
    marks: reactive[tuple[frozenset[str], ...]] = reactive(())

    def columns(self) -> int:
        """As few columns as hold every card in the rows there are (wider columns: whole names), at
        least ~20 cells each."""
        w = self.size.width or 80
        h = max(1, self.size.height or 4)
        widest = max(1, min(6, w // 20))
        cols = max(1, -(-len(self.cards) // h))           # ceil(cards / rows)
        return max(1, min(widest, max(cols, 2 if len(self.cards) > 1 else 1)))

    def render(self) -> Text:
        cols = self.columns()
        w = max(10, (self.size.width or 80) // cols)
        rows: list[Text] = []
        for i, c in enumerate(self.cards):
            m = self.marks[i] if i < len(self.marks) else frozenset()
            rows_i = hand_cell(i, c, m, w - 1)
            rows_i.append(" ")
            if i % cols == 0:
                rows.append(Text(no_wrap=True))
            rows[-1].append_text(rows_i)
        return Text("\n", no_wrap=True).join(rows)

    def on_click(self, event: Click) -> None:
        cols = self.columns()
        w = max(10, (self.size.width or 80) // cols)
        i = event.y * cols + event.x // w
        if 0 <= i < len(self.cards):
            event.stop()
            self.post_message(SpotClicked(("hand", i)))


class TitleBar(Static):
    window: reactive[WindowView | None] = reactive(None)
    extra: reactive[str] = reactive("")

    def render(self) -> Text:
        w = self.window
        if w is None:
            return Text("Council of 1000")
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append("Council of 1000", style="bold")
        t.append(f" · Turn {w.turn} · {w.active_name} active" + (f" · seed {w.seed}" if w.seed is not None else ""))
        if self.extra:
            t.append(f" · {self.extra}", style="dim")
        return t


class PhaseBar(Widget):
    """Every window of the turn; the current one bracketed and highlighted; the decider's stops marked •."""

    window: reactive[WindowView | None] = reactive(None)
    #: pacing: (turn, window index) of a window the flow options are passing through, shown as current
    stepping: reactive[tuple[int, int] | None] = reactive(None)

    def watch_window(self) -> None:
        self.stepping = None

    def step_to(self, turn: int, index: int) -> None:
        self.stepping = (turn, index)

    def render(self) -> Text:
        w = self.window
        t = Text(no_wrap=True, overflow="ellipsis")
        if w is None:
            return t
        width = self.size.width or 120
        short = width < 100
        turn, index = self.stepping or (w.turn, w.index)
        if self.stepping is not None:
            w = replace(w, turn=turn, index=index)
        t.append(f"T{w.turn} ", style="bold")
        if self.stepping is not None:
            t.append("» ", style="bold")
        groups = phase_groups(w.structure)
        # the current window by its position in the turn (a window id appears twice in a turn with a
        # Seat's extra combat phase); while pacing steps through passed windows, by its first position
        cur = w.step if self.stepping is None and w.step >= 0 else next(
            (pos for _, steps in groups for i, _, pos in steps if i == w.index), -1)
        for gi, (phase, steps) in enumerate(groups):
            if gi:
                t.append(" │ ", style="dim")
            name = {"INFLUENCE": "INFL", "COMBAT": "COMBAT"}.get(phase, phase)
            if short:
                name = {"DRAW": "DRW", "INFLUENCE": "INF", "MAIN": "MAIN", "COMBAT": "CMB", "END": "END"}[phase]
            cur_here = any(pos == cur for _, _, pos in steps)
            t.append(name, style="bold" if cur_here else "")
            if phase == "MAIN":
                if cur_here:
                    t.append("[●]", style="reverse bold")
                continue
            t.append(" ")
            for si, (i, label, pos) in enumerate(steps):
                if si:
                    t.append("·", style="dim")
                lab = label if not short or pos == cur else label[0]
                stop = "•" if i in w.stops and not short else ""
                if pos == cur:
                    t.append(f"[{label.upper()}]", style="reverse bold")
                else:
                    t.append(lab + stop, style="dim")
        return t


class WindowLine(Widget):
    """The current window: its id, rule and what happens; who decides and what is allowed now.
    Two lines, each cut to the width (the rules panel has the whole rule), so the second — who must
    decide — is never pushed out."""

    window: reactive[WindowView | None] = reactive(None)

    def render(self) -> Text:
        w = self.window
        if w is None:
            return Text("")
        width = max(10, self.size.width or 120)
        first = Text(no_wrap=True, overflow="ellipsis")
        first.append(f"{w.window}", style="bold")
        first.append(f" ({w.rule})", style="bold cyan")
        first.append(f" — {w.text}")
        first.truncate(width, overflow="ellipsis")
        second = Text(no_wrap=True, overflow="ellipsis")
        if w.outcome is not None:
            second.append(w.result or f"MATCH OVER: {w.outcome}", style="bold reverse")
        else:
            who = {"priority": "has priority", "attackers": "declares attackers",
                   "blockers": "declares blockers", "interrupt": "may use an Interrupt",
                   "choice": "must choose"}.get(w.decision, "decides")
            second.append(f"▶ {w.decider_name} {who}", style="bold reverse")
            if w.stack_size:                  # why only Fast is allowed: before the list, which is cut first
                second.append(f" · stack {w.stack_size}", style="bold")
            second.append(f" · allowed: {w.allowed}")
        second.truncate(width, overflow="ellipsis")
        return Text("\n").join([first, second])


class StackView(Widget):
    """The stack, top first, with who put each item there and its targets; the next to resolve marked."""

    # a fixed area (no layout when the stack changes); items that don't fit are counted
    items: reactive[tuple[StackEntry, ...]] = reactive(())
    resolve_hint: reactive[str] = reactive("")

    def render(self) -> Text:
        t = Text()
        t.append("STACK", style="bold")
        t.append(" (top first)\n" if (self.size.width or 40) < 30 else " (top resolves first)\n", style="dim")
        if not self.items:
            t.append("(empty)", style="dim")
            return t
        width = max(10, self.size.width or 38)
        room = max(1, (self.size.height or 9) - 1 - (2 if self.resolve_hint else 0))
        # an item takes a row, and a second for its choices in words (a Thread mode, a Voidcast payment)
        shown: list[StackEntry] = []
        used = 0
        for i, it in enumerate(self.items):
            rows = 2 if it.choice else 1
            left = len(self.items) - i - 1
            if used + rows > room or (left and used + rows >= room):
                break
            shown.append(it)
            used += rows
        if not shown and self.items:
            shown = [self.items[0]]
        for it in shown:
            line = Text(no_wrap=True, overflow="ellipsis")
            mark = "▶" if it.pos == 1 else " "
            line.append(f"{mark}{it.pos} ", style="bold" if it.pos == 1 else "")
            line.append(it.name, style="bold" if it.pos == 1 else "")
            who = "game" if it.who == "game" else it.who
            line.append(f"  {who}" + (f" ({it.controller}'s)" if it.who == "game" else ""), style="dim")
            if it.targets:
                line.append(" → " + ", ".join(it.targets))
            line.truncate(width, overflow="ellipsis")
            t.append_text(line)
            t.append("\n")
            if it.choice:
                sub = Text("   " + it.choice, style="italic", no_wrap=True, overflow="ellipsis")
                sub.truncate(width, overflow="ellipsis")
                t.append_text(sub)
                t.append("\n")
        if len(shown) < len(self.items):
            t.append(f"  … {len(self.items) - len(shown)} more below\n", style="dim")
        if self.resolve_hint:
            t.append(self.resolve_hint, style="italic")
        return t


class RulesPanel(Widget):
    """The learner's rule for the current window, the card under the cursor, and "why not?".

    It wraps and scrolls its own text (PgUp/PgDn) inside a fixed area, so a new text repaints this
    widget only — no layout of the screen on every cursor move."""

    text: reactive[Text] = reactive(Text)
    at: reactive[int] = reactive(0)          # the first row shown

    #: what the ↑ mark at the top says besides PgUp (the recap: "w: all")
    more_hint = ""

    def update(self, text: Text, at_end: bool = False) -> None:
        self.at = 1 << 30 if at_end else 0       # at_end: the newest lines (clamped when drawn)
        self.text = text

    def scroll_page(self, d: int) -> None:
        h = max(1, (self.size.height or 10) - 1)
        total = len(self._wrapped[2]) if self._wrapped[0] is self.text else 0
        at = min(self.at, max(0, total - max(1, self.size.height or 20)))
        self.at = max(0, at + d * h)

    _wrapped: tuple[Text | None, int, list[Text]] = (None, 0, [])

    def render(self) -> Text:
        from rich.console import Console

        width = max(10, (self.size.width or 38))
        height = max(1, self.size.height or 20)
        if self._wrapped[0] is not self.text or self._wrapped[1] != width:   # wrap a new text once
            console = Console(width=width, no_color=False, legacy_windows=False)
            self._wrapped = (self.text, width, list(self.text.wrap(console, width)))
        lines = self._wrapped[2]
        total = len(lines)
        off = min(self.at, max(0, total - height))
        shown = lines[off: off + height]
        if off > 0 and len(shown) > 1:
            shown = [Text(f"  ↑ {off + 1} earlier rows (PgUp){self.more_hint}", style="dim reverse")] + shown[1:]
        out = Text("\n").join(shown)
        if total > off + height and shown:
            more = Text(f"  ↓ more (PgDn) {off + height}/{total}", style="dim reverse")
            out = Text("\n").join(shown[:-1] + [more])
        return out


class CommandLine(Input):
    """docs/formats.md §1 commands. Tab completes (legal commands, verbs, the names of cards the typist may
    see) and, pressed again, cycles through the candidates; → accepts the grey suggestion; ↑/↓ recall
    the typist's own earlier commands (the screen's `history()`)."""

    BINDINGS = [Binding("tab", "complete", "complete"), Binding("up", "recall(-1)", "earlier", show=False),
                Binding("down", "recall(1)", "later", show=False)]

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.cycle = Cycle()

    def _on_paste(self, event: events.Paste) -> None:
        """A paste that would make the line longer than a command may be (the engine's 1,000 characters) is
        not taken, and says so, rather than vanishing."""
        line = event.text.splitlines()[0] if event.text else ""
        start, end = sorted(self.selection)
        if self.max_length and len(self.value) - (end - start) + len(line) > self.max_length:
            event.stop()
            self.notify(f"not pasted: a command is at most {self.max_length:,} characters "
                        f"(the paste has {len(line):,})", severity="warning")
            return
        super()._on_paste(event)

    def action_complete(self) -> None:
        sug = self.suggester
        cands: list[str] = sug.candidates(self.value) if isinstance(sug, _HasCandidates) else []
        line = self.cycle.next(self.value, cands)
        if line is None:
            if self._suggestion:
                self.value = self._suggestion
                self.cursor_position = len(self.value)
            return
        self.value = line
        self.cursor_position = len(line)

    def action_recall(self, d: int) -> None:
        history = getattr(self.screen, "history", None)
        if history is None:
            return
        self.value = history().move(d, self.value)
        self.cursor_position = len(self.value)


__all__ = ["BoardRow", "ChipsRow", "CommandLine", "HandGrid", "LogView", "PhaseBar", "RulesPanel", "SpotClicked",
           "StackView", "TitleBar", "WindowLine", "hand_cell"]
