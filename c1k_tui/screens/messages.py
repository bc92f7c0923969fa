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
    key and the message being handled (`GuardedApp`, `KeyGuard.stale`) — it would act on a screen its
    player hasn't seen."""


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


__all__ = ["AskPrompt", "KeyAsked", "PickAbility", "PickMode", "ShowHelp"]
