"""CHANGELOG.md keeps step with the code (issue #32 item 6): its newest version is the package's
(pyproject.toml, which `c1k --version` reads from the package metadata), the versions go newest first
with a date each, and its table of file formats names the record version and the canonical encoding
version the code writes now."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from engine.canonical import ENCODING
from engine.record import VERSION as RECORD_VERSION

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def _versions() -> list[tuple[int, ...]]:
    heads = re.findall(r"^## (\d+)\.(\d+)\.(\d+) — \d{4}-\d{2}-\d{2}$", TEXT, re.M)
    assert len(heads) == len(re.findall(r"^## ", TEXT, re.M)), "a ## heading is not 'X.Y.Z — YYYY-MM-DD'"
    return [tuple(map(int, h)) for h in heads]


def test_the_newest_version_is_the_packages() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert ".".join(map(str, _versions()[0])) == project["version"]


def test_versions_go_newest_first() -> None:
    versions = _versions()
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)


def test_the_format_table_names_what_the_code_writes_now() -> None:
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in TEXT.splitlines() if line.startswith("| ") and not line.startswith("|---")}
    assert rows["match record (`\"version\"`)"][-1] == str(RECORD_VERSION)
    assert rows["canonical encoding (`\"encoding\"`, docs/determinism.md)"][-1] == str(ENCODING)
