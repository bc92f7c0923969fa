"""The model's styled text (c1k_tui/model/styled.py: pieces with a kind) as Rich text for the screens: the
one place that says how each kind looks."""

from __future__ import annotations

from rich.text import Text

from c1k_tui.model.styled import Kind, Styled

__all__ = ["STYLES", "rich_text"]

STYLES: dict[Kind, str] = {"": "", "head": "bold", "rule": "cyan", "aside": "dim cyan", "quiet": "dim",
                           "turn": "bold underline"}


def rich_text(styled: Styled) -> Text:
    t = Text()
    for piece in styled.pieces:
        t.append(piece.text, style=STYLES[piece.kind])
    return t
