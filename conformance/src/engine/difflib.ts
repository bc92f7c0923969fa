// The "did you mean …?" of a message (engine/cards.py suggest), a port of the parts of Python's difflib it
// uses: get_close_matches and SequenceMatcher (no isjunk; autojunk on, as get_close_matches leaves it) —
// real_quick_ratio, quick_ratio and ratio from the matching blocks of find_longest_match, the "popular"
// elements of a long second sequence (200 or more) dropped from the index as difflib drops them. Strings
// are compared code point by code point (a Python str is a sequence of code points: docs/determinism.md
// §8 c); a ratio is the same IEEE double in both languages (2.0 * matches / length); ties between equal
// scores go to the greater string by code point, as Python's max of (score, text) tuples does (§8 b).

import { byCodePoint } from "./game";

/** difflib._calculate_ratio */
function calculateRatio(matches: number, length: number): number {
  return length ? (2.0 * matches) / length : 1.0;
}

/** difflib.SequenceMatcher with isjunk None and autojunk true, on sequences of code points. */
export class SequenceMatcher {
  private a: string[] = [];
  private b: string[] = [];
  private b2j = new Map<string, number[]>();
  private fullbcount: Map<string, number> | null = null;
  private matchingBlocks: [number, number, number][] | null = null;

  /** set_seq2: the sequence compared against (the word a suggestion is for); indexed once. */
  setSeq2(b: string): void {
    this.b = [...b];
    this.fullbcount = null;
    this.matchingBlocks = null;
    this.chainB();
  }

  /** set_seq1: each candidate in turn. */
  setSeq1(a: string): void {
    this.a = [...a];
    this.matchingBlocks = null;
  }

  /** __chain_b: where each element of b occurs; with 200 or more elements, one that occurs more than
   * n // 100 + 1 times is "popular" and left out of the index (autojunk). */
  private chainB(): void {
    const b2j = new Map<string, number[]>();
    this.b.forEach((elt, i) => {
      const idx = b2j.get(elt);
      if (idx === undefined) b2j.set(elt, [i]);
      else idx.push(i);
    });
    const n = this.b.length;
    if (n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [elt, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(elt);
    }
    this.b2j = b2j;
  }

  /** find_longest_match(alo, ahi, blo, bhi): [i, j, k] (no junk: only the first two extension loops can
   * move, and they may cross popular elements, which are not junk). */
  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
    const { a, b, b2j } = this;
    let besti = alo, bestj = blo, bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      for (const j of b2j.get(a[i] as string) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = newj2len;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti -= 1;
      bestj -= 1;
      bestsize += 1;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize += 1;
    return [besti, bestj, bestsize];
  }

  /** get_matching_blocks (without the sentinel and the merging of adjacent blocks, which ratio does not need:
   * the sizes add up the same). */
  getMatchingBlocks(): [number, number, number][] {
    if (this.matchingBlocks !== null) return this.matchingBlocks;
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    const blocks: [number, number, number][] = [];
    while (queue.length) {
      const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
      const x = this.findLongestMatch(alo, ahi, blo, bhi);
      const [i, j, k] = x;
      if (k) {
        blocks.push(x);
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    this.matchingBlocks = blocks;
    return blocks;
  }

  ratio(): number {
    const matches = this.getMatchingBlocks().reduce((sum, blk) => sum + blk[2], 0);
    return calculateRatio(matches, this.a.length + this.b.length);
  }

  quickRatio(): number {
    if (this.fullbcount === null) {
      this.fullbcount = new Map();
      for (const elt of this.b) this.fullbcount.set(elt, (this.fullbcount.get(elt) ?? 0) + 1);
    }
    const avail = new Map<string, number>();
    let matches = 0;
    for (const elt of this.a) {
      const numb = avail.has(elt) ? (avail.get(elt) as number) : (this.fullbcount.get(elt) ?? 0);
      avail.set(elt, numb - 1);
      if (numb > 0) matches += 1;
    }
    return calculateRatio(matches, this.a.length + this.b.length);
  }

  realQuickRatio(): number {
    const la = this.a.length, lb = this.b.length;
    return calculateRatio(Math.min(la, lb), la + lb);
  }
}

/** difflib.get_close_matches: the best (at most n) possibilities scoring at least `cutoff`, best first;
 * equal scores by the greater string first (heapq.nlargest of (score, text) tuples; a stable sort keeps
 * equal tuples in their order). */
export function getCloseMatches(word: string, possibilities: readonly string[], n = 3, cutoff = 0.6): string[] {
  const result: [number, string][] = [];
  const s = new SequenceMatcher();
  s.setSeq2(word);
  for (const x of possibilities) {
    s.setSeq1(x);
    if (s.realQuickRatio() >= cutoff && s.quickRatio() >= cutoff && s.ratio() >= cutoff) result.push([s.ratio(), x]);
  }
  return result.map((r, i) => [r, i] as [[number, string], number])
    .sort(([x, i], [y, j]) => (y[0] - x[0]) || byCodePoint(y[1], x[1]) || i - j)
    .slice(0, n).map(([r]) => r[1]);
}

/** cards.py suggest: " (did you mean 'X'?)" for the closest of `choices` (ratio at least 0.5), else "". */
export function suggest(word: string, choices: Iterable<string>): string {
  const close = getCloseMatches(word, [...choices], 1, 0.5);
  return close.length ? ` (did you mean '${close[0] as string}'?)` : "";
}
