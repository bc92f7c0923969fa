"""Hidden information (rules.md §7a): observe(game, player) shows no card of a library, of the opponent's
hand or Set zone, and nothing that would predict the shuffles (seed, PRNG state); refusals name no
hidden card."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import events_for, observe
from engine.actions import Attack, IllegalAction, MalformedCommand, Pass, Play
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.scenario import build, scenario_from_data
from engine.selfplay import random_action
from tests.helpers import mid_match
from tests.tier import examples

DB = load_card_db()


def _hidden_ids(g: Game, viewer: int) -> set[int]:
    out: set[int] = set()
    for p, ps in enumerate(g.players):
        out.update(ps.library)
        if p != viewer:
            out.update(ps.hand)
            out.update(ps.set_cards)
    return out


def _mid_match(seed: int, steps: int, decks: tuple[str, str] = ("veil-masquerade", "ironbound")) -> Game:
    return mid_match(DB, seed, steps, decks, salt=77)


def test_observe_masks_libraries_the_opponents_hand_and_the_seed() -> None:
    decks = [load_deck(find_deck(n), DB) for n in ("veil-masquerade", "ironbound")]
    g = Game.new(DB, decks[0], decks[1], 99)
    agent = SplitMix64(5)
    for _ in range(400):
        if g.is_terminal():
            break
        for viewer in (0, 1):
            view = observe(g, viewer)
            assert view.seed is None
            hidden = _hidden_ids(g, viewer)
            text = repr(view)
            for cid in hidden:
                assert f"cid={cid}," not in text and f"#{cid} " not in text and f"source={cid}," not in text
            assert [c.cid for c in view.hand] == g.players[viewer].hand + g.players[viewer].set_cards
            other = view.opponent
            assert other.hand_size == len(g.players[1 - viewer].hand)
            assert other.set_count == len(g.players[1 - viewer].set_cards)
            assert view.me.library == len(g.players[viewer].library)
            if g.current_player() != viewer:
                assert view.decision is None and view.priority == -1
                assert view.waiting_text == f"waiting for {g.players[g.current_player()].name}"
            else:
                assert view.decision is not None and view.decision.kind == g.decision.kind
        g.apply(random_action(g, agent))
    while not g.is_terminal():
        g.apply(random_action(g, agent))
    assert observe(g, 0).seed == 99 and observe(g, 1).outcome == str(g.outcome)


def test_the_seed_is_in_no_event_until_the_match_is_over() -> None:
    seed = 987_654_321_987
    decks = [load_deck(find_deck(n), DB) for n in ("paradox-flux", "ironbound")]
    g = Game.new(DB, decks[0], decks[1], seed)
    agent = SplitMix64(1)
    while not g.is_terminal():
        g.apply(random_action(g, agent))
    over = next(e.n for e in g.events if e.kind == "game_over")
    assert not any(str(seed) in e.text or str(seed) in e.public_text for e in g.events[:over])
    assert str(seed) in g.events[over].text


def _reshuffle_hidden(g: Game, viewer: int, seed: int) -> Game:
    """A copy of `g` that differs only in what `viewer` can't see: every card hidden from them is replaced
    by another card of the set (a library's, the opponent's hand's and Set's)."""
    h = g.clone()
    pool = [d for _, d in sorted(DB.by_id.items()) if d.type in ("unit", "relic", "action") and not d.token]
    rng = SplitMix64(seed)
    for cid in sorted(_hidden_ids(g, viewer)):
        h.defs[cid] = pool[rng.below(len(pool))]
    return h


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 250), other=st.integers(0, 2**32))
def test_games_that_differ_only_in_hidden_cards_look_the_same(seed: int, steps: int, other: int) -> None:
    g = _mid_match(seed, steps)
    for viewer in (0, 1):
        h = _reshuffle_hidden(g, viewer, other)
        assert observe(h, viewer) == observe(g, viewer)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), pair=st.sampled_from([("veil-masquerade", "null-silence"),
                                                          ("paradox-flux", "ironbound")]))
def test_no_event_a_player_may_read_names_a_card_hidden_from_them(seed: int, pair: tuple[str, str]) -> None:
    """No event a player may read carries the number of a card they have never seen (in text or `cards`),
    `set` events included: a card is Set face down without its number (rules.md §7a)."""
    d = [load_deck(find_deck(n), DB) for n in pair]
    g = Game.new(DB, d[0], d[1], seed)
    agent = SplitMix64(seed ^ 3)
    ever: tuple[set[int], set[int]] = (set(), set())
    seen = 0
    for _ in range(300):
        for viewer in (0, 1):
            ever[viewer].update(i for i in g.defs if i and g.visible_to(i, viewer))
            never = {i for i in g.defs if i} - ever[viewer]
            for e in events_for(g, viewer, seen):
                words = set(e.text.replace(",", " ").replace(")", " ").replace("(", " ").split())
                assert not {f"#{c}" for c in never} & words, (viewer, e)
                assert not set(e.cards) & never, (viewer, e)
        seen = len(g.events)
        if g.is_terminal():
            break
        g.apply(random_action(g, agent))


def test_matches_that_differ_only_in_hidden_cards_give_the_same_events() -> None:
    """Two matches whose p2 holds (and draws) different cards: p1 reads the same log, draws included."""
    def game(hand: list[str], library: list[str]) -> Game:
        data = {
            "scenario": {"window": "main.priority", "turn": 3},
            "p1": {"hand": ["Emberlash"], "library": ["Emberlash"] * 3},
            "p2": {"hand": hand, "library": library},
        }
        return build(scenario_from_data(data, "<test>", DB))

    a = game(["Unmake", "Unmake"], ["Briar Scout"] * 3)
    b = game(["Briar Scout", "Emberlash"], ["Unmake"] * 3)
    for g in (a, b):
        while g.turn < 5:   # both players pass (and attack with nothing) through p2's turn: p2 draws
            g.apply(Attack(()) if g.decision.kind == "attackers" else Pass())
    assert any(e.kind == "draw" and e.actor == 1 for e in a.events)
    assert [e.text for e in events_for(a, 0)] == [e.text for e in events_for(b, 0)]
    assert observe(a, 0) == observe(b, 0)
    assert [e.text for e in events_for(a, 1)] != [e.text for e in events_for(b, 1)]
    drawn = next(e for e in events_for(a, 0) if e.kind == "draw" and e.actor == 1)
    assert drawn.text == "  p2 draws a card" and drawn.cards == ()


def test_a_set_card_stays_hidden_and_refusals_never_name_a_hidden_card() -> None:
    data = {
        "scenario": {"window": "main.priority", "turn": 3},
        "p1": {"influence": 3, "hand": ["Snare of Shadows"], "library": ["Emberlash"]},
        "p2": {"hand": ["Unmake"], "library": ["Briar Scout"]},
    }
    g = build(scenario_from_data(data, "<test>", DB))
    snare = g.players[0].hand[0]
    g.apply_command(f"p1: set #{snare}")
    (snare,) = g.players[0].set_cards          # Set face down: a fresh number (rules.md §7a)
    assert observe(g, 1).opponent.set_count == 1
    hidden = [snare, g.players[1].hand[0], g.players[0].library[0], g.players[1].library[0]]
    names = {g.card(c).name for c in hidden}
    for cid in hidden:
        for player in (0, 1):
            if cid in g.players[player].hand + g.players[player].set_cards:
                continue
            r = g.why_not(Play(cid), player)
            assert r is not None
            assert not any(n in r.reason for n in names), r.reason
    with pytest.raises((MalformedCommand, IllegalAction)) as err:
        g.apply_command('p2: play "Snare of Shadows"')
    assert "#" + str(snare) not in str(err.value)


def test_a_permission_from_the_hand_is_offered_whether_or_not_a_card_can_be_played() -> None:
    """rules.md §7a: Muster the Reserves offers a unit from the hand. Whether p1 holds one is private, so
    p1 is asked in both cases (only decline is legal without one) and p2 sees the same match."""
    def after_muster(hand: list[str]) -> Game:
        data = {
            "scenario": {"window": "main.priority", "turn": 3},
            "p1": {"influence": 4, "hand": ["Muster the Reserves", *hand], "library": ["Emberlash"] * 3},
            "p2": {"influence": 0, "library": ["Briar Scout"] * 3},
        }
        g = build(scenario_from_data(data, "<test>", DB))
        g.apply_command('p1: play "Muster the Reserves"')
        g.apply_command("p2: pass")   # it resolves
        assert g.decision.kind == "choice" and g.current_player() == 0
        return g

    offered, none = after_muster(["Briar Scout"]), after_muster(["Emberlash"])
    assert observe(offered, 1) == observe(none, 1)
    assert [str(a) for a in none.legal_actions()] == ["decline"]
    assert any(isinstance(a, Play) for a in offered.legal_actions())
    for g in (offered, none):
        g.apply_command("p1: decline")
    assert [e.text for e in events_for(offered, 1)] == [e.text for e in events_for(none, 1)]
    assert any("p1 plays nothing" in e.text for e in events_for(none, 1))
    assert observe(offered, 1) == observe(none, 1)

    def after_muster_empty_hand() -> Game:   # an empty hand is public: nothing to ask
        g = _scenario({"influence": 4, "hand": ["Muster the Reserves"], "library": ["Emberlash"] * 3},
                      {"influence": 0, "library": ["Briar Scout"] * 3})
        g.apply_command('p1: play "Muster the Reserves"')
        g.apply_command("p2: pass")
        return g

    assert after_muster_empty_hand().decision.kind == "priority"


def _scenario(p1: dict[str, object], p2: dict[str, object]) -> Game:
    return build(scenario_from_data({"scenario": {"window": "main.priority", "turn": 3}, "p1": p1, "p2": p2},
                                    "<test>", DB))


def test_the_other_players_view_is_the_same_whether_a_private_decline_happened_or_not() -> None:
    """rules.md §7a: declining an Interrupt (or a permission) is private, so the opponent's whole view —
    the count of commands included — is the same as when there was nothing to decline."""
    def after_omen(p2_hand: str, p2_library: str) -> Game:
        g = _scenario({"influence": 5, "hand": ["Wild Omen"], "library": ["Wild Omen"] * 3},
                      {"influence": 5, "hand": [p2_hand], "library": [p2_library] + ["Wild Omen"] * 2})
        g.apply_command('p1: play "Wild Omen"')
        assert g.decision.kind == "interrupt" and g.current_player() == 1   # asked on public facts
        g.apply_command("p2: decline")
        return g

    # the same public facts (p2's cards, hand size, Influence), a usable Nullify in the hand or not
    holds, lacks = after_omen("Swallowed Word", "Briar Scout"), after_omen("Briar Scout", "Swallowed Word")
    assert holds.commands_known_to(1) == len(holds.record) == holds.commands_known_to(0) + 1
    assert observe(holds, 0) == observe(lacks, 0)

    def after_muster(hand: list[str]) -> Game:
        g = _scenario({"influence": 4, "hand": ["Muster the Reserves", *hand], "library": ["Emberlash"] * 3},
                      {"influence": 0, "library": ["Briar Scout"] * 3})
        g.apply_command('p1: play "Muster the Reserves"')
        g.apply_command("p2: pass")
        g.apply_command("p1: decline")
        return g

    offered, none = after_muster(["Briar Scout"]), after_muster(["Emberlash"])
    assert len(offered.record) == len(none.record) == 3
    assert observe(offered, 1).commands == observe(none, 1).commands == 2


def test_event_numbers_do_not_show_where_the_opponent_declined_an_interrupt() -> None:
    """rules.md §7a: p1 must not learn from the numbering of the events it may read (`n`, `command`)
    whether p2 was asked about a Nullify and declined it — the same public history gives the same
    numbers, whatever p2 holds."""
    def after_omen(p2_card: str, p2_library: str) -> Game:
        g = _scenario({"influence": 5, "hand": ["Wild Omen"], "library": ["Wild Omen"] * 3},
                      {"influence": 5, "hand": [p2_card], "library": [p2_library] + ["Wild Omen"] * 2})
        g.apply_command('p1: play "Wild Omen"')
        assert g.decision.kind == "interrupt"
        g.apply_command("p2: decline")
        g.apply_command("p2: pass")
        return g

    holds, lacks = after_omen("Swallowed Word", "Briar Scout"), after_omen("Briar Scout", "Swallowed Word")
    for g in (holds, lacks):
        assert [e.n for e in events_for(g, 0)] == list(range(len(events_for(g, 0))))

    def public(g: Game) -> list[tuple[int, int, str]]:
        return [(e.n, e.command, e.text) for e in events_for(g, 0)]

    assert public(holds) == public(lacks)
