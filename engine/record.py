"""The match record (rules.md §7): decks, StateSeed, options and commands — the save file and the replay.

Stored as UTF-8 JSON. Writing is atomic (a temporary file in the same folder, then `os.replace`), so a
crash mid-write never leaves a half-written save over a good one.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import IllegalAction
from engine.cards import CardDB, CardFileError
from engine.decks import Deck, deck_from_data
from engine.game import Game
from engine.state import MatchOptions

FORMAT = "c1k-match-record"
VERSION = 1


@dataclass
class MatchRecord:
    decks: list[dict[str, Any]]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    commands: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=lambda: ["p1", "p2"])

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "seed": self.seed, "options": self.options,
                "players": self.players, "decks": self.decks, "commands": self.commands}

    @staticmethod
    def from_dict(data: dict[str, Any], path: str = "<record>") -> MatchRecord:
        problems = []
        if data.get("format") != FORMAT:
            problems.append(f"{path}: not a match record (expected \"format\": \"{FORMAT}\")")
        for key, typ in (("seed", int), ("decks", list), ("commands", list)):
            if not isinstance(data.get(key), typ):
                problems.append(f"{path}: '{key}' missing or not a {typ.__name__}")
        if problems:
            raise CardFileError(path, problems)
        return MatchRecord(data["decks"], data["seed"], data.get("options", {}), list(data["commands"]),
                           data.get("players", ["p1", "p2"]))

    @staticmethod
    def of(game: Game, decks: list[Deck]) -> MatchRecord:
        return MatchRecord([d.to_dict() for d in decks], game.seed, game.options.to_dict(), list(game.record),
                           [p.name for p in game.players])


def deck_dict_to_deck(d: dict[str, Any], db: CardDB, where: str) -> Deck:
    data = {"deck": {"name": d.get("name", "deck"), "champion": d.get("champion"), "seat": d.get("seat")},
            "cards": d.get("cards", {})}
    return deck_from_data(data, db, where, playtest=True)


def start(record: MatchRecord, db: CardDB) -> tuple[Game, list[Deck]]:
    decks = [deck_dict_to_deck(d, db, f"record deck {i + 1}") for i, d in enumerate(record.decks)]
    for deck, name in zip(decks, record.players, strict=False):
        deck.player = name
    opts = MatchOptions(**{k: v for k, v in record.options.items() if k in MatchOptions.__dataclass_fields__})
    return Game.new(db, decks[0], decks[1], record.seed, opts), decks


def replay(record: MatchRecord, db: CardDB, upto: int | None = None) -> Game:
    """Replay the record's commands (refused ones reproduce their refusal, as C1K §10 recorded them)."""
    game, _ = start(record, db)
    for text in record.commands[:upto]:
        try:
            game.apply_command(text)
        except IllegalAction:
            pass
    return game


def save(record: MatchRecord, path: Path) -> None:
    text = json.dumps(record.to_dict(), indent=1, ensure_ascii=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load(path: Path) -> MatchRecord:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise CardFileError(str(path), [f"{path}:{err.lineno}: not valid JSON: {err.msg}"]) from err
    if not isinstance(data, dict):
        raise CardFileError(str(path), [f"{path}: not a match record"])
    return MatchRecord.from_dict(data, str(path))
