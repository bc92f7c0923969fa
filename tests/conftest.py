"""The fast test tier (`pytest -m "not slow"`, docs/development.md "Development"): tests that each take seconds are
marked `slow` here, in one list, so the tier stays short as the suite grows. CI runs everything.

Measured 2026-11-26 with `pytest -m "not slow" --durations=60` (the longest; whole app sessions driven
by Pilot, subprocess runs, big fuzz runs). Modules that are slow as a whole mark themselves
(`pytestmark = pytest.mark.slow`)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

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
    # 2026-12-07, issue #32 item 11: the fast tier's shape (docs/performance.md, "The test suite"); each with
    # the cheaper fast test of the same behaviour it leaves in the fast tier
    #   fast: tests/test_conformance_sample.py (the card list regenerated, a record of each group replayed)
    "tests/test_conformance_port.py::test_port_fixtures_are_the_engines_current_output",
    #   fast: test_the_ais_move_line_names_the_ai_once (every move line of a whole match against the AI,
    #   through the model) and test_versus.py::test_the_ais_decisions_show_on_public_facts_only (in the app)
    "tests/tui/test_table_leftovers.py::test_the_status_line_after_an_ai_move_names_it_once_in_the_app",
    #   fast: tests/test_lessons_course.py::test_every_window_entered_is_listed_with_its_rule_even_with_no_decision
    #   (the windows and their rules, from the events), tests/tui/test_pacing_model.py (stepped in the order
    #   entered) and test_snapshots.py::test_learning_flow_handoff[80x24] (the learning flow's hand-off in the app)
    "tests/tui/test_learning.py::test_learning_flow_shows_every_window_as_entered_with_its_rule",
    #   fast: test_table_round2.py::test_the_hand_off_recap_opens_at_its_newest_lines_and_scrolls_at_80x24,
    #   ::test_the_full_log_holds_every_line_and_turn_2_is_found and test_snapshots.py::test_recap_tab_at_80x24
    "tests/tui/test_learning.py::test_recap_at_80x24_opens_at_the_newest_lines_and_w_shows_it_all",
    #   fast: tests/test_own_cards.py::test_an_own_card_taking_a_bundled_id_or_name_names_both_files (the same
    #   message) and this file's other refused own cards shown on the start screen
    "tests/tui/test_start_cards.py::test_an_id_taken_by_a_bundled_card_names_both_files",
    #   fast: test_prompts_round3.py::test_rules_7a_full_control_is_the_choosers_own_and_a_shared_mode_needs_consent
    "tests/tui/test_prompts_round3.py::test_a_shared_flow_change_asks_the_other_player_and_full_control_does_not",
    # 2026-12-07, issue #32 item 11, subprocesses: the command's refusals run in a fork of the test's process
    # (tests/cli_run.py); the real `python -m c1k_tui` twins of those cases wait for the slow tier
    #   fast: test_harden_reads.py::test_a_1_gb_sparse_file_is_refused_from_its_size (every command, forked)
    #   and the first real-command case of a FIFO and of /dev/zero (SAMPLED below)
    "tests/test_harden_reads.py::test_a_1_gb_sparse_file_is_refused_from_its_size_by_the_real_command",
    #   fast: test_cli_conventions.py::test_piped_cards_are_one_unwrapped_line_each (forked) and
    #   ::test_a_closed_pipe_ends_the_command_quietly[cards] (the real command into a real pipe)
    "tests/test_cli_conventions.py::test_piped_cards_are_one_unwrapped_line_each_from_the_real_command",
    # 2026-12-07, issue #32 item 11, the Node port (its fast-tier tests: about 10 s of CPU, one worker)
    #   fast: test_conformance_port.py::test_the_ports_match_log_of_a_sample_is_checked_line_by_line_and_what_
    #   each_player_may_read (the same leak found in a sample of the fixtures; `.ci/run` checks them all)
    "tests/test_conformance_port.py::test_the_ports_match_log_is_checked_line_by_line_and_what_each_player_may_read",
    #   fast: test_conformance_port.py::test_replay_follows_the_shortest_record_of_each_fixture_group_to_its_last_hash
    #   (the port, one record of each group) and tests/test_conformance_sample.py (the Python engine, the same
    #   records); `.ci/run` replays every fixture record with the port (conformance/check)
    "tests/test_conformance_port.py::test_replay_follows_records_of_passes_to_their_last_hash",
    "tests/test_conformance_port.py::test_replay_follows_records_of_plays_of_plain_units_and_relics_to_their_last_hash",
    "tests/test_conformance_port.py::test_replay_follows_greedy_matches_of_plain_units_through_combat_to_their_last_hash",
    "tests/test_conformance_port.py::test_replay_follows_greedy_and_random_matches_of_keyword_units_to_their_last_hash",
    "tests/test_conformance_port.py::test_replay_follows_matches_to_deck_exhaustion_to_their_last_hash",
    "tests/test_conformance_port.py::test_replay_follows_refused_attempts_their_text_and_the_priority_they_cost",
    "tests/test_conformance_port.py::test_replay_follows_a_match_to_an_endless_loop_of_evolutions",
    "tests/test_conformance_port.py::test_replay_follows_matches_of_cards_with_effects_through_triggers_targets_and_the_stack",
    "tests/test_conformance_port.py::test_replay_follows_matches_with_interrupts_asked_used_and_declined",
    "tests/test_conformance_port.py::test_replay_follows_matches_of_flux_thread_and_voidcast",
    "tests/test_conformance_port.py::test_replay_follows_matches_with_trigger_target_and_thread_choices",
    "tests/test_conformance_port.py::test_replay_follows_matches_begun_from_a_scenarios_or_a_lessons_position",
    "tests/test_conformance_port.py::test_replay_keeps_the_file_order_of_a_deck_whose_card_ids_are_all_digits",
    #   fast: test_conformance_port.py::test_the_ci_gate_fails_on_a_tampered_record_and_on_a_record_it_cannot_follow
    #   (the gate's verdicts); `.ci/run` runs the gate on a few hundred fresh records
    "tests/test_conformance_port.py::test_the_ci_gate_passes_a_small_run_of_fresh_records_of_every_kind",
}

#: parametrised matrices of which the fast tier runs the first `n` cases (in the order they are listed) and
#: the slow tier the rest: the same test of the same behaviour on other data (decks, seeds, flows, budgets)
SAMPLED = {
    "tests/test_fast_forward.py::test_fast_forward_is_passing_one_by_one": 2,
    "tests/test_fast_forward.py::test_rollouts_with_the_fast_forward_are_the_same_rollouts": 1,
    "tests/tui/test_flow_model.py::test_a_whole_greedy_match_through_the_model": 1,
    "tests/test_ai_tricks.py::test_a_trick_is_held_in_its_own_main_phase_and_cast_after_blockers_in_the_opponents": 2,
    "tests/test_search_shortcuts.py::test_a_search_that_stops_once_decided_chooses_what_the_full_budget_chooses": 1,
    "tests/tui/test_lab.py::test_a_bad_field_is_a_message": 1,
    # issue #32 item 11, the lead's part: the first two positions (veil-masquerade v null-silence, at the start and
    # after 60 random actions); the other four decks and depths in the slow tier
    "tests/test_rules_7a_card_numbers.py::test_rules_7a_twins_that_differ_only_in_hidden_numbers_read_the_same": 2,
    # 2026-12-07, issue #32 item 11, subprocesses: the real command's first case; every case runs forked in
    # the fast tier (the test of the same name without "real")
    "tests/test_harden_reads.py::test_a_fifo_is_refused_by_name_and_never_read_by_the_real_command": 1,
    "tests/test_harden_reads.py::test_dev_zero_is_refused_as_a_device_by_the_real_command": 1,
    "tests/test_harden_replay_match.py::test_replay_match_refuses_a_fifo_or_device_at_once_in_the_real_command": 1,
    #   the other commands' closed pipes go through the same `main()` (the SIGPIPE setting) as `c1k cards`
    "tests/test_cli_conventions.py::test_a_closed_pipe_ends_the_command_quietly": 1,
    # 2026-12-07, issue #32 item 11, the Node port: the first case of each refusal matrix
    "tests/test_conformance_port.py::test_replay_refuses_an_own_card_whose_whole_number_is_not_one": 1,
    "tests/test_conformance_port.py::test_replay_finds_a_tampered_record_and_names_the_part": 1,
    "tests/test_conformance_port.py::test_replay_refuses_a_malformed_record": 1,
}

#: the larger of the two terminal sizes every screen is tested at (tui.md: 80×24 is the smallest supported)
LARGE, SMALL = "120x40", "80x24"


def fast_tier_exclusions(ids: list[str]) -> set[str]:
    """The test ids (of those collected) that are `slow` besides SLOW and the modules marked slow as a whole:
    the cases of a SAMPLED matrix past its first n, and the 120×40 case of every test parametrised over both
    sizes — its 80×24 twin stays in the fast tier (the tight layout: where a label is cut, a row wraps or a
    key hint drops, the faults that make a size test fail), and each screen keeps 120×40 tests of its own
    (the app's tests run at 120×40 unless they say otherwise: tests/tui/conftest.py SIZE)."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    collected = set(ids)
    for nodeid in ids:
        base, _, params = nodeid.partition("[")
        if base in SAMPLED:
            seen[base] = seen.get(base, 0) + 1
            if seen[base] > SAMPLED[base]:
                out.add(nodeid)
        if LARGE in params and nodeid.replace(LARGE, SMALL) in collected:
            out.add(nodeid)
    return out


def _plain_id(item: pytest.Item) -> str:
    """The test's id without the "@group" pytest-xdist adds to it under `--dist loadgroup`."""
    if item.get_closest_marker("xdist_group") is not None and "@" in item.nodeid:
        return item.nodeid.rpartition("@")[0]
    return item.nodeid


def pytest_configure(config: pytest.Config) -> None:
    """The tier this run is, for the property tests' example counts (tests/tier.py), before any test module
    is imported."""
    from tests import tier

    tier.fast = tier.is_fast_tier(str(config.getoption("markexpr", "") or ""))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ids = [_plain_id(item) for item in items]
    extra = fast_tier_exclusions(ids)
    for item, nodeid in zip(items, ids, strict=True):
        if nodeid.split("[")[0] in SLOW or nodeid in extra:
            item.add_marker(pytest.mark.slow)


def _build_each_typer_command_once() -> None:
    """Typer's CliRunner.invoke builds the click command from the Typer app on every call (≈0.05 s of CPU:
    Typer reads every command's signature and annotations — a third of the CPU of the command line's tests,
    430 builds in the fast tier); the apps don't change while the suite runs, so each is built once and
    every invocation still gets a fresh click context. (typer.testing's own name for the builder, Typer 0.29.)"""
    import typer
    import typer.testing
    from typer.main import get_command as build

    assert hasattr(typer.testing, "_get_command"), "typer.testing no longer builds its command by that name"
    built: dict[int, tuple[typer.Typer, Any]] = {}

    def get_command(app: typer.Typer) -> Any:
        hit = built.get(id(app))
        if hit is None or hit[0] is not app:
            hit = built[id(app)] = (app, build(app))
        return hit[1]

    setattr(typer.testing, "_get_command", get_command)  # noqa: B010 (a private name: mypy won't see it)


_build_each_typer_command_once()


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
