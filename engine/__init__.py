"""Council of 1000 rules engine: pure, deterministic, no UI and no I/O beyond loading data."""

from engine.actions import Action, IllegalAction, MalformedCommand, parse_action
from engine.game import Game, RulesLoopError
from engine.state import WINDOWS, Decision, MatchOptions, Outcome, Termination

__all__ = [
    "Action", "Decision", "Game", "IllegalAction", "MalformedCommand", "MatchOptions", "Outcome",
    "RulesLoopError", "Termination", "WINDOWS", "parse_action",
]
