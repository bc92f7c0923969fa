"""`c1k docs [NAME [SECTION]]`: the documents that ship with c1k (c1k_tui/model/shipped_docs.py) — the list,
one of them, or one `## ` section of it (`c1k docs formats 4`, `c1k docs formats scenarios`). Rendered on a
terminal; the Markdown source when piped or with `--plain`."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from c1k_tui.model.safetext import escape_output
from c1k_tui.model.shipped_docs import SHIPPED, doc_text, section


def _complete_names(incomplete: str) -> list[str]:
    return [n for n in SHIPPED if n.startswith(incomplete)]


def command(name: Annotated[str | None, typer.Argument(help="A document: " + ", ".join(SHIPPED) + " (none: the list)",
                                                       autocompletion=_complete_names)] = None,
            part: Annotated[str | None, typer.Argument(metavar="[SECTION]", help="One section: its number "
                                                       "(formats 4) or words of its title (formats scenarios)")]
            = None,
            plain: Annotated[bool, typer.Option("--plain", help="Print the Markdown source, not rendered")] = False,
            ) -> None:
    """The documents that ship with c1k: the file formats and the rules. With no name, the list; piped, the Markdown source."""
    if name is None:
        width = max(len(n) for n in SHIPPED)
        for doc in SHIPPED.values():
            typer.echo(f"{doc.name}\t{doc.what}" if not sys.stdout.isatty() else f"{doc.name:<{width}}  {doc.what}")
        return
    if name not in SHIPPED:
        typer.echo(escape_output(f"no document '{name}'; the documents are {', '.join(SHIPPED)}"), err=True)
        raise typer.Exit(2)
    text = doc_text(name)
    if not text.strip():
        typer.echo(f"the document {SHIPPED[name].file} is missing from this installation", err=True)
        raise typer.Exit(2)
    if part is not None:
        found = section(text, part)
        if found is None:
            typer.echo(escape_output(f"no section '{part}' in {name}; `c1k docs {name}` shows them all"), err=True)
            raise typer.Exit(1)
        text = found[1]
    if plain or not sys.stdout.isatty():
        typer.echo(text, nl=False)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    Console(highlight=False).print(Markdown(text))
