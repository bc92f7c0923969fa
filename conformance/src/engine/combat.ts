// Combat (a port of engine/combat.py; its attack and block checks are legality.ts's, as combat.py's are legality.py's):
// the declaration windows' steps, combat damage as one turn-based sequence (Strike step, regular step with
// Overwhelm's Excess, champion-hit triggers, Lifedrain, Conquer), end-of-attack / end-of-combat triggers.

import type { Match } from "./match";
import { STEP_END_PHASE, STEP_GO_ON, STEP_WAIT } from "./steps";
import { damage, heal } from "./pipeline";
import { sba } from "./sba";
import { fire } from "./hooks";
import { runEffects } from "./effects";
import { canAttack, canBlock } from "./legality";

// ---------------------------------------------------------------- the steps

export function stepDeclareAttackers(g: Match): number {
  g.attackers = [];
  g.blocks = [];
  g.ask("attackers", g.active, 0, 0, false, g.player(g.active).board.filter((u) => u && canAttack(g, u)));
  return STEP_WAIT;
}

export function stepDeclareBlockers(g: Match): number {
  dropIllegalAttackers(g);
  if (!g.attackers.length) {
    g.log("  no attacker remains: combat ends", { actor: g.active });
    return STEP_END_PHASE;
  }
  const dp = 1 - g.active;
  const eligible = g.player(dp).board.filter((u) => u && !g.perm(u).exhausted && g.attackers.some((a) => canBlock(g, u, a) === null));
  g.ask("blockers", dp, 0, 0, false, eligible);
  return STEP_WAIT;
}

export function stepCombatDamage(g: Match): number {
  dropIllegalAttackers(g);
  combatDamage(g);
  return STEP_GO_ON;
}

export function stepCombatTriggers(g: Match): number {
  for (const a of g.attackers) if (g.isUnitInPlay(a)) fire(g, "end_of_attack", a);
  for (const u of combatants(g)) fire(g, "end_of_combat", u);
  return STEP_GO_ON;
}

/** C1K 4.1 step 4: a Suppressed or Rooted attacker leaves combat. */
export function dropIllegalAttackers(g: Match): void {
  for (const a of [...g.attackers]) {
    const perm = g.perms.get(a);
    if (perm !== undefined && (perm.hasStatus("suppressed") || perm.hasStatus("rooted"))) {
      g.log(`  ${g.label(a)} can't attack now (${perm.hasStatus("suppressed") ? "Suppressed" : "Rooted"}): it leaves combat`,
        { actor: g.owner(a), cards: [a], rule: "C1K 4.1" });
      g.attackers = g.attackers.filter((x) => x !== a);
      g.blocks = g.blocks.filter(([b, x]) => b || x !== a).map(([b, x]) => [b, x === a ? 0 : x]);
    }
  }
}

export function combatants(g: Match): number[] {
  const out = g.attackers.filter((u) => g.zone(u) === "board");
  for (const [b] of g.blocks) if (g.zone(b) === "board") out.push(b);
  return out;
}

/** combat.py combat_damage. */
export function combatDamage(g: Match): void {
  const ap = g.active;
  const dp = 1 - ap;
  const onBoard = (c: number): boolean => g.zone(c) === "board";
  const blocked = new Set(g.blocks.map((x) => x[1]));
  const blockerOf = new Map<number, number>();
  for (const [b, a] of g.blocks) if (b) blockerOf.set(a, b);
  const champion = g.player(dp).champion;
  g.lifedrain_due = [0, 0];
  const hit: number[] = [];
  const conquerors: number[] = [];
  const pairs = g.blocks.filter(([b, a]) => b && a && onBoard(b) && onBoard(a));
  const fights = new Map<number, number>();
  for (const [b, a] of pairs) {
    fights.set(a, b);
    fights.set(b, a);
  }
  const lost: number[] = [];
  for (const strikers of [true, false]) {   // step 1: Strike; step 2: all other combatants, simultaneously
    const assignments: [number, number, number][] = [];
    for (const a of g.attackers) {
      if (!onBoard(a)) continue;
      const b = blockerOf.get(a) ?? 0;
      const bHere = b !== 0 && onBoard(b);
      if ((g.keyword(a, "strike") !== null) === strikers) {
        const power = Math.max(0, g.power(a));
        const overwhelm = g.keyword(a, "overwhelm") !== null;
        if (bHere) {
          assignments.push([a, b, power]);
          if (overwhelm) assignments.push([a, champion, Math.max(0, power - g.health(b))]);
        } else if (blocked.has(a)) {
          if (overwhelm) assignments.push([a, champion, power]);
        } else {
          assignments.push([a, champion, power]);
        }
      }
      if (bHere && (g.keyword(b, "strike") !== null) === strikers) assignments.push([b, a, Math.max(0, g.power(b))]);
    }
    if (!assignments.length) continue;
    g.log(`  combat ${strikers ? "Strike" : "damage"} step`, { kind: "note", actor: ap, rule: "C1K 4.3" });
    for (const [src, dst, amount] of assignments) {
      const dealt = damage(g, src, dst, amount, true);
      if (dealt > 0 && dst === champion) {
        if (!blocked.has(src) && !hit.includes(src)) hit.push(src);
        if (!conquerors.includes(src)) conquerors.push(src);
      }
    }
    if (strikers) {
      sba(g, fights, lost);   // a unit destroyed by Strike deals no damage
      if (g.outcome !== null) return;
    }
  }
  for (const a of hit) if (onBoard(a)) fire(g, "on_champion_hit", a);
  for (const p of [ap, dp]) {   // step 5: Lifedrain …
    const due = g.lifedrain_due[p] as number;
    if (due) {
      g.log(`  Lifedrain: ${g.name(p)}'s Champion heals ${due}`, { kind: "note", actor: p, cards: [g.player(p).champion],
        amount: due, rule: "KW Lifedrain" });
      heal(g, 0, g.player(p).champion, due);
      g.lifedrain_due[p] = 0;
    }
  }
  for (const a of conquerors) {   // … and Conquer, at once, without the stack
    const perm = g.perms.get(a);
    if (g.keyword(a, "conquer") === null || (perm !== undefined && perm.hasStatus("suppressed"))) continue;
    for (const ab of g.card(a).abilities) {
      if (ab.when === "on_conquer") {
        g.log(`  Conquer: ${g.label(a)} damaged the Champion`, { actor: ap, cards: [a], rule: "KW Conquer" });
        runEffects(g, ab.effect, g.owner(a), a, [], null);
      }
    }
  }
  sba(g, fights, lost);
  if (lost.length) {
    for (const [b, a] of pairs) {
      for (const [me, foe] of [[a, b], [b, a]] as [number, number][]) {
        if (lost.includes(foe) && !lost.includes(me) && onBoard(me)) fire(g, "on_combat_victory", me, foe);
      }
    }
  }
}
