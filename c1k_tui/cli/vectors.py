"""`c1k vectors OUT`: writes the determinism contract's test vectors (docs/determinism.md) to a folder.

What the files hold and how they are built is the engine's (`engine.vectors`: `build_vectors`,
`render`); this module only writes them and turns a failure into a message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def write_vectors(out: Path) -> list[tuple[Path, int]]:
    # (the engine loads only when the command runs: `c1k --help` stays quick)
    from engine.safeio import write_atomic
    from engine.vectors import build_vectors, render

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in build_vectors().items():
        path = out / name
        text = render(data)
        write_atomic(path, text, "vectors")      # never a device, FIFO or link; over a vectors file only
        written.append((path, len(text.encode())))
    return written


def command(out: Annotated[Path, typer.Argument(help="Folder to write the vector files to")]) -> None:
    """Write the determinism test vectors (docs/determinism.md) to OUT."""
    try:
        written = write_vectors(out)
    except OSError as err:
        typer.echo(f"can't write the vectors to {out}: {err}", err=True)
        raise typer.Exit(2) from err
    except Exception as err:   # a generation bug: a message, never a traceback
        typer.echo(f"c1k vectors: generating the vectors failed: {type(err).__name__}: {err}", err=True)
        raise typer.Exit(1) from err
    for path, size in written:
        typer.echo(f"{path} ({size // 1024} KB)")
