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

import { SplitMix64, deriveSeed } from "./engine/rng";
import { canonicalBytes, fromPlain, parseExact } from "./engine/canonical";
import { COIN_CARD, Cards } from "./engine/numbers";

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
