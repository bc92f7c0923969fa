"""Typed messages the screens post to the App (issue #18: screens never call the App's methods).

Kept apart from the screens, and free of the engine, so the App can name them in `@on(...)` at import
time without loading the match screen (the first frame never waits for the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from c1k_tui.model.view import HandCard


class KeyAsked(Message):
    """A message a key asks for (a command, a prompt): the App drops it if the screen changed between the
    key and the message being handled (`GuardedApp.route_key_asked`, `KeyGuard.stale`) — it would act on a
    screen its player hasn't seen. Every kind is routed by that one handler, so none can miss the check."""


class SendCommand(KeyAsked):
    """A docs/formats.md §1 command for the App to send to the engine (the match screen's picks and
    command line)."""

    def __init__(self, command: str, typed: bool = False) -> None:
        self.command = command
        self.typed = typed          # typed on the command line: kept there if it is refused
        super().__init__()


class AskPrompt(KeyAsked):
    """Open the engine's question (an Interrupt or a choice) for the player at the keyboard."""


class PickMode(KeyAsked):
    """A Thread card with several branches: ask which, then pick its targets."""

    def __init__(self, card: HandCard, modes: list[int], cands: list[Any]) -> None:
        self.card = card
        self.modes = modes
        self.cands = cands
        super().__init__()


class PickAbility(KeyAsked):
    """A card with several activated abilities: ask which, then pick its targets."""

    def __init__(self, cid: int, ns: list[int], cands: list[Any]) -> None:
        self.cid = cid
        self.ns = ns
        self.cands = cands
        super().__init__()


class ShowHelp(Message):
    """Open the keys and commands screen."""


__all__ = ["AskPrompt", "KeyAsked", "PickAbility", "PickMode", "SendCommand", "ShowHelp"]
