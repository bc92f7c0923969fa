// Every keyword of rules.md §6 that the spine has (a port of engine/keywords.py, in its order): the
// handlers a keyword plugs into the event pipeline (pipeline.ts), the triggers it creates at the start of
// a phase, and its checks. Strike and Overwhelm are combat.ts's (C1K 4.3); Charge and Rooted the attack
// checks' (legality.ts attackBlockReason); Set and Ambush match.ts's (setCard, play). Conquer, Bloom,
// Suppress, Flux, Thread, Nullify and Voidcast need triggers or effects (the next layer): a card with
// them is not played by the spine.

import type { Match } from "./match";
import { PendingEvent, Stage, damage, heal } from "./pipeline";
import { StackItem } from "./state";
import { fire } from "./hooks";

/** triggers.py C1K 8.2 ranks: Ruin destruction effects first, then the rest */
export const RANK_DESTRUCTION = 0, RANK_OTHER = 2;

/** A trigger the rules create at the start of a phase for the active player's units (keywords.py StartTrigger). */
export interface StartTrigger {
  name: string;      // the item's keyword tag (and, for a rule's trigger, its stack name)
  keyword: string;   // "" for a rule's own trigger (Decay Check)
  applies: (g: Match, c: number) => boolean;
  resolve: (g: Match, item: StackItem) => void;
  rank: number;
}

// ---------------------------------------------------------------- KW Tough

/** Tough (RB §3.2): each damage instance to it is reduced by 1. */
export function toughReduces(g: Match, ev: PendingEvent): void {
  if (!g.perms.has(ev.target) || ev.amount <= 0) return;
  if (g.keyword(ev.target, "tough") !== null) {
    ev.amount -= 1;
    g.log(`  Tough: ${g.label(ev.target)} takes 1 less`);
  }
}

// ---------------------------------------------------------------- KW Barrier

/** Barrier: prevents the next damage to the unit, then is removed. */
export function barrierPrevents(g: Match, ev: PendingEvent): void {
  const perm = g.perms.get(ev.target);
  if (perm === undefined || ev.amount <= 0 || !perm.hasStatus("barrier")) return;
  g.removeStatus(ev.target, "barrier");
  ev.prevented += ev.amount;
  g.log(`  Barrier of ${g.label(ev.target)} prevents ${ev.amount} damage`, { cards: [ev.target], amount: ev.amount,
    rule: "KW Barrier" });
  ev.amount = 0;
}

// ---------------------------------------------------------------- KW Regeneration

/** Regeneration: heals fully (at influence.start). */
export function regenerate(g: Match, item: StackItem): void {
  heal(g, item.source, item.source, g.perm(item.source).damage);
}

// ---------------------------------------------------------------- KW Guard

/** C1K 4.2 step 3: while the defender has a ready Guard unit that isn't blocking, non-Guard units can't
 * block. The refusal's text (keywords.py guard_refusal), or null. */
export function guardRefusal(g: Match, blockers: number[]): string | null {
  const dp = 1 - g.active;
  const idle = g.player(dp).board.filter((u) => u && g.keyword(u, "guard") !== null && !g.perm(u).exhausted
    && !blockers.includes(u));
  if (!idle.length) return null;
  for (const b of blockers) {
    if (g.keyword(b, "guard") === null) {
      return `${g.card(b).name} can't block while ${g.card(idle[0] as number).name} #${idle[0] as number} (Guard) is ready and not blocking`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- KW Lifedrain

/** Lifedrain: damage it deals heals its Champion (in combat: at C1K 4.3 step 5). */
export function lifedrainHeals(g: Match, ev: PendingEvent): void {
  const src = ev.source;
  if (ev.dealt <= 0 || !src) return;
  if (g.keyword(src, "lifedrain") === null) return;
  const controller = g.controller(src);
  if (ev.combat) g.lifedrain_due[controller] = (g.lifedrain_due[controller] as number) + ev.dealt;
  else heal(g, src, g.player(controller).champion, ev.dealt);
}

// ---------------------------------------------------------------- KW Rally (Dominion)

/** Rally N: on attack declaration, each other attacking unit gets +N power this turn, at once. */
export function rally(g: Match): void {
  for (const a of g.attackers) {
    const n = g.keyword(a, "rally");
    if (n) {
      for (const other of g.attackers) if (other !== a) g.perm(other).temp_power += n;
      g.log(`  Rally ${n}: ${g.label(a)} gives each other attacker +${n} power this turn`, { cards: [a], amount: n,
        rule: "KW Rally" });
    }
  }
}

// ---------------------------------------------------------------- KW Veiled (Veil)

/** Veiled: opponents can't target it. */
export function targetable(g: Match, cid: number, by: number): boolean {
  const perm = g.perms.get(cid);
  return perm === undefined || g.owner(cid) === by || !perm.hasStatus("veiled");
}

/** Veiled: lost when it deals damage. */
export function veiledLost(g: Match, ev: PendingEvent): void {
  if (ev.dealt + ev.converted <= 0) return;
  const perm = g.perms.get(ev.source);
  if (perm !== undefined && perm.hasStatus("veiled")) {
    g.removeStatus(ev.source, "veiled");
    g.log(`  ${g.label(ev.source)} dealt damage and is no longer Veiled`);
  }
}

// ---------------------------------------------------------------- KW Set, KW Ambush (Veil)

/** Veil: Influence to Set a card face down (match.ts setCard; a Set card is played at Fast speed) */
export const SET_COST = 1;

// ---------------------------------------------------------------- KW Veilbind (Veil)

/** Veilbind: if it would be destroyed, instead it becomes Veiled, heals fully and loses Veilbind. */
export function veilbindEscapes(g: Match, ev: PendingEvent): void {
  const perm = g.perms.get(ev.target);
  if (perm === undefined || g.keyword(ev.target, "veilbind") === null) return;
  ev.cancelled = true;
  perm.lost.push("veilbind");
  delete perm.granted.veilbind;
  delete perm.temp_granted.veilbind;
  g.addStatus(ev.target, "veiled", false);
  g.log(`  Veilbind: ${g.label(ev.target)} is not destroyed — it becomes Veiled and heals fully`, { cards: [ev.target],
    rule: "KW Veilbind" });
  heal(g, ev.target, ev.target, perm.damage);
}

// ---------------------------------------------------------------- KW Decay (Ruin)

/** Decay N: damage it deals to a unit (even converted by Wither) also gives that unit N Decay counters. */
export function decayCounters(g: Match, ev: PendingEvent): void {
  const src = ev.source;
  if (ev.dealt + ev.converted <= 0 || !src) return;
  const n = g.keyword(src, "decay");
  const perm = g.perms.get(ev.target);
  if (!n || perm === undefined || g.isChampion(ev.target)) return;
  perm.counters.decay = (perm.counters.decay ?? 0) + n;
  g.log(`  Decay ${n}: ${g.label(ev.target)} has ${perm.counters.decay} Decay counter(s)`, { cards: [ev.source, ev.target],
    rule: "KW Decay" });
}

/** Decay Check: 1 damage per Decay counter; the counters stay. */
export function decayCheck(g: Match, item: StackItem): void {
  const unit = item.ctx;
  if (g.isUnitInPlay(unit)) damage(g, 0, unit, g.perm(unit).counters.decay ?? 0);
}

// ---------------------------------------------------------------- KW Wither (Ruin)

/** Wither: damage it deals to units becomes permanent -1/-1 counters instead. */
export function witherConverts(g: Match, ev: PendingEvent): void {
  const src = ev.source;
  if (ev.amount <= 0 || !src) return;
  if (g.keyword(src, "wither") === null) return;
  const perm = g.perms.get(ev.target);
  if (perm === undefined || g.isChampion(ev.target)) return;
  perm.counters.wither = (perm.counters.wither ?? 0) + ev.amount;
  perm.killer = src;
  g.log(`  Wither: ${g.label(ev.target)} gets ${ev.amount} -1/-1 counter(s) instead of damage`, { cards: [ev.source, ev.target],
    rule: "KW Wither" });
  ev.converted = ev.amount;
  ev.amount = 0;
}

// ---------------------------------------------------------------- KW Growth (Genesis)

/** Growth N: N growth counters, each +1/+1. */
export function grow(g: Match, item: StackItem): void {
  const n = g.keyword(item.source, "growth") ?? 0;
  const perm = g.perm(item.source);
  perm.counters.growth = (perm.counters.growth ?? 0) + n;
  g.log(`  ${g.label(item.source)} grows: +${n} growth counter(s)`, { cards: [item.source], amount: n, rule: "KW Growth" });
}

// ---------------------------------------------------------------- KW Evolve (Genesis)

/** Evolve: checked with state-based actions; the unit becomes the card it evolves into, keeping its
 * counters and damage. True if any unit evolved. */
export function evolveCheck(g: Match): boolean {
  let changed = false;
  for (const p of [g.active, 1 - g.active]) {
    for (const c of g.player(p).board) {
      if (!c) continue;
      const spec = g.card(c).evolve;
      if (spec === null || (spec.growth && (g.perm(c).counters.growth ?? 0) < spec.growth)
          || (spec.power && g.power(c) < spec.power)) continue;
      const into = g.db.get(spec.into);
      if (into === undefined || into.type !== "unit") continue;
      const old = g.label(c);
      g.defs.set(c, into);
      g.cards.setCard(c, into.id);
      g.log(`  Evolve: ${old} transforms into ${into.name}`, { kind: "sba", actor: p, cards: [c], detail: into.id, rule: "KW Evolve" });
      changed = true;
    }
  }
  return changed;
}

// ---------------------------------------------------------------- KW Bloom (Genesis)

/** Bloom: its effect triggers whenever it, or its Champion, is healed. */
export function bloomTriggers(g: Match, ev: PendingEvent): void {
  if (ev.dealt <= 0) return;
  if (g.isChampion(ev.target)) {
    const p = g.championOwner(ev.target);
    const ps = g.player(p);
    const blooms = [...ps.board, ...ps.relics, ps.champion, ps.seat].filter((c) => c && g.keyword(c, "bloom") !== null);
    if (blooms.length) for (const cid of g.permanents(p)) if (blooms.includes(cid)) fire(g, "on_bloom", cid, ev.target);
  } else if (g.perms.has(ev.target) && g.keyword(ev.target, "bloom") !== null) {
    fire(g, "on_bloom", ev.target, ev.target);
  }
}

// ---------------------------------------------------------------- KW Pulse (Solace)

/** Pulse N: heal N to its Champion and to each damaged friendly unit. */
export function pulse(g: Match, item: StackItem): void {
  const n = g.keyword(item.source, "pulse") ?? 0;
  const p = g.controller(item.source);
  heal(g, item.source, g.player(p).champion, n);
  for (const u of g.player(p).board) if (u && g.perm(u).damage > 0) heal(g, item.source, u, n);
}

// ---------------------------------------------------------------- KW Ward (Solace)

/** Ward N: a pool of N prevention points, spent as it prevents (before Barrier); points granted until
 * end of turn are spent first. */
export function wardPrevents(g: Match, ev: PendingEvent): void {
  const perm = g.perms.get(ev.target);
  if (perm === undefined || ev.amount <= 0 || perm.ward <= 0) return;
  const spent = Math.min(perm.ward, ev.amount);
  perm.ward -= spent;
  const temp = perm.temp_granted.ward ?? 0;
  if (temp) {
    if (temp > spent) perm.temp_granted.ward = temp - spent;
    else delete perm.temp_granted.ward;
  }
  ev.amount -= spent;
  ev.prevented += spent;
  g.log(`  Ward of ${g.label(ev.target)} prevents ${spent} damage (${perm.ward} left)`, { cards: [ev.target], amount: spent,
    rule: "KW Ward" });
}

// ---------------------------------------------------------------- the tables other rules read

/** keywords.py PIPELINE_HANDLERS, in the order they run */
export const PIPELINE_HANDLERS: readonly [Stage, string,
  (g: Match, ev: PendingEvent) => void][] = [
  ["prevention", "damage", wardPrevents],
  ["prevention", "damage", barrierPrevents],
  ["modification", "damage", toughReduces],
  ["replacement", "damage", witherConverts],
  ["after", "damage", lifedrainHeals],
  ["after", "damage", decayCounters],
  ["after", "damage", veiledLost],
  ["replacement", "destroy", veilbindEscapes],
  ["after", "heal", bloomTriggers],
];

/** keywords.py START_TRIGGERS: the rules' triggers at the start of a phase, by phase trigger */
export const START_TRIGGERS: Readonly<Record<string, StartTrigger[]>> = {
  start_of_influence: [
    { name: "Decay Check", keyword: "", applies: (g, c) => (g.perm(c).counters.decay ?? 0) > 0, resolve: decayCheck,
      rank: RANK_DESTRUCTION },
    { name: "regeneration", keyword: "regeneration",
      applies: (g, c) => g.perm(c).damage > 0 && g.keyword(c, "regeneration") !== null, resolve: regenerate, rank: RANK_OTHER },
    { name: "growth", keyword: "growth", applies: (g, c) => g.keyword(c, "growth") !== null, resolve: grow, rank: RANK_OTHER },
    { name: "pulse", keyword: "pulse", applies: (g, c) => g.keyword(c, "pulse") !== null, resolve: pulse, rank: RANK_OTHER },
  ],
};
export const START_TRIGGERS_ALL: readonly StartTrigger[] = Object.values(START_TRIGGERS).flat();
