"""Own cards for this run (`--cards PATH`, repeatable): every card set the app and the commands load.

`use(paths)` is called once by a command, and again by the start screen when its *own cards* field loads
(the field starts from `--cards`); `card_db(decks)` is the bundled set plus those files and the card files
each deck names (engine/cardset.py). `load_pool` is what that field loads: the set, the own cards by name
and file, and the deck files beside them, which its deck lists offer. Resuming or replaying a record
doesn't need them: a record carries its own cards.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import CardDB

CARDS_HELP = ("Your own cards: a card file or a folder of them (repeatable); they join the bundled set "
              "(an id or name already taken is an error)")

_EXTRA: list[Path] = []


def split_paths(text: str) -> list[str]:
    """Paths typed on one line, separated by spaces (quote a path that has spaces). ValueError says why."""
    try:
        return shlex.split(text)
    except ValueError as err:
        raise ValueError(f"can't read the paths '{text}': {err}") from None


def join_paths(paths: Iterable[str]) -> str:
    """Paths on one line, as split_paths reads them back (a path with spaces quoted)."""
    return " ".join(shlex.quote(p) for p in paths)


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


# ------------------------------------------------------------------- the start screen's own-cards field

#: at most this many deck files found beside own cards join the start screen's deck lists
MAX_DECK_FILES = 100


@dataclass(frozen=True)
class Pool:
    """A card pool as the start screen loaded it: the set, the own (not bundled) card files and names, and
    the deck files found beside the own cards (in their folders), which the deck lists offer."""

    db: CardDB
    files: tuple[Path, ...]
    own: tuple[str, ...]
    decks: tuple[Path, ...]

    def summary(self, most: int = 6) -> str:
        """One line: the own cards by name and where they came from, and the decks found beside them."""
        if not self.files:
            return ""
        names = ", ".join(self.own[:most]) + (f" … ({len(self.own)} in all)" if len(self.own) > most else "")
        where = ", ".join(str(f) for f in self.files[:3]) + (f" … ({len(self.files)} files)"
                                                             if len(self.files) > 3 else "")
        line = f"✓ {len(self.own)} own card(s): {names or '(none)'} — from {where}"
        if self.decks:
            line += f"; deck file(s) beside them, in the deck lists: {', '.join(d.name for d in self.decks[:4])}"
            line += f" … ({len(self.decks)})" if len(self.decks) > 4 else ""
        return line


def _is_deck_file(path: Path) -> bool:
    from engine import CardFileError
    from engine.cardset import read_toml

    if path.name.endswith(".scenario.toml"):
        return False
    try:
        data, _ = read_toml(path)
    except CardFileError:
        return False
    return isinstance(data.get("deck"), dict)


def deck_files_beside(paths: Sequence[Path]) -> list[Path]:
    """The deck files in own-card folders (and their subfolders) and beside own card files, each once."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        found = sorted(p.rglob("*.toml")) if p.is_dir() else sorted(p.parent.glob("*.toml")) if p.is_file() else []
        for f in found:
            r = f.resolve()
            if r not in seen and _is_deck_file(f):
                seen.add(r)
                out.append(f)
            if len(out) >= MAX_DECK_FILES:
                return out
    return out


def named_card_files(deck: str) -> list[Path]:
    """The card files a deck file names in `[deck] card_files` (none for a bundled name, a path that isn't
    a file yet, or a file that isn't TOML: its loader says why when the match starts). CardFileError if the
    list is broken or names a file that isn't there (naming the deck file and line)."""
    from engine import CardFileError
    from engine.cardset import deck_card_files, read_toml

    path = Path(deck).expanduser()
    if not deck or not path.is_file():
        return []
    try:
        read_toml(path)
    except CardFileError:
        return []
    return deck_card_files(path)


def load_pool(paths: Sequence[Path], decks: Sequence[str | None] = ()) -> Pool:
    """The bundled cards, own cards (files or folders) and the card files the decks name, as a Pool.
    Raises CardFileError listing every problem (a missing path, a broken card, an id or name taken: both files)."""
    from engine.cardset import bundled_cards_dir, bundled_ids, card_files_for, load_cards

    found = deck_paths(decks)
    db = load_cards(paths, found)
    bundled = bundled_cards_dir().resolve()
    files = tuple(f for f in card_files_for(paths, found) if f.resolve().parent != bundled)
    own = tuple(sorted(db.by_id[cid].name for cid in db.by_id.keys() - bundled_ids(db)))
    return Pool(db, files, own, tuple(deck_files_beside(paths)))


def check_decks(db: CardDB, decks: Sequence[str]) -> None:
    """Each deck (a bundled name or a file) loads against `db` under the construction rules; the first that
    doesn't raises FileNotFoundError or CardFileError (naming the file, the line and every problem)."""
    from engine import find_deck, load_deck

    for d in decks:
        load_deck(find_deck(d), db)
