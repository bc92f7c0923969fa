"""The PRNG is specified bit for bit (engine/rng.py); these vectors are published for other clients."""

import pytest

from engine.rng import SplitMix64, derive_seed


def test_splitmix64_reference_vectors() -> None:
    r = SplitMix64(1234567)
    assert [r.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821,
    ]


def test_splitmix64_seed_zero_first_output() -> None:
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_below_and_shuffle_vectors() -> None:
    r = SplitMix64(42)
    assert [r.below(6) for _ in range(8)] == [1, 1, 0, 0, 4, 0, 1, 2]
    xs = list(range(10))
    SplitMix64(7).shuffle(xs)
    assert xs == [8, 1, 5, 9, 0, 4, 3, 2, 6, 7]


def test_below_is_uniform_enough() -> None:
    r = SplitMix64(99)
    counts = [0] * 5
    for _ in range(5000):
        counts[r.below(5)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_derive_seed_differs_per_index() -> None:
    seeds = {derive_seed(1, i) for i in range(100)}
    assert len(seeds) == 100
    assert derive_seed(1, 0) == derive_seed(1, 0)


def test_below_one_takes_exactly_one_draw() -> None:
    # below(1) skips computing the output it can't use; the stream must move on exactly as one draw does
    a, b = SplitMix64(2026), SplitMix64(2026)
    for n in (1, 1, 7, 1, 3, 1):
        assert a.below(n) == (0 if n == 1 else b.below(n))
        if n == 1:
            b.next()
        assert a.state == b.state
    with pytest.raises(ValueError):
        a.below(0)
