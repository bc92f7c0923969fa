"""`c1k play --vs …` and `c1k play --ai-vs-ai`: a match against an agent (or two agents) from the command
line — in the app (c1k_tui/screens/app.py, whose AI seats are c1k_tui/screens/versus.py) or, piped, as a
transcript. Here, in the CLI layer, so the screens never import the entry point that starts them."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from c1k_tui.model.session import MatchSession
from c1k_tui.model.versus_session import VersusError, VersusSession, agent_label, agent_spec, transcript
from engine import player_name

# -------------------------------------------------------------------- `c1k play --vs` / `--ai-vs-ai`


def ai_pair(value: str) -> tuple[str, str]:
    """`--agents A,B` (with `--ai-vs-ai`): p1's and p2's agents (`ai:` optional), "" both the default."""
    parts = [x.strip() for x in value.split(",")] if value.strip() else ["ai", "ai"]
    if len(parts) != 2 or not all(parts):
        raise VersusError(f"--agents {value!r}: give two agents as A,B (e.g. --agents greedy,ai:3)")
    out = []
    for x in parts:
        spec = agent_spec(x if x.lower().startswith("ai") else f"ai:{x}", "--agents")
        out.append(spec)
    return out[0], out[1]


def play(deck_a: str | None, deck_b: str | None, seed: int, seed_given: bool, vs: str, ai_vs_ai: str | None,
         pace: int | None, p1: str, p2: str, practice: bool, first: str, playtest: bool, flow: str,
         save: Path | None, interactive: bool, text: bool, scenario: Path | None, echo: Any,
         open_hands: bool = False, compensation: str | None = None) -> int:
    """`c1k play --vs …` and `c1k play --ai-vs-ai [--agents A,B]`. Returns an exit code (messages, not tracebacks)."""
    try:
        if ai_vs_ai is not None:
            a, b = ai_pair(ai_vs_ai)
            specs = {0: a, 1: b}
        else:
            specs = {1: agent_spec(vs)}
            if not specs[1]:
                specs = {}
    except VersusError as err:
        echo(str(err), err=True)
        return 2
    if pace is not None and not 0 <= pace <= 10_000:
        echo(f"--pace {pace}: milliseconds from 0 to 10000", err=True)
        return 2
    if scenario is not None or text:
        echo("--vs and --ai-vs-ai play a match from decks in the app (not with --scenario or --text)", err=True)
        return 2
    watch = len(specs) == 2
    names = [p1, p2]
    for p, spec in specs.items():
        if names[p] == f"p{p + 1}":
            names[p] = agent_label(spec) if not watch else f"{agent_label(spec)} {player_name(p)}"
    if not interactive:
        if not watch:
            echo("--vs ai needs a terminal (the app); piped, only --ai-vs-ai runs (it prints the match)", err=True)
            return 2
        return _watch_text(deck_a, deck_b, seed, specs, names, practice, first, playtest, save, echo, compensation)
    from c1k_tui.model.paths import default_autosave
    from c1k_tui.screens.app import C1KApp

    target = save or default_autosave()
    if deck_a is None and deck_b is None and not watch:
        from c1k_tui.model.builders import StartChoice

        app = C1KApp(mode="start", start=StartChoice("ironbound", "emberfall", seed, p1, p2, open_hands, practice, flow,
                                                     vs), autosave=target)
        app.versus_pace = pace
        app.run()
        return 0

    def build() -> MatchSession:
        return _new(deck_a, deck_b, seed, specs, names, practice, first, playtest, flow, target, watch or open_hands,
                    compensation)

    who = " vs ".join(f"{names[p]}" for p in (0, 1))
    lines = [f"{who} ({deck_a or 'ironbound'} vs {deck_b or 'emberfall'})" + (f" · seed {seed}" if seed_given else ""),
             "watching two agents: both hands are shown · p pause · . step · +/- pace" if watch else
             f"you are p1; p2 is {agent_label(specs[1])} — "
             + ("its hand is shown (--open-hands)" if open_hands else "its hand stays hidden")]
    app = C1KApp(builder=build, splash=lines)
    app.versus_pace = pace
    app.run()
    return 0


def _new(deck_a: str | None, deck_b: str | None, seed: int, specs: dict[int, str], names: list[str],
         practice: bool, first: str, playtest: bool, flow: str, save: Path | None, watch: bool,
         compensation: str | None = None) -> VersusSession:
    from c1k_tui.model.cardset import card_db
    from c1k_tui.model.session import Flow
    from engine import MatchOptions, find_deck, load_deck

    db = card_db((deck_a or "ironbound", deck_b or "emberfall"))   # with --cards and the decks' own card files
    decks = []
    for name, player in ((deck_a or "ironbound", names[0]), (deck_b or "emberfall", names[1])):
        deck = load_deck(find_deck(name), db, playtest)
        deck.player = player
        decks.append(deck)
    options = MatchOptions(practice=practice, first=first)
    if compensation is not None:   # (None: the rules' default)
        options = dataclasses.replace(options, compensation=compensation)
    return VersusSession.new_vs(db, decks, seed, options, specs,
                                flow=Flow(flow), save_path=save, open_hands=watch)


def _watch_text(deck_a: str | None, deck_b: str | None, seed: int, specs: dict[int, str], names: list[str],
                practice: bool, first: str, playtest: bool, save: Path | None, echo: Any,
                compensation: str | None = None) -> int:
    from engine import CardFileError, RulesLoopError

    try:
        s = _new(deck_a, deck_b, seed, specs, names, practice, first, playtest, "full", None, True, compensation)
    except FileNotFoundError as err:
        echo(str(err), err=True)
        return 2
    except CardFileError as err:
        echo(f"{err}\n(use --playtest to play a deck that breaks the format)", err=True)
        return 2
    echo(f"{names[0]} ({deck_a or 'ironbound'}) vs {names[1]} ({deck_b or 'emberfall'}) — both hands open")
    try:
        transcript(s, echo)
    except RulesLoopError as err:
        echo(f"the match can't go on: {err}", err=True)
        return 1
    if save is not None:
        s.save(save)          # once, at the end (an autosave after every command would cost O(n²))
        echo(f"record saved to {save}" if not s.save_error else s.save_error)
    return 0
