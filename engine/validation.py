"""`c1k validate`: check card, deck and scenario files — and folders of them — as one set.

Card files given replace the bundled files at the same path and join the rest of the bundled set, so
duplicate ids or names and cross-references (summon, evolve) are checked across the whole set the game
would load; decks and scenarios are checked against that set. The checks are the loaders' own
(`build_card_db`, `load_deck`, `load_scenario`): what passes here loads in the game. Every problem is a
line `file:line: …`; nothing raises. Warnings (`validate_report`) point at what loads and plays but is
probably not meant: cards that evolve into each other (a draw by Endless Loop when both conditions hold).
"""

from __future__ import annotations

from pathlib import Path

from engine.cards import CardDB, CardFileError, build_card_db, bundled_cards_dir, evolve_cycles, read_toml
from engine.decks import load_deck

#: at most this many files from one invocation (a folder holding the whole disk is a mistake)
MAX_FILES = 5000


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; folders become every `*.toml` file under them (sorted)."""
    out: list[Path] = []
    for p in paths:
        out += sorted(p.rglob("*.toml")) if p.is_dir() else [p]
    return out


def kind_of(path: Path, data: dict[str, object]) -> str:
    if path.name.endswith(".scenario.toml"):
        return "scenario"
    return "cards" if "card" in data else "deck"


def validate_paths(paths: list[Path], cards: list[Path] | None = None) -> tuple[int, list[str]]:
    """(number of files checked, every problem found), each problem a `file:line: …` line."""
    n, problems, _ = validate_report(paths, cards)
    return n, problems


def validate_report(paths: list[Path], cards: list[Path] | None = None) -> tuple[int, list[str], list[str]]:
    """(number of files checked, every problem found, every warning), each a `file:line: …` line. `cards`:
    own card files or folders (`--cards`) that join the set without being reported as checked files; the
    card files a deck names (`[deck] card_files`) join it too."""
    from engine.cardset import deck_card_files, expand_card_paths

    files = expand(paths)
    empty = [f"{p}: no .toml files in this folder" for p in paths if p.is_dir() and not any(p.rglob("*.toml"))]
    if len(files) > MAX_FILES:
        return len(files), [f"{len(files)} files: at most {MAX_FILES} in one run; name fewer files or folders"], []
    problems: list[str] = empty
    kinds: dict[Path, str] = {}
    for f in files:
        try:
            data, _ = read_toml(f)
        except CardFileError as err:
            problems += err.problems
            continue
        kinds[f] = kind_of(f, data)
    given = [f for f, k in kinds.items() if k == "cards"]
    extra: list[Path] = []
    try:
        extra += expand_card_paths(cards or [])
    except CardFileError as err:
        problems += err.problems
    for f, k in kinds.items():
        if k == "deck":
            try:
                extra += deck_card_files(f)
            except CardFileError as err:
                problems += err.problems
    resolved = {f.resolve() for f in given}
    for f in extra:
        if f.resolve() not in resolved:
            given.append(f)
            resolved.add(f.resolve())
    bundled = [b for b in sorted(bundled_cards_dir().glob("*.toml")) if b.resolve() not in resolved]
    db, card_problems = build_card_db(bundled + given)
    problems += card_problems
    warnings = evolve_cycles(db)
    for f, k in kinds.items():
        if k in ("deck", "scenario"):
            more, warned = _problems(f, k, db)
            problems += more
            warnings += warned
    return len(files), problems, warnings


def _problems(path: Path, kind: str, db: CardDB) -> tuple[list[str], list[str]]:
    """A deck's or scenario's problems, and the warnings about a scenario's own cards."""
    try:
        if kind == "deck":
            load_deck(path, db)
            return [], []
        from engine.scenario import load_scenario  # (it imports the game: only needed for scenarios)

        scn = load_scenario(path, db)
    except CardFileError as err:
        return list(err.problems), []
    own = [c for c in scn.db.by_id if db.get(c) is not scn.db.get(c)]
    return [], [f"{path}: {w}" if not w.startswith(str(path)) else w for w in evolve_cycles(scn.db, own)] if own else []


__all__ = [
    "MAX_FILES", "expand", "kind_of", "validate_paths", "validate_report",
]
