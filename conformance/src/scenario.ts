// Scenarios (docs/formats.md §4), a port of engine/scenario.py: load and check a file, set up its position
// and advance it to the first decision exactly as a match would, play its steps and check each `expect`.
// Every file gets the verdict `c1k scenario check` gives it (passed or failed, and the step it fails at),
// or — when it needs a rule the port does not have yet — "not ported", naming the rule: never a pass.
//
// What is not ported (a scenario needing it is "not ported"): any card but a plain unit or relic and a
// Champion or Seat with no ability or keyword (conformance/PORT.md), statuses and counters, `log_contains`
// (the match log: engine/events.py). An inline [[card]] table is checked as engine/cards.py checks it
// (engine/cardmodel.ts).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parse as parseToml } from "smol-toml";

import { CardDB, CardDef, KEYWORDS, NUMBERED_KEYWORDS, cardOf, keyword } from "./engine/cards";
import { CONTROL, cardCheckProblem, cardModelProblems, checkReferences, textProblems } from "./engine/cardmodel";
import { MalformedCommand } from "./engine/commands";
import { IllegalAction, apply, byCodePoint, parse } from "./engine/game";
import { defOf, exists, playerOf, zoneOf } from "./engine/legality";
import { Match, NotPorted, Options, SEAT_MODIFIERS } from "./engine/match";
import { Perm, WINDOWS } from "./engine/state";
import { goto } from "./engine/turn";
import { logLinesFor } from "./engine/events";
import { suggest } from "./engine/difflib";

/** scenario.py _names: every card id and name (what a misspelt card is suggested from). */
const cardNames = (db: CardDB): string[] => [...db.byId.keys(), ...[...db.byId.values()].map((c) => c.name)];

type Table = Record<string, unknown>;
const isTable = (x: unknown): x is Table => x !== null && typeof x === "object" && !Array.isArray(x)
  && !(x instanceof TomlFloat);

/** A TOML float (smol-toml reads integers as bigint here, so a float such as 2.0 stays one). */
class TomlFloat {
  constructor(readonly value: number) {}
}

export interface Verdict { path: string; verdict: "passed" | "failed" | "not ported"; steps: number; message: string }

export class ScenarioError extends Error {}

const SCENARIO_KEYS = ["title", "rule", "seed", "turn", "active", "window", "options", "description", "goal"];
const PLAYER_KEYS = ["life", "influence", "capacity", "hand", "library", "graveyard", "board", "relics", "champion",
  "seat", "set", "name"];
const BOARD_KEYS = ["card", "as", "slot", "damage", "status", "counters", "exhausted", "deployed_this_turn"];
const STEP_KEYS = ["do", "expect", "rejected", "malformed", "reason_contains", "note"];
const UNIT_EXPECT = ["zone", "damage", "power", "health", "max_health", "statuses", "counters", "exhausted", "keywords"];
const PLAYER_EXPECT = ["life", "influence", "capacity", "hand", "hand_size", "library_size", "graveyard", "board",
  "relics", "set", "ward"];
const TOP_EXPECT = ["window", "phase", "turn", "active", "priority", "decider", "winner", "stack", "pending",
  "log_contains", "units", "p1", "p2"];
const OPTION_KEYS = ["practice", "max_turns", "unit_slots", "relic_slots", "actor_keeps_priority", "first",
  "first_player_draws", "compensation"];
const COMPENSATIONS = ["none", "card", "coin", "influence", "capacity"];
const STATUSES = ["barrier", "veiled", "suppressed", "rooted"];
const ZONES = ["library", "hand", "board", "relics", "graveyard", "void", "stack", "command", "set", "gone"];
const PENDING = ["priority", "attackers", "blockers", "interrupt", "choice", "none"];
const PHASES = [...new Set(WINDOWS.map((w) => w.split(".")[0] as string))];
const NAME_LISTS = new Set(["hand", "graveyard", "board", "relics", "set"]);
const MAX_SEED = (1n << 64n) - 1n;
const MAX_TURN = 10_000;
const MAX_NUMBER = 999;
const MAX_ZONE_CARDS = 200;
const MAX_STEPS = 10_000;
const MAX_COMMAND = 10_000;
const MAX_FILE_BYTES = 2_000_000;

/** Integers as numbers (bigint beyond 2^53), floats as TomlFloat, tables and lists walked. */
export function normalize(x: unknown): unknown {
  if (typeof x === "bigint") return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
  if (typeof x === "number") return new TomlFloat(x);
  if (Array.isArray(x)) return x.map(normalize);
  if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
    return Object.fromEntries(Object.entries(x as Table).map(([k, v]) => [k, normalize(v)]));
  }
  return x;
}

// ------------------------------------------------------------------ checking a file (scenario.py _Check)

class Check {
  readonly problems: string[] = [];
  constructor(readonly path: string) {}

  bad(loc: (string | number)[], msg: string): void {
    this.problems.push(`${this.path}: ${label(loc)}: ${msg}`);
  }
  keys(loc: (string | number)[], t: Table, allowed: string[]): void {
    for (const k of Object.keys(t)) {
      if (!allowed.includes(k)) this.bad([...loc, k], `unknown key${suggest(k, allowed)}; expected one of ${[...allowed].sort().join(", ")}`);
    }
  }
  table(loc: (string | number)[], v: unknown): Table | null {
    if (isTable(v)) return v;
    this.bad(loc, "expected a table");
    return null;
  }
  num(loc: (string | number)[], v: unknown, lo: number, hi: number): boolean {
    if (typeof v !== "number") {
      this.bad(loc, `expected a whole number from ${lo} to ${hi}`);
      return false;
    }
    if (v < lo || v > hi) {
      this.bad(loc, `${v} is out of bounds: expected a whole number from ${lo} to ${hi}`);
      return false;
    }
    return true;
  }
  flag(loc: (string | number)[], v: unknown): boolean {
    if (typeof v === "boolean") return true;
    this.bad(loc, "expected true or false");
    return false;
  }
  txt(loc: (string | number)[], v: unknown, limit = 1000): v is string {
    if (typeof v !== "string") {
      this.bad(loc, "expected text (in quotes)");
      return false;
    }
    if ([...v].length > limit) {
      this.bad(loc, `${[...v].length} characters: at most ${limit}`);
      return false;
    }
    if (CONTROL.test(v.replaceAll("\n", " ").replaceAll("\t", " "))) {
      this.bad(loc, "a control character");
      return false;
    }
    return true;
  }
  word(loc: (string | number)[], v: unknown, choices: readonly string[]): boolean {
    if (!this.txt(loc, v)) return false;
    if (!choices.includes(v as string)) {
      this.bad(loc, `'${String(v)}' is not one of ${choices.join(", ")}${suggest(String(v), choices)}`);
      return false;
    }
    return true;
  }
  strings(loc: (string | number)[], v: unknown, limit = MAX_ZONE_CARDS): string[] {
    if (!Array.isArray(v)) {
      this.bad(loc, "expected a list of text");
      return [];
    }
    if (v.length > limit) {
      this.bad(loc, `${v.length} entries: at most ${limit}`);
      return [];
    }
    return v.filter((x, i) => this.txt([...loc, i], x)) as string[];
  }
  card(loc: (string | number)[], name: string, db: CardDB, kind: string | null = null): CardDef | null {
    const d = db.get(name);
    if (d === undefined) {
      this.bad(loc, `unknown card '${name}'${suggest(name, cardNames(db))}`);
      return null;
    }
    if (kind !== null && d.type !== kind) {
      this.bad(loc, `'${name}' is a ${d.type}, not a ${kind}`);
      return null;
    }
    return d;
  }
}

function label(loc: (string | number)[]): string {
  let out = "";
  for (const k of loc) out += typeof k === "number" ? `[${k + 1}]` : out ? `.${k}` : k;
  return out;
}

export interface Scenario { path: string; data: Table; db: CardDB; steps: Table[]; options: Options }

/** The inline [[card]] tables, checked as scenario.py checks them (cards.py parse_cards_located: the models,
 * text_problems; then check_references); a float in one is refused, as a whole number's field is strict (§8 k). */
function inlineCards(c: Check, raw: unknown, base: CardDB, db: CardDB): void {
  if (!Array.isArray(raw) || !raw.every(isTable)) {
    c.bad(["card"], "expected [[card]] tables (an array of tables)");
    return;
  }
  const replacing = new Set(raw.filter((x) => x.replaces === true).map((x) => String(x.id)));
  const ids: string[] = [];
  const names = new Map<string, string>();   // an inline card's name, lower-case -> its id
  const located: CardDef[] = [];
  raw.forEach((x, i) => {
    const loc = ["card", i];
    if ("replaces" in x && typeof x.replaces !== "boolean") c.bad([...loc, "replaces"], "expected true or false");
    const t = Object.fromEntries(Object.entries(x).filter(([k]) => k !== "replaces"));
    const model = cardModelProblems(t);
    for (const why of model) c.problems.push(`${c.path}: card ${i + 1}: ${why}`);
    if (model.length) return;
    if (c.problems.length) return;
    let card: CardDef;
    try {
      card = cardOf(t, `${c.path}: card ${i + 1}`);
    } catch (err) {
      c.problems.push((err as Error).message);
      return;
    }
    const why = [cardCheckProblem(t, card), ...textProblems(card)].filter((w) => w);
    if (why.length) {
      for (const w of why) c.problems.push(`${c.path}: card ${i + 1} (${card.id}): ${w}`);
      return;
    }
    located.push(card);
    const shadowed = base.byId.get(card.id) ?? base.byName.get(card.name.toLowerCase());
    if (shadowed !== undefined && !replacing.has(card.id)) {
      c.bad(loc, `card '${card.id}' ('${card.name}') would replace the bundled card '${shadowed.id}'`);
    }
    if (ids.includes(card.id)) {
      // scenario.py: one table an id (docs/determinism.md §8 k)
      c.problems.push(`${c.path}: card ${i + 1} (${card.id}): defined twice in this scenario; give each inline card its own id`);
      return;
    }
    ids.push(card.id);
    const twin = names.get(card.name.toLowerCase());
    if (twin !== undefined) {
      // scenario.py: one card a name, as a set of card files (docs/determinism.md §8 k)
      c.problems.push(`${c.path}: card ${i + 1} (${card.id}): duplicate card name '${card.name}' (card '${twin}'); give each inline card its own name`);
      return;
    }
    names.set(card.name.toLowerCase(), card.id);
    db.byId.set(card.id, card);
    db.byName.set(card.name.toLowerCase(), card);
  });
  for (const why of checkReferences(db, located)) c.problems.push(`${c.path}: ${why}`);
}

function checkHead(c: Check, head: Table): Options {
  const loc = ["scenario"];
  c.keys(loc, head, SCENARIO_KEYS);
  for (const k of ["title", "rule", "description", "goal"]) if (k in head) c.txt([...loc, k], head[k], 10_000);
  if ("seed" in head) {
    const s = head.seed;
    if (!(typeof s === "number" && s >= 0) && !(typeof s === "bigint" && s >= 0n && s <= MAX_SEED)) c.bad([...loc, "seed"], "expected a whole number from 0 to 2^64 - 1");
  }
  if ("turn" in head) c.num([...loc, "turn"], head.turn, 1, MAX_TURN);
  if ("active" in head) c.word([...loc, "active"], head.active, ["p1", "p2"]);
  if ("window" in head) c.word([...loc, "window"], head.window, WINDOWS);
  const opts = c.table([...loc, "options"], head.options ?? {}) ?? {};
  c.keys([...loc, "options"], opts, OPTION_KEYS);
  const o: Options = { practice: false, max_turns: 0, unit_slots: 6, relic_slots: 3, actor_keeps_priority: false,
    first: "p1", first_player_draws: false, compensation: "card+coin+influence" };   // MatchOptions()'s defaults
  const good = o as unknown as Table;
  for (const [k, v] of Object.entries(opts)) {
    if (!OPTION_KEYS.includes(k)) continue;
    const want = good[k];
    const ok = typeof want === "boolean" ? c.flag([...loc, "options", k], v)
      : typeof want === "number" ? c.num([...loc, "options", k], v, k === "unit_slots" ? 1 : 0, k.endsWith("_slots") ? 12 : MAX_TURN)
        : c.txt([...loc, "options", k], v, 100);
    if (ok) good[k] = v;
  }
  // MatchOptions.__post_init__: `first`, and `compensation`'s parts in their order
  if (!["p1", "p2", "random"].includes(o.first)) c.bad([...loc, "options"], `not valid match options: first = '${o.first}'`);
  const parts = o.compensation.split("+");
  const order = parts.map((p) => COMPENSATIONS.indexOf(p));
  if (order.some((i) => i < 0) || (parts.includes("none") && parts.length > 1) || order.some((x, i) => i > 0 && x <= (order[i - 1] as number))) {
    c.bad([...loc, "options"], `not valid match options: compensation = '${o.compensation}'`);
  }
  return o;
}

function checkPlayer(c: Check, p: string, ps: Table, db: CardDB, options: Options, aliases: Set<string>): void {
  c.keys([p], ps, PLAYER_KEYS);
  if ("name" in ps && c.txt([p, "name"], ps.name, 100) && !(ps.name as string).trim()) c.bad([p, "name"], "a player's name can't be empty");
  if ("life" in ps) c.num([p, "life"], ps.life, -MAX_NUMBER, MAX_NUMBER);
  for (const k of ["influence", "capacity"]) if (k in ps) c.num([p, k], ps[k], 0, MAX_NUMBER);
  for (const k of ["hand", "library", "graveyard", "set"]) {
    if (!(k in ps)) continue;
    c.strings([p, k], ps[k]).forEach((name, i) => {
      const d = c.card([p, k, i], name, db);
      if (k === "set" && d !== null && !("ambush" in d.keywords)) c.bad([p, k, i], `'${name}' has no Ambush: only a card with Ambush can be Set (C1K 3)`);
    });
  }
  let seat: CardDef | null = null;
  if ("champion" in ps && c.txt([p, "champion"], ps.champion)) c.card([p, "champion"], ps.champion as string, db, "champion");
  if ("seat" in ps && c.txt([p, "seat"], ps.seat)) seat = c.card([p, "seat"], ps.seat as string, db, "seat");
  const slots: Record<string, number> = {
    board: seat ? Math.max(1, seat.modifiers.unit_slots ?? (SEAT_MODIFIERS.unit_slots as number)) : options.unit_slots,
    relics: seat ? Math.max(0, seat.modifiers.relic_slots ?? (SEAT_MODIFIERS.relic_slots as number)) : options.relic_slots,
  };
  for (const [zone, kind] of [["board", "unit"], ["relics", "relic"]] as const) {
    if (!(zone in ps)) continue;
    const entries = ps[zone];
    if (!Array.isArray(entries)) {
      c.bad([p, zone], "expected a list of cards ({ card = \"…\", … } or names)");
      continue;
    }
    const n = slots[zone] as number;
    if (entries.length > n) {
      c.bad([p, zone], `${entries.length} cards but only ${n} ${kind} slots`);
      continue;
    }
    const used = new Set<number>();
    entries.forEach((entry, i) => {
      const loc = [p, zone, i];
      const e: Table = isTable(entry) ? entry : { card: entry };
      if (isTable(entry)) c.keys(loc, entry, BOARD_KEYS);
      if (!("card" in e)) c.bad(loc, "needs 'card' (a card name or id)");
      else if (c.txt([...loc, "card"], e.card)) c.card([...loc, "card"], e.card as string, db, kind);
      if ("as" in e && c.txt([...loc, "as"], e.as, 100)) {
        const alias = (e.as as string).toLowerCase();
        if (aliases.has(alias)) c.bad([...loc, "as"], `alias '${e.as as string}' is already used`);
        else if (alias === "p1" || alias === "p2") c.bad([...loc, "as"], "'p1' and 'p2' name the players; choose another alias");
        aliases.add(alias);
      }
      if ("slot" in e && c.num([...loc, "slot"], e.slot, 1, n)) {
        if (used.has(e.slot as number)) c.bad([...loc, "slot"], `slot ${e.slot as number} is already taken`);
        used.add(e.slot as number);
      }
      if ("damage" in e) c.num([...loc, "damage"], e.damage, 0, MAX_NUMBER);
      if ("status" in e) c.strings([...loc, "status"], e.status, 10).forEach((s, j) => c.word([...loc, "status", j], s, STATUSES));
      if ("counters" in e) {
        const counters = c.table([...loc, "counters"], e.counters) ?? {};
        if (Object.keys(counters).length > 20) c.bad([...loc, "counters"], "at most 20 kinds of counter");
        else for (const [k, v] of Object.entries(counters)) c.num([...loc, "counters", k], v, 0, MAX_NUMBER);
      }
      for (const k of ["exhausted", "deployed_this_turn"]) if (k in e) c.flag([...loc, k], e[k]);
    });
  }
}

function checkStep(c: Check, i: number, st: Table, db: CardDB, aliases: Set<string>): void {
  const loc = ["step", i];
  c.keys(loc, st, STEP_KEYS);
  if ("do" in st) c.txt([...loc, "do"], st.do, MAX_COMMAND);
  for (const k of ["rejected", "malformed"]) {
    if (k in st && c.flag([...loc, k], st[k]) && st[k] && !("do" in st)) c.bad([...loc, k], "a step that expects a refusal needs a command ('do')");
  }
  if (st.rejected === true && st.malformed === true) c.bad([...loc, "malformed"], "a command is either malformed or rejected, not both");
  if ("reason_contains" in st && c.txt([...loc, "reason_contains"], st.reason_contains) && st.rejected !== true && st.malformed !== true) {
    c.bad([...loc, "reason_contains"], "needs 'rejected = true' or 'malformed = true' in the same step");
  }
  if ("note" in st) c.txt([...loc, "note"], st.note, 10_000);
  if ("expect" in st) {
    const exp = c.table([...loc, "expect"], st.expect);
    if (exp !== null) checkExpectKeys(c, [...loc, "expect"], exp, db, aliases);
  }
}

function checkExpectKeys(c: Check, loc: (string | number)[], exp: Table, db: CardDB, aliases: Set<string>): void {
  c.keys(loc, exp, TOP_EXPECT);
  const words: Record<string, readonly string[]> = { window: WINDOWS, phase: PHASES, active: ["p1", "p2"], priority: ["p1", "p2", "none"],
    decider: ["p1", "p2", "none"], winner: ["p1", "p2", "draw", "none"], pending: PENDING };
  for (const [k, choices] of Object.entries(words)) if (k in exp) c.word([...loc, k], exp[k], choices);
  if ("turn" in exp) c.num([...loc, "turn"], exp.turn, 1, MAX_TURN);
  if ("stack" in exp) c.strings([...loc, "stack"], exp.stack);
  if ("log_contains" in exp) c.txt([...loc, "log_contains"], exp.log_contains);
  for (const p of ["p1", "p2"]) {
    if (!(p in exp)) continue;
    const pe = c.table([...loc, p], exp[p]);
    if (pe === null) continue;
    c.keys([...loc, p], pe, PLAYER_EXPECT);
    for (const [k, v] of Object.entries(pe)) {
      if (NAME_LISTS.has(k)) c.strings([...loc, p, k], v).forEach((name, j) => c.card([...loc, p, k, j], name, db));
      else if (k === "life") c.num([...loc, p, k], v, -MAX_NUMBER, MAX_NUMBER);
      else if (PLAYER_EXPECT.includes(k)) c.num([...loc, p, k], v, 0, MAX_NUMBER);
    }
  }
  if ("units" in exp) {
    const units = c.table([...loc, "units"], exp.units) ?? {};
    for (const [alias, fields] of Object.entries(units)) {
      const uloc = [...loc, "units", alias];
      if (!aliases.has(alias.toLowerCase()) && !["p1", "p2"].includes(alias.toLowerCase()) && db.get(alias) === undefined) {
        c.bad(uloc, `no alias or card called '${alias}'${suggest(alias, [...aliases, ...cardNames(db)])}`);
      }
      const f = c.table(uloc, fields);
      if (f === null) continue;
      c.keys(uloc, f, UNIT_EXPECT);
      for (const [k, v] of Object.entries(f)) {
        if (k === "zone") c.word([...uloc, k], v, ZONES);
        else if (k === "damage" || k === "max_health") c.num([...uloc, k], v, 0, MAX_NUMBER);
        else if (k === "power" || k === "health") c.num([...uloc, k], v, -MAX_NUMBER, MAX_NUMBER);
        else if (k === "exhausted") c.flag([...uloc, k], v);
        else if (k === "statuses") c.strings([...uloc, k], v, 10).forEach((s, j) => c.word([...uloc, k, j], s, STATUSES));
        else if (k === "counters") for (const [n, x] of Object.entries(c.table([...uloc, k], v) ?? {})) c.num([...uloc, k, n], x, 0, MAX_NUMBER);
        else if (k === "keywords") {
          c.strings([...uloc, k], v, KEYWORDS.length).forEach((kw, j) => {
            try {
              keyword(kw, "");
            } catch (err) {
              c.bad([...uloc, k, j], (err as Error).message);
            }
          });
        }
      }
    }
  }
}

/** scenario.py load_scenario / scenario_from_data: a checked scenario, or ScenarioError listing every problem. */
function loadScenario(path: string, base: CardDB): Scenario {
  let data: Table;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new ScenarioError(`${path}: not a regular file`);
    if (st.size > MAX_FILE_BYTES) throw new ScenarioError(`${path}: ${st.size} bytes: at most ${MAX_FILE_BYTES}`);
    const bytes = readFileSync(path);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    data = normalize(parseToml(text, { integersAsBigInt: true })) as Table;
  } catch (err) {
    if (err instanceof ScenarioError) throw err;
    throw new ScenarioError(`${path}: not a UTF-8 TOML file (${((err as Error).message.split("\n")[0]) ?? ""})`);
  }
  return scenarioFromData(data, path, base);
}

/** scenario.py scenario_from_data: the checks of a scenario's tables (normalized: `normalize`), read from a
 * file or from a record that starts from a scenario's position (record.py begin_game). */
export function scenarioFromData(data: Table, path: string, base: CardDB): Scenario {
  const c = new Check(path);
  c.keys([], data, ["scenario", "card", "p1", "p2", "step", "lesson"]);
  const head = c.table(["scenario"], data.scenario ?? {}) ?? {};
  const options = checkHead(c, head);
  const db = new CardDB();
  for (const card of base.byId.values()) db.add(card);
  if ("card" in data) inlineCards(c, data.card, base, db);
  const aliases = new Set<string>();
  for (const p of ["p1", "p2"]) {
    const ps = c.table([p], data[p] ?? {});
    if (ps !== null) checkPlayer(c, p, ps, db, options, aliases);
  }
  const raw = data.step ?? [];
  let steps: Table[] = [];
  if (!Array.isArray(raw) || !raw.every(isTable)) c.bad(["step"], "expected [[step]] tables (an array of tables)");
  else if (raw.length > MAX_STEPS) c.bad(["step"], `${raw.length} steps: at most ${MAX_STEPS}`);
  else {
    steps = raw;
    steps.forEach((st, i) => checkStep(c, i, st, db, aliases));
  }
  if (c.problems.length) throw new ScenarioError(c.problems.join("\n  "));
  return { path, data, db, steps, options };
}

// ------------------------------------------------------------------ set-up (scenario.py build)

function standInChampion(p: number, life: number): CardDef {
  return { id: `champion-p${p + 1}`, name: `P${p + 1} Champion`, type: "champion", realm: "neutral", cost: 0, speed: "slow",
    power: 0, health: 0, life, voidcast: null, keywords: {}, text: "", effect: [], abilities: [], modifiers: {}, token: false,
    evolve: null, act: [], branches: 0, nullify: false, digest: "" };
}

export function build(scn: Scenario): Match {
  const head = (scn.data.scenario ?? {}) as Table;
  const seed = BigInt((head.seed as number | bigint | undefined) ?? 0);
  const g = new Match(scn.db, seed, scn.options);
  g.turn = (head.turn as number | undefined) ?? 1;
  if ("active" in head) {
    g.active = head.active === "p1" ? 0 : 1;
    g.firstPlayer = g.turn % 2 === 1 ? g.active : 1 - g.active;
  } else {
    g.firstPlayer = scn.options.first === "random" ? Number(g.rng.below(2n)) : scn.options.first === "p2" ? 1 : 0;
    g.active = g.turn % 2 === 1 ? g.firstPlayer : 1 - g.firstPlayer;
  }
  const perm = (entered: number): Perm => new Perm(entered, g.nextSeq());
  for (const p of [0, 1]) {
    const pd = (scn.data[`p${p + 1}`] ?? {}) as Table;
    const ps = playerOf(g, p);
    g.names[p] = (pd.name as string | undefined) ?? `p${p + 1}`;
    const life = (pd.life as number | undefined) ?? 20;
    ps.champion = g.newCard("champion" in pd ? (scn.db.get(pd.champion as string) as CardDef) : standInChampion(p, life), p, "command");
    g.perms.set(ps.champion, perm(0));
    if ("seat" in pd) {
      ps.seat = g.newCard(scn.db.get(pd.seat as string) as CardDef, p, "command");
      g.perms.set(ps.seat, perm(0));
      g.applySeat(p);
    }
    ps.life = life;
    ps.influence = (pd.influence as number | undefined) ?? 0;
    ps.capacity = (pd.capacity as number | undefined) ?? ps.influence;
    for (const [key, list] of [["hand", ps.hand], ["library", ps.library], ["graveyard", ps.graveyard], ["set", ps.set]] as const) {
      for (const name of (pd[key] ?? []) as string[]) list.push(g.newCard(scn.db.get(name) as CardDef, p, key));
    }
    for (const [key, slots] of [["board", ps.board], ["relics", ps.relics]] as const) {
      const where = `${scn.path}: p${p + 1}.${key}`;
      for (const entry of (pd[key] ?? []) as unknown[]) {
        const e: Table = isTable(entry) ? entry : { card: entry };
        let slot: number;
        if ("slot" in e) {
          slot = (e.slot as number) - 1;
          if (!(slot >= 0 && slot < slots.length)) throw new ScenarioError(`${where}: slot ${slot + 1} does not exist: expected 1 to ${slots.length}`);
        } else if (slots.includes(0)) {
          slot = slots.indexOf(0);
        } else {
          throw new ScenarioError(`${where}: more cards than the ${slots.length} slots`);
        }
        if (slots[slot]) throw new ScenarioError(`${where}: slot ${slot + 1} is used twice`);
        const cid = g.newCard(scn.db.get(e.card as string) as CardDef, p, key);
        slots[slot] = cid;
        const pm = perm(e.deployed_this_turn === true ? g.turn : g.turn - 1);
        g.perms.set(cid, pm);
        const d = g.card(cid);
        const statuses = new Set([...((e.status ?? []) as string[]), ...["barrier", "veiled", "rooted"].filter((x) => x in d.keywords)]);
        pm.statuses = [...statuses].sort(byCodePoint);
        pm.counters = Object.fromEntries(Object.entries((e.counters ?? {}) as Record<string, number>));
        pm.damage = (e.damage as number | undefined) ?? 0;
        pm.exhausted = e.exhausted === true;
        pm.ward = d.keywords.ward ?? 0;
        if ("as" in e) g.aliases.set((e.as as string).toLowerCase(), cid);
      }
    }
  }
  // scenario.py: the title, or the file's name without its last suffix (Path.stem)
  const file = basename(scn.path);
  const stem = file.lastIndexOf(".") > 0 ? file.slice(0, file.lastIndexOf(".")) : file;
  g.log(`Scenario: ${"title" in head ? String(head.title) : stem}`);
  goto(g, WINDOWS.indexOf((head.window as string | undefined) ?? "main.priority"));
  return g;
}

// ------------------------------------------------------------------ checking (scenario.py actual, check_expect)

/** Python's repr() of a string (in a failure's message): single quotes unless it holds ' and no ";
 * backslashes, the quote, \n \r \t and other unprintable characters escaped. */
export function pyRepr(text: string): string {
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    if (ch === "\\" || ch === q) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch) && ch !== " ") {
      out += c < 0x100 ? "\\x" + c.toString(16).padStart(2, "0") : c < 0x10000 ? "\\u" + c.toString(16).padStart(4, "0")
        : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return q + out + q;
}

/** scenario.py find_unit: an alias, a player's Champion, else a card by name or id (in play first). */
function findUnit(g: Match, key: string): number | null {
  const k = key.toLowerCase();
  const alias = g.aliases.get(k);
  if (alias !== undefined) return alias;
  if (k === "p1" || k === "p2") return playerOf(g, k === "p1" ? 0 : 1).champion;
  const inPlay = [...g.defs.keys()].filter((i) => exists(g, i) && (defOf(g, i).name.toLowerCase() === k || defOf(g, i).id === k))
    .sort((a, b) => a - b);
  const onBoard = inPlay.filter((i) => ["board", "relics"].includes(zoneOf(g, i)));
  return (onBoard.length ? onBoard : inPlay)[0] ?? null;
}

/** scenario.py keywords_of: the keywords a card has now (printed or granted), sorted, numbered ones with their number. */
function keywordsOf(g: Match, cid: number): string[] {
  const out: string[] = [];
  for (const name of KEYWORDS) {
    const n = g.keyword(cid, name);
    if (n !== null) out.push(NUMBERED_KEYWORDS.has(name) ? `${name} ${n}` : name);
  }
  return out.sort(byCodePoint);
}

/** scenario.py unit_facts. */
function unitFacts(g: Match, cid: number): Table {
  const z = zoneOf(g, cid);
  const facts: Table = { zone: z, keywords: keywordsOf(g, cid) };
  const perm = g.perms.get(cid);
  if (perm !== undefined && (z === "board" || z === "relics")) {
    const counters = Object.fromEntries(Object.entries(perm.counters).sort((a, b) => byCodePoint(a[0], b[0])));
    return { ...facts, damage: perm.damage, power: g.power(cid), health: g.health(cid), max_health: g.maxHealth(cid),
      statuses: [...new Set([...perm.statuses, ...perm.temp_statuses])].sort(byCodePoint), counters, exhausted: perm.exhausted };
  }
  const d = defOf(g, cid);
  return { ...facts, damage: 0, power: d.power, health: d.health, max_health: d.health, statuses: [], counters: {}, exhausted: false };
}

const seatName = (p: number): string => (p === 0 ? "p1" : "p2");

function actual(g: Match, key: string, sub?: string, field?: string): unknown {
  switch (key) {
    case "window": return g.window;
    case "phase": return g.window.split(".")[0];
    case "turn": return g.turn;
    case "active": return seatName(g.active);
    case "priority": return g.priority >= 0 ? seatName(g.priority) : "none";
    case "decider": return g.pending[0] !== "none" && (g.pending[1] as number) >= 0 ? seatName(g.pending[1] as number) : "none";
    case "winner": return g.outcome === null ? "none" : g.outcome[1];
    case "stack": return [...g.stack].reverse().map((it) => it.name);
    case "pending": return g.pending[0];
  }
  if (key === "p1" || key === "p2") {
    const ps = playerOf(g, key === "p1" ? 0 : 1);
    const lists: Record<string, number[]> = { hand: ps.hand, graveyard: ps.graveyard, board: ps.board.filter((c) => c),
      relics: ps.relics.filter((c) => c), set: ps.set };
    const list = lists[sub as string];
    if (list !== undefined) return list.map((c) => defOf(g, c).name).sort(byCodePoint);
    if (sub === "hand_size") return ps.hand.length;
    if (sub === "library_size") return ps.library.length;
    if (sub === "ward") return g.perms.get(ps.champion)?.ward ?? 0;
    return (ps as unknown as Table)[sub as string];
  }
  const cid = findUnit(g, sub as string);
  if (cid === null) return `<no card '${sub as string}'>`;
  return unitFacts(g, cid)[field as string];
}

function norm(key: string, v: unknown): unknown {
  if (NAME_LISTS.has(key) && Array.isArray(v)) return v.map(String).sort(byCodePoint);
  if (key === "keywords" && Array.isArray(v)) return v.map((x) => String(x).toLowerCase().split(/\s+/).filter((w) => w).join(" ")).sort(byCodePoint);
  if (key === "counters" && isTable(v)) return Object.fromEntries(Object.entries(v).filter(([, n]) => n).sort((a, b) => byCodePoint(a[0], b[0])));
  return v;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function checkExpect(g: Match, db: CardDB, exp: Table): string[] {
  const fails: string[] = [];
  const canon = (x: unknown): string => db.get(String(x))?.name ?? String(x);
  const cmp = (lbl: string, want: unknown, got: unknown, key: string): void => {
    let w = norm(key, want);
    const a = norm(key, got);
    if (NAME_LISTS.has(key) && Array.isArray(w)) w = w.map(canon).sort(byCodePoint);
    if (!same(w, a)) fails.push(`expected ${lbl} = ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  };
  for (const [key, want] of Object.entries(exp)) {
    if (key === "p1" || key === "p2") {
      for (const [sub, w] of Object.entries(want as Table)) cmp(`${key}.${sub}`, w, actual(g, key, sub), sub);
    } else if (key === "units") {
      for (const [alias, fields] of Object.entries(want as Table)) {
        for (const [f, w] of Object.entries(fields as Table)) cmp(`units.${alias}.${f}`, w, actual(g, "units", alias, f), f);
      }
    } else if (key === "log_contains") {
      // scenario.py: the log as a spectator reads it (private events by their public face)
      const lines = logLinesFor(g, -1);
      if (!lines.join("\n").includes(String(want))) {
        fails.push(`expected the log to contain ${pyRepr(String(want))}; last lines: [${lines.slice(-5).map(pyRepr).join(", ")}]`);
      }
    } else if (key === "stack") {
      cmp("stack", (want as unknown[]).map(canon), actual(g, key), key);
    } else {
      cmp(key, want, actual(g, key), key);
    }
  }
  return fails;
}

// ------------------------------------------------------------------ running (scenario.py run, check_files)

function run(scn: Scenario): Verdict {
  const fail = (step: number, message: string): Verdict => ({ path: scn.path, verdict: "failed", steps: step, message });
  let g: Match;
  try {
    g = build(scn);
  } catch (err) {
    if (err instanceof NotPorted) throw err;
    return fail(0, `set-up failed: ${(err as Error).message}`);
  }
  for (const [k, st] of scn.steps.entries()) {
    const i = k + 1;
    const d = st.do as string | undefined;
    const where = `step ${i}` + (d !== undefined ? ` (${JSON.stringify(d)})` : "");
    const want = st.malformed === true ? "malformed" : st.rejected === true ? "rejected" : "accepted";
    if (d !== undefined) {
      let got = "accepted";
      let reason = "";
      try {
        const [player, action] = parse(g, d);
        apply(g, action, player);
      } catch (err) {
        if (err instanceof MalformedCommand) {
          got = "malformed";
          reason = err.message;
        } else if (err instanceof IllegalAction) {
          got = "rejected";
          reason = `${err.refusal.reason} (${err.refusal.rule})`;
        } else {
          throw err;
        }
      }
      if (got !== want) return fail(i, `${where}: expected ${want}, but it was ${got}${reason ? `: ${reason}` : ""}`);
      const sub = st.reason_contains;
      if (sub !== undefined && !reason.toLowerCase().includes(String(sub).toLowerCase())) {
        return fail(i, `${where}: the message should contain ${JSON.stringify(sub)}, got ${JSON.stringify(reason)}`);
      }
    }
    const fails = checkExpect(g, scn.db, (st.expect ?? {}) as Table);
    if (fails.length) return fail(i, `${where}: ${fails.join("; ")}`);
  }
  return { path: scn.path, verdict: "passed", steps: scn.steps.length, message: "" };
}

/** Path order as Python sorts Path objects: part by part, each by code point. */
function byParts(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = byCodePoint(x[i] as string, y[i] as string);
    if (c) return c;
  }
  return x.length - y.length;
}

function rglob(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...rglob(p));
    else if (e.name.endsWith(".scenario.toml")) out.push(p);
  }
  return out;
}

/** scenario.py scenario_paths: files as given; folders become their *.scenario.toml files (recursively, sorted). */
export function scenarioPaths(paths: string[]): string[] {
  return paths.flatMap((p) => {
    let dir = false;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      dir = false;
    }
    return dir ? rglob(p).sort(byParts) : [p];
  });
}

/** scenario.py check_files: one verdict per file, in order. */
export function checkFiles(paths: string[], bundled: string): Verdict[] {
  const base = CardDB.load(bundled);
  return scenarioPaths(paths).map((p) => {
    try {
      return run(loadScenario(p, base));
    } catch (err) {
      if (err instanceof NotPorted) return { path: p, verdict: "not ported", steps: 0, message: err.message };
      if (err instanceof ScenarioError) return { path: p, verdict: "failed", steps: 0, message: err.message };
      return { path: p, verdict: "failed", steps: 0, message: `the port raised ${(err as Error).name}: ${(err as Error).message}` };
    }
  });
}

/** A scenario's match after every step's command, each played in turn — a malformed or refused one too —
 * whatever the expectations say (conformance/fixtures.py match_logs); null for a file that sets up no match. */
export function playSteps(path: string, base: CardDB): Match | null {
  let scn: Scenario;
  let g: Match;
  try {
    scn = loadScenario(path, base);
    g = build(scn);
  } catch (err) {
    if (err instanceof ScenarioError) return null;
    throw err;
  }
  for (const st of scn.steps) {
    if (st.do === undefined) continue;
    try {
      const [player, action] = parse(g, String(st.do));
      apply(g, action, player);
    } catch (err) {
      if (!(err instanceof MalformedCommand || err instanceof IllegalAction)) throw err;
    }
  }
  return g;
}

/** scenario.py tally, with the third count: "N passed, M failed, K not ported". */
export function tally(vs: Verdict[]): string {
  const n = (v: string): number => vs.filter((x) => x.verdict === v).length;
  return `${n("passed")} passed, ${n("failed")} failed, ${n("not ported")} not ported`;
}
