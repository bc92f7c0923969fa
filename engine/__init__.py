"""Council of 1000 rules engine: pure, deterministic, no UI and no I/O beyond loading data.

This module is the engine's public face: everything outside `engine/` (the app, the text loop, replays,
AI) imports from here. A match is a `Game`; what a player may know of it is `observe(game, player)`
(a frozen `PlayerView`) and `events_for(game, player)` (typed `Event`s); a player's typed command goes
through `game.apply_command(text, typist=player)`.
"""

from engine.actions import Action, IllegalAction, MalformedCommand, parse_action
from engine.events import Event, events_for, log_lines_for
from engine.game import Game, RulesLoopError
from engine.state import WINDOWS, Decision, MatchOptions, Outcome, Termination
from engine.view import HandCard, PendingView, PlayerView, SideView, StackEntry, UnitView, observe

__all__ = [
    "Action", "Decision", "Event", "Game", "HandCard", "IllegalAction", "MalformedCommand", "MatchOptions",
    "Outcome", "PendingView", "PlayerView", "RulesLoopError", "SideView", "StackEntry", "Termination", "UnitView",
    "WINDOWS", "events_for", "log_lines_for", "observe", "parse_action",
]
