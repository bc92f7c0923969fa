// The TypeScript port's layers checked against the Python engine's own output (conformance/fixtures/,
// written by conformance/fixtures.py): the card DB, the bundled decks, command text parse and print
// (docs/formats.md §1), the turn structure table and the Seats' turn hooks (engine/state.py, engine/turn.py),
// the Endless Loop watch's loop key (engine/priority.py), the match log and what each player may read of it
// (engine/events.py), a name's "did you mean" (engine/cards.py suggest: difflib),
// the first state of a match (docs/determinism.md §2-§5). Exits 1 naming each difference. Run by conformance/check.
//
// Usage: node dist/layers.js [FIXTURES_DIR] [CARDS_DIR] [DECKS_DIR]

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { CardDB, loadDeck } from "./engine/cards";
import { MalformedCommand, parseCommand, printCommand } from "./engine/commands";
import { canonicalBytes } from "./engine/canonical";
import { Match, NotPorted, optionsOf, stateHash, toValue } from "./engine/match";
import { TURN_TABLE, WINDOWS } from "./engine/state";
import { seatStructure } from "./engine/turn";
import { loopKey } from "./engine/priority";
import { replay } from "./replay";
import { eventsFor, logLinesFor } from "./engine/events";
import { playSteps } from "./scenario";
import { getCloseMatches, suggest } from "./engine/difflib";

let passed = 0;
let failed = 0;

function check(where: string, expected: unknown, actual: unknown): void {
  const e = JSON.stringify(expected);
  const a = JSON.stringify(actual);
  if (e === a) {
    passed++;
    return;
  }
  failed++;
  const cut = (s: string): string => (s.length > 400 ? s.slice(0, 400) + "…" : s);
  console.log(`FAIL ${where}\n  expected ${cut(e)}\n  got      ${cut(a)}`);
}

/** Objects with their keys sorted, so that two JSON texts compare by content. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, x]) => [k, sorted(x)]));
  }
  return v;
}

type Json = Record<string, unknown>;
const load = (dir: string, name: string): Json => JSON.parse(readFileSync(join(dir, name), "utf8")) as Json;

function checkCards(fixtures: string, db: CardDB): void {
  const want = load(fixtures, "cards.json").cards as Json[];
  check("cards.json: the same card ids", want.map((c) => c.id), [...db.byId.keys()].sort());
  for (const c of want) check(`cards.json ${String(c.id)}`, sorted(c), sorted(db.byId.get(c.id as string) ?? null));
}

function checkDecks(fixtures: string, db: CardDB, decksDir: string): void {
  for (const d of load(fixtures, "decks.json").decks as Json[]) {
    const got = loadDeck(join(decksDir, d.file as string), db);
    check(`decks.json ${String(d.file)}`, [d.name, d.champion, d.seat, d.cards, d.library],
      [got.name, got.champion, got.seat, got.counts, got.library]);
  }
}

function checkCommands(fixtures: string): void {
  for (const c of load(fixtures, "commands.json").commands as Json[]) {
    const text = c.text as string;
    let got: unknown;
    try {
      const cmd = parseCommand(text);
      let printed: string | null;
      try {
        printed = printCommand(cmd);
        // parse . print: what is printed parses to the same action
        const again = parseCommand(printed);
        check(`commands.json ${JSON.stringify(text)} printed text parses back`, printed, printCommand(again));
      } catch (err) {
        if (!(err instanceof MalformedCommand)) throw err;
        printed = null;
      }
      got = { ...cmd, printed, text };
    } catch (err) {
      if (!(err instanceof MalformedCommand)) throw err;
      got = { text, malformed: (err as Error).message };
    }
    check(`commands.json ${JSON.stringify(text)}`, sorted(c), sorted(got));
  }
}

/** The first state of every deck pair, varied seeds and options: the hash, and on a difference each
 * top-level field that differs. A first state the port can't build yet is counted, never passed. */
function checkFirstStates(fixtures: string, db: CardDB, decksDir: string): void {
  let notPorted = 0;
  for (const [n, s] of (load(fixtures, "first-states.json").states as Json[]).entries()) {
    const where = `first-states.json states[${n}] ${(s.decks as string[]).join(" vs ")} seed ${String(s.seed)}`;
    let g: Match;
    try {
      g = Match.begin(db, (s.decks as string[]).map((f) => loadDeck(join(decksDir, f), db)), BigInt(s.seed as string),
        optionsOf(s.options as Json));
    } catch (err) {
      if (!(err instanceof NotPorted)) throw err;
      notPorted++;
      continue;
    }
    const snap = g.snapshot();
    if (stateHash(snap) === s.hash) {
      passed++;
      continue;
    }
    const want = JSON.parse(s.bytes as string) as Json;
    const got = JSON.parse(canonicalBytes(toValue(snap)).toString("utf8")) as Json;
    for (const k of new Set([...Object.keys(want), ...Object.keys(got)])) check(`${where}: ${k}`, want[k], got[k]);
    check(`${where}: hash`, s.hash, stateHash(snap));
  }
  if (notPorted) console.log(`first states: ${notPorted} not ported yet (a Seat's turn hook, start-of-Draw triggers)`);
}

/** state.py TURN_TABLE row by row, and turn.py seat_structure for each bundled Seat's modifiers and a few
 * more hook combinations (the window ids of the turn, in order). */
function checkTurnTable(fixtures: string): void {
  const t = load(fixtures, "turn-table.json");
  check("turn-table.json rows", t.rows, TURN_TABLE.map((w) => ({ id: w.id, kind: w.kind, rule: w.rule, steps: w.steps,
    trigger: w.trigger })));
  for (const s of t.structures as Json[]) {
    check(`turn-table.json structure of ${JSON.stringify(s.modifiers)}`, s.structure,
      seatStructure(s.modifiers as Record<string, number>).map((w) => WINDOWS[w]));
  }
}

/** priority.py loop_key of states of three records (the Endless Loop watch, docs/determinism.md §8 g): the
 * records replayed by replay.ts, each key compared once its state's hash has matched. */
function checkLoopKeys(fixtures: string, cardsDir: string, file: string): void {
  const want = new Map<string, Map<number, string>>();
  for (const k of load(fixtures, file).keys as Json[]) {
    const byCount = want.get(k.record as string) ?? new Map<number, string>();
    byCount.set(k.commands as number, k.key as string);
    want.set(k.record as string, byCount);
  }
  for (const [name, byCount] of want) {
    let seen = 0;
    replay(join(fixtures, "records", name), cardsDir, (g, n) => {
      const key = byCount.get(n);
      if (key === undefined) return;
      seen++;
      check(`${file} ${name} after ${n} commands`, key, loopKey(g));
    });
    check(`${file} ${name}: every state reached`, byCount.size, seen);
  }
}

/** The whole match log of records (logs.json, engine/events.py): every event with every field, in order,
 * and the English log each player and a spectator may read (rules.md §7a) — line by line; the first line
 * that differs is named with its neighbours, once per record and view. */
function checkLogs(fixtures: string, cardsDir: string): void {
  for (const r of load(fixtures, "logs.json").records as Json[]) {
    const name = r.record as string;
    let g: Match | null = null;
    replay(join(fixtures, "records", name), cardsDir, (m) => { g = m; });
    const m = g as Match | null;
    if (m === null) throw new Error(`${name}: not replayed`);
    const events = m.events.map((e) => [e.kind, e.turn, e.window, e.rule, e.actor, e.privateTo, e.text, e.publicText,
      [...e.cards], e.amount, e.detail, e.command]);
    firstDifference(`logs.json ${name}: events`, r.events as unknown[], events);
    for (const [view, lines] of Object.entries(r.views as Record<string, string[]>)) {
      const who = view === "-1" ? "a spectator" : `p${Number(view) + 1}`;
      firstDifference(`logs.json ${name}: the log ${who} reads`, lines, logLinesFor(m, Number(view)));
    }
    // events_for's numbering (n, command) from the middle on, renumbered in what the player may know (no gaps
    // where a hidden event was)
    const half = Math.floor(m.events.length / 2);
    for (const [view, pairs] of Object.entries(r.numbers as Record<string, number[][]>)) {
      const got = eventsFor(m, Number(view), half).map((e) => [e.n, e.command]);
      firstDifference(`logs.json ${name}: events_for(${view}, since ${half}) numbers`, pairs, got);
    }
  }
}

/** logs.json's scenarios: each one's steps played to the last (scenario.ts playSteps), then the log each
 * player and a spectator reads, line by line. */
function checkScenarioLogs(fixtures: string, cardsDir: string, root: string): void {
  const base = CardDB.load(cardsDir);
  for (const s of load(fixtures, "logs.json").scenarios as Json[]) {
    const name = s.scenario as string;
    const g = playSteps(join(root, name), base);
    if (g === null) {
      check(`logs.json ${name}: a match is set up`, true, false);
      continue;
    }
    for (const [view, lines] of Object.entries(s.views as Record<string, string[]>)) {
      const who = view === "-1" ? "a spectator" : `p${Number(view) + 1}`;
      firstDifference(`logs.json ${name}: the log ${who} reads`, lines, logLinesFor(g, Number(view)));
    }
  }
}

/** engine/cards.py suggest and difflib.get_close_matches (difflib.ts) on misspelt names, ids, keywords and
 * verbs, ties, non-ASCII and words of 200 code points or more (suggestions.json). */
function checkSuggestions(fixtures: string): void {
  const data = load(fixtures, "suggestions.json");
  const sets = data.choices as Record<string, string[]>;
  for (const c of data.cases as Json[]) {
    const word = c.word as string;
    const choices = sets[c.choices as string] as string[];
    const where = `suggestions.json ${JSON.stringify(word.length > 60 ? word.slice(0, 60) + "…" : word)} among ${String(c.choices)}`;
    check(`${where}: suggest`, c.suggest, suggest(word, choices));
    check(`${where}: get_close_matches n=3`, c.close3, getCloseMatches(word, choices, 3, 0.5));
    check(`${where}: get_close_matches cutoff 0`, c.best3, getCloseMatches(word, choices, 3, 0.0));
  }
}

/** One check per list: equal, or a failure naming the first item (1-based line) that differs. */
function firstDifference(where: string, want: unknown[], got: unknown[]): void {
  const n = Math.max(want.length, got.length);
  for (let i = 0; i < n; i++) {
    const w = JSON.stringify(want[i]);
    const a = JSON.stringify(got[i]);
    if (w !== a) {
      failed++;
      console.log(`FAIL ${where}: line ${i + 1} of ${want.length} (the port has ${got.length})\n  expected ${w}\n  got      ${a}`
        + (i > 0 ? `\n  after    ${JSON.stringify(want[i - 1])}` : ""));
      return;
    }
  }
  passed++;
}

function main(): void {
  const root = join(__dirname, "..", "..");
  const fixtures = process.argv[2] ?? join(__dirname, "..", "fixtures");
  const cardsDir = process.argv[3] ?? join(root, "decks", "cards");
  const decksDir = process.argv[4] ?? join(root, "decks");
  const db = CardDB.load(cardsDir);
  for (const [name, f] of [["cards", () => checkCards(fixtures, db)], ["decks", () => checkDecks(fixtures, db, decksDir)],
    ["commands", () => checkCommands(fixtures)],
    ["turn table", () => checkTurnTable(fixtures)], ["loop keys", () => checkLoopKeys(fixtures, cardsDir, "loop-keys.json")],
    ["loop keys of effects", () => checkLoopKeys(fixtures, cardsDir, "loop-keys-effects.json")],
    ["match logs", () => checkLogs(fixtures, cardsDir)], ["scenario logs", () => checkScenarioLogs(fixtures, cardsDir, root)],
    ["suggestions", () => checkSuggestions(fixtures)], ["first states", () => checkFirstStates(fixtures, db, decksDir)]] as const) {
    const before = passed;
    try {
      f();
    } catch (err) {
      failed++;
      console.log(`FAIL ${name}: ${(err as Error).message}`);
    }
    console.log(`${name}: ${passed - before} checks passed`);
  }
  console.log(`port layers: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
