"""The bundled card set: rules text matches the data (every keyword named in a card's text is in its
data and vice versa), coverage of every keyword, a cost spread, and every bundled deck legal."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from engine.cards import KEYWORDS, CardDef, load_card_db
from engine.decks import bundled_deck_paths, load_deck

DB = load_card_db()
CARDS = sorted(DB.by_id.values(), key=lambda c: c.id)

#: how a keyword is named in rules text (case-sensitive, whole word)
DISPLAY = {k: k.capitalize() for k in KEYWORDS}
PATTERNS = {k: re.compile(rf"\b{v}(?:s|ed|ing)?\b") for k, v in DISPLAY.items()}


def data_keywords(card: CardDef) -> set[str]:
    return set(card.keywords)


def referenced_keywords(card: CardDef) -> set[str]:
    """Keywords the card's effects grant, or that tokens it summons have, or statuses it gives."""
    out: set[str] = set()

    def walk(effects: object) -> None:
        for e in effects:  # type: ignore[attr-defined]
            if e.do == "grant":
                if e.keyword:
                    out.add(e.keyword.split()[0])
                if e.status:
                    out.add(e.status)
            if e.do == "summon" and e.card and DB.get(e.card):
                out.update(DB.lookup(e.card).keywords)
            if e.do == "suppress":
                out.add("suppress")
            for branch in (e.outcomes or []) + (e.branches or []):
                walk(branch)

    walk(card.effect)
    for ab in card.abilities:
        walk(ab.effect)
        # an Interrupt names the mechanic it answers ("when a Flux outcome is determined")
        out.update({"flux_outcome": {"flux"}, "thread_resolves": {"thread"}}.get(ab.interrupt or "", set()))
    if card.evolve is not None and DB.get(card.evolve.into):
        out.update(DB.lookup(card.evolve.into).keywords)
    return out


def named_in_text(card: CardDef) -> set[str]:
    text = card.text.replace(card.name, "")
    return {k for k, pat in PATTERNS.items() if pat.search(text)}


@pytest.mark.parametrize("card", CARDS, ids=[c.id for c in CARDS])
def test_text_names_exactly_the_keywords_in_the_data(card: CardDef) -> None:
    named = named_in_text(card)
    data = data_keywords(card)
    missing_from_text = data - named
    assert not missing_from_text, f"{card.id}: has {sorted(missing_from_text)} but its text doesn't say so"
    unexplained = named - data - referenced_keywords(card)
    assert not unexplained, f"{card.id}: text names {sorted(unexplained)}, which the card neither has nor gives"


def test_every_keyword_is_on_at_least_two_cards() -> None:
    counts = Counter(k for c in CARDS for k in c.keywords)
    thin = {k: counts[k] for k in KEYWORDS if counts[k] < 2}
    assert not thin, f"keywords on fewer than 2 cards: {thin}"


def test_set_size_realms_and_cost_spread() -> None:
    playable = [c for c in CARDS if c.type in ("unit", "relic", "action") and not c.token]
    assert len(CARDS) >= 150
    per_realm = Counter(c.realm for c in playable)
    for realm in ("dominion", "veil", "ruin", "genesis", "paradox", "solace", "null"):
        assert per_realm[realm] >= 20, (realm, per_realm[realm])
    costs = {c.cost for c in playable}
    assert set(range(0, 11)) <= costs, sorted(costs)


def test_every_realm_has_a_champion_with_an_activated_ability() -> None:
    for realm in ("dominion", "veil", "ruin", "genesis", "paradox", "solace", "null"):
        champs = [c for c in CARDS if c.type == "champion" and c.realm == realm]
        assert champs, realm
        assert all(len(c.act) == 1 and c.act[0][1].activate and c.act[0][1].activate.once_per_turn
                   for c in champs), realm


def test_at_least_eight_seats_each_a_real_modifier() -> None:
    seats = [c for c in CARDS if c.type == "seat"]
    assert len(seats) >= 8
    assert all(c.modifiers for c in seats)


@pytest.mark.parametrize("path", bundled_deck_paths(), ids=[p.stem for p in bundled_deck_paths()])
def test_bundled_deck_is_legal(path: object) -> None:
    deck = load_deck(path, DB)  # type: ignore[arg-type]
    assert len(deck.library) == 40


def test_at_least_eight_starter_decks_including_one_per_realm_and_a_two_realm_deck() -> None:
    decks = [load_deck(p, DB) for p in bundled_deck_paths()]
    realms = [frozenset(c.realm for c in d.library) - {"neutral"} for d in decks]
    for realm in ("dominion", "veil", "ruin", "genesis", "paradox", "solace", "null"):
        assert any(r == {realm} for r in realms), realm
    assert any(len(r) == 2 for r in realms)


def _verbs(card: CardDef) -> set[str]:
    out: set[str] = set()
    for e in list(card.effect) + [e for ab in card.abilities for e in ab.effect]:
        out.add(e.do)
    return out


@pytest.mark.parametrize("kw", ["flux", "thread"])
def test_flux_and_thread_keywords_mark_exactly_the_cards_with_those_effects(kw: str) -> None:
    wrong = [c.id for c in CARDS if (kw in c.keywords) != (kw in _verbs(c))]
    assert not wrong, f"{kw}: keyword and effect disagree on {wrong}"
