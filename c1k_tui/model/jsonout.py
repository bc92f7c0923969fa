"""`--json FILE` everywhere in `c1k`: write the data as JSON to FILE, or to stdout when FILE is `-`.

A file is written as engine/safeio.py's policy says: atomically (a temporary file in the same folder,
fsync'd, then a rename), never onto a device, FIFO, folder or link, and over an existing file only if it
is JSON of the same kind (or with --force)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:        # (the engine loads when a file is written: `c1k --help` stays quick)
    from engine.safeio import WriteKind

HELP = "Write the data as JSON to FILE (- for stdout)"
FORCE_HELP = "Let --json replace a file that isn't a JSON file of its kind"


def to_stdout(target: Path | None) -> bool:
    return target is not None and str(target) == "-"


def write_json(data: Any, target: Path, kind: WriteKind = "json", force: bool = False) -> None:
    """Write `data` to `target` (`-`: stdout). Raises OSError when the file can't be written, WriteRefused
    (an OSError) when it may not be (engine/safeio.py: never a device, FIFO, folder or link; over a file of
    another kind only with `force`)."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if to_stdout(target):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from engine.safeio import write_atomic

    write_atomic(target, text, kind, force)


def json_refusal(target: Path | None, kind: WriteKind = "json", force: bool = False) -> str:
    """Why `--json target` would be refused ("" if it wouldn't): asked before the work that makes the data."""
    if target is None or to_stdout(target):
        return ""
    from engine.safeio import write_refusal

    why = write_refusal(target, kind, force)
    if why is None:
        return ""
    return f"--json {why}" + ("" if why.replaceable else " (- writes to standard output)")


def csv_files(path: Path) -> list[Path]:
    """The CSV files `c1k simulate --csv path` (and the Lab's save) writes: the pairs at `path`, the cards
    and the matches beside it."""
    return [path, path.with_name(path.stem + ".cards.csv"), path.with_name(path.stem + ".matches.csv")]


def report_refusal(json_out: Path | None, csv_out: Path | None, force: bool = False) -> str:
    """Why `c1k simulate --json/--csv` would be refused ("" if it wouldn't), asked before any match is
    played: each file it would write, by the one write policy (engine/safeio.py)."""
    from engine.safeio import write_refusal

    why = json_refusal(json_out, "reports", force)
    if why or csv_out is None:
        return why
    for f in csv_files(csv_out):
        refused = write_refusal(f, "csv", force)
        if refused is not None:
            return f"--csv {refused}"
    return ""
