"""Terminal-safe text (light: no engine import). Names and paths come from files and options a player
controls; a control character in one (ESC starting a terminal escape, BEL, a newline, a C1 control, a
bidirectional override) must never reach the terminal as itself. `escape_text` shows each as a visible
escape (`\\x1b`, `\\n`, `\\u202e`), so the name is still recognisable and nothing is hidden or retitled."""

from __future__ import annotations

import re

#: C0 and C1 controls, DEL, and the Unicode format characters that reorder or hide text
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _esc(m: re.Match[str]) -> str:
    c = m.group(0)
    return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def escape_text(text: str) -> str:
    """`text` with every control or reordering character shown as an escape (a backslash too, only when
    it would make an escape ambiguous: never for plain text)."""
    return CONTROL.sub(_esc, text)


def has_control(text: str) -> bool:
    return CONTROL.search(text) is not None


_KEEP = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def escape_output(text: str, keep: tuple[str, ...] = ()) -> str:
    """Text for a terminal line by line: as `escape_text`, but newlines and tabs stay as they are, and so
    do the exact sequences in `keep` (the program's own, e.g. the text loop's screen clear)."""
    if not keep:
        return _KEEP.sub(_esc, text)
    out = [text]
    for seq in keep:
        out = [piece for part in out for piece in _interleave(part.split(seq), seq)]
    return "".join(p if p in keep else _KEEP.sub(_esc, p) for p in out)


def _interleave(parts: list[str], sep: str) -> list[str]:
    out: list[str] = []
    for i, p in enumerate(parts):
        if i:
            out.append(sep)
        out.append(p)
    return out
