"""Who sat where, and who won, in words (issue #30 item 3): a replay's title names the decks and the
players ("Ironbound (Ana, p1) vs Emberfall (Ben, p2)"), and its last line says who won and how
("Ironbound (p1, search:1) wins — Champion defeated"), not "MATCH OVER: p1 (champion_defeated)".
Plain strings: the screens and the CLI style them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from c1k_tui.model.names import seat_name

if TYPE_CHECKING:
    from engine import Outcome, PlayerView
    from engine.record import MatchRecord

SEATS = ("p1", "p2")
#: each way a match ends, in words
ENDINGS = {
    "champion_defeated": "Champion defeated", "both_defeated": "both Champions defeated", "conceded": "conceded",
    "turn_limit": "the turn limit", "endless_loop": "an endless loop",
}


def deck_name(record: MatchRecord, seat: int) -> str:
    """The deck's own name at this seat (its seat name when the record has no decks: a scenario)."""
    decks = record.start.decks
    name = decks[seat].get("name") if seat < len(decks) else None
    return str(name) if name else SEATS[seat]


def seat_title(record: MatchRecord, seat: int) -> str:
    """"Ironbound (Ana, p1)", or "Ironbound (p1, search:1)" for an AI seat (a player named only by
    the seat is not named twice)."""
    player = record.start.names[seat] if seat < len(record.start.names) else SEATS[seat]
    agent = record.agents.get(SEATS[seat])
    who = [player] if player != SEATS[seat] else []
    who.append(SEATS[seat])
    if agent is not None:
        who.append(agent[0])
    return f"{deck_name(record, seat)} ({', '.join(who)})"


def match_title(record: MatchRecord) -> str:
    return f"{seat_title(record, 0)} vs {seat_title(record, 1)}"


def result_words(winner: str | None, termination: str) -> str:
    """Who won (already named) and how: "Ana wins — Champion defeated"; "Draw — the turn limit"."""
    how = ENDINGS.get(termination, termination.replace("_", " "))
    return f"Draw — {how}" if winner is None else f"{winner} wins — {how}"


def view_result(v: PlayerView) -> str:
    """The end of a match in a player's view, as the table and the text loop say it: "Tomas wins —
    Champion defeated" (a default name reads "Player 2"); "" while the match goes on."""
    if v.outcome is None or v.termination is None:
        return ""
    winner = None if v.winner is None else seat_name(v.side(v.winner).name, v.winner)
    return result_words(winner, v.termination)


def outcome_words(outcome: Outcome, record: MatchRecord) -> str:
    """"Ironbound (p1, search:1) wins — Champion defeated"; "Draw — the turn limit"."""
    winner = None if outcome.winner is None else seat_title(record, outcome.winner)
    return result_words(winner, outcome.termination.value)


__all__ = ["ENDINGS", "deck_name", "match_title", "outcome_words", "result_words", "seat_title",
           "view_result"]
