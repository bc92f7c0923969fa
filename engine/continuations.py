"""How the game goes on once a player has answered a decision (a choice, an Interrupt question).

A decision asked in the middle of the rules (a trigger's target, a Flux order, a discard at cleanup, an
Interrupt after an Action is played …) stores where the game was going as a `Continuation`; when the
decision is answered, `engine.decisions.resume` carries on from there. The rule that owns each kind
registers what it means (`engine.decisions.RESUME`): engine/turn.py the first four, engine/paradox.py
the Flux one.

A continuation is part of the state: `snapshot()` gives its canonical form, `[kind]` or `[kind, actor]`
(docs/determinism.md §4).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Then(enum.IntEnum):
    """Where the game goes once the decision is answered (the number is its snapshot form)."""

    OPEN_PRIORITY = 0       # a new round of priority, AP first (C1K 6), after what opened it
    AFTER_ACTION = 1        # C1K §6 step 3: after a player's action, priority to the opponent
    FINISH_CLEANUP = 2      # the rest of end.cleanup after the discard (C1K 5.2)
    AFTER_DECLARATION = 3   # C1K 4.1/4.2: after attackers or blockers are declared
    RESUME_RESOLUTION = 4   # KW Flux: the outcome happens after the Flux Interrupts


@dataclass(frozen=True, slots=True)
class Continuation:
    then: Then
    actor: int = -1   # AFTER_ACTION: the player who acted

    def snapshot(self) -> list[int]:
        return [int(self.then)] if self.actor < 0 else [int(self.then), self.actor]

    def __repr__(self) -> str:
        return f"{self.then.name}" + (f"(p{self.actor + 1})" if self.actor >= 0 else "")


OPEN_PRIORITY = Continuation(Then.OPEN_PRIORITY)
FINISH_CLEANUP = Continuation(Then.FINISH_CLEANUP)
AFTER_DECLARATION = Continuation(Then.AFTER_DECLARATION)
RESUME_RESOLUTION = Continuation(Then.RESUME_RESOLUTION)
#: AFTER_ACTION[actor] (shared values: no allocation on the hot path)
AFTER_ACTION = (Continuation(Then.AFTER_ACTION, 0), Continuation(Then.AFTER_ACTION, 1))


__all__ = [
    "AFTER_ACTION", "AFTER_DECLARATION", "FINISH_CLEANUP", "OPEN_PRIORITY", "RESUME_RESOLUTION",
    "Continuation", "Then",
]
