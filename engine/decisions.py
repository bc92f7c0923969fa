"""Asking a player (the engine stops and waits): priority (C1K 6, RB 1.2), a play permission (OPP
Permissions), and the end of the match (RULES 1); each sets `pending` (a `Decision`) and emits its event.
(An Interrupt question is engine/interrupts.py's; a target, branch or order choice, the stack's and
paradox's.) Once a decision is answered, `resume` goes on where its `Continuation` says, through
`RESUME`, which the modules that own each kind fill in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.cards import Effect
from engine.continuations import OPEN_PRIORITY, Continuation, Then
from engine.core import MatchState
from engine.events import RAW_PRIORITY
from engine.options import permit_options
from engine.state import (
    WINDOW_RULE,
    WINDOW_TEXT,
    WINDOWS,
    Choice,
    Decision,
    DecisionKind,
)

#: the priority decisions are immutable values; share them instead of building one per pass:
#: player name -> [2 * window + player] -> (the decision, the text of its event)
_PRIORITY_DECISIONS: dict[str, list[tuple[Decision, str] | None]] = {}


def ask(g: MatchState, kind: DecisionKind, player: int, rule: str, prompt: str, *,
        options: tuple[str, ...] = (), min_choices: int = 0, max_choices: int = 0, can_decline: bool = False,
        eligible: tuple[int, ...] = (), choice: Choice | None = None) -> None:
    """Ask `player` a decision other than priority (a declaration, an Interrupt, a choice): nobody holds
    priority while it is pending, and a choice's meaning (what its numbered options stand for, where the
    game goes on) is kept in `g.choice`. The one place that sets them together (priority: `give_priority`;
    the end of the match: `set_over`)."""
    if choice is not None:
        g.choice = choice
    g.priority = -1
    g.pending = Decision(kind, player, g.window, rule, prompt, options, min_choices, max_choices, can_decline,
                         eligible)


def set_over(g: MatchState) -> None:
    assert g.outcome is not None
    if not (g.pending.kind == "none" and g.pending.rule == "RULES 1"):   # once per match
        o = g.outcome
        g.log(f"  the match is over: {o}; the seed was {g.seed}", "game_over",
              -1 if o.winner is None else o.winner, detail=o.termination.value, rule="RULES 1")
    g.priority = -1
    g.pending = Decision("none", -1, g.window, "RULES 1", f"the match is over: {g.outcome}")


def give_priority(g: MatchState, p: int, passed: int) -> None:
    g.priority = p
    g.passed = passed
    w = g.win
    name = g.players[p].name
    table = _PRIORITY_DECISIONS.get(name)
    if table is None:
        table = _PRIORITY_DECISIONS[name] = [None] * (2 * len(WINDOWS))
    hit = table[2 * w + p]
    if hit is None:
        hit = table[2 * w + p] = (
            Decision("priority", p, WINDOWS[w], WINDOW_RULE[w], f"{name} has priority — {WINDOW_TEXT[w]}"),
            f"  {name} has priority")
    g.pending = hit[0]
    # g.log(line, "priority", p, rule="C1K 6") in its short raw form (hot: every pass)
    g._events.tail.append((RAW_PRIORITY, g.turn, WINDOWS[w], p, hit[1]))  # type: ignore[arg-type]


def offer_permit(g: MatchState, e: Effect, controller: int, source: int) -> bool:
    """OPP 'instruction' permission: during this resolution the player may play one card now,
    ignoring speed (and paying nothing if `free`)."""
    ps = g.players[controller]
    zone = ps.hand if e.zone == "hand" else ps.graveyard
    allowed = tuple(c for c in zone if e.card_type == "any" or g.card(c).type == e.card_type)
    offer = Choice("permit", controller, allowed, 1, OPEN_PRIORITY, None, source, e.free)
    # docs/formats.md §1: answered with the ordinary play command (targets, mode, slot) — so every card
    # with at least one legal way to play it is offered, targeted and Thread cards included
    cands = tuple(c for c in allowed if permit_options(g, c, controller, offer))
    # rules.md §7a: whether a hand holds a card that can be played is private, so a permission to
    # play from the hand is asked whenever the hand is not empty (the graveyard is public)
    if not cands and not (e.zone == "hand" and zone):
        g.log("  permission: nothing can be played", actor=controller, cards=(source,), rule="OPP Permissions",
              private_to=controller, public_text=f"  permission: {ps.name} plays nothing")
        return True
    ask(g, "choice", controller, "OPP Permissions",
        f"{ps.name}: you may play one of these now — play <card> [slot n] [target …] [mode n] — or decline"
        if cands else f"{ps.name}: you may play a card from your hand now, but none can be played — decline",
        options=tuple(g.label(c) for c in cands), min_choices=0, max_choices=1, can_decline=True,
        eligible=cands, choice=replace(offer, values=cands))
    return False


#: what each kind of continuation does, registered by the rule that owns it (engine/turn.py,
#: engine/paradox.py): a lower layer asks, a higher one knows how the game goes on
RESUME: dict[Then, Callable[[MatchState, Continuation], None]] = {}


def resume(g: MatchState, how: Continuation) -> None:
    """Continue after a choice or an Interrupt decision, where `how` says."""
    RESUME[how.then](g, how)


__all__ = [
    "RESUME", "ask", "give_priority", "offer_permit", "resume", "set_over",
]
