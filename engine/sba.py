"""State-based actions (rules.md §1 "RULES 1", AS Combat steps): Evolve (KW Evolve), lethal damage,
Champions at 0 life, repeated until nothing changes. Evolutions that come back to a board seen before
(two cards that evolve into each other) are an Endless Loop: the match ends in a draw (rules.md §1).
In combat damage it also records who lost a fight (Combat Victory / Loss, rules.md §5).
"""

from __future__ import annotations

from engine.cards import CardDef
from engine.core import SBA_LOOP_CAP, MatchState, RulesLoopError
from engine.keywords import evolve_check
from engine.pipeline import destroy
from engine.state import (
    COMBAT_DAMAGE,
    Outcome,
    Termination,
)
from engine.triggers import fire


def sba(g: MatchState, fights: dict[int, int] | None = None, losers: list[int] | None = None) -> None:
    """State-based actions. In combat damage, `fights` maps each combatant of a blocked pair to the
    unit it fought: one destroyed here lost that combat (its `on_combat_loss` fires with its
    `on_death`, rules.md §5) and is added to `losers`."""
    if g.outcome is None and sba_quiet(g):
        return
    sba_run(g, fights, losers)


def settle(g: MatchState) -> None:
    """State-based actions before a player receives priority (engine.turn): the full check, and if it
    finds nothing, `_sba_settled` remembers it until something that could change it happens (see
    `turn.open_priority`); else they are carried out."""
    if g.outcome is None:
        if sba_quiet(g):
            g._sba_settled = True
        else:
            sba_run(g)


def sba_run(g: MatchState, fights: dict[int, int] | None = None, losers: list[int] | None = None) -> None:
    """State-based actions, repeated until nothing changes (`sba` without its quick check first).

    A pass that only evolved units changes nothing but the cards on the boards, so the cards on the
    boards decide the next pass: when they come back to what they were after an earlier such pass, the
    evolutions go round forever with nobody acting — an Endless Loop, and the match is a draw (rules.md
    §1). A pass that destroys something starts the comparison again (a board only shrinks, so that can't
    go on forever either); the cap stays as the engine's last guard."""
    seen: dict[tuple[str, ...], int] | None = None
    for n in range(SBA_LOOP_CAP):
        if g.outcome is not None:
            return
        evolved = evolve_check(g)
        dead = [c for p in (g.active, 1 - g.active) for c in g.players[p].board
                if c and lethal(g, c)]
        lost = [p for p in (0, 1) if g.players[p].life <= 0]
        if lost:
            g.outcome = (Outcome(Termination.BOTH_DEFEATED, None) if len(lost) == 2
                         else Outcome(Termination.CHAMPION_DEFEATED, 1 - lost[0]))
            g.log(f"  {', '.join(g.players[p].name for p in lost)} at 0 life: {g.outcome}", "sba",
                  lost[0] if len(lost) == 1 else -1, detail=g.outcome.termination.value, rule="RULES 1")
            return
        if not dead:
            if not evolved:
                return
            key = _boards(g)
            if seen is None:
                seen = {}
            elif key in seen:
                endless_evolve(g, n - seen[key])
                return
            seen[key] = n
            continue
        seen = None
        # destroyed simultaneously: "on kill" only for a killer that stays in play (AS Combat steps 6)
        killers = {c: g.perms[c].killer for c in dead}
        seqs = {c: g.perms[c].seq for c in dead}
        destroyed = [c for c in dead if destroy(g, c, cause="state-based action")]
        for c in destroyed:
            killer = killers[c]
            if g.win == COMBAT_DAMAGE and killer and killer not in dead and g.is_unit_in_play(killer):
                fire(g, "on_kill", killer, c)   # AS Combat steps 6: a combat death only
            if fights is not None and losers is not None and c in fights:
                fire(g, "on_combat_loss", c, fights[c], seq=seqs[c])   # AS Combat steps 3-5
                losers.append(c)
    raise RulesLoopError(f"state-based actions ran {SBA_LOOP_CAP} times without settling")


def _boards(g: MatchState) -> tuple[str, ...]:
    """The cards on both boards, slot by slot (what an evolve-only pass of state-based actions changes)."""
    defs = g.defs
    return tuple(defs[c].id if c else "" for p in (0, 1) for c in g.players[p].board)  # type: ignore[union-attr]


def endless_evolve(g: MatchState, period: int) -> None:
    """Evolutions that repeat the boards of `period` passes ago, with nobody acting: a draw (rules.md §1)."""
    g.outcome = Outcome(Termination.ENDLESS_LOOP, None)
    g.log(f"  Evolve goes round: the boards of {period} evolution(s) ago are back with nobody acting — an "
          "endless loop nobody can stop, the match is a draw (Endless Loop)", "sba",
          detail=Termination.ENDLESS_LOOP.value, rule="RULES 1")


def sba_quiet(g: MatchState) -> bool:
    """True when state-based actions have nothing to do: both players above 0 life, no unit with
    lethal damage and none that may Evolve (the common case, checked in one pass: sba runs after
    every action and in every window)."""
    p0, p1 = g.players
    if p0.life <= 0 or p1.life <= 0:
        return False
    perms = g.perms
    defs = g.defs
    # (the two boards as one list, their empty slots (0) skipped by filter: about half the slots are
    # empty, and a skip in C is cheaper than a test in Python — this runs after every action)
    for c in filter(None, p0.board + p1.board):
        d: CardDef = defs[c]  # type: ignore[assignment]
        if d.sba_watch:   # it may Evolve, or has no health at all
            return False
        perm = perms[c]
        # undamaged, unmodified (the usual case): not lethal; else lethal()'s other case, inlined:
        # damage ≥ max_health
        if (perm.damage or perm.counters or perm.health_mod < 0 or perm.temp_health < 0) \
                and perm.damage >= d.health + perm.health_mod + perm.temp_health \
                + perm.counters.get("growth", 0) - perm.counters.get("wither", 0):
            return False
    return True


def lethal(g: MatchState, c: int) -> bool:
    """Damage ≥ health (health may also have dropped to 0 or less by −/− effects)."""
    perm = g.perms[c]
    if perm.damage == 0 and perm.health_mod >= 0 and perm.temp_health >= 0 and not perm.counters:
        return g.defs[c].health <= 0  # type: ignore[union-attr]   # (g.card(c), inlined)
    return perm.damage >= g.max_health(c)


__all__ = [
    "endless_evolve", "lethal", "sba", "sba_quiet", "sba_run", "settle",
]
