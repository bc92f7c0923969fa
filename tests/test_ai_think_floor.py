"""The AI's thinking floor as plain Python (c1k_tui/model/pacing.py; rules.md §7a, issue #28 item 6).

With hands hidden, when an AI answer shows must not tell whether it had a choice: the floor applies
whatever `--pace` says (a pace can only make it slower), it covers the level's slowest measured search
(docs/ai.md), and an answer that still outlasts it shows at the next multiple of the floor."""

from __future__ import annotations

import re
from pathlib import Path

from c1k_tui.model.pacing import FAST_FLOOR_MS, LEVEL_FLOOR_MS, ThinkFloor, shown_after_ms, think_floor_ms
from engine.rng import SplitMix64

ROOT = Path(__file__).resolve().parent.parent


def test_7a_pace_zero_does_not_turn_the_floor_off_with_hands_hidden() -> None:
    for level, floor in LEVEL_FLOOR_MS.items():
        assert think_floor_ms(0, [floor], hidden=True) == floor, level
        assert think_floor_ms(150, [floor], hidden=True) == floor, "a faster pace doesn't lower it"
        assert think_floor_ms(floor + 1000, [floor], hidden=True) == floor + 1000, "a slower pace wins"
    assert think_floor_ms(0, [0], hidden=True) == FAST_FLOOR_MS, "random and greedy too"
    assert think_floor_ms(0, [LEVEL_FLOOR_MS[3]], hidden=False) == 0, "open hands: nothing to hide"
    assert think_floor_ms(700, [LEVEL_FLOOR_MS[3]], hidden=True, watch=True) == 0, "watching: the watch pace"


def test_7a_a_forced_answer_and_a_searched_one_show_at_the_same_time() -> None:
    """Twins: the same decision forced (0.2 ms) or searched (anything under the floor) — the same wait."""
    rng = SplitMix64(28)
    for floor in LEVEL_FLOOR_MS.values():
        forced = ThinkFloor(floor)
        at_forced = 0.2 + forced.hold_ms(0.2)
        for _ in range(200):
            took = rng.below(floor * 1000) / 1000
            searched = ThinkFloor(floor)
            assert took + searched.hold_ms(took) == at_forced == floor
            assert searched.slow == 0


def test_7a_a_late_answer_shows_at_a_multiple_of_the_floor_that_hides_its_length() -> None:
    rng = SplitMix64(7)
    for floor in LEVEL_FLOOR_MS.values():
        for _ in range(200):
            took = floor + rng.below(5 * floor * 1000) / 1000
            at = shown_after_ms(took, floor)
            assert at % floor == 0 and at >= took and at - took < floor + 1
        t = ThinkFloor(floor)
        assert 1.3 * floor + t.hold_ms(1.3 * floor) == 2 * floor and t.slow == 1
        assert t.floor_ms == 2 * floor, "the floor rises to the multiple for the rest of the match"
        assert 0.2 + t.hold_ms(0.2) == 1.9 * floor + t.hold_ms(1.9 * floor) == 2 * floor, "then forced = searched"


def test_each_level_floor_covers_its_measured_slowest_search_with_room() -> None:
    """docs/ai.md's table of measured decision times is the floors' source: each level's floor is at least
    2.5 times the most CPU time a decision took there (a search keeps its length on a machine that gives
    the game 40% of a core), and the table names the floor the code has."""
    text = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `search:(\d)` \| (\d+) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| ([\d.]+) \| (\d+) \|", text, re.M)
    assert sorted(int(r[0]) for r in rows) == sorted(LEVEL_FLOOR_MS), "a measured row for every level"
    for level, n, cpu_max, floor in rows:
        assert int(n) >= 30, f"search:{level}: too few decisions measured"
        assert int(floor) == LEVEL_FLOOR_MS[int(level)], f"search:{level}: the table and the code disagree"
        assert LEVEL_FLOOR_MS[int(level)] >= 2.5 * float(cpu_max), f"search:{level}: too little room"
    fast = re.search(r"^\| `greedy` \| (\d+) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| ([\d.]+) \| (\d+) \|", text, re.M)
    assert fast is not None and int(fast.group(3)) == FAST_FLOOR_MS >= 2.5 * float(fast.group(2))
