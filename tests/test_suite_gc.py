"""The suite's own garbage-collector settings (tests/conftest.py `pytest_collection_finish`) reach every
process that runs tests, xdist's workers included: without them the Pilot tests cost about a quarter more
CPU time (docs/performance.md, "The test suite")."""

from __future__ import annotations

import gc

from tests.conftest import GC_THRESHOLDS


def test_tests_run_with_the_suites_gc_thresholds_and_the_imports_frozen() -> None:
    assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_freeze_count() > 10_000        # the modules every test shares are out of the collector's way
