"""docs/architecture.md names the engine's tables and constants by their code names (issue #9 item 13: it
said `KEYWORD_TRIGGERS` for `START_TRIGGERS`): every CONSTANT_NAME it quotes is defined in the code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_constant_architecture_md_names_is_defined() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rule_ids = set(re.findall(r"^#{2,4}\s+`([^`]+)`", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"),
                              re.M))            # (`COST`, `SEAT`: rule ids, in "Where each rule lives")
    names = sorted(set(re.findall(r"`([A-Z][A-Z0-9_]{3,})`", doc)) - rule_ids)
    assert names, "the check found no constant names to check"
    source = "\n".join(p.read_text(encoding="utf-8") for d in ("engine", "c1k_tui") for p in (ROOT / d).rglob("*.py"))
    missing = [n for n in names if not re.search(rf"^\s*{n}\b[^=\n]*=", source, flags=re.M)]
    assert not missing, f"docs/architecture.md names {missing}, which the code doesn't define"
