"""Scenarios (docs/formats.md §4): set up a position, play commands, check the result.

`load_scenario(path)` parses and validates a file; `build(scn)` makes the Game at the start of its
window (advanced to the first decision exactly as a match would); `run(scn)` plays its steps and
returns a `ScenarioResult` naming the first failing step with expected and actual values;
`check_files(paths)` runs every file and folder given and `tally(results)` is the closing line.

A scenario file is input a person typed: every problem in it is a message naming the file, the line
(where TOML lets us find it), the key and what was expected — never a traceback.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import turn
from engine.actions import IllegalAction, MalformedCommand
from engine.cards import (
    KEYWORDS,
    NUMBERED_KEYWORDS,
    STATUSES,
    CardDB,
    CardDef,
    CardFileError,
    check_keyword,
    check_references,
    load_card_db,
    parse_cards_located,
    read_toml,
    suggest,
)
from engine.game import Game, RulesLoopError
from engine.safeio import control_refusal
from engine.state import (
    BOARD,
    COMMAND,
    GRAVEYARD,
    HAND,
    LIBRARY,
    RELICS,
    SET,
    WINDOW_INDEX,
    WINDOWS,
    ZONE_NAMES,
    MatchOptions,
    Perm,
    player_name,
)

SCENARIO_KEYS = {"title", "rule", "seed", "turn", "active", "window", "options", "description", "goal"}
PLAYER_KEYS = {"life", "influence", "capacity", "hand", "library", "graveyard", "board", "relics", "champion",
               "seat", "set", "name"}
BOARD_KEYS = {"card", "as", "slot", "damage", "status", "counters", "exhausted", "deployed_this_turn"}
STEP_KEYS = {"do", "expect", "rejected", "malformed", "reason_contains", "note"}
UNIT_EXPECT = {"zone", "damage", "power", "health", "max_health", "statuses", "counters", "exhausted", "keywords"}
PLAYER_EXPECT = {"life", "influence", "capacity", "hand", "hand_size", "library_size", "graveyard", "board",
                 "relics", "set", "ward"}
TOP_EXPECT = {"window", "phase", "turn", "active", "priority", "decider", "winner", "stack", "pending",
              "log_contains", "units", "p1", "p2"}
#: MatchOptions fields a scenario may set (read from the dataclass, so new options need no edit here)
OPTION_KEYS = {f.name for f in dataclasses.fields(MatchOptions)}
PENDING_KINDS = ("priority", "attackers", "blockers", "interrupt", "choice", "none")
PHASES = tuple(dict.fromkeys(w.split(".", 1)[0] for w in WINDOWS))
#: `expect` keys holding card names, compared in any order
NAME_LISTS = frozenset({"hand", "graveyard", "board", "relics", "set"})

# sane bounds: a scenario is a position a person sets up; beyond these it is a typo (or an attack)
MAX_SEED = 2**64 - 1
MAX_TURN = 10_000
MAX_NUMBER = 999          # life, influence, damage, counters, expected numbers
MAX_ZONE_CARDS = 200      # cards in one zone
MAX_STEPS = 10_000
MAX_COMMAND = 10_000      # characters in one command


@dataclass
class Scenario:
    path: str
    data: dict[str, Any]
    db: CardDB
    title: str = ""
    rule: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ScenarioResult:
    path: str
    title: str
    ok: bool
    steps_run: int
    message: str = ""


class ScenarioError(CardFileError):
    pass


# ---------------------------------------------------------------------------------------------- lines

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")


def locate(text: str, loc: tuple[str | int, ...]) -> int:
    """Best-effort 1-based line of a key path (`("step", 2, "expect", "p1", "life")`) in TOML text."""
    lines = text.splitlines()
    if not loc or not lines:
        return 1
    top = str(loc[0])
    index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else 0
    start: int | None = None
    end = len(lines)
    seen = -1
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if m is None:
            continue
        name = m.group(2).strip().strip('"')
        if start is None:
            if name == top:
                seen += 1
                if m.group(1) == "[" or seen == index:
                    start = i
        elif name == top or not name.startswith(top + "."):
            end = i
            break
    if start is None:   # a root-level dotted or inline key: `p1.life = 3`, `p1 = { ... }`
        pat = re.compile(rf"^\s*\"?{re.escape(top)}\"?\s*[=.]")
        return next((i + 1 for i, line in enumerate(lines) if pat.match(line)), 1)
    for key in reversed([str(k) for k in loc[1:] if isinstance(k, str)]):
        pat = re.compile(rf"(^|[\s{{,.\[])\"?{re.escape(key)}\"?\s*[=.]")
        for j in range(start + 1, end):
            if pat.search(lines[j].split("#", 1)[0]):
                return j + 1
    return start + 1


def _label(loc: tuple[str | int, ...]) -> str:
    out = ""
    for k in loc:
        out += f"[{k + 1}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def _show(v: object) -> str:
    kind = {bool: "true/false", int: "a whole number", float: "a number with a fraction", str: "text",
            list: "a list", dict: "a table"}.get(type(v), type(v).__name__)
    r = repr(v)
    return f"{r[:40]}{'…' if len(r) > 40 else ''} ({kind})"


class _Check:
    """Collects the problems of one scenario file, each `file:line: key: what was expected`."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.problems: list[str] = []

    def bad(self, loc: tuple[str | int, ...], msg: str) -> None:
        self.problems.append(f"{self.where(loc)}: {_label(loc)}: {msg}")

    def where(self, loc: tuple[str | int, ...]) -> str:
        # (finding a line scans the file: past 100 problems, the key path alone must do)
        return f"{self.path}:{locate(self.text, loc)}" if self.text and len(self.problems) < 100 else self.path

    def keys(self, loc: tuple[str | int, ...], table: dict[str, Any], allowed: set[str]) -> None:
        for k in table:
            if k not in allowed:
                self.problems.append(f"{self.where((*loc, k))}: unknown key '{_label((*loc, k))}'"
                                     f"{suggest(k, sorted(allowed))}; expected one of {', '.join(sorted(allowed))}")

    def table(self, loc: tuple[str | int, ...], v: object) -> dict[str, Any] | None:
        if isinstance(v, dict):
            return v
        self.bad(loc, f"expected a table, got {_show(v)}")
        return None

    def num(self, loc: tuple[str | int, ...], v: object, lo: int, hi: int) -> bool:
        if not isinstance(v, int) or isinstance(v, bool):
            self.bad(loc, f"expected a whole number from {lo} to {hi}, got {_show(v)}")
            return False
        if not lo <= v <= hi:
            self.bad(loc, f"{v} is out of bounds: expected a whole number from {lo} to {hi}")
            return False
        return True

    def flag(self, loc: tuple[str | int, ...], v: object) -> bool:
        if isinstance(v, bool):
            return True
        self.bad(loc, f"expected true or false, got {_show(v)}")
        return False

    def txt(self, loc: tuple[str | int, ...], v: object, limit: int = 1000) -> bool:
        if not isinstance(v, str):
            self.bad(loc, f"expected text (in quotes), got {_show(v)}")
            return False
        if len(v) > limit:
            self.bad(loc, f"{len(v)} characters: at most {limit}")
            return False
        why = control_refusal(v.replace("\n", " ").replace("\t", " "), "text")
        if why:
            self.bad(loc, why)
            return False
        return True

    def word(self, loc: tuple[str | int, ...], v: object, choices: tuple[str, ...] | list[str]) -> bool:
        if not self.txt(loc, v):
            return False
        if v not in choices:
            self.bad(loc, f"'{v}' is not one of {', '.join(choices)}{suggest(str(v), choices)}")
            return False
        return True

    def strings(self, loc: tuple[str | int, ...], v: object, limit: int = MAX_ZONE_CARDS) -> list[str]:
        if not isinstance(v, list):
            self.bad(loc, f"expected a list of text, got {_show(v)}")
            return []
        if len(v) > limit:
            self.bad(loc, f"{len(v)} entries: at most {limit}")
            return []
        out = []
        for i, x in enumerate(v):
            if self.txt((*loc, i), x):
                out.append(x)
        return out

    def card(self, loc: tuple[str | int, ...], name: str, db: CardDB, kind: str | None = None) -> CardDef | None:
        d = db.get(name)
        if d is None:
            self.bad(loc, f"unknown card '{name}'{suggest(name, _names(db))}")
            return None
        if kind is not None and d.type != kind:
            self.bad(loc, f"'{name}' is {_a(d.type)}, not {_a(kind)}")
            return None
        return d


def _a(word: str) -> str:
    return f"{'an' if word[0] in 'aeio' else 'a'} {word}"


def _names(db: CardDB) -> list[str]:
    return list(db.by_id) + [c.name for c in db.by_id.values()]


# ---------------------------------------------------------------------------------------------- loading

def load_scenario(path: Path, db: CardDB | None = None) -> Scenario:
    try:
        data, text = read_toml(path, "scenarios")
    except CardFileError as err:
        raise ScenarioError(err.path, err.problems) from err
    return scenario_from_data(data, str(path), db, text)


def scenario_from_data(data: dict[str, Any], path: str, db: CardDB | None = None, text: str = "") -> Scenario:
    """Validate parsed scenario TOML; raise ScenarioError listing every problem (file:line: key: …)."""
    c = _Check(path, text)
    base = db if db is not None else load_card_db()
    c.keys((), data, {"scenario", "card", "p1", "p2", "step", "lesson"})   # lesson: engine/lessons.py
    head = c.table(("scenario",), data.get("scenario", {})) or {}
    options = _check_head(c, head)
    scn_db = base.copy()
    if "card" in data:
        raw = data["card"]
        if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
            c.bad(("card",), "expected [[card]] tables (an array of tables), got " + _show(raw))
        else:
            replacing = {str(x.get("id")) for x in raw if x.get("replaces") is True}
            for i, x in enumerate(raw):
                if "replaces" in x and not isinstance(x["replaces"], bool):
                    c.bad(("card", i, "replaces"), f"expected true or false, got {_show(x['replaces'])}")
            located, more = parse_cards_located([{k: v for k, v in x.items() if k != "replaces"} for x in raw],
                                                path, text)
            c.problems += more
            inline: dict[str, str] = {}     # an inline card's id -> where it is defined (one table an id)
            named: dict[str, tuple[str, str]] = {}    # its name, lower-case -> (its id, where): one card a name
            for card, where in located:
                if card.id in inline:
                    c.problems.append(f"{where}: duplicate card id '{card.id}' (already defined at "
                                      f"{inline[card.id]}): give each inline card its own id")
                    continue
                inline[card.id] = where
                twin = named.get(card.name.lower())
                if twin is not None:
                    c.problems.append(f"{where}: card '{card.id}': duplicate card name '{card.name}' (card "
                                      f"'{twin[0]}' at {twin[1]}): give each inline card its own name")
                    continue
                named[card.name.lower()] = (card.id, where)
                other = base.by_name.get(card.name.lower())
                shadowed = base.by_id.get(card.id) or other
                if shadowed is not None and card.id not in replacing:
                    c.problems.append(f"{where}: card '{card.id}' ('{card.name}') would replace the bundled card "
                                     f"'{shadowed.id}' ('{shadowed.name}'); give it another id and name, or say "
                                     "so with 'replaces = true' in its table")
                scn_db.by_id[card.id] = card
                scn_db.by_name[card.name.lower()] = card
                scn_db.origin[card.id] = where if text else path
            c.problems += check_references(scn_db, only={card.id for card, _ in located})
    aliases: dict[str, str] = {}
    for p in ("p1", "p2"):
        ps = c.table((p,), data.get(p, {}))
        if ps is not None:
            _check_player(c, p, ps, scn_db, options, aliases)
    steps_raw = data.get("step", [])
    steps: list[dict[str, Any]] = []
    if not isinstance(steps_raw, list) or not all(isinstance(x, dict) for x in steps_raw):
        c.bad(("step",), "expected [[step]] tables (an array of tables), got " + _show(steps_raw))
    elif len(steps_raw) > MAX_STEPS:
        c.bad(("step",), f"{len(steps_raw)} steps: at most {MAX_STEPS}")
    else:
        steps = steps_raw
        for i, st in enumerate(steps):
            _check_step(c, i, st, scn_db, aliases)
    if c.problems:
        raise ScenarioError(path, c.problems)
    title = head.get("title", Path(path).stem)
    return Scenario(path, data, scn_db, str(title), str(head.get("rule", "")), steps)


def _check_head(c: _Check, head: dict[str, Any]) -> MatchOptions:
    loc: tuple[str | int, ...] = ("scenario",)
    c.keys(loc, head, SCENARIO_KEYS)
    for k in ("title", "rule", "description", "goal"):
        if k in head:
            c.txt((*loc, k), head[k], 10_000)
    if "seed" in head:
        c.num((*loc, "seed"), head["seed"], 0, MAX_SEED)
    if "turn" in head:
        c.num((*loc, "turn"), head["turn"], 1, MAX_TURN)
    if "active" in head:
        c.word((*loc, "active"), head["active"], ("p1", "p2"))
    if "window" in head:
        c.word((*loc, "window"), head["window"], WINDOWS)
    opts = c.table((*loc, "options"), head.get("options", {})) or {}
    c.keys((*loc, "options"), opts, OPTION_KEYS)
    defaults = MatchOptions()
    good: dict[str, Any] = {}
    for k, v in opts.items():
        if k not in OPTION_KEYS:
            continue
        want = getattr(defaults, k)
        ok = (c.flag((*loc, "options", k), v) if isinstance(want, bool)
              else c.num((*loc, "options", k), v, 1 if k == "unit_slots" else 0,   # (a board has a unit slot)
                         12 if k.endswith("_slots") else MAX_TURN)
              if isinstance(want, int) else c.txt((*loc, "options", k), v, 100))
        if ok:
            good[k] = v
    try:
        return MatchOptions(**good)
    except (TypeError, ValueError) as err:
        c.bad((*loc, "options"), f"not valid match options: {err}")
        return MatchOptions()


def _check_player(c: _Check, p: str, ps: dict[str, Any], db: CardDB, options: MatchOptions,
                  aliases: dict[str, str]) -> None:
    c.keys((p,), ps, PLAYER_KEYS)
    if "name" in ps and c.txt((p, "name"), ps["name"], 100) and not ps["name"].strip():
        c.bad((p, "name"), "a player's name can't be empty")
    elif "name" in ps and isinstance(ps["name"], str) and control_refusal(ps["name"], "a player's name"):
        c.bad((p, "name"), control_refusal(ps["name"], "a player's name"))
    if "life" in ps:
        c.num((p, "life"), ps["life"], -MAX_NUMBER, MAX_NUMBER)
    for k in ("influence", "capacity"):
        if k in ps:
            c.num((p, k), ps[k], 0, MAX_NUMBER)
    for k in ("hand", "library", "graveyard", "set"):
        if k in ps:
            for i, name in enumerate(c.strings((p, k), ps[k])):
                d = c.card((p, k, i), name, db)
                if k == "set" and d is not None and "ambush" not in d.keywords:
                    c.bad((p, k, i), f"'{name}' has no Ambush: only a card with Ambush can be Set (C1K 3)")
    seat: CardDef | None = None
    if "champion" in ps and c.txt((p, "champion"), ps["champion"]):
        c.card((p, "champion"), ps["champion"], db, "champion")
    if "seat" in ps and c.txt((p, "seat"), ps["seat"]):
        seat = c.card((p, "seat"), ps["seat"], db, "seat")
    slots = dict(zip(("board", "relics"), options.slots(seat.modifiers if seat else {}), strict=True))
    for zone, kind in (("board", "unit"), ("relics", "relic")):
        if zone not in ps:
            continue
        entries = ps[zone]
        if not isinstance(entries, list):
            c.bad((p, zone), f"expected a list of cards ({{ card = \"…\", … }} or names), got {_show(entries)}")
            continue
        n = slots[zone]
        if len(entries) > n:
            c.bad((p, zone), f"{len(entries)} cards but only {n} {'unit' if zone == 'board' else 'relic'} slots")
            continue
        used: dict[int, int] = {}
        for i, entry in enumerate(entries):
            loc: tuple[str | int, ...] = (p, zone, i)
            e: dict[str, Any] = entry if isinstance(entry, dict) else {"card": entry}
            if isinstance(entry, dict):
                c.keys(loc, entry, BOARD_KEYS)
            if "card" not in e:
                c.bad(loc, "needs 'card' (a card name or id)")
            elif c.txt((*loc, "card"), e["card"]):
                c.card((*loc, "card"), e["card"], db, kind)
            if "as" in e and c.txt((*loc, "as"), e["as"], 100):
                alias = e["as"].lower()
                if alias in aliases:
                    c.bad((*loc, "as"), f"alias '{e['as']}' is already used by {aliases[alias]}")
                elif alias in ("p1", "p2"):
                    c.bad((*loc, "as"), "'p1' and 'p2' name the players; choose another alias")
                aliases[alias] = _label(loc)
            if "slot" in e and c.num((*loc, "slot"), e["slot"], 1, n):
                if e["slot"] in used:
                    c.bad((*loc, "slot"), f"slot {e['slot']} is already taken by {p}.{zone}[{used[e['slot']]}]")
                used[e["slot"]] = i + 1
            if "damage" in e:
                c.num((*loc, "damage"), e["damage"], 0, MAX_NUMBER)
            if "status" in e:
                for j, s in enumerate(c.strings((*loc, "status"), e["status"], 10)):
                    c.word((*loc, "status", j), s, STATUSES)
            if "counters" in e:
                counters = c.table((*loc, "counters"), e["counters"]) or {}
                if len(counters) > 20:
                    c.bad((*loc, "counters"), f"{len(counters)} kinds of counter: at most 20")
                else:
                    for k, v in counters.items():
                        c.num((*loc, "counters", k), v, 0, MAX_NUMBER)
            for k in ("exhausted", "deployed_this_turn"):
                if k in e:
                    c.flag((*loc, k), e[k])


def _check_step(c: _Check, i: int, st: dict[str, Any], db: CardDB, aliases: dict[str, str]) -> None:
    loc: tuple[str | int, ...] = ("step", i)
    c.keys(loc, st, STEP_KEYS)
    if "do" in st:
        c.txt((*loc, "do"), st["do"], MAX_COMMAND)
    for k in ("rejected", "malformed"):
        if k in st and c.flag((*loc, k), st[k]) and st[k] and "do" not in st:
            c.bad((*loc, k), "a step that expects a refusal needs a command ('do')")
    if st.get("rejected") is True and st.get("malformed") is True:
        c.bad((*loc, "malformed"), "a command is either malformed (fails to parse) or rejected (refused by the "
                                   "rules), not both")
    if "reason_contains" in st and c.txt((*loc, "reason_contains"), st["reason_contains"]) \
            and st.get("rejected") is not True and st.get("malformed") is not True:
        c.bad((*loc, "reason_contains"), "needs 'rejected = true' or 'malformed = true' in the same step")
    if "note" in st:
        c.txt((*loc, "note"), st["note"], 10_000)
    if "expect" in st:
        exp = c.table((*loc, "expect"), st["expect"])
        if exp is not None:
            _check_expect_keys(c, (*loc, "expect"), exp, db, aliases)


def _check_expect_keys(c: _Check, loc: tuple[str | int, ...], exp: dict[str, Any], db: CardDB,
                       aliases: dict[str, str]) -> None:
    c.keys(loc, exp, TOP_EXPECT)
    words: dict[str, tuple[str, ...]] = {
        "window": WINDOWS, "phase": PHASES, "active": ("p1", "p2"), "priority": ("p1", "p2", "none"),
        "decider": ("p1", "p2", "none"), "winner": ("p1", "p2", "draw", "none"), "pending": PENDING_KINDS,
    }
    for k, choices in words.items():
        if k in exp:
            c.word((*loc, k), exp[k], choices)
    if "turn" in exp:
        c.num((*loc, "turn"), exp["turn"], 1, MAX_TURN)
    if "stack" in exp:
        c.strings((*loc, "stack"), exp["stack"])
    if "log_contains" in exp:
        c.txt((*loc, "log_contains"), exp["log_contains"])
    for p in ("p1", "p2"):
        if p not in exp:
            continue
        pe = c.table((*loc, p), exp[p])
        if pe is None:
            continue
        c.keys((*loc, p), pe, PLAYER_EXPECT)
        for k, v in pe.items():
            if k in NAME_LISTS:
                for j, name in enumerate(c.strings((*loc, p, k), v)):
                    c.card((*loc, p, k, j), name, db)
            elif k in ("life",):
                c.num((*loc, p, k), v, -MAX_NUMBER, MAX_NUMBER)
            elif k in PLAYER_EXPECT:
                c.num((*loc, p, k), v, 0, MAX_NUMBER)
    if "units" in exp:
        units = c.table((*loc, "units"), exp["units"]) or {}
        for alias, fields in units.items():
            uloc = (*loc, "units", alias)
            if alias.lower() not in aliases and alias.lower() not in ("p1", "p2") and db.get(alias) is None:
                c.bad(uloc, f"no alias or card called '{alias}'{suggest(alias, list(aliases) + _names(db))}")
            f = c.table(uloc, fields)
            if f is None:
                continue
            c.keys(uloc, f, UNIT_EXPECT)
            for k, v in f.items():
                if k == "zone":
                    c.word((*uloc, k), v, ZONE_NAMES)
                elif k in ("damage", "max_health"):
                    c.num((*uloc, k), v, 0, MAX_NUMBER)
                elif k in ("power", "health"):
                    c.num((*uloc, k), v, -MAX_NUMBER, MAX_NUMBER)
                elif k == "exhausted":
                    c.flag((*uloc, k), v)
                elif k == "statuses":
                    for j, s in enumerate(c.strings((*uloc, k), v, 10)):
                        c.word((*uloc, k, j), s, STATUSES)
                elif k == "counters":
                    for name, n in (c.table((*uloc, k), v) or {}).items():
                        c.num((*uloc, k, name), n, 0, MAX_NUMBER)
                elif k == "keywords":
                    for j, kw in enumerate(c.strings((*uloc, k), v, len(KEYWORDS))):
                        try:
                            check_keyword(kw)
                        except ValueError as err:
                            c.bad((*uloc, k, j), str(err))


# ---------------------------------------------------------------------------------------------- set-up

def _stand_in_champion(p: int, life: int) -> CardDef:
    return CardDef(id=f"champion-p{p + 1}", name=f"P{p + 1} Champion", type="champion", realm="neutral", cost=0,
                   speed="slow", power=0, health=0, life=life, voidcast=None, keywords={}, text="", effect=(),
                   abilities=(), modifiers={}, token=False)


def build(scn: Scenario) -> Game:
    """The scenario's position, advanced from the start of its window to the first decision.

    `scn` comes from `load_scenario`/`scenario_from_data`, which validated every value used here."""
    head = scn.data.get("scenario", {})
    opts = head.get("options", {})
    options = MatchOptions(**{k: v for k, v in opts.items() if k in OPTION_KEYS})
    g = Game(scn.db, options, int(head.get("seed", 0)))
    g.turn = int(head.get("turn", 1))
    if "active" in head:
        g.active = 0 if head["active"] == "p1" else 1
        g.first_player = g.active if g.turn % 2 == 1 else 1 - g.active
    else:   # who goes first is the match option `first` (rules.md §1), as in Game.new
        g.first_player = g.draw_first_player()
        g.active = g.first_player if g.turn % 2 == 1 else 1 - g.first_player
    db = scn.db
    for p in (0, 1):
        pd = scn.data.get(player_name(p), {})
        ps = g.players[p]
        ps.name = str(pd.get("name", player_name(p)))
        life = int(pd.get("life", 20))
        champ_def = db.lookup(pd["champion"]) if "champion" in pd else _stand_in_champion(p, life)
        ps.champion = g.new_card(champ_def, p, COMMAND)
        g.perms[ps.champion] = Perm(0, g.next_seq())
        if "seat" in pd:
            ps.seat = g.new_card(db.lookup(pd["seat"]), p, COMMAND)
            g.perms[ps.seat] = Perm(0, g.next_seq())
            g.apply_seat(p)
        ps.life = life
        ps.influence = int(pd.get("influence", 0))
        ps.capacity = int(pd.get("capacity", ps.influence))
        for zone_key, zone_code, lst in (("hand", HAND, ps.hand), ("library", LIBRARY, ps.library),
                                         ("graveyard", GRAVEYARD, ps.graveyard)):
            for name in pd.get(zone_key, []):
                lst.append(g.new_card(db.lookup(str(name)), p, zone_code))
        for name in pd.get("set", []):   # Veil: cards Set face down
            ps.set_cards.append(g.new_card(db.lookup(str(name)), p, SET))
        for zone_key, slots, code in (("board", ps.board, BOARD), ("relics", ps.relics, RELICS)):
            where = f"{scn.path}: {player_name(p)}.{zone_key}"
            for entry in pd.get(zone_key, []):
                e = entry if isinstance(entry, dict) else {"card": entry}
                if "slot" in e:
                    slot = int(e["slot"]) - 1
                    if not 0 <= slot < len(slots):
                        raise ScenarioError(scn.path, [f"{where}: slot {slot + 1} does not exist: "
                                                       f"expected 1 to {len(slots)}"])
                elif 0 in slots:
                    slot = slots.index(0)
                else:
                    raise ScenarioError(scn.path, [f"{where}: more cards than the {len(slots)} slots"])
                if slots[slot]:
                    raise ScenarioError(scn.path, [f"{where}: slot {slot + 1} is used twice"])
                cid = g.new_card(db.lookup(str(e["card"])), p, code)
                slots[slot] = cid
                deployed = bool(e.get("deployed_this_turn", False))
                perm = Perm(g.turn if deployed else g.turn - 1, g.next_seq())
                g.perms[cid] = perm
                d = g.card(cid)
                statuses = set(e.get("status", [])) | {s for s in ("barrier", "veiled", "rooted") if s in d.keywords}
                perm.statuses = sorted(statuses)
                perm.counters = {str(k): int(v) for k, v in e.get("counters", {}).items()}
                perm.damage = int(e.get("damage", 0))
                perm.exhausted = bool(e.get("exhausted", False))
                perm.ward = d.keywords.get("ward", 0)
                if "as" in e:
                    g.aliases[str(e["as"]).lower()] = cid
    g.log(f"Scenario: {scn.title}")
    turn.goto(g, WINDOW_INDEX[str(head.get("window", "main.priority"))])
    return g


# ---------------------------------------------------------------------------------------------- checking

def find_unit(g: Game, key: str) -> int | None:
    k = key.lower()
    if k in g.aliases:
        return g.aliases[k]
    if k in ("p1", "p2"):   # a player's Champion (docs/formats.md §1)
        return g.players[0 if k == "p1" else 1].champion
    in_play = [i for i, d in sorted(g.defs.items()) if d is not None and (d.name.lower() == k or d.id == k)]
    on_board = [i for i in in_play if g.zone[i] in (BOARD, RELICS)]
    found = on_board or in_play
    return found[0] if found else None


def keywords_of(g: Game, cid: int) -> list[str]:
    """The keywords a card has now (printed or granted), sorted, numbered ones with their number."""
    out = []
    for name in KEYWORDS:
        n = g.keyword(cid, name)
        if n is not None:
            out.append(f"{name} {n}" if name in NUMBERED_KEYWORDS else name)
    return sorted(out)


def unit_facts(g: Game, cid: int) -> dict[str, Any]:
    facts: dict[str, Any] = {"zone": ZONE_NAMES[g.zone[cid]], "keywords": keywords_of(g, cid)}
    perm = g.perms.get(cid)
    if perm is not None and g.zone[cid] in (BOARD, RELICS):
        facts.update(damage=perm.damage, power=g.power(cid), health=g.health(cid), max_health=g.max_health(cid),
                     statuses=perm.all_statuses(), counters=dict(sorted(perm.counters.items())),
                     exhausted=perm.exhausted)
    else:
        d = g.card(cid)
        facts.update(damage=0, power=d.power, health=d.health, max_health=d.health,
                     statuses=[], counters={}, exhausted=False)
    return facts


def actual(g: Game, key: str, sub: str | None = None, field_: str | None = None) -> Any:
    """The actual value of an `expect` key (docs/formats.md §4)."""
    if key == "window":
        return g.window
    if key == "phase":
        return g.phase
    if key == "turn":
        return g.turn
    if key == "active":
        return player_name(g.active)
    if key == "priority":
        return player_name(g.priority) if g.priority >= 0 else "none"
    if key == "decider":
        d = g.pending
        return player_name(d.player) if d.kind != "none" and d.player >= 0 else "none"
    if key == "winner":
        return g.outcome.result() if g.outcome else "none"
    if key == "stack":
        return [it.name for it in g.stack_view()]
    if key == "pending":
        return g.pending.kind
    if key in ("p1", "p2"):
        ps = g.players[0 if key == "p1" else 1]
        names = {"hand": ps.hand, "graveyard": ps.graveyard, "board": ps.units(),
                 "relics": [c for c in ps.relics if c], "set": ps.set_cards}
        if sub in names:
            return sorted(g.card(c).name for c in names[sub])
        if sub == "hand_size":
            return len(ps.hand)
        if sub == "library_size":
            return len(ps.library)
        if sub == "ward":
            perm = g.perms.get(ps.champion)
            return perm.ward if perm is not None else 0
        if sub in ("life", "influence", "capacity"):
            return getattr(ps, sub)
        raise KeyError(f"{key}.{sub}")
    if key == "units" and sub is not None and field_ is not None:
        cid = find_unit(g, sub)
        if cid is None:
            return f"<no card '{sub}'>"
        return unit_facts(g, cid)[field_]
    raise KeyError(key)


def _norm(key: str, value: Any) -> Any:
    if key in NAME_LISTS and isinstance(value, list):
        return sorted(str(v) for v in value)
    if key == "keywords" and isinstance(value, list):
        return sorted(" ".join(str(v).lower().split()) for v in value)
    if key == "counters" and isinstance(value, dict):
        return {str(k): int(v) for k, v in sorted(value.items()) if v}
    return value


def check_expect(g: Game, exp: dict[str, Any]) -> list[str]:
    fails: list[str] = []

    def cmp(label: str, want: Any, got: Any, key: str) -> None:
        w = _norm(key, want)
        a = _norm(key, got)
        if key in NAME_LISTS and isinstance(w, list):
            w = sorted(_canon_name(g, x) for x in w)
        if w != a:
            fails.append(f"expected {label} = {want!r}, got {got!r}")

    for key, want in exp.items():
        if key in ("p1", "p2"):
            for sub, w in want.items():
                cmp(f"{key}.{sub}", w, actual(g, key, sub), sub)
        elif key == "units":
            for alias, fields in want.items():
                for f, w in fields.items():
                    cmp(f"units.{alias}.{f}", w, actual(g, "units", alias, f), f)
        elif key == "log_contains":
            if str(want) not in "\n".join(g.log_lines):
                fails.append(f"expected the log to contain {want!r}; last lines: {g.log_lines[-5:]!r}")
        elif key == "stack":
            cmp("stack", [_canon_name(g, x) for x in want], actual(g, key), key)
        else:
            cmp(key, want, actual(g, key), key)
    return fails


def _canon_name(g: Game, x: Any) -> str:
    d = g.db.get(str(x))
    return d.name if d is not None else str(x)


def run(scn: Scenario) -> ScenarioResult:
    """Play the steps; the first failing step ends the run (its message: the step, expected, actual)."""

    def fail(step: int, msg: str) -> ScenarioResult:
        return ScenarioResult(scn.path, scn.title, False, step, msg)

    try:
        g = build(scn)
    except ScenarioError as err:
        return fail(0, "set-up failed: " + "; ".join(err.problems))
    except RulesLoopError as err:
        return fail(0, f"set-up failed: rules loop: {err}")
    except Exception as err:   # noqa: BLE001 — an engine defect, reported as a message, never a traceback
        return fail(0, f"set-up failed: the engine raised {type(err).__name__}: {err}")
    for i, st in enumerate(scn.steps, 1):
        do = st.get("do")
        where = f"step {i}" + (f" ({do!r})" if do else "")
        want = "malformed" if st.get("malformed") else "rejected" if st.get("rejected") else "accepted"
        wanted = {"malformed": "a malformed command", "rejected": "a refusal",
                  "accepted": "the command to be accepted"}[want]
        if do is not None:
            got = "accepted"
            reason = ""
            try:
                g.apply_command(str(do))
            except MalformedCommand as err:
                got, reason = "malformed", str(err)
            except IllegalAction as err:
                got, reason = "rejected", str(err)
            except RulesLoopError as err:
                return fail(i, f"{where}: rules loop: {err}")
            except Exception as err:   # noqa: BLE001 — an engine defect, reported as a message
                return fail(i, f"{where}: the engine raised {type(err).__name__}: {err}")
            if got != want:
                said = {"malformed": f"it is malformed: {reason}", "rejected": f"it was refused: {reason}",
                        "accepted": "it was accepted"}[got]
                return fail(i, f"{where}: expected {wanted}, but {said}")
            sub = st.get("reason_contains")
            if sub is not None and str(sub).lower() not in reason.lower():
                return fail(i, f"{where}: the {'refusal' if want == 'rejected' else 'message'} should contain "
                               f"{sub!r}, got {reason!r}")
        try:
            fails = check_expect(g, st.get("expect", {}))
        except Exception as err:   # noqa: BLE001 — an engine defect, reported as a message
            return fail(i, f"{where}: checking the expectations raised {type(err).__name__}: {err}")
        if fails:
            return fail(i, f"{where}: " + "; ".join(fails))
    return ScenarioResult(scn.path, scn.title, True, len(scn.steps))


def scenario_paths(paths: list[Path]) -> list[Path]:
    """Files as given; folders become their `*.scenario.toml` files (recursively, sorted)."""
    out: list[Path] = []
    for p in paths:
        out += sorted(p.rglob("*.scenario.toml")) if p.is_dir() else [p]
    return out


def check_files(paths: list[Path], db: CardDB | None = None) -> list[ScenarioResult]:
    """Run every scenario file (and every `*.scenario.toml` in each folder); one result each, in order."""
    results: list[ScenarioResult] = []
    for p in scenario_paths(paths):
        try:
            scn = load_scenario(p, db)
        except CardFileError as err:
            results.append(ScenarioResult(str(p), p.stem, False, 0, "\n  ".join(err.problems)))
            continue
        results.append(run(scn))
    return results


def tally(results: list[ScenarioResult]) -> str:
    failed = sum(not r.ok for r in results)
    return f"{len(results) - failed} passed, {failed} failed"


__all__ = [
    "BOARD_KEYS", "MAX_COMMAND", "MAX_NUMBER", "MAX_SEED", "MAX_STEPS", "MAX_TURN", "MAX_ZONE_CARDS",
    "NAME_LISTS", "OPTION_KEYS", "PENDING_KINDS", "PHASES", "PLAYER_EXPECT", "PLAYER_KEYS",
    "SCENARIO_KEYS", "STEP_KEYS", "TOP_EXPECT", "UNIT_EXPECT", "Scenario", "ScenarioError",
    "ScenarioResult", "actual", "build", "check_expect", "check_files", "find_unit", "keywords_of",
    "load_scenario", "locate", "run", "scenario_from_data", "scenario_paths", "tally", "unit_facts",
]
