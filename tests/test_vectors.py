"""The determinism contract's test vectors (docs/determinism.md §6): current, replayable, and checked
by the TypeScript checker, which fails on a vector changed by one byte."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.actions import IllegalAction, MalformedCommand
from engine.cards import load_card_db
from engine.decks import deck_from_data
from engine.game import Game
from engine.state import MatchOptions
from engine.vectors import build_vectors, render

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "conformance" / "vectors"


@pytest.mark.slow
def test_committed_vectors_are_the_generated_ones() -> None:
    """A rule, card or encoding change regenerates the vectors in the same commit (`c1k vectors
    conformance/vectors`): stale vectors fail here."""
    built = build_vectors()
    assert sorted(p.name for p in VECTORS.glob("*.json")) == sorted(built)
    for name, data in built.items():
        assert (VECTORS / name).read_text(encoding="utf-8") == render(data), \
            f"conformance/vectors/{name} is stale: run `c1k vectors conformance/vectors` and commit it"


def test_recorded_matches_replay_from_the_file_alone() -> None:
    """What another implementation does with matches.json: decks + seed + options, then each command."""
    db = load_card_db()
    matches = json.loads((VECTORS / "matches.json").read_text(encoding="utf-8"))["matches"]
    assert len(matches) >= 20 and len({m["name"] for m in matches}) == len(matches)
    for m in matches:
        decks = [deck_from_data({"deck": {"name": d["name"], "champion": d["champion"], "seat": d["seat"]},
                                 "cards": dict(d["cards"])}, db, m["name"]) for d in m["decks"]]
        g = Game.new(db, decks[0], decks[1], int(m["seed"]), MatchOptions(**m["options"]))
        assert g.state_hash() == m["hashes"][0], \
            f"{m['name']}: the first state differs — regenerate if on purpose: c1k vectors conformance/vectors"
        refused = set(m["refused"])
        for i, text in enumerate(m["commands"]):
            where = (f"conformance/vectors/matches.json, {m['name']}, command {i + 1} {text!r} — if a rule or "
                     f"card changed on purpose, regenerate: c1k vectors conformance/vectors")
            try:
                g.apply_command(text)
            except (IllegalAction, MalformedCommand) as err:
                # C1K §10: a refused command still moves priority; the hash after it says what changed
                assert i in refused and isinstance(err, IllegalAction), f"{where}: refused: {err}"
            else:
                assert i not in refused, f"{where}: the rules accepted it, the vector says refused"
            assert g.state_hash() == m["hashes"][i + 1], f"{where}: the state hash differs"
    assert sum(len(m["refused"]) for m in matches) >= 20


def _tamper(text: str, marker: str) -> str:
    """Change one byte: the first digit or hex digit after `marker`."""
    at = text.index(marker) + len(marker)
    while not text[at].isalnum():
        at += 1
    return text[:at] + ("1" if text[at] != "1" else "2") + text[at + 1:]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                    reason="the TypeScript checker needs Node.js 20+ and npm (not on PATH)")
@pytest.mark.xdist_group("node-build")    # (it builds the checker: one worker, as tests/test_conformance_port.py)
@pytest.mark.parametrize(("file", "marker", "expect"), [
    ("snapshots.json", '"name":"64-bit generator state and seed","input":"{\\"seed\\": ',
     'FAIL snapshots.json snapshots[4] "64-bit generator state and seed" bytes'),
    ("generator.json", '"seed":"1234567","outputs":["', "FAIL generator.json splitmix64[2] seed 1234567"),
])
def test_checker_fails_on_a_vector_changed_by_one_byte(tmp_path: Path, file: str, marker: str,
                                                       expect: str) -> None:
    for p in VECTORS.glob("*.json"):
        shutil.copy(p, tmp_path / p.name)
    original = (tmp_path / file).read_text(encoding="utf-8")
    changed = _tamper(original, marker)
    assert len(changed.encode()) == len(original.encode()) and changed != original
    (tmp_path / file).write_text(changed, encoding="utf-8")
    res = subprocess.run(["bash", str(ROOT / "conformance" / "check"), str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 1, res.stdout + res.stderr
    assert expect in res.stdout, res.stdout
    assert re.search(r", [12] failed$", res.stdout.rstrip()), res.stdout   # that vector only (bytes, hash)


def test_vectors_command_names_an_unwritable_folder() -> None:
    from typer.testing import CliRunner

    from c1k_tui.cli.main import app

    res = CliRunner().invoke(app, ["vectors", "/dev/null/vectors"])
    assert res.exit_code == 2 and "can't write the vectors to /dev/null/vectors" in res.output
    assert "Traceback" not in res.output
