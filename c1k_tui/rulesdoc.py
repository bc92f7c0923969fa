"""The learner's rules (docs/rules.md), one section per rule id, for the rules panel.

Every `##`/`###` heading that starts with a rule id in backticks (`` `C1K 4.2` Declare blockers ``) opens
a section that runs to the next heading. Window rules (C1K 1.1 …) and refusal rules (OPP Slow, KW Guard
…) are looked up by their id; an id with no section of its own falls back to its family (C1K 4 → the
first C1K 4.x section).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_HEAD = re.compile(r"^#{2,4}\s+`([^`]+)`\s*(.*)$")


def rules_path() -> Path:
    return Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def parse_rules(text: str) -> dict[str, tuple[str, str]]:
    """{rule id: (title, body)} from the rules document."""
    out: dict[str, tuple[str, str]] = {}
    rid: str | None = None
    title = ""
    body: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            if rid is not None:
                out[rid] = (title, "\n".join(body).strip())
            m = _HEAD.match(line)
            rid, title, body = (m.group(1), m.group(2), []) if m else (None, "", [])
            continue
        if rid is not None:
            body.append(line)
    if rid is not None:
        out[rid] = (title, "\n".join(body).strip())
    return out


@lru_cache(maxsize=1)
def rules() -> dict[str, tuple[str, str]]:
    try:
        return parse_rules(rules_path().read_text(encoding="utf-8"))
    except OSError:
        return {}


def section(rule_id: str) -> tuple[str, str, str]:
    """(id, title, body) of a rule; an unknown id gives its nearest family section, or a short note."""
    table = rules()
    rid = rule_id.strip()
    if rid in table:
        return (rid, *table[rid])
    family = rid.split(".")[0]
    for key, (title, body) in table.items():
        if key == family or key.startswith(family + "."):
            return (key, title, body)
    return (rid, "", "(docs/rules.md has no section for this rule id)")


def keyword_rule(keyword: str) -> str:
    """The rule id of a keyword ('Decay 1' → 'KW Decay')."""
    return "KW " + keyword.split()[0].capitalize()
