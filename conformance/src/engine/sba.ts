// State-based actions (a port of engine/sba.py): Evolve, lethal damage, Champions at 0 life, repeated
// until nothing changes; evolutions that come back to boards seen before are an Endless Loop (a draw).
// In combat damage it also records who lost a fight (Combat Victory / Loss, rules.md §5).

import type { Match } from "./match";
import { NotPorted } from "./errors";
import { evolveCheck } from "./keywords";
import { destroy } from "./pipeline";
import { COMBAT_DAMAGE } from "./state";
import { fire } from "./hooks";

/** core.py SBA_LOOP_CAP */
const SBA_LOOP_CAP = 200;

/** sba.py sba (its quick check, sba_quiet, is only a shortcut: the full check finds the same nothing).
 * `fights` maps each combatant of a blocked pair to the unit it fought; one destroyed here lost that
 * combat and is added to `losers`. */
export function sba(g: Match, fights: Map<number, number> | null = null, losers: number[] | null = null): void {
  let seen: Map<string, number> | null = null;
  for (let n = 0; n < SBA_LOOP_CAP; n++) {
    if (g.outcome !== null) return;
    const evolved = evolveCheck(g);
    const dead = [g.active, 1 - g.active].flatMap((p) => g.player(p).board.filter((c) => c && lethal(g, c)));
    const lost = [0, 1].filter((p) => g.player(p).life <= 0);
    if (lost.length) {
      g.outcome = lost.length === 2 ? ["both_defeated", "draw"] : ["champion_defeated", lost[0] === 0 ? "p2" : "p1"];
      g.log(`  ${lost.map((p) => g.name(p)).join(", ")} at 0 life: ${g.outcome[1]} (${g.outcome[0]})`, { kind: "sba",
        actor: lost.length === 1 ? (lost[0] as number) : -1, detail: g.outcome[0], rule: "RULES 1" });
      return;
    }
    if (!dead.length) {
      if (!evolved) return;
      const key = boards(g);
      if (seen === null) {
        seen = new Map();
      } else if (seen.has(key)) {
        g.outcome = ["endless_loop", "draw"];   // sba.py endless_evolve
        g.log(`  Evolve goes round: the boards of ${n - (seen.get(key) as number)} evolution(s) ago are back with nobody acting — an `
          + "endless loop nobody can stop, the match is a draw (Endless Loop)", { kind: "sba", detail: "endless_loop",
          rule: "RULES 1" });
        return;
      }
      seen.set(key, n);
      continue;
    }
    seen = null;
    // destroyed simultaneously: "on kill" only for a killer that stays in play (AS Combat steps 6)
    const killers = new Map(dead.map((c) => [c, g.perm(c).killer]));
    const seqs = new Map(dead.map((c) => [c, g.perm(c).seq]));
    const destroyed = dead.filter((c) => destroy(g, c, "state-based action"));
    for (const c of destroyed) {
      const killer = killers.get(c) as number;
      if (g.win === COMBAT_DAMAGE && killer && !dead.includes(killer) && g.isUnitInPlay(killer)) fire(g, "on_kill", killer, c);
      if (fights !== null && losers !== null && fights.has(c)) {
        fire(g, "on_combat_loss", c, fights.get(c) as number, seqs.get(c) as number);
        losers.push(c);
      }
    }
  }
  throw new NotPorted(`state-based actions ran ${SBA_LOOP_CAP} times without settling: a RulesLoopError (engine/sba.py)`);
}

/** sba.py settle: the full check before a player receives priority (its `_sba_settled` flag is a shortcut). */
export const settle = (g: Match): void => sba(g);

/** The cards on both boards, slot by slot (what an evolve-only pass changes). */
function boards(g: Match): string {
  return JSON.stringify([0, 1].flatMap((p) => g.player(p).board.map((c) => (c ? g.card(c).id : ""))));
}

/** sba.py lethal: damage ≥ health (health may also have dropped to 0 or less). */
export function lethal(g: Match, c: number): boolean {
  const perm = g.perm(c);
  if (perm.damage === 0 && perm.health_mod >= 0 && perm.temp_health >= 0 && !Object.keys(perm.counters).length) {
    return g.card(c).health <= 0;
  }
  return perm.damage >= g.maxHealth(c);
}
