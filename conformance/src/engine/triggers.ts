// Triggered abilities waiting for the stack (C1K 8), a port of engine/triggers.py: `fire` queues a
// card's abilities for an event, `gameTrigger` a rule's own trigger (Deck Exhaustion); `triggerOrder` is
// the push order of simultaneous triggers (NAP's first, AP's on top; C1K 8.2 ranks within one player).
// Putting them on the stack, with target and branch choices, is stack.ts's work.

import type { Ability, CardDef } from "./cards";
import type { Match } from "./match";
import { RANK_DESTRUCTION, RANK_OTHER } from "./keywords";
import { Trigger, newTrigger } from "./state";

/** What a fired trigger carries beyond its context: a played unit's on-play targets (`chosen`: named in
 * the command), its Thread mode, and which time in play each target was (`tseq`). */
export interface Fired { targets?: number[]; chosen?: boolean; mode?: number; tseq?: number[] }

/** Queue the `when` abilities of card `cid` (a Suppressed card's abilities don't function). `seq`: when
 * the card entered play, for a card that has just left it (last known information). */
export function fire(g: Match, when: string, cid: number, ctx = 0, seq: number | null = null, o: Fired = {}): void {
  const d = g.card(cid);
  if (!d.abilities.some((a) => a.when === when)) return;   // (most cards have no ability for the event)
  const perm = g.perms.get(cid);
  if (perm !== undefined && perm.hasStatus("suppressed")) return;
  const s = seq ?? (perm !== undefined ? perm.seq : 0);
  d.abilities.forEach((ab, i) => {
    if (ab.when !== when) return;
    const t = newTrigger(g.controller(cid), cid, i, d.name, s, triggerRank(d, ab), "trigger", "", ctx);
    g.triggers.push({ ...t, targets: [...(o.targets ?? [])], chosen: o.chosen ?? false, mode: o.mode ?? 0,
      tseq: [...(o.tseq ?? [])] });
  });
}

/** Player p's cards in play with an ability for `when` (but `but`), in the order they entered play. */
export function answering(g: Match, p: number, when: string, but = 0): number[] {
  const ps = g.player(p);
  const found = [...ps.board, ...ps.relics, ps.champion, ps.seat]
    .filter((c) => c && c !== but && g.card(c).abilities.some((a) => a.when === when));
  if (found.length < 2) return found;
  return found.map((c) => [g.perm(c).seq, c] as [number, number]).sort((a, b) => tupleCompare(a, b)).map((x) => x[1]);
}

/** Player p's cards in play that watch for `when` (by entry order), but `ctx` itself. */
export function fireWatchers(g: Match, when: string, p: number, ctx: number): void {
  for (const cid of answering(g, p, when, ctx)) fire(g, when, cid, ctx);
}

export function gameTrigger(g: Match, p: number, name: string): void {
  g.triggers.push(newTrigger(p, 0, -1, name, 0, 0, "game", name));
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

/** triggers.py trigger_rule: the rule a trigger is shown with: its keyword's (Growth, Pulse, Regeneration,
 * Bloom), else C1K 8. */
export function triggerRule(g: Match, t: Trigger): string {
  if (t.keyword) return `KW ${t.keyword.charAt(0).toUpperCase()}${t.keyword.slice(1).toLowerCase()}`;
  if (t.kind === "trigger" && t.ability >= 0 && g.card(t.source).abilities[t.ability]?.when === "on_bloom") return "KW Bloom";
  return "C1K 8";
}
