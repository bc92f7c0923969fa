// The turn manager (a port of engine/turn.py): the only code that advances windows. `enter` walks a row of
// the turn structure table (state.ts TURN_TABLE): its turn-based steps, then what its kind says;
// `nextWindow` and `endPhase` move along this turn's structure (`turnWindows`: the table, changed only
// by the active player's Seat hooks extra_combat_phases and skip_*). `openPriority` is "before anyone
// receives priority": (Thread branches,) state-based actions, triggers, then AP gets priority.

import type { Match } from "./match";
import { NotPorted } from "./errors";
import {
  DECLARE_ATTACKERS, DEFAULT_STRUCTURE, END_CLEANUP, PHASES, PHASE_STARTS, PHASE_TRIGGERS, SKIP_HOOKS, TRIGGER_WINDOWS,
  TURN_TABLE, WINDOWS, newTrigger, phaseOf,
} from "./state";
import { STEP_END_PHASE, STEP_GO_ON, STEP_WAIT } from "./steps";
import { stepCombatDamage, stepCombatTriggers, stepDeclareAttackers, stepDeclareBlockers } from "./combat";
import { START_TRIGGERS } from "./keywords";
import { sba, settle } from "./sba";
import { answering, fire, placeTriggers } from "./hooks";
import { FINISH_CLEANUP, OPEN_PRIORITY, afterActionOf, permitActive } from "./decisions";
import { runThreads } from "./paradox";
import { returnsStep } from "./voidcast";
import { draw } from "./zones";
import { SEAT_MODIFIERS } from "./match";

/** the windows of the combat phase */
export const COMBAT_WINDOWS: ReadonlySet<number> = new Set(WINDOWS.flatMap((_w, i) => (phaseOf(i) === "combat" ? [i] : [])));
/** the Seat modifiers that change the turn structure (cards.py TURN_HOOK_MODIFIERS, turn.py TURN_HOOKS) */
export const TURN_HOOKS: readonly string[] = ["extra_combat_phases", ...SKIP_HOOKS.map(([k]) => k)];

/** turn.py goto: enter window `w` and keep going until a decision is needed or the match ends. */
export function goto(g: Match, w: number | null): void {
  while (w !== null) {
    if (g.outcome !== null) {
      g.setOver();
      return;
    }
    w = enter(g, w);
  }
  if (g.outcome !== null) g.setOver();
}

/** turn.py turn_windows: this turn's windows in order (indexes into TURN_TABLE). */
export function turnWindows(g: Match, active: number | null = null): readonly number[] {
  const seat = g.player(active ?? g.active).seat;
  if (!seat) return DEFAULT_STRUCTURE;
  return seatStructure(g.card(seat).modifiers);
}

/** turn.py seat_structure: the phases in order, the combat phase 1 + extra_combat_phases times, without
 * the windows a skip_* hook names. */
export function seatStructure(mods: Readonly<Record<string, number>>): readonly number[] {
  if (!TURN_HOOKS.some((k) => k in mods)) return DEFAULT_STRUCTURE;
  const skip = new Set(SKIP_HOOKS.filter(([k]) => mods[k]).map(([, w]) => w));
  const out: number[] = [];
  for (const [phase, windows] of PHASES) {
    const times = 1 + (phase === "combat" ? (mods.extra_combat_phases ?? 0) : 0);
    for (let i = 0; i < times; i++) out.push(...windows.filter((w) => !skip.has(w)));
  }
  return out;
}

type Step = (g: Match) => number;

/** turn.py enter: the row's steps, then what its kind says; the next window to enter at once, or null. */
export function enter(g: Match, w: number): number | null {
  if (g.stack.length) throw new NotPorted(`entering ${WINDOWS[w] as string} with items on the stack: a RulesLoopError (engine/turn.py)`);
  const structure = turnWindows(g);
  if (!(g.step < structure.length && structure[g.step] === w)) {
    const later: number[] = [];
    for (let i = g.step; i < structure.length; i++) if (structure[i] === w) later.push(i);
    g.step = later.length ? (later[0] as number) : structure.includes(w) ? structure.indexOf(w) : g.step;
  }
  g.win = w;
  g.priority = -1;
  g.passed = 0;
  g.quietCount = 0;   // an endless loop lives in one window
  g.loopSeen.clear();
  g.log(`T${g.turn} ${WINDOWS[w] as string}`, { kind: "window", actor: g.active });
  for (const name of (TURN_TABLE[w] as { steps: string[] }).steps) {
    const fn = TURN_STEPS[name];
    if (fn === undefined) throw new NotPorted(`the turn step ${name} (engine/turn.py)`);
    const r = fn(g);
    if (r === STEP_WAIT || g.outcome !== null) return null;
    if (r === STEP_END_PHASE) return endPhase(g);
  }
  const kind = (TURN_TABLE[w] as { kind: string }).kind;
  if (kind === "turn_based") return nextWindow(g, w);
  if (kind === "declaration") return null;
  return openPriority(g);
}

/** turn.py phase_trigger: the window's phase trigger (start_of_draw …) for the active player's cards. */
export function phaseTrigger(g: Match): number {
  const when = PHASE_TRIGGERS[g.window];
  if (when) fireStart(g, when, g.active);
  return STEP_GO_ON;
}

/** draw.start: the turn limit, then the ready step. */
export function stepReady(g: Match): number {
  if (g.options.max_turns && g.turn > g.options.max_turns) {
    g.outcome = ["turn_limit", "draw"];
    return STEP_WAIT;
  }
  const ps = g.player(g.active);
  for (const cid of [...ps.board, ...ps.relics, ps.champion, ps.seat]) if (cid) g.perm(cid).exhausted = false;
  return STEP_GO_ON;
}

export function stepDraw(g: Match): number {
  const ap = g.active;
  if (!(g.turn === 1 && ap === g.firstPlayer) || g.options.first_player_draws) {
    const ps = g.player(ap);
    if (ps.draw_count !== SEAT_MODIFIERS.draw_count && ps.seat) {   // the Seat's hook, said out loud
      g.log(`  ${g.card(ps.seat).name}: ${g.name(ap)} draws ${ps.draw_count} (draw_count)`, { actor: ap, cards: [ps.seat],
        amount: ps.draw_count, rule: "SEAT" });
    }
    draw(g, ap, ps.draw_count);
  } else {
    g.log("  the first player skips the draw of their first turn", { actor: ap, rule: "C1K 1.2" });
  }
  return STEP_GO_ON;
}

export function stepSba(g: Match): number {
  sba(g);
  return STEP_GO_ON;
}

export function stepInfluenceGain(g: Match): number {
  const ap = g.active;
  const ps = g.player(ap);
  const secondFirst = g.turn === 2 && ap !== g.firstPlayer;
  const capacity = secondFirst && g.compensates("capacity");
  if (ps.capacity < ps.max_influence) ps.capacity = Math.min(ps.max_influence, ps.capacity + ps.influence_gain + (capacity ? 1 : 0));
  ps.influence = ps.capacity;
  const influence = secondFirst && g.compensates("influence");
  if (influence) ps.influence += 1;
  for (const [gained, what] of [[capacity, "Influence capacity"], [influence, "Influence this turn"]] as const) {
    if (gained) g.log(`  ${g.name(ap)} goes second: +1 ${what}`, { kind: "influence", actor: ap, amount: 1, rule: "RULES Second player" });
  }
  g.log(`  ${g.name(ap)}: Influence ${ps.influence}/${ps.capacity}`, { kind: "influence", actor: ap, amount: ps.influence });
  return STEP_GO_ON;
}

export function stepCleanup(g: Match): number {
  const ap = g.active;
  const ps = g.player(ap);
  const excess = ps.hand.length - ps.hand_size;
  if (excess > 0) {   // a choice, then finish_cleanup (Then.FINISH_CLEANUP = 2)
    g.ask("choice", ap, excess, excess, false, ps.hand, { kind: "discard", player: ap, values: [...ps.hand], count: excess,
      resume: FINISH_CLEANUP, trigger: null, source: 0, free: false });
    return STEP_WAIT;
  }
  finishCleanupEffects(g);
  return STEP_GO_ON;
}

/** voidcast.py returns_step: the cards in the Void come back to the stack, whoever is active. */
export function stepVoidcastReturns(g: Match): number {
  returnsStep(g);
  return STEP_GO_ON;
}

/** turn.py end_turn_effects: "until end of turn" effects end (unspent Ward points granted until then too). */
export function endTurnEffects(g: Match): void {
  for (const perm of g.perms.values()) {
    if (!(perm.temp_power || perm.temp_health || perm.temp_statuses.length || Object.keys(perm.temp_granted).length)) continue;
    const ward = perm.temp_granted.ward;
    if (ward) perm.ward = Math.max(0, perm.ward - ward);
    perm.temp_power = perm.temp_health = 0;
    perm.temp_statuses = [];
    perm.temp_granted = {};
  }
  for (const ps of g.players) if (ps.permits.length) ps.permits = ps.permits.filter((pm) => permitActive(g, pm[2], true));
}

export function finishCleanupEffects(g: Match): void {
  endTurnEffects(g);
  g.log("  'until end of turn' effects end", { rule: "C1K 5.2" });
  sba(g);
}

/** turn.py finish_cleanup: after the cleanup discard, the rest of end.cleanup, then the next window. */
export function finishCleanup(g: Match): number | null {
  finishCleanupEffects(g);
  if (g.outcome !== null) return null;
  return nextWindow(g, END_CLEANUP);
}

/** turn.py next_window: the window after `w` in this turn's structure; after the last, the next turn. */
export function nextWindow(g: Match, w: number): number {
  const structure = turnWindows(g);
  if (w === DECLARE_ATTACKERS && !g.attackers.length) return endPhase(g);
  if (COMBAT_WINDOWS.has(w) && (g.step + 1 >= structure.length || PHASE_STARTS.has(structure[g.step + 1] as number))) {
    g.attackers = [];   // the combat phase is over
    g.blocks = [];
  }
  if (g.step + 1 < structure.length) {
    g.step += 1;
    return structure[g.step] as number;
  }
  endTurnEffects(g);
  g.turn += 1;
  g.active = 1 - g.active;
  g.attackers = [];
  g.blocks = [];
  g.step = 0;
  return turnWindows(g)[0] as number;
}

/** turn.py end_phase: this phase ends now (no attackers: combat ends); the next phase's first window. */
export function endPhase(g: Match): number {
  const structure = turnWindows(g);
  g.attackers = [];
  g.blocks = [];
  let nxt: number | null = null;
  for (let i = g.step + 1; i < structure.length; i++) {
    if (PHASE_STARTS.has(structure[i] as number)) {
      nxt = i;
      break;
    }
  }
  if (nxt === null) {
    g.step = structure.length - 1;
    return nextWindow(g, structure[structure.length - 1] as number);
  }
  g.step = nxt;
  return structure[nxt] as number;
}

/** turn.py open_priority: (Thread branches,) SBA, triggers to the stack; then AP gets priority, or a
 * trigger window with an empty stack ends at once. */
export function openPriority(g: Match): number | null {
  if (g.threads.length && !runThreads(g, OPEN_PRIORITY)) return null;
  settle(g);
  if (g.outcome !== null) return null;
  if ((g.triggers.length || g.triggerQueue.length) && !placeTriggers(g, OPEN_PRIORITY)) return null;
  if (TRIGGER_WINDOWS.has(g.win) && !g.stack.length) return nextWindow(g, g.win);
  g.givePriority(g.active, 0);
  return null;
}

/** turn.py after_action: after a player's action, SBA and triggers, then priority to the opponent (the
 * actor's pass bit set when the top item is theirs), or to the actor (actor_keeps_priority). */
export function afterAction(g: Match, actor: number): void {
  if (g.threads.length && !runThreads(g, afterActionOf(actor))) return;
  settle(g);
  if (g.outcome !== null) {
    g.setOver();
    return;
  }
  if ((g.triggers.length || g.triggerQueue.length) && !placeTriggers(g, afterActionOf(actor))) return;
  if (g.options.actor_keeps_priority) {
    g.givePriority(actor, 0);
    return;
  }
  const top = g.stack[g.stack.length - 1];
  g.givePriority(1 - actor, top !== undefined && top.adder === actor ? 1 << actor : 0);
}

/** turn.py after_declaration: after a declaration and its triggers, AP receives priority. */
export function afterDeclaration(g: Match): void {
  goto(g, openPriority(g));
}

/** turn.py fire_start: start-of-phase triggers concern only the active player's cards; the rules' own
 * start triggers (keywords.ts START_TRIGGERS) for their units and relics, by entry order. */
export function fireStart(g: Match, when: string, p: number): void {
  for (const cid of answering(g, p, when)) fire(g, when, cid);
  const specs = START_TRIGGERS[when];
  if (!specs) return;
  const ps = g.player(p);
  const mine = [...ps.board, ...ps.relics].filter((c) => c).map((c) => [g.perm(c).seq, c] as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
  for (const spec of specs) {
    for (const cid of mine) {
      if (!spec.applies(g, cid)) continue;
      const perm = g.perm(cid);
      if (spec.keyword && perm.hasStatus("suppressed")) continue;
      const name = spec.keyword ? g.card(cid).name : spec.name;
      g.triggers.push(newTrigger(p, cid, -1, name, perm.seq, spec.rank, "keyword", spec.name, spec.keyword ? 0 : cid));
    }
  }
}

/** turn.py TURN_STEPS: the turn-based steps a TURN_TABLE row names */
export const TURN_STEPS: Readonly<Record<string, Step>> = {
  ready: stepReady, draw: stepDraw, sba: stepSba, phase_trigger: phaseTrigger, influence_gain: stepInfluenceGain,
  declare_attackers: stepDeclareAttackers, declare_blockers: stepDeclareBlockers, combat_damage: stepCombatDamage,
  combat_triggers: stepCombatTriggers, voidcast_returns: stepVoidcastReturns, cleanup: stepCleanup,
};
