"""JSON Schemas of the public file formats (docs/formats.md §8), for editors: `c1k schema KIND` prints one
and `schemas/*.json` are these, committed (tests/test_schemas.py checks they match).

Each is generated from the loader's own definitions: cards and records from their pydantic models
(`CardModel`, `RecordFile`), decks and scenarios from the key sets and bounds that `engine/decks.py` and
`engine/scenario.py` check by hand (and lessons from `engine/lessons.py`'s). The loaders stay the
authority — they also check what a schema can't say (cards that exist, 40 cards in a deck, slots) —
but a file the loader accepts validates against its schema.
"""

from __future__ import annotations

import json
from typing import Any

KINDS = ("cards", "deck", "scenario", "lesson", "record", "report")
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _keyword_pattern() -> str:
    from engine.cards import KEYWORDS, NUMBERED_KEYWORDS

    plain = sorted(k for k in KEYWORDS if k not in NUMBERED_KEYWORDS)
    numbered = sorted(NUMBERED_KEYWORDS)
    return f"^(?:(?:{'|'.join(plain)})|(?:{'|'.join(numbered)})(?: [0-9]+)?)$"


def _card_defs() -> dict[str, Any]:
    """CardModel's schema as $defs (Card and the models it uses), keywords spelled out as a pattern."""
    from engine.cards import CardModel

    raw = CardModel.model_json_schema(ref_template="#/$defs/{model}")
    defs: dict[str, Any] = dict(raw.pop("$defs", {}))
    raw["properties"]["keywords"]["items"] = {"type": "string", "pattern": _keyword_pattern()}
    defs["CardModel"] = raw
    for d in defs.values():          # (TOML has no null: an absent key is the default)
        for prop in d.get("properties", {}).values():
            if "anyOf" in prop and {"type": "null"} in prop["anyOf"]:
                rest = [x for x in prop["anyOf"] if x != {"type": "null"}]
                prop.pop("anyOf")
                if len(rest) == 1:
                    prop.update(rest[0])
                else:
                    prop["anyOf"] = rest
    return defs


def cards_schema() -> dict[str, Any]:
    return {
        "$schema": DRAFT, "title": "Council of 1000 card file (docs/formats.md §2)",
        "description": "[[card]] tables; every key the engine reads (engine/cards.py CardModel).",
        "type": "object", "additionalProperties": False,
        "properties": {"card": {"type": "array", "items": {"$ref": "#/$defs/CardModel"}}},
        "$defs": _card_defs(),
    }


def deck_schema() -> dict[str, Any]:
    from engine.decks import MAX_COPIES, MAX_COPIES_PLAYTEST, MAX_DECK_ENTRIES

    return {
        "$schema": DRAFT, "title": "Council of 1000 deck file (docs/formats.md §3)",
        "description": "A [deck] head and [cards] (card id or name = copies). The loader also checks that the "
                       "cards exist, 40 in all, at most 3 copies, at most two Realms plus Neutral.",
        "type": "object", "additionalProperties": False, "required": ["deck", "cards"],
        "properties": {
            "deck": {"type": "object", "additionalProperties": False, "required": ["champion", "seat"],
                     "properties": {
                         "name": {"type": "string", "maxLength": 100},
                         "champion": {"type": "string", "description": "the id or name of a champion card"},
                         "seat": {"type": "string", "description": "the id or name of a seat card"},
                         "card_files": {"type": "array", "items": {"type": "string"},
                                        "description": "own card files or folders, relative to the deck file"}}},
            "cards": {"type": "object", "maxProperties": MAX_DECK_ENTRIES,
                      "description": f"card id or name = copies (at most {MAX_COPIES}; "
                                     f"{MAX_COPIES_PLAYTEST} with --playtest)",
                      "additionalProperties": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES_PLAYTEST}},
        },
    }


def _obj(props: dict[str, Any], allowed: set[str] | frozenset[str], **more: Any) -> dict[str, Any]:
    """An object with exactly the keys the loader allows (a key without a type of its own: any value)."""
    missing = sorted(set(allowed) - set(props))
    if missing:
        raise AssertionError(f"no schema for the keys {missing}")
    extra = sorted(set(props) - set(allowed))
    if extra:
        raise AssertionError(f"the schema has keys the loader refuses: {extra}")
    return {"type": "object", "additionalProperties": False, "properties": dict(sorted(props.items())), **more}


def scenario_schema() -> dict[str, Any]:
    from engine import lessons as les
    from engine import scenario as sc
    from engine.cards import STATUSES
    from engine.state import WINDOWS, ZONE_NAMES, MatchOptions

    n = sc.MAX_NUMBER
    text: dict[str, Any] = {"type": "string"}
    names: dict[str, Any] = {"type": "array", "items": text, "maxItems": sc.MAX_ZONE_CARDS}
    num = {"type": "integer", "minimum": 0, "maximum": n}
    signed = {"type": "integer", "minimum": -n, "maximum": n}
    seat = {"enum": ["p1", "p2"]}
    statuses = {"type": "array", "items": {"enum": list(STATUSES)}, "maxItems": 10}
    defaults = MatchOptions()
    options: dict[str, Any] = {}
    for k in sorted(sc.OPTION_KEYS):
        v = getattr(defaults, k)
        if isinstance(v, bool):
            options[k] = {"type": "boolean"}
        elif isinstance(v, int):
            options[k] = {"type": "integer", "minimum": 1 if k == "unit_slots" else 0,
                          "maximum": 12 if k.endswith("_slots") else sc.MAX_TURN}
        else:
            options[k] = {"type": "string"}
    options["first"] = {"enum": ["p1", "p2", "random"]}
    board_entry = {"anyOf": [text, _obj({
        "card": text, "as": {"type": "string", "maxLength": 100}, "slot": {"type": "integer", "minimum": 1},
        "damage": num, "status": statuses,
        "counters": {"type": "object", "additionalProperties": num, "maxProperties": 20},
        "exhausted": {"type": "boolean"}, "deployed_this_turn": {"type": "boolean"},
    }, sc.BOARD_KEYS, required=["card"])]}
    player = _obj({
        "name": {"type": "string", "minLength": 1, "maxLength": 100}, "life": signed, "influence": num,
        "capacity": num, "hand": names, "library": names, "graveyard": names, "set": names,
        "board": {"type": "array", "items": board_entry}, "relics": {"type": "array", "items": board_entry},
        "champion": text, "seat": text,
    }, sc.PLAYER_KEYS)
    player_expect = _obj({k: (names if k in sc.NAME_LISTS else signed if k == "life" else num)
                          for k in sc.PLAYER_EXPECT}, sc.PLAYER_EXPECT)
    unit_expect = _obj({
        "zone": {"enum": list(ZONE_NAMES)}, "damage": num, "max_health": num, "power": signed, "health": signed,
        "exhausted": {"type": "boolean"}, "statuses": statuses,
        "counters": {"type": "object", "additionalProperties": num},
        "keywords": {"type": "array", "items": text},
    }, sc.UNIT_EXPECT)
    expect = _obj({
        "window": {"enum": list(WINDOWS)}, "phase": {"enum": list(sc.PHASES)}, "active": seat,
        "priority": {"enum": ["p1", "p2", "none"]}, "decider": {"enum": ["p1", "p2", "none"]},
        "winner": {"enum": ["p1", "p2", "draw", "none"]}, "pending": {"enum": list(sc.PENDING_KINDS)},
        "turn": {"type": "integer", "minimum": 1, "maximum": sc.MAX_TURN}, "stack": names, "log_contains": text,
        "p1": player_expect, "p2": player_expect,
        "units": {"type": "object", "additionalProperties": unit_expect},
    }, sc.TOP_EXPECT)
    step = _obj({
        "do": {"type": "string", "maxLength": sc.MAX_COMMAND}, "expect": expect, "rejected": {"type": "boolean"},
        "malformed": {"type": "boolean"}, "reason_contains": text, "note": text,
    }, sc.STEP_KEYS)
    kinds: dict[str, Any] = {"amount": {"type": "integer"}, "at_step": {"type": "integer", "minimum": 0},
                             "options": {"type": "array", "items": {"type": ["string", "integer"]}},
                             "answer": {"type": ["string", "integer"]},
                             "teaches": {"anyOf": [text, {"type": "array", "items": text}]}}
    check = _obj({k: kinds.get(k, text) for k in les.CHECK_KEYS}, les.CHECK_KEYS)
    lesson = _obj({
        "part": {"enum": list(les.PARTS)}, "rules": {"type": "array", "items": text}, "briefing": text,
        "debrief": text,
        "wrong": {"type": "array", "items": {"anyOf": [text, {"type": "array", "items": text}]}},
        "check": {"type": "array", "items": check, "minItems": 1}, "expect": expect,
        "hint": {"type": "array", "items": _obj({"rule": text, "text": text}, les.HINT_KEYS)},
    }, les.LESSON_KEYS, required=["briefing", "debrief", "check"])
    head = _obj({
        "title": text, "rule": text, "description": text, "goal": text,
        "seed": {"type": "integer", "minimum": 0, "maximum": sc.MAX_SEED},
        "turn": {"type": "integer", "minimum": 1, "maximum": sc.MAX_TURN}, "active": seat,
        "window": {"enum": list(WINDOWS)},
        "options": _obj(options, sc.OPTION_KEYS),
    }, sc.SCENARIO_KEYS)
    return {
        "$schema": DRAFT, "title": "Council of 1000 scenario or lesson file (docs/formats.md §4, §5)",
        "description": "A position ([scenario], [p1], [p2], inline [[card]]s), [[step]]s to play and check, and "
                       "for a lesson a [lesson] table (engine/scenario.py, engine/lessons.py).",
        **_obj({"scenario": head, "card": {"type": "array", "items": {"$ref": "#/$defs/ScenarioCard"}},
                "p1": player, "p2": player, "step": {"type": "array", "items": step, "maxItems": sc.MAX_STEPS},
                "lesson": lesson}, {"scenario", "card", "p1", "p2", "step", "lesson"}),
        "$defs": _scenario_card_defs(),
    }


def _scenario_card_defs() -> dict[str, Any]:
    """A scenario's inline card: a card (§2) that may also say `replaces = true` (it stands in for the bundled
    card of the same name; engine/scenario.py takes the key off before the card is validated)."""
    defs = _card_defs()
    card = json.loads(json.dumps(defs["CardModel"]))
    card["properties"]["replaces"] = {"type": "boolean", "description": "stands in for the bundled card of "
                                                                        "the same name"}
    card["title"] = "ScenarioCard"
    defs["ScenarioCard"] = card
    return defs


def record_schema() -> dict[str, Any]:
    from engine.record import RecordFile

    raw = RecordFile.model_json_schema(ref_template="#/$defs/{model}")
    return {"$schema": DRAFT, "title": "Council of 1000 match record (docs/formats.md §6)",
            "description": "What engine/record.py RecordFile accepts; loading also replays every command and "
                           "checks its state hash.", **{k: v for k, v in raw.items() if k != "title"}}


def lesson_schema() -> dict[str, Any]:
    """A lesson file: a scenario whose [lesson] table, [[step]]s (the scripted solution) and scenario.goal
    are required (engine/lessons.py refuses a lesson without them)."""
    out = scenario_schema()
    out["title"] = "Council of 1000 lesson file (docs/formats.md §5)"
    out["description"] = ("A scenario (§4) with a [lesson] table: briefing, debrief, the checks that are its goal, "
                          "hints; its [[step]]s are the scripted solution (engine/lessons.py).")
    out["required"] = ["scenario", "lesson", "step"]
    out["properties"]["scenario"]["required"] = ["goal"]
    out["properties"]["step"]["minItems"] = 1
    return out


def _rows(props: dict[str, Any], required: bool = True) -> dict[str, Any]:
    """An array of objects with exactly these keys (all present when `required`)."""
    item: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": props}
    if required:
        item["required"] = sorted(props)
    return {"type": "array", "items": item}


def report_schema() -> dict[str, Any]:
    """What `c1k simulate --json` writes (c1k_tui/sim/report.py; docs/formats.md §7, docs/ai.md): every
    key of the top level and of its rows, so a report that grows a key fails tests/test_schemas.py until
    this says what it is."""
    text: dict[str, Any] = {"type": "string"}
    count: dict[str, Any] = {"type": "integer", "minimum": 0}
    num: dict[str, Any] = {"type": "number"}
    rate: dict[str, Any] = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
    pct: dict[str, Any] = {"type": ["number", "null"], "minimum": 0, "maximum": 100}
    ci: dict[str, Any] = {"type": ["array", "null"], "items": num, "minItems": 2, "maxItems": 2,
                          "description": "a 95% interval [low, high] (Wilson score for rates)"}
    card_row = {k: count for k in ("copies", "drawn", "matches", "not_drawn", "opening", "played", "plays")}
    card_row |= {k: rate for k in ("win_rate_drawn", "win_rate_not_drawn", "win_rate_opening", "win_rate_played")}
    card_row |= {k: pct for k in ("drawn_pct", "opening_pct", "played_pct")}
    card_row |= {k: ci for k in ("ci95_drawn", "ci95_iwd", "ci95_not_drawn", "ci95_opening", "ci95_played")}
    card_row |= {
        "damage_champions": {**count, "description": "damage this card's instances dealt to Champions, summed "
                                                     "over the matches (after prevention)"},
        "damage_units": {**count, "description": "damage this card's instances dealt to units, summed over "
                                                 "the matches (after prevention)"},
        "influence_spent": {**count, "description": "Influence paid for this card: to play or Set it, its "
                                                    "activated abilities and Interrupts"},
        "damage_per_play": {"type": ["number", "null"], "minimum": 0,
                            "description": "(damage_champions + damage_units) / plays; null when never played"},
        "damage_per_influence": {"type": ["number", "null"], "minimum": 0,
                                 "description": "(damage_champions + damage_units) / influence_spent; null "
                                                "when nothing was paid for it"},
    }
    card_row |= {"agent": text, "card": text, "deck": text, "name": text,
                 "iwd": {"type": ["number", "null"], "description": "improvement when drawn: win rate drawn "
                                                                    "minus not drawn"}}
    return {
        "$schema": DRAFT, "title": "Council of 1000 simulation report (docs/formats.md §7)",
        "description": "What `c1k simulate --json` writes (c1k_tui/sim/report.py); `c1k replay REPORT "
                       "--match N` plays one of its games again.",
        "type": "object", "additionalProperties": False,
        "required": ["avg_turns", "card_set", "cards", "decks", "errors", "first_player", "format", "games",
                     "integrity", "matches", "pairs", "ratings", "run", "version"],
        "properties": {
            "matches": count, "avg_turns": num,
            "errors": {"type": "array", "items": text},
            "format": {"const": "c1k-simulation-report"},
            "version": {"const": 2, "description": "the report format's version (docs/formats.md §7)"},
            "integrity": {"type": "object", "additionalProperties": False, "required": ["sha256", "parts"],
                          "description": "the SHA-256 of everything else in the report, and a digest of each "
                                         "part (a table's keys, a list's rows), checked on every load",
                          "properties": {"sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                                         "parts": {"type": "object"}}},
            "run": {"type": "object", "required": ["agent", "backend", "matches_per_pair", "max_turns",
                                                   "opponent", "seed", "workers"],
                    "properties": {"seed": {"type": "integer", "minimum": 0}, "agent": text, "opponent": text,
                                   "matches_per_pair": count, "backend": text, "workers": count,
                                   "seconds": num, "max_turns": count, "compensation": text,
                                   "cards": {"type": "array", "items": text},
                                   "compare": {"type": ["array", "null"], "items": text,
                                               "description": "--compare OLD NEW: the two lists"}}},
            "pairs": _rows({"deck_a": text, "deck_b": text, "agent_a": text, "agent_b": text, "path_a": text,
                            "path_b": text, "matches": count, "wins_a": count, "wins_b": count, "draws": count,
                            "win_rate_a": rate, "ci95_a": ci, "avg_turns": num}),
            "ratings": _rows({"name": text, "rating": num, "ci95": ci, "points": num}),
            "first_player": {"type": "object", "additionalProperties": False,
                             "required": ["matches", "win_rate", "ci95"],
                             "properties": {"matches": count, "win_rate": rate, "ci95": ci}},
            "cards": _rows(card_row),
            "games": _rows({"match": count, "pair": count, "k": count, "seed": {"type": "string",
                                                                                "pattern": "^[0-9]+$"},
                            "deck_a": text, "deck_b": text, "agent_a": text, "agent_b": text, "p1": text,
                            "p2": text, "agent_p1": text, "agent_p2": text, "a_first": {"type": "boolean"},
                            "winner": {"enum": ["a", "b", "draw", ""]}, "winner_deck": text,
                            "winner_seat": text, "termination": text, "turns": count, "actions": count,
                            "error": text}),
            "decks": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["name", "champion", "seat", "cards", "digest"],
                "properties": {"name": text, "path": text, "champion": text, "seat": text, "digest": text,
                               "cards": {"type": "array", "items": {"type": "array", "prefixItems": [text, count],
                                                                    "minItems": 2, "maxItems": 2}}}}},
            "card_set": {"type": "object", "properties": {"defs": {"type": "array"},
                                                           "digests": {"type": "object",
                                                                       "additionalProperties": text}}},
            "compare": {"type": "object", "description": "with --compare OLD NEW: the A/B of two lists "
                                                         "(docs/ai.md)"},
        },
    }


def schema(kind: str) -> dict[str, Any]:
    return {"cards": cards_schema, "deck": deck_schema, "scenario": scenario_schema, "lesson": lesson_schema,
            "record": record_schema, "report": report_schema}[kind]()


def schema_text(kind: str) -> str:
    """The schema as the committed file holds it: two-space indents, a newline at the end."""
    return json.dumps(schema(kind), indent=2, ensure_ascii=False) + "\n"


__all__ = [
    "DRAFT", "KINDS", "cards_schema", "deck_schema", "lesson_schema", "record_schema", "report_schema",
    "scenario_schema", "schema", "schema_text",
]
