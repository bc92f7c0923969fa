"""`c1k paths`: where c1k keeps a user's files (c1k_tui/model/paths.py), as `posting locate` does — for a
person (a table), a script (one `NAME<TAB>PATH` a line when piped) or a program (`--json`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from c1k_tui.model.jsonout import HELP as JSON_HELP
from c1k_tui.model.jsonout import to_stdout, write_json
from c1k_tui.model.paths import locations
from c1k_tui.model.safetext import escape_output


def command(json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None) -> None:
    """Where your files are: player options (config), lesson progress (data), the autosaves (state), and
    $C1K_HOME when it is set.

    Piped: one `NAME<TAB>PATH` a line. Nothing is created."""
    rows = locations()
    if json_out is not None:
        data = [{"name": r.name, "path": str(r.path), "exists": r.path.exists(), "what": r.what} for r in rows]
        try:
            write_json(data, json_out)
        except OSError as err:
            typer.echo(escape_output(f"can't write {json_out}: {err.strerror or err}"), err=True)
            raise typer.Exit(2) from err
        if to_stdout(json_out):
            return
    if not sys.stdout.isatty():
        for r in rows:
            typer.echo(escape_output(f"{r.name}\t{r.path}"))
        return
    width = max(len(r.name) for r in rows)
    for r in rows:
        there = "" if r.path.exists() else "   (not created yet)"
        typer.echo(escape_output(f"{r.name:<{width}}  {r.path}{there}"))
        typer.echo(f"{'':<{width}}  {r.what}")
