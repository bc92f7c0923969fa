// Passing (a port of engine/priority.py, C1K 6): a player-added item resolves when the other player passes,
// a game-added one when both do, and an empty stack with both passes ends the window. The Endless Loop
// watch (rules.md §1): a state that repeats with only passes in between ends the match in a draw.

import type { Match } from "./match";
import { stateHash } from "./match";
import { NotPorted } from "./errors";
import { resolveTop } from "./hooks";
import { goto, nextWindow, openPriority } from "./turn";

/** core.py LOOP_WATCH, LOOP_CAP */
export const LOOP_WATCH = 16, LOOP_CAP = 2000;

export function doPass(g: Match, p: number): void {
  g.passed |= 1 << p;
  const top = g.stack[g.stack.length - 1];
  if (top !== undefined) {
    if ((top.adder >= 0 && p !== top.adder) || (top.adder < 0 && g.passed === 3)) {
      g.priority = -1;
      const win = g.win;
      if (resolveTop(g)) goto(g, openPriority(g));
      else if (g.outcome !== null) g.setOver();
      if (g.win === win && g.outcome === null) watchLoop(g);
      return;
    }
    g.givePriority(1 - p, g.passed);
    return;
  }
  if (g.passed === 3) goto(g, nextWindow(g, g.win));
  else g.givePriority(1 - p, g.passed);
}

/** priority.py watch_loop: after a resolution that only passes led to. Past LOOP_WATCH such resolutions
 * in one window, a state seen before (same loop key) ends the match in a draw. */
export function watchLoop(g: Match): void {
  g.quietCount += 1;
  if (g.quietCount < LOOP_WATCH) return;
  if (g.quietCount > LOOP_CAP) throw new NotPorted(`${LOOP_CAP} resolutions with only passes between them: a RulesLoopError (engine/priority.py)`);
  const key = loopKey(g);
  if (g.loopSeen.has(key)) {
    g.outcome = ["endless_loop", "draw"];
    g.log(`  the state of ${g.quietCount - (g.loopSeen.get(key) as number)} resolution(s) ago repeats with only passes `
      + "in between: an endless loop nobody can stop — the match is a draw (Endless Loop)", { kind: "sba",
      detail: "endless_loop", rule: "RULES 1" });
    g.setOver();
    return;
  }
  g.loopSeen.set(key, g.quietCount);
}

/** priority.py loop_key: the state hash with the sequence numbers (perm seqs, stack item uids, trigger
 * seqs and every tseq) replaced by their rank among them (numeric order), and `seq` by their count + 1. */
export function loopKey(g: Match): string {
  const snap = g.snapshot();
  const vals = new Set<number>();
  const perms = snap.perms as Record<string, Record<string, unknown>>;
  for (const perm of Object.values(perms)) vals.add(perm.seq as number);
  // the stack items, the cards in the Void as they were cast, and the item of a paused resolution
  const resolving = snap.resolving as { item: unknown[] | null } | null;
  const items = [...(snap.stack as unknown[][]), ...Object.values(snap.void_items as Record<string, unknown[]>),
    ...(resolving !== null && resolving.item !== null ? [resolving.item] : [])];
  const intr = snap.interrupt as unknown[] | null;
  if (intr !== null) vals.add(intr[2] as number);   // the played Action's uid (0: attackers declared)
  const triggers = [...(snap.triggers as unknown[][]), ...(snap.trigger_queue as unknown[][]), ...(snap.threads as unknown[][])];
  const choice = snap.choice as { trigger: unknown[] | null } | null;
  if (choice !== null && choice.trigger !== null) triggers.push(choice.trigger);
  for (const it of items) {
    vals.add(it[0] as number);
    for (const v of it[11] as number[]) vals.add(v);
  }
  for (const t of triggers) {
    vals.add(t[3] as number);
    for (const v of t[12] as number[]) vals.add(v);
  }
  vals.delete(0);
  const sorted = [...vals].sort((a, b) => a - b);
  const rank = new Map(sorted.map((v, i) => [v, i + 1]));
  const rn = (v: number): number => rank.get(v) ?? v;
  for (const perm of Object.values(perms)) perm.seq = rn(perm.seq as number);
  for (const it of items) {
    it[0] = rn(it[0] as number);
    it[11] = (it[11] as number[]).map(rn);
  }
  for (const t of triggers) {
    t[3] = rn(t[3] as number);
    t[12] = (t[12] as number[]).map(rn);
  }
  if (intr !== null) intr[2] = rn(intr[2] as number);
  snap.seq = rank.size + 1;
  return stateHash(snap);
}
