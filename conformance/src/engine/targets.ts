// Targets (C1K 6), a port of engine/targets.py: who may be chosen for a target slot now
// (`targetCandidates`; Veiled), which slots a card or effect asks its player to name (`effectSlots`), what
// an effect's target word means when it resolves (`resolveTargets`: a chosen target no longer legal is
// skipped; random targets come from the match's generator).

import type { CardDef, Effect } from "./cards";
import type { Match } from "./match";
import { targetable } from "./keywords";
import type { StackItem } from "./state";

/** cards.py CHOICE_TARGETS: the target words a player names. */
export const CHOICE_TARGETS = new Set(["unit", "friendly_unit", "enemy_unit", "champion"]);
/** cards.py ONE_TARGETS: the target words that find one target (what `target = "same"` refers to). */
export const ONE_TARGETS = new Set([...CHOICE_TARGETS, "random_enemy_unit", "random_friendly_unit", "random_unit"]);

export function targetCandidates(g: Match, target: string, controller: number, source: number): number[] {
  void source;
  const opp = 1 - controller;
  let ids: number[];
  if (target === "unit") ids = [...g.units(g.active), ...g.units(1 - g.active)];
  else if (target === "friendly_unit") ids = g.units(controller);
  else if (target === "enemy_unit") ids = g.units(opp);
  else if (target === "champion") return [g.player(g.active).champion, g.player(1 - g.active).champion];
  else return [];
  return ids.filter((c) => targetable(g, c, controller));   // (Veiled: opponents can't target it)
}

/** cards.py effect_slots: the chosen targets these effects need, in order (a Thread: its `mode` branch). */
export function effectSlots(effects: Effect[], mode: number | null = null): string[] {
  const out: string[] = [];
  for (const e of effects) {
    if (e.do === "thread" && e.branches !== null) {
      const m = (mode || 1) - 1;
      const b = e.branches[m];
      if (b !== undefined) out.push(...effectSlots(b));
    } else if (e.target !== null && CHOICE_TARGETS.has(e.target)) {
      out.push(e.target);
    }
  }
  return out;
}

/** cards.py def_choice_slots: the targets a command playing this card names (an Action's effect; a Unit's
 * or Relic's on-play abilities). */
export function playSlots(d: CardDef, mode: number | null): string[] {
  if (d.type === "action") return effectSlots(d.effect, mode);
  return d.abilities.filter((a) => a.when === "on_play").flatMap((a) => effectSlots(a.effect, mode));
}

export function resolveTargets(g: Match, e: Effect, controller: number, source: number, chosen: number[],
  item: StackItem | null, event: number[] = []): number[] {
  const t = e.target;
  const opp = 1 - controller;
  if (t === null) return [];
  if (CHOICE_TARGETS.has(t)) {
    const c = chosen.shift();
    if (c === undefined) return [];
    let legal = targetCandidates(g, t, controller, source).includes(c);
    if (legal && item !== null && item.targets.includes(c) && item.tseq.length) {
      const then = item.tseq[item.targets.indexOf(c)] as number;
      const perm = g.perms.get(c);
      legal = !then || (perm !== undefined && perm.seq === then);
    }
    if (!legal) {
      g.log(`  target ${g.exists(c) ? g.label(c) : c} is no longer legal`, { actor: controller, cards: [source, c], rule: "C1K 6" });
      return [];
    }
    return [c];
  }
  if (t === "self") {
    if (source && ["unit", "relic"].includes(g.card(source).type)) return g.inPlay(source) ? [source] : [];
    return [g.player(controller).champion];
  }
  if (t === "enemy_champion") return [g.player(opp).champion];
  if (t === "friendly_champion") return [g.player(controller).champion];
  if (t === "all_enemy_units") return g.units(opp);
  if (t === "all_friendly_units") return g.units(controller);
  if (t === "all_units") return [...g.units(g.active), ...g.units(1 - g.active)];
  if (t === "event") return [...event];
  if (t.startsWith("random_")) {
    // a random target (rules.md §7): drawn from the match's generator among the legal ones now
    const pool = targetCandidates(g, t.slice("random_".length), controller, source);
    if (!pool.length) return [];
    const c = pool[Number(g.rng.below(BigInt(pool.length)))] as number;
    g.log(`  random target: ${g.label(c)} (of ${pool.length})`);
    return [c];
  }
  return [];
}
