// The generator of docs/determinism.md §1: SplitMix64 with BigInt, below(n), shuffle, derive_seed.

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

