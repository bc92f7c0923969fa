"""A hidden match stays hidden outside the app too (rules.md §7a, decision of 2026-12-07).

A record of a match in progress played with hands hidden (its app settings don't say `open_hands: true`;
a record that says nothing was played hidden) is opened only as it was played: `--open-hands` on it is
refused, and no command prints its seed (with the public deck lists, the seed gives every hand and
library order), until the match is over.
"""

from __future__ import annotations

from pathlib import Path

from engine.record import MatchRecord


def played_open(record: MatchRecord) -> bool:
    """Whether the match was played with both hands shown (a scenario or lesson given open hands too)."""
    return record.app.get("open_hands") is True


def hidden_in_progress(record: MatchRecord, over: bool) -> bool:
    """A match with hands hidden that isn't over: its hands, library order and seed are nobody's to see."""
    return not over and not played_open(record)


def open_hands_refusal(path: Path | str, record: MatchRecord, over: bool) -> str:
    """Why `--open-hands` can't open this record ("" if it can)."""
    if not hidden_in_progress(record, over):
        return ""
    return (f"--open-hands: {path} is a match in progress played with hands hidden: it is resumed only as it "
            "was played, each player seeing their own hand, until the match is over (rules.md §7a)")


def replay_refusal(path: Path | str, record: MatchRecord, over: bool) -> str:
    """Why the replay screen (both hands shown) can't open this record ("" if it can)."""
    if not hidden_in_progress(record, over):
        return ""
    return (f"{path} is a match in progress played with hands hidden: the replay shows both hands, so it opens "
            f"once the match is over (continue it with `c1k resume {path}`)")


def shown_seed(record: MatchRecord, over: bool) -> str:
    """' · seed N' for a title, or '' where the seed may not be shown (and for a scenario: it has none)."""
    if record.start.scenario is not None or hidden_in_progress(record, over):
        return ""
    return f" · seed {record.seed}"
