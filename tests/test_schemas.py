"""JSON Schemas for editors (issue #21 item 3, docs/formats.md §8): `c1k schema KIND` prints the schema the
loaders' own definitions give, `schemas/*.json` are those exactly, every bundled file validates against
its schema, and so does every example in docs/formats.md (which the loaders also accept)."""

from __future__ import annotations

import json
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import load_card_db
from engine.cards import parse_cards
from engine.decks import deck_from_data
from engine.scenario import run, scenario_from_data
from engine.schemas import KINDS, schema, schema_text

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@cache
def _validator(kind: str) -> Any:
    s = schema(kind)
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def _errors(kind: str, data: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator(kind).iter_errors(data)]


@pytest.mark.parametrize("kind", KINDS)
def test_the_committed_schema_is_the_generated_one(kind: str) -> None:
    committed = (ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(kind), f"schemas/{kind}.schema.json is stale: c1k schema {kind} > it"


@pytest.mark.parametrize("kind", KINDS)
def test_c1k_schema_prints_it(kind: str) -> None:
    res = runner.invoke(app, ["schema", kind])
    assert res.exit_code == 0
    assert json.loads(res.output) == schema(kind)


def test_an_unknown_kind_is_a_message() -> None:
    res = runner.invoke(app, ["schema", "decks"])
    assert res.exit_code == 2
    assert "unknown kind 'decks'" in res.output and "deck" in res.output


def _toml(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_every_bundled_card_file_validates() -> None:
    files = sorted((ROOT / "decks" / "cards").glob("*.toml"))
    assert files
    for f in files:
        assert not _errors("cards", _toml(f)), f


def test_every_bundled_deck_validates() -> None:
    files = sorted((ROOT / "decks").glob("*.toml"))
    assert files
    for f in files:
        assert not _errors("deck", _toml(f)), f


def test_every_scenario_and_lesson_validates() -> None:
    files = sorted((ROOT / "tests" / "scenarios").rglob("*.scenario.toml"))
    files += sorted((ROOT / "decks" / "lessons").glob("*.scenario.toml"))
    assert len(files) > 50
    bad = {str(f.relative_to(ROOT)): e for f in files if (e := _errors("scenario", _toml(f)))}
    assert not bad


def test_a_saved_record_validates(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    res = runner.invoke(app, ["play", "--text", "--seed", "7", "--save", str(out)], input="pass\npass\nconcede\n")
    assert res.exit_code == 0, res.output
    assert not _errors("record", json.loads(out.read_text(encoding="utf-8")))


def test_a_misspelt_key_fails_each_schema() -> None:
    """The guard: a schema that let anything through would pass the tests above."""
    assert _errors("cards", {"card": [{"id": "x", "name": "X", "type": "unit", "powr": 1}]})
    assert _errors("cards", {"card": [{"id": "x", "name": "X", "type": "unit", "keywords": ["gaurd"]}]})
    assert _errors("deck", {"deck": {"name": "D", "champion": "c", "seat": "s", "colour": "red"}, "cards": {}})
    assert _errors("scenario", {"scenario": {"windw": "main.priority"}})
    assert _errors("scenario", {"step": [{"do": "p1: pass", "expect": {"p1": {"lfe": 3}}}]})
    assert _errors("record", {"format": "c1k-match-record", "version": 2, "start": {"hash": "x"}, "commands": [],
                              "extra": 1})


# ------------------------------------------------------------------ the examples of docs/formats.md

def _examples() -> dict[str, list[str]]:
    """The TOML examples of docs/formats.md, by the schema their `#:schema` line names."""
    doc = (ROOT / "docs/formats.md").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    for block in re.findall(r"```toml\n(.*?)```", doc, flags=re.S):
        m = re.match(r"#:schema \S*/schemas/(\w+)\.schema\.json\n", block)
        if m and "[deck]\nname = \"Emberfall\"\n" != block[m.end():]:
            out.setdefault(m.group(1), []).append(block)
    return out


def test_the_formats_examples_name_schemas_that_exist_and_validate() -> None:
    ex = _examples()
    assert set(ex) == {"cards", "deck", "scenario"}
    for kind, blocks in ex.items():
        assert (ROOT / "schemas" / f"{kind}.schema.json").exists()
        for b in blocks:
            assert not _errors(kind, tomllib.loads(b)), b


def test_the_formats_examples_load() -> None:
    ex = _examples()
    cards, problems = parse_cards(tomllib.loads(ex["cards"][0])["card"], "docs/formats.md")
    assert not problems and [c.id for c in cards] == ["ash-warden", "cinder-bolt"]
    deck = deck_from_data(tomllib.loads(ex["deck"][0]), load_card_db(), "docs/formats.md", playtest=True)
    assert deck.name == "Emberfall" and len(deck.library) == 5
    result = run(scenario_from_data(tomllib.loads(ex["scenario"][0]), "docs/formats.md"))
    assert result.ok, result.message


def _report(*args: str) -> Any:
    res = runner.invoke(app, ["simulate", *args, "--agent", "random", "--matches", "2", "--workers", "1",
                              "--no-plots", "--json", "-"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)                      # (the progress is on stderr)


def test_a_simulation_report_validates_against_the_report_schema() -> None:
    """Issue #32 item 4: `c1k schema report` says what `c1k simulate --json` writes — every key; a key the
    report grows fails here until the schema names it."""
    for report in (_report("ironbound", "emberfall"), _report("--compare", "emberfall", "ironbound",
                                                              "--field", "veil-masquerade")):
        assert ("compare" in report) == (report["run"]["compare"] is not None)
        assert _errors("report", report) == []
    report["surprise"] = 1
    report["games"][0]["winner"] = "p1"
    assert sorted(e.split(":")[0] for e in _errors("report", report)) == ["", "games/0/winner"]


def test_every_bundled_lesson_validates_against_the_lesson_schema() -> None:
    files = sorted((ROOT / "decks" / "lessons").glob("*.scenario.toml"))
    assert files
    bad = {f.name: e for f in files if (e := _errors("lesson", _toml(f)))}
    assert bad == {}
    lesson = _toml(files[0])
    assert _errors("lesson", {k: v for k, v in lesson.items() if k != "lesson"})   # a plain scenario isn't one
    assert _errors("lesson", {**lesson, "lesson": {**lesson["lesson"], "debreif": "typo"}})
