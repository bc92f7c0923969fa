// Card files and deck files (docs/formats.md §2, §3) -> the card DB, a port of engine/cards.py and
// engine/decks.py: the same ids and fields, defaults filled in as CardDef.from_model does. TOML is read
// with smol-toml. The checks of a card's content (pydantic models, schemas/cards.schema.json) are not
// ported yet: a table of the wrong shape is refused, not explained field by field (conformance/PORT.md).

import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { parse as parseToml } from "smol-toml";

import { pyJson } from "./canonical";
import { suggest } from "./difflib";

type Table = Record<string, unknown>;

export interface Effect {
  do: string; amount: number; target: string | null; power: number; health: number; until: string | null;
  keyword: string | null; status: string | null; card: string | null; player: string;
  outcomes: Effect[][] | null; branches: Effect[][] | null; zone: string | null; card_type: string;
  duration: string; free: boolean;
}

export interface Activation { cost: number; speed: string; once_per_turn: boolean; exhaust: boolean; timing: string | null }

export interface Ability {
  when: string | null; activate: Activation | null; interrupt: string | null; cost: number;
  once_per_turn: boolean; text: string; effect: Effect[];
}

export interface CardDef {
  id: string; name: string; type: string; realm: string; cost: number; speed: string; power: number;
  health: number; life: number; voidcast: number | null; keywords: Record<string, number>; text: string;
  effect: Effect[]; abilities: Ability[]; modifiers: Record<string, number>; token: boolean;
  evolve: { into: string; growth: number | null; power: number | null } | null;
  /** indices of the activated abilities, numbered 1.. in commands */
  act: number[];
  /** the number of Thread branches (0: not a Thread card) */
  branches: number;
  /** a Nullify card: used as an Interrupt from the hand */
  nullify: boolean;
  /** the content digest of its TOML table (engine/cardset.py card_digest) */
  digest: string;
}

export const KEYWORDS = ["strike", "tough", "barrier", "overwhelm", "regeneration", "guard", "charge", "lifedrain",
  "rally", "conquer", "veiled", "ambush", "veilbind", "decay", "wither", "growth", "evolve", "bloom", "rooted",
  "flux", "thread", "pulse", "ward", "suppress", "nullify", "voidcast"];
export const NUMBERED_KEYWORDS = new Set(["rally", "decay", "growth", "pulse", "ward"]);

export class CardFileError extends Error {}

function fail(where: string, what: string): never {
  throw new CardFileError(`${where}: ${what}`);
}

function int(t: Table, key: string, dflt: number | null, where: string): number | null {
  const v = t[key];
  if (v === undefined) return dflt;
  if (typeof v === "bigint") return fail(where, `'${key}' is out of bounds`);
  if (typeof v !== "number" || !Number.isInteger(v)) return fail(where, `'${key}' must be a whole number`);
  return v;
}

function str(t: Table, key: string, dflt: string | null, where: string): string | null {
  const v = t[key];
  if (v === undefined) return dflt;
  if (typeof v !== "string") return fail(where, `'${key}' must be text`);
  return v;
}

function bool(t: Table, key: string, where: string): boolean {
  const v = t[key] ?? false;
  if (typeof v !== "boolean") return fail(where, `'${key}' must be true or false`);
  return v;
}

function tables(v: unknown, where: string): Table[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))) {
    return fail(where, "expected a list of tables");
  }
  return v as Table[];
}

function effectList(v: unknown, where: string): Effect[] {
  return tables(v, where).map((e, i) => effectOf(e, `${where}[${i}]`));
}

function nested(v: unknown, where: string): Effect[][] | null {
  if (v === undefined) return null;
  if (!Array.isArray(v)) return fail(where, "expected a list of effect lists");
  return v.map((x, i) => effectList(x, `${where}[${i}]`));
}

function effectOf(t: Table, where: string): Effect {
  return {
    do: str(t, "do", null, where) ?? fail(where, "an effect needs 'do'"),
    amount: int(t, "amount", 1, where) as number, target: str(t, "target", null, where),
    power: int(t, "power", 0, where) as number, health: int(t, "health", 0, where) as number,
    until: str(t, "until", null, where), keyword: str(t, "keyword", null, where), status: str(t, "status", null, where),
    card: str(t, "card", null, where), player: str(t, "player", "you", where) as string,
    outcomes: nested(t.outcomes, `${where}.outcomes`), branches: nested(t.branches, `${where}.branches`),
    zone: str(t, "zone", null, where), card_type: str(t, "card_type", "any", where) as string,
    duration: str(t, "duration", "instruction", where) as string, free: bool(t, "free", where),
  };
}

function abilityOf(t: Table, where: string): Ability {
  const a = t.activate as Table | undefined;
  return {
    when: str(t, "when", null, where),
    activate: a === undefined ? null : {
      cost: int(a, "cost", 0, where) as number, speed: str(a, "speed", "fast", where) as string,
      once_per_turn: bool(a, "once_per_turn", where), exhaust: bool(a, "exhaust", where),
      timing: str(a, "timing", null, where),
    },
    interrupt: str(t, "interrupt", null, where), cost: int(t, "cost", 0, where) as number,
    once_per_turn: bool(t, "once_per_turn", where), text: str(t, "text", "", where) as string,
    effect: effectList(t.effect, `${where}.effect`),
  };
}

/** 'decay 2' / 'Tough' -> [name, number] (engine/cards.py check_keyword). */
export function keyword(text: string, where: string): [string, number] {
  const parts = text.trim().toLowerCase().split(/\s+/).filter((p) => p);
  const name = parts[0] ?? fail(where, "empty keyword");
  if (!KEYWORDS.includes(name)) fail(where, `unknown keyword '${text}'${suggest(name, KEYWORDS)}`);
  if (NUMBERED_KEYWORDS.has(name)) {
    const n = parts[1];
    if (parts.length !== 2 || n === undefined || !/^[0-9]{1,3}$/.test(n) || +n < 1 || +n > 20) {
      fail(where, `keyword '${name}' takes a number from 1 to 20, e.g. '${name} 1'`);
    }
    return [name, Number(n)];
  }
  if (name !== "evolve" && parts.length !== 1) fail(where, `keyword '${name}' takes no number`);
  return [name, 0];
}

/** A [[card]] table as the engine uses it (CardDef.from_model). */
export function cardOf(t: Table, where: string): CardDef {
  const id = str(t, "id", null, where) ?? fail(where, "a card needs 'id'");
  const w = `${where} (${id})`;
  const keywords: Record<string, number> = {};
  for (const k of (t.keywords ?? []) as unknown[]) {
    if (typeof k !== "string") fail(w, "'keywords' must be a list of text");
    const [name, n] = keyword(k, w);
    keywords[name] = n;
  }
  const voidcast = int(t, "voidcast", null, w);
  if (voidcast !== null && !("voidcast" in keywords)) keywords.voidcast = 0;
  const effect = effectList(t.effect, `${w}.effect`);
  const abilities = tables(t.abilities, `${w}.abilities`).map((a, i) => abilityOf(a, `${w}.abilities[${i}]`));
  const ev = t.evolve as Table | undefined;
  const threads = [...effect, ...abilities.filter((a) => a.when === "on_play").flatMap((a) => a.effect)]
    .filter((e) => e.do === "thread");
  const modifiers: Record<string, number> = {};
  for (const [k, v] of Object.entries((t.modifiers ?? {}) as Table)) {
    if (typeof v !== "number" || !Number.isInteger(v)) fail(w, `seat modifier '${k}' must be a whole number`);
    modifiers[k] = v;
  }
  return {
    id, name: str(t, "name", null, w) ?? fail(w, "a card needs 'name'"),
    type: str(t, "type", null, w) ?? fail(w, "a card needs 'type'"), realm: str(t, "realm", "neutral", w) as string,
    cost: int(t, "cost", 0, w) as number, speed: str(t, "speed", null, w) ?? "slow",
    power: int(t, "power", null, w) ?? 0, health: int(t, "health", null, w) ?? 0, life: int(t, "life", null, w) || 20,
    voidcast, keywords, text: str(t, "text", "", w) as string, effect, abilities, modifiers, token: bool(t, "token", w),
    evolve: ev === undefined ? null
      : { into: str(ev, "into", null, w) ?? fail(w, "evolve needs 'into'"), growth: int(ev, "growth", null, w),
        power: int(ev, "power", null, w) },
    act: abilities.flatMap((a, i) => (a.activate !== null ? [i] : [])),
    branches: threads[0]?.branches?.length ?? 0,
    nullify: "nullify" in keywords,
    digest: createHash("sha256").update(pyJson(t), "utf8").digest("hex").slice(0, 16),
  };
}

function readToml(path: string): Table {
  try {
    return parseToml(readFileSync(path, "utf8")) as Table;
  } catch (err) {
    return fail(path, (err as Error).message.split("\n")[0] ?? "not TOML");
  }
}

/** All known cards, by id and by (case-insensitive) name, as engine/cards.py CardDB. */
export class CardDB {
  readonly byId = new Map<string, CardDef>();
  readonly byName = new Map<string, CardDef>();

  add(c: CardDef): void {
    if (this.byId.has(c.id)) throw new CardFileError(`duplicate card id '${c.id}'`);
    this.byId.set(c.id, c);
    this.byName.set(c.name.toLowerCase(), c);
  }

  get(key: string): CardDef | undefined {
    return this.byId.get(key) ?? this.byName.get(key.toLowerCase());
  }

  /** The cards of a file's [[card]] tables. */
  addTables(tables_: unknown, where: string): void {
    tables(tables_, where).forEach((t, i) => this.add(cardOf(t, `${where}: card ${i + 1}`)));
  }

  addFile(path: string): void {
    const data = readToml(path);
    for (const k of Object.keys(data)) if (k !== "card") fail(path, `unknown table [${k}]: a card file holds [[card]] tables`);
    this.addTables(data.card, path);
  }

  /** Every *.toml file of the folder, sorted by name (load_card_db). */
  static load(dir: string): CardDB {
    const db = new CardDB();
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".toml")).sort()) db.addFile(join(dir, f));
    return db;
  }
}

export interface Deck {
  name: string; champion: string; seat: string;
  /** card id -> copies, in file order, an id named twice (by id and by name) counted once */
  counts: [string, number][];
  /** the library in [cards] entry order (what Game.new shuffles) */
  library: string[];
}

/** A deck from its parsed parts (engine/decks.py deck_from_data; its checks are not ported yet). */
/** decks.py deck_from_data; `cards` as a table, or as its entries in the file's order (docs/determinism.md §8 e:
 * a table whose keys are all digits loses that order in a JavaScript object). */
export function deckOf(head: Table, cards: Table | [string, unknown][], db: CardDB, where: string, stem: string): Deck {
  const find = (key: string, kind: string): string => {
    const v = head[key];
    const c = typeof v === "string" ? db.get(v) : undefined;
    if (c === undefined || c.type !== kind) return fail(where, `[deck] needs '${key}' (the id or name of a ${kind} card)`);
    return c.id;
  };
  const counts = new Map<string, number>();
  const library: string[] = [];
  for (const [k, n] of Array.isArray(cards) ? cards : Object.entries(cards)) {
    const c = db.get(k) ?? fail(where, `unknown card '${k}'`);
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1) fail(where, `'${k}': copies must be a whole number >= 1`);
    counts.set(c.id, (counts.get(c.id) ?? 0) + n);
    for (let i = 0; i < n; i++) library.push(c.id);
  }
  const name = head.name === undefined ? stem : head.name;
  if (typeof name !== "string") fail(where, "[deck] name must be text");
  return { name, champion: find("champion", "champion"), seat: find("seat", "seat"), counts: [...counts], library };
}

export function loadDeck(path: string, db: CardDB): Deck {
  const data = readToml(path);
  return deckOf((data.deck ?? {}) as Table, (data.cards ?? {}) as Table, db, path, basename(path, ".toml"));
}
