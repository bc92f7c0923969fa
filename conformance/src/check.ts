// The Council of 1000 determinism contract, checked from a second language (docs/determinism.md).
//
// An independent TypeScript implementation of the generator (SplitMix64 with BigInt, below(n), the
// Fisher-Yates shuffle, derive_seed), of how a seed and two decks become the first state, and of the
// canonical snapshot encoding with its SHA-256 hash. It reproduces every vector in the folder given
// as its argument (default: ../vectors) and exits 1 naming each vector that differs.
//
// Usage: node dist/check.js [VECTORS_DIR]

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// ------------------------------------------------------------------ the generator (docs §1)

const MASK64 = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

export class SplitMix64 {
  state: bigint;

  constructor(seed: bigint) {
    this.state = seed & MASK64;
  }

  next(): bigint {
    this.state = (this.state + GOLDEN) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }

  /** A uniform integer in [0, n): draw r until r >= 2^64 mod n, then r mod n. */
  below(n: bigint): bigint {
    if (n <= 0n) throw new Error("below() needs n >= 1");
    const threshold = (1n << 64n) % n;
    for (;;) {
      const r = this.next();
      if (r >= threshold) return r % n;
    }
  }

  /** Fisher-Yates from the end: for i = len-1 down to 1, j = below(i + 1), swap xs[i] and xs[j]. */
  shuffle<T>(xs: T[]): void {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Number(this.below(BigInt(i + 1)));
      const t = xs[i] as T;
      xs[i] = xs[j] as T;
      xs[j] = t;
    }
  }
}

export function deriveSeed(base: bigint, index: bigint): bigint {
  const r = new SplitMix64((base + index * GOLDEN) & MASK64);
  return r.next();
}

// ------------------------------------------------------------------ the canonical encoding (docs §4)

/** A snapshot value before encoding: integers are BigInt so none loses precision. */
export type Value = bigint | string | boolean | null | Value[] | Map<string, Value>;

const MAX_SAFE = (1n << 53n) - 1n;

class EncodingError extends Error {}

function encodeString(s: string): string {
  if (/[\uD800-\uDFFF]/u.test(s)) throw new EncodingError("a string holds a lone surrogate");
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c < 0x20) {
      const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };
      out += short[c] ?? "\\u" + c.toString(16).padStart(4, "0");
    } else out += ch;
  }
  return out + '"';
}

/** Code point order (= UTF-8 byte order), not JavaScript's default UTF-16 code unit order. */
function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function encodeInto(v: Value, out: string[], path: string): void {
  if (typeof v === "bigint") {
    out.push(v >= -MAX_SAFE && v <= MAX_SAFE ? v.toString() : '"' + v.toString() + '"');
  } else if (typeof v === "string") {
    out.push(encodeString(v));
  } else if (typeof v === "boolean") {
    out.push(v ? "1" : "0");
  } else if (v === null) {
    throw new EncodingError(`${path}: null outside an object (an absent value is left out of an object)`);
  } else if (Array.isArray(v)) {
    out.push("[");
    v.forEach((x, i) => {
      if (i) out.push(",");
      encodeInto(x, out, `${path}[${i}]`);
    });
    out.push("]");
  } else {
    out.push("{");
    let first = true;
    for (const k of [...v.keys()].sort(compareKeys)) {
      const x = v.get(k) as Value;
      if (x === null) continue;
      if (!first) out.push(",");
      first = false;
      out.push(encodeString(k), ":");
      encodeInto(x, out, `${path}.${k}`);
    }
    out.push("}");
  }
}

export function canonicalBytes(v: Value): Buffer {
  const out: string[] = [];
  encodeInto(v, out, "$");
  return Buffer.from(out.join(""), "utf8");
}

// ------------------------------------------------------------------ reading values

/** A JSON reader that keeps every integer exact (BigInt); the vectors' inputs hold bare 64-bit ints. */
export function parseExact(text: string): Value {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`JSON at offset ${i}: ${what}`);
  };
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // the opening quote
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") i++;
      else if (c === '"') break;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Value => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const m = new Map<string, Value>();
      ws();
      if (text[i] === "}") {
        i++;
        return m;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const k = str();
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        m.set(k, value());
        ws();
        const d = text[i++];
        if (d === "}") return m;
        if (d !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const a: Value[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return a;
        if (d !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9][0-9]*)/.exec(text.slice(i, i + 40));
    if (!m) return fail("unexpected character");
    i += m[0].length;
    if (".eE".includes(text[i] ?? " ")) fail("a non-integer number (floats are not allowed)");
    return BigInt(m[0]);
  };
  const v = value();
  ws();
  if (i !== text.length) fail("trailing text");
  return v;
}

/** A value from JSON.parse (safe: the canonical bytes hold no integer beyond 2^53) as a Value. */
function fromPlain(x: unknown): Value {
  if (typeof x === "number") {
    if (!Number.isSafeInteger(x)) throw new Error(`not a safe integer: ${x}`);
    return BigInt(x);
  }
  if (typeof x === "string") return x;
  if (Array.isArray(x)) return x.map(fromPlain);
  if (x !== null && typeof x === "object") {
    return new Map(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, fromPlain(v)]));
  }
  throw new Error(`unexpected ${JSON.stringify(x)} in canonical bytes`);
}

// ------------------------------------------------------------------ the checks

let passed = 0;
let failed = 0;

function check(where: string, expected: unknown, actual: unknown): void {
  const e = JSON.stringify(expected, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  const a = JSON.stringify(actual, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  if (e === a) {
    passed++;
  } else {
    failed++;
    const cut = (s: string): string => (s.length > 300 ? s.slice(0, 300) + "…" : s);
    console.log(`FAIL ${where}\n  expected ${cut(e)}\n  got      ${cut(a)}`);
  }
}

function guard(where: string, f: () => void): void {
  try {
    f();
  } catch (err) {
    failed++;
    console.log(`FAIL ${where}: ${(err as Error).message}`);
  }
}

type Json = Record<string, unknown>;

function load(dir: string, name: string): Json {
  const data = JSON.parse(readFileSync(join(dir, name), "utf8")) as Json;
  const expect = `c1k-vectors/${name.replace(/\.json$/, "")}`;
  if (data.format !== expect) throw new Error(`${name}: format is ${String(data.format)}, expected ${expect}`);
  return data;
}

function checkGenerator(dir: string): void {
  const g = load(dir, "generator.json");
  (g.splitmix64 as Json[]).forEach((v, n) => {
    const r = new SplitMix64(BigInt(v.seed as string));
    const outs = (v.outputs as string[]).map(() => r.next().toString());
    check(`generator.json splitmix64[${n}] seed ${String(v.seed)}`, [v.outputs, v.state_after], [outs, r.state.toString()]);
  });
  (g.below as Json[]).forEach((v, n) => {
    const r = new SplitMix64(BigInt(v.seed as string));
    const bound = BigInt(v.n as string);
    const draws = (v.draws as string[]).map(() => r.below(bound).toString());
    check(`generator.json below[${n}] seed ${String(v.seed)} n ${String(v.n)}`, [v.draws, v.state_after],
      [draws, r.state.toString()]);
  });
  (g.shuffle as Json[]).forEach((v, n) => {
    const r = new SplitMix64(BigInt(v.seed as string));
    const xs = Array.from({ length: v.length as number }, (_x, i) => i);
    r.shuffle(xs);
    check(`generator.json shuffle[${n}] seed ${String(v.seed)} length ${String(v.length)}`,
      [v.result, v.state_after], [xs, r.state.toString()]);
  });
  (g.derive_seed as Json[]).forEach((v, n) => {
    check(`generator.json derive_seed[${n}]`, v.seed,
      deriveSeed(BigInt(v.base as string), BigInt(v.index as number)).toString());
  });
}

/** The Coin's card id (docs §2: a second player's compensation with the part "coin"). */
const COIN_CARD = "the-coin";

/** The card objects of a match by number: [card id ("" once renumbered from hiding), owner, zone]. */
class Cards {
  readonly byNumber = new Map<number, [string, number, string]>();

  constructor(private readonly rng: SplitMix64) {}

  /** A number no card object ever had: 1 + below(span - 1) until untaken; span 1000, times 10 while at
   * least half of it is taken (docs §2). */
  fresh(): number {
    let span = 1000n;
    while (2n * BigInt(this.byNumber.size) >= span) span *= 10n;
    for (;;) {
      const n = 1 + Number(this.rng.below(span - 1n));
      if (!this.byNumber.has(n)) return n;
    }
  }

  add(card: string, owner: number, zone: string): number {
    const n = this.fresh();
    this.byNumber.set(n, [card, owner, zone]);
    return n;
  }

  /** The card enters a hidden zone: a new number; the old one stays taken, and forgets a hidden card. */
  renumber(old: number, zone: string): number {
    const [card, owner, was] = this.byNumber.get(old) as [string, number, string];
    const n = this.fresh();
    this.byNumber.set(n, [card, owner, zone]);
    const hidden = was === "library" || was === "hand" || was === "set";
    this.byNumber.set(old, [hidden ? "" : card, owner, "gone"]);
    return n;
  }

  list(): [number, string, number, string][] {
    return [...this.byNumber.entries()].sort((a, b) => a[0] - b[0]).map(([n, [c, o, z]]) => [n, c, o, z]);
  }
}

function checkSetup(dir: string): void {
  const s = load(dir, "setup.json");
  (s.setups as Json[]).forEach((v, n) => {
    const rng = new SplitMix64(BigInt(v.seed as string));
    // who goes first: the option p1 or p2, or "random": one below(2) draw before anything else
    const first = v.first === "random" ? Number(rng.below(2n)) : v.first === "p2" ? 1 : 0;
    const second = 1 - first;
    // the compensation's parts (docs §2: none, or card, coin, influence, capacity joined by "+")
    const parts = ((v.compensation as string | undefined) ?? "none").split("+");
    const cards = new Cards(rng);
    const libraries: number[][] = [];
    const players = v.players as Json[];
    players.forEach((p, owner) => {
      cards.add(p.champion as string, owner, "command");
      cards.add(p.seat as string, owner, "command");
      const library: string[] = [];
      for (const [id, copies] of p.cards as [string, number][]) for (let k = 0; k < copies; k++) library.push(id);
      const order = library.map((_x, i) => i);
      rng.shuffle(order);
      // each card of the shuffled library gets a fresh number, top card first
      libraries.push(order.map((i) => cards.add(library[i] as string, owner, "library")));
    });
    const hands = players.map((p, owner) => {
      const lib = libraries[owner] as number[];
      const extra = parts.includes("card") && owner === second ? 1 : 0;
      // drawing: the top card enters the hand, with a fresh number
      return lib.splice(0, (p.opening_hand as number) + extra).map((old) => cards.renumber(old, "hand"));
    });
    if (parts.includes("coin")) {
      (hands[second] as number[]).push(cards.add(COIN_CARD, second, "hand"));
    }
    const where = `setup.json setups[${n}] seed ${String(v.seed)}`;
    check(`${where} first player`, v.first_player, first);
    check(`${where} cards`, v.cards, cards.list());
    check(`${where} libraries and hands`, players.map((p) => [p.library, p.hand]),
      libraries.map((lib, i) => [lib, hands[i]]));
    check(`${where} generator state after setup`, v.rng_after, rng.state.toString());
  });
}

function checkSnapshots(dir: string): void {
  const s = load(dir, "snapshots.json");
  (s.snapshots as Json[]).forEach((v, n) => {
    const where = `snapshots.json snapshots[${n}] "${String(v.name)}"`;
    guard(where, () => {
      const expected = Buffer.from(v.bytes as string, "utf8");
      const got = canonicalBytes(parseExact(v.input as string));
      check(`${where} bytes`, v.bytes, got.toString("utf8"));
      check(`${where} sha256`, v.sha256, createHash("sha256").update(got).digest("hex"));
      // the canonical bytes are their own canonical form (JSON.parse is exact: no integer beyond 2^53)
      const again = canonicalBytes(fromPlain(JSON.parse(expected.toString("utf8"))));
      check(`${where} re-encoding the bytes`, v.bytes, again.toString("utf8"));
    });
  });
}

function checkMatches(dir: string): void {
  // Replaying the commands needs a whole rules engine: these checks only hold the file to its shape.
  const s = load(dir, "matches.json");
  (s.matches as Json[]).forEach((m, n) => {
    const commands = m.commands as string[];
    const hashes = m.hashes as string[];
    check(`matches.json matches[${n}] "${String(m.name)}" one hash before and after each command`,
      commands.length + 1, hashes.length);
    check(`matches.json matches[${n}] hashes are SHA-256 hex`, true, hashes.every((h) => /^[0-9a-f]{64}$/.test(h)));
    check(`matches.json matches[${n}] refused commands are commands`, true,
      (m.refused as number[]).every((i) => Number.isInteger(i) && i >= 0 && i < commands.length));
  });
}

function main(): void {
  const dir = process.argv[2] ?? join(__dirname, "..", "vectors");
  const t0 = process.hrtime.bigint();
  for (const [name, f] of [["generator", checkGenerator], ["setup", checkSetup], ["snapshots", checkSnapshots],
    ["matches", checkMatches]] as const) {
    const before = passed;
    guard(`${name}.json`, () => f(dir));
    console.log(`${name}: ${passed - before} checks passed`);
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`conformance checker (${ms.toFixed(0)} ms): ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
