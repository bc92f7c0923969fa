"""Own cards for this run (`--cards PATH`, repeatable): every card set the app and the commands load.

`use(paths)` is called once by a command; `card_db(decks)` is the bundled set plus those files and the
card files each deck names (engine/cardset.py). Resuming or replaying a record doesn't need them: a
record carries its own cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import CardDB

CARDS_HELP = ("Your own cards: a card file or a folder of them (repeatable); they join the bundled set "
              "(an id or name already taken is an error)")

_EXTRA: list[Path] = []


def use(paths: Iterable[Path] | None) -> None:
    """The own card files or folders of this run."""
    _EXTRA[:] = list(paths or [])


def extra() -> list[Path]:
    return list(_EXTRA)


def deck_paths(names: Iterable[str | None]) -> list[Path]:
    """The deck files of these names or paths (those that exist; a missing one is reported by its loader)."""
    from engine import find_deck

    out = []
    for n in names:
        if n is None:
            continue
        try:
            out.append(find_deck(n))
        except FileNotFoundError:
            continue
    return out


def card_db(decks: Sequence[str | None] = ()) -> CardDB:
    """The bundled cards, the run's own cards and the card files the decks name. Raises CardFileError."""
    from engine.cardset import load_cards

    return load_cards(_EXTRA, deck_paths(decks))
