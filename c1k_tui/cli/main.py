"""The `c1k` command line (Typer)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from typer.core import TyperGroup

from c1k_tui.cli import completion
from c1k_tui.cli.simulate_cmd import simulate as _simulate
from c1k_tui.model.cardset import CARDS_HELP
from c1k_tui.model.jsonout import FORCE_HELP, json_refusal, write_json
from c1k_tui.model.jsonout import HELP as JSON_HELP
from c1k_tui.model.safetext import escape_output

# The engine is imported inside the commands: importing it takes ≈0.3 s (pydantic), and the Textual app
# shows its first frame before it is needed.
if TYPE_CHECKING:
    from c1k_tui.model.session import MatchSession
    from engine import CardDB, Deck, MatchOptions

#: `c1k --help`: the commands as a newcomer meets them — playing first, then looking things up, then the
#: design tools, then the developer's — each panel in this order (tests/test_help.py: every command is here)
HELP_PANELS: dict[str, tuple[str, ...]] = {
    "Play and learn": ("play", "learn", "resume", "replay"),
    "Look things up": ("rules", "cards", "decks", "docs", "paths"),
    "Design and test": ("validate", "scenario", "simulate", "schema"),
    "Developer tools": ("selfplay", "bench", "vectors"),
}
_ORDER = [name for names in HELP_PANELS.values() for name in names]


class _NewcomerOrder(TyperGroup):
    """The command list in HELP_PANELS' order (Typer keeps the order of registration)."""

    def list_commands(self, ctx: Any) -> list[str]:   # (a click Context: Typer vendors click)
        return sorted(super().list_commands(ctx), key=lambda n: _ORDER.index(n) if n in _ORDER else len(_ORDER))


app = typer.Typer(help="Council of 1000: a hot-seat trading-card game and its timing-rules engine.",
                  no_args_is_help=True, add_completion=True, cls=_NewcomerOrder)
scenario_app = typer.Typer(help="Scenario files (`c1k docs formats 4`): set up a position, play commands, check.")
app.add_typer(scenario_app, name="scenario")
app.command("simulate")(_simulate)

DEFAULT_DECKS = ("ironbound", "emberfall")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"c1k {version('c1k')}")
        except PackageNotFoundError:       # run from a checkout that was never installed
            typer.echo("c1k (not installed: run from a checkout)")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", help="Print the version and exit",
                                                callback=_version, is_eager=True)] = False) -> None:
    """Council of 1000: a hot-seat trading-card game and its timing-rules engine."""


def _emit_json(data: Any, target: Path, force: bool = False) -> None:
    from engine.safeio import WriteRefused

    try:
        write_json(data, target, "json", force)
    except WriteRefused as err:
        raise _fail(json_refusal(target, "json", force) or f"--json {err}") from err
    except OSError as err:
        raise _fail(f"can't write {target}: {err.strerror or err}") from err


def _fail(msg: str, code: int = 2) -> typer.Exit:
    typer.echo(escape_output(msg), err=True)      # a name or path in it never reaches the terminal raw
    return typer.Exit(code)


def _interrupted(note: str = "") -> typer.Exit:
    """Ctrl-C: a line on stderr and exit status 130 (128 + SIGINT), as a shell's own commands do."""
    typer.echo("\n(interrupted" + (f" — {note})" if note else ")"), err=True)
    return typer.Exit(130)


def _quiet_closed_pipe() -> None:
    """`c1k cards | head -1`: when the reader closes the pipe, die by SIGPIPE as `cat` does — no traceback,
    no "Exception ignored" on the way out (Python otherwise turns SIGPIPE into BrokenPipeError, and the
    command line's framework into exit status 1)."""
    import signal

    if hasattr(signal, "SIGPIPE"):        # (not on Windows)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def main() -> None:
    """The `c1k` command (pyproject's script, and `python -m c1k_tui`)."""
    _quiet_closed_pipe()
    app(prog_name="c1k")


def _echo(msg: str) -> None:
    typer.echo(escape_output(msg))


def _db(decks: tuple[str | None, ...] = (), cards: list[Path] | None = None) -> CardDB:
    """The bundled cards, own cards (--cards: from here on, the app's card set too) and the card files the
    decks name."""
    from c1k_tui.model.cardset import card_db
    from engine import CardFileError

    _use_cards(cards)
    try:
        return card_db(decks)
    except CardFileError as err:
        raise _fail(str(err)) from err


CardsOpt = Annotated[list[Path] | None, typer.Option("--cards", help=CARDS_HELP)]
ForceOpt = Annotated[bool, typer.Option("--force", help=FORCE_HELP)]


def _use_cards(cards: list[Path] | None) -> None:
    from c1k_tui.model import cardset

    cardset.use(cards)


def _decks(db: CardDB, a: str | None, b: str | None, playtest: bool = False) -> list[Deck]:
    from engine import CardFileError, find_deck, load_deck

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


def new_seed() -> int:
    """A new match's StateSeed: 64 bits from the operating system's entropy (rules.md §7)."""
    import secrets

    return secrets.randbits(64)


def _run_text(loop: Any, game: Any, decks: list[Deck], save: Path | None, open_hands: bool, auto_pass: bool,
              recorder: Any, learning: bool = False, app: dict[str, Any] | None = None) -> None:
    """The text loop, with the engine's own errors (an endless rules loop) shown as a message."""
    from c1k_tui.cli.textplay import LineEditor
    from engine import RulesLoopError

    tty = sys.stdin.isatty() and sys.stdout.isatty()
    editor = LineEditor.for_terminal() if tty else None      # readline: history, editing, Tab
    try:
        loop(game, decks, editor.read if editor is not None else input, typer.echo, save, open_hands, auto_pass,
             recorder, handoff=tty, learning=learning, editor=editor, app=app)
    except RulesLoopError as err:
        raise _fail(f"the match can't go on: {err}", 1) from err
    except KeyboardInterrupt as err:
        raise _interrupted(f"the match is saved in {save}" if save else "") from err


def _check_save(save: Path, force: bool) -> None:
    """--save FILE: never a folder, device or FIFO; a file that isn't a match record only with --force."""
    from engine.record import allow_replace, save_refusal

    why = save_refusal(save, force)
    if why:
        raise _fail(f"--save {save}: {why.removeprefix(str(save) + ' ')}")
    if force:
        allow_replace(save)


def _hold(path: Path) -> None:
    """Hold a match's file for this process (c1k_tui/model/savelock.py): another c1k that has it open is
    named, and nothing is changed (exit 2)."""
    from c1k_tui.model.savelock import hold

    try:
        hold(path)
    except OSError as err:              # Held, or a lock that can't be written
        raise _fail(str(err) if err.strerror is None else f"{path}: {err.strerror}") from err


def _refuse(why: str) -> None:
    if why:
        raise _fail(why)


def _interactive() -> bool:
    """The Textual app needs a terminal; piped input (scripts, tests) gets the text loop."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _compensation(value: str | None) -> str | None:
    """--compensation's check: a value MatchOptions takes (RULES Second player)."""
    if value is not None:
        from engine import MatchOptions

        try:
            MatchOptions(compensation=value)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from err
    return value


def _options(cls: type[MatchOptions], practice: bool, first: str, compensation: str | None) -> MatchOptions:
    """The match options of `c1k play` (compensation None: the rules' default)."""
    if compensation is None:
        return cls(practice=practice, first=first)
    return cls(practice=practice, first=first, compensation=compensation)


#: `c1k play --help`'s panels
MATCH, SEATS, FLOW, FILES = "Match", "Seats and AI", "Flow: when you are asked", "Files"


def _flow(full_control: bool, auto_pass: bool, stops: bool) -> str:
    if full_control or not auto_pass:
        return "full"
    return "stops" if stops else "auto"


@app.command()
def play(
    deck_a: Annotated[str | None, typer.Argument(help="Deck of p1 (a file, or a bundled deck name)",
                                                 autocompletion=completion.decks)] = None,
    deck_b: Annotated[str | None, typer.Argument(help="Deck of p2", autocompletion=completion.decks)] = None,
    seed: Annotated[int | None, typer.Option(min=0, max=2**64 - 1, help="StateSeed: same seed + same commands = same match "
                                                  "(default: a random one)", rich_help_panel=MATCH)] = None,
    practice: Annotated[bool, typer.Option(help="Practice mode: a refused action never moves priority", rich_help_panel=MATCH)] = False,
    first: Annotated[Literal["p1", "p2", "random"], typer.Option(help="Who goes first (random: from the seed)", rich_help_panel=MATCH)] = "p1",
    compensation: Annotated[str | None, typer.Option(
        callback=_compensation, metavar="PARTS",
        help="What the second player gets for going second (RULES Second player): none, or card, coin, "
             "influence, capacity joined by + in that order (default: the rules' default, card+coin+influence)", rich_help_panel=MATCH)] = None,
    open_hands: Annotated[bool, typer.Option("--open-hands", help="Show both hands, no hand-off screen "
                                                                  "(teaching, solo playtesting)", rich_help_panel=SEATS)] = False,
    playtest: Annotated[bool, typer.Option(help="Allow decks that break the format rules", rich_help_panel=MATCH)] = False,
    p1: Annotated[str, typer.Option(help="Name of player 1", rich_help_panel=SEATS)] = "p1",
    p2: Annotated[str, typer.Option(help="Name of player 2", rich_help_panel=SEATS)] = "p2",
    auto_pass: Annotated[bool, typer.Option(help="Send 'pass' for a player whose only legal action is pass", rich_help_panel=FLOW, hidden=True)] = True,
    stops: Annotated[bool, typer.Option(help="App: also pass for a player outside their stop windows while "
                                             "nothing of the opponent's is on the stack", rich_help_panel=FLOW, hidden=True)] = True,
    full_control: Annotated[bool, typer.Option("--full-control", help="App: ask at every decision", rich_help_panel=FLOW, hidden=True)] = False,
    vs: Annotated[str, typer.Option("--vs", help="Who plays p2: human, or an AI — ai (search, level 2), "
                                                 "ai:1 … ai:4, ai:greedy, ai:random",
                                    autocompletion=completion.opponents, rich_help_panel=SEATS)] = "human",
    ai_vs_ai: Annotated[bool, typer.Option("--ai-vs-ai", help="Watch two agents play (teaching): both hands "
                                                              "shown; p pause, . step, +/- pace", rich_help_panel=SEATS)] = False,
    agents: Annotated[str, typer.Option(help="With --ai-vs-ai: p1's and p2's agents, A,B (e.g. greedy,ai:3)",
                                        autocompletion=completion.agent_pairs, rich_help_panel=SEATS)]
    = "ai,ai",
    pace: Annotated[int | None, typer.Option(help="ms: no AI answer shows sooner after it is asked (default "
                                                  "700); watching: between visible moves (default 900)", rich_help_panel=SEATS)]
    = None,
    text: Annotated[bool, typer.Option("--text", help="The plain prompt loop instead of the Textual app", rich_help_panel=FLOW)] = False,
    flow: Annotated[Literal["stops", "learning", "auto", "full"] | None, typer.Option(
        help="App: when you are asked — stops (default), learning (as stops, and every window is shown as it "
             "is entered, with its rule id and what happened in it), auto (open hands), full "
             "(every decision); it replaces --auto-pass, --stops and --full-control, which still work",
        rich_help_panel=FLOW)] = None,
    save: Annotated[Path | None, typer.Option(help="Autosave the match record here after every command "
                                                   "(app default: the autosave file that `c1k resume` reads)", rich_help_panel=FILES)] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --save replace a file that isn't a match record", rich_help_panel=FILES)]
    = False,
    scenario: Annotated[Path | None, typer.Option(help="Start from a scenario's set-up position "
                                                       "(`c1k docs formats 4`)", rich_help_panel=FILES)] = None,
    cards: Annotated[list[Path] | None, typer.Option("--cards", help=CARDS_HELP, rich_help_panel=FILES)] = None,
) -> None:
    """Play a match at this terminal, two players taking turns (hot-seat).

    Opens the Textual app (with no decks named: the start screen); `--text` or piped input uses the
    plain prompt loop."""
    if seed is not None and not 0 <= seed < 2**64:
        raise _fail(f"--seed {seed}: a seed is a whole number from 0 to 2^64 - 1")
    for option, given in (("DECK_A", deck_a), ("DECK_B", deck_b)):
        if given is not None and not given.strip():
            raise _fail(f"{option}: a deck is a file or a bundled deck name, not empty text (c1k decks lists them)")
    for option, name in (("--p1", p1), ("--p2", p2)):
        from engine.safeio import control_refusal

        if not name.strip():
            raise _fail(f"{option}: a player's name can't be empty")
        if len(name) > 100:
            raise _fail(f"{option}: a player's name has at most 100 characters, not {len(name)}")
        why = control_refusal(name, "a player's name")
        if why:
            raise _fail(f"{option} {escape_output(name)!r}: {why}")
    if text and full_control and flow is not None and flow != "full":
        raise _fail(f"--full-control and --flow {flow} disagree: give one of them")
    if full_control:        # the text loop too: asked at every decision, even when pass is all there is
        auto_pass = False
    if save is not None:
        _check_save(save, force)
    if save is not None or (_interactive() and not text):
        from c1k_tui.model.paths import default_autosave

        _hold(save or default_autosave())     # the app autosaves by default
    _use_cards(cards)
    if cards:                        # own cards that don't load: a message now, not on the splash screen
        _db((deck_a, deck_b), cards)
    if vs.strip().lower() != "human" or ai_vs_ai:      # c1k_tui/screens/versus.py
        from c1k_tui.cli.versus_play import play as play_vs

        code = play_vs(deck_a, deck_b, seed if seed is not None else new_seed(), seed is not None, vs,
                       agents if ai_vs_ai else None, pace,
                       p1, p2, practice, first, playtest, flow or _flow(full_control, auto_pass, stops), save,
                       _interactive(), text, scenario, typer.echo, open_hands, compensation)
        if code:
            raise typer.Exit(code)
        return
    if text or not _interactive():
        if flow is not None:                 # the text loop asks at every decision, or passes what is forced
            auto_pass = flow != "full"
        from c1k_tui.cli.textplay import HELP, loop
        from engine import Game, MatchOptions
        from engine.record import Recorder, Start

        db = _db((deck_a, deck_b), cards)
        if scenario is not None:
            from engine import C1KError
            from engine.scenario import build as build_position
            from engine.scenario import load_scenario

            try:
                scn = load_scenario(scenario, db)
                game = build_position(scn)
            except (C1KError, OSError) as err:        # a broken scenario file, or one that can't be read
                raise _fail(str(err)) from err
            recorder = Recorder(Start.of_scenario(str(scenario), scn.data), game)
            _run_text(loop, game, [], save, open_hands, auto_pass, recorder, flow == "learning")
            return
        decks = _decks(db, deck_a, deck_b, playtest)
        decks[0].player, decks[1].player = p1, p2
        s = seed if seed is not None else new_seed()
        options = _options(MatchOptions, practice, first, compensation)
        game = Game.new(db, decks[0], decks[1], s, options)
        _echo(f"Council of 1000 — {decks[0].name} ({p1}) vs {decks[1].name} ({p2})"
                   + (f", seed {s}" if seed is not None else " (the seed is shown when the match is over)"))
        typer.echo(HELP)
        _run_text(loop, game, decks, save, open_hands, auto_pass, Recorder(Start.of_decks(decks, s, options), game),
                  flow == "learning")
        return
    from c1k_tui.model.builders import StartChoice
    from c1k_tui.model.paths import default_autosave
    from c1k_tui.screens.app import C1KApp

    mode: str = flow or _flow(full_control, auto_pass, stops)
    target = save or default_autosave()
    s = seed if seed is not None else new_seed()
    if deck_a is None and deck_b is None and scenario is None:
        choice = StartChoice("ironbound", "emberfall", s, p1, p2, open_hands, practice, mode)
        C1KApp(mode="start", start=choice, autosave=target).run()
        return

    def build() -> MatchSession:
        """Runs in the app's worker thread after its first frame: engine, cards, decks, the match."""
        from c1k_tui.model.builders import scenario_session, with_saved_stops
        from c1k_tui.model.cardset import card_db
        from c1k_tui.model.session import Flow, MatchSession
        from engine import MatchOptions, find_deck, load_deck

        db = card_db((deck_a or "ironbound", deck_b or "emberfall"))
        if scenario is not None:
            return scenario_session(db, scenario, Flow(mode), open_hands, target)
        decks = []
        for name, player in ((deck_a or "ironbound", p1), (deck_b or "emberfall", p2)):
            deck = load_deck(find_deck(name), db, playtest)
            deck.player = player
            decks.append(deck)
        return MatchSession.new(db, decks, s, _options(MatchOptions, practice, first, compensation),
                                flow=with_saved_stops(Flow(mode), (p1, p2)), save_path=target, open_hands=open_hands)

    if scenario is not None:
        lines = [f"scenario {scenario}", f"flow: {mode}" + (" · open hands" if open_hands else "")]
    else:
        # a seed drawn for this match stays hidden while cards are (rules.md §7); a given one is known
        lines = [f"{p1} ({deck_a or 'ironbound'}) vs {p2} ({deck_b or 'emberfall'})"
                 + (f" · seed {s}" if seed is not None else ""),
                 f"flow: {mode}" + (" · open hands" if open_hands else "") + (" · practice" if practice else "")]
    _run_app(C1KApp(builder=build, splash=lines))


def _run_app(tui: Any) -> None:
    """Run the app; a match that couldn't be set up (shown on its splash screen) exits non-zero."""
    tui.run()
    if tui.return_code:
        raise typer.Exit(tui.return_code)


@app.command()
def resume(record: Annotated[Path | None, typer.Argument(help="A match record (default: the app's autosave)")] = None,
           open_hands: Annotated[bool, typer.Option("--open-hands")] = False,
           text: Annotated[bool, typer.Option("--text", help="The plain prompt loop")] = False) -> None:
    """Resume a saved match from its record (it replays to the same state hash)."""
    if record is None:
        from c1k_tui.model.paths import default_autosave

        record = default_autosave()
        if not record.exists():
            raise _fail(f"no autosaved match at {record}; start one with `c1k play`")
    from c1k_tui.model.hiddenmatch import open_hands_refusal

    _hold(record)                # before anything is read or written: a second c1k changes nothing
    if text or not _interactive():
        from c1k_tui.cli.textplay import loop
        from engine import C1KError
        from engine import record as rec

        db = _db()
        try:
            r = rec.load(record)
            if r.agents:          # c1k_tui/screens/versus.py: the AI seats play in the app only
                raise _fail(f"{record} is a match against an AI: resume it in the app (c1k resume in a terminal)")
            game, decks, recorder = rec.resume(r, db)
        except C1KError as err:  # a record that can't be read (RecordError) or replayed
            raise _fail(f"can't resume {record}:\n{err}") from err
        if open_hands:
            _refuse(open_hands_refusal(record, r, game.is_terminal()))
        from c1k_tui.model.settings import record_app_notice

        note = record_app_notice(r.app, record)
        if note:
            typer.echo(escape_output(f"note: {note}"), err=True)
        _run_text(loop, game, decks, record, open_hands or r.app.get("open_hands") is True, True, recorder,
                  app=r.app)      # the record keeps its app settings (flow, stops, open hands)
        return
    if open_hands:               # checked before the app starts: a refusal is a message and exit 2
        from engine import record as rec

        try:
            r = rec.load(record)
            over = r.app.get("open_hands") is True or rec.replay(r, _db()).is_terminal()
        except (OSError, ValueError) as err:  # RecordError is a ValueError
            raise _fail(f"can't resume {record}:\n{err}") from err
        _refuse(open_hands_refusal(record, r, over))
    from c1k_tui.screens.app import C1KApp

    path = record

    def build() -> MatchSession:
        from c1k_tui.model.builders import resume_session
        from engine import load_card_db

        session = resume_session(load_card_db(), path)
        if open_hands:
            session.open_hands = True
        return session

    _run_app(C1KApp(builder=build, splash=[f"resuming {record}"]))


@app.command()
def replay(record: Annotated[Path, typer.Argument(help="A match record to step through, or a simulation "
                                                       "report (`c1k simulate --json`) with --match")],
           match: Annotated[str | None, typer.Option("--match", metavar="N",
                                                     help="Match N of a simulation report (its 'match' field, "
                                                          "1 to the number of matches): played again from its "
                                                          "seed, decks and agents")] = None,
           save: Annotated[Path | None, typer.Option(help="With --match: also save that match's record here "
                                                          "(a new file)")] = None) -> None:
    """Step forward and back through a match record in the app (both hands shown).

    Every command's state hash is checked first: a record that was changed is refused, naming the first
    command that doesn't match."""
    from c1k_tui.model.matchnames import match_title, outcome_words
    from engine import C1KError
    from engine import record as rec

    db = _db()
    if match is not None:
        from c1k_tui.sim.simulate import SimulateError, load_report, match_number, replay_match

        if save is not None and save.exists():
            raise _fail(f"--save {save}: the file exists; name a new file")
        try:
            report = load_report(record)
            r = replay_match(report, match_number(match, report), str(record))
        except SimulateError as err:
            raise _fail(f"can't replay match {match} of {record}:\n{err}") from err
        if save is not None:
            try:
                rec.save(r, save)
            except OSError as err:
                raise _fail(f"can't save {save}: {err}") from err
    else:
        if save is not None:
            raise _fail("--save goes with --match (a record file is already saved)")
        try:
            r = rec.load(record)
        except C1KError as err:  # RecordError: a file that can't be read, or isn't a record
            raise _fail(f"can't replay {record}:\n{err}") from err
    from c1k_tui.model.hiddenmatch import replay_refusal, shown_seed

    states = rec.replay_iter(r, db)
    shown = 0
    lines: list[str] = []     # printed once the replay is done: whether the seed may be shown depends on its end
    piped = not _interactive()

    def title(over: bool) -> str:
        start = r.start
        if start.scenario is not None:
            return f"scenario {start.scenario.get('path')}"
        # a simulated match (--match) is public: its report gives the seed
        seed = f" · seed {start.seed}" if match is not None else shown_seed(r, over)
        return f"{match_title(r)}{seed}"

    try:
        game = next(states)
        for i, _ in enumerate(states, 1):   # (the same Game, moved on by each command)
            if piped:
                lines.append(f"{i:>4}  {r.commands[i - 1]}" + ("   (refused)" if r.entries[i - 1].refused else ""))
            shown = i
    except C1KError as err:  # RecordError (a rules loop or a deep recursion on the way is one too)
        if piped:
            _echo(title(False))
            for line in lines:
                typer.echo(line)
        raise _fail(f"{record}: replay stops after {shown} good command(s):\n{err}", 1) from err
    if piped:
        _echo(title(game.is_terminal()))
        for line in lines:
            typer.echo(line)
        typer.echo(f"{len(r.commands)} commands, every state hash checked; final state hash {game.state_hash()}")
        if game.outcome is not None:
            _echo(outcome_words(game.outcome, r))
        return
    if match is None:           # the replay screen shows both hands
        _refuse(replay_refusal(record, r, game.is_terminal()))
    from c1k_tui.screens.app import C1KApp

    C1KApp(db=db, mode="replay", replay=r).run()


@app.command()
def learn(lesson: Annotated[str | None, typer.Argument(help="A lesson number or file (default: the list)",
                                                      autocompletion=completion.lessons)] = None,
          list_only: Annotated[bool, typer.Option("--list", help="Print the lessons and exit")] = False,
          text: Annotated[bool, typer.Option("--text", help="Play the lesson in the text loop (also with piped "
                                             "input)")] = False,
          vs_ai: Annotated[bool, typer.Option("--vs-ai", help="A practice match against the AI in the learning "
                                                "flow: every window shown as it is entered, with its rule")] = False,
          coverage: Annotated[bool, typer.Option("--coverage", help="Print which rules have text, a lesson and "
                                                                    "a live explanation")] = False,
          cards: CardsOpt = None) -> None:
    """Lessons: one timing window or rule each, played in the app with full control and open hands."""
    _use_cards(cards)            # (the lesson list and the app load the card set later)
    from c1k_tui.model.builders import find_lessons, lesson_session
    from c1k_tui.screens.app import C1KApp

    if vs_ai and not (coverage or list_only):
        if not _interactive():
            raise _fail("--vs-ai plays in the app: it needs an interactive terminal")
        from c1k_tui.model.builders import learning_vs_ai_session, new_seed

        db = _db()
        C1KApp(db=db, session=learning_vs_ai_session(db, new_seed()), lessons=find_lessons()).run()
        return
    if lesson is not None and not (coverage or list_only) and (text or not _interactive()):
        _learn_text(lesson, cards)
        return
    if coverage or list_only or not _interactive():
        from rich.console import Console

        from c1k_tui.cli.course_cmd import print_course, print_coverage

        if coverage:
            if not print_coverage(Console(highlight=False)):
                raise typer.Exit(1)
            return
        print_course(Console())
        return
    if lesson is None:
        C1KApp(mode="learn", lessons=find_lessons()).run()
        return
    from c1k_tui.model.paths import lessons_dir
    from engine.lessons import course_files

    files = course_files(lessons_dir())      # picked by file name, before anything is read
    picked = _pick_lesson(lesson, [f.name for f in files])
    lessons = find_lessons()
    db = _db(cards=cards)
    listed = {x.path: x for x in lessons}
    if isinstance(picked, int) and files[picked] in listed:
        chosen = listed[files[picked]]
    else:
        picked = files[picked] if isinstance(picked, int) else picked
        from c1k_tui.model.builders import LessonInfo
        from engine.lessons import load_lesson

        try:                         # a lesson file, as the text loop needs: checked before the app starts
            load_lesson(picked, db)
        except (OSError, ValueError) as err:   # LessonError, ScenarioError, CardFileError are ValueErrors
            raise _fail(f"{picked} can't be played as a lesson:\n{_problems(err)}") from err
        chosen = LessonInfo(picked, picked.stem, "", "")
    try:
        session = lesson_session(db, chosen)
    except (OSError, ValueError) as err:      # ScenarioError, CardFileError: changed since it was checked
        raise _fail(f"{chosen.path} can't be played as a lesson:\n{_problems(err)}") from err
    C1KApp(db=db, session=session, lessons=lessons).run()


def _problems(err: Exception) -> str:
    """A loader's problems one a line (CardFileError and its kin list them), else its message."""
    problems = getattr(err, "problems", None)
    return "\n".join(str(p) for p in problems) if isinstance(problems, list) and problems else str(err)


def _pick_lesson(which: str, keys: list[str]) -> int | Path:
    from c1k_tui.model.lessons import LessonPick, pick_lesson

    try:
        return pick_lesson(which, keys)
    except LessonPick as err:
        raise _fail(str(err)) from err


def _learn_text(which: str, cards: list[Path] | None = None) -> None:
    """`c1k learn N --text` (or piped input): the lesson in the text loop; exit 1 if it is not completed."""
    from c1k_tui.cli.learn_text import lesson_loop
    from c1k_tui.model.paths import lessons_dir
    from engine.lessons import LessonError, course_files, load_lesson
    from engine.scenario import ScenarioError

    files = course_files(lessons_dir())     # picked by file name: only the chosen lesson is read
    picked = _pick_lesson(which, [f.name.removesuffix(".scenario.toml") for f in files])
    db = _db(cards=cards)             # --cards: the lesson's own cards too
    path = files[picked] if isinstance(picked, int) else picked
    try:
        chosen = load_lesson(path, db)
    except LessonError as err:
        raise _fail("\n".join(err.problems)) from err
    except (ScenarioError, OSError, ValueError) as err:   # not a scenario at all (a FIFO, a deck, not TOML)
        raise _fail(f"{path} can't be played as a lesson:\n{_problems(err)}") from err

    def read(prompt: str) -> str:
        return input(prompt)

    try:
        done = lesson_loop(chosen, read, typer.echo)
    except KeyboardInterrupt as err:
        raise _interrupted() from err
    if not done:
        raise typer.Exit(1)


@scenario_app.command("check")
def scenario_check(files: Annotated[list[Path], typer.Argument(help="*.scenario.toml files or folders")],
                   verbose: Annotated[bool, typer.Option("-v", help="Print every scenario")] = False,
                   cards: CardsOpt = None) -> None:
    """Run every scenario file and folder given; report each failure (step, expected, actual) and a tally.
    Exit 1 if any failed."""
    from engine.scenario import check_files, scenario_paths, tally

    if not scenario_paths(files):
        raise _fail("no scenario files given (expected *.scenario.toml files or folders holding them)")
    results = check_files(files, _db(cards=cards))
    for res in results:
        if not res.ok:
            _echo(f"FAIL {res.path} — {res.title}\n  {res.message}")
        elif verbose:
            _echo(f"ok   {res.path} — {res.title}")
    typer.echo(tally(results))
    if not all(r.ok for r in results):
        raise typer.Exit(1)


@app.command()
def selfplay(
    deck_a: Annotated[str | None, typer.Argument(help="Deck of p1", autocompletion=completion.decks)] = None,
    deck_b: Annotated[str | None, typer.Argument(help="Deck of p2", autocompletion=completion.decks)] = None,
    seed: Annotated[int, typer.Option(help="Base seed; match i is seeded from it and i (0 to 2^64 - 1)", min=0,
                                      max=2**64 - 1)] = 1,
    matches: Annotated[int, typer.Option(help="How many matches (1 to 100,000)", min=1, max=100_000)] = 10,
) -> None:
    """Play random-legal-action matches; one line each: seed, winner, actions, final state hash."""
    from engine.selfplay import selfplay as run

    db = _db()
    decks = _decks(db, deck_a, deck_b)
    for s in run(db, decks[0], decks[1], seed, matches):
        typer.echo(s.line())


@app.command()
def bench(
    json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None,
    matches: Annotated[int, typer.Option(help="Matches to play (1 to 100,000)", min=1, max=100_000)] = 200,
    seed: Annotated[int, typer.Option(help="Base seed (0 to 2^64 - 1)", min=0, max=2**64 - 1)] = 1,
    force: ForceOpt = False,
) -> None:
    """Benchmark: random self-play of the starter decks (matches/s, actions/s, medians in µs)."""
    _refuse(json_refusal(json_out, "json", force))      # before the work, not after it
    from c1k_tui.cli.bench import run_bench

    db = _db()
    decks = _decks(db, None, None)
    from engine import RulesLoopError

    try:
        res = run_bench(db, decks[0], decks[1], matches, seed)
    except RulesLoopError as err:
        raise _fail(f"a benchmark match can't go on: {err}", 1) from err
    if json_out is not None:
        _emit_json(res, json_out, force)
        if str(json_out) == "-":
            return
    for k, v in res.items():
        typer.echo(f"{k:>18}: {v}")


@app.command()
def validate(paths: Annotated[list[Path], typer.Argument(help="Card, deck or scenario files, or folders of them")],
             cards: CardsOpt = None) -> None:
    """Validate card, deck and scenario files (and folders): every problem at once, with file and line. Exit 1 if any."""
    from engine.validation import validate_report

    n, problems, warnings = validate_report(paths, cards)
    for line in problems + warnings:
        _echo(line)
    typer.echo(f"{n} file(s), {len(problems)} problem(s)" + (f", {len(warnings)} warning(s)" if warnings else ""))
    if problems:
        raise typer.Exit(1)


decks_app = typer.Typer(help="Decks: the bundled list, one deck's summary (`c1k decks show NAME|FILE`), and "
                             "what changed between two lists (`c1k decks diff OLD NEW`).",
                        invoke_without_command=True)
app.add_typer(decks_app, name="decks")


@decks_app.callback()
def decks(ctx: typer.Context,
          json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None,
          force: ForceOpt = False) -> None:
    """List the bundled decks, one name a line (names for `c1k play` and `c1k simulate`)."""
    if ctx.invoked_subcommand is not None:
        return
    from engine import bundled_deck_paths

    paths = bundled_deck_paths()
    if json_out is not None:
        from engine import CardFileError, load_deck

        db = _db()
        rows: list[dict[str, object]] = []
        for p in paths:
            try:
                d = load_deck(p, db)
            except CardFileError as err:  # a broken bundled deck is listed with its problems, not a crash
                rows.append({"name": p.stem, "error": str(err)})
                continue
            rows.append({"name": p.stem, "title": d.name, "champion": d.champion.id, "seat": d.seat.id,
                         "realms": sorted({c.realm for c in d.library} - {"neutral"}), "cards": d.counts})
        _emit_json(rows, json_out, force)
        if str(json_out) == "-":
            return
    for p in paths:
        typer.echo(p.stem)


def _summary_deck(path: Path, db: Any) -> tuple[Any, list[str]]:
    """A deck for `decks show` / `decks diff` as far as it loads, and its construction problems; a file
    that can't be read at all is a message (exit 2)."""
    from c1k_tui.cli.decks_cmd import load_for_summary
    from engine import CardFileError

    try:
        return load_for_summary(path, db)
    except CardFileError as err:
        raise _fail("\n".join(err.problems) or str(err)) from err


@decks_app.command("show")
def decks_show(deck: Annotated[str, typer.Argument(help="A bundled deck's name or a deck file")],
               cards: CardsOpt = None,
               json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None,
               force: ForceOpt = False) -> None:
    """One deck: curve, Realms, types, keywords, the list by cost, and every construction problem. Exit 1 if
    it breaks the construction rules."""
    from rich.console import Console

    from c1k_tui.cli.decks_cmd import deck_summary, print_summary
    from engine import find_deck

    try:
        path = find_deck(deck)
    except FileNotFoundError as err:
        raise _fail(str(err)) from err
    db = _db((deck,), cards)
    d, problems = _summary_deck(path, db)
    summary = deck_summary(d, db, problems)
    if json_out is not None:
        _emit_json(summary, json_out, force)
    if json_out is None or str(json_out) != "-":
        print_summary(summary, Console(highlight=False))
    if problems:
        raise typer.Exit(1)


@decks_app.command("diff")
def decks_diff(old: Annotated[str, typer.Argument(help="The old list: a bundled deck's name or a deck file")],
               new: Annotated[str, typer.Argument(help="The new list: a bundled deck's name or a deck file")],
               cards: CardsOpt = None,
               json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None) -> None:
    """What changed between two lists: champion and Seat, each card whose count moved, the curve and the
    Realms. Exit 0 whether or not they differ; 2 if either can't be read."""
    from rich.console import Console

    from c1k_tui.cli.decks_cmd import deck_diff, print_diff
    from engine import find_deck

    try:
        paths = [find_deck(old), find_deck(new)]
    except FileNotFoundError as err:
        raise _fail(str(err)) from err
    db = _db((old, new), cards)
    (a, _), (b, _) = (_summary_deck(p, db) for p in paths)
    diff = deck_diff(a, b, db)
    if json_out is not None:
        _emit_json(diff, json_out)
    if json_out is None or str(json_out) != "-":
        print_diff(diff, Console(highlight=False))


@app.command()
def cards(
    realm: Annotated[str | None, typer.Option(help="Only this Realm (dominion, veil, ruin, genesis, paradox, "
                                                   "solace, null, neutral)")] = None,
    keyword: Annotated[str | None, typer.Option(help="Only cards with this keyword (e.g. decay, guard)")] = None,
    search: Annotated[str | None, typer.Option(help="Only cards whose name, id or text contains this")] = None,
    card_type: Annotated[str | None, typer.Option("--type", help="Only this type (unit, relic, action, "
                                                                 "champion, seat)")] = None,
    cost: Annotated[str | None, typer.Option(help="Only this cost: N, a range N-M, or N+ (e.g. 2, 2-4, 5+)")] = None,
    cards: CardsOpt = None,
    json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE", help=JSON_HELP)] = None,
    force: ForceOpt = False,
) -> None:
    """The card set (your own cards too, with --cards) as a table, filtered by Realm, keyword, type, cost or
    text.

    Piped (stdout not a terminal): one card a line, tab-separated, never wrapped — `c1k cards | grep …`."""
    from c1k_tui.cli.cards_cmd import print_cards
    from engine import KEYWORDS, suggest

    realms = ("dominion", "veil", "ruin", "genesis", "paradox", "solace", "null", "neutral")
    for option, given in (("--realm", realm), ("--keyword", keyword), ("--search", search), ("--type", card_type)):
        if given is not None and not given.strip():
            raise _fail(f"{option}: expected a word, not empty text (leave the option out to list every card)")
    if realm and realm.lower() not in realms:
        raise _fail(f"unknown Realm '{realm}'{suggest(realm.lower(), realms)}; expected one of {', '.join(realms)}")
    if keyword and keyword.lower().split()[0] not in KEYWORDS:
        raise _fail(f"unknown keyword '{keyword}'{suggest(keyword.lower(), KEYWORDS)}")
    from c1k_tui.cli.cards_cmd import parse_cost

    try:
        costs = parse_cost(cost)
    except ValueError as err:
        raise _fail(str(err)) from err
    if json_out is not None:
        from c1k_tui.cli.cards_cmd import card_rows

        rows = card_rows(_db(cards=cards), realm, keyword, search, card_type, costs=costs)
        _emit_json(rows, json_out, force)
        if str(json_out) == "-":
            if not rows:
                raise typer.Exit(1)
            return
    shown = print_cards(_db(cards=cards), realm, keyword, search, card_type, costs=costs,
                        plain=not sys.stdout.isatty())
    if not shown:
        raise typer.Exit(1)


@app.command()
def schema(kind: Annotated[str, typer.Argument(help="cards, deck, scenario, lesson, record or report",
                                               autocompletion=completion.kinds)]) -> None:
    """Print the JSON Schema of a file kind (`c1k docs formats 8` says how an editor uses it)."""
    from engine.schemas import KINDS, schema_text

    if kind not in KINDS:
        from engine import suggest

        raise _fail(f"unknown kind '{kind}'{suggest(kind, KINDS)}; expected one of {', '.join(KINDS)}")
    typer.echo(schema_text(kind), nl=False)


app.command("rules")(__import__("c1k_tui.cli.rules_cmd", fromlist=["rules"]).rules)   # c1k rules [ID or words]
app.command("vectors")(__import__("c1k_tui.cli.vectors", fromlist=["command"]).command)  # docs/determinism.md
app.command("paths")(__import__("c1k_tui.cli.paths_cmd", fromlist=["command"]).command)  # where your files are
app.command("docs")(__import__("c1k_tui.cli.docs_cmd", fromlist=["command"]).command)   # the shipped docs


def _reflow(doc: str | None) -> str | None:
    """A docstring as help: each paragraph one line, so the terminal wraps it (Typer keeps a docstring's
    line breaks, which then break mid-sentence at any other width)."""
    if doc is None:
        return None
    import inspect

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


def _arrange_help(typer_app: typer.Typer) -> None:
    """Each command in its HELP_PANELS panel, and every help text reflowed (sub-commands too)."""
    panel_of = {name: panel for panel, names in HELP_PANELS.items() for name in names}
    for info in typer_app.registered_commands:
        name = info.name or (info.callback.__name__.lower().replace("_", "-") if info.callback else "")
        if typer_app is app:
            info.rich_help_panel = panel_of.get(name)
        info.help = _reflow(info.help or (info.callback.__doc__ if info.callback else None))
    for group in typer_app.registered_groups:
        if group.name is not None:
            group.rich_help_panel = panel_of.get(group.name)
        if group.typer_instance is not None:
            _arrange_help(group.typer_instance)


_arrange_help(app)


if __name__ == "__main__":
    sys.exit(app())
