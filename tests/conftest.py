"""The fast test tier (`pytest -m "not slow"`, docs/development.md "Development"): tests that each take seconds are
marked `slow` here, in one list, so the tier stays short as the suite grows. CI runs everything.

Measured 2026-11-26 with `pytest -m "not slow" --durations=60` (the longest; whole app sessions driven
by Pilot, subprocess runs, big fuzz runs). Modules that are slow as a whole mark themselves
(`pytestmark = pytest.mark.slow`)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

SLOW = {
    "tests/tui/test_fair_hiding.py::test_same_public_history_same_handoffs",
    "tests/tui/test_flows.py::test_play_respond_resolve_attack_block_damage",
    "tests/tui/test_flows.py::test_resume_after_a_crash_gives_the_same_state_hash",
    "tests/tui/test_flows.py::test_illegal_action_shows_the_engines_reason_and_rule",
    "tests/tui/test_flows.py::test_undo_needs_agreement_and_no_hidden_information",
    "tests/tui/test_flows.py::test_malformed_command_changes_nothing",
    "tests/tui/test_flows.py::test_help_and_cursor_keys_do_not_touch_the_match",
    "tests/tui/test_flows.py::test_practice_mode_refusal_keeps_priority_and_shows_rule",
    "tests/tui/test_input.py::test_game_over_save_field_has_focus_and_swallows_hotkeys",
    "tests/tui/test_input.py::test_undo_request_hides_the_hand_and_asks_the_other_player",
    "tests/tui/test_input.py::test_a_refusal_costs_the_same_typed_or_picked",
    "tests/tui/test_input.py::test_options_dialog_is_keyboard_first_with_glyphs",
    "tests/tui/test_engine_api_only.py::test_every_state_change_comes_from_a_command",
    "tests/tui/test_snapshots.py::test_game_over",
    "tests/test_determinism.py::test_selfplay_output_is_independent_of_hash_seed",
    "tests/test_validate.py::test_fuzz_card_data_is_a_message_never_a_traceback",
    "tests/test_lessons_course.py::test_the_lesson_panel_in_the_app_shows_windows_hints_and_progress",
    "tests/test_simulate.py::test_same_seeds_same_results_whatever_the_workers_and_order",
    "tests/tui/test_versus.py::test_a_whole_short_match_against_the_random_agent_through_the_app",
    "tests/tui/test_versus.py::test_watching_two_agents_pause_step_and_run_to_the_end",
    "tests/tui/test_versus.py::test_cli_ai_vs_ai_piped_prints_the_match_and_saves_its_record",
    # 2026-12-07, `pytest -m "not slow" -n 2 --durations=40` (issue #32 item 11): what grew since
    "tests/test_harden_settings.py::test_lessons_json_never_stops_learn_list",
    "tests/tui/test_fair_hiding.py::test_the_learning_flow_is_fair_too",
    "tests/tui/test_deck_builder.py::test_build_a_legal_deck_from_scratch_and_save_it",
    "tests/test_search_shortcuts.py::test_a_sample_dealt_from_a_plan_is_the_reference_sample",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)


#: the cyclic garbage collector's thresholds while tests run (CPython's default is (700, 10, 10))
GC_THRESHOLDS = (10_000, 10, 10)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What every test shares (the imported modules: Textual, rich, pydantic, the engine) is collected once
    and frozen, and the youngest generation waits for 10,000 allocations instead of 700: the suite's Pilot
    tests allocate many short-lived cycles, and with CPython's defaults the collector spent about a quarter
    of their CPU time scanning the same long-lived objects again (docs/performance.md, "The test suite").
    No test depends on when garbage is collected; the app's own settings are untouched."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file the app writes (autosaves, player options, lesson progress) goes to the test's own
    folder, never to the user's, and never to a folder another test is using at the same moment: the
    suite runs on several processes at once (pytest-xdist, docs/development.md). Subprocesses inherit
    it. A test about the real folders unsets it itself (tests/tui/test_dirs.py)."""
    monkeypatch.setenv("C1K_HOME", str(tmp_path / "c1k-home"))
