"""How the screens name a seat's player: their own name, or — when the match left the default seat id
("p1", "p2") — "Player 1", which reads as a person at a shared keyboard, not a command prefix."""

from __future__ import annotations


def seat_name(name: str, seat: int) -> str:
    """`name` as typed, or "Player N" for the default name of seat `seat` (0 or 1)."""
    if seat in (0, 1) and name.strip().lower() in ("", f"p{seat + 1}"):
        return f"Player {seat + 1}"
    return name


def possessive(name: str) -> str:
    """"Tomas's", "Player 2's" (tui.md round 3: "Turn 6 — Tomas's turn")."""
    return f"{name}'s"


__all__ = ["possessive", "seat_name"]
