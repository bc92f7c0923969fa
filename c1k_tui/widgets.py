"""The match screen's widgets. Each renders one immutable value from `c1k_tui.view`, held in a reactive
that the screen assigns fresh values to, so a widget repaints only when what it shows has changed.
Widgets never touch the engine: a click posts a typed message (`SpotClicked`) and the screen decides.

Marks (cursor, legal target, picked, toggled attacker, paired blocker) are shown with glyphs *and*
styles, never by colour alone: ▶ cursor · ◎ legal target/slot · ✓ chosen · ⚔ attacking · ⛨ blocking.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Log, Static

from c1k_tui.view import HandCard, SideView, StackEntry, UnitView, WindowView, phase_groups

Spot = tuple[Any, ...]   # ("hand", i) | ("unit", player, slot) | ("relic", player, slot) | ("champ", player)

MARK_GLYPH = {"cursor": "▶", "legal": "◎", "picked": "✓", "toggled": "✓", "paired": "⛨"}


class SpotClicked(Message):
    """A card, slot or champion was clicked."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        super().__init__()


def _cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[: max(0, n - 1)] + "…"


def _mark_prefix(marks: frozenset[str]) -> str:
    for m in ("cursor", "legal", "toggled", "picked", "paired"):
        if m in marks:
            return MARK_GLYPH[m]
    return ""


class SpotWidget(Widget):
    """Base of everything the cursor can rest on."""

    marks: reactive[frozenset[str]] = reactive(frozenset())

    def __init__(self, spot: Spot, **kw: Any) -> None:
        super().__init__(**kw)
        self.spot = spot

    def watch_marks(self, old: frozenset[str], new: frozenset[str]) -> None:
        for m in old - new:
            self.remove_class(f"-{m}")
        for m in new - old:
            self.add_class(f"-{m}")

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(SpotClicked(self.spot))


class UnitSlot(SpotWidget):
    """One unit slot of a board: the unit (id, name, power/health, damage, keywords, statuses) or empty."""

    unit: reactive[UnitView | None] = reactive(None)

    def watch_unit(self, old: UnitView | None, new: UnitView | None) -> None:
        self.set_class(new is None, "-empty")
        self.set_class(bool(new and new.exhausted), "-exhausted")
        self.set_class(bool(new and new.attacking), "-attacking")
        self.set_class(bool(new and new.blocking), "-blocking")
        if new is None:
            self.border_title = f"slot {self.spot[2] + 1}"
            self.border_subtitle = ""
        else:
            self.border_title = f"#{new.cid}"
            self.border_subtitle = status_tag(new)

    def render(self) -> Text:
        u = self.unit
        w = max(4, self.size.width or 11)
        prefix = _mark_prefix(self.marks)
        t = Text(no_wrap=True, overflow="ellipsis")
        compact = self.has_class("-compact")
        if u is None:
            t.append(_cut(f"{prefix}{'' if not prefix else ' '}(empty)", w) + "\n", style="dim")
            if compact:
                t.append(f"slot {self.spot[2] + 1}", style="dim")
            return t
        head = f"{prefix}#{u.cid} {u.name}" if compact else f"{prefix}{u.name}"
        t.append(_cut(head, w) + "\n", style="bold")
        stats = f"{u.power}/{u.health}"
        if u.damage:
            stats += f" dmg{u.damage}"
        if compact:
            tag = status_tag(u)
            if tag:
                stats += " " + tag
        t.append(_cut(stats, w) + "\n")
        extra = list(u.keywords) + [s.capitalize() for s in u.statuses]
        extra += [f"{k} {v}" for k, v in u.counters]
        t.append(_cut(" ".join(extra), w), style="italic")
        return t


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


class RelicChip(SpotWidget):
    unit: reactive[UnitView | None] = reactive(None)

    def render(self) -> Text:
        u = self.unit
        w = max(4, self.size.width or 14)
        prefix = _mark_prefix(self.marks)
        if u is None:
            return Text(_cut(f"{prefix}· relic {self.spot[2] + 1}", w), style="dim", no_wrap=True)
        flag = " z" if u.exhausted else ""
        return Text(_cut(f"{prefix}◇#{u.cid} {u.name}{flag}", w), no_wrap=True)

    def watch_unit(self, old: UnitView | None, new: UnitView | None) -> None:
        self.set_class(new is None, "-empty")


class ChampionChip(SpotWidget):
    """A player's Champion and public counts: life, Influence, library, graveyard, hand."""

    side: reactive[SideView | None] = reactive(None)

    def render(self) -> Text:
        s = self.side
        if s is None:
            return Text("")
        w = max(4, self.size.width or 40)
        prefix = _mark_prefix(self.marks)
        t = Text(no_wrap=True, overflow="ellipsis")
        if prefix:
            t.append(prefix)
        t.append(("★" if s.active else "") + s.name, style="bold")
        t.append(f" ♥{s.life}", style="bold red" if s.life <= 5 else "bold")
        t.append(f" ◆{s.influence}/{s.capacity}")
        t.append(f" lib {s.library} gy {s.graveyard} hand {s.hand_size}", style="dim")
        if s.set_count:
            t.append(f" set {'▒' * s.set_count}")
        t.append(f" · {s.champion_name}", style="italic")
        t.truncate(w, overflow="ellipsis")
        return t


class HandCardWidget(SpotWidget):
    card: reactive[HandCard | None] = reactive(None)

    def render(self) -> Text:
        c = self.card
        if c is None:
            return Text("")
        w = max(4, self.size.width or 20)
        prefix = _mark_prefix(self.marks) or " "
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(prefix)
        t.append(f"{self.spot[1] + 1}", style="bold")
        t.append("✓" if c.playable else "✗", style="green" if c.playable else "dim")
        t.append(c.name, style="bold" if c.playable else "dim")
        t.append(f" ◆{c.cost}{'F' if c.speed == 'fast' else 'S'}")
        t.truncate(w, overflow="ellipsis")
        return t

    def watch_card(self, old: HandCard | None, new: HandCard | None) -> None:
        self.display = new is not None
        self.set_class(bool(new and new.playable), "-playable")


class TitleBar(Static):
    window: reactive[WindowView | None] = reactive(None)
    extra: reactive[str] = reactive("")

    def render(self) -> Text:
        w = self.window
        if w is None:
            return Text("Council of 1000")
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append("Council of 1000", style="bold")
        t.append(f" · Turn {w.turn} · {w.active_name} active · seed {w.seed}")
        if self.extra:
            t.append(f" · {self.extra}", style="dim")
        return t


class PhaseBar(Widget):
    """Every window of the turn; the current one bracketed and highlighted; the decider's stops marked •."""

    window: reactive[WindowView | None] = reactive(None)

    def render(self) -> Text:
        w = self.window
        t = Text(no_wrap=True, overflow="ellipsis")
        if w is None:
            return t
        width = self.size.width or 120
        short = width < 100
        t.append(f"T{w.turn} ", style="bold")
        for gi, (phase, steps) in enumerate(phase_groups(w.index)):
            if gi:
                t.append(" │ ", style="dim")
            name = {"INFLUENCE": "INFL", "COMBAT": "COMBAT"}.get(phase, phase)
            if short:
                name = {"DRAW": "DRW", "INFLUENCE": "INF", "MAIN": "MAIN", "COMBAT": "CMB", "END": "END"}[phase]
            cur_here = any(i == w.index for i, _ in steps)
            t.append(name, style="bold" if cur_here else "")
            if phase == "MAIN":
                if cur_here:
                    t.append("[●]", style="reverse bold")
                continue
            t.append(" ")
            for si, (i, label) in enumerate(steps):
                if si:
                    t.append("·", style="dim")
                lab = label if not short or i == w.index else label[0]
                stop = "•" if i in w.stops and not short else ""
                if i == w.index:
                    t.append(f"[{label.upper()}]", style="reverse bold")
                else:
                    t.append(lab + stop, style="dim")
        return t


class WindowLine(Widget):
    """The current window: its id, rule and what happens; who decides and what is allowed now."""

    window: reactive[WindowView | None] = reactive(None)

    def render(self) -> Text:
        w = self.window
        t = Text(overflow="ellipsis")
        if w is None:
            return t
        t.append(f"{w.window}", style="bold")
        t.append(f" ({w.rule})", style="bold cyan")
        t.append(f" — {w.text}\n")
        if w.outcome is not None:
            t.append(f"MATCH OVER: {w.outcome}", style="bold reverse")
            return t
        who = {"priority": "has priority", "attackers": "declares attackers", "blockers": "declares blockers",
               "interrupt": "may use an Interrupt", "choice": "must choose"}.get(w.decision, "decides")
        t.append(f"▶ {w.decider_name} {who}", style="bold reverse")
        t.append(f" · allowed: {w.allowed}")
        return t


class StackView(Widget):
    """The stack, top first, with who put each item there and its targets; the next to resolve marked."""

    items: reactive[tuple[StackEntry, ...]] = reactive(())
    resolve_hint: reactive[str] = reactive("")

    def render(self) -> Text:
        t = Text()
        t.append("STACK", style="bold")
        t.append(" (top resolves first)\n", style="dim")
        if not self.items:
            t.append("(empty)", style="dim")
            return t
        for it in self.items:
            mark = "▶" if it.pos == 1 else " "
            t.append(f"{mark}{it.pos} ", style="bold" if it.pos == 1 else "")
            t.append(it.name, style="bold" if it.pos == 1 else "")
            who = "game" if it.who == "game" else it.who
            t.append(f"  {who}" + (f" ({it.controller}'s)" if it.who == "game" else ""), style="dim")
            if it.targets:
                t.append(" → " + ", ".join(it.targets))
            t.append("\n")
        if self.resolve_hint:
            t.append(self.resolve_hint, style="italic")
        return t


class RulesPanel(Static):
    """The learner's rule for the current window, the card under the cursor, and "why not?"."""


class LogView(Log):
    """The public match log (what the deciding player may read)."""

    lines_: reactive[tuple[str, ...]] = reactive((), repaint=False)

    def watch_lines_(self, old: tuple[str, ...], new: tuple[str, ...]) -> None:
        if len(new) >= len(old) and new[: len(old)] == old:
            self.write_lines(new[len(old):])
        else:
            self.clear()
            self.write_lines(new)


class CommandLine(Input):
    """formats.md §1 commands, with completion from the legal commands (→ or Tab accepts)."""

    BINDINGS = [("tab", "accept_suggestion", "complete")]

    def action_accept_suggestion(self) -> None:
        if self._suggestion:
            self.value = self._suggestion
            self.cursor_position = len(self.value)
