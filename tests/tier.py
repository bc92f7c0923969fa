"""Which tier this run is (docs/development.md "Development", docs/performance.md "The test suite"): the fast
tier (`pytest -m "not slow"`, a developer's loop) or everything (CI). tests/conftest.py sets it before any
test module is imported.

A property test (Hypothesis) runs `examples(n)` examples: all n in the full tier, a fifth of them (at least
FAST_MIN) in the fast tier — the same property on fewer generated inputs, as Hypothesis's own docs suggest
with a small "dev" profile beside a large "ci" one. Hypothesis keeps every failing example it finds in its
database (`.hypothesis/`) and tries it first next time, so a failure the full tier found is replayed by the
fast tier too."""

from __future__ import annotations

#: the fewest examples a property test runs in the fast tier
FAST_MIN = 5
#: the fast tier runs a property test on 1/FAST_SHARE of its examples
FAST_SHARE = 5

fast = False


def is_fast_tier(markexpr: str) -> bool:
    """Whether a `-m` expression is the fast tier's: it deselects the slow tests."""
    return "not slow" in " ".join(markexpr.split())


def examples(n: int) -> int:
    """How many examples a property test of `n` examples runs in this tier."""
    return max(min(n, FAST_MIN), n // FAST_SHARE) if fast else n
