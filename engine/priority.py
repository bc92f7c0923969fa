"""Passing (C1K 6, RB 1.2): a player-added item resolves when the other player passes, a game-added one
when both do, and an empty stack with both passes ends the window. The Endless Loop watch (rules.md §1):
a state that repeats with only passes in between ends the match in a draw.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import LOOP_CAP, LOOP_WATCH, MatchState, RulesLoopError
from engine.decisions import give_priority, set_over
from engine.stack import resolve_top
from engine.state import (
    Outcome,
    StackItem,
    Termination,
    Trigger,
)
from engine.turn import goto, next_window, open_priority


def do_pass(g: MatchState, p: int) -> None:
    """A pass of `p`, who holds priority (C1K 6). Its empty-stack case is also written out in
    commands._pass (hot: most passes): a change here is a change there (tests/test_pass_paths.py)."""
    g.passed |= 1 << p   # (_bit(p), inlined)
    if g.stack:
        top = g.stack[-1]
        if (top.adder >= 0 and p != top.adder) or (top.adder < 0 and g.passed == 3):
            g.priority = -1
            win = g.win
            g._sba_settled = False   # a resolution may change anything (turn.open_priority)
            if resolve_top(g):
                goto(g, open_priority(g))
            elif g.outcome is not None:
                set_over(g)
            if g.win == win and g.outcome is None:
                watch_loop(g)
            return
        give_priority(g, 1 - p, g.passed)
        return
    if g.passed == 3:
        goto(g, next_window(g, g.win))
    else:
        give_priority(g, 1 - p, g.passed)


def watch_loop(g: MatchState) -> None:
    """Endless Loop (rules.md §1): called after a resolution that only passes led to. Past LOOP_WATCH
    such resolutions in one window, a state seen before (same loop key) ends the match in a draw; past
    LOOP_CAP, a loop that keeps growing the state is a RulesLoopError."""
    g._quiet += 1
    if g._quiet < LOOP_WATCH:
        return
    if g._quiet > LOOP_CAP:
        raise RulesLoopError(f"{LOOP_CAP} resolutions in {g.window} with only passes between them, and the "
                             "state never repeats: the cards cause each other forever and the loop keeps "
                             "growing (rules.md §1, Endless Loop)")
    key = loop_key(g)
    if key in g._loop_seen:
        g.outcome = Outcome(Termination.ENDLESS_LOOP, None)
        g.log(f"  the state of {g._quiet - g._loop_seen[key]} resolution(s) ago repeats with only passes "
              "in between: an endless loop nobody can stop — the match is a draw (Endless Loop)", "sba",
              detail=Termination.ENDLESS_LOOP.value, rule="RULES 1")
        set_over(g)
        return
    g._loop_seen[key] = g._quiet


def loop_key(g: MatchState) -> str:
    """The state hash with the sequence numbers (stack item uids, the order cards entered play) replaced
    by their rank: the rules use them only to order and to compare, so two states that differ only in
    how many numbers were handed out before behave the same from now on."""
    g = g.clone()
    vals: set[int] = set()
    for perm in g.perms.values():
        vals.add(perm.seq)

    def item_vals(it: StackItem | None) -> None:
        if it is not None:
            vals.add(it.uid)
            vals.update(it.tseq)

    def trig_vals(t: Trigger | None) -> None:
        if t is not None:
            vals.add(t.seq)
            vals.update(t.tseq)

    for it in g.stack:
        item_vals(it)
    for it in g.void_items.values():
        item_vals(it)
    for t in g.triggers + g.trigger_queue + g.threads:
        trig_vals(t)
    if g.choice is not None:
        trig_vals(g.choice.trigger)
    if g.intr is not None:
        vals.add(g.intr.item)
    if g.resolving is not None:
        item_vals(g.resolving.item)
    vals.discard(0)
    rank = {v: i for i, v in enumerate(sorted(vals), 1)}

    def rn(v: int) -> int:
        return rank.get(v, v)

    def ritem(it: StackItem) -> StackItem:
        return replace(it, uid=rn(it.uid), tseq=tuple(rn(v) for v in it.tseq))

    def rtrig(t: Trigger) -> Trigger:
        return replace(t, seq=rn(t.seq), tseq=tuple(rn(v) for v in t.tseq))

    for perm in g.perms.values():
        perm.seq = rn(perm.seq)
    g.stack = [ritem(it) for it in g.stack]
    g.void_items = {k: ritem(v) for k, v in g.void_items.items()}
    g.triggers = [rtrig(t) for t in g.triggers]
    g.trigger_queue = [rtrig(t) for t in g.trigger_queue]
    g.threads = [rtrig(t) for t in g.threads]
    if g.choice is not None and g.choice.trigger is not None:
        g.choice = replace(g.choice, trigger=rtrig(g.choice.trigger))
    if g.intr is not None:
        g.intr = replace(g.intr, item=rn(g.intr.item))
    if g.resolving is not None and g.resolving.item is not None:
        g.resolving = replace(g.resolving, item=ritem(g.resolving.item))
    g.seq = len(rank) + 1
    return g.state_hash()


__all__ = [
    "do_pass", "loop_key", "watch_loop",
]
