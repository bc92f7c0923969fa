"""The README's pictures (issue #21 item 4): a match of the bundled decks and a lesson, as SVG snapshots.
docs/images/match.svg and docs/images/lesson.svg are copies of these two; after a deliberate change to the
screens, update them with `pytest tests/tui/test_readme_pictures.py --snapshot-update` and copy the new
SVGs over (see the README's Develop section)."""

from __future__ import annotations

from typing import Any

from c1k_tui.model.builders import find_lessons, lesson_session
from c1k_tui.model.session import Flow, MatchSession
from c1k_tui.screens.app import C1KApp
from engine import MatchOptions, find_deck, load_deck
from engine.cards import CardDB
from tests.tui.test_snapshots import keys

SIZE = (120, 40)


def test_readme_match(snap_compare: Any, db: CardDB) -> None:
    """Ironbound (Mira) against Emberfall (Tomas), seed 7, a few turns in, seen by the player to act."""
    decks = []
    for name, player in (("ironbound", "Mira"), ("emberfall", "Tomas")):
        deck = load_deck(find_deck(name), db)
        deck.player = player
        decks.append(deck)
    s = MatchSession.new(db, decks, 7, MatchOptions(), flow=Flow("stops"))
    for _ in range(2000):                     # each side plays its first legal card, attacks with none
        if s.game.turn >= 7 or s.game.is_terminal():
            break
        options = [str(a) for a in s.game.legal_actions()]
        s.send(next((o for o in options if o.startswith("play") and "target" not in o), options[0]))
    app = C1KApp(db=db, session=s)
    assert snap_compare(app, terminal_size=SIZE, run_before=keys("enter"))


def test_readme_lesson(snap_compare: Any, db: CardDB) -> None:
    """The second lesson (respond at Fast speed), after its first move."""
    les = find_lessons()[1]
    app = C1KApp(db=db, session=lesson_session(db, les), lessons=find_lessons())
    assert snap_compare(app, terminal_size=SIZE, run_before=keys())
