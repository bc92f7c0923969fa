"""`c1k rules [ID or words]`: print a rule of docs/rules.md, or find rules by word.

`c1k rules` lists every rule id; `c1k rules "C1K 4.3"` (or `c1k rules c1k 4.3`, `c1k rules guard`) prints
that rule as Markdown; other words list the rules that contain all of them, best first, and print the
rule itself when only one matches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from c1k_tui.model import rulesdoc

# rich's Markdown (markdown-it, pygments) costs ≈0.15 s to import: only `c1k rules` itself needs it, and
# every `c1k` command imports this module to register it (the app's first frame must not wait for it)
if TYPE_CHECKING:
    from rich.console import Console


def rules(query: Annotated[list[str] | None, typer.Argument(
        help="A rule id (C1K 4.3, 'kw guard', 4.3, guard) or words to search for")] = None,
          plain: Annotated[bool, typer.Option("--plain", help="Print the Markdown source, not rendered")] = False,
          ) -> None:
    """The rules: print one by its id, or find rules by word (no argument: list every rule id)."""
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False)
    if not rulesdoc.rules():
        typer.echo("the rules document (docs/rules.md) is missing from this installation", err=True)
        raise typer.Exit(2)
    text = " ".join(query or []).strip()
    if not text:
        _table(console, [(rid, rulesdoc.rules()[rid][0]) for rid in rulesdoc.all_ids()], "Every rule")
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
    console.print(f'c1k rules "{hits[0][0]}" prints the first.', style="dim")


def _show(console: Console, rid: str, plain: bool) -> None:
    md = rulesdoc.rule_markdown(rid)
    if plain:
        typer.echo(md)
    else:
        from rich.markdown import Markdown

        console.print(Markdown(md))


def _table(console: Console, rows: list[tuple[str, str]], title: str) -> None:
    from rich.table import Table

    t = Table(title=title, title_justify="left", show_header=True, header_style="bold")
    t.add_column("rule id", style="cyan", no_wrap=True)
    t.add_column("title")
    for rid, title_ in rows:
        t.add_row(rid, title_)
    console.print(t)
