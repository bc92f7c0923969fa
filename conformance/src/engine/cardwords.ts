// Card text: effects in words (a port of engine/cards.py's "card text: effects in words" section), as the
// match log says them: a Thread mode chosen on play, a Voidcast payment, a Flux outcome or Thread branch.

import type { CardDef, Effect } from "./cards";

const WHO: Readonly<Record<string, string>> = {
  self: "itself", unit: "a unit", friendly_unit: "a friendly unit", enemy_unit: "an enemy unit",
  champion: "a Champion", enemy_champion: "the enemy Champion", friendly_champion: "your Champion",
  all_enemy_units: "each enemy unit", all_friendly_units: "each friendly unit", all_units: "each unit",
  event: "that", same: "it",
  random_enemy_unit: "a random enemy unit", random_friendly_unit: "a random friendly unit",
  random_unit: "a random unit",
};
const PLAYER: Readonly<Record<string, string>> = { you: "you", opponent: "the opponent", each: "each player" };
/** effects that a player does: (verb, what follows the amount) */
const PLAYER_VERBS: Readonly<Record<string, [string, string]>> = { draw: ["draw", ""], discard: ["discard", " at random"],
  gain_influence: ["gain", " Influence"] };

/** Python's f"{n:+d}": the sign always ("+0", "-1"). */
export const signed = (n: number): string => (n < 0 ? `${n}` : `+${n}`);

/** cards.py self_words: what `target = "self"` is on a card of this type. */
export function selfWords(cardType: string): string {
  return cardType === "unit" || cardType === "relic" ? "itself" : "your Champion";
}

/** cards.py describe_effect: one effect in a learner's words. */
export function describeEffect(e: Effect, selfWord = "itself"): string {
  const who = e.target === "self" ? selfWord : (WHO[e.target ?? ""] ?? "");
  const v = e.do;
  if (v === "damage") return `deal ${e.amount} damage to ${who}`;
  if (v === "heal") return `heal ${e.amount} to ${who}`;
  const pv = PLAYER_VERBS[v];
  if (pv !== undefined) {
    const [verb] = pv;
    const tail = v === "draw" ? (e.amount === 1 ? " card" : " cards") : pv[1];
    if (e.player === "you") return `${verb} ${e.amount}${tail}`;
    return `${PLAYER[e.player] as string} ${verb}s ${e.amount}${tail}`;
  }
  if (v === "buff") {
    const until = (e.until || "permanent") === "end_of_turn" ? " until end of turn" : "";
    return `${who} gets ${signed(e.power)}/${signed(e.health)}${until}`;
  }
  if (v === "grant") return `${who} gains ${e.status || e.keyword || "None"}`;
  if (v === "summon") return `summon ${e.amount} ${e.card ?? "None"}`;
  if (v === "flux") return "Flux: one outcome at random";
  if (v === "thread") return "Thread: a chosen branch";
  if (v === "permit") return `you may play ${e.card_type} from your ${e.zone ?? "None"}`;
  if (v === "reroll") return "draw the Flux outcome again";
  return `${v.replaceAll("_", " ")} ${who}`.trim();
}

/** cards.py describe_effects */
export function describeEffects(effects: readonly Effect[], selfWord = "itself"): string {
  return effects.map((e) => describeEffect(e, selfWord)).join("; ") || "nothing";
}

/** cards.py mode_words: a chosen Thread mode in words, from the card's definition. */
export function modeWords(d: CardDef, mode: number): string {
  for (const effects of [d.effect, ...d.abilities.map((ab) => ab.effect)]) {
    for (const e of effects) {
      if (e.do === "thread" && e.branches && mode >= 1 && mode <= e.branches.length) {
        return `mode ${mode}: ${describeEffects(e.branches[mode - 1] as Effect[], selfWords(d.type))}`;
      }
    }
  }
  return `mode ${mode}`;
}

/** cards.py voidcast_words: a Voidcast payment in words (KW Voidcast). */
export function voidcastWords(d: CardDef): string {
  return `Voidcast: paid ${d.voidcast ?? "None"} instead of ${d.cost}, it goes to the Void and resolves at the start `
    + "of the next End Phase";
}
