"""Effects: `run_effects` carries out a card's effects in order (damage, heal, draw, discard,
gain_influence, buff, grant, suppress, destroy, return_to_hand, summon, counter, flux, reroll, thread,
permit).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.cards import Effect
from engine.continuations import OPEN_PRIORITY, RESUME_RESOLUTION, Continuation
from engine.core import MatchState
from engine.decisions import ask_interrupts, offer_permit
from engine.events import describe_effects
from engine.legality import may_interrupt
from engine.pipeline import damage, destroy, heal
from engine.state import (
    BOARD,
    GONE,
    HAND,
    RELICS,
    InterruptWindow,
    Resolving,
    StackItem,
    Trigger,
)
from engine.targets import choice_slots, resolve_targets
from engine.triggers import RANK_OTHER, fire
from engine.zones import counter_item, discard_random, draw, enter_play, finish_item, leave_play


def run_effects(g: MatchState, effects: Iterable[Effect], controller: int, source: int, chosen: list[int],
                item: StackItem | None, event: tuple[int, ...] = (), mode: int = 0, top: bool = False,
                then: Continuation = OPEN_PRIORITY) -> bool:
    """Carry out effects in order. `top`: this is a stack item's resolution (it may pause for a Flux
    Interrupt, and the item is finished at the end). False if a decision is pending afterwards."""
    permit: Effect | None = None
    todo = list(effects)
    i = 0
    while i < len(todo):
        e = todo[i]
        i += 1
        targets = resolve_targets(g, e, controller, source, chosen, item, event)
        if e.target is not None and not targets:
            continue
        v = e.do
        if v == "damage":
            for t in targets:
                if g.in_play(t) or g.is_champion(t):
                    damage(g, source, t, e.amount)
        elif v == "heal":
            for t in targets:
                heal(g, source, t, e.amount)
        elif v in ("draw", "discard", "gain_influence"):
            players = {"you": [controller], "opponent": [1 - controller], "each": [controller, 1 - controller]}
            for p in players[e.player]:
                if v == "draw":
                    draw(g, p, e.amount)
                elif v == "discard":
                    discard_random(g, p, e.amount)
                else:
                    g.players[p].influence += e.amount
                    g.log(f"  {g.players[p].name} gains {e.amount} Influence", "influence", p, (source,),
                             g.players[p].influence)
        elif v == "buff":
            for t in targets:
                if t in g.perms and not g.is_champion(t):
                    perm = g.perms[t]
                    if (e.until or "permanent") == "end_of_turn":
                        perm.temp_power += e.power
                        perm.temp_health += e.health
                    else:
                        perm.power_mod += e.power
                        perm.health_mod += e.health
                    g.log(f"  {g.label(t)} gets {e.power:+d}/{e.health:+d}", actor=controller,
                             cards=(source, t))
        elif v == "grant":
            temporary = (e.until or "end_of_turn") == "end_of_turn"
            for t in targets:
                if t not in g.perms:
                    continue
                if e.status:
                    g.add_status(t, e.status, temporary)
                if e.keyword:
                    from engine.cards import check_keyword

                    name, n = check_keyword(e.keyword)
                    perm = g.perms[t]
                    if name == "ward":
                        # Ward N adds N points to the pool; granted 'until end of turn', the points
                        # still unspent at cleanup go (temporary points are spent first)
                        perm.ward += n
                        if temporary:
                            n += perm.temp_granted.get("ward", 0)
                    (perm.temp_granted if temporary else perm.granted)[name] = n
                g.log(f"  {g.label(t)} gains {e.status or e.keyword}", actor=controller, cards=(source, t))
        elif v == "suppress":
            for t in targets:
                if t in g.perms:
                    g.add_status(t, "suppressed", False)
                    g.log(f"  {g.label(t)} is Suppressed: its abilities don't function and it can't attack",
                             actor=controller, cards=(source, t), rule="KW Suppress")
        elif v == "destroy":
            for t in targets:
                if g.is_unit_in_play(t) or g.zone[t] == RELICS:
                    destroy(g, t, cause=f"by {g.card(source).name}")
        elif v == "return_to_hand":
            for t in targets:
                if g.is_unit_in_play(t) or g.zone[t] == RELICS:
                    leave_play(g, t)
                    if g.card(t).token:
                        g.zone[t] = GONE
                    else:
                        g.players[g.owner[t]].hand.append(t)
                        g.zone[t] = HAND
                    g.log(f"  {g.label(t)} returns to its owner's hand", "move", controller, (source, t),
                             detail="hand")
        elif v == "summon":
            d = g.db.lookup(e.card or "")
            for _ in range(e.amount):
                cid = g.new_card(d, controller, GONE)
                if enter_play(g, cid, controller, None, True):
                    fire(g, "on_summon", cid)
        elif v == "counter":
            for uid in targets:
                counter_item(g, uid)
        elif v == "flux" and e.outcomes:
            # Paradox (C1K §9): one outcome from the StateSeed PRNG, resolved as one atomic event
            k = g.rng.below(len(e.outcomes))
            what = describe_effects(e.outcomes[k])
            g.log(f"  Flux: outcome {k + 1} of {len(e.outcomes)} — {what}", "flux", controller, (source,), k + 1,
                     what, "KW Flux")
            asked = tuple(q for q in (g.active, 1 - g.active) if may_interrupt(g, q, "flux_outcome"))
            if top and asked:
                g.resolving = Resolving(item, controller, source, tuple(todo[i:]), tuple(chosen), event,
                                           mode, e, k, then)
                ask_interrupts(g, InterruptWindow("flux_outcome", asked, 0, (), RESUME_RESOLUTION))
                return False
            run_effects(g, e.outcomes[k], controller, source, [], None, event, mode)
        elif v == "reroll":
            r = g.resolving
            if r is not None and r.flux.outcomes:
                k = g.rng.below(len(r.flux.outcomes))
                g.resolving = replace(r, k=k)
                what = describe_effects(r.flux.outcomes[k])
                g.log(f"  the Flux outcome is drawn again: outcome {k + 1} of {len(r.flux.outcomes)} — {what}",
                         "flux", controller, (r.source,), k + 1, what, "KW Flux")
        elif v == "thread" and e.branches:
            # Paradox: the branch was chosen when played; it resolves at the earliest legal window
            m = max(mode, 1)
            if m <= len(e.branches):
                n = len(choice_slots(g, e.branches[m - 1]))
                branch_targets = tuple(chosen[:n])
                del chosen[:n]
                g.threads.append(Trigger(controller, source, -1, g.card(source).name, 0, RANK_OTHER,
                                            "thread", "", 0, branch_targets, True, m))
                g.log(f"  Thread: branch {m} waits for the next moment a player would receive priority",
                         "thread", controller, (source,), m, f"waits: {describe_effects(e.branches[m - 1])}",
                         "KW Thread")
        elif v == "permit":
            if e.duration == "while_in_play":
                # OPP "as long as": the permission lasts while its source stays in play (the same
                # object: a card that leaves and comes back is a new one) — stored as -(its entry seq)
                if source in g.perms and g.zone[source] in (BOARD, RELICS):
                    g.players[controller].permits.append((e.zone or "hand", e.card_type,
                                                             -g.perms[source].seq))
                    g.log(f"  {g.players[controller].name} may play {e.card_type} cards from their "
                             f"{e.zone} as long as {g.label(source)} stays in play (OPP Permissions)")
            elif e.duration == "end_of_turn":
                g.players[controller].permits.append((e.zone or "hand", e.card_type, g.turn))
                g.log(f"  {g.players[controller].name} may play {e.card_type} cards from their "
                         f"{e.zone} this turn (OPP Permissions)", actor=controller, cards=(source,),
                         rule="OPP Permissions")
            else:
                permit = e
    if top:
        finish_item(g, item)
    if permit is not None:
        return offer_permit(g, permit, controller, source)
    return True
