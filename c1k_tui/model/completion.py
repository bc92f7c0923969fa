"""Completing a typed command (tui.md round 2): the app's command line and the text loop's readline share
these pure functions (no Textual here).

Candidates are whole lines: the deciding player's legal commands, the verbs of formats.md §1, and card
names. A name is completed only from the cards the typist may see (rules.md §7a: their own hand and Set
cards, every card in play, the graveyards and the Voids) — never from a hidden card, so a completion
answers a hidden name exactly as it answers a name that exists nowhere: with nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import COMMAND_USAGE, COMMAND_VERBS, HandCard, SideView

#: every verb of formats.md §1, from the engine's own list (a verb with arguments ends in a space)
VERBS = tuple(v if COMMAND_USAGE[v] == v else v + " " for v in COMMAND_VERBS) + ("attack none", "block none")


def visible_names(hand: Iterable[HandCard], sides: Iterable[SideView]) -> tuple[str, ...]:
    """The names of the cards the typist may see, each once, in a fixed order: their hand (and Set
    cards), then each side's units, relics, graveyard and Void."""
    out: dict[str, None] = {}
    for c in hand:
        out[c.name.removesuffix(" [Set]")] = None
    for side in sides:
        for u in side.units + side.relics:
            if u is not None:
                out[u.name] = None
        for ref in side.graveyard_cards + side.void_cards:
            out[ref.name] = None
    return tuple(out)


def _quoted(name: str) -> str:
    return f'"{name}"'


def completions(text: str, legal: Sequence[str], names: Sequence[str]) -> list[str]:
    """Whole-line candidates for `text`, best first, each once: `play "Em` → `play "Emberlash"`; `pa` →
    `pass`, `play `; `play Em` → `play "Emberlash"`. Empty when nothing fits."""
    if not text:
        return []
    out: dict[str, None] = {}
    low = text.lower()
    if text.count('"') % 2 == 1:                      # inside a quoted name: complete the name
        head, _, part = text.rpartition('"')
        for n in names:
            if n.lower().startswith(part.lower()):
                out[head + _quoted(n)] = None
        return list(out)
    for c in tuple(legal) + VERBS:
        if c.lower().startswith(low) and len(c) > len(text):
            out[c] = None
    head, sep, last = text.rpartition(" ")
    if sep and last and not last.startswith(("#", '"')) and head.strip():
        for n in names:                               # a bare name after the verb: quoted when completed
            if n.lower().startswith(last.lower()):
                out[f"{head} {_quoted(n) if ' ' in n else n}"] = None
    return [c for c in out if c != text]


class Cycle:
    """Tab, pressed again, goes on to the next candidate for the text the first Tab started from."""

    def __init__(self) -> None:
        self.base = ""
        self.cands: list[str] = []
        self.i = -1

    def next(self, value: str, candidates: Sequence[str] | None = None) -> str | None:
        """The line after one more Tab on `value` (None: nothing to complete). `candidates` are those of
        `value`, used when this Tab starts a new cycle (the value is not the one the last Tab gave)."""
        if self.cands and 0 <= self.i < len(self.cands) and value == self.cands[self.i]:
            self.i = (self.i + 1) % len(self.cands)
            return self.cands[self.i]
        self.base, self.cands, self.i = value, list(candidates or ()), 0
        return self.cands[0] if self.cands else None


class History:
    """One player's earlier commands, for ↑/↓ (each player's own: what one typed is never recalled on
    the other's turn, rules.md §7a)."""

    def __init__(self, limit: int = 200) -> None:
        self.lines: list[str] = []
        self.limit = limit
        self.at = 0            # == len(lines): below the newest (the line being typed)
        self.draft = ""

    def add(self, line: str) -> None:
        if line and (not self.lines or self.lines[-1] != line):
            self.lines.append(line)
            del self.lines[:-self.limit]
        self.at = len(self.lines)
        self.draft = ""

    def move(self, d: int, current: str) -> str:
        """The line ↑ (d=-1) or ↓ (d=1) shows, from `current` (kept as the draft below the newest)."""
        if self.at == len(self.lines):
            self.draft = current
        self.at = max(0, min(len(self.lines), self.at + d))
        return self.lines[self.at] if self.at < len(self.lines) else self.draft


__all__ = ["VERBS", "Cycle", "History", "completions", "visible_names"]
