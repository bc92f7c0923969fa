"""`c1k simulate`: the command (options, progress, output); the library is `c1k_tui.sim`."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated

import typer

from c1k_tui.sim.backends import make_backend
from c1k_tui.sim.jobs import DEFAULT_MAX_TURNS, SimulateError, _card_db
from c1k_tui.sim.render import CARD_SORTS, print_report, report_plots, write_csv
from c1k_tui.sim.report import (
    compare_section,
    deck_table,
    own_card_files,
    plan,
    plan_compare,
    resolve_compare,
    resolve_decks,
    run,
    seal_report,
)


def _complete_decks(incomplete: str) -> list[str]:
    from c1k_tui.cli.completion import decks

    return decks(incomplete)


def _complete_agents(incomplete: str) -> list[str]:
    from c1k_tui.cli.completion import agents

    return agents(incomplete)



def simulate(
    decks: Annotated[list[str] | None, typer.Argument(help="Decks (files or bundled names)",
                                                      autocompletion=_complete_decks)] = None,
    all_decks: Annotated[bool, typer.Option("--all", help="Every bundled deck")] = False,
    agent: Annotated[str, typer.Option(help="Agent of deck A: random, greedy, search[:LEVEL]",
                                       autocompletion=_complete_agents)] = "greedy",
    opponent: Annotated[str | None, typer.Option(help="Agent of deck B (default: the same as --agent)",
                                                 autocompletion=_complete_agents)] = None,
    matches: Annotated[int, typer.Option(help="Matches per pair (seats alternate; 1 to 1,000,000)", min=1,
                                         max=1_000_000)] = 20,
    workers: Annotated[int | None, typer.Option(help="Worker processes, 1 to 1,024 (default: all cores)", min=1,
                                                max=1024)] = None,
    backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (ray backend)")] = None,
    seed: Annotated[int, typer.Option(help="Base seed: same seed, same results (0 to 2^64 - 1)", min=0,
                                      max=2**64 - 1)] = 1,
    max_turns: Annotated[int, typer.Option(help="A match still running after this many turns is a draw "
                                                "(1 to 1,000,000)", min=1, max=1_000_000)]
    = DEFAULT_MAX_TURNS,
    compensation: Annotated[str | None, typer.Option(
        metavar="PARTS", help="The second player's compensation (RULES Second player): none, or card, coin, "
        "influence, capacity joined by + in that order (default: the rules' default, card+coin+influence)")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help="Write the full report as JSON "
                                                  "to FILE, - for stdout instead of the tables (with every match: "
                                                  "`c1k replay FILE --match N` opens one)")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write the pairs to FILE as CSV, and the cards and "
                                                               "matches to <stem>.cards.csv and <stem>.matches.csv "
                                                               "beside it")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar or tables")] = False,
    plots: Annotated[bool, typer.Option(help="Terminal plots: win rate against the field and ratings, with "
                                             "their 95% intervals")] = True,
    cards: Annotated[list[Path] | None, typer.Option("--cards", help="Your own cards: a card file or a folder "
                                                                     "of them (repeatable)")] = None,
    compare: Annotated[tuple[str, str] | None, typer.Option(
        "--compare", metavar="OLD NEW", help="A/B: two lists of a deck against the same field, seeds and seats; "
                                             "reports the difference with its 95% interval")] = None,
    field_decks: Annotated[list[str] | None, typer.Option("--field", help="With --compare: the decks to play "
                                                                          "against (repeatable; default: every "
                                                                          "bundled deck but OLD and NEW)")] = None,
    top: Annotated[int | None, typer.Option("--top", help="Card statistics: only the first N cards (default: "
                                                          "every card; 0: none)")] = None,
    sort: Annotated[str, typer.Option("--sort", help="Card statistics order: " + ", ".join(CARD_SORTS))] = "iwd",
    force: Annotated[bool, typer.Option("--force", help="Let --json/--csv replace files that aren't a report/CSV")]
    = False,
) -> None:
    """Simulate matches between decks and agents: win-rate matrix, ratings, per-card statistics, every match.

    With --compare OLD NEW: is the new list better against the field? Both play the same field on the
    same seeds and seats."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from c1k_tui.model.jsonout import report_refusal, to_stdout, write_json
    from engine.ai import make_agent

    console = Console(stderr=False)
    # the progress bar goes to stderr: `simulate > report.txt` keeps the report alone, and a terminal
    # on stderr still shows the bar while stdout is redirected
    progress_console = Console(stderr=True)
    if to_stdout(json_out):
        quiet_tables = True
    else:
        quiet_tables = quiet
    opp = opponent or agent
    try:
        if why := report_refusal(json_out, csv_out, force):     # before the matches, not after them
            raise SimulateError(why)
        for a in (agent, opp):
            try:
                make_agent(a)
            except ValueError as err:
                raise SimulateError(str(err)) from err
        if matches < 1:
            raise SimulateError("--matches must be at least 1")
        if max_turns < 1:
            raise SimulateError("--max-turns must be at least 1")
        from engine import MatchOptions

        try:
            compensation = MatchOptions(compensation=compensation or MatchOptions().compensation).compensation
        except ValueError as err:
            raise SimulateError(f"--compensation: {err}") from err
        if sort not in CARD_SORTS:
            raise SimulateError(f"unknown --sort '{sort}'; expected one of {', '.join(CARD_SORTS)}")
        if top is not None and top < 0:
            raise SimulateError("--top must be 0 or more")
        own = list(cards or [])
        cmp_labels: tuple[str, str] | None = None
        if compare is not None:
            if decks or all_decks:
                raise SimulateError("--compare OLD NEW plays against --field decks: name no other decks")
            deck_list, old, new, fld = resolve_compare(compare[0], compare[1], field_decks, own)
            cmp_labels = (old.label, new.label)
            card_files = own_card_files(own, deck_list)
            pairs, jobs = plan_compare(old, new, fld, agent, opp, matches, seed, max_turns, card_files)
        else:
            if field_decks:
                raise SimulateError("--field goes with --compare OLD NEW")
            deck_list = resolve_decks(decks or [], all_decks, own)
            if len(deck_list) < 2 and opp == agent:
                raise SimulateError("name at least two decks (or one deck with a different --opponent)")
            card_files = own_card_files(own, deck_list)
            pairs, jobs = plan(deck_list, agent, opp, matches, seed, max_turns, card_files, compensation)
        be = make_backend(backend, workers or (os.cpu_count() or 1), address)
        t0 = time.perf_counter()
        if quiet:
            report = run(pairs, jobs, be)
        else:
            with Progress(TextColumn("[bold]simulate[/bold]"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                          console=progress_console) as prog:
                task = prog.add_task("matches", total=len(jobs))
                report = run(pairs, jobs, be, lambda r: prog.advance(task))
        elapsed = time.perf_counter() - t0
    except SimulateError as err:
        typer.echo(f"simulate: {err}", err=True)
        raise typer.Exit(2) from err
    from engine.cardset import manifest

    report["decks"] = deck_table(deck_list)
    db = _card_db(card_files)
    report["card_set"] = manifest(db, [cid for d in deck_list for cid, _ in d.cards]
                                  + [x for d in deck_list for x in (d.champion, d.seat)])
    if cmp_labels is not None:
        report["compare"] = compare_section(report, cmp_labels[0], cmp_labels[1], agent)
    report["run"] = {"seed": seed, "agent": agent, "opponent": opp, "matches_per_pair": matches,
                     "backend": be.name, "workers": getattr(be, "workers", None), "seconds": round(elapsed, 2),
                     "max_turns": max_turns, "compensation": compensation, "cards": [str(c) for c in own],
                     "compare": list(compare) if compare else None}
    if not quiet_tables:
        shown = top if top is not None else (0 if compare is not None else None)
        print_report(report, console, shown, sort)
        if plots and compare is None:
            from rich.text import Text

            try:
                charts = report_plots(report, min(console.width, 120), color=console.is_terminal)
            except ImportError:       # an environment installed before plotext was a dependency
                charts = []
                console.print("(no plots: plotext is not installed — pip install -e . installs it)")
            for chart in charts:
                console.print(Text.from_ansi(chart))
        console.print(f"{len(jobs)} matches in {elapsed:.1f} s ({be.name}, "
                      f"{getattr(be, 'workers', '-')} workers)")
    try:
        if json_out:
            write_json(seal_report(report), json_out, "reports", force)
        if csv_out:
            write_csv(report, csv_out, force)
    except OSError as err:
        typer.echo(f"simulate: can't write: {err}", err=True)
        raise typer.Exit(2) from err
    if report["errors"]:
        raise typer.Exit(1)
