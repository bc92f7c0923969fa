"""Every keyword of rules.md §6, in its order: the handlers a keyword plugs into the event pipeline (rules.md
§4), the triggers it creates at the start of a phase, and its checks. A keyword whose rule is one step of a
larger rule lives with that rule, and its entry here says where.

| keyword | here | elsewhere |
|---|---|---|
| Strike | | combat.combat_damage (C1K 4.3 step 1) |
| Tough | `tough_reduces` (modification) | |
| Barrier | `barrier_prevents` (prevention) | zones.enter_play (printed: a status) |
| Overwhelm | | combat.combat_damage (Excess, RB 3.1) |
| Regeneration | start-of-Influence trigger | |
| Guard | `guard_refusal` | options.block_assignments (the same rule, per leaf) |
| Charge | | legality.attack_block_reason |
| Lifedrain | `lifedrain_heals` (after damage) | combat.combat_damage (step 5) |
| Rally | `rally` (ATTACK_DECLARED_HOOKS) | |
| Conquer | | combat.combat_damage (step 5) |
| Veiled | `targetable`, `veiled_lost` (after damage) | legality.can_block |
| Set, Ambush | SET_COST | legality.set_refusal, commands.do_set / do_play |
| Veilbind | `veilbind_escapes` (replaces destroy) | |
| Decay | `decay_counters` (after damage), Decay Check trigger | |
| Wither | `wither_converts` (replaces damage) | |
| Growth | start-of-Influence trigger | |
| Evolve | `evolve_check` (with state-based actions) | |
| Bloom | `bloom_triggers` (after heal) | |
| Rooted | | legality.attack_block_reason, combat.drop_illegal_attackers |
| Flux, Thread | | engine/paradox.py |
| Pulse | start-of-Influence trigger | |
| Ward | `ward_prevents` (prevention, first) | effects `grant` (adds points) |
| Suppress | | effects `suppress`; triggers.fire, legality (abilities off) |
| Nullify | | engine/interrupts.py, legality.usable_interrupts |
| Voidcast | | engine/voidcast.py |

The pipeline handlers are registered at the bottom, stage by stage, in the order they run.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import MatchState
from engine.pipeline import PendingEvent, damage, heal, register
from engine.state import Refusal, StackItem
from engine.triggers import RANK_DESTRUCTION, RANK_OTHER, fire


class StartTrigger:
    """A trigger the rules create at the start of a phase for the active player's units (rules.md §2, §6)."""

    def __init__(self, name: str, keyword: str, applies: Callable[[MatchState, int], bool],
                 resolve: Callable[[MatchState, StackItem], None], rank: int = RANK_OTHER) -> None:
        self.name = name          # the item's keyword tag (and, for a rule's trigger, its stack name)
        self.keyword = keyword    # "" for a rule's own trigger (Decay Check): named after the rule
        self.applies = applies
        self.resolve = resolve
        self.rank = rank


# The damage handlers run for every damage event: each first checks, inline, the usual answer of its
# `game.keyword(c, name)` — None when `name` is not printed on the card and nothing is granted to it
# (`perm.granted`, `perm.temp_granted` empty) — and asks `game.keyword` only otherwise.


# ---------------------------------------------------------------- KW Tough


def tough_reduces(game: MatchState, ev: PendingEvent) -> None:
    """Tough (RB §3.2): each damage instance to it is reduced by 1."""
    t = ev.target
    perm = game.perms.get(t)
    if perm is None or ev.amount <= 0:
        return
    if game.keyword(t, "tough") is not None:
        ev.amount -= 1
        game.log(f"  Tough: {game.label(ev.target)} takes 1 less")


# ---------------------------------------------------------------- KW Barrier


def barrier_prevents(game: MatchState, ev: PendingEvent) -> None:
    """Barrier (rules.md §6): prevents the next damage to the unit, then is removed."""
    perm = game.perms.get(ev.target)
    # (perm.has_status("barrier"), inlined)
    if perm is None or ev.amount <= 0 or ("barrier" not in perm.statuses and "barrier" not in perm.temp_statuses):
        return
    game.remove_status(ev.target, "barrier")
    ev.prevented += ev.amount
    game.log(f"  Barrier of {game.label(ev.target)} prevents {ev.amount} damage", cards=(ev.target,),
             amount=ev.amount, rule="KW Barrier")
    ev.amount = 0


# ---------------------------------------------------------------- KW Regeneration


def regenerate(g: MatchState, item: StackItem) -> None:
    """Regeneration: heals fully (at influence.start, rules.md §6)."""
    heal(g, item.source, item.source, g.perms[item.source].damage)


# ---------------------------------------------------------------- KW Guard


def guard_refusal(g: MatchState, blockers: list[int]) -> Refusal | None:
    """C1K 4.2 step 3: while the defender has a ready Guard unit that isn't blocking, non-Guard units
    can't block."""
    dp = 1 - g.active
    idle_guards = [u for u in g.players[dp].units()
                   if g.keyword(u, "guard") is not None and not g.perms[u].exhausted and u not in blockers]
    if not idle_guards:
        return None
    for b in blockers:
        if g.keyword(b, "guard") is None:
            return Refusal("KW Guard", f"{g.card(b).name} can't block while {g.label(idle_guards[0])} "
                                       "(Guard) is ready and not blocking")
    return None


# ---------------------------------------------------------------- KW Lifedrain


def lifedrain_heals(game: MatchState, ev: PendingEvent) -> None:
    """Lifedrain: damage it deals heals its Champion (in combat: at C1K 4.3 step 5)."""
    src = ev.source
    if ev.dealt <= 0 or not src:
        return
    if game.keyword(src, "lifedrain") is None:
        return
    controller = game.controller(ev.source)
    if ev.combat:
        game.lifedrain_due[controller] += ev.dealt
    else:
        heal(game, ev.source, game.players[controller].champion, ev.dealt)


# ---------------------------------------------------------------- KW Rally (Dominion)


def rally(g: MatchState) -> None:
    """Rally N (Dominion): on attack declaration, each other attacking unit gets +N power this turn —
    at once, without the stack (C1K §9)."""
    for a in g.attackers:
        n = g.keyword(a, "rally")
        if n:
            for other in g.attackers:
                if other != a:
                    g.perms[other].temp_power += n
            g.log(f"  Rally {n}: {g.label(a)} gives each other attacker +{n} power this turn", cards=(a,), amount=n,
                  rule="KW Rally")


# ---------------------------------------------------------------- KW Veiled (Veil)


def targetable(g: MatchState, cid: int, by: int) -> bool:
    """Veiled (rules.md §6): opponents can't target it. (targets.target_candidates has it inline.)"""
    perm = g.perms.get(cid)
    return perm is None or g.owner[cid] == by or not perm.has_status("veiled")


def veiled_lost(game: MatchState, ev: PendingEvent) -> None:
    """Veiled (Veil): lost when it deals damage."""
    if ev.dealt + ev.converted <= 0:
        return
    perm = game.perms.get(ev.source)
    if perm is not None and ("veiled" in perm.statuses or "veiled" in perm.temp_statuses):   # (has_status)
        game.remove_status(ev.source, "veiled")
        game.log(f"  {game.label(ev.source)} dealt damage and is no longer Veiled")


# ---------------------------------------------------------------- KW Set, KW Ambush (Veil)

SET_COST = 1   # Veil: Influence to Set a card face down


# ---------------------------------------------------------------- KW Veilbind (Veil)


def veilbind_escapes(game: MatchState, ev: PendingEvent) -> None:
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
    heal(game, ev.target, ev.target, perm.damage)   # a heal event: "when healed" and Bloom see it


# ---------------------------------------------------------------- KW Decay (Ruin)


def decay_counters(game: MatchState, ev: PendingEvent) -> None:
    """Decay N (Ruin, C1K 4.3 step 4): damage it deals to a unit — even converted by Wither — also gives
    that unit N Decay counters, at once, before state-based actions."""
    src = ev.source
    if ev.dealt + ev.converted <= 0 or not src:
        return
    n = game.keyword(src, "decay")
    perm = game.perms.get(ev.target)
    if not n or perm is None or game.is_champion(ev.target):
        return
    perm.counters["decay"] = perm.counters.get("decay", 0) + n
    game.log(f"  Decay {n}: {game.label(ev.target)} has {perm.counters['decay']} Decay counter(s)",
             cards=(ev.source, ev.target), rule="KW Decay")


def decay_check(g: MatchState, item: StackItem) -> None:
    """Decay Check (Ruin): 1 damage per Decay counter; the counters stay."""
    unit = item.ctx
    if g.is_unit_in_play(unit):
        damage(g, 0, unit, g.perms[unit].counters.get("decay", 0))


# ---------------------------------------------------------------- KW Wither (Ruin)


def wither_converts(game: MatchState, ev: PendingEvent) -> None:
    """Wither (Ruin, C1K 4.3 step 3): damage it deals to units becomes permanent -1/-1 counters instead."""
    src = ev.source
    if ev.amount <= 0 or not src:
        return
    if game.keyword(src, "wither") is None:
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


# ---------------------------------------------------------------- KW Growth (Genesis)


def grow(g: MatchState, item: StackItem) -> None:
    """Growth N (Genesis): N growth counters, each +1/+1."""
    n = g.keyword(item.source, "growth") or 0
    perm = g.perms[item.source]
    perm.counters["growth"] = perm.counters.get("growth", 0) + n
    g.log(f"  {g.label(item.source)} grows: +{n} growth counter(s)", cards=(item.source,), amount=n, rule="KW Growth")


# ---------------------------------------------------------------- KW Evolve (Genesis)


def evolve_check(g: MatchState) -> bool:
    """Evolve (Genesis): checked whenever state-based actions are, even mid-phase, before stat buffs
    (which are triggers, and wait for the stack). The unit keeps its counters and damage."""
    changed = False
    defs = g.defs
    for p in (g.active, 1 - g.active):
        for c in g.players[p].board:
            if not c:
                continue
            spec = defs[c].evolve  # type: ignore[union-attr]
            if spec is None or (spec.growth and g.perms[c].counters.get("growth", 0) < spec.growth) \
                    or (spec.power and g.power(c) < spec.power):
                continue
            into = g.db.get(spec.into)
            if into is None or into.type != "unit":
                continue
            old = g.label(c)
            g.defs[c] = into
            g._may_memo = [None, None]   # (options._may_act's memo: a definition changed in place)
            g.log(f"  Evolve: {old} transforms into {into.name}", "sba", p, (c,), detail=into.id, rule="KW Evolve")
            changed = True
    return changed


# ---------------------------------------------------------------- KW Bloom (Genesis)


def bloom_triggers(game: MatchState, ev: PendingEvent) -> None:
    """Bloom (Genesis): its effect triggers whenever it, or its Champion, is healed."""
    if ev.dealt <= 0:
        return
    if game.is_champion(ev.target):
        p = game.champion_owner(ev.target)
        ps = game.players[p]
        # (the cards in play with Bloom, found before game.permanents sorts them all by entry)
        blooms = [c for c in (*ps.board, *ps.relics, ps.champion, ps.seat)
                  if c and game.keyword(c, "bloom") is not None]
        if blooms:
            for cid in game.permanents(p):
                if cid in blooms:
                    fire(game, "on_bloom", cid, ev.target)
    elif ev.target in game.perms and game.keyword(ev.target, "bloom") is not None:
        fire(game, "on_bloom", ev.target, ev.target)


# ---------------------------------------------------------------- KW Pulse (Solace)


def pulse(g: MatchState, item: StackItem) -> None:
    """Pulse N (Solace): heal N to its Champion and to each damaged friendly unit."""
    n = g.keyword(item.source, "pulse") or 0
    p = g.controller(item.source)
    heal(g, item.source, g.players[p].champion, n)
    for u in g.players[p].units():
        if g.perms[u].damage > 0:
            heal(g, item.source, u, n)


# ---------------------------------------------------------------- KW Ward (Solace)


def ward_prevents(game: MatchState, ev: PendingEvent) -> None:
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


# ---------------------------------------------------------------- the tables other rules read


#: the event pipeline's keyword handlers, stage by stage, in the order they run (rules.md §4: Ward spends
#: before Barrier; Tough after prevention; Wither and Veilbind replace; the rest follow the change)
PIPELINE_HANDLERS: tuple[tuple[str, str, Callable[[MatchState, PendingEvent], None]], ...] = (
    ("prevention", "damage", ward_prevents),
    ("prevention", "damage", barrier_prevents),
    ("modification", "damage", tough_reduces),
    ("replacement", "damage", wither_converts),
    ("after", "damage", lifedrain_heals),
    ("after", "damage", decay_counters),
    ("after", "damage", veiled_lost),
    ("replacement", "destroy", veilbind_escapes),
    ("after", "heal", bloom_triggers),
)
for _stage, _kind, _fn in PIPELINE_HANDLERS:
    register(_stage, _kind)(_fn)

#: triggers the rules create at the start of a phase, by phase trigger (C1K 2.1: all at influence.start)
START_TRIGGERS: dict[str, list[StartTrigger]] = {
    "start_of_influence": [
        StartTrigger("Decay Check", "", lambda g, c: g.perms[c].counters.get("decay", 0) > 0, decay_check,
                     RANK_DESTRUCTION),
        StartTrigger("regeneration", "regeneration",
                     lambda g, c: g.perms[c].damage > 0 and g.keyword(c, "regeneration") is not None, regenerate),
        StartTrigger("growth", "growth", lambda g, c: g.keyword(c, "growth") is not None, grow),
        StartTrigger("pulse", "pulse", lambda g, c: g.keyword(c, "pulse") is not None, pulse),
    ],
}
START_TRIGGERS_ALL = [t for ts in START_TRIGGERS.values() for t in ts]

#: called right after attackers are declared, before "on attack" triggers reach the stack
ATTACK_DECLARED_HOOKS: list[Callable[[MatchState], None]] = [rally]


__all__ = [
    "ATTACK_DECLARED_HOOKS", "PIPELINE_HANDLERS", "SET_COST", "START_TRIGGERS", "START_TRIGGERS_ALL",
    "StartTrigger", "barrier_prevents", "bloom_triggers", "decay_check", "decay_counters",
    "evolve_check", "grow", "guard_refusal", "lifedrain_heals", "pulse", "rally", "regenerate",
    "targetable", "tough_reduces", "veilbind_escapes", "veiled_lost", "ward_prevents", "wither_converts",
]
