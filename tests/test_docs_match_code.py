"""Docs that match the code (issue #32 item 10): every rule id that docs/rules.md gives a heading has a row
in docs/architecture.md's "Where each rule lives" (the `KW` ids: the keywords module's table, which
tests/test_layering.py checks), naming engine modules that exist; and every path that
docs/development.md's layout table and docs/architecture.md name exists. Files move between branches: a
failure names the missing rule id or path and the doc line that names it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TICKED = re.compile(r"`([^`]+)`")
#: a backticked path: a folder, a file with one of these endings, or a glob of them
PATH = re.compile(r"^[\w.*/-]+(/|\.(py|md|tcss|toml|json|ts|sh))$")


def rule_ids() -> list[str]:
    return re.findall(r"^#{2,4}\s+`([^`]+)`", (DOCS / "rules.md").read_text(encoding="utf-8"), re.M)


def _section(text: str, title: str) -> list[tuple[int, str]]:
    """(line number, line) of a `## ` section of a document."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line == f"## {title}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [(i + 1, lines[i]) for i in range(start, end)]


def _table_rows(rows: list[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    return [(n, [c.strip() for c in line.strip().strip("|").split("|")]) for n, line in rows
            if line.startswith("| ") and not line.startswith("|---")][1:]        # (the header row left out)


def rule_table_problems() -> list[str]:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    rows = _table_rows(_section(text, "Where each rule lives"))
    listed = {rid for _, cells in rows for rid in TICKED.findall(cells[0])}
    problems = [f"docs/rules.md's rule id `{rid}` has no row in docs/architecture.md \"Where each rule lives\""
                for rid in rule_ids() if rid not in listed and not rid.startswith("KW ")]
    modules = {p.stem for p in (ROOT / "engine").glob("*.py")}
    for n, cells in rows:
        for part in cells[1].split(";"):
            name = part.strip().split(":")[0].split(" ")[0].strip(",")
            if ":" in part and name not in modules:
                problems.append(f"docs/architecture.md:{n}: the module '{name}' is not in engine/")
    return problems


def _resolve(token: str, previous: Path | None) -> Path:
    """A path as the docs write it: from the repository's top when it has a folder, else beside the
    previous path of the same cell (`engine/turn.py`, `priority.py`); a bare `*.md` is one of docs/; a
    folder (`schemas/`) is the top's."""
    if "/" in token:
        return ROOT / token
    if token.endswith(".md"):
        return DOCS / token
    return (previous.parent if previous is not None else ROOT) / token


def _exists(path: Path) -> bool:
    if "*" in path.name or "*" in str(path.parent):
        rel = path.relative_to(ROOT).as_posix().replace("**.", "**/*.")
        return any(ROOT.glob(rel))
    return path.exists()


def path_problems(doc: str, lines: list[tuple[int, str]]) -> list[str]:
    problems = []
    for n, line in lines:
        for cell in line.split("|"):
            previous = None
            for token in TICKED.findall(cell):
                if not PATH.match(token) or token.startswith("."):
                    continue
                path = _resolve(token, previous)
                previous = path
                if not _exists(path):
                    problems.append(f"docs/{doc}:{n}: `{token}` names {path.relative_to(ROOT)}, which does not exist")
    return problems


def test_every_rule_id_has_a_row_in_where_each_rule_lives() -> None:
    assert len(rule_ids()) > 60
    problems = rule_table_problems()
    assert problems == [], "\n".join(problems)


def test_every_path_the_layout_table_and_the_architecture_name_exists() -> None:
    dev = (DOCS / "development.md").read_text(encoding="utf-8")
    arch = (DOCS / "architecture.md").read_text(encoding="utf-8")
    problems = path_problems("development.md", _section(dev, "Layout"))
    problems += path_problems("architecture.md", list(enumerate(arch.splitlines(), 1)))
    assert problems == [], "\n".join(problems)


def test_the_guards_name_what_is_missing() -> None:
    lines = [(3, "| `engine/turn.py`, `priority.py`, `nowhere.py` | the rules |"), (4, "| `c1k_tui/gone/` | x |")]
    assert path_problems("probe", lines) == [
        "docs/probe:3: `nowhere.py` names engine/nowhere.py, which does not exist",
        "docs/probe:4: `c1k_tui/gone/` names c1k_tui/gone, which does not exist"]
