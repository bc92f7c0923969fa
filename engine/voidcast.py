"""Voidcast (Null, rules.md §6 KW Voidcast; C1K 9 "modifies resolution timing").

An Action cast for its Voidcast cost (`play <card> pay voidcast`) goes on the stack as usual; when it would
resolve it moves to the Void with no effect (`to_void`), remembering how it was cast (`void_items`: targets,
mode). At the next `end.start`, whoever is active, each card in the Void returns to the stack as a game
item named after the card (`returns_step`, a step of the turn-structure table, among the start-of-End
triggers in APNAP order); when pushed it leaves the Void (`leave_void`), resolves with the targets and mode
it was cast with (engine/stack.py), then goes to the graveyard (zones.finish_item). Countered as it is
played, it goes to the graveyard, never to the Void.
"""

from __future__ import annotations

from engine.cards import CardDef
from engine.core import STEP_GO_ON, MatchState
from engine.state import STACK, VOID, StackItem, Trigger
from engine.triggers import RANK_OTHER


def play_cost(d: CardDef, voidcast: bool) -> int:
    """What playing the card costs: its Voidcast cost when cast for it, else its cost."""
    return d.voidcast if voidcast and d.voidcast is not None else d.cost


def to_void(g: MatchState, item: StackItem) -> None:
    """A card cast for its Voidcast cost resolves: it moves to the Void with no effect."""
    ps = g.players[item.controller]
    ps.void.append(item.source)
    g.zone[item.source] = VOID
    g.void_items[item.source] = item
    g.log(f"  {g.label(item.source)} (Voidcast) moves to the Void: it returns at the next end.start",
          "move", item.controller, (item.source,), detail="void", rule="KW Voidcast")


def returns_step(g: MatchState) -> int:
    """end.start: cards in the Void return to the stack, whoever is active, as game items (AP's first)."""
    ap = g.active
    for p in (ap, 1 - ap):
        for cid in g.players[p].void:
            vi = g.void_items.get(cid)
            g.triggers.append(Trigger(p, cid, -1, g.card(cid).name, 0, RANK_OTHER, "voidcast", "", 0,
                                      vi.targets if vi else (), True, vi.mode if vi else 0, False,
                                      vi.tseq if vi else ()))
    return STEP_GO_ON


def leave_void(g: MatchState, t: Trigger) -> bool:
    """A returning card goes from the Void to the stack (False: it is no longer in the Void)."""
    void = g.players[t.controller].void
    if t.source not in void:
        return False
    void.remove(t.source)
    g.zone[t.source] = STACK
    return True


__all__ = [
    "leave_void", "play_cost", "returns_step", "to_void",
]
