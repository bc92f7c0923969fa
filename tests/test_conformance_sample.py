"""The fast tier's sample of the TypeScript port's fixtures (conformance/PORT.md): the slow tier regenerates
every fixture byte for byte (tests/test_conformance_port.py::test_port_fixtures_are_the_engines_current_output,
about 50 s of CPU: it plays every fixture match again with the greedy agents); here the card list is
regenerated whole with the generator's own code, and the shortest record of each group of fixture records
(random-*, passes-*, combat-*, keywords-greedy-*, …) is replayed by the Python engine with every hash
checked — so a rules change that moves a fixture fails in the developer's loop too."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from engine import record as rec
from engine.cards import bundled_cards_dir, load_card_db
from engine.errors import BadInput

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"


def _generator() -> Any:
    """conformance/fixtures.py (a script, not a package) imported as a module."""
    spec = importlib.util.spec_from_file_location("c1k_conformance_fixtures", ROOT / "conformance" / "fixtures.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["c1k_conformance_fixtures"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_port_fixtures_card_list_is_the_engines_current_card_set(tmp_path: Path) -> None:
    gen = _generator()
    db = load_card_db()
    gen.write(tmp_path / "cards.json", {"format": "c1k-fixtures/cards",
                                        "cards": [gen.card_json(db.by_id[i], gen.card_digest(db, i))
                                                  for i in sorted(db.by_id)]})
    assert (tmp_path / "cards.json").read_bytes() == (FIXTURES / "cards.json").read_bytes(), (
        "conformance/fixtures/cards.json is stale: run `python conformance/fixtures.py` and commit it")


def test_the_shortest_record_of_each_fixture_group_replays_to_its_last_hash() -> None:
    """Every hash of the record (the first state's, each command's and the state's after it) is the Python
    engine's today: a record the engine no longer plays the same way is stale."""
    groups: dict[str, list[Path]] = {}
    for path in sorted((FIXTURES / "records").glob("*.json")):
        groups.setdefault(path.stem.rsplit("-", 1)[0], []).append(path)
    assert {"random", "passes", "plays", "combat", "refusals", "keywords-greedy", "exhaustion"} <= set(groups)
    db = load_card_db([bundled_cards_dir(), FIXTURES / "vanilla" / "cards", FIXTURES / "keywords" / "cards",
                       FIXTURES / "effects" / "cards"])
    for name, paths in sorted(groups.items()):
        records = [rec.load(p) for p in paths]
        shortest = min(records, key=lambda r: len(r.entries))
        try:
            game = rec.replay(shortest, db)
        except BadInput as err:       # a hash that differs, or a card the record used that changed
            raise AssertionError(f"a conformance/fixtures/records/{name}-* record is stale ({err}): run "
                                 "`python conformance/fixtures.py` and commit it") from err
        assert len(game.record) == len(shortest.entries)
