"""Interrupts (C1K 7, KW Nullify): asking, using, declining.

When an event that Interrupts answer happens — an Action is played (`opponent_plays_action`), attackers
are declared (`attacker_declared`), a Flux outcome is determined (`flux_outcome`), a Thread branch would
resolve (`thread_resolves`) — `offer_interrupts` asks each player who may have a usable Interrupt for it,
AP first. Who is asked is decided on public facts only (`legality.may_interrupt`, rules.md §7a); which
Interrupts a player may use, and why not, is legality's (`usable_interrupts`, `interrupt_refusal`).

A used Interrupt resolves at once, without the stack (`do_interrupt`): a Nullify Action is revealed from
the hand, paid for and goes to the graveyard; an ability is paid for (once per turn, if it says so). What
an Interrupt does to its event beyond its effects is the event owner's (`AFTER_USE`: Paradox cuts a
Thread branch). Then the next asked player (`next_interrupt`), and the game resumes where it would have
gone (the window's continuation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.actions import Interrupt
from engine.cards import INTERRUPT_EVENT_TEXT, Ability
from engine.continuations import Continuation
from engine.core import MatchState
from engine.decisions import ask, resume, set_over
from engine.effects import run_effects
from engine.legality import may_interrupt, usable_interrupts
from engine.sba import sba
from engine.state import STACK, InterruptWindow
from engine.zones import to_graveyard

#: event -> what a used Interrupt does to the event itself, after its effects (filled by the rule that
#: owns the event: engine/paradox.py for `thread_resolves`)
AFTER_USE: dict[str, Callable[[MatchState, Ability], None]] = {}


def offer_interrupts(g: MatchState, event: str, players: tuple[int, ...], then: Continuation, item: int = 0,
                     attackers: tuple[int, ...] = ()) -> bool:
    """Ask, in order, each of `players` who may have a usable Interrupt for `event` (True: a question is
    pending; `then` is where the game goes once nobody else is asked)."""
    asked = [q for q in players if may_interrupt(g, q, event)]
    if not asked:
        return False
    ask_interrupts(g, InterruptWindow(event, tuple(asked), item, attackers, then))
    return True


def ask_interrupts(g: MatchState, w: InterruptWindow) -> None:
    g.intr = w
    p = w.queue[0]
    usable = [c for c, _, _ in usable_interrupts(g, p, w.event)]
    names = ", ".join(g.label(c) for c in usable) or "you hold none usable now"
    ask(g, "interrupt", p, "C1K 7", f"{g.players[p].name}: use an Interrupt ({names}) or decline",
        can_decline=True, eligible=tuple(usable))
    # the question is asked on public facts (may_interrupt); what the player holds stays theirs
    g.log(f"  {g.players[p].name} is asked: use an Interrupt ({names}) or decline ({INTERRUPT_EVENT_TEXT[w.event]})",
          "interrupt",
          p, tuple(usable), detail="asked", rule="C1K 7", private_to=p)


def next_interrupt(g: MatchState) -> None:
    """The next player still to be asked, or (nobody left) the game goes on where the event left it."""
    w = g.intr
    assert w is not None
    rest = tuple(q for q in w.queue[1:] if may_interrupt(g, q, w.event))
    if rest:
        ask_interrupts(g, replace(w, queue=rest))
        return
    g.intr = None
    resume(g, w.resume)


def do_interrupt(g: MatchState, a: Interrupt, p: int) -> None:
    """`interrupt <card> [target …]`: pay, resolve its effects at once (no stack), then ask the next player."""
    w = g.intr
    assert w is not None
    for cid, idx, ab in usable_interrupts(g, p, w.event):
        if cid == a.source:
            g.players[p].influence -= ab.cost
            from_hand = idx < 0
            if from_hand:   # Nullify: the Action is revealed from the hand and used as an Interrupt
                g.players[p].hand.remove(cid)
                g.zone[cid] = STACK
            elif ab.once_per_turn:
                g.perms[cid].used[idx] = g.turn
            g.log(f"  Interrupt: {g.label(cid)} (resolves at once, no stack)", "interrupt", p,
                  (cid,) + a.targets, detail="used", rule="KW Nullify" if from_hand else "C1K 7")
            event = (w.item,) if w.event == "opponent_plays_action" else w.attackers
            run_effects(g, ab.effect, p, cid, list(a.targets), None, event)
            after = AFTER_USE.get(w.event)
            if after is not None:
                after(g, ab)
            if from_hand:
                to_graveyard(g, cid)
            break
    sba(g)
    if g.outcome is not None:
        set_over(g)
        return
    next_interrupt(g)


__all__ = [
    "AFTER_USE", "ask_interrupts", "do_interrupt", "next_interrupt", "offer_interrupts",
]
