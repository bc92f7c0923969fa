"""Deck files (docs/formats.md §3): validated with every problem listed at once, with file and line."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.cards import CardDB, CardDef, CardFileError, read_toml, suggest
from engine.safeio import control_refusal

LIBRARY_SIZE = 40
MAX_COPIES = 3
MAX_REALMS = 2
#: a hard bound on copies of one card even with --playtest (beyond it: a typo, or an attack on memory)
MAX_COPIES_PLAYTEST = LIBRARY_SIZE
MAX_DECK_ENTRIES = 200


@dataclass
class Deck:
    name: str
    champion: CardDef
    seat: CardDef
    library: list[CardDef]
    path: str = ""
    player: str = ""
    counts: dict[str, int] = field(default_factory=dict)   # card id -> copies, in file order

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "champion": self.champion.id, "seat": self.seat.id, "cards": self.counts}


def _line(text: str, key: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith((f'"{key}"', f"'{key}'", f"{key} ", f"{key}=")) or \
                (key.startswith("[") and s.split("#")[0].strip() == key):     # a table's header
            return i
    return 1


def deck_from_data(data: dict[str, object], db: CardDB, path: str, text: str = "",
                   playtest: bool = False) -> Deck:
    """Build a Deck from parsed TOML; raise CardFileError listing every problem (file:line: …)."""
    problems: list[str] = []

    def bad(key: str, msg: str) -> None:
        problems.append(f"{path}:{_line(text, key) if text else 0}: {msg}")

    head = data.get("deck")
    for k in data:
        if k not in ("deck", "cards"):
            bad(k, f"unknown table [{k}]{suggest(k, ['deck', 'cards'])}")
    if not isinstance(head, dict):
        bad("[deck]", "missing [deck] table with name, champion and seat")
        head = {}
    for k in head:
        if k not in ("name", "champion", "seat", "card_files"):
            bad(k, f"unknown key '{k}' in [deck]{suggest(k, ['name', 'champion', 'seat', 'card_files'])}")
    if "name" in head and (not isinstance(head["name"], str) or len(head["name"]) > 100):
        bad("name", f"[deck] name must be text of at most 100 characters, not {str(head['name'])[:40]!r}")
    elif "name" in head and control_refusal(str(head["name"]), "a deck name"):
        bad("name", control_refusal(str(head["name"]), "a deck name"))
    elif "name" not in head and control_refusal(Path(path).stem, "a deck name"):
        # the file's name stands in for a missing name: it reaches screens and records the same way
        bad("[deck]", f"the deck has no name, so its file name would be its name: "
                      f"{control_refusal(Path(path).stem, 'a deck name')}; give [deck] a name")
    all_names = list(db.by_id) + [c.name for c in db.by_id.values()]

    def find(key: str, kind: str) -> CardDef | None:
        val = head.get(key) if isinstance(head, dict) else None
        if not isinstance(val, str):
            bad(key, f"[deck] needs '{key}' (the id or name of a {kind} card)")
            return None
        card = db.get(val)
        if card is None:
            bad(key, f"unknown card '{val}'{suggest(val, all_names)}")
            return None
        if card.type != kind:
            bad(key, f"'{val}' is a {card.type}, not a {kind}")
            return None
        return card

    champion = find("champion", "champion")
    seat = find("seat", "seat")
    cards = data.get("cards")
    library: list[CardDef] = []
    counts: dict[str, int] = {}
    counted = isinstance(cards, dict)      # the size is checked unless [cards] is missing or too long (said once)
    if not isinstance(cards, dict):
        bad("[cards]", "missing [cards] table (card id or name = copies)")
        cards = {}
    if len(cards) > MAX_DECK_ENTRIES:
        bad("[cards]", f"{len(cards)} entries in [cards]: at most {MAX_DECK_ENTRIES}")
        cards, counted = {}, False
    unknown_copies = 0      # copies of unknown cards still count towards the library's size (every problem at once)
    listed: dict[str, str] = {}     # card id -> the [cards] key that lists it (by id or by name: once)
    twice_copies = 0        # so do the copies of a card's second entry (refused below)
    for key, n in cards.items():
        card = db.get(key)
        if card is None:
            bad(key, f"unknown card '{key}'{suggest(key, all_names)}")
            if isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_COPIES_PLAYTEST:
                unknown_copies += n
            continue
        if card.id in listed:
            # an id and a name (or two spellings) of one card: which count was meant? Neither is guessed
            first = listed[card.id]
            bad(key, f"'{key}' is '{card.name}', already listed as '{first}'"
                     f"{f' on line {_line(text, first)}' if text else ''}: list each card once, with all its copies")
            if isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_COPIES_PLAYTEST:
                twice_copies += n
            continue
        listed[card.id] = key
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            bad(key, f"'{key}': the number of copies must be a whole number >= 1, not {str(n)[:40]!r}")
            continue
        if n > MAX_COPIES_PLAYTEST:
            bad(key, f"{n} copies of '{card.name}': at most {MAX_COPIES} "
                     f"(and never more than {MAX_COPIES_PLAYTEST}, even to playtest)")
            continue
        if card.type not in ("unit", "relic", "action"):
            bad(key, f"'{card.name}' is a {card.type}: only units, relics and actions go in [cards]")
            continue
        if card.token:
            bad(key, f"'{card.name}' is a token: it is only summoned, never put in a deck")
            continue
        counts[card.id] = n
        library += [card] * n
    if not playtest:
        for cid, n in counts.items():
            if n > MAX_COPIES:
                bad(listed[cid], f"{n} copies of '{db.by_id[cid].name}': at most {MAX_COPIES}")
        size = len(library) + unknown_copies + twice_copies
        if size != LIBRARY_SIZE and counted:
            parts = [f"{unknown_copies} of unknown cards"] * bool(unknown_copies) + \
                [f"{twice_copies} of cards listed twice"] * bool(twice_copies)
            counting = f" (counting {', '.join(parts)})" if parts else ""
            problems.append(f"{path}:{_line(text, '[cards]') if text else 0}: the library has {size} "
                            f"cards{counting}; a deck has exactly {LIBRARY_SIZE}")
        realms = sorted({c.realm for c in library} - {"neutral"})
        if len(realms) > MAX_REALMS:
            problems.append(f"{path}:{_line(text, '[cards]') if text else 0}: cards of {len(realms)} Realms "
                            f"({', '.join(realms)}); at most {MAX_REALMS} plus Neutral")
    if problems or champion is None or seat is None:
        raise CardFileError(path, problems)
    name = head.get("name")
    return Deck(str(name) if name else Path(path).stem, champion, seat, library, path, "", counts)


def load_deck(path: Path, db: CardDB, playtest: bool = False) -> Deck:
    data, text = read_toml(path, "decks")
    return deck_from_data(data, db, str(path), text, playtest)


def bundled_decks_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "decks"


def bundled_deck_paths() -> list[Path]:
    return sorted(bundled_decks_dir().glob("*.toml"))


def find_deck(name: str) -> Path:
    """A deck by path, or by the stem of a bundled deck file ('ironbound')."""
    p = Path(name)
    if p.exists():
        return p
    for cand in bundled_deck_paths():
        if cand.stem == name or cand.name == name:
            return cand
    stems = [c.stem for c in bundled_deck_paths()]
    raise FileNotFoundError(f"no deck file '{name}'{suggest(name, stems)}; bundled decks: {', '.join(stems)}")


__all__ = [
    "LIBRARY_SIZE", "MAX_COPIES", "MAX_COPIES_PLAYTEST", "MAX_DECK_ENTRIES", "MAX_REALMS", "Deck",
    "bundled_deck_paths", "bundled_decks_dir", "deck_from_data", "find_deck", "load_deck",
]
