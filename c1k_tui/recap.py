"""The recap: what happened since a player last decided, window by window, from the engine's typed events.

`recap_entries(game, player, since)` reads `engine.events_for` (never the text log): for `player` it holds
everything they may know — their own draws by name, the opponent's draws as "draws a card" — and for
`player=-1` (a spectator) only public events, which is what a hand-off screen may show, since the
outgoing player reads it too. Passes and priority moves are left out (they would drown the story); every
other event is kept in order: plays and their targets, each resolution, damage by source, deaths, Flux
outcomes spelled out, triggers, Interrupts, draws, Influence.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from engine import Game, events_for

#: event kinds a recap leaves out
SKIP = frozenset({"priority", "pass", "window"})


@dataclass(frozen=True)
class RecapEntry:
    turn: int
    window: str
    rule: str            # the event's rule id
    kind: str
    actor: int
    text: str


@dataclass(frozen=True)
class RecapWindow:
    turn: int
    window: str
    rule: str            # the window's rule id
    entries: tuple[RecapEntry, ...]


def recap_entries(g: Game, player: int, since: int = 0) -> tuple[RecapWindow, ...]:
    """What `player` (-1: public only) may know of what happened from event index `since` on, grouped by
    window, in order. Windows in which nothing but passes happened are left out."""
    out: list[RecapWindow] = []
    cur: list[RecapEntry] = []
    head: tuple[int, str, str] | None = None

    def close() -> None:
        if head is not None and cur:
            out.append(RecapWindow(head[0], head[1], head[2], tuple(cur)))

    for e in events_for(g, player, since):
        if e.kind == "window" or head is None or (e.turn, e.window) != head[:2]:
            close()
            cur = []
            head = (e.turn, e.window, e.rule)
        if e.kind in SKIP:
            continue
        text = e.text.strip()
        if e.kind == "flux" and e.detail and e.detail not in text:
            text += f" — {e.detail}"
        if e.kind == "interrupt" and e.detail == "declined":
            continue        # private to the asked player, and nothing happened
        cur.append(RecapEntry(e.turn, e.window, e.rule, e.kind, e.actor, text))
    close()
    return tuple(out)


def recap_text(windows: tuple[RecapWindow, ...], title: str = "", limit: int = 0) -> Text:
    """The recap as text: a header per window (id and rule), then its events (an event's own rule when it
    differs from the window's). `limit` > 0 keeps only the last `limit` windows (saying so)."""
    t = Text()
    if title:
        t.append(title + "\n", style="bold")
    if not windows:
        t.append("(nothing happened but passes)", style="dim")
        return t
    shown = windows[-limit:] if limit else windows
    if len(shown) < len(windows):
        t.append(f"… {len(windows) - len(shown)} earlier windows in the log (L)\n", style="dim")
    for w in shown:
        t.append(f"T{w.turn} {w.window}", style="bold")
        t.append(f" ({w.rule})\n", style="cyan")
        entries = list(w.entries)
        i = 0
        while i < len(entries):
            e = entries[i]
            n = 1
            while i + n < len(entries) and entries[i + n].text == e.text:
                n += 1          # "p2 draws a card" five times: one line, ×5
            i += n
            t.append(f"  {e.text}" + (f" ×{n}" if n > 1 else ""))
            if e.rule and e.rule != w.rule:
                t.append(f"  ({e.rule})", style="dim cyan")
            t.append("\n")
    t.rstrip()
    return t


__all__ = ["RecapEntry", "RecapWindow", "recap_entries", "recap_text"]
