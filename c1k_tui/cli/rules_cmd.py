"""`c1k rules [ID or words]`: print a rule of docs/rules.md, or find rules by word.

`c1k rules` lists every rule id; `c1k rules "C1K 4.3"` (or `c1k rules c1k 4.3`, `c1k rules guard`) prints
that rule as Markdown; other words list the rules that contain all of them, best first, and print the
rule itself when only one matches.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from c1k_tui.cli import completion
from c1k_tui.model import rulesdoc
from c1k_tui.model.jsonout import FORCE_HELP
from c1k_tui.model.jsonout import HELP as JSON_HELP

# rich's Markdown (markdown-it, pygments) costs ≈0.15 s to import: only `c1k rules` itself needs it, and
# every `c1k` command imports this module to register it (the app's first frame must not wait for it)
if TYPE_CHECKING:
    from rich.console import Console


def rules(query: Annotated[list[str] | None, typer.Argument(
        help="A rule id (C1K 4.3, 'kw guard', 4.3, guard) or words to search for",
        autocompletion=completion.rule_ids)] = None,
          plain: Annotated[bool, typer.Option("--plain", help="Print the Markdown source, not rendered")] = False,
          json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None,
          force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
          ) -> None:
    """The rules: print one by its id, or find rules by word (no argument: list every rule id).

    Piped (stdout not a terminal), lists are one rule a line: id, a tab, the title. `--json FILE`
    writes the rules listed (or the one printed) as data: id, title and Markdown text."""
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False)
    if not rulesdoc.rules():
        typer.echo("the rules document (docs/rules.md) is missing from this installation", err=True)
        raise typer.Exit(2)
    text = " ".join(query or []).strip()
    if json_out is not None:
        _json(text, json_out, force)
        if str(json_out) == "-":
            return
    if not text:
        _table(console, [(rid, rulesdoc.rules()[rid][0]) for rid in rulesdoc.all_ids()], "Every rule")
        if sys.stdout.isatty():
            console.print("c1k rules ID prints one; c1k rules WORDS finds rules by word.", style="dim")
        return
    rid = rulesdoc.normalize_id(text)
    if rid is not None:
        _show(console, rid, plain)
        return
    hits = rulesdoc.search(text)
    if not hits:
        typer.echo(f"no rule id or rule text matches '{text}'; `c1k rules` lists every rule id", err=True)
        raise typer.Exit(1)
    if len(hits) == 1:
        _show(console, hits[0][0], plain)
        return
    _table(console, [(h[0], h[1]) for h in hits], f"{len(hits)} rules mention '{text}' (best first)")
    if sys.stdout.isatty():
        console.print(f'c1k rules "{hits[0][0]}" prints the first.', style="dim")


def _show(console: Console, rid: str, plain: bool) -> None:
    md = rulesdoc.rule_markdown(rid)
    if plain:
        typer.echo(md)
    else:
        from rich.markdown import Markdown

        console.print(Markdown(md))


def _json(text: str, target: Path, force: bool = False) -> None:
    from c1k_tui.model.jsonout import write_json

    if not text:
        ids = rulesdoc.all_ids()
    else:
        rid = rulesdoc.normalize_id(text)
        ids = [rid] if rid is not None else [h[0] for h in rulesdoc.search(text)]
    rows = [{"id": rid, "title": rulesdoc.rules()[rid][0], "text": rulesdoc.rule_markdown(rid)} for rid in ids]
    try:
        write_json(rows, target, "json", force)
    except OSError as err:       # WriteRefused too: a device, FIFO, folder, link, or a file of another kind
        typer.echo(f"can't write {target}: {err.strerror or err}", err=True)
        raise typer.Exit(2) from err
    if not rows:
        raise typer.Exit(1)


def _table(console: Console, rows: list[tuple[str, str]], title: str) -> None:
    if not sys.stdout.isatty():         # a pipe: one rule a line, never wrapped (`c1k rules | grep …`)
        for rid, title_ in rows:
            typer.echo(f"{rid}\t{' '.join(title_.split())}")
        return
    from rich.table import Table

    t = Table(title=title, title_justify="left", show_header=True, header_style="bold")
    t.add_column("rule id", style="cyan", no_wrap=True)
    t.add_column("title")
    for rid, title_ in rows:
        t.add_row(rid, title_)
    console.print(t)
