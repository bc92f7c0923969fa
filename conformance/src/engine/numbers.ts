// Card numbers (docs/determinism.md §2 step 3): fresh numbers from the match generator, renumbering
// on entering a hidden zone.

import { SplitMix64 } from "./rng";

/** The Coin's card id (docs §2: a second player's compensation with the part "coin"). */
export const COIN_CARD = "the-coin";

/** The card objects of a match by number: [card id ("" once renumbered from hiding), owner, zone]. */
export class Cards {
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

  /** The card object moves to another zone, keeping its number (a zone that isn't hidden). */
  move(n: number, zone: string): void {
    const [card, owner] = this.byNumber.get(n) as [string, number, string];
    this.byNumber.set(n, [card, owner, zone]);
  }

  /** The card object becomes another card (KW Evolve: core.py defs[c] = into). */
  setCard(n: number, card: string): void {
    const [, owner, zone] = this.byNumber.get(n) as [string, number, string];
    this.byNumber.set(n, [card, owner, zone]);
  }

  list(): [number, string, number, string][] {
    return [...this.byNumber.entries()].sort((a, b) => a[0] - b[0]).map(([n, [c, o, z]]) => [n, c, o, z]);
  }
}
