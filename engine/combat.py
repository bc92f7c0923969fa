"""Combat (rules.md §5, C1K 4): the declaration windows' steps (who may attack, who may block; an
attacker that became illegal leaves combat, C1K 4.1 step 4), combat damage as one turn-based sequence
(Strike step, regular step with Overwhelm's Excess, champion-hit triggers, Lifedrain, Conquer), and the
end-of-attack / end-of-combat triggers.
"""

from __future__ import annotations

from engine.core import STEP_END_PHASE, STEP_GO_ON, STEP_WAIT, MatchState
from engine.decisions import ask
from engine.effects import run_effects
from engine.legality import can_attack, can_block
from engine.pipeline import damage, heal
from engine.sba import sba
from engine.state import (
    BOARD,
    WINDOW_RULE,
)
from engine.triggers import fire


def step_declare_attackers(g: MatchState) -> int:
    ap = g.active
    w = g.win
    g.attackers = ()
    g.blocks = ()
    ps = g.players[ap]
    ask(g, "attackers", ap, WINDOW_RULE[w], f"{ps.name}: declare attackers (or attack none)",
        eligible=tuple([u for u in ps.board if u and can_attack(g, u)]))
    return STEP_WAIT


def step_declare_blockers(g: MatchState) -> int:
    ap = g.active
    w = g.win
    drop_illegal_attackers(g)
    if not g.attackers:
        g.log("  no attacker remains: combat ends", actor=ap)
        return STEP_END_PHASE
    dp = 1 - ap
    ps = g.players[dp]
    perms = g.perms
    attackers = g.attackers
    eligible = []
    for u in ps.board:
        # C1K 4.2: an exhausted unit can't block (can_block's refusal for every attacker, found first)
        if u and not perms[u].exhausted:
            for a in attackers:
                if can_block(g, u, a) is None:
                    eligible.append(u)
                    break
    ask(g, "blockers", dp, WINDOW_RULE[w], f"{ps.name}: declare blockers (or block none)",
        eligible=tuple(eligible))
    return STEP_WAIT


def step_combat_damage(g: MatchState) -> int:
    drop_illegal_attackers(g)
    combat_damage(g)
    return STEP_GO_ON


def step_combat_triggers(g: MatchState) -> int:
    for a in g.attackers:
        if g.is_unit_in_play(a):
            fire(g, "end_of_attack", a)
    for u in combatants(g):
        fire(g, "end_of_combat", u)
    return STEP_GO_ON


def drop_illegal_attackers(g: MatchState) -> None:
    """C1K 4.1 step 4: an effect may make a declared attack illegal (a Suppressed or Rooted unit can't
    attack): such a unit leaves combat."""
    perms = g.perms
    for a in g.attackers:
        perm = perms.get(a)
        if perm is not None and (perm.statuses or perm.temp_statuses) \
                and (perm.has_status("suppressed") or perm.has_status("rooted")):
            g.log(f"  {g.label(a)} can't attack now ({'Suppressed' if perm.has_status('suppressed') else 'Rooted'}): "
                  "it leaves combat", actor=g.owner[a], cards=(a,), rule="C1K 4.1")
            g.attackers = tuple(x for x in g.attackers if x != a)
            g.blocks = tuple((b, 0 if x == a else x) for b, x in g.blocks if b or x != a)


def combatants(g: MatchState) -> list[int]:
    zone = g.zone
    out = [u for u in g.attackers if zone[u] == BOARD]   # (g.is_unit_in_play, inlined)
    for b, _ in g.blocks:
        if zone[b] == BOARD:
            out.append(b)
    return out


def combat_damage(g: MatchState) -> None:
    ap = g.active
    dp = 1 - ap
    zone = g.zone   # (g.is_unit_in_play(u) is zone[u] == BOARD, inlined below)
    blocks = g.blocks
    blocked = {a for _, a in blocks}
    blocker_of = {a: b for b, a in blocks if b}
    champion = g.players[dp].champion
    g.lifedrain_due = [0, 0]
    hit: list[int] = []
    conquerors: list[int] = []
    # Combat Victory / Loss (rules.md §5): the blocked pairs that fight, and who is destroyed by it
    pairs = [(b, a) for b, a in blocks if b and a and zone[b] == BOARD and zone[a] == BOARD]
    fights = {u: foe for b, a in pairs for u, foe in ((a, b), (b, a))}
    lost: list[int] = []
    keyword = g.keyword
    perms = g.perms
    # step 1: Strike units deal their damage; step 2: all other combatants, simultaneously
    for step, strikers in (("Strike", True), ("damage", False)):
        assignments: list[tuple[int, int, int]] = []
        for a in g.attackers:
            if zone[a] != BOARD:
                continue   # destroyed (e.g. in the Strike step): it deals no damage, and takes none
            b = blocker_of.get(a, 0)
            b_here = bool(b) and zone[b] == BOARD
            if (keyword(a, "strike") is not None) == strikers:
                power = max(0, g.power(a))
                overwhelm = keyword(a, "overwhelm") is not None
                if b_here:
                    assignments.append((a, b, power))
                    if overwhelm:   # RB 3.1: Excess from the blocker's remaining health, now
                        assignments.append((a, champion, max(0, power - g.health(b))))
                elif a in blocked:
                    if overwhelm:   # its blocker left play: Overwhelm deals all to the Champion
                        assignments.append((a, champion, power))
                else:
                    assignments.append((a, champion, power))
            if b_here and (keyword(b, "strike") is not None) == strikers:
                assignments.append((b, a, max(0, g.power(b))))
        if not assignments:
            continue
        g.log(f"  combat {step} step", "note", ap, (), 0, "", "C1K 4.3")
        for src, dst, amount in assignments:
            dealt = damage(g, src, dst, amount, True)
            if dealt > 0 and dst == champion:
                if src not in blocked and src not in hit:
                    hit.append(src)
                if src not in conquerors:
                    conquerors.append(src)
        if strikers:
            sba(g, fights, lost)   # a unit destroyed by Strike deals no damage (RB §3.2)
            if g.outcome is not None:
                return
    for a in hit:
        if zone[a] == BOARD:
            fire(g, "on_champion_hit", a)
    for p in (ap, dp):   # step 5: Lifedrain …
        if g.lifedrain_due[p]:
            g.log(f"  Lifedrain: {g.players[p].name}'s Champion heals {g.lifedrain_due[p]}", "note", p,
                  (g.players[p].champion,), g.lifedrain_due[p], rule="KW Lifedrain")
            heal(g, 0, g.players[p].champion, g.lifedrain_due[p])
            g.lifedrain_due[p] = 0
    for a in conquerors:   # … and Dominion: Conquer happens at once, without the stack (C1K 4.3 step 5)
        perm = perms.get(a)
        if keyword(a, "conquer") is None or (perm is not None and perm.has_status("suppressed")):
            continue
        for ab in g.card(a).abilities:
            if ab.when == "on_conquer":
                g.log(f"  Conquer: {g.label(a)} damaged the Champion", actor=ap, cards=(a,), rule="KW Conquer")
                run_effects(g, ab.effect, g.owner[a], a, [], None)
    sba(g, fights, lost)
    if lost:
        for b, a in pairs:   # a combatant still in play whose combat opponent was destroyed won
            for me, foe in ((a, b), (b, a)):
                if foe in lost and me not in lost and zone[me] == BOARD:
                    fire(g, "on_combat_victory", me, foe)


__all__ = [
    "combat_damage", "combatants", "drop_illegal_attackers", "step_combat_damage",
    "step_combat_triggers", "step_declare_attackers", "step_declare_blockers",
]
