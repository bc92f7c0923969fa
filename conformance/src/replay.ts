// Replays match records (docs/formats.md §6) with the TypeScript port of the engine (conformance/PORT.md)
// and checks every hash: the start hash and part digests of the first state, then each command's hash.
// The port plays passes, "attack none" and the cleanup discard through quiet turns (conformance/PORT.md); at the first command
// it can't play it stops and says which rule is missing.
//
// Usage: node dist/replay.js RECORD...
// Exit: 0 every hash matches; 1 a hash differs (the command, and the parts of the state that differ);
// 2 a record refused as malformed; 3 the record needs a rule not ported yet (named). Several records:
// the most serious of these, in the order 1, 2, 3, 0.

import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

import { pyJson } from "./engine/canonical";
import { cardModelProblems } from "./engine/cardmodel";
import { CardDB, CardDef, cardOf, deckOf } from "./engine/cards";
import { MalformedCommand, parseCommand } from "./engine/commands";
import { playLine } from "./engine/game";
import { Match, NotPorted, optionsOf, stateHash } from "./engine/match";
import { ScenarioError, build, checkFiles, normalize, scenarioFromData, tally } from "./scenario";

class Malformed extends Error {}
class Differs extends Error {}

const MAX_RECORD_BYTES = 16_000_000;
const sha = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");
/** record.py _digest: the first 8 hex digits of SHA-256 of Python JSON (docs/determinism.md §8 a). */
const digest = (v: unknown): string => sha(pyJson(v)).slice(0, 8);

/** record.py state_parts: a digest of each top-level part; each player's parts one by one. */
function stateParts(snap: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(snap)) {
    if (Array.isArray(value) && value.length === 2 && value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) {
      value.forEach((sub: Record<string, unknown>, i) => {
        for (const [k2, v2] of Object.entries(sub)) out[`${key}[${i}].${k2}`] = digest(v2);
      });
    } else {
      out[key] = digest(value);
    }
  }
  return out;
}

/** The parts that differ between the record's digests and the port's, as record.py part_label names them. */
function differing(stated: Record<string, string>, actual: Record<string, string>): string {
  const keys = [...new Set([...Object.keys(stated), ...Object.keys(actual)])].filter((k) => stated[k] !== actual[k]).sort();
  if (!keys.length) return "every part matches its digest, so the hash itself differs";
  return keys.map((k) => `  ${k}: the record ${stated[k] ?? "(absent)"}, the port ${actual[k] ?? "(absent)"}`).join("\n");
}

type Json = Record<string, unknown>;
/** The [cards] entries of a record's deck in the file's order, where JSON.parse lost it (all-digit ids). */
const orderedCards = new WeakMap<Json, [string, unknown][]>();
/** A record's own cards' tables as read exactly (`exactJson`: integers bigint, floats numbers). */
const exactDefs = new WeakMap<Json, unknown>();
const isObject = (x: unknown): x is Json => x !== null && typeof x === "object" && !Array.isArray(x);

/** JSON.parse, but every number as Python's json reads it: an integer exact (a bigint), a float refused as
 * not ported (docs/determinism.md §8 f: `2.0` and `2` are one number to JSON.parse, two to Python); with
 * `keyed`, every object key prefixed with U+0001, so that no key is integer-like and each object keeps the
 * file's key order (§8 e: JSON.parse puts keys such as "42" first). For a scenario's tables inside a record
 * (TOML values written by json.dumps) and a deck list whose card ids are all digits. */
function exactJson(text: string, keyed: boolean): unknown {
  let out = "";
  let last = 0;
  for (let i = 0; i < text.length;) {
    const ch = text[i] as string;
    if (ch === '"') {
      const open = i;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] !== "\\") continue;
        if (text.startsWith("u0000", i + 1)) throw new NotPorted("a NUL character in a record's scenario or deck list");
        i++;
      }
      i++;
      if (keyed && /^\s*:/.test(text.slice(i, i + 64))) {
        out += text.slice(last, open + 1) + "\\u0001";
        last = open + 1;
      }
    } else if (ch === "-" || (ch >= "0" && ch <= "9") || text.startsWith("NaN", i) || text.startsWith("Infinity", i)) {
      let j = i + 1;
      while (j < text.length && /[0-9A-Za-z.+-]/.test(text[j] as string)) j++;
      out += text.slice(last, i) + JSON.stringify("\u0000" + text.slice(i, j));
      last = i = j;
    } else {
      i++;
    }
  }
  out += text.slice(last);
  return JSON.parse(out, (_k, v: unknown) => {
    if (typeof v !== "string" || !v.startsWith("\u0000")) return v;
    const token = v.slice(1);
    return /^-?(0|[1-9][0-9]*)$/.test(token) ? BigInt(token) : Number(token);
  });
}

/** In a tree read by `exactJson` every integer is a bigint: a JavaScript number was a float in the file. */
function floatIn(x: unknown): number | null {
  if (typeof x === "number") return x;
  if (Array.isArray(x)) {
    for (const v of x) {
      const f = floatIn(v);
      if (f !== null) return f;
    }
  } else if (isObject(x)) {
    return floatIn(Object.values(x));
  }
  return null;
}

/** The entries of an object parsed by `exactJson(…, true)`: its keys unprefixed, in the file's order. */
const keyedEntries = (o: Json): [string, unknown][] => Object.entries(o).map(([k, v]) => [k.slice(1), v]);

function readRecord(path: string): Json {
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Malformed(`${path}: not a regular file`);
    if (st.size > MAX_RECORD_BYTES) throw new Malformed(`${path}: ${st.size} bytes: a record is at most ${MAX_RECORD_BYTES}`);
    text = readFileSync(path, "utf8");
  } catch (err) {
    if (err instanceof Malformed) throw err;
    throw new Malformed(`${path}: cannot read it (${(err as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Malformed(`${path}: not JSON (${(err as Error).message})`);
  }
  if (!isObject(data) || data.format !== "c1k-match-record") throw new Malformed(`${path}: not a match record (format "c1k-match-record")`);
  if (data.version !== 3) throw new Malformed(`${path}: version ${String(data.version)}: this replays version 3`);
  const start = data.start;
  if (!isObject(start) || typeof start.hash !== "string" || !isObject(start.parts)) throw new Malformed(`${path}: 'start' needs 'hash' and 'parts'`);
  if (("scenario" in data) === ("decks" in data)) {
    throw new Malformed(`${path}: a record starts from two 'decks' (with a 'seed') or from a 'scenario'`);
  }
  // the scenario's tables and the own cards' read again exactly (integers beyond 2^53, floats)
  const exact = "scenario" in data || (isObject(data.cards) && Array.isArray(data.cards.defs) && data.cards.defs.length)
    ? exactJson(text, false) as Json : null;
  if (exact !== null && isObject(exact.cards)) exactDefs.set(data, exact.cards.defs);
  if ("scenario" in data) {
    // record.py ScenarioStart: {path, data}
    const scn = data.scenario;
    if (!isObject(scn) || !isObject(scn.data) || ("path" in scn && typeof scn.path !== "string")
      || Object.keys(scn).some((k) => k !== "path" && k !== "data")) {
      throw new Malformed(`${path}: 'scenario' must be {"path": text, "data": the scenario's tables}`);
    }
    data.scenario = { path: scn.path ?? "<scenario>", data: ((exact as Json).scenario as Json).data };
  } else {
    if (typeof data.seed !== "string" || !/^[0-9]{1,20}$/.test(data.seed) || BigInt(data.seed) >= 1n << 64n) {
      throw new Malformed(`${path}: 'seed' must be a decimal string from 0 to 2^64 - 1`);
    }
    if (!Array.isArray(data.decks) || data.decks.length !== 2 || !data.decks.every(isObject)) throw new Malformed(`${path}: 'decks' must be two decks`);
    if (!isObject(data.options) || !isObject(data.players)) throw new Malformed(`${path}: 'options' and 'players' must be objects`);
    if (data.decks.some((d: Json) => isObject(d.cards) && Object.keys(d.cards).some((k) => /^(0|[1-9][0-9]*)$/.test(k)))) {
      // a card id of digits only: each deck's [cards] read again in the file's order (§8 e)
      const exact = ((exactJson(text, true) as Json)["\u0001decks"] as Json[]).map((d) => d["\u0001cards"]);
      data.decks.forEach((d: Json, i: number) => {
        const cards = exact[i];
        if (isObject(cards)) orderedCards.set(d, keyedEntries(cards).map(([k, n]) => [k, typeof n === "bigint" ? Number(n) : n]));
      });
    }
  }
  if (!Array.isArray(data.commands) || !data.commands.every((c) => isObject(c) && typeof c.do === "string" && typeof c.hash === "string")) {
    throw new Malformed(`${path}: 'commands' must be a list of {do, hash, …}`);
  }
  return data;
}

/** cardset.py with_manifest: the bundled cards plus the record's own; a card that differs is refused. */
/** The bundled card DB, read once per run (as the Python engine's load_card_db). */
const bundledDBs = new Map<string, CardDB>();

function cardsFor(bundled: string, rec: Json, path: string): CardDB {
  let base = bundledDBs.get(bundled);
  if (base === undefined) bundledDBs.set(bundled, base = CardDB.load(bundled));
  const db = new CardDB();
  for (const c of base.byId.values()) db.add(c);
  const man = isObject(rec.cards) ? rec.cards : {};
  const defs = exactDefs.get(rec) ?? man.defs ?? [];
  if (!Array.isArray(defs)) throw new Malformed(`${path}: its card definitions are not a list`);
  defs.forEach((raw, i) => {
    // cardset.py with_manifest: cards.py's checks of each table (a float where a whole number goes: refused, §8 k;
    // JSON.parse reads 2.0 as 2, so the record's text is read again for it)
    if (floatIn(raw) !== null) throw new Malformed(`${path}: own card ${i + 1}: a float where a card wants a whole number (docs/determinism.md §8 k)`);
    const t = normalize(raw) as Json;
    const problems = isObject(t) ? cardModelProblems(t) : ["not a table"];
    if (problems.length) throw new Malformed(`${path}: own card ${i + 1}: ${problems.join("; ")}`);
    let c: CardDef;
    try {
      c = cardOf(t, `${path}: own card ${i + 1}`);
    } catch (err) {
      throw new Malformed((err as Error).message);
    }
    if (db.get(c.id) === undefined && db.get(c.name) === undefined) db.add(c);
  });
  const digests = isObject(man.digests) ? man.digests : {};
  for (const [id, want] of Object.entries(digests)) {
    const c = db.byId.get(id);
    if (c === undefined) throw new Malformed(`${path}: card '${id}' is used by the record but is in no card file loaded now`);
    if (c.digest !== want) throw new Malformed(`${path}: card '${id}' (${c.name}) differs from the one the record was made with`);
  }
  return db;
}

interface Start { g: Match; head: Json; startParts: Record<string, string> }

/** record.py begin_game from two decks, a seed and options; the head as the file has it. */
function decksStart(rec: Json, db: CardDB, path: string): Start {
  const decks = (rec.decks as Json[]).map((d, i) => {
    const cards = orderedCards.get(d) ?? (isObject(d.cards) ? d.cards : {});
    try {
      return deckOf({ name: d.name ?? "deck", champion: d.champion, seat: d.seat }, cards, db, `${path}: deck ${i + 1}`, "deck");
    } catch (err) {
      throw new Malformed((err as Error).message);
    }
  });
  let options;
  try {
    options = optionsOf(rec.options as Json);
  } catch (err) {
    throw new Malformed(`${path}: options: ${(err as Error).message}`);
  }
  // record.py: the players' names (a record's `players`, p1 and p2 by default) are the decks' `player`
  const players = isObject(rec.players) ? rec.players : {};
  const names = ["p1", "p2"].map((k) => (typeof players[k] === "string" ? (players[k] as string) : k));
  const g = Match.begin(db, decks, BigInt(rec.seed as string), options, names);
  const head: Json = Object.fromEntries(Object.entries(rec).filter(([k]) => k !== "start" && k !== "commands"));
  const startParts: Record<string, string> = {};
  (rec.decks as Json[]).forEach((d, i) => {
    for (const k of ["champion", "seat", "cards", "name"]) startParts[`deck[${i}].${k}`] = digest(d[k] ?? null);
  });
  return { g, head, startParts };
}

/** record.py begin_game from a scenario's position (a match begun from a scenario or lesson): the scenario's
 * tables checked and set up as scenario.py does (`scenarioFromData`, `build`), with the record's cards; the
 * head as MatchRecord.head() writes it for such a record (no seed, players, decks or options). */
function scenarioStart(rec: Json, db: CardDB, path: string): Start {
  const scn = rec.scenario as Json;
  let g: Match;
  try {
    g = build(scenarioFromData(normalize(scn.data) as Json, scn.path as string, db));
  } catch (err) {
    if (err instanceof ScenarioError) throw new Malformed(`${path}: the record's scenario is broken: ${err.message}`);
    throw err;
  }
  // a float Python accepts where the checks above don't look (its start.scenario digest writes it as Python does)
  if (floatIn(scn.data) !== null) throw new NotPorted("a float in the record's scenario (docs/determinism.md §8 f)");
  const head: Json = { format: rec.format, version: rec.version, scenario: scn, app: rec.app ?? {} };
  if (isObject(rec.agents) && Object.keys(rec.agents).length) head.agents = rec.agents;
  if (isObject(rec.cards) && Object.keys(rec.cards).length) head.cards = rec.cards;
  return { g, head, startParts: { "start.scenario": digest(scn.data) } };
}

/** Replays one record, checking every hash; `onState` sees the match after the first state (0) and after
 * each command (its count), once its hash has matched. */
export function replay(path: string, bundled: string, onState?: (g: Match, commands: number) => void): string {
  const rec = readRecord(path);
  const db = cardsFor(bundled, rec, path);
  const { g, head, startParts } = isObject(rec.scenario) ? scenarioStart(rec, db, path) : decksStart(rec, db, path);
  // the start: record.py begin — the seal over the head, the state hash and every part digest
  const snap = g.snapshot();
  const headParts = { "record.players": digest(head.players ?? null), "record.app": digest(head.app ?? null),
    "record.agents": digest(head.agents ?? null), "record.cards": digest(head.cards ?? null) };
  const parts = { ...startParts, ...stateParts(snap), ...headParts };
  const start = rec.start as Json;
  const seal = sha("c1k-record-start\0" + pyJson({ head, state: stateHash(snap), parts }));
  if (seal !== start.hash) {
    throw new Differs(`${path}: the first state differs from the record's (start hash ${String(start.hash).slice(0, 12)}…, `
      + `the port's ${seal.slice(0, 12)}…):\n${differing(start.parts as Record<string, string>, parts)}`);
  }
  onState?.(g, 0);
  const commands = rec.commands as Json[];
  // each command: play it, then its hash over the text, refusal, auto flag, part digests and the state
  let before: Record<string, string> = { ...(start.parts as Record<string, string>) };
  for (const [i, e] of commands.entries()) {
    const where = `${path}: the first state and ${i} command(s) match; command ${i + 1} of ${commands.length} '${String(e.do)}'`;
    let cmd;
    try {
      cmd = parseCommand(e.do as string);
    } catch (err) {
      if (err instanceof MalformedCommand) throw new Malformed(`${where}: not a command: ${err.message}`);
      throw err;
    }
    const seat = cmd.player === "p1" ? 0 : cmd.player === "p2" ? 1 : -1;
    if (seat < 0) throw new Malformed(`${where}: a record's command begins with its seat, p1: or p2:`);
    let refused: string;
    try {
      refused = playLine(g, seat, cmd);
    } catch (err) {
      if (err instanceof NotPorted) throw new NotPorted(`${where}: not ported yet: ${err.message}`);
      if (err instanceof MalformedCommand) throw new Malformed(`${where}: ${err.message}`);
      throw err;
    }
    if (refused !== (e.refused ?? "")) {
      throw new Differs(`${where}: the record says ${e.refused ? `it was refused (${String(e.refused)})` : "it was accepted"}, `
        + `the port ${refused ? `refuses it (${refused})` : "accepts it"}`);
    }
    const after = g.snapshot();
    const changed = isObject(e.changed) ? (e.changed as Record<string, string>) : {};
    const hash = sha("c1k-record-command\0" + pyJson({ do: e.do, refused, auto: e.auto ?? false, changed,
      state: stateHash(after) }));
    const expected = { ...before, ...changed };
    if (hash !== e.hash) {
      const actual = { ...startParts, ...stateParts(after) };
      const stated = Object.fromEntries(Object.entries(expected).filter(([k]) => !k.startsWith("record.")));
      throw new Differs(`${where}: the state after it differs from the record's:\n${differing(stated, actual)}`);
    }
    before = expected;
    onState?.(g, i + 1);
  }
  return `${path}: every hash matches (the first state and ${commands.length} commands)`;
}

/** `--scenarios PATH... [--verdicts FILE]`: each file's verdict and the tally line; with the Python
 * engine's verdicts (conformance/fixtures/scenarios.json), each compared with the port's. */
function scenarios(args: string[], bundled: string): number {
  const at = args.indexOf("--verdicts");
  const paths = at < 0 ? args : args.slice(0, at);
  const root = join(__dirname, "..", "..");
  const rel = (p: string): string => (p.startsWith(root + sep) ? relative(root, p).split(sep).join("/") : p);
  let python: Map<string, { ok: boolean; steps_run: number }> | null = null;
  if (at >= 0) {
    const file = args[at + 1];
    if (file === undefined || at + 2 !== args.length) {
      console.error("usage: conformance/replay --scenarios PATH... [--verdicts FILE]");
      return 2;
    }
    const data = JSON.parse(readFileSync(file, "utf8")) as { scenarios: { path: string; ok: boolean; steps_run: number }[] };
    python = new Map(data.scenarios.map((v) => [v.path, v]));
  }
  const verdicts = checkFiles(paths, bundled);
  let disagree = 0;
  for (const v of verdicts) {
    const path = rel(v.path);
    let line = `${v.verdict === "passed" ? "ok" : v.verdict === "failed" ? "FAILED" : "not ported"} ${path}`
      + (v.verdict === "failed" ? ` (step ${v.steps}): ${v.message.replaceAll(root + sep, "")}` : v.verdict === "not ported" ? `: ${v.message}` : "");
    if (python !== null) {
      const py = python.get(path);
      const pyText = py === undefined ? "no verdict" : py.ok ? "passed" : `failed at step ${py.steps_run}`;
      const agrees = py !== undefined && (v.verdict === "not ported"
        || (v.verdict === "passed" ? py.ok : !py.ok && py.steps_run === v.steps));
      if (!agrees) disagree++;
      line = `${agrees ? "" : "DIFFERS "}${line} [python: ${pyText}]`;
    }
    console.log(line);
  }
  console.log(tally(verdicts));
  if (python !== null) {
    const ported = verdicts.filter((v) => v.verdict !== "not ported").length;
    console.log(disagree ? `${disagree} verdict(s) differ from the Python engine's` : `all ${ported} verdicts the port gives are the Python engine's`);
    return disagree ? 1 : 0;
  }
  return verdicts.some((v) => v.verdict === "failed") ? 1 : verdicts.some((v) => v.verdict === "not ported") ? 3 : 0;
}

/** `--bench R RECORD...` (bench/port_speed.py): each record replayed R times, every hash checked; one JSON
 * line per record with its number of commands and the CPU seconds of each replay (reading it included,
 * Node's start-up and compilation of the port not). */
function bench(args: string[], bundled: string): number {
  const repeats = Number(args[0]);
  if (!Number.isInteger(repeats) || repeats < 1 || args.length < 2) {
    console.error("usage: conformance/replay --bench REPEATS RECORD...");
    return 2;
  }
  for (const path of args.slice(1)) {
    const cpu: number[] = [];
    let commands = 0;
    for (let r = 0; r < repeats; r++) {
      const t0 = process.cpuUsage();
      const said = replay(path, bundled);
      const dt = process.cpuUsage(t0);
      cpu.push((dt.user + dt.system) / 1e6);
      commands = Number(/and (\d+) commands\)/.exec(said)?.[1] ?? 0);
    }
    console.log(JSON.stringify({ path, commands, cpu }));
  }
  return 0;
}

function main(): void {
  const args = process.argv.slice(2);
  if (!args.length) {
    console.error("usage: conformance/replay RECORD...  or  conformance/replay --scenarios PATH... [--verdicts FILE]");
    process.exit(2);
  }
  const bundled = join(__dirname, "..", "..", "decks", "cards");
  if (args[0] === "--scenarios") process.exit(scenarios(args.slice(1), bundled));
  if (args[0] === "--bench") process.exit(bench(args.slice(1), bundled));
  const seen = new Set<number>();
  for (const path of args) {
    try {
      console.log(`ok ${replay(path, bundled)}`);
      seen.add(0);
    } catch (err) {
      const code = err instanceof Differs ? 1 : err instanceof Malformed ? 2 : err instanceof NotPorted ? 3 : 2;
      const msg = (err as Error).message;
      console.log(code === 3 && !msg.startsWith(path) ? `${path}: not ported yet: ${msg}` : code === 3 ? msg
        : code === 1 ? `DIFFERS ${msg}` : `REFUSED ${err instanceof Malformed ? msg : `${path}: ${msg}`}`);
      seen.add(code);
    }
  }
  process.exit([1, 2, 3, 0].find((c) => seen.has(c)) ?? 0);
}

if (require.main === module) main();
