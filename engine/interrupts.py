"""Using or declining an Interrupt (C1K 7, KW Nullify): a used Interrupt resolves at once, without the
stack (a Nullify Action is revealed from the hand and goes to the graveyard; one that counters cuts a
waiting Thread branch); then the next asked player, and the game resumes where it would have gone.
"""

from __future__ import annotations

from dataclasses import replace

from engine.actions import (
    Interrupt,
)
from engine.core import MatchState
from engine.decisions import ask_interrupts, resume, set_over
from engine.effects import run_effects
from engine.legality import may_interrupt, usable_interrupts
from engine.paradox import cut_thread
from engine.sba import sba
from engine.state import (
    STACK,
)
from engine.zones import to_graveyard


def next_interrupt(g: MatchState) -> None:
    w = g.intr
    assert w is not None
    rest = tuple(q for q in w.queue[1:] if may_interrupt(g, q, w.event))
    if rest:
        ask_interrupts(g, replace(w, queue=rest))
        return
    g.intr = None
    resume(g, w.resume)


def do_interrupt(g: MatchState, a: Interrupt, p: int) -> None:
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
            if w.event == "thread_resolves" and any(e.do == "counter" for e in ab.effect):
                cut_thread(g)
            if from_hand:
                to_graveyard(g, cid)
            break
    sba(g)
    if g.outcome is not None:
        set_over(g)
        return
    next_interrupt(g)
