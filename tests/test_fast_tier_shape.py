"""The fast tier's shape (tests/conftest.py, docs/performance.md "The test suite"): every id in `SLOW` and
`SAMPLED` names a test that exists, and every fast stand-in a `SLOW` comment names exists. A renamed test
otherwise stays in the fast tier without a word, and an entry's stand-in can vanish unnoticed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from tests.conftest import SAMPLED, SLOW

ROOT = Path(__file__).resolve().parents[1]


@cache
def _defined(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


def missing_ids(ids: Iterable[str]) -> list[str]:
    """The ids (`tests/…/file.py::test_name`, parameters aside) whose file or test function isn't there."""
    out = []
    for nodeid in ids:
        file, _, name = nodeid.partition("::")
        path = ROOT / file
        if not path.is_file() or name.split("[")[0] not in _defined(path):
            out.append(nodeid)
    return sorted(out)


def missing_stand_ins(comments: str) -> list[str]:
    """The `file.py::test_name` references in `comments` (a path under tests/, or a file name found there)
    that name no test."""
    out = []
    for file, name in re.findall(r"((?:tests/)?(?:\w+/)*test_\w+\.py)::(test_\w+)", comments):
        paths = [ROOT / file] if file.startswith("tests/") else list((ROOT / "tests").rglob(file))
        if not any(p.is_file() and name in _defined(p) for p in paths):
            out.append(f"{file}::{name}")
    return sorted(set(out))


def _slow_comments() -> str:
    text = (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")
    block = text[text.index("SLOW = {"):text.index("#: parametrised matrices")]
    return "\n".join(line.split("#", 1)[1] for line in block.splitlines() if line.strip().startswith("#"))


def test_every_slow_and_sampled_id_names_a_test() -> None:
    assert missing_ids(SLOW | set(SAMPLED)) == []


def test_every_fast_stand_in_a_slow_comment_names_exists() -> None:
    comments = _slow_comments()
    assert "test_" in comments            # (the comments were found)
    assert missing_stand_ins(comments) == []


def test_the_checks_see_a_missing_test_and_a_missing_stand_in() -> None:
    assert missing_ids(["tests/tui/test_input.py::test_number_keys_select_and_enter_plays",
                        "tests/tui/test_input.py::test_no_such_test[80x24]", "tests/nowhere.py::test_x"]) == [
        "tests/nowhere.py::test_x", "tests/tui/test_input.py::test_no_such_test[80x24]"]
    assert missing_stand_ins("fast: test_input.py::test_number_keys_select_and_enter_plays and "
                             "tests/tui/test_input.py::test_gone") == ["tests/tui/test_input.py::test_gone"]
