"""The documents that ship inside the package (pyproject's package-data: `c1k_tui/*.md`, links to docs/ in
the repository), for `c1k docs` and the rules panel: a pip user has no docs/ folder, so the help names
`c1k docs formats`, never a path of the repository."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["SHIPPED", "Shipped", "doc_text", "section"]


@dataclass(frozen=True)
class Shipped:
    name: str          # `c1k docs NAME`
    what: str

    @property
    def file(self) -> str:
        """NAME.md, in the package (c1k_tui/) and in the repository's docs/."""
        return f"{self.name}.md"


SHIPPED = {d.name: d for d in (
    Shipped("formats", "the file formats: commands, cards, decks, scenarios, lessons, records, reports, "
                       "schemas"),
    Shipped("rules", "the rules of the game, one section per rule id (also `c1k rules`)"),
)}

_SECTION = re.compile(r"^## +(.*)$")


def doc_text(name: str) -> str:
    """A shipped document: the packaged copy, else the repository's docs/ file ("" when neither is there).

    A checkout without symbolic links holds the link as a one-line file naming its target: it is followed."""
    file = SHIPPED[name].file
    try:
        text = (resources.files("c1k_tui") / file).read_text(encoding="utf-8")
    except OSError:
        text = ""
    if text.strip() and "\n" not in text.strip() and text.strip().endswith(".md"):
        text = ""    # a link stored as a plain file
    if not text.strip():
        try:
            text = (Path(__file__).resolve().parent.parent.parent / "docs" / file).read_text(encoding="utf-8")
        except OSError:
            text = ""
    return text


def section(text: str, which: str) -> tuple[str, str] | None:
    """(title, Markdown) of the `## ` section of `text` that `which` names — its number (`4` for
    `## 4. Scenarios`) or words of its title (`scenarios`) — or None."""
    parts: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            parts.append((m.group(1).strip(), [line]))
        elif parts:
            parts[-1][1].append(line)
    want = which.strip().lower().rstrip(".")
    for title, lines in parts:
        number = title.partition(". ")[0]
        if number == want if want.isdigit() else (want and want in title.lower()):
            return title, "\n".join(lines).rstrip() + "\n"
    return None
