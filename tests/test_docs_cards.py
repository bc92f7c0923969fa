"""docs/cards.md and the card schema (engine/cards.py) can't drift (formats.md §2, issue #9 item 12): every
key, verb, target, trigger name, Interrupt event, keyword, status, seat modifier and allowed word the schema
accepts appears in docs/cards.md as code; and every trigger name, verb and target the page lists in its
tables is one the schema accepts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from engine import cards as schema

DOC = (Path(__file__).resolve().parent.parent / "docs" / "cards.md").read_text(encoding="utf-8")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _code_words() -> set[str]:
    """Every word inside `inline code` or a fenced block of docs/cards.md."""
    spans = re.findall(r"```.*?```", DOC, flags=re.S) + re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", DOC,
                                                                                          flags=re.S))
    return {w for s in spans for w in WORD.findall(s)}


def _literals(annotation: Any) -> list[str]:
    if get_origin(annotation) is Literal:
        return [str(a) for a in get_args(annotation)]
    return [w for arg in get_args(annotation) for w in _literals(arg)]


def _models() -> list[type[BaseModel]]:
    return [m for m in vars(schema).values()
            if isinstance(m, type) and issubclass(m, BaseModel) and m.__module__ == schema.__name__
            and m.__name__ != "_Model"]


def schema_words() -> dict[str, set[str]]:
    words: dict[str, set[str]] = {
        "verb": set(schema.EFFECT_VERBS), "target": set(schema.TARGETS), "trigger": set(schema.TRIGGERS),
        "keyword": set(schema.KEYWORDS), "status": set(schema.STATUSES), "seat modifier": set(schema.SEAT_MODIFIERS),
        "interrupt event": set(get_args(schema.InterruptEvent)),
    }
    for model in _models():
        for name, f in model.model_fields.items():
            words.setdefault(f"key of {model.__name__}", set()).add(name)
            words.setdefault(f"value of {model.__name__}.{name}", set()).update(_literals(f.annotation))
    return words


def test_every_word_the_schema_accepts_is_documented() -> None:
    documented = _code_words()
    missing = {kind: sorted(ws - documented) for kind, ws in schema_words().items() if ws - documented}
    assert not missing, f"docs/cards.md doesn't document: {missing}"


def test_the_check_itself_sees_every_model() -> None:
    names = {m.__name__ for m in _models()}
    assert {"CardModel", "Effect", "Ability", "Activation", "EvolveSpec"} <= names
    words = schema_words()
    assert "on_play" in words["trigger"] and "amount" in words["key of Effect"]
    assert "end_of_turn" in words["value of Effect.until"]


def _listed(section: str) -> set[str]:
    """The backticked first-column words of a table, or the backticked words of a paragraph, under `## section`."""
    m = re.search(rf"^## {re.escape(section)}\n(.*?)(?=^## |\Z)", DOC, flags=re.S | re.M)
    assert m, f"docs/cards.md has no section '## {section}'"
    body = m.group(1)
    rows = re.findall(r"^\| `([a-z_]+)`", body, flags=re.M)
    return set(rows)


def test_documented_tables_name_only_what_the_schema_accepts() -> None:
    verbs = _listed("Effects (`{ do = VERB, ... }`)")
    assert verbs and verbs <= set(schema.EFFECT_VERBS), verbs - set(schema.EFFECT_VERBS)
    triggers = _listed("Triggers (`when`)")
    assert triggers and triggers <= set(schema.TRIGGERS), triggers - set(schema.TRIGGERS)
    targets = _listed("Targets")
    assert targets and targets <= set(schema.TARGETS), targets - set(schema.TARGETS)
    events = _listed("Interrupt events (`interrupt = EVENT`)")
    assert events and events <= set(get_args(schema.InterruptEvent))


def test_the_2026_11_26_trigger_names_are_accepted_and_documented() -> None:
    """formats.md §2 names these trigger names; the schema accepts them and docs/cards.md documents them."""
    for word in ("start_of_main", "on_conquer", "on_bloom", "on_combat_victory", "on_combat_loss"):
        assert word in schema.TRIGGERS and f"| `{word}` |" in DOC
