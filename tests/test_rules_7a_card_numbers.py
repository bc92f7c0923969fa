"""rules.md §7a (added 2026-11-27): card numbers say nothing to a player who can't see the card. A card
gets a fresh number, drawn from the match generator, whenever it enters a hidden zone (a library at
setup, a hand, the Set zone), keeps it while hidden or public until it next enters one, and a player is
never shown the number of a card hidden from them."""

from __future__ import annotations

import re

import pytest

from engine import events_for, observe
from engine.actions import Attack, MalformedCommand, Pass
from engine.cards import load_card_db
from engine.core import MatchState
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.parsing import resolve_ref
from engine.rng import SplitMix64
from engine.scenario import build, scenario_from_data
from engine.selfplay import random_action
from engine.state import GONE

DB = load_card_db()
_NUM = re.compile(r"#(\d+)")


def _bounced_knife() -> tuple[Game, int]:
    """Turn 3, p1's Main Phase: p1 returns p2's Knife in the Crowd to p2's hand with Tide of Recall."""
    data = {
        "scenario": {"window": "main.priority", "turn": 3},
        "p1": {"influence": 2, "hand": ["Tide of Recall"], "library": ["Emberlash"] * 4},
        "p2": {"influence": 0, "board": [{"card": "Knife in the Crowd", "as": "knife"}],
               "hand": ["Knife in the Crowd", "Hoarded Favor"], "library": ["Knife in the Crowd"] * 4},
    }
    g = build(scenario_from_data(data, "<test>", DB))
    knife = g.aliases["knife"]
    g.apply_command(f"p1: play \"Tide of Recall\" target #{knife}")
    g.apply_command("p2: pass")     # it resolves: the Knife goes back to p2's hand
    assert knife not in g.players[1].board
    return g, knife


def _to_main(g: Game, turn: int) -> None:
    while not (g.turn == turn and g.window == "main.priority"):
        g.apply(Attack(()) if g.decision.kind == "attackers" else Pass())


def test_rules_7a_a_bounced_card_set_face_down_is_not_recognised() -> None:
    """The leak of issue #18: p1 bounced p2's Knife in the Crowd (#12), and p2's Set told p1 "p2: set
    #12" — which card was face down. p1 must read only that a card was Set."""
    g, knife = _bounced_knife()
    mark = len(g.events)
    _to_main(g, 4)
    assert knife not in g.players[1].hand
    # p2 Sets the bounced Knife (p2 knows which of its two Knives it is by its new number)
    bounced = next(c for c in g.players[1].hand if any(knife in e.cards and c in e.cards
                                                       for e in events_for(g, 1) if e.kind == "move"))
    g.apply_command(f"p2: set #{bounced}")
    text = "\n".join(e.text for e in events_for(g, 0, mark))
    assert "Sets a card face down" in text and "set a card face down" in text
    assert f"#{knife}" not in text and f"#{bounced}" not in text
    assert not any(knife in e.cards or bounced in e.cards for e in events_for(g, 0, mark)), text
    # the face-down card's number is none p1 ever saw, and p1 can't name it
    face_down = g.players[1].set_cards[-1]
    assert face_down not in (knife, bounced)
    with pytest.raises(MalformedCommand, match="not a card you can see"):
        resolve_ref(g, f"#{face_down}", "target", 0)
    # p2 reads its own numbers, as before
    mine = "\n".join(e.text for e in events_for(g, 1, mark))
    assert f"p2: set #{bounced}" in mine and f"#{face_down}" in mine


def test_rules_7a_a_card_gets_a_fresh_number_on_entering_a_hidden_zone() -> None:
    g, knife = _bounced_knife()
    # it went back to the hand: a new card object with a new number; the old one names no card in a zone
    assert g.zone[knife] == GONE and g.card(knife).name == "Knife in the Crowd"   # (it was public)
    top = g.players[1].library[0]
    _to_main(g, 4)                       # p2 draws its top card: a fresh number in the hand
    assert top not in g.players[1].hand and g.zone[top] == GONE and not g.exists(top)
    drawn = g.players[1].hand[-1]
    assert g.card(drawn).name == "Knife in the Crowd" and drawn not in (top, knife)
    # typing the library number gets the answer of a number that exists nowhere
    with pytest.raises(MalformedCommand) as a:
        resolve_ref(g, f"#{top}", "target", 0)
    unused = next(n for n in range(1, 10**6) if n not in g.defs)
    with pytest.raises(MalformedCommand) as b:
        resolve_ref(g, f"#{unused}", "target", 0)
    assert str(a.value).replace(str(top), "N") == str(b.value).replace(str(unused), "N")
    # a card played from the hand keeps its hand number in public
    g.players[1].influence = 5
    favor = next(c for c in g.players[1].hand if g.card(c).name == "Hoarded Favor")
    g.apply_command(f"p2: play #{favor}")
    assert g.stack and g.stack[-1].source == favor
    assert any(f"#{favor}" in e.text for e in events_for(g, 0))


def test_rules_7a_numbers_come_from_the_match_generator() -> None:
    d = [load_deck(find_deck(n), DB) for n in ("veil-masquerade", "ironbound")]
    a, b, c = Game.new(DB, d[0], d[1], 5), Game.new(DB, d[0], d[1], 5), Game.new(DB, d[0], d[1], 6)
    assert a.players[0].hand == b.players[0].hand and a.players[0].library == b.players[0].library
    assert a.players[0].hand != c.players[0].hand
    numbers = [n for n in a.defs if n]
    assert len(set(numbers)) == len(numbers) and all(1 <= n < 1000 for n in numbers)
    # not in library order: the top of the library has no lowest number
    lib = a.players[0].library
    assert lib != sorted(lib)


# ---------------------------------------------------------------- twins that differ in hidden numbers

#: relabelled numbers: above any the generator gives in these matches (fewer than 5,000 card objects), so
#: both twins draw alike; six digits, as a typed number may have
_FAR = 500_000


def _twins(g: Game, viewer: int) -> tuple[Game, Game, dict[int, int]]:
    """Two copies of `g` whose cards hidden from `viewer` (libraries, the opponent's hand and Set) have
    other numbers: `a` keeps them (c), `b` has c + _FAR. Each also holds the other's numbers as taken
    (no card), so both draw the same fresh numbers from then on. The viewer may not tell them apart."""
    a, b = g.clone(), g.clone()
    hidden = sorted(c for p, ps in enumerate(g.players)
                    for c in ps.library + ([] if p == viewer else ps.hand + ps.set_cards))
    sigma = {c: _FAR + c for c in hidden}
    for c, far in sigma.items():
        a.defs[far], a.owner[far], a.zone[far] = None, a.owner[c], GONE
        b.defs[far], b.owner[far], b.zone[far] = b.defs[c], b.owner[c], b.zone[c]
        b.defs[c], b.zone[c] = None, GONE
    for ps in b.players:
        ps.library = [sigma.get(c, c) for c in ps.library]
        ps.hand = [sigma.get(c, c) for c in ps.hand]
        ps.set_cards = [sigma.get(c, c) for c in ps.set_cards]
    return a, b, sigma


def _relabel(text: str, sigma: dict[int, int]) -> str:
    return _NUM.sub(lambda m: f"#{sigma.get(int(m.group(1)), int(m.group(1)))}", text)


def _canonical(g: MatchState, viewer: int, since: int) -> list[str]:
    """The viewer's events with every card number replaced by the order in which the viewer first met
    it (#a0, #a1 …): two logs are alike when they name the same cards the same way, whatever the numbers."""
    first: dict[int, int] = {}
    out = []
    for e in events_for(g, viewer):
        nums = [int(x) for x in _NUM.findall(e.text)] + list(e.cards)
        for n in nums:
            first.setdefault(n, len(first))
        if e.n >= since:
            out.append(_NUM.sub(lambda m: f"#a{first[int(m.group(1))]}", e.text)
                       + f" {[first[c] for c in e.cards]}")
    return out


@pytest.mark.parametrize(("seed", "steps", "pair"), [
    (1, 0, ("veil-masquerade", "null-silence")), (2, 60, ("veil-masquerade", "null-silence")),
    (3, 140, ("veil-masquerade", "paradox-flux")), (4, 90, ("ironbound", "veil-masquerade")),
    (5, 200, ("veil-masquerade", "emberfall")), (6, 30, ("genesis-grove", "veil-masquerade"))])
def test_rules_7a_twins_that_differ_only_in_hidden_numbers_read_the_same(seed: int, steps: int,
                                                                        pair: tuple[str, str]) -> None:
    """Relabel every card hidden from the viewer, play on with the same commands, and the viewer's log
    (numbers canonicalised by first meeting) and view of the opponent stay the same. A number shown
    again after the card was hidden (the bounced Knife's "p2: set #12") breaks this; permuting
    identities behind fixed numbers could not see it."""
    d = [load_deck(find_deck(n), DB) for n in pair]
    g = Game.new(DB, d[0], d[1], seed)
    agent = SplitMix64(seed ^ 0x5EED)
    for k in range(steps + 40):
        # (twins are made with no choice pending: a discard's options are hand numbers, set when it began)
        if g.is_terminal() or (k >= steps and g.choice is None):
            break
        g.apply(random_action(g, agent))
    for viewer in (0, 1):
        a, b, sigma = _twins(g, viewer)
        since = len(a.events)
        rng = SplitMix64(seed ^ viewer)
        for _ in range(120):
            if a.is_terminal():
                break
            action = random_action(a, rng)
            p = a.current_player()
            line = _relabel(str(action), sigma)
            a.apply(action, p)
            b.apply_command(line, p)
            assert _canonical(a, viewer, since) == _canonical(b, viewer, since)
            va, vb = observe(a, viewer), observe(b, viewer)
            assert (va.opponent.hand_size, va.opponent.set_count, va.me.library) == \
                   (vb.opponent.hand_size, vb.opponent.set_count, vb.me.library)


def test_rules_7a_twins_catch_the_bounced_knife() -> None:
    """The twin check on the position of the issue #18 leak: p2's hand numbered otherwise, p2 Sets the
    bounced Knife, and p1's log must read the same (a number p1 saw in play, shown again for a hidden
    card, would make the two logs differ)."""
    g, knife = _bounced_knife()
    _to_main(g, 4)
    a, b, sigma = _twins(g, 0)
    since = len(a.events)
    bounced = max(c for c in a.players[1].hand if a.card(c).name == "Knife in the Crowd"
                  and any(c in e.cards for e in events_for(a, 1) if e.kind == "move"))
    for line in (f"p2: set #{bounced}", "p2: pass", "p1: pass"):
        a.apply_command(line)
        b.apply_command(_relabel(line, sigma))
        assert _canonical(a, 0, since) == _canonical(b, 0, since), line
