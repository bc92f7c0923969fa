"""Text the model builds for people, as plain pieces each with a *kind* — as OpenSpiel's observer returns
strings — never a Rich or Textual object: `c1k_tui/screens/` gives each kind its style
(`screens/styled.py`), the text loop prints `.plain`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["KINDS", "Kind", "Piece", "Styled"]

#: what a piece is: "" plain; "head" a heading (a title, a window's id); "rule" a rule id beside a heading;
#: "aside" a rule id beside a line; "quiet" a note (nothing happened, earlier windows); "turn" a turn's line
Kind = Literal["", "head", "rule", "aside", "quiet", "turn"]
KINDS: tuple[Kind, ...] = ("", "head", "rule", "aside", "quiet", "turn")


@dataclass(frozen=True)
class Piece:
    text: str
    kind: Kind = ""


class Styled:
    """Pieces of text in order, built by `append`; `plain` is the text alone."""

    def __init__(self, pieces: list[Piece] | None = None) -> None:
        self.pieces: list[Piece] = list(pieces or [])

    def append(self, text: str, kind: Kind = "") -> None:
        if text:
            self.pieces.append(Piece(text, kind))

    def rstrip(self) -> None:
        """Drop whitespace at the end (as `str.rstrip`)."""
        while self.pieces:
            last = self.pieces[-1]
            kept = last.text.rstrip()
            if kept:
                self.pieces[-1] = Piece(kept, last.kind)
                return
            self.pieces.pop()

    @property
    def plain(self) -> str:
        return "".join(p.text for p in self.pieces)

    def __add__(self, other: Styled) -> Styled:
        return Styled(self.pieces + other.pieces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Styled) and self.pieces == other.pieces

    def __repr__(self) -> str:
        return f"Styled({self.pieces!r})"
