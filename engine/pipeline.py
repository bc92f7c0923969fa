"""The event pipeline of rules.md §4, and the keyword handlers that plug into it.

Every game change that keywords can touch (damage, heal, destroy) is a `PendingEvent` that passes through
the stages, in order: prevention → modification → replacement → finalize → after. (The interrupt
stage, C1K §7, is a decision the engine asks of the players for the events that have Interrupts —
an Action being played, an attacker being declared — before the event reaches the stack.)

Keywords are not special-cased in the damage code: each registers a handler for a stage and an event
kind (engine/keywords.py). `damage`, `heal` and `destroy` run an event through the stages, finalize it
(the change itself) and run the `after` stage.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import MatchState
from engine.triggers import fire
from engine.zones import leave_play, to_graveyard

STAGES = ("prevention", "modification", "replacement", "after")


class PendingEvent:
    """A game change in flight. Handlers may lower `amount`, set `cancelled`, or note `prevented`."""

    __slots__ = ("kind", "source", "target", "amount", "combat", "cancelled", "prevented", "dealt", "converted")

    def __init__(self, kind: str, source: int, target: int, amount: int = 0, combat: bool = False) -> None:
        self.kind = kind          # damage | heal | destroy
        self.source = source      # card id (0: the rules)
        self.target = target      # card id (a unit or a champion)
        self.amount = amount
        self.combat = combat
        self.cancelled = False
        self.prevented = 0
        self.dealt = 0            # what was finally dealt (after finalize)
        self.converted = 0        # damage a replacement turned into something else (Wither counters)


Handler = Callable[["MatchState", PendingEvent], None]

#: stage -> event kind -> handlers, run in registration order
HANDLERS: dict[str, dict[str, list[Handler]]] = {s: {} for s in STAGES}


def register(stage: str, kind: str) -> Callable[[Handler], Handler]:
    if stage not in STAGES:
        raise ValueError(f"unknown pipeline stage {stage!r}")

    def deco(fn: Handler) -> Handler:
        HANDLERS[stage].setdefault(kind, []).append(fn)
        return fn

    return deco


#: each stage's table (the same dicts as in HANDLERS: handlers added to them later are seen)
_PREVENTION, _MODIFICATION, _REPLACEMENT, _AFTER = (HANDLERS[s] for s in STAGES)


def run(game: MatchState, ev: PendingEvent) -> bool:
    """Run the pre-finalize stages; return False if the event was cancelled (replaced by nothing)."""
    kind = ev.kind
    for table in (_PREVENTION, _MODIFICATION, _REPLACEMENT):
        handlers = table.get(kind)
        if handlers:
            for fn in handlers:
                fn(game, ev)
                if ev.cancelled:
                    return False
    return True


def after(game: MatchState, ev: PendingEvent) -> None:
    handlers = _AFTER.get(ev.kind)
    if handlers:
        for fn in handlers:
            fn(game, ev)


# ---------------------------------------------------------------- core keyword handlers


# ---- finalize

def destroy(g: MatchState, cid: int, cause: str) -> bool:
    ev = PendingEvent("destroy", 0, cid)
    if not run(g, ev):
        return False
    # last known information: its abilities still trigger as it dies (AS Combat steps 6)
    fire(g, "on_death", cid, cid)
    leave_play(g, cid)
    to_graveyard(g, cid)
    g.log(f"  {g.label(cid)} is destroyed ({cause})", "destroy", g.owner[cid], (cid,), detail=cause)
    after(g, ev)
    return True


def damage(g: MatchState, source: int, target: int, amount: int, combat: bool = False) -> int:
    if amount <= 0:
        return 0
    ev = PendingEvent("damage", source, target, amount, combat)
    if not run(g, ev):
        return 0
    amount = ev.amount
    if amount <= 0:
        if ev.converted:
            after(g, ev)   # e.g. Decay counters still come with Wither-converted damage
        return 0
    p0, p1 = g.players
    # (g.is_champion / g.champion_owner, inlined)
    ps = p0 if target == p0.champion else p1 if target == p1.champion else None
    if ps is not None:
        ps.life -= amount
        g.log(f"  {g.label(source) if source else 'the rules'} deals {amount} to {ps.name} (life {ps.life})",
              "damage", g.owner[source] if source else -1, (source, target), amount,
              "combat" if combat else "")
    else:
        perm = g.perms.get(target)
        if perm is None:
            return 0
        perm.damage += amount
        perm.killer = source
        g.log(f"  {g.label(source) if source else 'the rules'} deals {amount} to {g.label(target)}",
              "damage", g.owner[source] if source else -1, (source, target), amount,
              "combat" if combat else "")
        fire(g, "on_damaged", target, source)
    ev.dealt = amount
    after(g, ev)
    return amount


def heal(g: MatchState, source: int, target: int, amount: int) -> int:
    if amount <= 0:
        return 0
    ev = PendingEvent("heal", source, target, amount)
    if not run(g, ev):
        return 0
    p0, p1 = g.players
    # (g.is_champion / g.champion_owner, inlined)
    ps = p0 if target == p0.champion else p1 if target == p1.champion else None
    if ps is not None:
        ps.life += ev.amount
        healed = ev.amount
    else:
        perm = g.perms.get(target)
        if perm is None:
            return 0
        healed = min(perm.damage, ev.amount)
        perm.damage -= healed
    if healed > 0:
        g.log(f"  {g.label(target)} heals {healed}", "heal", g.owner[source] if source else -1,
              (source, target), healed)
        fire(g, "on_heal", target, source)
    ev.dealt = healed
    after(g, ev)
    return healed


__all__ = [
    "HANDLERS", "STAGES", "Handler", "PendingEvent", "after", "damage", "destroy", "heal", "register",
    "run",
]
