"""One process at a time holds a match's autosave (rules.md §7a, decision of 2026-12-07).

A process that is about to play a match saved in FILE first takes FILE.lock: a small JSON file naming
the command, its process id, host and start time, created atomically (a hard link of a finished temporary
file, which fails if the lock exists; O_EXCL where links aren't possible). A second process that finds
the lock says who holds it and changes nothing. A lock whose process is gone (a crash, kill -9) is stale:
the next process that opens the match takes it over. Locks are given back when the process exits.
"""

from __future__ import annotations

import atexit
import json
import os
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.errors import BadInput

SUFFIX = ".lock"
_HELD: dict[str, Path] = {}          # the match files this process holds: abspath -> its lock file


class Held(BadInput, OSError):
    """The match file is held by another process (the message says which, since when)."""


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + SUFFIX)


def _started(pid: int) -> str:
    """The process's start time in clock ticks since boot (Linux /proc), "" where it can't be read: tells a
    live holder from a new process that was given the same pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read(4096).decode("ascii", "replace")
        return stat.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def command_label(argv: list[str] | None = None) -> str:
    """`c1k play`, `c1k resume`…: the subcommand only (never its options: a given seed stays out of it)."""
    args = sys.argv[1:] if argv is None else argv
    sub = next((a for a in args[:1] if a.isascii() and a.isalpha()), "")
    return "c1k" + (f" {sub}" if sub else "")


def _mine(command: str) -> dict[str, Any]:
    return {"command": command, "pid": os.getpid(), "host": socket.gethostname(), "proc_start": _started(os.getpid()),
            "since": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}


def _read(lock: Path) -> dict[str, Any] | None:
    """The holder a lock file names; None if it names none (empty or broken)."""
    from engine.safeio import ReadRefused, loads_json, read_bounded

    try:
        data = loads_json(read_bounded(lock, "settings").decode("utf-8"))
    except (ReadRefused, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _alive(holder: dict[str, Any]) -> bool:
    """Whether the process a lock names may still be running (a holder on another host: assumed so)."""
    pid = holder.get("pid")
    if type(pid) is not int or pid <= 0:
        return False
    if holder.get("host") != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # another user's live process
        return True
    except OSError:
        return True
    was = holder.get("proc_start")
    return not (isinstance(was, str) and was and _started(pid) not in ("", was))


def describe(path: Path, holder: dict[str, Any]) -> str:
    cmd = str(holder.get("command", "c1k"))[:40]
    return (f"{path} is open in another c1k: `{cmd}` (process {holder.get('pid')} on {str(holder.get('host'))[:60]}, "
            f"since {str(holder.get('since'))[:40]}); nothing was changed. Finish or quit that one first "
            f"(if it is no longer running, remove {lock_path(path)})")


def _create(lock: Path, data: dict[str, Any]) -> bool:
    """Create the lock file holding `data` atomically; False if it exists."""
    text = json.dumps(data).encode()
    fd, tmp = tempfile.mkstemp(prefix=f".{lock.name}.", suffix=".tmp", dir=lock.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, lock)          # all of it or nothing; fails if the lock exists
            return True
        except FileExistsError:
            return False
        except OSError:                 # a file system without hard links
            pass
        try:
            fd2 = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd2, "wb") as f:
            f.write(text)
        return True
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def hold(path: Path, command: str | None = None) -> None:
    """Hold the match file `path` for this process (again: nothing to do). Raises Held naming the holder
    when another live process holds it; OSError when the lock can't be written (a read-only folder: the
    save would fail the same way, and says so)."""
    key = os.path.abspath(path)
    if key in _HELD:
        return
    lock = lock_path(Path(key))
    if not lock.parent.is_dir():
        return                          # nothing is saved there yet: the save makes the folder, then locks
    mine = _mine(command or command_label())
    for _ in range(3):
        if _create(lock, mine):
            _HELD[key] = lock
            return
        holder = _read(lock)
        if holder is not None and _alive(holder):
            raise Held(describe(path, holder))
        if holder is None and _young(lock):
            raise Held(f"{path} is being opened by another c1k right now; nothing was changed (try again)")
        try:                            # stale: its process is gone
            os.unlink(lock)
        except FileNotFoundError:
            pass
    raise Held(f"{path}: its lock {lock} could not be taken; nothing was changed")


def _young(lock: Path) -> bool:
    """A lock file that names no holder and is under 5 s old is being written (O_EXCL fallback)."""
    try:
        return time.time() - lock.stat().st_mtime < 5
    except OSError:
        return False


def holds(path: Path) -> bool:
    return os.path.abspath(path) in _HELD


def release(path: Path) -> None:
    """Give back the lock of `path` if this process holds it (only a lock that still names this process)."""
    lock = _HELD.pop(os.path.abspath(path), None)
    if lock is None:
        return
    holder = _read(lock)
    if holder is not None and holder.get("pid") == os.getpid():
        try:
            os.unlink(lock)
        except OSError:
            pass


def release_all() -> None:
    for key in list(_HELD):
        release(Path(key))


atexit.register(release_all)
