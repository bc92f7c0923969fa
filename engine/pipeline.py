"""The event pipeline of rules.md §4, and the keyword handlers that plug into it.

Every game change that keywords can touch (damage, heal, destroy) is an `Event` that passes through
the stages, in order: prevention → modification → replacement → finalize → after. (The interrupt
stage, C1K §7, is a decision the engine asks of the players for the events that have Interrupts —
an Action being played, an attacker being declared — before the event reaches the stack.)

Keywords are not special-cased in the damage code: each registers a handler for a stage and an event
kind. The Realm issue adds Ward, Wither, Veilbind, Decay … by registering more handlers here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game

STAGES = ("prevention", "modification", "replacement", "after")


class Event:
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


Handler = Callable[["Game", Event], None]

#: stage -> event kind -> handlers, run in registration order
HANDLERS: dict[str, dict[str, list[Handler]]] = {s: {} for s in STAGES}


def register(stage: str, kind: str) -> Callable[[Handler], Handler]:
    if stage not in STAGES:
        raise ValueError(f"unknown pipeline stage {stage!r}")

    def deco(fn: Handler) -> Handler:
        HANDLERS[stage].setdefault(kind, []).append(fn)
        return fn

    return deco


def run(game: Game, ev: Event) -> bool:
    """Run the pre-finalize stages; return False if the event was cancelled (replaced by nothing)."""
    for stage in ("prevention", "modification", "replacement"):
        for fn in HANDLERS[stage].get(ev.kind, ()):
            fn(game, ev)
            if ev.cancelled:
                return False
    return True


def after(game: Game, ev: Event) -> None:
    for fn in HANDLERS["after"].get(ev.kind, ()):
        fn(game, ev)


# ---------------------------------------------------------------- core keyword handlers


@register("prevention", "damage")
def _ward(game: Game, ev: Event) -> None:
    """Ward N (rules.md §6, §9): a pool of N prevention points, spent as it prevents, not refreshed.
    rules.md §4 lists the prevention layer as "Solace Ward, Barrier": Ward spends first."""
    perm = game.perms.get(ev.target)
    if perm is None or ev.amount <= 0 or perm.ward <= 0:
        return
    spent = min(perm.ward, ev.amount)
    perm.ward -= spent
    temp = perm.temp_granted.get("ward", 0)
    if temp:   # points granted until end of turn are spent first
        if temp > spent:
            perm.temp_granted["ward"] = temp - spent
        else:
            del perm.temp_granted["ward"]
    ev.amount -= spent
    ev.prevented += spent
    game.log(f"  Ward of {game.label(ev.target)} prevents {spent} damage ({perm.ward} left)", cards=(ev.target,),
             amount=spent, rule="KW Ward")


@register("prevention", "damage")
def _barrier(game: Game, ev: Event) -> None:
    """Barrier (rules.md §6): prevents the next damage to the unit, then is removed."""
    perm = game.perms.get(ev.target)
    if perm is None or ev.amount <= 0 or not perm.has_status("barrier"):
        return
    game.remove_status(ev.target, "barrier")
    ev.prevented += ev.amount
    game.log(f"  Barrier of {game.label(ev.target)} prevents {ev.amount} damage", cards=(ev.target,),
             amount=ev.amount, rule="KW Barrier")
    ev.amount = 0


@register("modification", "damage")
def _tough(game: Game, ev: Event) -> None:
    """Tough (RB §3.2): each damage instance to it is reduced by 1."""
    if ev.amount > 0 and ev.target in game.perms and game.keyword(ev.target, "tough") is not None:
        ev.amount -= 1
        game.log(f"  Tough: {game.label(ev.target)} takes 1 less")


@register("after", "damage")
def _lifedrain(game: Game, ev: Event) -> None:
    """Lifedrain: damage it deals heals its Champion (in combat: at C1K 4.3 step 5)."""
    if ev.dealt <= 0 or not ev.source or game.keyword(ev.source, "lifedrain") is None:
        return
    controller = game.controller(ev.source)
    if ev.combat:
        game.lifedrain_due[controller] += ev.dealt
    else:
        game.heal(ev.source, game.players[controller].champion, ev.dealt)


# ---------------------------------------------------------------- Realm handlers (rules.md §6)


@register("replacement", "damage")
def _wither(game: Game, ev: Event) -> None:
    """Wither (Ruin, C1K 4.3 step 3): damage it deals to units becomes permanent -1/-1 counters instead."""
    if ev.amount <= 0 or not ev.source or game.keyword(ev.source, "wither") is None:
        return
    perm = game.perms.get(ev.target)
    if perm is None or game.is_champion(ev.target):
        return
    perm.counters["wither"] = perm.counters.get("wither", 0) + ev.amount
    perm.killer = ev.source
    game.log(f"  Wither: {game.label(ev.target)} gets {ev.amount} -1/-1 counter(s) instead of damage",
             cards=(ev.source, ev.target), rule="KW Wither")
    ev.converted = ev.amount
    ev.amount = 0


@register("after", "damage")
def _decay(game: Game, ev: Event) -> None:
    """Decay N (Ruin, C1K 4.3 step 4): damage it deals to a unit — even converted by Wither — also gives
    that unit N Decay counters, at once, before state-based actions."""
    if ev.dealt + ev.converted <= 0 or not ev.source:
        return
    n = game.keyword(ev.source, "decay")
    perm = game.perms.get(ev.target)
    if not n or perm is None or game.is_champion(ev.target):
        return
    perm.counters["decay"] = perm.counters.get("decay", 0) + n
    game.log(f"  Decay {n}: {game.label(ev.target)} has {perm.counters['decay']} Decay counter(s)",
             cards=(ev.source, ev.target), rule="KW Decay")


@register("after", "damage")
def _veiled_lost(game: Game, ev: Event) -> None:
    """Veiled (Veil): lost when it deals damage."""
    if ev.dealt + ev.converted > 0 and ev.source in game.perms and game.perms[ev.source].has_status("veiled"):
        game.remove_status(ev.source, "veiled")
        game.log(f"  {game.label(ev.source)} dealt damage and is no longer Veiled")


@register("replacement", "destroy")
def _veilbind(game: Game, ev: Event) -> None:
    """Veilbind (Veil, C1K 3.3): if it would be destroyed, instead it becomes Veiled, heals fully and loses
    Veilbind."""
    perm = game.perms.get(ev.target)
    if perm is None or game.keyword(ev.target, "veilbind") is None:
        return
    ev.cancelled = True
    perm.lost.append("veilbind")
    perm.granted.pop("veilbind", None)
    perm.temp_granted.pop("veilbind", None)
    game.add_status(ev.target, "veiled", False)
    game.log(f"  Veilbind: {game.label(ev.target)} is not destroyed — it becomes Veiled and heals fully",
             cards=(ev.target,), rule="KW Veilbind")
    game.heal(ev.target, ev.target, perm.damage)   # a heal event: "when healed" and Bloom see it


@register("after", "heal")
def _bloom(game: Game, ev: Event) -> None:
    """Bloom (Genesis): its effect triggers whenever it, or its Champion, is healed."""
    if ev.dealt <= 0:
        return
    if game.is_champion(ev.target):
        p = game.champion_owner(ev.target)
        for cid in game.permanents(p):
            if game.keyword(cid, "bloom") is not None:
                game.fire("on_bloom", cid, ev.target)
    elif ev.target in game.perms and game.keyword(ev.target, "bloom") is not None:
        game.fire("on_bloom", ev.target, ev.target)
