"""Bounded reads: every file c1k reads goes through `read_bounded`, which refuses what isn't a regular file
(a FIFO would hang the reader, /dev/zero would fill the memory) and anything over the cap of its kind,
before a byte is read: `stat` first, then at most cap + 1 bytes from the opened file (which is checked
again, so a file swapped for a FIFO between the two is refused too).

The caps (docs/formats.md, "Limits"):

    cards      2,000,000 bytes   one card file (the whole bundled set is ≈ 60,000)
    decks      2,000,000 bytes
    scenarios  2,000,000 bytes   (a lesson is a scenario file)
    lessons    2,000,000 bytes
    records   16,000,000 bytes   (a long match is ≈ 200,000)
    settings   1,000,000 bytes   players.json, lessons.json
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Literal

from engine.errors import BadInput

Kind = Literal["cards", "decks", "scenarios", "lessons", "records", "settings"]

CAPS: dict[str, int] = {
    "cards": 2_000_000,
    "decks": 2_000_000,
    "scenarios": 2_000_000,
    "lessons": 2_000_000,
    "records": 16_000_000,
    "settings": 1_000_000,
}

_WHAT = {"cards": "a card file", "decks": "a deck file", "scenarios": "a scenario file", "lessons": "a lesson file",
         "records": "a match record file", "settings": "a settings file"}


class ReadRefused(BadInput, OSError):
    """A file that isn't read: not a regular file, too large, missing or unreadable. The message names the
    file and what it is instead."""

    def __init__(self, path: Path | str, why: str) -> None:
        self.path = str(path)
        self.why = why
        super().__init__(f"{path}: {why}")

    def __str__(self) -> str:
        return f"{self.path}: {self.why}"


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(n: int) -> str:
    return f"{n:,} bytes"


def read_bounded(path: Path | str, kind: Kind) -> bytes:
    """The bytes of a regular file of at most CAPS[kind] bytes; ReadRefused (an OSError) otherwise."""
    cap = CAPS[kind]
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError as err:
        raise ReadRefused(p, "no such file") from err
    except OSError as err:
        raise ReadRefused(p, f"can't be read: {err.strerror or err}") from err
    if not stat.S_ISREG(st.st_mode):
        raise ReadRefused(p, f"is {file_kind(st.st_mode)}, not {_WHAT[kind]}")
    if st.st_size > cap:
        raise ReadRefused(p, f"{_size(st.st_size)}; {_WHAT[kind]} may have at most {_size(cap)}")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise ReadRefused(p, f"can't be read: {err.strerror or err}") from err
    try:
        st2 = os.fstat(fd)
        if not stat.S_ISREG(st2.st_mode):      # swapped between the stat and the open
            raise ReadRefused(p, f"is {file_kind(st2.st_mode)}, not {_WHAT[kind]}")
        chunks: list[bytes] = []
        got = 0
        while got <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except ReadRefused:
        raise
    except OSError as err:
        raise ReadRefused(p, f"can't be read: {err.strerror or err}") from err
    finally:
        os.close(fd)
    if got > cap:
        raise ReadRefused(p, f"more than {_size(cap)}; {_WHAT[kind]} may have at most {_size(cap)}")
    return b"".join(chunks)


#: C0 and C1 controls, DEL, and the Unicode format characters that reorder or hide text: never in a name
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def nesting_depth(value: object) -> int:
    """How deeply tables/lists nest in a parsed TOML or JSON value (iterative: no recursion limit to hit)."""
    deepest = 0
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict):
            deepest = max(deepest, d + 1)
            todo += [(x, d + 1) for x in v.values()]
        elif isinstance(v, list):
            deepest = max(deepest, d + 1)
            todo += [(x, d + 1) for x in v]
    return deepest


def control_refusal(text: str, what: str = "a name") -> str:
    """Why `text` can't be a name shown on a terminal ("" if it can): a control character (ESC would start
    a terminal escape, a newline breaks the line) or a character that reorders text."""
    m = CONTROL.search(text)
    if m is None:
        return ""
    return f"{what} can't hold the control character U+{ord(m.group(0)):04X} (at character {m.start() + 1})"


class DuplicateKey(BadInput, ValueError):
    """A key given twice in one JSON object (other readers would see another file)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKey(f"the key '{k[:60]}' appears twice in one table")
        out[k] = v
    return out


def loads_json(text: str) -> Any:
    """json.loads refusing a table that names a key twice (other JSON readers keep the first or the last:
    a file must mean one thing). Raises json.JSONDecodeError, DuplicateKey (a ValueError), RecursionError."""
    return json.loads(text, object_pairs_hook=_no_duplicates)


__all__ = [
    "CAPS", "CONTROL", "DuplicateKey", "Kind", "ReadRefused", "control_refusal", "file_kind",
    "loads_json", "nesting_depth", "read_bounded",
]
