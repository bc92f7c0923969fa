"""The TypeScript port of the engine (conformance/PORT.md, issue #33): its fixtures are the Python engine's
current output, and `conformance/replay` follows records of passes to their last hash and never passes a
record it can't follow — a tampered record differs (exit 1), a broken one is refused (exit 2), a command
the port lacks is named (exit 3)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import record as rec
from engine.cards import bundled_cards_dir, load_card_db
from engine.game import Game
from engine.record import load, replay
from tests.helpers import bench_module

ROOT = Path(__file__).resolve().parent.parent
PORT = ROOT / "conformance"
RECORD = PORT / "fixtures" / "records" / "random-0.json"

#: every test here may build the port (npm ci, tsc): one xdist worker runs them all, so that two never build
#: in the same folder at once (on a fresh checkout the README's test command starts with no node_modules)
pytestmark = pytest.mark.xdist_group("node-build")

needs_node = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="conformance/replay needs Node.js and npm")


def test_port_fixtures_are_the_engines_current_output(tmp_path: Path) -> None:
    """conformance/fixtures.py regenerates every fixture byte for byte (stale fixtures fail here)."""
    subprocess.run([sys.executable, str(PORT / "fixtures.py"), str(tmp_path)], check=True, cwd=ROOT,
                   env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=600)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.json"))
    assert made == sorted(p.relative_to(PORT / "fixtures") for p in (PORT / "fixtures").rglob("*.json"))
    for rel in made:
        assert (tmp_path / rel).read_bytes() == (PORT / "fixtures" / rel).read_bytes(), (
            f"conformance/fixtures/{rel} is stale: run `python conformance/fixtures.py` and commit it")


def _log_check(tmp_path: Path, sample: bool) -> None:
    """layers.ts over a copy of the fixtures whose log of the first record has p1's view of p2's draw naming
    the card; with `sample`, every fixture file of many cases cut to its first few (the tampered record's
    log among them), so that the port's layers run in a fraction of a second."""
    fixtures = tmp_path / "fixtures"
    shutil.copytree(PORT / "fixtures", fixtures)
    logs = json.loads((fixtures / "logs.json").read_text(encoding="utf-8"))
    first = logs["records"][0]
    private = next(e for e in first["events"] if e[0] == "draw" and e[5] == 1)   # a draw of p2's
    line = first["views"]["0"].index(private[7]) + 1
    first["views"]["0"][line - 1] = private[6]
    if sample:
        logs["records"], logs["scenarios"] = logs["records"][:1], logs["scenarios"][:1]
        for name, key in SAMPLED_LAYERS.items():
            data = json.loads((fixtures / name).read_text(encoding="utf-8"))
            data[key] = data[key][:3]
            (fixtures / name).write_text(json.dumps(data), encoding="utf-8")
    (fixtures / "logs.json").write_text(json.dumps(logs), encoding="utf-8")
    res = subprocess.run(["bash", "-c", '. ./build.sh && node dist/layers.js "$1"', "layers", str(fixtures)],
                         capture_output=True, text=True, cwd=PORT, timeout=600)
    assert res.returncode == 1, res.stdout + res.stderr
    assert f"FAIL logs.json {first['record']}: the log p1 reads: line {line} of " in res.stdout, res.stdout[-2000:]
    assert res.stdout.count("FAIL ") == 1 and "port layers: " in res.stdout


#: the fixture files of many cases whose first few the fast tier's layers test keeps (the CPU of the rest:
#: loop keys 2.2 s, suggestions 1.3 s, logs 3 s; `.ci/run` checks them all, conformance/check)
SAMPLED_LAYERS = {"loop-keys.json": "keys", "loop-keys-effects.json": "keys", "suggestions.json": "cases"}


@needs_node
def test_the_ports_match_log_is_checked_line_by_line_and_what_each_player_may_read(tmp_path: Path) -> None:
    """layers.ts checks the whole match log of records and scenarios (fixtures/logs.json) against the port's:
    a log whose expected line differs — here p1's view of p2's draw naming the card, a hidden-information
    leak the port must not copy (rules.md §7a) — fails, naming the record, the view and the line."""
    _log_check(tmp_path, sample=False)


@needs_node
def test_the_ports_match_log_of_a_sample_is_checked_line_by_line_and_what_each_player_may_read(
        tmp_path: Path) -> None:
    """The same leak found in a sample of the fixtures (the tampered record's log, a scenario's, the first
    few loop keys and suggestions; every other layer whole)."""
    _log_check(tmp_path, sample=True)


def _replay(*paths: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(PORT / "replay"), *map(str, paths)], capture_output=True, text=True,
                          timeout=600)


def _replays_to_the_end(pattern: str, count: int = 3) -> list[dict[str, Any]]:
    """Replays the `count` fixture records matching `pattern` (each to its last hash); returns them."""
    records = sorted((PORT / "fixtures" / "records").glob(pattern))
    res = _replay(*records)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count(": every hash matches (the first state and ") == len(records) == count, res.stdout
    return [json.loads(r.read_text(encoding="utf-8")) for r in records]


@needs_node
def test_replay_follows_the_shortest_record_of_each_fixture_group_to_its_last_hash() -> None:
    """One record of every group of fixtures/records (the shortest: the groups' own tests below replay them
    all, in the slow tier), in one run of the port: each to its last hash."""
    groups: dict[str, list[Path]] = {}
    for path in sorted((PORT / "fixtures" / "records").glob("*.json")):
        groups.setdefault(path.stem.rsplit("-", 1)[0], []).append(path)
    assert {"passes", "plays", "combat", "keywords-greedy", "keywords-random", "keywords-options", "exhaustion",
            "evolve-loop", "effects", "counters", "paradox", "own", "refusals", "scenario", "digits",
            "random"} <= set(groups)
    shortest = [min(paths, key=lambda p: len(json.loads(p.read_text(encoding="utf-8"))["commands"]))
                for paths in groups.values()]
    res = _replay(*shortest)
    assert res.returncode == 0, res.stdout + res.stderr
    for p in shortest:
        assert f"ok {p}: every hash matches (the first state and " in res.stdout, (p.name, res.stdout)


@needs_node
def test_replay_follows_records_of_passes_to_their_last_hash() -> None:
    _replays_to_the_end("passes-*.json")


@needs_node
def test_replay_follows_records_of_plays_of_plain_units_and_relics_to_their_last_hash() -> None:
    for data in _replays_to_the_end("plays-*.json"):   # each has plays, of own cards (their definitions in it)
        assert sum(": play #" in c["do"] for c in data["commands"]) >= 10
        assert data["cards"]["defs"]


@needs_node
def test_replay_follows_greedy_matches_of_plain_units_through_combat_to_their_last_hash() -> None:
    texts = [[c["do"] for c in data["commands"]] for data in _replays_to_the_end("combat-*.json")]
    for t in texts:   # each has attacks and blocks, and most end with a defeated Champion
        assert sum(": attack #" in x for x in t) >= 5 and sum(": block #" in x for x in t) >= 5
    assert sum(len(t) < 300 for t in texts) >= 2


def _python_replays(pattern: str) -> list[Game]:
    """The Python engine's replay of each fixture record matching `pattern` (its own cards included)."""
    db = load_card_db([bundled_cards_dir(), PORT / "fixtures" / "vanilla" / "cards", PORT / "fixtures" / "keywords" / "cards"])
    return [replay(load(p), db) for p in sorted((PORT / "fixtures" / "records").glob(pattern))]


@needs_node
def test_replay_follows_greedy_and_random_matches_of_keyword_units_to_their_last_hash() -> None:
    """The spine (turn, priority, combat, keywords, state-based actions, Seat turn hooks): every record of
    the keyword decks, greedy and random, some with other match options (the actor keeps priority, a turn
    limit, small boards), is a whole match, and the port follows each to its last hash."""
    records = _replays_to_the_end("keywords-*.json", 15)
    for data in records:   # (each ends, long before the 600-command cap; 3 with other match options)
        assert len(data["commands"]) < 600
    assert any(d["decks"][0]["seat"] == "seat-of-the-twin-banners" for d in records)   # turn hooks
    words = {e.rule for g in _python_replays("keywords-*.json") for e in g.events if e.rule.startswith("KW ")}
    assert {"KW Barrier", "KW Ward", "KW Wither", "KW Decay", "KW Veilbind", "KW Evolve", "KW Growth", "KW Pulse",
            "KW Regeneration", "KW Rally", "KW Lifedrain"} <= words, words


@needs_node
def test_replay_follows_matches_to_deck_exhaustion_to_their_last_hash() -> None:
    _replays_to_the_end("exhaustion-*.json", 2)
    for g in _python_replays("exhaustion-*.json"):
        assert g.outcome is not None and g.outcome.winner is not None
        assert g.players[1 - g.outcome.winner].exhaustions >= 2   # it lost to Deck Exhaustion


@needs_node
def test_replay_follows_refused_attempts_their_text_and_the_priority_they_cost() -> None:
    """C1K 10: a refused attempt is in the record with its rule and reason (in the command hash) and passes
    priority; the port refuses each with the same words (many rules: cost, speed, zones, hidden cards …)."""
    refused = [c["refused"] for data in _replays_to_the_end("refusals-*.json") for c in data["commands"]
               if c.get("refused")]
    assert len(refused) >= 200
    rules = {r.split(":")[0] for r in refused}
    assert {"AS Unit play", "OPP Slow", "COST", "KW Set", "ACT 1", "C1K 4.1", "C1K 4.2", "C1K 7"} <= rules, rules


@needs_node
def test_replay_follows_a_match_to_an_endless_loop_of_evolutions() -> None:
    """rules.md §1: two own cards that evolve into each other; the first one played ends the match in a
    draw (endless_loop), and the port follows the record to that last hash."""
    _replays_to_the_end("evolve-loop-*.json", 1)
    [g] = _python_replays("evolve-loop-*.json")
    assert g.outcome is not None and g.outcome.termination.value == "endless_loop" and g.outcome.winner is None


@needs_node
def test_replay_follows_matches_of_cards_with_effects_through_triggers_targets_and_the_stack() -> None:
    """Greedy and random matches of fixtures/effects/ (bundled cards whose plays have effects) replay to their
    last hash, and they hold what the layer ports (counted from the Python engine's own events): triggered
    abilities put on the stack, targets named in commands, random targets and discards drawn from the
    generator, summoned tokens, buffs, heals and destroyed units, play permissions (a card played by one
    during a resolution, and duration permissions kept by a player)."""
    db = load_card_db([bundled_cards_dir(), PORT / "fixtures" / "vanilla" / "cards"])
    seen: dict[str, int] = {}
    for data in _replays_to_the_end("effects-*.json"):   # each with targets, and the Champion's ability used
        assert sum(" target #" in c["do"] for c in data["commands"]) >= 3
        assert sum(": activate #" in c["do"] for c in data["commands"]) >= 2
    for path in sorted((PORT / "fixtures" / "records").glob("effects-*.json")):
        events = list(rec.replay(rec.load(path), db).events)
        assert sum(e.kind == "trigger" for e in events) >= 10
        for what in ("random target", "(summoned)", "at random", " gets ", " heals ", "is destroyed", "by permission",
                     "may play"):
            seen[what] = seen.get(what, 0) + sum(what in e.text for e in events)
    assert all(seen.values()), seen


@needs_node
def test_replay_follows_matches_with_interrupts_asked_used_and_declined() -> None:
    """Matches against fixtures/effects/counters.toml replay to their last hash: a Nullify Action used from the
    hand and a relic's Interrupt counter Actions, Interrupts answer declared attackers (C1K 7), and a player
    whose hand holds no usable Interrupt is still asked while a Nullify card of theirs is hidden in the
    library (rules.md §7a), and declines."""
    for data in _replays_to_the_end("counters-*.json"):
        texts = [c["do"] for c in data["commands"]]
        assert sum(": interrupt #" in t for t in texts) >= 1 and sum(t.endswith(": decline") for t in texts) >= 1
    db = load_card_db([bundled_cards_dir(), PORT / "fixtures" / "vanilla" / "cards"])
    events = {g.intr.event for path in sorted((PORT / "fixtures" / "records").glob("counters-*.json"))
              for g in rec.replay_iter(rec.load(path), db) if g.intr is not None}
    assert events == {"opponent_plays_action", "attacker_declared"}, events


@needs_node
def test_replay_follows_matches_of_flux_thread_and_voidcast() -> None:
    """Matches of fixtures/effects/paradox.toml replay to their last hash, and they hold Paradox's and
    Voidcast's rules (counted from the Python engine's own events): Flux outcomes drawn from the generator
    and redrawn by a reroll Interrupt, a player ordering their simultaneous Flux triggers (the `order`
    choice), Thread cards played with a mode whose branch resolves later, a Voidcast Action to the Void."""
    db = load_card_db([bundled_cards_dir(), PORT / "fixtures" / "vanilla" / "cards"])
    for data in _replays_to_the_end("paradox-*.json"):
        assert sum(" mode " in c["do"] for c in data["commands"]) >= 1
    seen: dict[str, int] = {}
    for path in sorted((PORT / "fixtures" / "records").glob("paradox-*.json")):
        events = list(rec.replay(rec.load(path), db).events)
        for what in ("Flux: outcome", "drawn again", "orders the Flux", "Thread: ", "moves to the Void"):
            seen[what] = seen.get(what, 0) + sum(what in e.text for e in events)
    assert all(seen.values()) and seen["Flux: outcome"] >= 10, seen


@needs_node
def test_replay_follows_matches_with_trigger_target_and_thread_choices() -> None:
    """Matches of fixtures/effects/paradox-own.toml (own cards) replay to their last hash, and in them players
    choose a death trigger's target as it goes on the stack and the branch of a Thread in a triggered ability
    (the choices no bundled card reaches)."""
    db = load_card_db([bundled_cards_dir(), PORT / "fixtures" / "vanilla" / "cards", PORT / "fixtures" / "effects" / "cards"])
    for data in _replays_to_the_end("own-*.json"):
        assert data["cards"]["defs"]   # the own cards travel with the record
    kinds = {g.choice.kind for path in sorted((PORT / "fixtures" / "records").glob("own-*.json"))
             for g in rec.replay_iter(rec.load(path), db) if g.choice is not None and g.pending.kind == "choice"}
    assert {"trigger_target", "thread"} <= kinds, kinds


@needs_node
def test_replay_follows_a_refused_attempt_and_names_what_it_cannot_follow(tmp_path: Path) -> None:
    """A record whose player tried a command the rules refuse (C1K 10: priority passes) replays to its last
    hash, the refusal's words included; a record that needs what the port does not judge (an inline card's text
    with a letter beyond ASCII) exits 3 naming it, never passing; one whose card Python refuses is malformed."""
    from engine.actions import IllegalAction, Pass, Play
    from engine.decks import bundled_deck_paths, load_deck

    db = load_card_db()
    paths = bundled_deck_paths()
    da, db_ = load_deck(paths[0], db), load_deck(paths[1], db)
    da.player, db_.player = "p1", "p2"
    g = Game.new(db, da, db_, 7)
    recorder = rec.Recorder(rec.Start.of_decks([da, db_], 7), g)
    for _ in range(5):
        g.apply(Pass())
    with pytest.raises(IllegalAction):   # a card of the opponent's hand: not one p1 can play
        g.apply(Play(g.players[1 - g.current_player()].hand[0]))
    g.apply(Pass())
    data = json.loads(recorder.record(g).to_json())
    assert data["commands"][5]["refused"].startswith("AS Unit play: #")
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay(tmp_path / "r.json")
    assert res.returncode == 0 and "every hash matches (the first state and 7 commands)" in res.stdout, res.stdout
    res = _replay(_in_a_scenario(tmp_path, "text", "Naïve words."))
    assert res.returncode == 3 and "not ported yet: the text check of a card whose text has a letter" in res.stdout, \
        res.stdout
    res = _replay(_in_a_scenario(tmp_path, "cost", 2.0))
    assert res.returncode == 2 and "the record's scenario is broken" in res.stdout, res.stdout


def _in_a_scenario(tmp_path: Path, key: str, value: object) -> Path:
    """A record begun from a scenario whose first inline card's `key` is `value`."""
    data = json.loads((PORT / "fixtures" / "records" / "scenario-0.json").read_text(encoding="utf-8"))
    data["scenario"]["data"]["card"][0][key] = value
    path = tmp_path / f"{key}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@needs_node
@pytest.mark.parametrize("cost, why", [(2.0, "own card 1: a float where a card wants a whole number"),
                                       ("2", "expected a whole number"), (True, "expected a whole number")])
def test_replay_refuses_an_own_card_whose_whole_number_is_not_one(tmp_path: Path, cost: object, why: str) -> None:
    """docs/determinism.md §8 k: a card's whole-number fields are strict in both engines — `cost = 2.0`, `"2"`
    or `true` is refused (cards.py StrictInt), so a record carrying such an own card is malformed (exit 2), in
    the port as in `c1k replay`."""
    data = json.loads((PORT / "fixtures" / "records" / "own-0.json").read_text(encoding="utf-8"))
    data["cards"]["defs"][0]["cost"] = cost
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay(tmp_path / "r.json")
    assert res.returncode == 2 and why in res.stdout, res.stdout
    with pytest.raises(rec.RecordError, match="is not a whole number"):
        rec.begin(rec.load(tmp_path / "r.json"), load_card_db())


@needs_node
def test_replay_follows_matches_begun_from_a_scenarios_or_a_lessons_position() -> None:
    """record.py: a match begun from a scenario or lesson (`c1k play --scenario`, the lessons) records the
    scenario's tables, not decks; the port sets up the position as scenario.py does (inline cards, own cards the
    record carries, a 64-bit seed, who goes first drawn from it) and follows each record to its last hash. A
    changed position differs at the start, naming the scenario; a record with both decks and a scenario is
    refused (the test after this one)."""
    records = _replays_to_the_end("scenario-*.json", 7)
    assert {r["scenario"]["path"].split("/")[0] for r in records} == {"tests", "decks", "<own cards>"}
    assert sum("card" in r["scenario"]["data"] for r in records) >= 3          # inline [[card]] tables
    assert sum("lesson" in r["scenario"]["data"] for r in records) >= 3        # lessons
    own = next(r for r in records if r["scenario"]["path"] == "<own cards>")
    assert own["cards"]["defs"] and own["scenario"]["data"]["scenario"]["seed"] >= 2**63
    assert all(len(r["commands"]) >= 50 for r in records)


@needs_node
def test_replay_finds_a_changed_scenario_position_and_refuses_decks_beside_a_scenario(tmp_path: Path) -> None:
    """A record begun from a scenario whose position was changed differs at the start, naming the scenario;
    a record with both decks and a scenario is refused."""
    data = json.loads((PORT / "fixtures" / "records" / "scenario-2.json").read_text(encoding="utf-8"))
    data["scenario"]["data"]["p1"]["influence"] = data["scenario"]["data"]["p1"].get("influence", 0) + 1
    (tmp_path / "changed.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay(tmp_path / "changed.json")
    assert res.returncode == 1 and "  start.scenario: the record " in res.stdout, res.stdout
    data = json.loads((PORT / "fixtures" / "records" / "scenario-2.json").read_text(encoding="utf-8"))
    data["decks"] = json.loads(RECORD.read_text(encoding="utf-8"))["decks"]
    (tmp_path / "both.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay(tmp_path / "both.json")
    assert res.returncode == 2 and "from two 'decks' (with a 'seed') or from a 'scenario'" in res.stdout, res.stdout


@needs_node
def test_replay_keeps_the_file_order_of_a_deck_whose_card_ids_are_all_digits() -> None:
    """docs/determinism.md §8 e: the library is built in the deck list's order, which JSON.parse loses for
    integer-like keys ("42" would come first); the port reads it from the record's text and follows both
    records of fixtures/digits/ to their last hash."""
    for data in _replays_to_the_end("digits-*.json", 2):
        ids = list(data["decks"][0]["cards"])
        assert ids[0] == "vanilla-squire" and "42" in ids and ids.index("42") > 0
        assert sum(": play #" in c["do"] for c in data["commands"]) >= 10


@needs_node
def test_replay_finds_a_changed_command_hash(tmp_path: Path) -> None:
    data = json.loads((PORT / "fixtures" / "records" / "passes-0.json").read_text(encoding="utf-8"))
    data["commands"][4]["hash"] = "f" * 64
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay(tmp_path / "r.json")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "the first state and 4 command(s) match; command 5 of" in res.stdout, res.stdout


@needs_node
@pytest.mark.parametrize("change, part", [
    (lambda r: r.update(seed=str(int(r["seed"]) + 1)), "players[0].library"),
    (lambda r: r["decks"][1]["cards"].update({k: v + 1 for k, v in list(r["decks"][1]["cards"].items())[:1]}),
     "deck[1].cards"),
    (lambda r: r["options"].update(unit_slots=5), "options"),
    (lambda r: r["players"].update(p2="Mallory"), "record.players"),
])
def test_replay_finds_a_tampered_record_and_names_the_part(tmp_path: Path, change: object, part: str) -> None:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay(tmp_path / "r.json")
    assert res.returncode == 1, res.stdout + res.stderr
    assert f"  {part}: the record " in res.stdout, res.stdout


@needs_node
@pytest.mark.parametrize("text, why", [
    ('{"format": "c1k-match-record", "version": 3', "not JSON"),
    ('{"format": "c1k-match-record", "version": 2}', "version 2: this replays version 3"),
    ('{"format": "a deck"}', "not a match record"),
])
def test_replay_refuses_a_malformed_record(tmp_path: Path, text: str, why: str) -> None:
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    res = _replay(tmp_path / "r.json")
    assert res.returncode == 2 and why in res.stdout and "Error" not in res.stderr, res.stdout + res.stderr


SCENARIOS = [ROOT / "tests" / "scenarios", ROOT / "decks" / "lessons", PORT / "fixtures" / "scenarios"]
VERDICTS = PORT / "fixtures" / "scenarios.json"


@needs_node
def test_scenarios_get_the_python_engines_verdict_or_are_named_not_ported() -> None:
    """`--scenarios`: every file the port runs gets `c1k scenario check`'s verdict (passed, or failed at the
    same step: fixtures/scenarios/ fail on purpose); the rest are counted and named "not ported", never passed."""
    res = _replay("--scenarios", *SCENARIOS, "--verdicts", VERDICTS)
    assert res.returncode == 0 and "DIFFERS" not in res.stdout, res.stdout[-3000:] + res.stderr
    tally = re.search(r"^(\d+) passed, (\d+) failed, (\d+) not ported$", res.stdout, re.M)
    assert tally is not None, res.stdout[-2000:]
    passed, failed, not_ported = map(int, tally.groups())
    python = json.loads(VERDICTS.read_text(encoding="utf-8"))["scenarios"]
    assert passed + failed + not_ported == len(python)
    assert passed >= 14 and failed == sum(not v["ok"] for v in python) == 21 and not_ported == 0
    # inline cards (cards.py's checks, ported): one with effects that Python accepts runs; each one Python
    # refuses (text against effects, a model's field or validator, a reference) is refused at set-up
    assert "\nok conformance/fixtures/scenarios/inline-card-with-effects-runs.scenario.toml" in res.stdout
    refused = re.findall(r"^FAILED conformance/fixtures/scenarios/inline-card-[\w-]+-fails\.scenario\.toml \(step 0\)",
                         res.stdout, re.M)
    assert len(refused) == 12, res.stdout[-3000:]
    named = re.findall(r"^not ported \S+: .*\(engine/\w+\.py", res.stdout, re.M)
    assert len(named) == not_ported


@needs_node
def test_scenarios_a_verdict_other_than_pythons_is_found(tmp_path: Path) -> None:
    data = json.loads(VERDICTS.read_text(encoding="utf-8"))
    for v in data["scenarios"]:
        if v["path"].endswith("wrong-expectation-fails.scenario.toml"):
            v["ok"] = True
    (tmp_path / "v.json").write_text(json.dumps(data), encoding="utf-8")
    res = _replay("--scenarios", PORT / "fixtures" / "scenarios", "--verdicts", tmp_path / "v.json")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "DIFFERS FAILED conformance/fixtures/scenarios/wrong-expectation-fails.scenario.toml (step 6)" in res.stdout


@needs_node
def test_scenarios_alone_exit_as_scenario_check_does_with_a_third_count(tmp_path: Path) -> None:
    res = _replay("--scenarios", ROOT / "tests" / "scenarios" / "combat")
    assert res.returncode == 0 and re.search(r"^\d+ passed, 0 failed, 0 not ported$", res.stdout, re.M), res.stdout
    res = _replay("--scenarios", PORT / "fixtures" / "scenarios")
    assert res.returncode == 1 and "6 passed, 21 failed, 0 not ported" in res.stdout, res.stdout
    # a scenario that needs what the port does not judge (an inline card's text with a letter beyond ASCII:
    # Python's \\b and lower() are Unicode's) is named "not ported", never passed, and the run exits 3
    (tmp_path / "naive.scenario.toml").write_text(
        '[[card]]\nid = "t"\nname = "T"\ntype = "unit"\ncost = 2\npower = 1\nhealth = 1\ntext = "Naïve."\n'
        '[p1]\nhand = ["T"]\n', encoding="utf-8")
    res = _replay("--scenarios", tmp_path / "naive.scenario.toml")
    assert res.returncode == 3 and "0 passed, 0 failed, 1 not ported" in res.stdout, res.stdout
    assert re.search(r"^not ported \S+naive\.scenario\.toml: .*beyond ASCII", res.stdout, re.M), res.stdout


@needs_node
def test_the_ci_gate_fails_on_a_tampered_record_and_on_a_record_it_cannot_follow(tmp_path: Path) -> None:
    """bench/port_tally.py --gate (run by `.ci/run` through conformance/check on a few hundred fresh records):
    every record must replay to its last hash — one that differs fails it, and so does one the port stops at
    (a rule not ported yet: nothing fresh may stop). A small gate run of every kind of record passes (the
    test after this one)."""
    tally = bench_module("port_tally.py", "port_tally")
    good = PORT / "fixtures" / "records" / "refusals-1.json"
    data = json.loads(good.read_text(encoding="utf-8"))
    refused = next(i for i, c in enumerate(data["commands"]) if c.get("refused"))
    data["commands"][refused]["refused"] = data["commands"][refused]["refused"].replace("you", "thou", 1) + "!"
    (tmp_path / "tampered.json").write_text(json.dumps(data), encoding="utf-8")
    paths = [good, _in_a_scenario(tmp_path, "text", "Naïve words."), tmp_path / "tampered.json"]
    verdicts = tally.replay(paths, 2)
    assert [verdicts[p.name][0] for p in paths] == [0, 3, 1], verdicts
    assert tally.gate_failures(verdicts) == ["tampered.json", "text.json"]


@needs_node
def test_the_ci_gate_passes_a_small_run_of_fresh_records_of_every_kind() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "port_tally.py"), "2", "--seed", "5", "--own", "1",
                          "--scenarios", "1", "--vanilla", "1", "--agents", "search:1,greedy/search:2",
                          "--max-commands", "60", "--gate"], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert re.search(r"^5 records: 5 replay to their last hash, 0 stop at a rule not ported yet, 0 differ, 0 refused",
                     res.stdout, re.M), res.stdout
    made = [ln for ln in res.stdout.splitlines() if "CPU s to make a record" in ln]
    assert made and "search:1 " in made[0] and "greedy/search:2 " in made[0], res.stdout
