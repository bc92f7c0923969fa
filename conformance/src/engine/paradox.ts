// Paradox (rules.md §6 KW Flux, KW Thread; C1K 8.2, C1K 9), a port of engine/paradox.py: a Flux outcome
// drawn from the match's generator, offered to "when a Flux outcome is determined" Interrupts before it
// happens (and redrawn by a reroll); a Thread branch chosen in advance that resolves at the next moment a
// player would receive priority, after "when a Thread branch would resolve" Interrupts (which may cut it);
// and the order of a player's simultaneous Flux triggers.

import type { Ability, Effect } from "./cards";
import { VerbFunction, runEffects } from "./effects";
import { offerInterrupts } from "./interrupts";
import type { Choice, Match } from "./match";
import { Continuation, RESUME_RESOLUTION, resume } from "./decisions";
import { StackItem, Trigger, newTrigger, stackItemSnapshot } from "./state";
import { RANK_OTHER } from "./keywords";
import { effectSlots } from "./targets";
import { describeEffects, selfWords } from "./cardwords";

/** cards.py Effect.outcome_text (k 0-based) and branch_text (m 1-based): a Flux outcome or Thread branch in
 * words, `self` said as the source card's type says it (CardDef.__post_init__ describe_inner). */
export function outcomeText(g: Match, source: number, e: Effect, k: number): string {
  return describeEffects((e.outcomes as Effect[][])[k] as Effect[], selfWords(g.card(source).type));
}
export function branchText(g: Match, source: number, e: Effect, m: number): string {
  return describeEffects((e.branches as Effect[][])[m - 1] as Effect[], selfWords(g.card(source).type));
}

/** state.py Resolving: a resolution paused at a Flux outcome while players are asked for Interrupts. */
export interface Resolving {
  item: StackItem | null; controller: number; source: number; effects: Effect[]; chosen: number[]; event: number[];
  mode: number; flux: Effect; k: number; then: Continuation; same: number[] | null;
}

const EFFECT_DEFAULTS: Record<string, unknown> = { amount: 1, target: null, power: 0, health: 0, until: null, keyword: null,
  status: null, card: null, player: "you", outcomes: null, branches: null, zone: null, card_type: "any",
  duration: "instruction", free: false };

/** Effect.model_dump(exclude_defaults=True): the card file's table with the fields at their default left out. */
export function effectDump(e: Effect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (k !== "do" && v === EFFECT_DEFAULTS[k]) continue;
    out[k] = (k === "outcomes" || k === "branches") && v !== null ? (v as Effect[][]).map((l) => l.map(effectDump)) : v;
  }
  return out;
}

export function resolvingSnapshot(r: Resolving): Record<string, unknown> {
  const out: Record<string, unknown> = { item: r.item === null ? null : stackItemSnapshot(r.item), controller: r.controller,
    source: r.source, effects: r.effects.map(effectDump), chosen: [...r.chosen], event: [...r.event], mode: r.mode,
    flux: effectDump(r.flux), k: r.k, then: [...r.then] };
  if (r.same !== null) out.same = [...r.same];
  return out;
}

/** targets.py thread_effect: the card's Thread effect (in its effect, or an ability's). */
export function threadEffect(g: Match, cid: number): Effect | null {
  const d = g.card(cid);
  for (const e of d.effect) if (e.do === "thread") return e;
  for (const ab of d.abilities) for (const e of ab.effect) if (e.do === "thread") return e;
  return null;
}

/** A chosen branch resolves at the earliest legal window after its evaluation — the next moment a player
 * would receive priority. False if a decision is pending. */
export function runThreads(g: Match, then: Continuation): boolean {
  while (g.threads.length && g.outcome === null) {
    const t = g.threads[0] as Trigger;
    if (t.ctx === 0) {   // C1K 7: "when a Thread branch would resolve" Interrupts, AP first (asked once)
      if (offerInterrupts(g, "thread_resolves", [g.active, 1 - g.active], then)) {
        g.threads[0] = { ...t, ctx: 1 };
        return false;
      }
    }
    g.threads.shift();
    const e = threadEffect(g, t.source);
    if (e !== null && e.branches !== null && e.branches.length && 1 <= t.mode && t.mode <= e.branches.length) {
      const what = branchText(g, t.source, e, t.mode);
      g.log(`  Thread: ${t.name}, branch ${t.mode} of ${e.branches.length} resolves — ${what}`, { kind: "thread",
        actor: t.controller, cards: [t.source], amount: t.mode, detail: `resolves: ${what}`, rule: "KW Thread" });
      if (!runEffects(g, e.branches[t.mode - 1] as Effect[], t.controller, t.source, [...t.targets], null, [], t.mode,
        true, then)) return false;
    }
  }
  return true;
}

/** A Thread in a triggered ability: its controller chooses the branch as it goes on the stack (true:
 * asked; the trigger waits at the head of the queue). */
export function askThreadBranch(g: Match, t: Trigger, ab: Ability, how: Continuation): boolean {
  const thread = ab.effect.find((e) => e.do === "thread");
  if (thread === undefined) return false;
  const branches = (thread.branches ?? []).length;
  if (!branches) return false;
  g.triggerQueue.unshift(t);
  const values = Array.from({ length: branches }, (_x, i) => i + 1);
  g.ask("choice", t.controller, 1, 1, false, [], { kind: "thread", player: t.controller, values, count: 1, resume: how,
    trigger: t, source: 0, free: false });
  return true;
}

/** The answer to askThreadBranch: the trigger goes on with its branch. */
export function chooseBranch(g: Match, ch: Choice, branch: number): void {
  const t = ch.trigger as Trigger;
  g.triggerQueue[0] = { ...t, mode: branch };
  const e = threadEffect(g, t.source);
  const what = e !== null && e.branches && e.branches.length && branch >= 1 && branch <= e.branches.length
    ? `: ${branchText(g, t.source, e, branch)}` : "";
  g.log(`  ${g.name(ch.player)} chooses branch ${branch} for ${t.name}${what}`, { kind: "thread", actor: ch.player,
    cards: [t.source], amount: branch, detail: "chosen", rule: "KW Thread" });
}

/** A "when a Thread branch would resolve" Interrupt that counters cuts the waiting branch. */
export function cutThread(g: Match, ab: Ability): void {
  if (!g.threads.length || !ab.effect.some((e) => e.do === "counter")) return;
  const cut = g.threads.shift() as Trigger;
  g.log(`  the Thread branch of ${cut.name} is cut: it doesn't resolve`, { kind: "thread", actor: cut.controller,
    cards: [cut.source], amount: cut.mode, detail: "cut", rule: "KW Thread" });
}

export function isFluxTrigger(g: Match, t: Trigger): boolean {
  if (t.kind !== "trigger" || t.ability < 0 || t.ordered) return false;
  const d = g.card(t.source);
  return d.realm === "paradox" && (d.abilities[t.ability]?.effect ?? []).some((e) => e.do === "flux");
}

/** C1K 8.2: a Paradox player may reorder their own simultaneous Flux effects. False if asked. */
export function askFluxOrder(g: Match, how: Continuation): boolean {
  if (g.triggerQueue.length < 2) return true;
  const flux = g.triggerQueue.map((t, i) => [t, i] as [Trigger, number]).filter(([t]) => isFluxTrigger(g, t)).map((x) => x[1]);
  if (flux.length < 2) return true;
  for (const p of [g.active, 1 - g.active]) {
    // options in the default resolution order (the queue is in push order: last pushed resolves first)
    const pos = flux.filter((i) => (g.triggerQueue[i] as Trigger).controller === p).reverse();
    if (pos.length < 2) continue;
    g.ask("choice", p, pos.length, pos.length, false, pos.map((i) => (g.triggerQueue[i] as Trigger).source),
      { kind: "order", player: p, values: pos, count: pos.length, resume: how, trigger: null, source: 0, free: false });
    return false;
  }
  return true;
}

/** commands.py do_choose "order": the chosen resolution order, marked as ordered. */
export function chooseOrder(g: Match, ch: Choice, options: number[]): void {
  const resolution = options.map((k) => g.triggerQueue[ch.values[k - 1] as number] as Trigger);
  const sorted = [...ch.values].sort((a, b) => a - b);
  const reversed = [...resolution].reverse();
  sorted.forEach((pos, i) => {
    g.triggerQueue[pos] = { ...(reversed[i] as Trigger), ordered: true };
  });
  // (commands.py do_choose's line)
  g.log(`  ${g.name(ch.player)} orders the Flux effects: ` + resolution.map((t) => t.name).join(", "), { kind: "choice",
    actor: ch.player, cards: resolution.map((t) => t.source), rule: "C1K 8" });
}

/** After the Flux Interrupts: the (possibly redrawn) outcome happens, then the rest of the effects. */
export function resumeResolution(g: Match): void {
  const r = g.resolving as Resolving;
  g.resolving = null;
  g.log(`  Flux outcome ${r.k + 1} happens`, { kind: "flux", actor: r.controller, cards: [r.source], amount: r.k + 1,
    detail: outcomeText(g, r.source, r.flux, r.k), rule: "KW Flux" });
  runEffects(g, (r.flux.outcomes as Effect[][])[r.k] as Effect[], r.controller, r.source, [], null, r.event, r.mode);
  if (runEffects(g, r.effects, r.controller, r.source, [...r.chosen], r.item, r.event, r.mode, true, r.then, r.same)) {
    resume(g, r.then);
  } else if (g.outcome !== null) {
    g.setOver();
  }
}

// ---------------------------------------------------------------- the Paradox effect verbs (effects.ts VERB_FUNCTIONS)

/** Paradox (C1K §9): one outcome from the generator, resolved as one atomic event; in a stack item's
 * resolution, "when a Flux outcome is determined" Interrupts are asked first (C1K 7). */
export const flux: VerbFunction = (g, e, _targets, r) => {
  if (!e.outcomes || !e.outcomes.length) return;
  const k = Number(g.rng.below(BigInt(e.outcomes.length)));
  const what = outcomeText(g, r.source, e, k);
  g.log(`  Flux: outcome ${k + 1} of ${e.outcomes.length} — ${what}`, { kind: "flux", actor: r.controller, cards: [r.source],
    amount: k + 1, detail: what, rule: "KW Flux" });
  if (r.top && offerInterrupts(g, "flux_outcome", [g.active, 1 - g.active], RESUME_RESOLUTION)) {
    g.resolving = { item: r.item, controller: r.controller, source: r.source, effects: r.todo.slice(r.i),
      chosen: [...r.chosen], event: [...r.event], mode: r.mode, flux: e, k, then: r.then, same: r.same };
    r.paused = true;
    return;
  }
  runEffects(g, e.outcomes[k] as Effect[], r.controller, r.source, [], null, r.event, r.mode);
};

/** An Interrupt's "draw the Flux outcome again" (the resolution paused at the Flux). */
export const reroll: VerbFunction = (g, _e, _targets, r) => {
  const res = g.resolving;
  if (res !== null && res.flux.outcomes && res.flux.outcomes.length) {
    const k = Number(g.rng.below(BigInt(res.flux.outcomes.length)));
    g.resolving = { ...res, k };
    const what = outcomeText(g, res.source, res.flux, k);
    g.log(`  the Flux outcome is drawn again: outcome ${k + 1} of ${res.flux.outcomes.length} — ${what}`, { kind: "flux",
      actor: r.controller, cards: [res.source], amount: k + 1, detail: what, rule: "KW Flux" });
  }
};

/** Thread: the branch was chosen when played; it waits (with its targets) for the earliest legal window. */
export const thread: VerbFunction = (g, e, _targets, r) => {
  if (!e.branches || !e.branches.length) return;
  const m = Math.max(r.mode, 1);
  if (m <= e.branches.length) {
    const n = effectSlots(e.branches[m - 1] as Effect[]).length;
    const branchTargets = r.chosen.splice(0, n);
    const t = newTrigger(r.controller, r.source, -1, g.card(r.source).name, 0, RANK_OTHER, "thread");
    g.threads.push({ ...t, targets: branchTargets, chosen: true, mode: m });
    const what = branchText(g, r.source, e, m);
    g.log(`  Thread: branch ${m} (${what}) waits for the next moment a player would receive priority`, { kind: "thread",
      actor: r.controller, cards: [r.source], amount: m, detail: `waits: ${what}`, rule: "KW Thread" });
  }
};
