"""The suite's own garbage-collector settings (tests/conftest.py `pytest_collection_finish`) reach every
process that runs tests, xdist's workers included: without them the Pilot tests cost about a quarter more
CPU time (docs/performance.md, "The test suite")."""

from __future__ import annotations

import gc

import pytest

from tests import tier
from tests.conftest import GC_THRESHOLDS


def test_tests_run_with_the_suites_gc_thresholds_and_the_imports_frozen() -> None:
    assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_freeze_count() > 10_000        # the modules every test shares are out of the collector's way


def test_the_fast_tier_runs_a_fifth_of_each_property_tests_examples(pytestconfig: pytest.Config) -> None:
    """tests/tier.py: the tier is known before the property tests' settings are made, from `-m`."""
    assert tier.fast == tier.is_fast_tier(str(pytestconfig.getoption("markexpr") or ""))
    assert tier.is_fast_tier("not slow") and tier.is_fast_tier("not  slow and not gui")
    assert not tier.is_fast_tier("") and not tier.is_fast_tier("slow")
    assert [tier.examples(n) for n in (300, 40, 15, 3)] == ([60, 8, 5, 3] if tier.fast else [300, 40, 15, 3])
