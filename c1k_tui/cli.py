"""The `c1k` command line (Typer)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from engine.cards import CardDB, CardFileError, load_card_db
from engine.decks import Deck, bundled_deck_paths, find_deck, load_deck

app = typer.Typer(help="Council of 1000: a hot-seat trading-card game and its timing-rules engine.",
                  no_args_is_help=True, add_completion=False)
scenario_app = typer.Typer(help="Scenario files (formats.md §4): set up a position, play commands, check.")
app.add_typer(scenario_app, name="scenario")

DEFAULT_DECKS = ("ironbound", "emberfall")


def _fail(msg: str, code: int = 2) -> typer.Exit:
    typer.echo(msg, err=True)
    return typer.Exit(code)


def _db() -> CardDB:
    try:
        return load_card_db()
    except CardFileError as err:
        raise _fail(str(err)) from err


def _decks(db: CardDB, a: str | None, b: str | None, playtest: bool = False) -> list[Deck]:
    names = [a or DEFAULT_DECKS[0], b or DEFAULT_DECKS[1]]
    out = []
    for i, n in enumerate(names):
        try:
            deck = load_deck(find_deck(n), db, playtest)
        except FileNotFoundError as err:
            raise _fail(str(err)) from err
        except CardFileError as err:
            raise _fail(f"{err}\n(use --playtest to play a deck that breaks the format)") from err
        deck.player = f"p{i + 1}"
        out.append(deck)
    return out


@app.command()
def play(
    deck_a: Annotated[str | None, typer.Argument(help="Deck of p1 (a file, or a bundled deck name)")] = None,
    deck_b: Annotated[str | None, typer.Argument(help="Deck of p2")] = None,
    seed: Annotated[int, typer.Option(help="StateSeed: same seed + same commands = same match")] = 1,
    text: Annotated[bool, typer.Option("--text", help="Plain prompt loop (the only mode so far)")] = True,
    practice: Annotated[bool, typer.Option(help="Practice mode: a refused action never moves priority")] = False,
    open_hands: Annotated[bool, typer.Option("--open-hands", help="Show both hands (teaching, solo)")] = False,
    playtest: Annotated[bool, typer.Option(help="Allow decks that break the format rules")] = False,
    save: Annotated[Path | None, typer.Option(help="Autosave the match record here after every command")] = None,
    p1: Annotated[str, typer.Option(help="Name of player 1")] = "p1",
    p2: Annotated[str, typer.Option(help="Name of player 2")] = "p2",
    auto_pass: Annotated[bool, typer.Option(help="Send 'pass' for a player whose only legal action is pass")] = True,
) -> None:
    """Play a match at this terminal, two players taking turns (hot-seat)."""
    from c1k_tui.textplay import HELP, loop
    from engine.game import Game
    from engine.state import MatchOptions

    db = _db()
    decks = _decks(db, deck_a, deck_b, playtest)
    decks[0].player, decks[1].player = p1, p2
    game = Game.new(db, decks[0], decks[1], seed, MatchOptions(practice=practice))
    typer.echo(f"Council of 1000 — {decks[0].name} ({p1}) vs {decks[1].name} ({p2}), seed {seed}")
    typer.echo(HELP)
    loop(game, decks, input, typer.echo, save, open_hands, auto_pass)


@app.command()
def resume(record: Annotated[Path, typer.Argument(help="A match record saved by `play --save`")],
           open_hands: Annotated[bool, typer.Option("--open-hands")] = False) -> None:
    """Resume a saved match from its record (it replays to the same state hash)."""
    from c1k_tui.textplay import loop
    from engine import record as rec

    db = _db()
    try:
        r = rec.load(record)
        game = rec.replay(r, db)
        _, decks = rec.start(r, db)
    except (CardFileError, OSError) as err:
        raise _fail(str(err)) from err
    loop(game, decks, input, typer.echo, record, open_hands)


@scenario_app.command("check")
def scenario_check(files: Annotated[list[Path], typer.Argument(help="*.scenario.toml files or folders")],
                   verbose: Annotated[bool, typer.Option("-v", help="Print every scenario")] = False) -> None:
    """Run scenarios; exit non-zero on the first failure, printing the step, expected and actual."""
    from engine.scenario import check_files

    paths: list[Path] = []
    for f in files:
        paths += sorted(f.rglob("*.scenario.toml")) if f.is_dir() else [f]
    if not paths:
        raise _fail("no scenario files given")
    db = _db()
    passed = 0
    for res in check_files(paths, db):
        if not res.ok:
            typer.echo(f"FAIL {res.path} — {res.title}\n  {res.message}")
            typer.echo(f"{passed} passed, 1 failed")
            raise typer.Exit(1)
        passed += 1
        if verbose:
            typer.echo(f"ok   {res.path} — {res.title}")
    typer.echo(f"{passed} passed, 0 failed")


@app.command()
def selfplay(
    deck_a: Annotated[str | None, typer.Argument(help="Deck of p1")] = None,
    deck_b: Annotated[str | None, typer.Argument(help="Deck of p2")] = None,
    seed: Annotated[int, typer.Option(help="Base seed; match i is seeded from it and i")] = 1,
    matches: Annotated[int, typer.Option(help="How many matches")] = 10,
) -> None:
    """Play random-legal-action matches; one line each: seed, winner, actions, final state hash."""
    from engine.selfplay import selfplay as run

    db = _db()
    decks = _decks(db, deck_a, deck_b)
    for s in run(db, decks[0], decks[1], seed, matches):
        typer.echo(s.line())


@app.command()
def bench(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
    matches: Annotated[int, typer.Option(help="Matches to play")] = 200,
    seed: Annotated[int, typer.Option(help="Base seed")] = 1,
) -> None:
    """Benchmark: random self-play of the starter decks (matches/s, actions/s, medians in µs)."""
    from c1k_tui.bench import run_bench

    db = _db()
    decks = _decks(db, None, None)
    res = run_bench(db, decks[0], decks[1], matches, seed)
    if json_out:
        typer.echo(json.dumps(res, indent=1))
        return
    for k, v in res.items():
        typer.echo(f"{k:>18}: {v}")


@app.command()
def validate(paths: Annotated[list[Path], typer.Argument(help="Card files (with [[card]]) or deck files")]) -> None:
    """Validate card and deck files: every problem at once, with file and line. Exit 1 if any."""
    import tomllib

    from engine.cards import load_card_file

    db = _db()
    problems: list[str] = []
    for p in paths:
        try:
            raw = tomllib.loads(p.read_text(encoding="utf-8"))
            if "card" in raw:
                load_card_file(p)
            else:
                load_deck(p, db)
        except CardFileError as err:
            problems += err.problems
        except (OSError, tomllib.TOMLDecodeError) as err:
            problems.append(f"{p}: {err}")
    for line in problems:
        typer.echo(line)
    typer.echo(f"{len(paths)} file(s), {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(1)


@app.command()
def decks() -> None:
    """List the bundled decks."""
    for p in bundled_deck_paths():
        typer.echo(p.stem)


if __name__ == "__main__":
    sys.exit(app())
