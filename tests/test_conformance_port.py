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


def _replay(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(PORT / "replay"), *map(str, paths)], capture_output=True, text=True,
                          timeout=600)


def _replays_to_the_end(pattern: str) -> list[dict[str, Any]]:
    """Replays the three fixture records matching `pattern` (each to its last hash); returns them."""
    records = sorted((PORT / "fixtures" / "records").glob(pattern))
    res = _replay(*records)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count(": every hash matches (the first state and ") == len(records) == 3, res.stdout
    return [json.loads(r.read_text(encoding="utf-8")) for r in records]


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


@needs_node
def test_replay_follows_matches_of_cards_with_effects_through_triggers_targets_and_the_stack() -> None:
    """Greedy and random matches of fixtures/effects/ (bundled cards whose plays have effects) replay to their
    last hash, and they hold what the layer ports (counted from the Python engine's own events): triggered
    abilities put on the stack, targets named in commands, random targets and discards drawn from the
    generator, summoned tokens, buffs, heals and destroyed units, play permissions (a card played by one
    during a resolution, and duration permissions kept by a player)."""
    from engine import record as rec
    from engine.cards import bundled_cards_dir, load_card_db

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
    hand and a relic's Interrupt counter Actions (C1K 7), and a player whose hand holds no usable Interrupt is
    still asked while a Nullify card of theirs is hidden in the library (rules.md §7a), and declines."""
    for data in _replays_to_the_end("counters-*.json"):
        texts = [c["do"] for c in data["commands"]]
        assert sum(": interrupt #" in t for t in texts) >= 1 and sum(t.endswith(": decline") for t in texts) >= 1


@needs_node
def test_replay_follows_matches_of_flux_thread_and_voidcast() -> None:
    """Matches of fixtures/effects/paradox.toml replay to their last hash, and they hold Paradox's and
    Voidcast's rules (counted from the Python engine's own events): Flux outcomes drawn from the generator
    and redrawn by a reroll Interrupt, a player ordering their simultaneous Flux triggers (the `order`
    choice), Thread cards played with a mode whose branch resolves later, a Voidcast Action to the Void."""
    from engine import record as rec
    from engine.cards import bundled_cards_dir, load_card_db

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
def test_replay_names_the_first_command_not_ported_and_never_passes_it() -> None:
    res = _replay(RECORD)
    assert res.returncode == 3, res.stdout + res.stderr
    assert re.search(r"the first state and \d+ command\(s\) match; command \d+ of 200 'p[12]: \w+[^']*': "
                     r"not ported yet: \w+", res.stdout), res.stdout


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
