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
    reports  200,000,000 bytes   `c1k simulate --json` (every match of the run)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from engine.errors import BadInput

Kind = Literal["cards", "decks", "scenarios", "lessons", "records", "settings", "reports"]

CAPS: dict[str, int] = {
    "cards": 2_000_000,
    "decks": 2_000_000,
    "scenarios": 2_000_000,
    "lessons": 2_000_000,
    "records": 16_000_000,
    "settings": 1_000_000,
    "reports": 200_000_000,
}

_WHAT = {"cards": "a card file", "decks": "a deck file", "scenarios": "a scenario file", "lessons": "a lesson file",
         "records": "a match record file", "settings": "a settings file", "reports": "a simulation report file"}


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


# ---------------------------------------------------------------------------------------------- writes
#
# One policy for every file c1k writes (docs/formats.md, "Writing files"): never onto a device, FIFO,
# socket, folder or symbolic link; over an existing file only if it is a file of the same kind (a report
# over a report, a record over a record) or when the user said so (--force, or the app's "Replace it?");
# always atomically: a temporary file in the same folder, written, fsync'd, then renamed over the target.

WriteKind = Literal["records", "reports", "json", "csv", "decks", "settings", "vectors"]

_NAMES: dict[str, str] = {"records": "a c1k match record", "reports": "a c1k simulation report",
                          "json": "a JSON file", "csv": "a CSV file", "decks": "a deck file",
                          "settings": "a c1k settings file", "vectors": "a determinism vectors file"}


class WriteRefused(BadInput, OSError):
    """A file c1k won't write. `replaceable`: a regular file of another kind, which the user may still
    choose to replace (--force, or the app's question)."""

    def __init__(self, path: Path | str, why: str, replaceable: bool = False) -> None:
        self.path = str(path)
        self.why = why
        self.replaceable = replaceable
        super().__init__(f"{path} {why}")

    def __str__(self) -> str:
        return f"{self.path} {self.why}"


def _json_of(path: Path, kind: Kind) -> Any:
    try:
        return loads_json(read_bounded(path, kind).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def _is_report(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("games"), list) and isinstance(data.get("decks"), dict)


def _is_record(head: bytes) -> bool:
    return re.match(rb'\s*\{\s*"format"\s*:\s*"c1k-match-record"', head) is not None


def _head(path: Path, n: int = 4096) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return b""
    try:
        return os.read(fd, n) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


_CSV_HEAD = re.compile(rb"[a-z][a-z0-9_]*(,[a-z][a-z0-9_]*){2,}\r?\n")


def same_kind(path: Path, kind: WriteKind) -> bool:
    """Whether the regular file at `path` is already a file of `kind` (so writing one over it loses
    nothing of another kind)."""
    head = _head(path)
    if kind == "records":
        return _is_record(head)
    if kind == "csv":                  # a c1k CSV: a header of snake_case column names
        return _CSV_HEAD.match(head) is not None
    if kind == "decks":
        import tomllib

        try:
            data = tomllib.loads(read_bounded(path, "decks").decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        return isinstance(data.get("deck"), dict)
    if kind == "vectors":
        return re.match(rb'\s*\{\s*"format"\s*:\s*"c1k-vectors/', head) is not None
    data = _json_of(path, "reports")   # (the largest cap: a report or a JSON listing can be big)
    if kind == "reports":
        return _is_report(data)
    if kind == "settings":
        return isinstance(data, dict)
    return data is not None and not _is_record(head) and not _is_report(data)     # json: any other JSON


def place_refusal(path: Path | str) -> WriteRefused | None:
    """Why nothing may be written at `path` whatever the user says (None: a regular file, or nothing):
    a symbolic link, a folder, a device, a FIFO or a socket."""
    p = Path(path)
    try:
        st = os.lstat(p)
    except OSError:          # nothing there, or a path that can't be (the write says why)
        return None
    if stat.S_ISLNK(st.st_mode):
        return WriteRefused(p, "is a symbolic link: nothing is written through a link (name the file itself)")
    if stat.S_ISDIR(st.st_mode):
        return WriteRefused(p, "is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        return WriteRefused(p, f"is {file_kind(st.st_mode)}, not a regular file: nothing is written there")
    return None


def write_refusal(path: Path | str, kind: WriteKind, force: bool = False) -> WriteRefused | None:
    """Why c1k won't write a file of `kind` at `path` (None: it may). A missing file may be written (a
    missing folder or one that can't be written is the write's own error); an empty file loses nothing."""
    p = Path(path)
    refused = place_refusal(p)
    if refused is not None or force or not os.path.lexists(p):
        return refused
    if os.lstat(p).st_size and not same_kind(p, kind):
        return WriteRefused(p, f"already exists and is not {_NAMES[kind]}: it is not replaced (name another "
                               "file, or --force to replace it)", replaceable=True)
    return None


def write_atomic(path: Path | str, text: str | bytes, kind: WriteKind, force: bool = False,
                 make_folder: bool = False) -> None:
    """Write `text` to `path` as the policy above says: WriteRefused (an OSError) when it may not, OSError
    when the write fails; never leaves a temporary file, and a failed write leaves the old file as it was.
    A new file gets the usual mode (the umask's), a match record 0600 (it holds the seed); a replaced file
    keeps its mode."""
    p = Path(path)
    refused = write_refusal(p, kind, force)
    if refused is not None:
        raise refused
    folder = p.parent if str(p.parent) else Path(".")
    if make_folder:
        folder.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.lstat(p).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o600 if kind == "records" else 0o666 & ~umask
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        again = place_refusal(p)       # swapped for a FIFO or a link meanwhile
        if again is not None:
            raise again
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@contextlib.contextmanager
def atomic_text(path: Path | str, kind: WriteKind, force: bool = False) -> Iterator[io.StringIO]:
    """`with atomic_text(path, "csv") as f:` — text written to `f` lands in `path` by `write_atomic` when
    the block ends without an error (refused before the block runs, so a refusal costs no work)."""
    refused = write_refusal(path, kind, force)
    if refused is not None:
        raise refused
    buf = io.StringIO(newline="")
    yield buf
    write_atomic(path, buf.getvalue(), kind, force)


__all__ = [
    "CAPS", "CONTROL", "DuplicateKey", "Kind", "ReadRefused", "control_refusal", "file_kind",
    "loads_json", "nesting_depth", "read_bounded", "WriteKind", "WriteRefused", "atomic_text",
    "place_refusal", "same_kind", "write_atomic", "write_refusal",
]
