"""The card set a match or a simulation uses: the bundled cards plus a designer's own (docs/formats.md §2–3).

Own cards come from card files or folders (`--cards PATH`) and from the card files a deck names
(`[deck] card_files = ["my-cards.toml"]`, relative to the deck file). They join the bundled set as one
set: an id or a name that is already taken is an error naming both files.

Every card has a content digest (of its TOML table as read). A record or a simulation report carries the
digest of every card it used and the full definition of every card that isn't bundled (its manifest), so a
replay or a resume builds the same set, or refuses, naming the cards that differ.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.cards import (
    CardDB,
    CardFileError,
    build_card_db,
    bundled_cards_dir,
    parse_cards_located,
    read_toml,
)
from engine.decks import LIBRARY_SIZE, MAX_COPIES, MAX_REALMS

#: the key of `[deck]` that names card files
DECK_CARD_FILES = "card_files"
#: at most this many card files from one invocation (a folder holding the whole disk is a mistake)
MAX_CARD_FILES = 500


def expand_card_paths(paths: Iterable[Path]) -> list[Path]:
    """Card files as given; folders become every `*.toml` card file under them (sorted; decks and scenarios
    beside them are left out). A path that doesn't exist, or a folder with no card file, is a CardFileError."""
    out: list[Path] = []
    problems: list[str] = []
    for p in paths:
        if p.is_dir():
            found = sorted(f for f in p.rglob("*.toml") if not f.name.endswith(".scenario.toml") and _cards_file(f))
            if not found:
                problems.append(f"{p}: no .toml card files in this folder")
            out += found
        elif p.exists():
            out.append(p)
        else:
            problems.append(f"{p}: no such card file or folder")
    if len(out) > MAX_CARD_FILES:
        problems.append(f"{len(out)} card files: at most {MAX_CARD_FILES}; name fewer files or folders")
    if problems:
        raise CardFileError("--cards", problems)
    return out


def _cards_file(path: Path) -> bool:
    """A file of a folder given as cards holds cards — or can't be read (then its loader says why); decks and
    other files beside them are left out."""
    try:
        data, _ = read_toml(path)
    except CardFileError:
        return True
    return "card" in data or not ({"deck", "scenario", "lesson"} & set(data))


def deck_card_files(deck_path: Path) -> list[Path]:
    """The card files a deck file names in `[deck] card_files` (relative to the deck's folder)."""
    data, text = read_toml(deck_path)
    head = data.get("deck")
    if not isinstance(head, dict) or DECK_CARD_FILES not in head:
        return []
    val = head[DECK_CARD_FILES]
    line = next((i for i, ln in enumerate(text.splitlines(), 1) if ln.strip().startswith(DECK_CARD_FILES)), 1)
    if not isinstance(val, list) or not all(isinstance(v, str) for v in val) or len(val) > MAX_CARD_FILES:
        raise CardFileError(str(deck_path), [f"{deck_path}:{line}: [deck] {DECK_CARD_FILES} is a list of card file "
                                             f"paths (relative to the deck), e.g. [\"my-cards.toml\"]"])
    out = []
    for v in val:
        p = deck_path.parent / v
        if not p.exists():
            raise CardFileError(str(deck_path), [f"{deck_path}:{line}: [deck] {DECK_CARD_FILES}: no card file "
                                                 f"'{v}' (looked for {p})"])
        out += expand_card_paths([p])
    return out


def card_files_for(extra: Sequence[Path] = (), decks: Sequence[Path] = ()) -> list[Path]:
    """The bundled card files, then the given ones and those the decks name — each file once."""
    files = sorted(bundled_cards_dir().glob("*.toml"))
    seen = {f.resolve() for f in files}
    wanted = expand_card_paths(extra)
    for d in decks:
        wanted += deck_card_files(d)
    for f in wanted:
        r = f.resolve()
        if r not in seen:
            seen.add(r)
            files.append(f)
    return files


def load_cards(extra: Sequence[Path] = (), decks: Sequence[Path] = ()) -> CardDB:
    """The bundled set plus own cards (files or folders) and the card files the decks name, as one set.
    Raises CardFileError listing every problem (a duplicate id or name names both files)."""
    db, problems = build_card_db(card_files_for(extra, decks))
    if problems:
        raise CardFileError("card set", problems)
    return db


# ------------------------------------------------------------------------------------------ digests


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def card_digest(db: CardDB, card_id: str) -> str:
    """A short digest of the card's definition (its TOML table; a card made in code: its fields)."""
    raw = db.raw.get(card_id)
    text = _canonical(raw) if raw is not None else repr(db.by_id[card_id])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def is_bundled(db: CardDB, card_id: str) -> bool:
    return card_id in bundled_ids(db, [card_id])


def bundled_ids(db: CardDB, ids: Iterable[str] | None = None) -> set[str]:
    """Those of `ids` (default: every card of `db`) that are bundled: read from the bundled set's folder, or
    made in code. Each card file's path is resolved once (not once a card: the bundled set has 250)."""
    bundled = bundled_cards_dir().resolve()
    of_file: dict[str, bool] = {}
    out = set()
    for cid in db.by_id if ids is None else ids:
        file = db.origin.get(cid, "").rsplit(":", 1)[0]
        if file not in of_file:
            of_file[file] = not file or Path(file).resolve().parent == bundled
        if of_file[file]:
            out.add(cid)
    return out


def cards_used(db: CardDB, ids: Iterable[str]) -> list[str]:
    """The ids, and every card they name (summon, evolve), transitively; sorted."""
    from engine.cards import Effect

    todo = [i for i in ids if i in db.by_id]
    seen: set[str] = set()

    def named(effects: Iterable[Effect]) -> Iterable[str]:
        for e in effects:
            if e.do == "summon" and e.card:
                yield e.card
            for branch in (e.outcomes or []) + (e.branches or []):
                yield from named(branch)

    while todo:
        cid = todo.pop()
        if cid in seen:
            continue
        seen.add(cid)
        card = db.by_id[cid]
        refs = list(named(card.effect))
        for ab in card.abilities:
            refs += named(ab.effect)
        if card.evolve is not None:
            refs.append(card.evolve.into)
        for r in refs:
            target = db.get(r)
            if target is not None and target.id not in seen:
                todo.append(target.id)
    return sorted(seen)


def manifest(db: CardDB, ids: Iterable[str]) -> dict[str, Any]:
    """What a record or report carries: the digest of every card used that was read from a card file, and the
    definition of each own (not bundled) one. Cards made otherwise — a scenario's own `[[card]]` tables, cards
    built in code — are left out: what made them (the scenario in the record) makes them again."""
    used = [cid for cid in cards_used(db, ids) if cid in db.raw]
    bundled = bundled_ids(db, used)
    return {"digests": {cid: card_digest(db, cid) for cid in used},
            "defs": [db.raw[cid] for cid in used if cid not in bundled]}


def manifest_digest(man: dict[str, Any]) -> str:
    """One digest of a whole manifest (of its cards' digests)."""
    return hashlib.sha256(_canonical(man.get("digests", {})).encode()).hexdigest()[:16]


def with_manifest(db: CardDB, man: dict[str, Any], what: str = "the record") -> CardDB:
    """`db` plus the manifest's own cards; raises CardFileError if a card it used is missing or differs
    (naming each, and where today's definition is)."""
    out = db.copy()
    defs = man.get("defs", [])
    if not isinstance(defs, list):
        raise CardFileError(what, [f"{what}: its card definitions are not a list"])
    tables: list[dict[str, Any]] = []
    located, problems = parse_cards_located(defs, f"{what} (its own cards)", "", tables)
    for (card, _), table in zip(located, tables, strict=True):
        if card.id not in out.by_id and card.name.lower() not in out.by_name:
            out.add(card, f"{what}:0")
            out.raw[card.id] = table
    digests = man.get("digests", {})
    if not isinstance(digests, dict):
        raise CardFileError(what, [f"{what}: its card digests are not a table"])
    for cid, want in sorted(digests.items()):
        if cid not in out.by_id:
            problems.append(f"card '{cid}' is used by {what} but is in no card file loaded now")
        elif card_digest(out, cid) != want:
            where = out.origin.get(cid, "")
            problems.append(f"card '{cid}' ({out.by_id[cid].name}) differs from the one {what} was made with"
                            + (f" (today's definition: {where})" if where else ""))
    if problems:
        raise CardFileError(what, problems)
    return out


__all__ = ["DECK_CARD_FILES", "LIBRARY_SIZE", "MAX_COPIES", "MAX_REALMS", "bundled_cards_dir", "read_toml", "card_digest", "card_files_for", "cards_used", "deck_card_files", "expand_card_paths",
           "bundled_ids", "is_bundled", "load_cards", "manifest", "manifest_digest", "with_manifest"]
