"""Scenarios (formats.md §4): set up a position, play commands, check the result.

`load_scenario(path)` parses and validates a file; `build(scn)` makes the Game at the start of its
window (advanced to the first decision exactly as a match would); `run(scn)` plays its steps and
returns a `ScenarioResult` naming the first failing step with expected and actual values.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import IllegalAction, MalformedCommand
from engine.cards import CardDB, CardDef, CardFileError, load_card_db, parse_cards, suggest
from engine.game import Game, RulesLoopError
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
UNIT_EXPECT = {"zone", "damage", "power", "health", "max_health", "statuses", "counters", "exhausted"}
PLAYER_EXPECT = {"life", "influence", "capacity", "hand", "hand_size", "library_size", "graveyard", "board"}
TOP_EXPECT = {"window", "phase", "turn", "active", "priority", "winner", "stack", "pending", "log_contains",
              "units", "p1", "p2"}
OPTION_KEYS = {"practice", "max_turns", "actor_keeps_priority"}


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


def _check_keys(where: str, table: dict[str, Any], allowed: set[str], problems: list[str], path: str) -> None:
    for k in table:
        if k not in allowed:
            problems.append(f"{path}: unknown key '{where}{k}'{suggest(k, sorted(allowed))}")


def load_scenario(path: Path, db: CardDB | None = None) -> Scenario:
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(str(path), [f"{path}: not valid TOML: {err}"]) from err
    return scenario_from_data(data, str(path), db, text)


def scenario_from_data(data: dict[str, Any], path: str, db: CardDB | None = None, text: str = "") -> Scenario:
    problems: list[str] = []
    base = db if db is not None else load_card_db()
    _check_keys("", data, {"scenario", "card", "p1", "p2", "step"}, problems, path)
    head = data.get("scenario", {})
    if not isinstance(head, dict):
        problems.append(f"{path}: [scenario] must be a table")
        head = {}
    _check_keys("scenario.", head, SCENARIO_KEYS, problems, path)
    window = head.get("window", "main.priority")
    if window not in WINDOW_INDEX:
        problems.append(f"{path}: scenario.window '{window}' is not a window id{suggest(str(window), WINDOWS)}")
    if head.get("active", "p1") not in ("p1", "p2"):
        problems.append(f"{path}: scenario.active must be 'p1' or 'p2'")
    _check_keys("scenario.options.", head.get("options", {}), OPTION_KEYS, problems, path)
    scn_db = base.copy()
    if "card" in data:
        cards, more = parse_cards(data["card"], path, text)
        problems += more
        for c in cards:
            scn_db.by_id[c.id] = c
            scn_db.by_name[c.name.lower()] = c
    for p in ("p1", "p2"):
        ps = data.get(p, {})
        _check_keys(f"{p}.", ps, PLAYER_KEYS, problems, path)
        for zone in ("hand", "library", "graveyard", "set"):
            for name in ps.get(zone, []):
                if scn_db.get(str(name)) is None:
                    problems.append(f"{path}: {p}.{zone}: unknown card '{name}'{suggest(str(name), _names(scn_db))}")
        for zone in ("board", "relics"):
            for entry in ps.get(zone, []):
                e = entry if isinstance(entry, dict) else {"card": entry}
                _check_keys(f"{p}.{zone}[].", e, BOARD_KEYS, problems, path)
                if scn_db.get(str(e.get("card", ""))) is None:
                    problems.append(f"{path}: {p}.{zone}: unknown card '{e.get('card')}'"
                                    f"{suggest(str(e.get('card')), _names(scn_db))}")
    steps = data.get("step", [])
    for i, st in enumerate(steps, 1):
        _check_keys(f"step[{i}].", st, {"do", "expect", "rejected", "reason_contains", "note"}, problems, path)
        exp = st.get("expect", {})
        _check_keys(f"step[{i}].expect.", exp, TOP_EXPECT, problems, path)
        for p in ("p1", "p2"):
            _check_keys(f"step[{i}].expect.{p}.", exp.get(p, {}), PLAYER_EXPECT, problems, path)
        for alias, u in exp.get("units", {}).items():
            _check_keys(f"step[{i}].expect.units.{alias}.", u, UNIT_EXPECT, problems, path)
    if problems:
        raise ScenarioError(path, problems)
    return Scenario(path, data, scn_db, str(head.get("title", Path(path).stem)), str(head.get("rule", "")), steps)


def _names(db: CardDB) -> list[str]:
    return list(db.by_id) + [c.name for c in db.by_id.values()]


def _stand_in_champion(p: int, life: int) -> CardDef:
    return CardDef(id=f"champion-p{p + 1}", name=f"P{p + 1} Champion", type="champion", realm="neutral", cost=0,
                   speed="slow", power=0, health=0, life=life, voidcast=None, keywords={}, text="", effect=(),
                   abilities=(), modifiers={}, token=False)


def build(scn: Scenario) -> Game:
    """The scenario's position, advanced from the start of its window to the first decision."""
    head = scn.data.get("scenario", {})
    opts = head.get("options", {})
    options = MatchOptions(practice=bool(opts.get("practice", False)), max_turns=int(opts.get("max_turns", 0)),
                           actor_keeps_priority=bool(opts.get("actor_keeps_priority", False)))
    g = Game(scn.db, options, int(head.get("seed", 0)))
    g.turn = int(head.get("turn", 1))
    g.active = 0 if head.get("active", "p1") == "p1" else 1
    g.first_player = g.active if g.turn % 2 == 1 else 1 - g.active
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
            for entry in pd.get(zone_key, []):
                e = entry if isinstance(entry, dict) else {"card": entry}
                cid = g.new_card(db.lookup(str(e["card"])), p, code)
                slot = int(e["slot"]) - 1 if "slot" in e else slots.index(0)
                if slots[slot]:
                    raise ScenarioError(scn.path, [f"{scn.path}: {player_name(p)}.{zone_key}: slot {slot + 1} is used twice"])
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
    g.goto(WINDOW_INDEX[str(head.get("window", "main.priority"))])
    return g


def find_unit(g: Game, key: str) -> int | None:
    k = key.lower()
    if k in g.aliases:
        return g.aliases[k]
    in_play = [i for i in range(1, len(g.defs)) if g.card(i).name.lower() == k or g.card(i).id == k]
    on_board = [i for i in in_play if g.zone[i] in (BOARD, RELICS)]
    found = on_board or in_play
    return found[0] if found else None


def unit_facts(g: Game, cid: int) -> dict[str, Any]:
    facts: dict[str, Any] = {"zone": ZONE_NAMES[g.zone[cid]]}
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
    """The actual value of an `expect` key (formats.md §4)."""
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
    if key == "winner":
        return g.outcome.result() if g.outcome else "none"
    if key == "stack":
        return [it.name for it in g.stack_view()]
    if key == "pending":
        return g.pending.kind
    if key in ("p1", "p2"):
        ps = g.players[0 if key == "p1" else 1]
        assert sub is not None
        names = {"hand": ps.hand, "graveyard": ps.graveyard, "board": ps.units()}
        if sub in names:
            return sorted(g.card(c).name for c in names[sub])
        if sub == "hand_size":
            return len(ps.hand)
        if sub == "library_size":
            return len(ps.library)
        return getattr(ps, sub)
    if key == "units":
        assert sub is not None and field_ is not None
        cid = find_unit(g, sub)
        if cid is None:
            return f"<no card '{sub}'>"
        return unit_facts(g, cid)[field_]
    raise KeyError(key)


def _norm(key: str, value: Any) -> Any:
    if key in ("hand", "graveyard", "board") and isinstance(value, list):
        return sorted(str(v) for v in value)
    if key == "counters" and isinstance(value, dict):
        return {str(k): int(v) for k, v in sorted(value.items()) if v}
    return value


def check_expect(g: Game, exp: dict[str, Any]) -> list[str]:
    fails: list[str] = []

    def cmp(label: str, want: Any, got: Any, key: str) -> None:
        w = _norm(key, want)
        a = _norm(key, got)
        if key in ("hand", "graveyard", "board") and isinstance(w, list):
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
    try:
        g = build(scn)
    except (KeyError, ValueError) as err:
        return ScenarioResult(scn.path, scn.title, False, 0, f"set-up failed: {err}")
    for i, st in enumerate(scn.steps, 1):
        do = st.get("do")
        where = f"step {i}" + (f" ({do!r})" if do else "")
        if do is not None:
            try:
                g.apply_command(str(do))
                if st.get("rejected", False):
                    return ScenarioResult(scn.path, scn.title, False, i, f"{where}: expected a refusal, but it was accepted")
            except RulesLoopError as err:
                return ScenarioResult(scn.path, scn.title, False, i, f"{where}: rules loop: {err}")
            except (IllegalAction, MalformedCommand) as err:
                if not st.get("rejected", False):
                    return ScenarioResult(scn.path, scn.title, False, i, f"{where}: refused: {err}")
                sub = st.get("reason_contains")
                if sub is not None and str(sub).lower() not in str(err).lower():
                    return ScenarioResult(scn.path, scn.title, False, i,
                                          f"{where}: refusal should contain {sub!r}, got {str(err)!r}")
        fails = check_expect(g, st.get("expect", {}))
        if fails:
            return ScenarioResult(scn.path, scn.title, False, i, f"{where}: " + "; ".join(fails))
    return ScenarioResult(scn.path, scn.title, True, len(scn.steps))


def check_files(paths: list[Path], db: CardDB | None = None) -> list[ScenarioResult]:
    results: list[ScenarioResult] = []
    for p in paths:
        try:
            scn = load_scenario(p, db)
        except CardFileError as err:
            results.append(ScenarioResult(str(p), p.stem, False, 0, "\n".join(err.problems)))
            continue
        results.append(run(scn))
    return results
