"""`--json FILE` everywhere in `c1k`: write the data as JSON to FILE, or to stdout when FILE is `-`.

A file is replaced atomically (a temporary file in the same folder, then a rename): an interrupted write
leaves the previous file as it was."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HELP = "Write the data as JSON to FILE (- for stdout)"


def to_stdout(target: Path | None) -> bool:
    return target is not None and str(target) == "-"


def write_json(data: Any, target: Path) -> None:
    """Write `data` to `target` (`-`: stdout). Raises OSError when the file can't be written."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if to_stdout(target):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
