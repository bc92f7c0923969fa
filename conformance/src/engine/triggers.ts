// Triggered abilities waiting for the stack (C1K 8), a port of engine/triggers.py: `fire` queues a
// card's abilities for an event, `gameTrigger` a rule's own trigger (Deck Exhaustion); `triggerOrder` is
// the push order of simultaneous triggers (NAP's first, AP's on top; C1K 8.2 ranks within one player).
// Putting them on the stack, with target choices, is stack.ts's work.

import type { Ability, CardDef } from "./cards";
import type { Match } from "./match";

/** state.py Trigger: a triggered ability waiting to be put on the stack. */
export interface Trigger {
  controller: number; source: number; ability: number; name: string; seq: number; rank: number;
  kind: string; keyword: string; ctx: number; targets: number[]; chosen: boolean; mode: number;
  ordered: boolean; tseq: number[];
}

/** Trigger.snapshot (the name is a label: not hashed). */
export function triggerSnapshot(t: Trigger): unknown[] {
  return [t.controller, t.source, t.ability, t.seq, t.rank, t.kind, t.keyword, t.ctx, [...t.targets], t.chosen,
    t.mode, t.ordered, [...t.tseq]];
}

export function newTrigger(controller: number, source: number, ability: number, name: string, seq: number,
  rest: Partial<Trigger> = {}): Trigger {
  return { controller, source, ability, name, seq, rank: 0, kind: "trigger", keyword: "", ctx: 0, targets: [],
    chosen: false, mode: 0, ordered: false, tseq: [], ...rest };
}

// (Genesis transformations — Evolve — happen with state-based actions, before any buff trigger resolves)
export const RANK_DESTRUCTION = 0;
export const RANK_OTHER = 2;

/** The `when`s of a card's abilities (CardDef.whens). */
export function whens(d: CardDef): Set<string> {
  return new Set(d.abilities.map((a) => a.when).filter((w): w is string => w !== null));
}

/** Queue the `when` abilities of card `cid` (a Suppressed card's abilities don't function). `seq`: when
 * the card entered play, for a card that has just left it (last known information). */
export function fire(g: Match, when: string, cid: number, ctx = 0, targets: number[] = [], chosen = false,
  mode = 0, tseq: number[] = [], seq: number | null = null): void {
  const d = g.def(cid);
  if (!d.abilities.some((a) => a.when === when)) return;
  const perm = g.perms.get(cid);
  if (perm !== undefined && (perm.statuses.includes("suppressed") || perm.temp_statuses.includes("suppressed"))) return;
  const s = seq ?? (perm !== undefined ? perm.seq : 0);
  d.abilities.forEach((ab, i) => {
    if (ab.when === when) {
      g.triggers.push(newTrigger(g.controller(cid), cid, i, d.name, s, { rank: triggerRank(d, ab), ctx,
        targets: [...targets], chosen, mode, tseq: [...tseq] }));
    }
  });
}

/** Player p's cards in play with an ability for `when` (but `but`), in the order they entered play. */
export function answering(g: Match, p: number, when: string, but = 0): number[] {
  const ps = g.player(p);
  const found = [...ps.board, ...ps.relics, ps.champion, ps.seat]
    .filter((c) => c && c !== but && g.def(c).abilities.some((a) => a.when === when));
  if (found.length < 2) return found;
  return found.map((c) => [g.perm(c).seq, c] as [number, number]).sort(tupleCompare).map((x) => x[1]);
}

/** Player p's cards in play that watch for `when` (by entry order), but `ctx` itself. */
export function fireWatchers(g: Match, when: string, p: number, ctx: number): void {
  for (const cid of answering(g, p, when, ctx)) fire(g, when, cid, ctx);
}

export function gameTrigger(g: Match, p: number, name: string): void {
  g.triggers.push(newTrigger(p, 0, -1, name, 0, { kind: "game", keyword: name }));
}

/** Element-by-element comparison of tuples of numbers and booleans (false < true): docs/determinism.md §8 d. */
export function tupleCompare(a: readonly (number | boolean)[], b: readonly (number | boolean)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Push order (C1K §8): NAP's first, AP's on top; within a player, lower rank and earlier entry resolve
 * first, so they are pushed last. A stable sort by the key (controller is AP, -rank, -seq) (§8 d). */
export function triggerOrder(g: Match, ts: Trigger[]): Trigger[] {
  const key = (t: Trigger): (number | boolean)[] => [t.controller === g.active, -t.rank, -t.seq];
  return [...ts].sort((a, b) => tupleCompare(key(a), key(b)));
}

/** C1K 8.2 tie-breaks among one player's simultaneous triggers: Ruin destruction effects first, then the
 * rest (by the order their sources entered play). */
export function triggerRank(d: CardDef, ab: Ability): number {
  if (d.realm === "ruin" && ab.effect.some((e) => e.do === "destroy" || e.do === "damage")) return RANK_DESTRUCTION;
  return RANK_OTHER;
}
