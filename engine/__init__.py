"""Council of 1000 rules engine: pure, deterministic, no UI and no I/O beyond loading data.

This module is the engine's public face: everything outside `engine/` (the app, the text loop, replays,
AI) imports from here — or uses one of the service modules named in `PUBLIC_MODULES` (records,
scenarios, lessons, …), each with its own documented API. tests/test_boundary.py enforces it for
`c1k_tui/`.

- A match is a `Game`: `Game.new(db, deck1, deck2, seed, options)`, `legal_actions()`,
  `apply(action, player)`, `apply_command(text, typist=player)` (names resolved from what the typist
  may see), `why_not`, `current_player()`, `is_terminal()`, `outcome`, `clone()`, `snapshot()`,
  `state_hash()`, `events`.
- What a player may know of it: `observe(game, player)` (a frozen `PlayerView`) and
  `events_for(game, player, since)` (typed `Event`s; `log_lines_for` renders them as the English log).
- Actions are frozen values (`Pass`, `Play`, …); `str(action)` is its command text, `parse_action` the
  inverse. A refusal is `IllegalAction(rule, reason)`, a typing mistake `MalformedCommand`, a rules loop
  that can't end `RulesLoopError`. Every error c1k raises on purpose descends from `C1KError` (engine/errors.py):
  `BadInput` (files and commands) or `RulesError` (refusals, loops).
"""

import importlib
from typing import TYPE_CHECKING

# The error family is light (every entry point catches it, and the app's first frame must not wait for
# the rest: tests/tui/test_startup_imports.py); everything else loads on first use (PEP 562), from
# `_FROM` below, so `from engine import Game` costs the engine's import once, where it is first needed.
# No name of the face may be a module's name (`engine.selfplay`): importing the module would replace it
# (tests/test_engine_front_door.py).
from engine.errors import BadInput, C1KError, RulesError

if TYPE_CHECKING:
    from engine.actions import (
        COMMAND_VERBS,
        MAX_COMMAND_CHARS,
        Action,
        Activate,
        Attack,
        Block,
        Choose,
        Concede,
        Decline,
        IllegalAction,
        Interrupt,
        MalformedCommand,
        Pass,
        Play,
        SetCard,
        parse_action,
    )
    from engine.actions import USAGE as COMMAND_USAGE
    from engine.ai import Agent, make_agent, play_match
    from engine.cards import (
        KEYWORDS,
        CardDB,
        CardDef,
        CardFileError,
        describe_effects,
        load_card_db,
        mode_words,
        suggest,
        voidcast_words,
    )
    from engine.decks import Deck, bundled_deck_paths, deck_from_data, find_deck, load_deck
    from engine.events import (
        COMMAND_KINDS,
        QUIET_KINDS,
        Event,
        events_for,
        log_lines_for,
    )
    from engine.face import GameFace
    from engine.game import Game, RulesLoopError
    from engine.legality import influence_paid
    from engine.rng import SplitMix64, derive_seed
    from engine.sampling import InfoSet, forecast
    from engine.selfplay import SELFPLAY_MAX_TURNS, random_action
    from engine.state import (
        WINDOW_INDEX,
        WINDOW_RULE,
        WINDOW_TEXT,
        WINDOWS,
        Decision,
        MatchOptions,
        Outcome,
        Termination,
        player_name,
    )
    from engine.view import (
        CardRef,
        Explain,
        HandCard,
        PendingView,
        PlayerView,
        SideView,
        StackEntry,
        UnitView,
        allowed_now,
        helps_targets,
        mode_label,
        observe,
        public_windows,
    )

#: where each lazily loaded name of the public face lives: module -> "NAME NAME ALIAS=NAME …"
_FROM: dict[str, str] = {
    "engine.actions": "COMMAND_VERBS MAX_COMMAND_CHARS Action Activate Attack Block Choose Concede Decline IllegalAction Interrupt MalformedCommand Pass Play SetCard parse_action COMMAND_USAGE=USAGE",
    "engine.ai": "Agent make_agent play_match",
    "engine.cards": "KEYWORDS CardDB CardDef CardFileError describe_effects load_card_db mode_words suggest voidcast_words",
    "engine.decks": "Deck bundled_deck_paths deck_from_data find_deck load_deck",
    "engine.events": "COMMAND_KINDS QUIET_KINDS Event events_for log_lines_for",
    "engine.face": "GameFace",
    "engine.game": "Game RulesLoopError",
    "engine.rng": "SplitMix64 derive_seed",
    "engine.legality": "influence_paid",
    "engine.sampling": "InfoSet forecast",
    "engine.selfplay": "SELFPLAY_MAX_TURNS random_action",
    "engine.state": "WINDOW_INDEX WINDOW_RULE WINDOW_TEXT WINDOWS Decision MatchOptions Outcome Termination player_name",
    "engine.view": "CardRef Explain HandCard PendingView PlayerView SideView StackEntry UnitView allowed_now helps_targets mode_label observe public_windows",
}
_WHERE: dict[str, tuple[str, str]] = {
    alias: (module, name or alias) for module, names in _FROM.items()
    for alias, _, name in (item.partition("=") for item in names.split())
}


if not TYPE_CHECKING:      # (hidden from mypy, which then knows the names above and no others)
    def __getattr__(name: str) -> object:
        """A name of the public face, imported from its module the first time it is asked for."""
        if name not in _WHERE:
            raise AttributeError(f"module 'engine' has no attribute {name!r}")
        module, attr = _WHERE[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value


#: engine modules with their own public API, which code outside the engine may import by name
PUBLIC_MODULES = ("engine.record", "engine.scenario", "engine.lessons", "engine.ai", "engine.canonical",
                  "engine.validation", "engine.sampling", "engine.vectors", "engine.safeio", "engine.cardset",
                  "engine.schemas", "engine.errors", "engine.selfplay")

__all__ = [
    "COMMAND_KINDS", "COMMAND_USAGE", "COMMAND_VERBS", "KEYWORDS", "MAX_COMMAND_CHARS", "PUBLIC_MODULES", "QUIET_KINDS", "SELFPLAY_MAX_TURNS", "WINDOWS", "WINDOW_INDEX", "WINDOW_RULE", "WINDOW_TEXT",
    "Action", "Activate", "Agent", "Attack", "BadInput", "Block", "C1KError", "CardDB", "CardDef", "CardFileError", "CardRef", "Choose",
    "Concede", "Decision", "Decline", "Deck", "Event", "Explain", "Game", "GameFace", "HandCard", "IllegalAction", "InfoSet",
    "Interrupt", "MalformedCommand", "MatchOptions", "Outcome", "Pass", "PendingView", "Play", "PlayerView",
    "RulesError", "RulesLoopError", "SetCard", "SideView", "SplitMix64", "StackEntry", "Termination", "UnitView",
    "allowed_now", "bundled_deck_paths", "deck_from_data", "derive_seed", "describe_effects", "events_for",
    "find_deck", "forecast", "helps_targets", "influence_paid", "load_card_db", "load_deck", "log_lines_for", "make_agent",
    "mode_label", "mode_words", "observe",
    "parse_action", "play_match", "player_name", "public_windows", "random_action", "suggest",
    "voidcast_words",
]
