// Effects, a port of engine/effects.py: `runEffects` carries out a card's effects in order, each verb of
// the card format (docs/cards.md) one function in VERB_FUNCTIONS. A verb gets the match, the effect, its
// resolved targets (an effect whose target word finds no legal target does nothing) and the Run it
// belongs to. Paradox's verbs (flux, reroll, thread) are paradox.ts's; an "instruction"
// permission is offered once the other effects are done (decisions.ts offerPermit).

import { Effect, keyword as checkKeyword } from "./cards";
import type { Match } from "./match";
import type { StackItem } from "./state";
import { Continuation, OPEN_PRIORITY, offerPermit } from "./decisions";
import { damage, destroy, heal } from "./pipeline";
import * as paradox from "./paradox";
import { counterItem, discardRandom, draw, enterPlay, finishItem, leavePlay } from "./zones";
import { ONE_TARGETS, resolveTargets } from "./targets";
import { fire } from "./triggers";
import { signed } from "./cardwords";

/** One runEffects call: whose effects, from which source, and what the verbs may use or set. */
export class Run {
  i = 0;
  paused = false;
  permit: Effect | null = null;
  /** what `target = "same"` means: the target the first one-target effect found (null: none has run yet) */
  same: number[] | null = null;
  constructor(readonly controller: number, readonly source: number, readonly chosen: number[],
    readonly item: StackItem | null, readonly event: number[], readonly mode: number, readonly top: boolean,
    readonly then: Continuation, readonly todo: Effect[]) {}
}

export type VerbFunction = (g: Match, e: Effect, targets: number[], r: Run) => void;

/** Carry out effects in order. `top`: this is a stack item's resolution (it may pause for a Flux
 * Interrupt, and the item is finished at the end). `same`: what `target = "same"` refers to, when the
 * effects are the rest of a resolution that paused. False if a decision is pending afterwards. */
export function runEffects(g: Match, effects: Effect[], controller: number, source: number, chosen: number[],
  item: StackItem | null, event: number[] = [], mode = 0, top = false, then: Continuation = OPEN_PRIORITY,
  same: number[] | null = null): boolean {
  const todo = [...effects];
  const r = new Run(controller, source, chosen, item, event, mode, top, then, todo);
  r.same = same;
  let i = 0;
  while (i < todo.length) {
    const e = todo[i] as Effect;
    i += 1;
    let targets: number[];
    if (e.target === null) {
      targets = [];
    } else if (e.target === "same") {
      // rules.md CARD TEXT: "it" is the first one-target effect's target, while it is still there
      targets = (r.same ?? []).filter((c) => g.inPlay(c) || g.isChampion(c));
      if (!targets.length) continue;
    } else {
      targets = resolveTargets(g, e, controller, source, chosen, item, event);
      if (r.same === null && ONE_TARGETS.has(e.target)) r.same = [...targets];
      if (!targets.length) continue;
    }
    const fn = VERB_FUNCTIONS[e.do];
    if (fn === undefined) continue;
    r.i = i;
    fn(g, e, targets, r);
    if (r.paused) return false;
  }
  if (top) finishItem(g, item);
  if (r.permit !== null) return offerPermit(g, r.permit, controller, source);
  return true;
}

/** The players a player verb concerns: you, your opponent, or each (you first). */
function players(e: Effect, r: Run): number[] {
  const c = r.controller;
  return e.player === "you" ? [c] : e.player === "opponent" ? [1 - c] : [c, 1 - c];
}

/** effect verb -> its function (flux, reroll and thread are paradox.ts's) */
export const VERB_FUNCTIONS: Record<string, VerbFunction> = {
  damage(g, e, targets, r) {
    for (const t of targets) if (g.inPlay(t) || g.isChampion(t)) damage(g, r.source, t, e.amount);
  },
  heal(g, e, targets, r) {
    for (const t of targets) heal(g, r.source, t, e.amount);
  },
  draw(g, e, _targets, r) {
    for (const p of players(e, r)) draw(g, p, e.amount);
  },
  discard(g, e, _targets, r) {
    for (const p of players(e, r)) discardRandom(g, p, e.amount);
  },
  gain_influence(g, e, _targets, r) {
    for (const p of players(e, r)) {
      g.player(p).influence += e.amount;
      g.log(`  ${g.name(p)} gains ${e.amount} Influence`, { kind: "influence", actor: p, cards: [r.source],
        amount: g.player(p).influence });
    }
  },
  buff(g, e, targets, r) {
    for (const t of targets) {
      const perm = g.perms.get(t);
      if (perm === undefined || g.isChampion(t)) continue;
      if ((e.until ?? "permanent") === "end_of_turn") {
        perm.temp_power += e.power;
        perm.temp_health += e.health;
      } else {
        perm.power_mod += e.power;
        perm.health_mod += e.health;
      }
      g.log(`  ${g.label(t)} gets ${signed(e.power)}/${signed(e.health)}`, { actor: r.controller, cards: [r.source, t] });
    }
  },
  grant(g, e, targets, r) {
    const temporary = (e.until ?? "end_of_turn") === "end_of_turn";
    for (const t of targets) {
      const perm = g.perms.get(t);
      if (perm === undefined) continue;
      if (e.status) g.addStatus(t, e.status, temporary);
      if (e.keyword) {
        const [name, n0] = checkKeyword(e.keyword, "a granted keyword");
        let n = n0;
        if (name === "ward") {
          // Ward N adds N points to the pool; granted until end of turn, the points still unspent at
          // cleanup go (temporary points are spent first)
          perm.ward += n;
          if (temporary) n += perm.temp_granted.ward ?? 0;
        }
        (temporary ? perm.temp_granted : perm.granted)[name] = n;
      }
      g.log(`  ${g.label(t)} gains ${e.status || e.keyword || "None"}`, { actor: r.controller, cards: [r.source, t] });
    }
  },
  suppress(g, _e, targets, r) {
    for (const t of targets) {
      if (!g.perms.has(t)) continue;
      g.addStatus(t, "suppressed", false);
      g.log(`  ${g.label(t)} is Suppressed: its abilities don't function and it can't attack`, { actor: r.controller,
        cards: [r.source, t], rule: "KW Suppress" });
    }
  },
  destroy(g, _e, targets, r) {
    for (const t of targets) if (g.isUnitInPlay(t) || g.zone(t) === "relics") destroy(g, t, `by ${g.card(r.source).name}`);
  },
  return_to_hand(g, _e, targets, r) {
    for (const t of targets) {
      if (!(g.isUnitInPlay(t) || g.zone(t) === "relics")) continue;
      leavePlay(g, t);
      if (g.card(t).token) {
        g.setZone(t, "gone");
        g.log(`  ${g.label(t)} returns to its owner's hand`, { kind: "move", actor: r.controller, cards: [r.source, t],
          detail: "hand" });
        continue;
      }
      // a card entering a hand gets a fresh number (rules.md §7a): its owner learns it, the other player
      // only that it went back
      const owner = g.owner(t);
      const n = g.renumber(t, "hand");
      g.player(owner).hand.push(n);
      g.log(`  ${g.label(t)} returns to its owner's hand (now #${n})`, { kind: "move", actor: r.controller,
        cards: [r.source, t, n], detail: "hand", privateTo: owner, publicText: `  ${g.label(t)} returns to its owner's hand` });
    }
  },
  summon(g, e, _targets, r) {
    const d = g.cardOf(e.card ?? "");
    for (let k = 0; k < e.amount; k++) {
      const cid = g.newCard(d, r.controller, "gone");
      if (enterPlay(g, cid, r.controller, null, true)) fire(g, "on_summon", cid);
    }
  },
  counter(g, _e, targets) {
    for (const uid of targets) counterItem(g, uid);
  },
  flux: (g, e, targets, r) => paradox.flux(g, e, targets, r),
  reroll: (g, e, targets, r) => paradox.reroll(g, e, targets, r),
  thread: (g, e, targets, r) => paradox.thread(g, e, targets, r),
  permit(g, e, _targets, r) {
    // OPP Permissions: a duration permission is kept by the player; an "instruction" one is offered once
    // the other effects are done
    const { controller, source } = r;
    const perm = g.perms.get(source);
    if (e.duration === "while_in_play") {
      if (perm !== undefined && ["board", "relics"].includes(g.zone(source))) {
        g.player(controller).permits.push([e.zone ?? "hand", e.card_type, -perm.seq]);
        g.log(`  ${g.name(controller)} may play ${e.card_type} cards from their ${e.zone ?? "None"} as long as `
          + `${g.label(source)} stays in play`, { rule: "OPP Permissions" });
      }
    } else if (e.duration === "end_of_turn") {
      g.player(controller).permits.push([e.zone ?? "hand", e.card_type, g.turn]);
      g.log(`  ${g.name(controller)} may play ${e.card_type} cards from their ${e.zone ?? "None"} this turn`, { actor: controller,
        cards: [source], rule: "OPP Permissions" });
    } else {
      r.permit = e;
    }
  },
};
