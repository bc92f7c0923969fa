"""The learner's rules (docs/rules.md), one section per rule id, for the rules panel and `c1k rules`.

The document ships inside the package as `c1k_tui/rules.md` (a link to docs/rules.md in the repository,
copied as a file into a built wheel), so the rules work from a non-editable install too.

Every `##`/`###` heading that starts with a rule id in backticks (`` `C1K 4.2` Declare blockers ``) opens
a section that runs to the next heading. Window rules (C1K 1.1 …) and refusal rules (OPP Slow, KW Guard
…) are looked up by their id; an id with no section of its own falls back to its family (C1K 4 → the
first C1K 4.x section).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

_HEAD = re.compile(r"^#{2,4}\s+`([^`]+)`\s*(.*)$")


def rules_path() -> Path:
    """The repository's docs/rules.md (the source the packaged copy is made from)."""
    return Path(__file__).resolve().parent.parent.parent / "docs" / "rules.md"


def rules_text() -> str:
    """The rules document: the packaged `c1k_tui/rules.md`, else the repository's docs/rules.md."""
    from c1k_tui.model.shipped_docs import doc_text

    return doc_text("rules")


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
    return parse_rules(rules_text())


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


_ID_FORM = re.compile(r"^\s*(c1k|opp|rb|as|kw|rules)\s*(.*)$", re.IGNORECASE)


def normalize_id(text: str) -> str | None:
    """The rule id a learner typed, in the document's spelling ('c1k 4.3' → 'C1K 4.3', 'kw guard' →
    'KW Guard', 'guard' → 'KW Guard'), or None if it names no section."""
    table = rules()
    t = " ".join(text.split())
    if t in table:
        return t
    low = {k.lower(): k for k in table}
    if t.lower() in low:
        return low[t.lower()]
    m = _ID_FORM.match(t)
    if m and m.group(2) and (m.group(1) + " " + m.group(2)).lower() in low:
        return low[(m.group(1) + " " + m.group(2)).lower()]
    if re.fullmatch(r"\d+(\.\d+)?", t) and f"c1k {t}" in low:
        return low[f"c1k {t}"]
    if f"kw {t.lower()}" in low:
        return low[f"kw {t.lower()}"]
    return None


def search(words: str) -> list[tuple[str, str, int]]:
    """Rules whose id, title or text contain every word: [(id, title, score)], best first (title hits
    count most), in document order among equals."""
    table = rules()
    terms = [w.lower() for w in words.split() if w.strip()]
    if not terms:
        return []
    hits: list[tuple[str, str, int, int]] = []
    for order, (rid, (title, body)) in enumerate(table.items()):
        head = f"{rid} {title}".lower()
        low = body.lower()
        if all(w in head or w in low for w in terms):
            score = sum(10 * head.count(w) + low.count(w) for w in terms)
            hits.append((rid, title, score, order))
    hits.sort(key=lambda h: (-h[2], h[3]))
    return [(rid, title, score) for rid, title, score, _ in hits]


_TOPIC_HEAD = re.compile(r"^#{1,3}\s+([^`].*?)\s*$")


@lru_cache(maxsize=1)
def topics() -> dict[str, str]:
    """The explanatory sections, which have a title but no rule id ("How priority works", "The timing
    windows"): {title: the text before the next heading}, those with text only."""
    out: dict[str, str] = {}
    title: str | None = None
    body: list[str] = []
    for line in rules_text().splitlines():
        if line.startswith("#"):
            if title is not None and "\n".join(body).strip():
                out[title] = "\n".join(body).strip()
            m = _TOPIC_HEAD.match(line)
            title = m.group(1) if m and not line.startswith("# ") else None
            body = []
            continue
        if title is not None:
            body.append(line)
    if title is not None and "\n".join(body).strip():
        out[title] = "\n".join(body).strip()
    return out


class Hit(NamedTuple):
    """A search result: the rule id (or an explanatory section's title), its title, and the words around
    the first match."""

    id: str
    title: str
    snippet: str


def snippet(body: str, terms: list[str], width: int = 90) -> str:
    """The text around the first of `terms` in `body`, on one line, markup removed."""
    flat = " ".join(re.sub(r"[`*|]", "", body).split())
    low = flat.lower()
    at = min((i for i in (low.find(t) for t in terms) if i >= 0), default=-1)
    if at < 0:
        return flat[:width] + ("…" if len(flat) > width else "")
    start = max(0, at - width // 3)
    piece = flat[start:start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


def _vocabulary() -> list[str]:
    words: set[str] = set()
    for rid, (title, body) in rules().items():
        words.update(re.findall(r"[a-z][a-z'-]{2,}", f"{rid} {title} {body}".lower()))
    for title, body in topics().items():
        words.update(re.findall(r"[a-z][a-z'-]{2,}", f"{title} {body}".lower()))
    return sorted(words)


def find(words: str) -> tuple[list[Hit], str]:
    """Every rule and explanatory section matching `words`, best first, each with a snippet — a rule id or
    keyword the words name comes first, then every other rule that mentions them — and, when nothing
    matches, a did-you-mean ("" if there is none)."""
    import difflib

    terms = [w.lower() for w in words.split() if w.strip()]
    if not terms:
        return [], ""
    table = rules()
    hits: list[Hit] = []
    named = normalize_id(words)
    if named is not None:
        hits.append(Hit(named, table[named][0], snippet(table[named][1], terms)))
    for rid, title, _ in search(words):
        if rid != named:
            hits.append(Hit(rid, title, snippet(table[rid][1], terms)))
    scored = []
    for order, (title, body) in enumerate(topics().items()):
        head, low = title.lower(), body.lower()
        if all(w in head or w in low for w in terms):
            scored.append((-sum(10 * head.count(w) + low.count(w) for w in terms), order, title, body))
    scored.sort()
    # an explanatory section whose title holds every word goes first: it is the answer to "how does X work"
    for _score, _, title, body in scored:
        hit = Hit(title, "", snippet(body, terms))
        if all(w in title.lower() for w in terms):
            hits.insert(1 if named is not None else 0, hit)
        else:
            hits.append(hit)
    if hits:
        return hits, ""
    vocab = _vocabulary()
    fixed = [(difflib.get_close_matches(w, vocab, 1, 0.75) or [w])[0] for w in terms]
    if fixed != terms:
        return [], " ".join(fixed)
    return [], ""


def rule_markdown(rule_id: str) -> str:
    """One rule as Markdown (its heading and text): what the app's rule view and `c1k rules ID` show. An
    explanatory section's title shows that section."""
    if rule_id not in rules() and rule_id in topics():
        return f"## {rule_id}\n\n{topics()[rule_id]}\n"
    rid, title, body = section(rule_id)
    return f"## `{rid}` {title}\n\n{body}\n"


def all_ids() -> list[str]:
    """Every rule id in the document, in its order."""
    return list(rules())
