"""Bad input: malformed commands and illegal actions change nothing (beyond C1K §10's priority rule);
broken card, deck, scenario and record files get a message naming the file/line and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.actions import (
    Activate,
    Attack,
    Block,
    Choose,
    Decline,
    IllegalAction,
    Interrupt,
    MalformedCommand,
    Pass,
    Play,
)
from engine.cards import CardFileError, load_card_db, load_card_file
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.record import RecordError
from engine.record import load as load_record
from engine.rng import SplitMix64
from engine.scenario import ScenarioError, load_scenario
from engine.selfplay import random_action
from engine.state import MatchOptions

DB = load_card_db()
DECKS = [load_deck(find_deck(n), DB) for n in ("ironbound", "emberfall")]

VOLATILE = ("priority", "pending", "passed")


def _stable(g: Game) -> dict[str, object]:
    snap = g.snapshot()
    for k in VOLATILE:
        snap.pop(k)
    return snap


def _candidates(g: Game) -> list[object]:
    numbers = sorted(c for c in g.defs if c)
    some = [1, 2, numbers[0], numbers[-1], g.players[0].champion, g.players[1].champion, 9999]
    out: list[object] = [Pass(), Decline(), Choose((1,)), Choose((99,)), Attack(()), Block(())]
    for c in some:
        out += [Play(c), Play(c, 9), Activate(c), Activate(c, 3), Attack((c,)), Block(((c, c),)), Interrupt(c)]
    return out


@pytest.mark.slow   # 300 random states x every candidate action: ~10 s a run
@pytest.mark.parametrize("practice", [False, True])
def test_illegal_actions_in_every_window_change_only_priority(practice: bool) -> None:
    windows_seen: set[str] = set()
    for seed in range(4):
        g = Game.new(DB, DECKS[0], DECKS[1], seed, MatchOptions(practice=practice, max_turns=60))
        agent = SplitMix64(seed)
        steps = 0
        while not g.is_terminal() and steps < 300:
            steps += 1
            if steps % 4:   # probe every 4th state: enough to visit every kind of window
                g.apply(random_action(g, agent))
                continue
            legal = set(map(str, g.legal_actions()))
            stable = _stable(g) | {"record": 0}
            for a in _candidates(g):
                for actor in (0, 1):
                    if str(a) in legal and actor == g.current_player():
                        continue
                    r = g.why_not(a, actor)  # type: ignore[arg-type]
                    if r is None:
                        continue
                    probe = g.clone()
                    held = probe.priority == actor and probe.pending.kind == "priority"
                    with pytest.raises(IllegalAction) as err:
                        probe.apply(a, actor)  # type: ignore[arg-type]
                    assert err.value.rule and err.value.reason
                    assert _stable(probe) | {"record": 0} == stable
                    if held and not practice:
                        assert probe.priority == 1 - actor, f"C1K 10: priority returns to the opponent ({a})"
                    else:
                        assert probe.priority == g.priority and probe.pending == g.pending
                    windows_seen.add(g.window)
            g.apply(random_action(g, agent))
    assert len(windows_seen) >= 9, windows_seen


def test_every_listed_legal_action_has_no_refusal() -> None:
    g = Game.new(DB, DECKS[0], DECKS[1], 21)
    agent = SplitMix64(3)
    for _ in range(600):
        if g.is_terminal():
            break
        for a in g.legal_actions():
            assert g.why_not(a) is None, (a, g.why_not(a))
        g.apply(random_action(g, agent))


def test_malformed_command_changes_nothing() -> None:
    g = Game.new(DB, DECKS[0], DECKS[1], 2)
    before = g.snapshot_bytes()
    for text in ("pley", "play", "p3: pass", 'play "No Such Card"', "attack #99999", "block x y"):
        with pytest.raises(MalformedCommand):
            g.apply_command(text)
        assert g.snapshot_bytes() == before


def test_out_of_turn_command_is_refused_and_changes_nothing() -> None:
    g = Game.new(DB, DECKS[0], DECKS[1], 2)
    other = 1 - g.current_player()
    before = g.snapshot_bytes()
    with pytest.raises(IllegalAction) as err:
        g.apply_command(f"p{other + 1}: pass")
    assert "out of priority order" in str(err.value)
    assert g.snapshot_bytes() == before


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_broken_card_file_names_file_line_card_key_and_suggests(tmp_path: Path) -> None:
    p = write(tmp_path, "bad.toml", """
[[card]]
id = "ok-card"
name = "Ok"
type = "unit"
power = 1
health = 1

[[card]]
id = "bad-card"
name = "Bad"
type = "unti"
cost = 2
powr = 3
keywords = ["toughh"]
abilities = [ { when = "on_pley", effect = [ { do = "damge", target = "enemy_unit" } ] } ]
""")
    with pytest.raises(CardFileError) as err:
        load_card_file(p)
    text = str(err.value)
    assert "bad.toml:12: card 'bad-card'" in text
    assert "did you mean 'unit'" in text
    assert "unknown key 'powr' (did you mean 'power'?)" in text
    assert "did you mean 'tough'" in text
    assert "did you mean 'on_play'" in text
    assert "did you mean 'damage'" in text
    assert "ok-card" not in text


def test_broken_toml_is_reported_not_raised_raw(tmp_path: Path) -> None:
    p = write(tmp_path, "broken.toml", "[[card]\nid = ")
    with pytest.raises(CardFileError) as err:
        load_card_file(p)
    assert "not valid TOML" in str(err.value)


def test_broken_deck_lists_every_problem_with_lines(tmp_path: Path) -> None:
    p = write(tmp_path, "deck.toml", """[deck]
name = "Broken"
champion = "emberlash"
seat = "no-such-seat"
[cards]
"emberlash" = 4
"Briar Scot" = 2
"cinder-wisp" = 1
""")
    with pytest.raises(CardFileError) as err:
        load_deck(p, DB)
    msgs = err.value.problems
    assert any("deck.toml:3" in m and "not a champion" in m for m in msgs)
    assert any("deck.toml:4" in m and "unknown card 'no-such-seat'" in m for m in msgs)
    assert any("deck.toml:7" in m and "did you mean 'Briar Scout'" in m for m in msgs)
    assert any("deck.toml:8" in m and "token" in m for m in msgs)
    assert any("deck.toml:6" in m and "at most 3" in m for m in msgs)
    assert any("exactly 40" in m for m in msgs)


def test_broken_scenario_names_the_key(tmp_path: Path) -> None:
    p = write(tmp_path, "x.scenario.toml", """[scenario]
window = "main.priorty"
[p1]
lif = 3
hand = ["No Such Card"]
[[step]]
do = "p1: pass"
expect.windw = "x"
""")
    with pytest.raises(ScenarioError) as err:
        load_scenario(p, DB)
    text = str(err.value)
    assert "did you mean 'main.priority'" in text
    assert "unknown key 'p1.lif' (did you mean 'life'?)" in text
    assert "unknown card 'No Such Card'" in text
    assert "step[1].expect.windw" in text


def test_broken_record_is_reported(tmp_path: Path) -> None:
    p = write(tmp_path, "r.json", '{"format": "c1k-match-record", "seed": "x"')
    with pytest.raises(RecordError) as err:
        load_record(p)
    assert "r.json:1: not valid JSON" in str(err.value)
    p2 = write(tmp_path, "r2.json", '{"format": "c1k-match-record", "version": 3, "seed": "x", "decks": [], '
                                    '"start": {"hash": "h"}, "commands": []}')
    with pytest.raises(RecordError) as err2:
        load_record(p2)
    assert "r2.json: seed: the seed is a whole number" in str(err2.value)
    assert "r2.json: decks: a match has two decks, not 0" in str(err2.value)


def test_card_set_cross_references_are_checked(tmp_path: Path) -> None:
    from engine.cards import load_card_db

    write(tmp_path, "set.toml", """
[[card]]
id = "caller"
name = "Caller"
type = "action"
speed = "fast"
effect = [ { do = "summon", card = "wisp-of-nothing" } ]

[[card]]
id = "seedling"
name = "Seedling"
type = "unit"
power = 1
health = 1
keywords = ["evolve"]
evolve = { into = "caller", growth = 1 }
""")
    with pytest.raises(CardFileError) as err:
        load_card_db([tmp_path])
    text = str(err.value)
    assert "card 'caller': summons unknown card 'wisp-of-nothing'" in text
    assert "card 'seedling': evolves into 'caller', which is not a unit" in text


def test_a_deck_that_lists_a_card_by_id_and_by_name_names_both_lines(tmp_path: Path) -> None:
    """One card listed twice — by its id and by its name — is refused, not summed or counted twice: the
    error names the second entry's line and the first's, and says what to do. A card listed once by its
    name with too many copies is reported on its own line."""
    p = write(tmp_path, "deck.toml", """[deck]
name = "Twice"
champion = "kaela-emberbrand"
seat = "seat-of-hasty-counsel"
[cards]
"emberlash" = 2
"Briar Scout" = 4
"Emberlash" = 2
""")
    with pytest.raises(CardFileError) as err:
        load_deck(p, DB)
    msgs = err.value.problems
    assert any("deck.toml:8" in m and "'Emberlash' is 'Emberlash', already listed as 'emberlash' on line 6"
               in m and "list each card once" in m for m in msgs), msgs
    assert any("deck.toml:7" in m and "4 copies of 'Briar Scout': at most 3" in m for m in msgs), msgs
    assert any("deck.toml:5: the library has 8 cards (counting 2 of cards listed twice)" in m for m in msgs), msgs
    assert not any("copies of 'Emberlash'" in m for m in msgs), msgs
