// The checks engine/cards.py applies to a [[card]] table before the engine uses it: the pydantic models
// (Effect, Activation, Ability, EvolveSpec, CardModel: their fields, bounds and validators), name_refusal,
// same_refusal, check_keyword, text_problems (the card text is the contract) and check_references. A port
// of those functions, same names in camelCase. Used for the inline [[card]] tables of a scenario: a table
// Python refuses is refused, one it accepts is accepted. The whole-number and true/false fields are strict in
// both (a bool, text or float where a whole number goes, a non-bool where true/false goes: refused, §8 k). Where
// the text is not ASCII letters and digits (Python's str.lower and \b, \d are Unicode's), the port refuses to
// judge: NotPorted.

import { KEYWORDS, NUMBERED_KEYWORDS } from "./cards";
import type { CardDB, CardDef, Effect } from "./cards";
import { NotPorted } from "./errors";
import { suggest } from "./difflib";

type Table = Record<string, unknown>;
const isTable = (x: unknown): x is Table => x !== null && typeof x === "object" && !Array.isArray(x)
  && Object.getPrototypeOf(x) === Object.prototype;

const VERBS = ["damage", "heal", "draw", "discard", "buff", "grant", "destroy", "counter", "summon",
  "gain_influence", "return_to_hand", "suppress", "flux", "thread", "permit", "reroll"];
export const TARGETS = ["self", "unit", "friendly_unit", "enemy_unit", "champion", "enemy_champion", "friendly_champion",
  "all_enemy_units", "all_friendly_units", "all_units", "event", "random_enemy_unit", "random_friendly_unit",
  "random_unit", "same"];
const TRIGGERS = ["on_play", "on_summon", "on_attack", "on_block", "start_of_combat", "end_of_attack", "on_kill",
  "on_death", "on_champion_hit", "end_of_combat", "start_of_draw", "start_of_influence", "start_of_end",
  "on_heal", "on_unit_played", "on_action_played", "on_damaged", "on_conquer", "on_bloom",
  "start_of_main", "on_combat_victory", "on_combat_loss"];
const INTERRUPT_EVENTS = ["opponent_plays_action", "attacker_declared", "opponent_declares_attackers", "flux_outcome",
  "thread_resolves"];
const CHOICE_TARGETS = ["champion", "enemy_unit", "friendly_unit", "unit"];
const ONE_TARGETS = [...CHOICE_TARGETS, "random_enemy_unit", "random_friendly_unit", "random_unit"];
const SEAT_MODIFIER_BOUNDS: Record<string, [number, number]> = {
  draw_count: [0, 5], hand_size: [1, 20], max_influence: [1, 20], influence_gain: [0, 5], starting_life_bonus: [-19, 50],
  opening_hand: [0, 10], starting_influence: [0, 20], unit_slots: [1, 12], relic_slots: [0, 6], extra_combat_phases: [0, 2],
  skip_draw_post: [0, 1], skip_influence_response: [0, 1], skip_combat_exit: [0, 1],
};
const MAX_COST = 20;
const MAX_AMOUNT = 50;
const MAX_STAT = 50;
const MAX_LIFE = 100;
const MAX_KEYWORD_NUMBER = 20;
const MAX_LIST = 20;
const MAX_TEXT = 2000;
/** cards.py MAX_DEPTH is 32; the port judges only tables nested far less deep (no bundled card nears 16) */
const PORT_MAX_DEPTH = 16;
/** safeio.py CONTROL: C0/C1 controls, DEL, zero-width and bidi controls, the BOM */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
const RESERVED_NAMES = ["none", "p1", "p2", "->"];

/** A field's problem: where (a dotted path) and what. A model's validator runs only when its fields passed. */
class Problems {
  readonly list: string[] = [];
  add(where: string, what: string): void {
    this.list.push(where ? `${where}: ${what}` : what);
  }
}

function depth(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depth));
  if (isTable(v)) return 1 + Math.max(0, ...Object.values(v).map(depth));
  return 0;
}

// -------------------------------------------------------------------- fields (pydantic, lax mode)

function extra(p: Problems, where: string, t: Table, allowed: readonly string[]): void {
  for (const k of Object.keys(t)) if (!allowed.includes(k)) p.add(at(where, k), "extra inputs are not permitted");
}

const at = (where: string, k: string | number): string => (typeof k === "number" ? `${where}[${k}]` : where ? `${where}.${k}` : k);

function intField(p: Problems, where: string, v: unknown, lo: number, hi: number): void {
  // strict, as cards.py's StrictInt fields: a bool, a text of digits or a float (even a whole one) is refused
  // (docs/determinism.md §8 k)
  if (typeof v !== "number" || !Number.isInteger(v)) p.add(where, "expected a whole number");
  else if (v < lo || v > hi) p.add(where, `${v} is out of bounds: from ${lo} to ${hi}`);
}

function boolField(p: Problems, where: string, v: unknown): void {
  // strict, as cards.py's StrictBool fields: 1 and 0 are not true and false (docs/determinism.md §8 k)
  if (typeof v !== "boolean") p.add(where, "expected true or false");
}

function strField(p: Problems, where: string, v: unknown, max = Infinity): v is string {
  if (typeof v !== "string") {
    p.add(where, "expected text");
    return false;
  }
  if ([...v].length > max) {
    p.add(where, `at most ${max} characters`);
    return false;
  }
  return true;
}

function literal(p: Problems, where: string, v: unknown, choices: readonly string[]): void {
  if (typeof v !== "string" || !choices.includes(v)) p.add(where, `expected one of ${choices.join(", ")}`);
}

function list(p: Problems, where: string, v: unknown, max: number): unknown[] | null {
  if (!Array.isArray(v)) {
    p.add(where, "expected a list");
    return null;
  }
  if (v.length > max) {
    p.add(where, `at most ${max} entries`);
    return null;
  }
  return v;
}

function table(p: Problems, where: string, v: unknown): Table | null {
  if (isTable(v)) return v;
  p.add(where, "expected a table");
  return null;
}

// -------------------------------------------------------------------- the models

/** check_keyword: "" or why the keyword is refused. */
export function keywordRefusal(text: string): string {
  const parts = text.trim().toLowerCase().split(/\s+/).filter((x) => x);
  const name = parts[0];
  if (name === undefined) return "empty keyword";
  if (!KEYWORDS.includes(name)) return `unknown keyword '${text}'${suggest(name, KEYWORDS)}`;
  if (NUMBERED_KEYWORDS.has(name)) {
    const n = parts[1];
    if (parts.length !== 2 || n === undefined || !/^[0-9]+$/.test(n)) return `keyword '${name}' takes a number, e.g. '${name} 1'`;
    if (n.length > 3 || +n < 1 || +n > MAX_KEYWORD_NUMBER) return `keyword '${text}': the number is out of bounds: from 1 to ${MAX_KEYWORD_NUMBER}`;
    return "";
  }
  if (name === "evolve") return "";
  return parts.length !== 1 ? `keyword '${name}' takes no number` : "";
}

function effectModel(p: Problems, where: string, v: unknown): void {
  const t = table(p, where, v);
  if (t === null) return;
  const before = p.list.length;
  extra(p, where, t, ["do", "amount", "target", "power", "health", "until", "keyword", "status", "card", "player",
    "outcomes", "branches", "zone", "card_type", "duration", "free"]);
  if (!("do" in t)) p.add(at(where, "do"), "field required");
  else literal(p, at(where, "do"), t.do, VERBS);
  if ("amount" in t) intField(p, at(where, "amount"), t.amount, 0, MAX_AMOUNT);
  if ("target" in t) literal(p, at(where, "target"), t.target, TARGETS);
  for (const k of ["power", "health"]) if (k in t) intField(p, at(where, k), t[k], -MAX_STAT, MAX_STAT);
  if ("until" in t) literal(p, at(where, "until"), t.until, ["end_of_turn", "permanent"]);
  for (const k of ["keyword", "card"]) if (k in t) strField(p, at(where, k), t[k]);
  if ("status" in t) literal(p, at(where, "status"), t.status, ["barrier", "veiled", "suppressed", "rooted"]);
  if ("player" in t) literal(p, at(where, "player"), t.player, ["you", "opponent", "each"]);
  for (const k of ["outcomes", "branches"]) {
    if (!(k in t)) continue;
    const outer = list(p, at(where, k), t[k], MAX_LIST);
    outer?.forEach((inner, i) => list(p, at(at(where, k), i), inner, Infinity)
      ?.forEach((e, j) => effectModel(p, at(at(at(where, k), i), j), e)));
  }
  if ("zone" in t) literal(p, at(where, "zone"), t.zone, ["hand", "graveyard"]);
  if ("card_type" in t) literal(p, at(where, "card_type"), t.card_type, ["unit", "relic", "action", "any"]);
  if ("duration" in t) literal(p, at(where, "duration"), t.duration, ["instruction", "end_of_turn", "while_in_play"]);
  if ("free" in t) boolField(p, at(where, "free"), t.free);
  if (p.list.length > before) return;
  // Effect._check
  const doing = t.do as string;
  const needsTarget = ["damage", "heal", "buff", "grant", "destroy", "return_to_hand", "suppress", "counter"];
  let why = "";
  if (needsTarget.includes(doing) && t.target === undefined) why = `effect '${doing}' needs a 'target' (one of ${TARGETS.join(", ")})`;
  else if (doing === "summon" && !t.card) why = "effect 'summon' needs 'card' (the id of the unit to summon)";
  else if (doing === "grant" && !(t.keyword || t.status)) why = "effect 'grant' needs 'keyword' or 'status'";
  else if (t.keyword !== undefined && keywordRefusal(t.keyword as string)) why = keywordRefusal(t.keyword as string);
  else if (doing === "flux" && !(t.outcomes as unknown[] | undefined)?.length) why = "effect 'flux' needs 'outcomes' (a list of effect lists)";
  else if (doing === "thread" && !(t.branches as unknown[] | undefined)?.length) why = "effect 'thread' needs 'branches' (a list of effect lists)";
  else if (doing === "permit" && t.zone === undefined) why = "effect 'permit' needs 'zone' (hand or graveyard)";
  if (why) p.add(where, why);
}

function effectListModel(p: Problems, where: string, v: unknown): void {
  list(p, where, v, MAX_LIST)?.forEach((e, i) => effectModel(p, at(where, i), e));
}

function activationModel(p: Problems, where: string, v: unknown): void {
  const t = table(p, where, v);
  if (t === null) return;
  const before = p.list.length;
  extra(p, where, t, ["cost", "speed", "once_per_turn", "exhaust", "timing"]);
  if ("cost" in t) intField(p, at(where, "cost"), t.cost, 0, MAX_COST);
  if ("speed" in t) literal(p, at(where, "speed"), t.speed, ["slow", "fast"]);
  for (const k of ["once_per_turn", "exhaust"]) if (k in t) boolField(p, at(where, k), t[k]);
  if ("timing" in t) literal(p, at(where, "timing"), t.timing, ["end_phase"]);
  if (p.list.length > before) return;
  if (t.timing === "end_phase" && (t.speed ?? "fast") !== "fast") {
    p.add(where, "an End Phase ability (timing = \"end_phase\") is Fast: leave out 'speed' or say \"fast\"");
  }
}

function abilityModel(p: Problems, where: string, v: unknown): void {
  const t = table(p, where, v);
  if (t === null) return;
  const before = p.list.length;
  extra(p, where, t, ["when", "activate", "interrupt", "cost", "once_per_turn", "text", "effect"]);
  if ("when" in t) literal(p, at(where, "when"), t.when, TRIGGERS);
  if ("activate" in t) activationModel(p, at(where, "activate"), t.activate);
  if ("interrupt" in t) literal(p, at(where, "interrupt"), t.interrupt, INTERRUPT_EVENTS);
  if ("cost" in t) intField(p, at(where, "cost"), t.cost, 0, MAX_COST);
  if ("once_per_turn" in t) boolField(p, at(where, "once_per_turn"), t.once_per_turn);
  if ("text" in t) strField(p, at(where, "text"), t.text, MAX_TEXT);
  if (!("effect" in t)) p.add(at(where, "effect"), "field required");
  else effectListModel(p, at(where, "effect"), t.effect);
  if (p.list.length > before) return;
  if (["when", "activate", "interrupt"].filter((k) => k in t).length !== 1) {
    p.add(where, "an ability needs exactly one of 'when', 'activate' or 'interrupt'");
  }
}

function evolveModel(p: Problems, where: string, v: unknown): void {
  const t = table(p, where, v);
  if (t === null) return;
  const before = p.list.length;
  extra(p, where, t, ["into", "growth", "power"]);
  if (!("into" in t)) p.add(at(where, "into"), "field required");
  else strField(p, at(where, "into"), t.into);
  for (const k of ["growth", "power"]) if (k in t) intField(p, at(where, k), t[k], 1, MAX_STAT);
  if (p.list.length > before) return;
  if (!("growth" in t) && !("power" in t)) p.add(where, "evolve needs a condition: 'growth' and/or 'power'");
}

/** name_refusal */
export function nameRefusal(name: string): string {
  if (CONTROL.test(name)) return "a card name can't hold a control character";
  if (name !== name.trim()) return "a card name can't begin or end with a space";
  if (name.startsWith("#")) return `a card name can't begin with '#': '${name}' would be read as a card id`;
  if (RESERVED_NAMES.includes(name.toLowerCase())) return `'${name}' can't be a card name: a command reads it as a word`;
  if (name.includes('"') && name.includes("'")) return "a card name can't hold both kinds of quote: no command could quote it";
  return "";
}

function everyEffect(effects: readonly Effect[]): Effect[] {
  return effects.flatMap((e) => [e, ...[...(e.outcomes ?? []), ...(e.branches ?? [])].flatMap(everyEffect)]);
}

const hasVerb = (effects: readonly Effect[], verb: string): boolean => everyEffect(effects).some((e) => e.do === verb);

/** same_refusal */
export function sameRefusal(effects: readonly Effect[], where: string): string {
  const first = effects.findIndex((e) => e.target !== null && ONE_TARGETS.includes(e.target));
  for (const [i, e] of effects.entries()) {
    if (e.target === "same" && (first < 0 || i < first)) {
      return `'${where}[${i}]': target = "same" refers back to the target of an earlier effect of the same list that takes `
        + `one target (${CHOICE_TARGETS.join(", ")} or random_…), and there is none before it`;
    }
    const kind = e.outcomes?.length ? "outcomes" : "branches";
    for (const [j, inner] of [...(e.outcomes ?? []), ...(e.branches ?? [])].entries()) {
      const why = sameRefusal(inner, `${where}[${i}].${kind}[${j}]`);
      if (why) return why;
    }
  }
  return "";
}

/** CardModel's fields and validators over a raw [[card]] table: its problems ([] if pydantic accepts it).
 * `t` holds TOML values as the scenario loader normalizes them (whole numbers as numbers). */
export function cardModelProblems(t: Table): string[] {
  if (depth(t) > PORT_MAX_DEPTH) throw new NotPorted(`a card table nested more than ${PORT_MAX_DEPTH} deep (cards.py MAX_DEPTH)`);
  const p = new Problems();
  extra(p, "", t, ["id", "name", "type", "realm", "cost", "speed", "power", "health", "life", "voidcast", "keywords",
    "text", "effect", "abilities", "modifiers", "token", "evolve"]);
  if (!("id" in t)) p.add("id", "field required");
  else if (strField(p, "id", t.id, 60) && !/^[a-z0-9][a-z0-9-]*$/.test(t.id)) p.add("id", "an id: a-z, 0-9 and '-'");
  if (!("name" in t)) p.add("name", "field required");
  else if (strField(p, "name", t.name, 60)) {
    if (![...t.name].length) p.add("name", "at least 1 character");
    else if (nameRefusal(t.name)) p.add("name", nameRefusal(t.name));
  }
  if (!("type" in t)) p.add("type", "field required");
  else literal(p, "type", t.type, ["unit", "relic", "action", "champion", "seat"]);
  if ("realm" in t) literal(p, "realm", t.realm, ["dominion", "veil", "ruin", "genesis", "paradox", "solace", "null", "neutral"]);
  if ("speed" in t) literal(p, "speed", t.speed, ["slow", "fast"]);
  for (const [k, lo, hi] of [["cost", 0, MAX_COST], ["power", 0, MAX_STAT], ["health", 0, MAX_STAT], ["life", 1, MAX_LIFE],
    ["voidcast", 0, MAX_COST]] as const) {
    if (k in t) intField(p, k, t[k], lo, hi);
  }
  if ("keywords" in t) {
    const kws = list(p, "keywords", t.keywords, KEYWORDS.length);
    if (kws !== null && kws.every((k, i) => strField(p, at("keywords", i), k))) {
      const why = kws.map((k) => keywordRefusal(k as string)).find((w) => w);
      if (why) p.add("keywords", why);
    }
  }
  if ("text" in t) strField(p, "text", t.text, MAX_TEXT);
  if ("effect" in t) effectListModel(p, "effect", t.effect);
  if ("abilities" in t) list(p, "abilities", t.abilities, MAX_LIST)?.forEach((a, i) => abilityModel(p, at("abilities", i), a));
  if ("modifiers" in t) {
    const mods = table(p, "modifiers", t.modifiers);
    if (mods !== null) {
      const before = p.list.length;
      for (const [k, v] of Object.entries(mods)) intField(p, at("modifiers", k), v, -Infinity, Infinity);
      if (p.list.length === before) {
        for (const [k, v] of Object.entries(mods)) {
          const bounds = SEAT_MODIFIER_BOUNDS[k];
          if (bounds === undefined) {
            p.add("modifiers", `unknown seat modifier '${k}'${suggest(k, Object.keys(SEAT_MODIFIER_BOUNDS))}`);
            break;
          }
          if ((v as number) < bounds[0] || (v as number) > bounds[1]) {
            p.add("modifiers", `seat modifier '${k}' = ${String(v)} is out of bounds: from ${bounds[0]} to ${bounds[1]}`);
            break;
          }
        }
      }
    }
  }
  if ("token" in t) boolField(p, "token", t.token);
  if ("evolve" in t) evolveModel(p, "evolve", t.evolve);
  return p.list;
}

/** CardModel._check, over the card as CardDef.from_model makes it (`t`: its table, for what CardDef fills in). */
export function cardCheckProblem(t: Table, card: CardDef): string {
  const abilities = card.abilities;
  if (card.type === "unit" && (t.power === undefined || t.health === undefined)) return "a unit needs 'power' and 'health'";
  for (const [where, text] of [["text", card.text], ...abilities.map((a, i) => [`abilities[${i}].text`, a.text])] as [string, string][]) {
    if (CONTROL.test(text.replaceAll("\n", " "))) return `'${where}' can't hold a control character`;
  }
  if (card.type === "unit" && (t.health as number) < 1) return "a unit's 'health' is at least 1 (it would die as it arrives)";
  if (card.type === "action" && t.speed === undefined) return "an action must say its 'speed' (slow or fast)";
  if (abilities.filter((a) => a.interrupt !== null).length > 1) return "a card has at most one Interrupt ability";
  if (card.type === "action" && !card.effect.length) return "an action needs an 'effect' list";
  const names = new Set(((t.keywords ?? []) as string[]).map((k) => k.trim().toLowerCase().split(/\s+/)[0]));
  const whens = new Set(abilities.map((a) => a.when));
  for (const [kw, trig] of [["conquer", "on_conquer"], ["bloom", "on_bloom"]] as const) {
    if (names.has(kw) !== whens.has(trig)) return `keyword '${kw}' and an ability with when = "${trig}" go together`;
  }
  if (names.has("evolve") !== (t.evolve !== undefined)) return "keyword 'evolve' and an 'evolve' table go together";
  if (names.has("voidcast") && t.voidcast === undefined) return "keyword 'voidcast' needs a Voidcast cost: add 'voidcast = N'";
  if (t.voidcast !== undefined && card.type !== "action") return "only actions have Voidcast (a 'voidcast' cost)";
  for (const a of abilities) {
    if ((a.when === "on_conquer" || a.interrupt !== null) && hasVerb(a.effect, "flux")) {
      return "Flux can't be used inside a Conquer effect or an Interrupt: nobody could be asked for a Flux Interrupt there";
    }
  }
  const whileInPlay = (es: readonly Effect[]): boolean => es.some((e) => e.do === "permit" && e.duration === "while_in_play");
  if (whileInPlay(card.effect) || (!["unit", "relic"].includes(card.type) && abilities.some((a) => whileInPlay(a.effect)))) {
    return "a permission 'as long as' its source stays in play (duration = \"while_in_play\") belongs to an ability of a unit or relic";
  }
  if (names.has("nullify") && hasVerb(card.effect, "flux")) return "Flux can't be used inside a Nullify Action";
  if (names.has("nullify") && card.type !== "action") return "Nullify is an action played as an Interrupt from the hand";
  if (names.has("ambush") && card.realm !== "veil") return "only Veil cards can be Set (ambush)";
  for (const [where, effects] of [["effect", card.effect], ...abilities.map((a, i) => [`abilities[${i}].effect`, a.effect])] as [string, Effect[]][]) {
    const why = sameRefusal(effects, where);
    if (why) return why;
  }
  return "";
}

// -------------------------------------------------------------------- card text: the contract (text_problems)

const WHO: Record<string, string> = {
  self: "itself", unit: "a unit", friendly_unit: "a friendly unit", enemy_unit: "an enemy unit",
  champion: "a Champion", enemy_champion: "the enemy Champion", friendly_champion: "your Champion",
  all_enemy_units: "each enemy unit", all_friendly_units: "each friendly unit", all_units: "each unit",
  event: "that", same: "it", random_enemy_unit: "a random enemy unit", random_friendly_unit: "a random friendly unit",
  random_unit: "a random unit",
};
const NUMBER_WORDS: Record<number, string> = { 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", 10: "ten" };
const BACK_REFERENCE = /\b(?:it|its|itself|that unit|that champion|them|the same unit)\b/;

const selfWords = (cardType: string): string => (["unit", "relic"].includes(cardType) ? "itself" : "your Champion");
const number = (n: number): string => (n in NUMBER_WORDS ? `(?:${n}|${NUMBER_WORDS[n]})` : String(n));
const signed = (n: number): string => (n < 0 ? String(n) : `+${n}`);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** _said: "" if the (lower-case) text says what effect `e` does, else what it should say. */
function said(e: Effect, text: string): string {
  const n = number(e.amount);
  const more = "(?:(?:, | or | and )\\d+)*";
  const has = (re: string): boolean => new RegExp(re).test(text);
  if (e.do === "damage") return has(`\\b${n}${more} damage\\b`) ? "" : `${e.amount} damage`;
  if (e.do === "heal") return has(`\\b(?:heals? ${n}\\b|${n}${more} damage from)`) ? "" : `heal ${e.amount}`;
  if (e.do === "buff") {
    const signs = ["+0", "-0"].flatMap((s) => ["+0", "-0"].map((h) => `${signed(e.power).replace("+0", s)}/${signed(e.health).replace("+0", h)}`));
    return signs.some((x) => text.replaceAll("\u2212", "-").includes(x)) ? "" : `${signed(e.power)}/${signed(e.health)}`;
  }
  if (e.do === "draw" || e.do === "discard") {
    const one = e.amount === 1 ? `\\b${e.do}s? (?:a|one|1) card\\b` : `\\b${e.do}s? ${n} cards\\b`;
    return has(one) ? "" : `${e.do} ${e.amount} card${e.amount !== 1 ? "s" : ""}`;
  }
  if (e.do === "gain_influence") return has(`\\bgains? ${n} influence\\b`) ? "" : `gain ${e.amount} Influence`;
  if (e.do === "grant") {
    const word = (e.status || e.keyword || "").split(/\s+/).filter((x) => x)[0] ?? "";
    const stem = word.endsWith("ed") ? word.slice(0, -2) : word;
    if (text.includes(stem) || (word === "barrier" && text.includes("prevent the next damage"))) return "";
    return word ? word[0]!.toUpperCase() + word.slice(1).toLowerCase() : word;
  }
  return "";
}

/** _target_said */
function targetSaid(e: Effect, text: string, selfWord: string): string {
  const t = e.target === "self" && selfWord !== "itself" ? "friendly_champion" : e.target;
  if (t === "friendly_champion") return /\byour champion\b/.test(text) ? "" : "your Champion";
  if (t === "enemy_champion") return /\b(?:enemy|opponent's|opposing) champion\b/.test(text) ? "" : "the enemy Champion";
  return "";
}

/** text_problems: where a card's text and its effects disagree ([] when they agree or it has no text). Only
 * a text whose letters and digits are ASCII is judged (the regular expressions' \b and \d and str.lower are Unicode's in Python). */
export function textProblems(card: CardDef): string[] {
  if (!card.text.trim()) return [];
  // a letter, digit or mark beyond ASCII: Python's \b and \d would count it as a word character (JavaScript's
  // do not) and its lower() may differ from toLowerCase(); other characters (a dash, a quote) are neither
  if (/[^\x00-\x7f]/u.test(card.text) && /[\p{L}\p{N}\p{M}]/u.test(card.text.replace(/[\x00-\x7f]/g, ""))) {
    throw new NotPorted(`the text check of a card whose text has a letter or digit beyond ASCII (card '${card.id}', `
      + "engine/cards.py text_problems)");
  }
  const text = card.text.toLowerCase();
  const out: string[] = [];
  const effects = [card.effect, ...card.abilities.map((a) => a.effect)].flatMap(everyEffect);
  const word = selfWords(card.type);
  for (const e of effects) {
    const missing = said(e, text) || targetSaid(e, text, word);
    if (missing) out.push(`its effect '${e.do}' does not appear in its text: it never says '${missing}'`);
  }
  for (const [kw, n] of Object.entries(card.keywords)) {
    const w = n ? `${kw} ${n}` : kw;
    if (!text.includes(w) && !(kw === "voidcast" && card.voidcast !== null && text.includes(`voidcast ${card.voidcast}`))) {
      out.push(`it has the keyword '${w}', but its text never says it`);
    }
  }
  for (const a of card.abilities) {
    if (a.activate !== null && a.activate.cost && !text.includes(`${a.activate.cost} influence`)) {
      out.push(`an activated ability costs ${a.activate.cost} Influence, but its text never says '${a.activate.cost} Influence'`);
    }
  }
  const chosen = new Map<string, number>();
  for (const e of effects) if (e.target !== null && CHOICE_TARGETS.includes(e.target)) chosen.set(e.target, (chosen.get(e.target) ?? 0) + 1);
  for (const [target, n] of chosen) {
    const noun = (WHO[target] as string).toLowerCase().split(" ").slice(1).join(" ");
    const named = text.match(new RegExp(`\\b(?:an?|target) ${escape(noun)}\\b`, "g"))?.length ?? 0;
    if (n > named) out.push(`its effects choose ${n} targets that are ${WHO[target] as string} but its text names it ${named} times`);
  }
  if (effects.some((e) => e.target === "same") && !BACK_REFERENCE.test(text)) {
    out.push("an effect applies to the same target again (target = \"same\"), but its text never refers back to it");
  }
  return out;
}

/** check_references over these cards: what they summon or evolve into exists in `db` and is a unit. */
export function checkReferences(db: CardDB, cards: readonly CardDef[]): string[] {
  const problems: string[] = [];
  const walk = (card: CardDef, effects: readonly Effect[]): void => {
    for (const e of effects) {
      if (e.do === "summon" && e.card) {
        const target = db.get(e.card);
        if (target === undefined) problems.push(`card '${card.id}': summons unknown card '${e.card}'${suggest(e.card, db.byId.keys())}`);
        else if (target.type !== "unit") problems.push(`card '${card.id}': summons '${e.card}', which is a ${target.type}, not a unit`);
      }
      for (const inner of [...(e.outcomes ?? []), ...(e.branches ?? [])]) walk(card, inner);
    }
  };
  for (const card of [...cards].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    walk(card, card.effect);
    for (const a of card.abilities) walk(card, a.effect);
    if (card.evolve !== null) {
      const target = db.get(card.evolve.into);
      if (target === undefined) {
        problems.push(`card '${card.id}': evolves into unknown card '${card.evolve.into}'${suggest(card.evolve.into, db.byId.keys())}`);
      }
      else if (target.type !== "unit") problems.push(`card '${card.id}': evolves into '${card.evolve.into}', which is not a unit`);
    }
  }
  return problems;
}
