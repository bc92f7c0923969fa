"""The docs say what the code does (issue #21 item 9: the README said 242 cards and ten Seats for 250 and
11, a fast tier of 918 tests for 1,090, and options that had changed). The numbers the docs state about
the card set, the starter decks and the lessons are derived from the code here; every `c1k COMMAND --option` the docs name exists; a count
of tests, which goes stale with every commit, is not written in the docs at all."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

from c1k_tui.cli.main import app
from engine import load_card_db

ROOT = Path(__file__).resolve().parent.parent
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}


def _docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _number(word: str) -> int:
    return WORDS[word.lower()] if word.lower() in WORDS else int(word.replace(",", ""))


def card_set_claims(text: str) -> list[tuple[str, int]]:
    """What a doc says about the bundled set: (kind, number) for "N cards" and "N Seats/Champions"."""
    out: list[tuple[str, int]] = []
    num = r"(\d{1,3}(?:,\d{3})+|\d+|" + "|".join(WORDS) + r")"
    for m in re.finditer(r"bundled (?:card )?set[^.]{0,80}?\b" + num + r" cards", text, flags=re.I):
        out.append(("cards", _number(m.group(1))))
    for m in re.finditer(r"\b" + num + r" (Seats|Champions|lessons)\b", text):
        out.append((m.group(2).lower(), _number(m.group(1))))
    for m in re.finditer(r"\b[Tt]he " + num + r" (starter decks)\b", text):   # ("rebalance eight starter decks": a part)
        out.append((m.group(2).lower(), _number(m.group(1))))
    return out


def test_the_card_set_numbers_in_the_docs_are_the_code_s() -> None:
    db = load_card_db()
    truth = {"cards": len(db.by_id), "seats": sum(c.type == "seat" for c in db.by_id.values()),
             "champions": sum(c.type == "champion" for c in db.by_id.values()),
             "lessons": len(list((ROOT / "decks" / "lessons").glob("*.scenario.toml"))),
             "starter decks": len(list((ROOT / "decks").glob("*.toml")))}
    wrong = [f"{f.relative_to(ROOT)}: {n} {kind} (the set has {truth[kind]})"
             for f in _docs() for kind, n in card_set_claims(f.read_text(encoding="utf-8")) if truth[kind] != n]
    assert not wrong


def test_the_claims_guard_reads_a_wrong_number() -> None:
    claims = card_set_claims("The bundled set (`decks/cards/`) has 242 cards, with ten Seats and 9 Champions; "
                             "a course of 12 lessons; the eleven starter decks.")
    assert claims == [("cards", 242), ("seats", 10), ("champions", 9), ("lessons", 12), ("starter decks", 11)]


def test_no_doc_states_a_count_of_tests() -> None:
    found = [f"{f.relative_to(ROOT)}: {m.group(0)}" for f in _docs()
             for m in re.finditer(r"\b\d[\d,]* (?:fast )?tests\b", f.read_text(encoding="utf-8"))]
    assert not found


# ------------------------------------------------------------------ every option the docs name exists

def _commands() -> dict[str, set[str]]:
    """Each command path ("play", "scenario check") with every option it takes."""
    out: dict[str, set[str]] = {}

    def walk(c: Any, path: str) -> None:
        opts = {"--help"}
        for p in c.params:
            opts |= set(getattr(p, "opts", [])) | set(getattr(p, "secondary_opts", []))
        out[path] = opts
        for name, sub in getattr(c, "commands", {}).items():
            walk(sub, f"{path} {name}".strip())

    walk(typer.main.get_command(app), "")
    return out


def _code(text: str) -> list[str]:
    """The code in a markdown text: inline spans and the lines of fenced blocks."""
    spans = re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S)
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    return [line for block in spans for line in block.splitlines()] + inline


def named_options(text: str, commands: dict[str, set[str]]) -> list[str]:
    """Every `c1k CMD ... --option` in the code of a doc that CMD doesn't take, and unknown commands."""
    bad: list[str] = []
    for code in _code(text):
        for m in re.finditer(r"(?<![\w/.-])c1k ((?:[a-z][\w-]*)(?: [a-z][\w-]*)?)(.*?)(?=(?<![\w/.-])c1k |$|\||;)",
                             code):
            words, rest = m.group(1).split(" "), m.group(2)
            cmd = " ".join(words) if " ".join(words) in commands else words[0]
            if cmd not in commands:
                if cmd.isidentifier() and cmd not in ("is", "and", "or", "the", "command", "the_command"):
                    bad.append(f"c1k {cmd}: no such command")
                continue
            tail = (m.group(1)[len(cmd):] + rest) if cmd != m.group(1) else rest
            for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", tail):
                if opt not in commands[cmd] | commands[""]:
                    bad.append(f"c1k {cmd} {opt}: no such option")
    return bad


def test_every_option_the_docs_name_exists() -> None:
    commands = _commands()
    bad = [f"{f.relative_to(ROOT)}: {b}" for f in _docs() for b in named_options(f.read_text(encoding="utf-8"), commands)]
    assert not bad


def test_the_options_guard_sees_a_renamed_option() -> None:
    commands = _commands()
    assert named_options("Run `c1k simulate --all --json-out FILE`.", commands) == [
        "c1k simulate --json-out: no such option"]
    assert named_options("```\nc1k play --seed 3 --vs ai:2\nc1k lern 3\n```", commands) == [
        "c1k lern: no such command"]
    assert named_options("`c1k scenario check --verbose`", commands) == [
        "c1k scenario check --verbose: no such option"]


# ------------------------------------------------------------------ the formats name every key the loaders read

def test_formats_md_names_every_key_the_loaders_read() -> None:
    """docs/formats.md is the contract: a key a loader accepts but the page doesn't name is a drift (a new
    match option, expect key or lesson key must be written down where users look)."""
    from dataclasses import fields

    from engine import lessons, scenario
    from engine.record import RecordFile
    from engine.state import MatchOptions

    doc = (ROOT / "docs/formats.md").read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", "", doc, flags=re.S)
    code = _code(doc) + re.findall(r"`([^`]+)`", prose)       # (inline spans may wrap a line)
    named = {w for span in code for w in re.findall(r"[a-z_0-9]+", span)}
    keys = (scenario.SCENARIO_KEYS | scenario.PLAYER_KEYS | scenario.BOARD_KEYS | scenario.STEP_KEYS
            | scenario.UNIT_EXPECT | scenario.PLAYER_EXPECT | scenario.TOP_EXPECT | lessons.LESSON_KEYS
            | lessons.CHECK_KEYS | lessons.HINT_KEYS | {f.name for f in fields(MatchOptions)}
            | set(RecordFile.model_fields))
    assert not sorted(keys - named), "docs/formats.md doesn't name these keys"


def test_ci_runs_the_readme_s_test_command() -> None:
    """The README's second command installs and runs the tests; `.ci/run` installs the same extras and runs
    the same pytest command (so what a newcomer runs is what CI checks)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)\n```", section, flags=re.S)
    assert len(blocks) == 2, "the README's 'Two commands' has two command blocks"
    install = re.search(r"pip install -e '(\.\[[a-z,]+\])'", blocks[1])
    test = re.search(r"(python -m pytest[^&\n]*)$", blocks[1])
    assert install and test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"pip install --quiet -e '{install.group(1)}'" in ci
    assert f".venv/bin/{test.group(1).strip()}\n" in ci
    assert "c1k play" in blocks[0]
