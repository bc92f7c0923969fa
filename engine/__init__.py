"""Council of 1000 rules engine: pure, deterministic, no UI and no I/O beyond loading data.

This module is the engine's public face: everything outside `engine/` (the app, the text loop, replays,
AI) imports from here. A match is a `Game`; what a player may know of it is `observe(game, player)`
(a frozen `PlayerView`) and `events_for(game, player)` (typed `Event`s); a player's typed command goes
through `game.apply_command(text, typist=player)`.
"""

from engine.actions import Action, IllegalAction, MalformedCommand, parse_action
from engine.ai import Agent, make_agent, play_match
from engine.events import Event, events_for, log_lines_for
from engine.game import Game, RulesLoopError
from engine.sampling import InfoSet, forecast
from engine.state import WINDOWS, Decision, MatchOptions, Outcome, Termination
from engine.view import HandCard, PendingView, PlayerView, SideView, StackEntry, UnitView, observe

__all__ = [
    "Action", "Agent", "Decision", "Event", "Game", "HandCard", "IllegalAction", "InfoSet", "MalformedCommand",
    "MatchOptions", "Outcome", "PendingView", "PlayerView", "RulesLoopError", "SideView", "StackEntry",
    "Termination", "UnitView", "WINDOWS", "events_for", "forecast", "log_lines_for", "make_agent", "observe",
    "parse_action", "play_match",
]
