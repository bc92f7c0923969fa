"""The seat policy for an AI seat playing a human — values, no Textual (rules.md §7a).

An AI seat is asked exactly where a human in its seat would be asked with hands hidden: at its stops,
when the human put something on the stack or acted, at each declaration with a unit able to declare, and
at every question the engine asks (Interrupt, permission, choice: asked on public facts). Elsewhere the
flow passes for it at once, without consulting its hand: *whether* the AI is seen deciding depends only
on public facts, so two AI hands with the same public history give the human the same decisions to watch
(tests/tui/test_seat_policy.py checks it as plain functions).

Its stops are the AI's own, a fixed public set (`AI_STOPS`), the same every turn whatever its hand holds.
The screens (c1k_tui/screens/versus.py) run the agent and the timers; this module decides.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from c1k_tui.model.paths import DEFAULT_STOPS
from c1k_tui.model.session import auto_action
from engine import player_name

if TYPE_CHECKING:
    from c1k_tui.model.session import Flow
    from engine import Action, Game

#: an AI seat's stops (issue #20 item 7): a human's default stops, and also the end of the opponent's combat
#: and of their turn — where a Fast card or ability answers what they did (finish a damaged unit, act before
#: your own turn). A fixed set, the same every turn and whatever its hand holds: public (rules.md §7a).
AI_STOPS = (*DEFAULT_STOPS, "opp:combat.exit", "opp:end.final")


def fair_action(g: Game, flow: Flow) -> Action | None:
    """What the flow sends for an AI seat that plays a human, or None: the agent decides, and the human
    sees it deciding. Only public facts count, never the AI's hand (rules.md §7a): the same rule as a
    human's seat with hands hidden (`auto_action(hidden=True)`: stops, the stack, what the opponent just
    did, who may declare), except that every question the engine asks (an Interrupt, a permission to play
    from the hand, a choice) is the agent's even when decline is all it can answer — the engine asks them
    on public facts, and skipping an empty one would change how many decisions the human sees."""
    if g.is_terminal() or g.decision.kind in ("interrupt", "choice"):
        return None
    return auto_action(g, flow, hidden=True)


def give_ai_stops(flow: Flow, seats: Iterable[int]) -> None:
    """Set each AI seat's stops to the AI's own (`AI_STOPS`: public, fixed); other seats keep theirs."""
    for p in seats:
        flow.stops[player_name(p)] = list(AI_STOPS)


def ai_decided(cmds: Sequence[str], first: int, auto: Collection[int], ai_seats: Iterable[int]) -> bool:
    """Whether an AI seat decided anything in `cmds` (the record's commands from index `first` on): a
    command of its seat that the flow didn't send. Public facts only (rules.md §7a): which commands the
    AI sent and which the flow sent on public facts — never whether the AI had a choice, which would
    tell whether it held a playable card."""
    seats = {f"{player_name(p)}: " for p in ai_seats}
    return any(c[:4] in seats and first + i not in auto for i, c in enumerate(cmds))


__all__ = ["AI_STOPS", "ai_decided", "fair_action", "give_ai_stops"]
