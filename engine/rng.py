"""The match's only source of randomness: SplitMix64 (Steele, Lea & Flood 2014).

The whole generator state is one unsigned 64-bit integer stored in the game state, so a snapshot
captures it and a clone continues it. Specified bit for bit so another implementation (the seeds name
a TypeScript client) can reproduce every shuffle and every Flux outcome:

    next():  state = (state + 0x9E3779B97F4A7C15) mod 2^64
             z = state
             z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2^64
             z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2^64
             return z ^ (z >> 31)

    below(n): uniform integer in [0, n) by rejection: draw r = next() until r >= (2^64 mod n),
              then return r mod n.

    shuffle(xs): Fisher-Yates from the end: for i = len-1 down to 1: j = below(i + 1); swap xs[i], xs[j].

Test vectors (seed 1234567): 6457827717110365317, 3203168211198807973, 9817491932198370423,
4593380528125082431, 16408922859458223821. docs/determinism.md §1 is the specification;
conformance/vectors/generator.json has many more vectors.
"""

from __future__ import annotations

from typing import Any

MASK64 = (1 << 64) - 1
TWO64 = 1 << 64
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64_next(state: int) -> tuple[int, int]:
    """Return (new_state, output) for one SplitMix64 step."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class SplitMix64:
    """A tiny, fully specified PRNG whose whole state is `self.state` (an int in [0, 2^64))."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state, out = splitmix64_next(self.state)
        return out

    def below(self, n: int) -> int:
        if n <= 1:
            if n == 1:
                # one draw, whose value can only give 0 (the threshold is 0): the state moves on exactly as
                # below, without computing the output (hot: a random agent with only Pass to choose)
                self.state = (self.state + GOLDEN) & MASK64
                return 0
            raise ValueError("below() needs n >= 1")
        threshold = (1 << 64) % n
        state = self.state
        while True:
            # splitmix64_next, inlined (hot: every random choice of an agent and every shuffle)
            state = (state + GOLDEN) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            r = z ^ (z >> 31)
            if r >= threshold:
                self.state = state
                return r % n

    def shuffle(self, xs: list[Any]) -> None:
        """Fisher–Yates from the top, each position's partner drawn with `below(i + 1)` — with `below`
        inlined (hot: every setup and every determinization): the same draws, the same state after."""
        state = self.state
        for i in range(len(xs) - 1, 0, -1):
            n = i + 1
            threshold = TWO64 % n
            while True:
                state = (state + GOLDEN) & MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                r = z ^ (z >> 31)
                if r >= threshold:
                    break
            j = r % n
            xs[i], xs[j] = xs[j], xs[i]
        self.state = state


def derive_seed(base: int, index: int) -> int:
    """The seed of match `index` of a series started from `base` (used by selfplay and bench)."""
    _, out = splitmix64_next((base + index * GOLDEN) & MASK64)
    return out


__all__ = [
    "GOLDEN", "MASK64", "TWO64", "SplitMix64", "derive_seed", "splitmix64_next",
]
