"""A designer's own cards (issue #20 item 1): `--cards FILE|DIR` on play, validate and scenario check, a deck
that names its card files, an id or name already taken is an error naming both files, and a record carries
the cards it was played with — a replay plays with them, and refuses a card that differs, by name."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from typer.testing import CliRunner

from c1k_tui.cli.main import app
from engine import record as rec
from engine.cards import bundled_cards_dir
from engine.cardset import load_cards, manifest, with_manifest

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

WHELP = '''[[card]]
id = "cinder-whelp"
name = "Cinder Whelp"
type = "unit"
realm = "neutral"
cost = 1
power = 2
health = 2
keywords = ["charge"]
text = "Charge."
'''


def _deck(tmp_path: Path, name: str = "whelpfall.toml", card_files: str = "") -> Path:
    """Emberfall with its two Ashen Skirmishers replaced by the own card Cinder Whelp."""
    text = (ROOT / "decks" / "emberfall.toml").read_text(encoding="utf-8")
    text = text.replace('"ashen-skirmisher" = 2', '"cinder-whelp" = 2')
    text = text.replace('name = "Emberfall"', 'name = "Whelpfall"' + (f"\ncard_files = {card_files}" if card_files
                                                                     else ""))
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _cards(tmp_path: Path, text: str = WHELP, name: str = "my-cards.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_deck_of_own_cards_is_unknown_without_them_and_valid_with_them(tmp_path: Path) -> None:
    deck, cards = _deck(tmp_path), _cards(tmp_path)
    res = runner.invoke(app, ["validate", str(deck)])
    assert res.exit_code == 1 and "unknown card 'cinder-whelp'" in res.output
    for opt in ([str(cards)], [str(tmp_path)]):          # a file, or a folder holding it
        res = runner.invoke(app, ["validate", "--cards", opt[0], str(deck)])
        assert res.exit_code == 0, res.output
        assert "1 file(s), 0 problem(s)" in res.output


def test_play_with_own_cards_in_the_text_loop(tmp_path: Path) -> None:
    deck, cards = _deck(tmp_path), _cards(tmp_path)
    res = runner.invoke(app, ["play", str(deck), "ironbound", "--text", "--seed", "5", "--cards", str(cards)],
                        input="concede\n")
    assert res.exit_code == 0, res.output
    assert "Whelpfall (p1) vs Ironbound (p2)" in res.output
    res = runner.invoke(app, ["play", str(deck), "ironbound", "--text", "--seed", "5"], input="concede\n")
    assert res.exit_code == 2 and "unknown card 'cinder-whelp'" in res.output and "Traceback" not in res.output


def test_a_deck_names_its_card_files_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    _cards(tmp_path / "cards")
    deck = _deck(tmp_path, card_files='["cards/my-cards.toml"]')
    res = runner.invoke(app, ["validate", str(deck)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["play", str(deck), "ironbound", "--text", "--seed", "5"], input="concede\n")
    assert res.exit_code == 0, res.output
    missing = _deck(tmp_path, "broken.toml", card_files='["nowhere.toml"]')
    res = runner.invoke(app, ["validate", str(missing)])
    assert res.exit_code == 1 and "card_files: no card file 'nowhere.toml'" in res.output


def test_an_own_card_taking_a_bundled_id_or_name_names_both_files(tmp_path: Path) -> None:
    same_id = _cards(tmp_path, WHELP.replace('"cinder-whelp"', '"ashen-skirmisher"'), "same-id.toml")
    same_name = _cards(tmp_path, WHELP.replace('"Cinder Whelp"', '"Ashen Skirmisher"'), "same-name.toml")
    for f, what in ((same_id, "duplicate card id 'ashen-skirmisher'"), (same_name, "duplicate card name")):
        res = runner.invoke(app, ["play", "emberfall", "ironbound", "--text", "--cards", str(f)], input="concede\n")
        assert res.exit_code == 2 and "Traceback" not in res.output
        assert what in res.output and str(f) in res.output and str(bundled_cards_dir() / "core.toml") in res.output
        res = runner.invoke(app, ["validate", "--cards", str(f), str(ROOT / "decks" / "emberfall.toml")])
        assert res.exit_code == 1 and what in res.output


def test_scenario_check_with_own_cards(tmp_path: Path) -> None:
    src = (ROOT / "tests" / "scenarios" / "rb-3.1-barrier-vs-overwhelm.scenario.toml").read_text(encoding="utf-8")
    head, rest = src.split("[[card]]", 1)
    card, tail = rest.split("\n\n", 1)
    scn = tmp_path / "brute.scenario.toml"
    scn.write_text(head + tail, encoding="utf-8")
    cards = _cards(tmp_path / ".", "[[card]]" + card + "\n", "brute.toml")
    res = runner.invoke(app, ["scenario", "check", str(scn)])
    assert res.exit_code == 1 and "Big Brute" in res.output
    res = runner.invoke(app, ["scenario", "check", "--cards", str(cards), str(scn)])
    assert res.exit_code == 0, res.output


def test_validate_reports_the_library_size_beside_an_unknown_card(tmp_path: Path) -> None:
    text = (ROOT / "decks" / "emberfall.toml").read_text(encoding="utf-8")
    text = text.replace('"ashen-skirmisher" = 2', '"ashen-skirmisher" = 2\n"no-such-card" = 1')
    p = tmp_path / "d.toml"
    p.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["validate", str(p)])
    assert "unknown card 'no-such-card'" in res.output
    assert "the library has 41 cards (counting 1 of unknown cards); a deck has exactly 40" in res.output


def test_a_record_carries_its_own_cards_and_refuses_a_changed_one(tmp_path: Path) -> None:
    deck, cards = _deck(tmp_path), _cards(tmp_path)
    save = tmp_path / "r.json"
    res = runner.invoke(app, ["play", str(deck), "ironbound", "--text", "--seed", "3", "--cards", str(cards),
                              "--save", str(save)], input="pass\npass\npass\n")
    assert res.exit_code == 0, res.output
    data = json.loads(save.read_text(encoding="utf-8"))
    assert [d["id"] for d in data["cards"]["defs"]] == ["cinder-whelp"]
    assert "briar-scout" in data["cards"]["digests"]
    # the card file changes after the match: the replay plays with the card the match was played with
    cards.write_text(WHELP.replace("power = 2", "power = 5"), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(save)])
    assert res.exit_code == 0, res.output
    # a bundled card that differs from the one the match used is refused, by name
    data["cards"]["digests"]["briar-scout"] = "0" * 16
    save.write_text(json.dumps(data), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(save)])
    assert res.exit_code == 1
    assert "card 'briar-scout' (Briar Scout) differs from the one this record was made with" in res.output
    try:
        rec.replay(rec.load(save), load_cards())
    except rec.RecordError as err:
        assert err.command == 0
    else:
        raise AssertionError("a record whose card differs replayed")


def test_manifest_round_trip_names_missing_and_changed_cards(tmp_path: Path) -> None:
    db = load_cards([_cards(tmp_path)])
    man = manifest(db, ["cinder-whelp", "briar-scout"])
    assert sorted(man["digests"]) == ["briar-scout", "cinder-whelp"] and len(man["defs"]) == 1
    rebuilt = with_manifest(load_cards(), man)           # the own card comes from the manifest
    assert rebuilt.by_id["cinder-whelp"].power == 2
    bad = {"digests": {**man["digests"], "no-such": "0" * 16}, "defs": man["defs"]}
    try:
        with_manifest(load_cards(), bad)
    except ValueError as err:
        assert "card 'no-such' is used by the record but is in no card file loaded now" in str(err)
    else:
        raise AssertionError("a missing card was accepted")


def test_an_own_card_changed_inside_the_record_is_refused_by_the_start_hash(tmp_path: Path) -> None:
    """#23 item 1 with #20 item 1: the `cards` a record carries are part of what it says, so the start hash
    covers them. Before this, an own card's definition edited inside the record replayed with the edit."""
    deck, cards = _deck(tmp_path), _cards(tmp_path)
    save = tmp_path / "r.json"
    res = runner.invoke(app, ["play", str(deck), "ironbound", "--text", "--seed", "3", "--cards", str(cards),
                              "--save", str(save)], input="pass\npass\npass\n")
    assert res.exit_code == 0, res.output
    data = json.loads(save.read_text(encoding="utf-8"))
    table = data["cards"]["defs"][0]
    table["power"] = 5          # and its digest recomputed, so the manifest alone would accept it
    data["cards"]["digests"]["cinder-whelp"] = hashlib.sha256(
        json.dumps(table, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()[:16]
    save.write_text(json.dumps(data), encoding="utf-8")
    before = save.read_bytes()
    res = runner.invoke(app, ["replay", str(save)])
    assert res.exit_code == 1, res.output
    assert "record.cards" in res.output and "Traceback" not in res.output
    assert save.read_bytes() == before


def test_an_own_card_file_edited_between_two_loads_is_read_again(tmp_path: Path) -> None:
    """The card files read are remembered by their bytes (engine/cards.py): an own card file edited between
    two starts of the start screen (load_pool), even to the same size and time stamp, gives the new card;
    the bundled set loaded again is the same set, and nothing done to one loaded set reaches the next."""
    from c1k_tui.model.cardset import load_pool

    own = tmp_path / "whelp.toml"
    own.write_text(WHELP, encoding="utf-8")
    first = load_pool([own])
    assert first.db.by_id["cinder-whelp"].power == 2 and first.own == ("Cinder Whelp",)
    stamp = own.stat()
    own.write_text(WHELP.replace("power = 2", "power = 3").replace("Cinder Whelp", "Cinder Whelq"), encoding="utf-8")
    os.utime(own, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert own.stat().st_size == stamp.st_size and own.stat().st_mtime_ns == stamp.st_mtime_ns
    again = load_pool([own])
    assert again.db.by_id["cinder-whelp"].power == 3 and again.own == ("Cinder Whelq",)
    assert again.db.raw["cinder-whelp"]["power"] == 3
    first.db.raw["lancer-of-the-dawn-column"]["power"] = 99        # a caller changing its own copy
    first.db.by_id.clear()
    third = load_pool([])
    assert third.db.raw["lancer-of-the-dawn-column"]["power"] == 3 and "cinder-whelp" not in third.db.by_id
    assert third.db.by_id.keys() == again.db.by_id.keys() - {"cinder-whelp"}


def test_a_broken_card_file_is_refused_each_time_it_is_read_until_mended(tmp_path: Path) -> None:
    """A file's problems are never remembered (engine/cards.py keeps only files that load): each read of a
    broken own card file names its line again, and the file mended — however soon — loads."""
    from engine.cards import build_card_db

    own = tmp_path / "whelp.toml"
    own.write_text(WHELP.replace("power = 2", 'power = "2"'), encoding="utf-8")
    for _ in range(2):
        _db, problems = build_card_db([own])
        assert len(problems) == 1 and problems[0].startswith(f"{own}:") and "'power'" in problems[0], problems
    own.write_text(WHELP, encoding="utf-8")
    db, problems = build_card_db([own])
    assert problems == [] and db.by_id["cinder-whelp"].power == 2


def test_the_same_card_file_under_two_names_says_where_each_copy_is(tmp_path: Path) -> None:
    """The same bytes at another path are another file: where a card is defined ("file:line", in refusals
    and a record's manifest) is the path it was read from."""
    from engine.cards import build_card_db

    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(WHELP, encoding="utf-8")
    b.write_text(WHELP, encoding="utf-8")
    assert build_card_db([a])[0].origin["cinder-whelp"].startswith(f"{a}:")
    assert build_card_db([b])[0].origin["cinder-whelp"].startswith(f"{b}:")
    _db, problems = build_card_db([a, b])          # both at once: one id twice, both files named
    assert len(problems) == 1 and f"{b}:" in problems[0] and f"{a}:" in problems[0], problems
