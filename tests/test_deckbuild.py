"""The deck builder's policy (c1k_tui/model/deckbuild.py), without Textual: filtering the pool, counts and
the curve, construction problems worded as `c1k validate` words them (all at once), the TOML it writes
(which loads back as the same deck), and saving: atomic, never over a file unless told."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from c1k_tui.cli.main import app as cli
from c1k_tui.model import deckbuild as m
from engine import CardDB, load_deck
from engine.cardset import load_cards

DECKS = Path(__file__).resolve().parent.parent / "decks"


@pytest.fixture(scope="module")
def cards() -> CardDB:
    return load_cards()


def emberfall(db: CardDB) -> m.DeckDraft:
    return m.open_deck(DECKS / "emberfall.toml", db)


def test_pool_holds_only_library_cards_by_cost(cards: CardDB) -> None:
    pool = m.pool(cards)
    assert pool and all(c.type in ("unit", "relic", "action") and not c.token for c in pool)
    assert [c.cost for c in pool] == sorted(c.cost for c in pool)


def test_filters_narrow_by_realm_type_cost_keyword_and_text(cards: CardDB) -> None:
    got = m.filter_pool(cards, m.CardFilter(realm="Neutral", type="unit", cost="2-4", keyword="charge"))
    assert got and all(c.realm == "neutral" and c.type == "unit" and 2 <= c.cost <= 4 and "charge" in c.keywords
                       for c in got)
    assert [c.id for c in m.filter_pool(cards, m.CardFilter(text="emberlash"))] == ["emberlash"]
    assert all(c.cost >= 5 for c in m.filter_pool(cards, m.CardFilter(cost="5+")))
    assert {c.cost for c in m.filter_pool(cards, m.CardFilter(cost="3"))} == {3}


@pytest.mark.parametrize("bad", ["x", "4-2", "-1", "2-"])
def test_a_cost_that_cant_be_read_says_what_was_expected(cards: CardDB, bad: str) -> None:
    with pytest.raises(ValueError, match="expected"):
        m.filter_pool(cards, m.CardFilter(cost=bad))


def test_adding_and_removing_updates_counts_and_curve(cards: CardDB) -> None:
    d = m.DeckDraft()
    d.add("emberlash")
    d.add("emberlash")
    d.add("briar-scout")
    s = m.summary(d, cards)
    assert (s.size, s.distinct) == (3, 2)
    assert dict(s.curve)["1"] == 3 and s.realms == [("neutral", 3)]
    d.remove("emberlash")
    d.remove("briar-scout")
    assert d.counts == {"emberlash": 1} and m.summary(d, cards).size == 1


def test_a_bundled_deck_opens_with_no_problems_and_its_summary(cards: CardDB) -> None:
    d = emberfall(cards)
    assert d.name == "Emberfall" and d.champion == "kaela-emberbrand" and d.size() == 40
    assert m.problems(d, cards) == []
    assert m.status_line(d, cards).startswith("✓ 40/40 cards")


def test_every_problem_at_once_in_validates_words(cards: CardDB, tmp_path: Path) -> None:
    d = emberfall(cards)
    d.add("emberlash")               # a fourth copy, and 41 cards
    d.add("not-a-card")              # unknown, and 42
    d.add("duskmask-footpad")        # veil, ruin, genesis: three Realms besides Neutral
    d.add("cinder-ghoul")
    d.add("first-rains")
    probs = m.problems(d, cards)
    assert m.status_line(d, cards).startswith("✗")
    text = " | ".join(probs)
    assert "unknown card 'not-a-card'" in text and "4 copies of 'Emberlash': at most 3" in text
    assert "a deck has exactly 40" in text and "Realms" in text
    # the same messages as `c1k validate` gives for the file the builder writes
    path = m.save(d, tmp_path / "broken.toml", cards)
    d.path = path
    out = CliRunner().invoke(cli, ["validate", str(path)])
    assert out.exit_code == 1
    assert m.problems(d, cards) == out.output.splitlines()[:-1]      # every line but the count, in order


def test_a_new_deck_names_what_its_head_needs(cards: CardDB) -> None:
    probs = m.problems(m.DeckDraft(), cards)
    assert any("needs 'champion'" in p for p in probs) and any("needs 'seat'" in p for p in probs)
    assert not any("unknown card ''" in p for p in probs)


def test_the_toml_loads_back_as_the_same_deck(cards: CardDB, tmp_path: Path) -> None:
    d = emberfall(cards)
    d.remove("emberlash")
    d.add("briar-scout", 0)
    d.add("ledger-thief")
    path = m.save(d, tmp_path / "mine.toml", cards)
    deck = load_deck(path, cards)
    assert deck.counts == d.counts and deck.champion.id == d.champion and deck.seat.id == d.seat
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Emberfall")          # the file's opening comment is kept
    assert "# 1 cost" in text and "# 7 cost" in text


def test_names_with_quotes_and_backslashes_round_trip(cards: CardDB, tmp_path: Path) -> None:
    d = emberfall(cards)
    d.name = 'My "best" deck \\ v2'
    path = m.save(d, tmp_path / "q.toml", cards)
    assert m.open_deck(path, cards).name == d.name


def test_cards_named_by_name_open_as_ids(cards: CardDB, tmp_path: Path) -> None:
    p = tmp_path / "by-name.toml"
    p.write_text('[deck]\nname = "n"\nchampion = "Kaela Emberbrand"\nseat = "seat-of-hasty-counsel"\n'
                 '[cards]\n"Emberlash" = 2\n"mystery" = 1\n', encoding="utf-8")
    d = m.open_deck(p, cards)
    assert d.champion == "kaela-emberbrand" and d.counts == {"emberlash": 2, "mystery": 1}
    assert any("unknown card 'mystery'" in x for x in m.problems(d, cards))


def test_save_never_replaces_a_file_unless_told(cards: CardDB, tmp_path: Path) -> None:
    target = tmp_path / "deck.toml"
    target.write_text("mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError):
        m.save(emberfall(cards), target, cards)
    assert target.read_text(encoding="utf-8") == "mine\n"
    m.save(emberfall(cards), target, cards, overwrite=True)
    assert load_deck(target, cards).counts == emberfall(cards).counts
    assert [p.name for p in tmp_path.iterdir()] == ["deck.toml"]     # no temporary file left behind


def test_a_failed_write_leaves_the_old_file(cards: CardDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.toml"
    target.write_text("mine\n", encoding="utf-8")

    def boom(src: str, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        m.save(emberfall(cards), target, cards, overwrite=True)
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.toml"]


def test_own_cards_join_the_pool_and_a_deck_keeps_its_card_files(tmp_path: Path) -> None:
    shutil.copy(DECKS / "emberfall.toml", tmp_path / "base.toml")
    (tmp_path / "mine.toml").write_text(
        '[[card]]\nid = "test-forge-imp"\nname = "Forge Imp"\ntype = "unit"\nrealm = "neutral"\ncost = 1\n'
        'speed = "slow"\npower = 1\nhealth = 1\n', encoding="utf-8")
    deck = tmp_path / "d.toml"
    deck.write_text((tmp_path / "base.toml").read_text(encoding="utf-8").replace(
        'seat = "seat-of-hasty-counsel"', 'seat = "seat-of-hasty-counsel"\ncard_files = ["mine.toml"]'),
        encoding="utf-8")
    db = load_cards([], [deck])
    assert "test-forge-imp" in {c.id for c in m.filter_pool(db, m.CardFilter(text="forge imp"))}
    d = m.open_deck(deck, db)
    d.remove("emberlash")
    d.add("test-forge-imp")
    assert d.card_files == ["mine.toml"] and m.problems(d, db) == []
    m.save(d, deck, db, overwrite=True)
    assert load_deck(deck, load_cards([], [deck])).counts["test-forge-imp"] == 1


def test_suggested_path_is_the_opened_file_or_the_name(cards: CardDB) -> None:
    assert m.suggest_path(emberfall(cards)).endswith("emberfall.toml")
    assert m.suggest_path(m.DeckDraft(name="Fire & Ice")) == "fire---ice.toml"
    assert m.suggest_path(m.DeckDraft()) == "my-deck.toml"


def test_deck_size_an_empty_cards_table_is_not_a_legal_deck(cards: CardDB, tmp_path: Path) -> None:
    """formats.md §3: a deck has exactly 40 cards — an empty [cards] table too (validate said 0 problems)."""
    d = emberfall(cards)
    d.counts.clear()
    assert any("the library has 0 cards; a deck has exactly 40" in p for p in m.problems(d, cards))
    path = m.save(d, tmp_path / "empty.toml", cards)
    out = CliRunner().invoke(cli, ["validate", str(path)])
    assert out.exit_code == 1 and "the library has 0 cards" in out.output


def test_a_new_deck_file_is_made_as_any_new_file(cards: CardDB, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = m.save(emberfall(cards), tmp_path / "new.toml", cards)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o644            # not 0600, as a bare temporary file would be
    path.chmod(0o640)
    m.save(emberfall(cards), path, cards, overwrite=True)
    assert path.stat().st_mode & 0o777 == 0o640            # a replaced file keeps its mode


def test_a_deck_using_own_cards_names_their_file_so_it_plays_without_cards_flag(tmp_path: Path) -> None:
    own = tmp_path / "cards" / "mine.toml"
    own.parent.mkdir()
    own.write_text('[[card]]\nid = "test-forge-imp"\nname = "Forge Imp"\ntype = "unit"\nrealm = "neutral"\n'
                   'cost = 1\nspeed = "slow"\npower = 2\nhealth = 1\n', encoding="utf-8")
    db = load_cards([own])
    d = m.open_deck(DECKS / "emberfall.toml", db)
    d.remove("emberlash")
    d.add("test-forge-imp")
    (tmp_path / "decks").mkdir()
    path = m.save(d, tmp_path / "decks" / "imp.toml", db)
    assert d.card_files == ["../cards/mine.toml"]
    assert load_deck(path, load_cards([], [path])).counts["test-forge-imp"] == 1     # no --cards needed
    moved = m.save(d, tmp_path / "imp2.toml", db)                                    # re-rooted when it moves
    assert d.card_files == ["cards/mine.toml"]
    assert load_deck(moved, load_cards([], [moved])).counts["test-forge-imp"] == 1
