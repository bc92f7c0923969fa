"""The turn manager (rules.md §2, TPS): the only code that advances windows. `goto` walks a row of the
turn-structure table (`TURN_TABLE`, engine/state.py): its turn-based steps (`TURN_STEPS`, by name), then
what its kind says; `next_window` and `end_phase` move along this turn's structure (`turn_windows`: the
table, changed only by the active player's Seat hooks). `open_priority` is "before anyone receives
priority": Thread branches, state-based actions, triggers, then AP gets priority. The turn's
continuations (open priority, after an action, finish cleanup, after a declaration) are registered in
`decisions.RESUME` at the bottom.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from engine.cards import SEAT_MODIFIERS
from engine.combat import (
    step_combat_damage,
    step_combat_triggers,
    step_declare_attackers,
    step_declare_blockers,
)
from engine.continuations import AFTER_ACTION, FINISH_CLEANUP, OPEN_PRIORITY, Continuation, Then
from engine.core import STEP_END_PHASE, STEP_GO_ON, STEP_WAIT, MatchState, RulesLoopError, _bit
from engine.decisions import RESUME, ask, give_priority, set_over
from engine.events import RAW_WINDOW
from engine.keywords import START_TRIGGERS
from engine.legality import permit_active
from engine.paradox import run_threads
from engine.sba import sba, sba_quiet, sba_run, settle
from engine.stack import place_triggers
from engine.state import (
    DECLARE_ATTACKERS,
    END_CLEANUP,
    PHASE_STARTS,
    PHASE_TRIGGERS,
    TRIGGER_WINDOWS,
    TURN_HOOKS,
    TURN_TABLE,
    WINDOW_RULE,
    WINDOWS,
    Choice,
    Outcome,
    Termination,
    Trigger,
    phase_of,
    seat_structure,
)
from engine.triggers import answering, by_entry, fire
from engine.voidcast import returns_step
from engine.zones import draw

#: the windows of the combat phase (next_window: the combat phase is over after the last of them)
COMBAT_WINDOWS = frozenset(w for w in range(len(WINDOWS)) if phase_of(w) == "combat")


def goto(g: MatchState, w: int | None) -> None:
    """Enter window `w` and keep going until a decision is needed or the match ends (the turn manager:
    each window's table row's steps, then what its kind says; the only code that enters a window)."""
    while w is not None:
        if g.outcome is not None:
            break
        # enter window w (inlined here: hot, every window)
        if g.stack:   # an engine invariant: a window only ever changes on an empty stack
            raise RulesLoopError(f"internal error: entering {WINDOWS[w]} with {len(g.stack)} item(s) on the stack")
        structure = g.players[g.active].structure   # (turn_windows(g), inlined: hot)
        if not (g.step < len(structure) and structure[g.step] == w):
            g.step = _step_of(structure, g.step, w)
        g.win = w
        g.priority = -1
        g.passed = 0
        g._quiet = 0   # an endless loop lives in one window (a window changes only on an empty stack)
        if g._loop_seen:
            g._loop_seen = {}
        # g.log(f"T{g.turn} {WINDOWS[w]}", "window", g.active) in its short raw form (hot: every window)
        g._events.tail.append((RAW_WINDOW, g.turn, WINDOWS[w], WINDOW_RULE[w], g.active))  # type: ignore[arg-type]
        if _WINDOW_UNSETTLES[w]:
            g._sba_settled = False   # its steps may change what state-based actions look at
        for fn in _WINDOW_STEPS[w]:
            r = fn(g)
            if r == STEP_WAIT or g.outcome is not None:
                w = None
                break
            if r == STEP_END_PHASE:
                w = end_phase(g)
                break
        else:   # then what the window's kind says
            kind = _WINDOW_KIND[w]
            if kind == "turn_based":
                w = next_window(g, w)
            elif kind == "declaration":
                w = None
            else:
                w = open_priority(g)
    if g.outcome is not None:
        set_over(g)


def _step_of(structure: tuple[int, ...], step: int, w: int) -> int:
    """Window `w` entered by id (a scenario's start, the first window): its first place in `structure` at
    or after `step`, else its first place, else `step` (apart from goto: a comprehension there would make
    goto's variables cells, created on every call)."""
    later = [i for i in range(step, len(structure)) if structure[i] == w]
    return later[0] if later else (structure.index(w) if w in structure else step)


def turn_windows(g: MatchState, active: int | None = None) -> tuple[int, ...]:
    """This turn's windows in order (indexes into TURN_TABLE): the table, changed only by the active
    player's Seat through the named hooks (`extra_combat_phases`, `skip_*`; `state.seat_structure`,
    worked out when the Seat is set: `PlayerState.structure`)."""
    return g.players[g.active if active is None else active].structure


def turn_structure(g: MatchState) -> tuple[str, ...]:
    """The window ids of this turn, in order, as the turn manager will walk them (read-only: for the
    phase bar). A window id may appear twice (a Seat's extra combat phase); `step` is the position
    of the current window in this tuple."""
    return tuple(WINDOWS[w] for w in turn_windows(g))


def phase_trigger(g: MatchState) -> int:
    """The phase trigger registered for this window's id (start_of_draw …): the active player's cards."""
    when = PHASE_TRIGGERS.get(WINDOWS[g.win], "")
    if when:
        fire_start(g, when, g.active)
    return STEP_GO_ON


def step_ready(g: MatchState) -> int:
    """draw.start: the turn limit, then the ready step (units, and relics used with "exhaust")."""
    if g.options.max_turns and g.turn > g.options.max_turns:
        g.outcome = Outcome(Termination.TURN_LIMIT, None)
        return STEP_WAIT
    ps = g.players[g.active]
    perms = g.perms
    for cid in itertools.chain(ps.board, ps.relics, (ps.champion, ps.seat)):   # (any order: all alike)
        if cid:
            perms[cid].exhausted = False
    return STEP_GO_ON


def step_draw(g: MatchState) -> int:
    ap = g.active
    if not (g.turn == 1 and ap == g.first_player) or g.options.first_player_draws:
        ps = g.players[ap]
        if ps.draw_count != SEAT_MODIFIERS["draw_count"] and ps.seat:   # the Seat's hook, said out loud
            g.log(f"  {g.card(ps.seat).name}: {ps.name} draws {ps.draw_count} (draw_count)", actor=ap,
                  cards=(ps.seat,), amount=ps.draw_count, rule="SEAT")
        draw(g, ap, ps.draw_count)
    else:
        g.log("  the first player skips the draw of their first turn", actor=ap, rule="C1K 1.2")
    return STEP_GO_ON


def step_sba(g: MatchState) -> int:
    if not g._sba_settled:   # (settled: sba would find nothing to do; see open_priority)
        sba(g)
    return STEP_GO_ON


def step_influence_gain(g: MatchState) -> int:
    ap = g.active
    ps = g.players[ap]
    second_first = g.turn == 2 and ap != g.first_player
    capacity = second_first and g.options.compensates("capacity")
    influence = second_first and g.options.compensates("influence")
    if ps.capacity < ps.max_influence:
        extra = 1 if capacity else 0   # RULES Second player: +1 capacity
        ps.capacity = min(ps.max_influence, ps.capacity + ps.influence_gain + extra)
    ps.influence = ps.capacity
    if influence:   # RULES Second player: +1 Influence this turn
        ps.influence += 1
    for gained, what in ((capacity, "Influence capacity"), (influence, "Influence this turn")):
        if gained:
            g.log(f"  {ps.name} goes second: +1 {what}", "influence", ap, amount=1, rule="RULES Second player")
    g.log(f"  {ps.name}: Influence {ps.influence}/{ps.capacity}", "influence", ap, amount=ps.influence)
    return STEP_GO_ON


def step_cleanup(g: MatchState) -> int:
    ap = g.active
    ps = g.players[ap]
    excess = len(ps.hand) - ps.hand_size
    if excess > 0:
        ask(g, "choice", ap, "C1K 5.2", f"{ps.name}: discard {excess} card(s) down to hand size {ps.hand_size}",
            options=tuple(g.label(c) for c in ps.hand), min_choices=excess, max_choices=excess,
            eligible=tuple(ps.hand), choice=Choice("discard", ap, tuple(ps.hand), excess, FINISH_CLEANUP))
        return STEP_WAIT
    finish_cleanup_effects(g)
    return STEP_GO_ON


def end_turn_effects(g: MatchState) -> None:
    for perm in g.perms.values():
        if not (perm.temp_power or perm.temp_health or perm.temp_statuses or perm.temp_granted):
            continue   # (nothing of it ends: the usual case)
        g._sba_settled = False   # its health may drop back: state-based actions must look again
        if perm.temp_granted.get("ward"):   # unspent Ward points granted until end of turn
            perm.ward = max(0, perm.ward - perm.temp_granted["ward"])
        perm.temp_power = perm.temp_health = 0
        perm.temp_statuses = []
        perm.temp_granted = {}
    for ps in g.players:
        if ps.permits:
            ps.permits = [pm for pm in ps.permits if permit_active(g, pm[2], next_turn=True)]


def finish_cleanup_effects(g: MatchState) -> None:
    end_turn_effects(g)
    g.log("  'until end of turn' effects end", rule="C1K 5.2")
    sba(g)


def finish_cleanup(g: MatchState) -> int | None:
    """After the cleanup discard was chosen: the rest of end.cleanup, then the next window."""
    finish_cleanup_effects(g)
    if g.outcome is not None:
        return None
    return next_window(g, END_CLEANUP)


def next_window(g: MatchState, w: int) -> int:
    """The window after `w` in this turn's structure (and the step moves there); after the last one,
    the next turn begins."""
    structure = g.players[g.active].structure   # (turn_windows(g), inlined: hot)
    if w == DECLARE_ATTACKERS and not g.attackers:
        return end_phase(g)
    if w in COMBAT_WINDOWS and (g.step + 1 >= len(structure) or structure[g.step + 1] in PHASE_STARTS):
        g.attackers = ()   # the combat phase is over
        g.blocks = ()
    if g.step + 1 < len(structure):
        g.step += 1
        return structure[g.step]
    # a "this turn" effect made after cleanup (in end.final) ends with the turn as well
    end_turn_effects(g)
    g.turn += 1
    g.active = 1 - g.active
    g.attackers = ()
    g.blocks = ()
    g.step = 0
    return g.players[g.active].structure[0]   # (turn_windows(g)[0])


def end_phase(g: MatchState) -> int:
    """This phase ends now (e.g. no attackers: combat ends): the first window of the next phase."""
    structure = g.players[g.active].structure   # (turn_windows(g), inlined: hot)
    g.attackers = ()
    g.blocks = ()
    after = _next_phase_start(structure)
    nxt = after[g.step] if g.step < len(after) else None
    if nxt is None:
        g.step = len(structure) - 1
        return next_window(g, structure[-1])
    g.step = nxt
    return structure[nxt]


#: a turn structure -> for each position in it, the position of the next phase's first window (or None)
_PHASE_STARTS_AFTER: dict[tuple[int, ...], tuple[int | None, ...]] = {}


def _next_phase_start(structure: tuple[int, ...]) -> tuple[int | None, ...]:
    hit = _PHASE_STARTS_AFTER.get(structure)
    if hit is None:
        hit = _PHASE_STARTS_AFTER[structure] = tuple(
            next((i for i in range(step + 1, len(structure)) if structure[i] in PHASE_STARTS), None)
            for step in range(len(structure)))
    return hit


def open_priority(g: MatchState) -> int | None:
    """Before anyone receives priority: Thread branches, SBA, then triggers to the stack; then AP gets
    priority (or a trigger window with an empty stack ends at once). Returns the next window, if any."""
    # (each step's own "nothing to do" check first, without the call: hot, every window)
    if g.threads:
        g._sba_settled = False   # a Thread branch's effects may change anything
        if not run_threads(g, OPEN_PRIORITY):
            return None
    # state-based actions: skipped when they were found to have nothing to do and nothing has happened
    # since that could change it — `_sba_settled` is cleared by every action (commands.apply), every
    # resolution (priority.do_pass), every window whose steps may change health, damage or life
    # (_WINDOW_UNSETTLES), "until end of turn" effects ending, and Thread branches
    # (tests/test_sba_settled.py checks at every step of random matches that it never says "settled"
    # when the full check would find something)
    if not g._sba_settled and g.outcome is None:   # (sba.settle, inlined)
        if sba_quiet(g):
            g._sba_settled = True
        else:
            sba_run(g)
    if g.outcome is not None:
        return None
    if (g.triggers or g.trigger_queue) and not place_triggers(g, OPEN_PRIORITY):
        return None
    if g.win in TRIGGER_WINDOWS and not g.stack:
        return next_window(g, g.win)
    give_priority(g, g.active, 0)
    return None


def after_action(g: MatchState, actor: int) -> None:
    """C1K §6 step 3: after a player's action, SBA and triggers, then priority to the opponent."""
    # (each step's own "nothing to do" check first, without the call, as in open_priority)
    if g.threads and not run_threads(g, AFTER_ACTION[actor]):
        return
    settle(g)   # (never settled here: the action cleared it; see open_priority)
    if g.outcome is not None:
        set_over(g)
        return
    if (g.triggers or g.trigger_queue) and not place_triggers(g, AFTER_ACTION[actor]):
        return
    if g.options.actor_keeps_priority:   # OPP 8.1 (match option): the actor may act again
        give_priority(g, actor, 0)
        return
    top_is_own = bool(g.stack) and g.stack[-1].adder == actor
    give_priority(g, 1 - actor, _bit(actor) if top_is_own else 0)


def after_declaration(g: MatchState) -> None:
    """C1K 4.1/4.2: after a declaration and its triggers, AP receives priority as in any window."""
    goto(g, open_priority(g))


def fire_start(g: MatchState, when: str, p: int) -> None:
    """Start-of-phase triggers concern only the active player's cards (rules.md §2)."""
    for cid in answering(g, p, when):
        fire(g, when, cid)
    specs = START_TRIGGERS.get(when)
    if not specs:
        return
    # the units and relics (the rules' start triggers concern nothing else), by entry order; firing
    # changes no permanent: one list for every spec below
    ps = g.players[p]
    perms = g.perms
    mine = by_entry(perms, list(filter(None, itertools.chain(ps.board, ps.relics))))   # (no cells here)
    for spec in specs:
        applies = spec.applies   # (a function held by the spec, not a method: CPython calls it faster once
        for cid in mine:         # read into a local)
            if not applies(g, cid):
                continue
            perm = perms[cid]
            if spec.keyword and perm.has_status("suppressed"):
                continue   # Suppress (Null): its triggered abilities don't function
            name = g.card(cid).name if spec.keyword else spec.name
            # a rule's own trigger (Decay Check) concerns the unit (ctx) and still resolves if it moved
            g.triggers.append(Trigger(p, cid, -1, name, perm.seq, spec.rank, "keyword", spec.name,
                                         0 if spec.keyword else cid))


#: the turn-based steps a TURN_TABLE row names (rules.md §2: the table drives the turn manager)
TURN_STEPS: dict[str, Callable[[MatchState], int]] = {
    "ready": step_ready,
    "draw": step_draw,
    "sba": step_sba,
    "phase_trigger": phase_trigger,
    "influence_gain": step_influence_gain,
    "declare_attackers": step_declare_attackers,
    "declare_blockers": step_declare_blockers,
    "combat_damage": step_combat_damage,
    "combat_triggers": step_combat_triggers,
    "voidcast_returns": returns_step,
    "cleanup": step_cleanup,
}


#: each window's step functions and kind, from its TURN_TABLE row (looked up once, not on every entry)
_WINDOW_STEPS: tuple[tuple[Callable[[MatchState], int], ...], ...] = tuple(
    tuple(TURN_STEPS[name] for name in spec.steps) for spec in TURN_TABLE)
_WINDOW_KIND: tuple[str, ...] = tuple(spec.kind for spec in TURN_TABLE)
#: the steps that may change what state-based actions look at (damage, health, life, units in play);
#: the others only ready, draw, gain Influence, ask for a declaration or queue triggers
_UNSETTLING_STEPS = frozenset({"combat_damage", "cleanup"})
_WINDOW_UNSETTLES: tuple[bool, ...] = tuple(any(n in _UNSETTLING_STEPS for n in spec.steps) for spec in TURN_TABLE)


def _resume_after_action(g: MatchState, how: Continuation) -> None:
    after_action(g, how.actor)


RESUME[Then.OPEN_PRIORITY] = lambda g, how: goto(g, open_priority(g))
RESUME[Then.AFTER_ACTION] = _resume_after_action
RESUME[Then.FINISH_CLEANUP] = lambda g, how: goto(g, finish_cleanup(g))
RESUME[Then.AFTER_DECLARATION] = lambda g, how: after_declaration(g)


__all__ = [
    "COMBAT_WINDOWS", "TURN_HOOKS", "TURN_STEPS", "after_action", "after_declaration", "end_phase",
    "end_turn_effects", "finish_cleanup", "finish_cleanup_effects", "fire_start", "goto",
    "next_window", "open_priority", "phase_trigger", "seat_structure", "step_cleanup", "step_draw",
    "step_influence_gain", "step_ready", "step_sba", "turn_structure", "turn_windows",
]
