"""The recap: what happened since a player last decided, window by window, from the engine's typed events.

`recap_entries(game, player, since)` reads `engine.events_for` (never the text log): for `player` it holds
everything they may know — their own draws by name, the opponent's draws as "draws a card" — and for
`player=-1` (a spectator) only public events, which is what a hand-off screen may show, since the
outgoing player reads it too. Passes and priority moves are left out (they would drown the story); every
other event is kept in order: plays and their targets, each resolution, damage by source, deaths, Flux
outcomes spelled out, triggers, Interrupts, draws, Influence. With open hands (`open_hands=True`) nothing
is hidden from anyone at the table: the recap holds both players' private events (what each drew) and
says so in its title.

The learning flow (`learning_visits`, `learning_text`) shows every window entered — the turn-based ones
with no decision (draw.draw, influence.gain, combat.damage, end.cleanup) and the windows in which nothing
happened included — with its id, its rule id and what happened in it (`engine.lessons.windows_seen`: only
what the player may know). `c1k learn --coverage` reads its "shown live" column from this same text.
"""

from __future__ import annotations

from dataclasses import dataclass

from c1k_tui.model.styled import Styled
from engine import Event, Game, events_for
from engine.lessons import WindowVisit, windows_entered, windows_seen

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


def seen_events(g: Game, player: int, since: int = 0, open_hands: bool = False) -> tuple[Event, ...]:
    """The events from index `since` on as `player` may know them (-1: public only) — with open hands,
    every event, both players' private ones included (nothing is hidden at that table)."""
    if open_hands:
        return tuple(g.events.since(since))
    return events_for(g, player, since, renumber=False)


def recap_entries(g: Game, player: int, since: int = 0, open_hands: bool = False) -> tuple[RecapWindow, ...]:
    """What `player` (-1: public only) may know of what happened from event index `since` on, grouped by
    window, in order. Windows in which nothing but passes happened are left out. `open_hands`: every
    event, both players' private ones included."""
    out: list[RecapWindow] = []
    cur: list[RecapEntry] = []
    head: tuple[int, str, str] | None = None

    def close() -> None:
        if head is not None and cur:
            out.append(RecapWindow(head[0], head[1], head[2], tuple(cur)))

    for e in seen_events(g, player, since, open_hands):
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


def recap_text(windows: tuple[RecapWindow, ...], title: str = "", limit: int = 0, compact: bool = False) -> Styled:
    """The recap as text: a header per window (id and rule), then its events (an event's own rule when it
    differs from the window's). `limit` > 0 keeps only the last `limit` windows (saying so). `compact`:
    each window on one (wrapped) line, its events after the header — for a small screen."""
    t = Styled()
    if title:
        t.append(title + "\n", "head")
    if not windows:
        t.append("(nothing happened but passes)", "quiet")
        return t
    shown = windows[-limit:] if limit else windows
    if len(shown) < len(windows):
        t.append(f"… {len(windows) - len(shown)} earlier windows in the log (L)\n", "quiet")
    for w in shown:
        t.append(f"T{w.turn} {w.window}", "head")
        t.append(f" ({w.rule})" + (":" if compact else "\n"), "rule")
        entries = list(w.entries)
        i = 0
        while i < len(entries):
            e = entries[i]
            n = 1
            while i + n < len(entries) and entries[i + n].text == e.text:
                n += 1          # "p2 draws a card" five times: one line, ×5
            t.append((" " if compact and i == 0 else " · " if compact else "  ") + e.text
                     + (f" ×{n}" if n > 1 else ""))
            i += n
            if e.rule and e.rule != w.rule:
                t.append(f"{' ' if compact else '  '}({e.rule})", "aside")
            if not compact:
                t.append("\n")
        if compact:
            t.append("\n")
    t.rstrip()
    return t


# -------------------------------------------------------------------- the learning flow


def learning_visits(g: Game, player: int, since: int = 0, open_hands: bool = False) -> list[WindowVisit]:
    """Every window entered from event `since` on, as `player` (-1: public only) may know it; with open
    hands, with both players' private events."""
    if open_hands:
        return windows_entered(tuple(g.events.since(since)), since)
    return windows_seen(g, player, since)


def learning_preamble(g: Game, player: int, since: int = 0, open_hands: bool = False) -> list[str]:
    """What happened before the first window of the match was entered (the set-up: who goes first, the
    opening hands — the player's own by name), as `player` may know it; nothing when `since` > 0 (a
    later start falls inside a window, which then holds those events)."""
    out: list[str] = []
    if since > 0:
        return out
    for e in seen_events(g, player, since, open_hands):
        if e.kind == "window":
            break
        if e.kind not in SKIP and e.text.strip():
            out.append(e.text.strip())
    folded: list[str] = []          # "p2 draws a card" five times: once, ×5
    i = 0
    while i < len(out):
        n = 1
        while i + n < len(out) and out[i + n] == out[i]:
            n += 1
        folded.append(out[i] + (f" ×{n}" if n > 1 else ""))
        i += n
    return folded


def learning_text(visits: list[WindowVisit] | tuple[WindowVisit, ...], title: str = "",
                  compact: bool = False, before: list[str] | None = None) -> Styled:
    """The learning flow's text: for each window entered, in order, its id and rule id, then what happened
    in it with the rule ids beside each line ("nothing happened" when nothing did). `compact`: one
    (wrapped) line per window, for a small screen. `before`: what happened before the first window (the
    set-up), listed first."""
    t = Styled()
    if title:
        t.append(title + "\n", "head")
    if before:
        t.append("Before the first window: ", "head")
        t.append(" · ".join(before) + "\n")
    if not visits:
        t.append("(no window entered yet)", "quiet")
        return t
    turn = -1
    quiet: list[WindowVisit] = []

    def fold() -> None:
        """Windows in a row where nothing happened: one line ("draw.start, influence.start: nothing
        happened"), each window still with its rule id."""
        for i, q in enumerate(quiet):
            t.append(", " if i else "")
            t.append(q.window, "head")
            t.append(f" ({q.rule})", "rule")
        if quiet:
            t.append(": nothing happened\n", "quiet")
        quiet.clear()

    for v in visits:
        if v.turn != turn:
            fold()
            turn = v.turn
            t.append(f"Turn {turn}\n", "turn")
        if not v.happened:
            quiet.append(v)
            continue
        fold()
        t.append(v.window, "head")
        t.append(f" ({v.rule})", "rule")
        if compact:
            t.append(": ")
            for i, (text, rules) in enumerate(v.happened):
                t.append((" · " if i else "") + text)
                if rules:
                    t.append(f" ({' · '.join(rules)})", "aside")
            t.append("\n")
            continue
        t.append("\n")
        for text, rules in v.happened:
            t.append(f"  {text}")
            if rules:
                t.append(f"  ({' · '.join(rules)})", "aside")
            t.append("\n")
    fold()
    t.rstrip()
    return t


def recap_for(g: Game, player: int, since: int, *, learning: bool = False, open_hands: bool = False,
              title: str = "", compact: bool = False, upto: int | None = None) -> Styled:
    """What the app shows of what happened from event `since` on, as `player` (-1: public only) may know
    it: the recap, or in the learning flow every window entered (`upto`: only those entered before that
    event). With open hands both players' private events are in it. `c1k learn --coverage` reads its
    "shown live" column from this same text."""
    if learning:
        visits = learning_visits(g, player, since, open_hands)
        if upto is not None:
            visits = [v for v in visits if v.first_event < upto]
        return learning_text(visits, title, compact=compact, before=learning_preamble(g, player, since, open_hands))
    return recap_text(recap_entries(g, player, since, open_hands), title, compact=compact)


__all__ = ["RecapEntry", "RecapWindow", "learning_preamble", "learning_text", "learning_visits", "recap_entries", "recap_for",
           "recap_text",
           "seen_events"]
