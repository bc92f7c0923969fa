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
    #   fast (the same leak found in a sample of the fixtures; `.ci/run` checks them all):
    #   test_conformance_port.py::test_the_ports_match_log_of_a_sample_is_checked_line_by_line_and_what_each_player_may_read
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
    # 2026-12-07, issue #32 item 11, the app's Pilot tests (each starts the app: ~1 s of CPU and ~2 s of wall
    # waiting for idle). What the model decides (c1k_tui/model/) is tested there; each screen or behaviour
    # family keeps one or two app tests of its wiring (keys reach the model, the screen shows its words), and
    # the snapshot tests keep their 80×24 twins. Each entry names its fast stand-in.
    #   fast: test_snapshots.py::test_match_screen_sizes[80x24] and ::test_handoff_with_recap[80x24] (the same
    #   screens at the tight size); ::test_rules_panel_with_why_not_at_80x24 (the stack and the panel beside it)
    "tests/tui/test_snapshots.py::test_main_screen",
    "tests/tui/test_snapshots.py::test_handoff_screen",
    "tests/tui/test_snapshots.py::test_stack_with_three_items",
    #   fast: the same pictures' screens in test_snapshots.py (match screen, learning flow at 80×24)
    "tests/tui/test_readme_pictures.py::test_readme_match",
    "tests/tui/test_readme_pictures.py::test_readme_lesson",
    #   fast: test_versus.py::test_rules_7a_nothing_of_the_ai_hand_in_the_humans_view_recap_or_move_lines (the
    #   same match through the model), ::test_the_ais_decisions_show_on_public_facts_only (rules.md §7a against
    #   the AI, in the app), tests/test_hidden_information.py (no event a player may read names a hidden card),
    #   test_seat_policy.py, test_undo_public.py (undo against the AI on public facts), test_opponent_specs,
    #   ::test_the_ai_thinks_in_a_worker_and_the_human_waits and test_versus_snapshots.py::test_vs_ai_screen[80x24]
    "tests/tui/test_versus.py::test_nothing_of_the_ai_hand_in_any_screen_log_line_or_recap",
    "tests/tui/test_versus.py::test_the_start_screen_offers_an_ai_opponent",
    "tests/tui/test_versus.py::test_undo_goes_back_to_the_humans_last_decision",
    "tests/tui/test_versus.py::test_when_the_ai_begins_it_moves_at_once_and_the_human_sees_only_their_view",
    "tests/tui/test_versus.py::test_open_hands_against_the_ai_shows_its_hand_and_says_so",
    "tests/tui/test_versus_snapshots.py::test_vs_ai_after_the_ai_answered",
    #   fast: test_harden_ai_seat.py::test_each_level_has_a_floor_above_its_longest_search_whatever_the_pace (the
    #   floor, in the model) and test_versus.py::test_the_ais_decisions_show_on_public_facts_only (held in the app)
    "tests/tui/test_harden_ai_seat.py::test_forced_and_searched_answers_show_after_the_same_time_at_level_4",
    "tests/tui/test_harden_ai_seat.py::test_a_search_longer_than_the_floor_shows_at_the_next_multiple_and_raises_it",
    #   fast: test_table_round2.py::test_enter_on_the_first_field_of_the_start_screen_starts_the_match[80x24] (the
    #   start screen's Enter) and test_start_cards.py::test_a_path_that_is_not_there_is_a_message_and_nothing_typed_is_lost
    "tests/tui/test_table_round2.py::test_enter_on_a_start_screen_button_presses_that_button",
    "tests/tui/test_table_round2.py::test_down_opens_the_deck_list_and_enter_there_picks_a_deck",
    #   fast: test_table_round2.py::test_review_returns_to_the_game_over_screen (the game-over screen, its keys),
    #   test_table_leftovers.py::test_the_table_and_the_text_loop_say_the_same_result (its words, in the model)
    #   and tests/test_tui_round3_one_guard.py (no key acts on a game-over screen unseen, in the model)
    "tests/tui/test_table_round2.py::test_game_over_names_once_life_totals_and_damage_apart",
    "tests/tui/test_table_round2.py::test_no_hotkey_types_into_the_save_field_and_r_rematches",
    "tests/tui/test_input.py::test_game_over_save_field_swallows_hotkeys",
    "tests/tui/test_key_epochs.py::test_game_over_keys_wait_for_the_screen_to_be_seen",
    #   fast: test_table_round2.py::test_a_harmful_target_prompt_starts_on_the_opponents_first_unit_and_skips_the_rest
    #   (the target prompt's first target, by what the effect does)
    "tests/tui/test_table_round2.py::test_a_healing_target_prompt_starts_on_your_own_side",
    #   fast: test_block_pairing_refusals.py (blocking in the app) and tests/test_tui_round3_one_guard.py
    "tests/tui/test_table_round2.py::test_a_block_moves_the_cursor_to_the_attackers_it_may_block",
    #   fast: tests/test_rules_7a_public_choices.py::test_rules_7a_a_thread_mode_is_public_in_words_on_the_stack_and_in_the_log
    "tests/tui/test_table_round2.py::test_thread_modes_are_words_in_the_picker_on_the_stack_and_in_the_hand_off_recap",
    #   fast: test_table_round2.py::test_completion_names_only_cards_the_typist_may_see_and_cycles, test_suggester.py,
    #   test_table_model.py::test_a_typed_command_is_checked_as_its_typist_without_sending and
    #   test_harden_command_line.py::test_the_command_line_stops_at_the_engines_cap (the command line in the app)
    "tests/tui/test_table_round2.py::test_tab_completes_names_only_from_what_the_typist_may_see",
    "tests/tui/test_table_round2.py::test_a_refused_typed_command_stays_for_editing_and_up_recalls_only_your_own",
    #   fast: test_lab.py::test_lab_results_snapshot[80x24] (a run from the keys to the results), the first case
    #   of ::test_a_bad_field_is_a_message (the form refuses in words),
    #   ::test_run_jobs_with_a_pool_stops_when_cancelled (the cancel), tests/test_simulate.py (the report, compare),
    #   test_deck_builder.py (the builder; ::test_saving_over_a_file_asks_first_and_no_keeps_it[80x24], the save
    #   dialog the Lab shares), test_deckbuild.py::test_save_never_replaces_a_file_unless_told
    "tests/tui/test_lab.py::test_a_tiny_simulation_in_the_lab_gives_the_report_of_c1k_simulate",
    "tests/tui/test_lab.py::test_cancel_stops_the_run_cleanly_and_keeps_what_was_played",
    "tests/tui/test_lab.py::test_the_start_screen_opens_the_lab_and_esc_comes_back",
    "tests/tui/test_lab.py::test_marked_decks_show_a_check_glyph_and_unmarked_a_blank_box",
    "tests/tui/test_lab.py::test_plots_and_tables_fit_the_panel",
    "tests/tui/test_lab.py::test_deck_files_and_own_cards_join_a_run",
    "tests/tui/test_lab.py::test_save_asks_before_replacing_and_no_keeps_the_files",
    "tests/tui/test_lab.py::test_f5_builds_a_deck_and_the_saved_file_joins_the_list_marked",
    "tests/tui/test_lab.py::test_compare_mode_gives_the_compare_section_of_c1k_simulate_compare",
    "tests/tui/test_lab.py::test_enter_on_a_match_opens_its_replay_and_esc_comes_back",
    "tests/tui/test_lab.py::test_pgdn_scrolls_the_results_wherever_the_focus_is",
    #   fast: tests/test_own_cards.py (unknown without them, relative card files, played in the text loop),
    #   test_deckbuild.py::test_own_cards_join_the_pool_and_a_deck_keeps_its_card_files and
    #   test_start_cards.py::test_a_path_that_is_not_there_is_a_message_and_nothing_typed_is_lost (the field in the app)
    "tests/tui/test_start_cards.py::test_typed_own_cards_load_offer_their_decks_and_the_match_plays_with_them",
    "tests/tui/test_start_cards.py::test_a_deck_of_own_cards_without_them_names_the_deck_file_the_line_and_the_card",
    "tests/tui/test_start_cards.py::test_a_deck_that_names_its_card_files_fills_the_field_and_another_deck_empties_it",
    "tests/tui/test_start_cards.py::test_start_screen_with_own_cards_snapshot",
    "tests/tui/test_start_cards.py::test_cards_from_the_command_line_fill_the_field",
    "tests/tui/test_start_cards.py::test_back_on_the_start_screen_after_a_match_the_deck_file_and_own_cards_are_still_there",
    "tests/tui/test_start_cards.py::test_the_deck_builder_and_the_lab_see_the_own_cards_and_come_back_to_the_screen_as_it_was",
    #   fast: tests/test_deckbuild.py (pool, filters, counts, save that never replaces unless told, opening by
    #   name), test_deck_builder.py::test_preview_snapshot[80x24], ::test_a_bad_cost_filter_is_a_message and
    #   ::test_saving_over_a_file_asks_first_and_no_keeps_it[80x24] (ask_save_path, which the Lab and the
    #   game-over screen's save-as share: a file there is replaced only after a yes)
    "tests/tui/test_deck_builder.py::test_start_screen_f5_opens_the_builder_and_esc_comes_back",
    "tests/tui/test_deck_builder.py::test_builder_snapshot",
    "tests/tui/test_deck_builder.py::test_open_a_deck_by_name_and_leaving_with_changes_asks",
    "tests/tui/test_deck_builder.py::test_the_cost_filter_looks_empty_when_it_is",
    "tests/tui/test_deck_builder.py::test_the_preview_shows_the_highlighted_card_and_follows_the_cursor",
    "tests/tui/test_harden_save_as.py::test_save_as_asks_before_replacing_a_file_that_isnt_a_record",
    #   fast: tests/test_lessons_*.py (goals, questions, lost lessons, giveaways, the debrief, in the model),
    #   test_lessons.py::test_lesson_complete_at_80x24_snapshot, ::test_f3_shows_the_way_not_the_answer_to_an_open_question
    #   and ::test_the_lessons_screen_marks_a_lesson_done_only_after_a_wrong_answer (lessons in the app)
    "tests/tui/test_lessons.py::test_lesson_in_the_app_with_full_control",
    "tests/tui/test_lessons.py::test_enter_on_a_refused_card_sends_it_in_the_refusal_lesson",
    "tests/tui/test_lessons.py::test_undo_in_a_lesson_asks_no_one_and_the_prompt_opens_again",
    "tests/tui/test_lessons.py::test_a_lost_lesson_coaches_and_undo_gets_it_back",
    "tests/tui/test_lessons.py::test_a_question_is_answered_in_the_app",
    "tests/tui/test_lessons.py::test_the_lessons_screen_offers_the_learning_flow_against_the_ai",
    "tests/tui/test_lessons.py::test_the_lesson_pane_shows_goal_step_hint_and_debrief",
    "tests/tui/test_lessons.py::test_no_toast_covers_the_debrief",
    "tests/test_lessons_course.py::test_the_timing_violation_lesson_can_be_played_in_the_app",
    "tests/tui/test_prompts_round3.py::test_c1k_9_the_flux_order_lesson_is_done_from_the_dialog",
    #   fast: tests/test_lessons_course.py::test_every_window_entered_is_listed_with_its_rule_even_with_no_decision,
    #   test_pacing_model.py, test_recap.py's model tests, test_snapshots.py::test_learning_flow_handoff[80x24] and
    #   ::test_recap_tab_at_80x24; the rule browser in the app: tests/test_rules_doc.py::test_the_rule_browser_opens_a_rule_and_searches
    "tests/tui/test_learning.py::test_learning_flow_is_offered_and_recorded",
    "tests/tui/test_learning.py::test_recap_with_open_hands_shows_both_sides_private_events_and_says_so",
    "tests/tui/test_learning.py::test_keyword_rule_ids_on_a_card_open_their_rules",
    "tests/tui/test_recap.py::test_recap_on_the_handoff_and_the_screen_after_it_in_order",
    "tests/tui/test_recap.py::test_first_screen_shows_the_opening_hand_and_turn_1",
    "tests/tui/test_rule_search.py::test_the_browser_opens_in_the_search_field_and_shows_snippets",
    #   fast: tests/test_tui_round3_one_guard.py (no key acts on a screen unseen: hand-offs, banners, double
    #   presses, over every flow, in the model), test_handoff_guard.py::test_space_never_dismisses_a_handoff,
    #   ::test_keys_pressed_while_the_engine_advances_are_dropped and
    #   test_key_epochs.py::test_every_kind_of_key_message_is_dropped_once_the_screen_changed (the guard in the app)
    "tests/tui/test_handoff_guard.py::test_a_double_press_on_the_table_stops_at_the_handoff",
    "tests/tui/test_handoff_guard.py::test_enter_twice_at_a_handoff_plays_no_card",
    "tests/tui/test_handoff_guard.py::test_a_second_enter_on_begin_plays_no_card_on_the_first_table",
    "tests/tui/test_key_epochs.py::test_a_double_enter_on_the_turn_banner_plays_nothing",
    "tests/tui/test_table_leftovers.py::test_a_double_space_never_passes_for_the_player_behind_the_hand_off",
    #   fast: tests/test_tui_round3_one_guard.py::test_tui_round3_leaving_says_how_to_come_back
    "tests/tui/test_key_epochs.py::test_ctrl_q_asks_before_it_ends_a_match_and_says_how_to_come_back",
    #   fast: test_input.py::test_number_keys_select_and_enter_plays (keys to commands), test_pacing_model.py and
    #   ::test_no_pacing_step_acts_once_its_match_screen_is_gone (pacing in the app), test_prefs.py's model tests
    #   (options by player, a broken options file, ::test_a_failed_autosave_is_one_notice_a_title_mark_and_the_game_overs_hint),
    #   tests/test_harden_settings.py, test_table_leftovers.py::test_the_80x24_footer_keeps_quit_while_a_target_or_slot_is_picked
    "tests/tui/test_input.py::test_quick_play_restores_one_key_plays",
    "tests/tui/test_input.py::test_pacing_steps_the_phase_bar_through_passed_windows",
    "tests/tui/test_input.py::test_multi_choice_is_keyboard_first_with_glyphs",
    "tests/tui/test_input.py::test_space_at_a_declaration_names_the_keys_that_answer_it",
    "tests/tui/test_prefs.py::test_options_dialog_saves_each_players_quick_play_and_pace",
    "tests/tui/test_prefs.py::test_a_broken_options_file_is_a_notice_not_a_traceback",
    "tests/tui/test_prefs.py::test_failed_autosave_is_shown_and_the_match_goes_on",
    "tests/tui/test_sizes_round3.py::test_the_80x24_footer_keeps_quit",
    "tests/tui/test_table_leftovers.py::test_every_options_label_is_whole_at_both_sizes",
    #   fast: test_prompts_round3.py's model tests (order and discard choices) and
    #   test_table_leftovers.py::test_c1k_9_enter_on_an_unmarked_order_says_how_to_mark_it_and_sends_nothing
    "tests/tui/test_prompts_round3.py::test_c1k_7_after_esc_on_an_interrupt_prompt_the_footer_says_how_to_reopen_it",
    "tests/tui/test_table_leftovers.py::test_enter_in_the_order_dialog_with_nothing_marked_says_what_to_do",
    #   fast: test_sizes_round3.py::test_a_tenth_hand_card_has_a_key, ::test_hand_names_win_over_ids_when_a_cell_is_short
    #   (the hand's cells, in the model), test_table_round2.py::test_a_refusal_wraps_to_a_second_row_and_keeps_its_rule_id[80x24]
    #   and test_table_leftovers.py::test_the_opponents_hand_ids_never_show_while_hidden (the hand in the app)
    "tests/tui/test_sizes_round3.py::test_a_ten_card_hand_reads_at_80x24",
    "tests/tui/test_sizes_round3.py::test_a_two_row_refusal_at_80x24_hides_no_hand_row",
    "tests/tui/test_table_leftovers.py::test_each_hand_card_shows_the_id_play_takes",
    #   fast: tests/test_hidden_information.py::test_a_set_card_stays_hidden_and_refusals_never_name_a_hidden_card
    #   (KW Set) and test_snapshots.py (an open-hands table: ::test_seven_slots_and_two_copies[80x24])
    "tests/tui/test_flows.py::test_set_a_card_with_s_then_play_it_from_the_set_zone_at_fast_speed",
    "tests/tui/test_flows.py::test_open_hands_shows_no_handoff_and_both_hands",
    #   fast: test_pass_until.py's 12 model tests
    "tests/tui/test_pass_until.py::test_the_p_key_opens_the_chooser_and_sends_the_choice",
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
