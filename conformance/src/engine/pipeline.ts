// The event pipeline of rules.md §4 (a port of engine/pipeline.py): damage, heal and destroy pass through
// the stages prevention → modification → replacement → (the change) → after; the keyword handlers that
// plug into them are keywords.ts's PIPELINE_HANDLERS, stage by stage, in the order they run.

import type { Match } from "./match";
import { fire } from "./hooks";
import { leavePlay, toGraveyard } from "./zones";
import { PIPELINE_HANDLERS } from "./keywords";

export const STAGES = ["prevention", "modification", "replacement", "after"] as const;
export type Stage = (typeof STAGES)[number];

/** A game change in flight. Handlers may lower `amount`, set `cancelled`, or note `prevented`. */
export class PendingEvent {
  cancelled = false;
  prevented = 0;
  dealt = 0;        // what was finally dealt (after the change)
  converted = 0;    // damage a replacement turned into something else (Wither counters)
  constructor(readonly kind: string, readonly source: number, readonly target: number, public amount = 0,
    readonly combat = false) {}
}

export type Handler = (g: Match, ev: PendingEvent) => void;

/** stage -> event kind -> handlers, in registration order: keywords.ts PIPELINE_HANDLERS first (read on
 * first use: the modules import each other), then any `register`ed later. */
let handlerTable: Map<string, Handler[]> | null = null;

function handlers(stage: Stage, kind: string): Handler[] {
  if (handlerTable === null) {
    handlerTable = new Map();
    for (const [s, k, fn] of PIPELINE_HANDLERS) addHandler(handlerTable, s, k, fn);
  }
  return handlerTable.get(`${stage} ${kind}`) ?? [];
}

function addHandler(table: Map<string, Handler[]>, stage: Stage, kind: string, fn: Handler): void {
  const key = `${stage} ${kind}`;
  table.set(key, [...(table.get(key) ?? []), fn]);
}

export function register(stage: Stage, kind: string, fn: Handler): void {
  handlers(stage, kind);
  addHandler(handlerTable as Map<string, Handler[]>, stage, kind, fn);
}

/** The pre-change stages; false if the event was cancelled (replaced by nothing). */
export function run(g: Match, ev: PendingEvent): boolean {
  for (const stage of ["prevention", "modification", "replacement"] as const) {
    for (const fn of handlers(stage, ev.kind)) {
      fn(g, ev);
      if (ev.cancelled) return false;
    }
  }
  return true;
}

export function after(g: Match, ev: PendingEvent): void {
  for (const fn of handlers("after", ev.kind)) fn(g, ev);
}

/** pipeline.py destroy: its "on death" abilities trigger as it dies (last known information), then it
 * leaves play for the graveyard. False if a replacement (Veilbind) cancelled it. */
export function destroy(g: Match, cid: number, cause: string): boolean {
  const ev = new PendingEvent("destroy", 0, cid);
  if (!run(g, ev)) return false;
  fire(g, "on_death", cid, cid);
  leavePlay(g, cid);
  toGraveyard(g, cid);
  g.log(`  ${g.label(cid)} is destroyed (${cause})`, { kind: "destroy", actor: g.owner(cid), cards: [cid], detail: cause });
  after(g, ev);
  return true;
}

/** pipeline.py damage: a Champion loses life, a unit takes damage (its killer noted). The amount dealt. */
export function damage(g: Match, source: number, target: number, amount: number, combat = false): number {
  if (amount <= 0) return 0;
  const ev = new PendingEvent("damage", source, target, amount, combat);
  if (!run(g, ev)) return 0;
  amount = ev.amount;
  if (amount <= 0) {
    if (ev.converted) after(g, ev);   // e.g. Decay counters still come with Wither-converted damage
    return 0;
  }
  const ps = target === g.player(0).champion ? g.player(0) : target === g.player(1).champion ? g.player(1) : null;
  if (ps !== null) {
    ps.life -= amount;
    g.log(`  ${source ? g.label(source) : "the rules"} deals ${amount} to ${g.name(ps === g.player(0) ? 0 : 1)} (life ${ps.life})`,
      { kind: "damage", actor: source ? g.owner(source) : -1, cards: [source, target], amount, detail: combat ? "combat" : "" });
  } else {
    const perm = g.perms.get(target);
    if (perm === undefined) return 0;
    perm.damage += amount;
    perm.killer = source;
    g.log(`  ${source ? g.label(source) : "the rules"} deals ${amount} to ${g.label(target)}`, { kind: "damage",
      actor: source ? g.owner(source) : -1, cards: [source, target], amount, detail: combat ? "combat" : "" });
    fire(g, "on_damaged", target, source);
  }
  ev.dealt = amount;
  after(g, ev);
  return amount;
}

/** pipeline.py heal: a Champion gains life; a unit loses damage (at most what it has). The amount healed. */
export function heal(g: Match, source: number, target: number, amount: number): number {
  if (amount <= 0) return 0;
  const ev = new PendingEvent("heal", source, target, amount);
  if (!run(g, ev)) return 0;
  const ps = target === g.player(0).champion ? g.player(0) : target === g.player(1).champion ? g.player(1) : null;
  let healed: number;
  if (ps !== null) {
    ps.life += ev.amount;
    healed = ev.amount;
  } else {
    const perm = g.perms.get(target);
    if (perm === undefined) return 0;
    healed = Math.min(perm.damage, ev.amount);
    perm.damage -= healed;
  }
  if (healed > 0) {
    g.log(`  ${g.label(target)} heals ${healed}`, { kind: "heal", actor: source ? g.owner(source) : -1, cards: [source, target],
      amount: healed });
    fire(g, "on_heal", target, source);
  }
  ev.dealt = healed;
  after(g, ev);
  return healed;
}
