"""The match record (rules.md §7): the save file and the replay — a record that can't lie.

A record says how the match began (two decks, the StateSeed and the options — or a scenario's
position), then every command in order, each with the seat that sent it (`p1:` / `p2:`, never a
player's name), whether the engine refused it (C1K §10 keeps a refused attempt in the record, since it
moved priority) and the state hash after it. It is UTF-8 JSON, validated on load against a versioned
schema (pydantic: every problem of a file is reported with where it is, and nothing unchecked reaches
the engine). Replaying recomputes every hash and stops at the first command whose hash differs, naming
its number and the parts of the state that differ.

Each command entry also lists the parts of the state it changed (`changed`: part → short digest; the
start lists every part). A replay that goes wrong compares those digests with its own to say *what*
differs ("p2 life, stack"); the full hash, an opaque string from `Game.state_hash()`, is the authority.

Saving is atomic: a temporary file in the same folder, then `os.replace`; a failed or interrupted save
removes its temporary file and leaves the previous save as it was.

Everything that replays a record — `resume`, `replay`, the app's undo and replay screen — goes through
`begin` and `step` here (or `replay`, which is both).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from engine.actions import IllegalAction, MalformedCommand, parse_action
from engine.cards import CardDB, CardFileError
from engine.decks import Deck, deck_from_data
from engine.errors import BadInput
from engine.game import Game, RulesLoopError
from engine.safeio import (
    DuplicateKey,
    ReadRefused,
    WriteRefused,
    control_refusal,
    loads_json,
    place_refusal,
    read_bounded,
    same_kind,
    write_atomic,
    write_refusal,
)
from engine.state import HAND, LIBRARY, SET, MatchOptions

FORMAT = "c1k-match-record"
VERSION = 3
SEED_LIMIT = 2**64
MAX_COPIES_IN_RECORD = 60       # a playtest deck may break the format, not the machine
MAX_COMMAND_CHARS = 2_000
_PREFIX = re.compile(r"(p[12]): (\S.*)\Z", re.DOTALL)


class RecordError(BadInput, ValueError):
    """A record that can't be loaded or doesn't replay to its own hashes. `command` is the 1-based number
    of the first command that differs (0: the starting position; None: the file itself)."""

    def __init__(self, message: str, command: int | None = None) -> None:
        self.command = command
        super().__init__(message)


# ---------------------------------------------------------------------------------------------- schema

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Count = Annotated[StrictInt, Field(ge=0, le=MAX_COPIES_IN_RECORD)]


class DeckEntry(_Strict):
    name: StrictStr
    champion: StrictStr
    seat: StrictStr | None = None
    cards: dict[StrictStr, Count]


class ScenarioStart(_Strict):
    path: StrictStr = "<scenario>"
    data: dict[StrictStr, Any]


#: bounds of the numeric match options a record may carry (a record is input from outside)
OPTION_BOUNDS = {"max_turns": (0, 1_000_000), "unit_slots": (1, 12), "relic_slots": (0, 12)}


def _check_options(v: dict[str, Any]) -> dict[str, Any]:
    """The engine's MatchOptions: known keys only, each of its default's type, numbers within bounds."""
    defaults: dict[str, object] = {f.name: f.default for f in fields(MatchOptions)}
    for key, value in v.items():
        if key not in defaults:
            raise ValueError(f"unknown option '{key}'; the options are {', '.join(defaults)}")
        want = type(defaults[key])
        if type(value) is not want:
            kind = {bool: "true or false", int: "a whole number", str: "text"}.get(want, want.__name__)
            raise ValueError(f"'{key}' is {kind}, not {json.dumps(value, default=str)[:40]}")
        lo, hi = OPTION_BOUNDS.get(key, (0, 10**9))
        if isinstance(value, int) and not isinstance(value, bool) and not lo <= value <= hi:
            raise ValueError(f"'{key}' = {value} is out of range ({lo} to {hi})")
    try:
        MatchOptions.from_dict(v)
    except (TypeError, ValueError) as err:
        raise ValueError(str(err)) from err
    return v


class CommandEntry(_Strict):
    do: Annotated[StrictStr, Field(min_length=1, max_length=MAX_COMMAND_CHARS)]
    hash: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    refused: StrictStr = ""          # "C1K 10: why" when the engine refused it (it still moved priority)
    auto: StrictBool = False         # sent by the app's flow options, not typed by the player
    changed: dict[StrictStr, StrictStr] = Field(default_factory=dict)

    @field_validator("do")
    @classmethod
    def _seat_prefix(cls, v: str) -> str:
        if not _PREFIX.match(v):
            raise ValueError("a command starts with the seat that sent it, 'p1: ' or 'p2: ' (e.g. 'p1: pass')")
        return v


class AgentSeat(_Strict):
    """A seat played by an agent (engine/ai.py): its spec and its seed, so that resuming rebuilds the same
    opponent (same view + same agent seed ⇒ same decision)."""

    agent: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    seed: StrictStr | StrictInt = 0

    @field_validator("agent")
    @classmethod
    def _spec(cls, v: str) -> str:
        from engine.ai import make_agent

        try:
            make_agent(v)
        except ValueError as err:
            raise ValueError(str(err)) from err
        return v

    @field_validator("seed")
    @classmethod
    def _agent_seed(cls, v: str | int) -> str | int:
        if isinstance(v, str) and not (v.isascii() and v.isdigit() and len(v) <= 20):
            raise ValueError("an agent's seed is a whole number from 0 to 2^64 - 1, written in decimal")
        if not 0 <= int(v) < SEED_LIMIT:
            raise ValueError("an agent's seed is a whole number from 0 to 2^64 - 1")
        return v


class CardsEntry(_Strict):
    """The cards the match used (engine/cardset.py): each one's digest, and the definitions of own cards."""

    digests: dict[Annotated[StrictStr, Field(max_length=60)], Annotated[StrictStr, Field(max_length=64)]]
    defs: Annotated[list[dict[StrictStr, Any]], Field(max_length=2000)] = Field(default_factory=list)


class RecordFile(_Strict):
    format: Literal["c1k-match-record"]
    version: Literal[3]
    seed: StrictStr | StrictInt | None = None
    decks: list[DeckEntry] | None = None
    scenario: ScenarioStart | None = None
    players: dict[Literal["p1", "p2"], Annotated[StrictStr, Field(max_length=200)]] = Field(default_factory=dict)
    options: dict[StrictStr, Any] = Field(default_factory=dict)
    app: dict[StrictStr, Any] = Field(default_factory=dict)
    # written only when a seat is an agent; hashed (start.hash) either way, so it can't be added or removed
    agents: dict[Literal["p1", "p2"], AgentSeat] = Field(default_factory=dict)
    # optional (records without it replay with today's cards, unchecked): the cards it was played with
    cards: CardsEntry | None = None
    start: CommandStart
    commands: list[CommandEntry]

    @field_validator("seed")
    @classmethod
    def _seed(cls, v: str | int | None) -> str | int | None:
        if v is None:
            return v
        if isinstance(v, str) and not (v.isascii() and v.isdigit() and len(v) <= 20):
            raise ValueError("the seed is a whole number from 0 to 2^64 - 1, written in decimal")
        if not 0 <= int(v) < SEED_LIMIT:
            raise ValueError("the seed is a whole number from 0 to 2^64 - 1")
        return v

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, Any]) -> dict[str, Any]:
        return _check_options(v)

    @field_validator("players")
    @classmethod
    def _names(cls, v: dict[str, str]) -> dict[str, str]:
        for seat, name in v.items():
            why = control_refusal(name, f"{seat}'s name")
            if why:
                raise ValueError(why)
        return v

    @field_validator("decks")
    @classmethod
    def _two(cls, v: list[DeckEntry] | None) -> list[DeckEntry] | None:
        if v is not None and len(v) != 2:
            raise ValueError(f"a match has two decks, not {len(v)}")
        return v


class CommandStart(_Strict):
    hash: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    parts: dict[StrictStr, StrictStr] = Field(default_factory=dict)


RecordFile.model_rebuild()


# ---------------------------------------------------------------------------------------------- values

@dataclass(frozen=True)
class Start:
    """How a match begins: two decks, a seed and options — or a scenario's position."""

    decks: tuple[dict[str, Any], ...] = ()
    seed: int = 0
    names: tuple[str, str] = ("p1", "p2")
    options: dict[str, Any] = field(default_factory=dict)
    scenario: dict[str, Any] | None = None      # {"path": ..., "data": {...}}

    @staticmethod
    def of_decks(decks: list[Deck], seed: int, options: MatchOptions | None = None) -> Start:
        names = (decks[0].player or "p1", decks[1].player or "p2")
        return Start(tuple(d.to_dict() for d in decks), seed, names, (options or MatchOptions()).to_dict())

    @staticmethod
    def of_scenario(path: str, data: dict[str, Any]) -> Start:
        return Start(scenario={"path": path, "data": data})


@dataclass
class Entry:
    do: str                    # "p1: play #12": the seat, then the command as the engine prints it
    hash: str                  # the engine's state hash after it ("" for a loaded command not replayed yet)
    refused: str = ""
    auto: bool = False
    changed: dict[str, str] = field(default_factory=dict)
    seal: str = ""             # the hash the file holds (command_hash), checked when it is replayed

    def file_hash(self) -> str:
        return command_hash(self.hash, self.do, self.refused, self.auto, self.changed) if self.hash else self.seal

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"do": self.do}
        if self.refused:
            d["refused"] = self.refused
        if self.auto:
            d["auto"] = True
        d["hash"] = self.file_hash()
        d["changed"] = self.changed
        return d


@dataclass
class MatchRecord:
    start: Start
    start_hash: str
    start_parts: dict[str, str]
    entries: list[Entry] = field(default_factory=list)
    app: dict[str, Any] = field(default_factory=dict)   # the app's own settings (flow, open hands, lesson)
    #: seat ("p1"/"p2") -> (agent spec, agent seed) for the seats an agent plays; empty: two humans
    agents: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: engine/cardset.py manifest: {"digests": {id: digest}, "defs": [own cards' tables]}; empty: unchecked
    cards: dict[str, Any] = field(default_factory=dict)
    #: the file's start hash as read (start_seal), checked by `begin`; start_hash is then the state hash
    seal: str = ""

    @property
    def commands(self) -> list[str]:
        return [e.do for e in self.entries]

    @property
    def seed(self) -> int:
        return self.start.seed

    def head(self) -> dict[str, Any]:
        """Everything the record says about how the match began: all of it is in the start hash."""
        s = self.start
        d: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if s.scenario is not None:
            d["scenario"] = s.scenario
        else:
            d["seed"] = str(s.seed)
            d["players"] = {"p1": s.names[0], "p2": s.names[1]}
            d["decks"] = [{k: v for k, v in deck.items() if v is not None} for deck in s.decks]
            d["options"] = s.options
        d["app"] = self.app
        if self.agents:      # written only when a seat is an agent (the start hash covers it either way)
            d["agents"] = {seat: {"agent": spec, "seed": str(seed)} for seat, (spec, seed) in sorted(self.agents.items())}
        if self.cards:       # the cards it was played with (engine/cardset.py): in the start hash too
            d["cards"] = self.cards
        return d

    def all_start_parts(self) -> dict[str, str]:
        """The start's part digests: the decks or scenario and the state (`start_parts`, as recorded or
        recomputed) and the record's own players, app settings and AI seats."""
        return {**{k: v for k, v in self.start_parts.items() if not k.startswith("record.")}, **head_parts(self)}

    def file_start_hash(self) -> str:
        if not self.start_hash:          # loaded and not replayed: the file's own hash, unchecked
            return self.seal
        return start_seal(self.head(), self.start_hash, self.all_start_parts())

    def to_dict(self) -> dict[str, Any]:
        d = self.head()
        d["start"] = {"hash": self.file_start_hash(), "parts": self.all_start_parts()}
        d["commands"] = [e.to_dict() for e in self.entries]
        return d

    def to_json(self) -> str:
        """The JSON text: one line per command, so a record reads (and diffs) command by command."""
        d = self.to_dict()
        cmds = d.pop("commands")
        head = json.dumps(d, indent=1, ensure_ascii=False, default=str)
        lines = ",\n".join("  " + json.dumps(c, ensure_ascii=False, separators=(", ", ": ")) for c in cmds)
        return head[:-2] + ',\n "commands": [' + (f"\n{lines}\n ]" if cmds else "]") + "\n}\n"


# ---------------------------------------------------------------------------------------------- parts

PART_NAMES = {"record.players": "the players' names", "record.app": "the app settings (flow, open hands, lesson)",
              "record.agents": "the AI seats", "rng": "the random generator", "cards": "where each card is", "perms": "cards in play",
              "pending": "the pending decision", "stack": "the stack", "seed": "the seed",
              "options": "the options", "window": "the window", "priority": "priority", "turn": "the turn"}


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str).encode()


def _digest(value: object) -> str:
    return hashlib.sha256(_canonical(value)).hexdigest()[:8]


def head_parts(record: MatchRecord) -> dict[str, str]:
    """Digests of what the record says besides the position: names, app settings, AI seats (so that a
    changed one is named)."""
    head = record.head()
    return {"record.players": _digest(head.get("players")), "record.app": _digest(head.get("app")),
            "record.agents": _digest(head.get("agents")), "record.cards": _digest(head.get("cards"))}


def start_seal(head: dict[str, Any], state_hash: str, parts: dict[str, str]) -> str:
    """The start hash of a version 3 record: SHA-256 over everything the record says before its first
    command (format, version, seed, players, decks, options or scenario, app settings, AI seats), the
    engine's state hash of the starting position and the part digests. Unkeyed: it shows a change, it
    can't stop a forger who recomputes it (docs/formats.md)."""
    return hashlib.sha256(b"c1k-record-start\0" + _canonical({"head": head, "state": state_hash,
                                                                 "parts": parts})).hexdigest()


def command_hash(state_hash: str, do: str, refused: str, auto: bool, changed: dict[str, str]) -> str:
    """A command's hash in a version 3 record: SHA-256 over its text and seat (`do`), the engine's refusal
    as recorded, its `auto` flag, its part digests and the engine's state hash after it."""
    return hashlib.sha256(b"c1k-record-command\0" + _canonical(
        {"do": do, "refused": refused, "auto": auto, "changed": changed, "state": state_hash})).hexdigest()


def state_parts(game: Game) -> dict[str, str]:
    """A short digest of each part of the state (top-level parts; each player's parts one by one)."""
    snap: Any = game.snapshot()
    if not isinstance(snap, dict):
        return {}
    out: dict[str, str] = {}
    for key, value in snap.items():
        if isinstance(value, list) and len(value) == 2 and all(isinstance(v, dict) for v in value):
            for i, sub in enumerate(value):
                for k2, v2 in sub.items():
                    out[f"{key}[{i}].{k2}"] = _digest(v2)
        else:
            out[str(key)] = _digest(value)
    return out


def start_parts(start: Start) -> dict[str, str]:
    """Digests of how the match began, as the record says (each deck's parts, the scenario)."""
    if start.scenario is not None:
        return {"start.scenario": _digest(start.scenario.get("data"))}
    out: dict[str, str] = {}
    for i, d in enumerate(start.decks):
        for key in ("champion", "seat", "cards", "name"):
            out[f"deck[{i}].{key}"] = _digest(d.get(key))
    return out


DECK_PART_NAMES = {"champion": "Champion", "seat": "Seat", "cards": "deck list", "name": "deck name"}


def part_label(part: str) -> str:
    m = re.fullmatch(r"players\[([01])\]\.(\w+)", part)
    if m:
        return f"p{int(m.group(1)) + 1} {m.group(2)}"
    m = re.fullmatch(r"deck\[([01])\]\.(\w+)", part)
    if m:
        return f"p{int(m.group(1)) + 1} {DECK_PART_NAMES.get(m.group(2), m.group(2))}"
    return PART_NAMES.get(part, part.removeprefix("start."))


def _delta(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    out = {k: v for k, v in after.items() if before.get(k) != v}
    out.update({k: "" for k in before if k not in after})
    return out


def _differs(expected: dict[str, str], actual: dict[str, str]) -> str:
    keys = sorted((k for k in set(expected) | set(actual) if expected.get(k, "") != actual.get(k, "")),
                  key=lambda k: (not k.startswith(("deck[", "start.")), k not in ("seed", "options"), k))
    if not keys:
        return "the state hash differs (the record's part digests don't say where)"
    shown = [part_label(k) for k in keys[:8]]
    more = f" and {len(keys) - 8} more" if len(keys) > 8 else ""
    return "it differs in: " + ", ".join(shown) + more


# ---------------------------------------------------------------------------------------------- playing

def begin_game(start: Start, db: CardDB) -> tuple[Game, list[Deck]]:
    """The match's first state, before any command (raises RecordError on bad decks or scenario)."""
    if start.scenario is not None:
        from engine.scenario import ScenarioError, build, scenario_from_data

        scn = start.scenario
        try:
            game = build(scenario_from_data(dict(scn["data"]), str(scn.get("path", "<scenario>")), db))
        except ScenarioError as err:
            raise RecordError(f"the record's scenario is broken: {err}", 0) from err
        except (ValueError, KeyError, TypeError, IndexError, RecursionError) as err:
            raise RecordError(f"the record's scenario can't be set up: {err}", 0) from err
        return game, []
    decks = []
    for i, d in enumerate(start.decks):
        data: dict[str, Any] = {"deck": {"name": d.get("name", "deck"), "champion": d.get("champion"), "seat": d.get("seat")},
                "cards": d.get("cards", {})}
        if data["deck"]["seat"] is None:
            del data["deck"]["seat"]
        try:
            deck = deck_from_data(data, db, f"deck {i + 1} of the record", playtest=True)
        except CardFileError as err:
            raise RecordError("\n".join(err.problems), 0) from err
        deck.player = start.names[i]
        decks.append(deck)
    opts = MatchOptions.from_dict(start.options)
    return Game.new(db, decks[0], decks[1], start.seed, opts), decks


def play_line(game: Game, line: str) -> str:
    """Send one recorded command (`p1: play #12`) to the game for the seat it names. Returns "" if the
    engine accepted it, or the refusal ("C1K 10: why") — a refusal changes what C1K §10 says. Names are
    never looked up: a record holds commands as the engine prints them (card ids), so the players'
    names can't change which seat a command is for. Raises MalformedCommand on anything else."""
    m = _PREFIX.match(line)
    if m is None:
        raise MalformedCommand(f"'{line[:80]}' does not start with 'p1: ' or 'p2: '")
    seat = int(m.group(1)[1]) - 1
    action = parse_action(m.group(2))
    try:
        game.apply(action, seat)
    except IllegalAction as err:
        return f"{err.rule}: {err.reason}"
    except RulesLoopError as err:   # the match can't go on; recorded so that a replay gets as far
        return f"RULES LOOP: {err}"
    return ""


class Recorder:
    """Keeps a live match's record in step with its Game.

    `sync(game)` catches up with the commands the game has taken since the last call (however they
    were sent) by playing them on its own copy, which gives each one's refusal and state hash."""

    def __init__(self, start: Start, game: Game) -> None:
        if game.record:
            raise ValueError("a Recorder starts from a match that has taken no command")
        from engine.cardset import manifest

        self.start = start
        self._first = game.clone()
        self.cards = manifest(game.db, {d.id for d in game.defs.values() if d is not None})
        self._reset()

    def _reset(self) -> None:
        self._game = self._first.clone()
        self._parts = state_parts(self._game)
        self.start_hash = self._game.state_hash()
        self.start_parts = {**start_parts(self.start), **self._parts}
        self.entries: list[Entry] = []

    @staticmethod
    def at(record: MatchRecord, game: Game, first: Game) -> Recorder:
        """A recorder for a record already replayed to `game` (from `first`, the match's start)."""
        r = Recorder(record.start, first)
        r.entries = [Entry(e.do, e.hash, e.refused, e.auto, dict(e.changed)) for e in record.entries]
        r._game = game.clone()
        r._parts = state_parts(r._game)
        return r

    def sync(self, game: Game) -> None:
        lines = game.record
        done = [e.do for e in self.entries]
        if len(lines) < len(done) and lines == done[:len(lines)]:
            del self.entries[len(lines):]      # the game went back (undo) to a state of this match
            self._game = game.clone()
            self._parts = state_parts(self._game)
            return
        if lines[:len(done)] != done:
            self._reset()          # another match altogether: replay it from the start
        for line in lines[len(self.entries):]:
            refused = play_line(self._game, line)
            parts = state_parts(self._game)
            self.entries.append(Entry(line, self._game.state_hash(), refused, False, _delta(self._parts, parts)))
            self._parts = parts

    def record(self, game: Game, auto: set[int] | frozenset[int] = frozenset(),
               app: dict[str, Any] | None = None) -> MatchRecord:
        self.sync(game)
        entries = [Entry(e.do, e.hash, e.refused, i in auto, e.changed) for i, e in enumerate(self.entries)]
        return MatchRecord(self.start, self.start_hash, dict(self.start_parts), entries, dict(app or {}),
                           cards=self.cards)


def record_of(game: Game, start: Start, first: Game, auto: set[int] | frozenset[int] = frozenset(),
              app: dict[str, Any] | None = None) -> MatchRecord:
    """The record of `game`, a match that began as `first` (with no command) from `start`."""
    return Recorder(start, first).record(game, auto, app)


def reveal_reason(before: Game, after: Game) -> str | None:
    """Why going from `before` to `after` (the same match, some commands later) revealed hidden
    information, or None. Undo replays a record without its last commands; it is fair only when they
    revealed nothing. Sound rule: the generator's state is unchanged (no shuffle, random target, random
    discard or Flux outcome) and no card left a hidden zone (hand, library, Set) — nothing was drawn, played from a
    hand, discarded or revealed. A card going *into* a hand reveals nothing new."""
    if before.rng.state != after.rng.state:
        return "it used the random generator (a shuffle, random target, random discard or Flux outcome)"
    hidden = {HAND: "a hand", LIBRARY: "a library", SET: "the Set zone"}
    for cid, zone in before.zone.items():
        if zone in hidden and after.zone[cid] != zone:
            # (a drawn card got a fresh number in the hand: its library number no longer names a card)
            how = "it was drawn" if zone == LIBRARY and after.defs[cid] is None else "it is now seen"
            return f"a card left {hidden[zone]} ({how})"
    return None


# ---------------------------------------------------------------------------------------------- replaying

def _where(i: int, n: int, line: str) -> str:
    return f"command {i} of {n} ('{line[:80]}')"


def begin(record: MatchRecord, db: CardDB) -> tuple[Game, list[Deck]]:
    """The record's starting position, checked against its start hash: for a loaded record, the hash of
    everything the record says before its first command (decks or scenario, seed, options, players, app
    settings, AI seats, cards) and the part digests. A record that carries its cards plays with them (its
    own cards join `db`); a card it used that differs today is refused, by name."""
    if record.cards:
        from engine.cardset import with_manifest

        try:
            db = with_manifest(db, record.cards, "this record")
        except CardFileError as err:
            raise RecordError("the match was played with other cards:\n" + "\n".join(err.problems), 0) from err
    game, decks = begin_game(record.start, db)
    state = game.state_hash()
    actual = {**start_parts(record.start), **state_parts(game), **head_parts(record)}
    if record.seal:                 # as read from a file
        stated = record.start_parts
        if start_seal(record.head(), state, actual) != record.seal or stated != actual:
            diff = sorted(k for k in set(stated) | set(actual) if stated.get(k) != actual.get(k))
            what = (_differs(stated, actual) if diff else
                    "every part matches its digest, so the start hash itself was changed")
            raise RecordError(f"the start of the record doesn't match its hash — {what}: the decks, seed, names, "
                              "options, app settings or AI seats were changed after it was saved (or it was "
                              "saved by another version of the rules)", 0)
        record.start_hash = state
    elif state != record.start_hash:
        what = _differs(record.start_parts, {**start_parts(record.start), **state_parts(game)})
        raise RecordError(f"the starting position doesn't match the record's hash — {what}: the decks, seed, "
                          "names or options were changed after it was saved (or it was saved by another "
                          "version of the rules)", 0)
    return game, decks


def step(game: Game, record: MatchRecord, i: int, parts: dict[str, str] | None = None) -> dict[str, str] | None:
    """Play command i (0-based) of the record on `game` and check its refusal (word for word) and its hash,
    which covers its text, seat, refusal, `auto` flag, part digests and the state after it.
    `parts`: the record's part digests before it (to name what differs); returns them after it."""
    e = record.entries[i]
    n = len(record.entries)
    where = _where(i + 1, n, e.do)
    try:
        refused = play_line(game, e.do)
    except MalformedCommand as err:
        raise RecordError(f"{where}: not a command: {err}", i + 1) from err
    except (RecursionError, RuntimeError) as err:
        raise RecordError(f"{where}: the engine stopped: {err}", i + 1) from err
    if refused and not e.refused:
        raise RecordError(f"{where}: the engine refuses it now ({refused}), but the record says it was "
                          "accepted: the record was changed after it was saved", i + 1)
    if e.refused and not refused:
        raise RecordError(f"{where}: the record says it was refused ({e.refused}), but the engine accepts "
                          "it now: the record was changed after it was saved", i + 1)
    if e.refused != refused:
        raise RecordError(f"{where}: the record gives the refusal as '{e.refused[:120]}', the engine as "
                          f"'{refused[:120]}': the record was changed after it was saved (or saved by another "
                          "version of the rules)", i + 1)
    state = game.state_hash()
    # (the hash covers the part digests: they are recomputed only to say what differs)
    ok = command_hash(state, e.do, e.refused, e.auto, e.changed) == e.seal if e.seal else state == e.hash
    expected = None if parts is None else {**parts, **e.changed}
    if not ok:
        actual = {**start_parts(record.start), **state_parts(game)}
        if expected is not None and e.seal and not any(
                expected.get(k, "") != actual.get(k, "") for k in set(expected) | set(actual)
                if not k.startswith("record.")):
            raise RecordError(f"{where}: its hash doesn't match what the record says of it (the state after it "
                              "does): its text, seat, auto flag, refusal or hash was changed after it was saved",
                              i + 1)
        what = _differs(expected, actual) if expected is not None else "the state hash differs"
        raise RecordError(f"{where}: the state after it doesn't match the record's hash — {what}: the record "
                          "was changed after it was saved (or saved by another version of the rules)", i + 1)
    e.hash = state
    return expected


def replay_iter(record: MatchRecord, db: CardDB, upto: int | None = None) -> Iterator[Game]:
    """The match's states: the start, then after each command (the same Game object, moved on each time;
    clone what you keep). Raises RecordError at the first command that doesn't match the record."""
    game, _ = begin(record, db)
    yield game
    parts: dict[str, str] | None = dict(record.start_parts)
    for i in range(len(record.entries) if upto is None else min(upto, len(record.entries))):
        parts = step(game, record, i, parts)
        yield game


def replay(record: MatchRecord, db: CardDB, upto: int | None = None) -> Game:
    """Replay the record (to its end, or its first `upto` commands), checking every hash."""
    game, _, _ = resume(record, db, upto)
    return game


def resume(record: MatchRecord, db: CardDB, upto: int | None = None) -> tuple[Game, list[Deck], Recorder]:
    """Replay a record to continue the match: the game, its decks and a recorder in step with it."""
    game, decks = begin(record, db)
    first = game.clone()
    parts: dict[str, str] | None = dict(record.start_parts)
    n = len(record.entries) if upto is None else min(upto, len(record.entries))
    for i in range(n):
        parts = step(game, record, i, parts)
    trimmed = MatchRecord(record.start, record.start_hash, record.start_parts, record.entries[:n], record.app,
                          dict(record.agents), dict(record.cards))
    return game, decks, Recorder.at(trimmed, game, first)


# ---------------------------------------------------------------------------------------------- files

class WouldReplace(BadInput, FileExistsError):
    """`save` refused to replace a file that isn't a match record (a deck typed in the wrong place): the
    app asks, the command line needs --force (both then call `allow_replace`)."""


_REPLACE_ALLOWED: set[str] = set()


def allow_replace(path: Path) -> None:
    """Let the next `save` to `path` replace the regular file there even if it isn't a match record."""
    _REPLACE_ALLOWED.add(os.path.abspath(path))


def is_record_file(path: Path) -> bool:
    """Whether `path` is a regular file that begins like a c1k match record (the head of the file only)."""
    return place_refusal(path) is None and os.path.lexists(path) and same_kind(path, "records")


def save_refusal(path: Path, force: bool = False) -> str:
    """Why `save` would refuse `path` ("" if it wouldn't): a folder, a device, a FIFO, a socket or a
    symbolic link always; a regular file that isn't a match record unless `force` (engine/safeio.py's
    policy for every file c1k writes)."""
    why = write_refusal(path, "records", force or os.path.abspath(path) in _REPLACE_ALLOWED)
    return "" if why is None else str(why)


def save(record: MatchRecord, path: Path) -> None:
    """Write the record atomically. Raises OSError (the caller shows it); never leaves a temporary file.
    Never replaces a folder, a device, a FIFO, a socket or a link; a regular file that isn't a match record
    only after `allow_replace` (WouldReplace otherwise)."""
    text = record.to_json()
    for folder in (path.parent, *path.parent.parents):   # the nearest existing ancestor must be a folder
        if folder.exists():
            if not folder.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder")
            break
    if path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(errno.EISDIR, f"{path} is a folder, not a file")
    try:
        write_atomic(path, text, "records", os.path.abspath(path) in _REPLACE_ALLOWED, make_folder=True)
    except WriteRefused as err:
        if err.replaceable:
            raise WouldReplace(errno.EEXIST, str(err)) from err
        raise
    _REPLACE_ALLOWED.discard(os.path.abspath(path))      # it is a match record now


_MESSAGES = {
    "dict_type": "expected a table ({...})", "list_type": "expected a list ([...])",
    "string_type": "expected text (in quotes)", "int_type": "expected a whole number",
    "bool_type": "expected true or false", "missing": "missing", "extra_forbidden": "unknown key",
    "model_type": "expected a table ({...})",
}


def _problems(err: ValidationError, path: str) -> list[str]:
    out = []
    for e in err.errors(include_url=False)[:20]:
        loc = list(e["loc"])
        if len(loc) >= 2 and loc[0] == "commands" and isinstance(loc[1], int):
            where = f"command {loc[1] + 1}" + "".join(f".{x}" for x in loc[2:])
        else:
            where = ".".join(str(x) for x in loc) or "the record"
        typ = e["type"]
        msg = _MESSAGES.get(typ) or str(e["msg"]).removeprefix("Value error, ")
        if typ in ("dict_type", "list_type", "string_type", "int_type", "bool_type", "model_type"):
            got = json.dumps(e.get("input"), ensure_ascii=False, default=str)
            msg += f", not {got[:40]}"
        out.append(f"{path}: {where}: {msg}")
    return out


def from_data(data: object, path: str = "<record>") -> MatchRecord:
    """Validate parsed JSON as a match record (every problem listed), or raise RecordError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path}: not a match record (expected \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        shown = json.dumps(version, default=str)[:40]
        if version == 1 and type(version) is int:
            raise RecordError(f"{path}: a version 1 record (c1k 0.1) holds no state hashes, so it can't be "
                              f"checked; this c1k reads version {VERSION} records only")
        if version == 2 and type(version) is int:
            raise RecordError(f"{path}: a version 2 record: its hashes don't cover the players' names, the app "
                              "settings or the AI seats, so a changed one can't be told from a saved one; this "
                              f"c1k reads version {VERSION} records only (finish the match with the c1k that "
                              "saved it)")
        raise RecordError(f"{path}: unknown record version {shown}; this c1k reads version {VERSION}")
    try:
        m = RecordFile.model_validate(data)
    except ValidationError as err:
        raise RecordError("\n".join(_problems(err, path))) from err
    except RecursionError as err:
        raise RecordError(f"{path}: nested too deeply to be a match record") from err
    if (m.scenario is None) == (m.decks is None):
        raise RecordError(f"{path}: a record starts from two 'decks' (with a 'seed') or from a 'scenario'")
    if m.scenario is not None:
        start = Start(scenario={"path": m.scenario.path, "data": m.scenario.data})
    else:
        if m.seed is None:
            raise RecordError(f"{path}: seed: missing (the StateSeed the decks were shuffled with)")
        assert m.decks is not None
        start = Start(tuple(d.model_dump(exclude_none=True) for d in m.decks), int(m.seed),
                      (m.players.get("p1", "p1"), m.players.get("p2", "p2")), dict(m.options))
    entries = [Entry(c.do, "", c.refused, c.auto, dict(c.changed), seal=c.hash) for c in m.commands]
    agents: dict[str, tuple[str, int]] = {str(seat): (a.agent, int(a.seed)) for seat, a in m.agents.items()}
    cards = m.cards.model_dump() if m.cards is not None else {}
    return MatchRecord(start, "", dict(m.start.parts), entries, dict(m.app), agents, cards, seal=m.start.hash)


def load(path: Path) -> MatchRecord:
    """Read and validate a record file; any problem is a RecordError with a message."""
    try:
        raw = read_bounded(path, "records")      # a regular file of at most 16 MB, checked before reading
    except ReadRefused as err:
        raise RecordError(str(err)) from err
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"{path}: not UTF-8 text (byte {err.start}): not a match record") from err
    try:
        data = loads_json(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path}:{err.lineno}: not valid JSON: {err.msg}") from err
    except DuplicateKey as err:                   # other JSON readers would see another record
        raise RecordError(f"{path}: not a match record: {err}") from err
    except RecursionError as err:                 # nesting 10,000 deep
        raise RecordError(f"{path}: can't be read as a match record: lists or tables nested too deeply") from err
    except ValueError as err:                     # a 5,000-digit number
        raise RecordError(f"{path}: can't be read as a match record: {err}") from err
    return from_data(data, str(path))


__all__ = [
    "DECK_PART_NAMES", "FORMAT", "MAX_COMMAND_CHARS", "MAX_COPIES_IN_RECORD", "OPTION_BOUNDS",
    "PART_NAMES", "SEED_LIMIT", "VERSION", "AgentSeat", "CardsEntry", "CommandEntry", "CommandStart",
    "Count", "DeckEntry", "Entry", "MatchRecord", "RecordError", "RecordFile", "Recorder",
    "ScenarioStart", "Start", "WouldReplace", "allow_replace", "begin", "begin_game", "command_hash",
    "from_data", "head_parts", "is_record_file", "load", "part_label", "play_line", "record_of",
    "replay", "replay_iter", "resume", "reveal_reason", "save", "save_refusal", "start_parts",
    "start_seal", "state_parts", "step",
]
