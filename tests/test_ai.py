"""Agents and determinization read only what their player may know (rules.md §7a), and are seeded.

The central check: two matches identical for a player but with different hidden cards (the opponent's
hand, both libraries' order, the match generator) give that player identical samples, identical
forecasts and identical decisions."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import zones
from engine.actions import Action, Attack, Block
from engine.ai import GreedyAgent, RandomAgent, SearchAgent, agent_policy, make_agent, play_match
from engine.cards import load_card_db
from engine.decks import bundled_deck_paths, load_deck
from engine.game import Game
from engine.options import BLOCK_LEAF_CAP
from engine.rng import SplitMix64
from engine.sampling import InfoSet, determinize, forecast, observe, random_attack, random_block
from engine.selfplay import random_action
from engine.state import GRAVEYARD, MatchOptions, phase_of

DB = load_card_db()
DECKS = {p.stem: load_deck(p, DB) for p in bundled_deck_paths()}


def midgame(seed: int, turn: int = 6, kind: str = "priority", player: int = 0) -> Game:
    g = Game.new(DB, DECKS["ironbound"], DECKS["veil-masquerade"], seed, MatchOptions(max_turns=200))
    rng = SplitMix64(seed)
    while not (g.turn >= turn and g.pending.kind == kind and g.current_player() == player):
        assert not g.is_terminal(), "the match ended before the position the test needs"
        g.apply(random_action(g, rng))
    return g


def hidden_twin(g: Game, player: int) -> Game:
    """The same match for `player`, but every hidden card dealt differently and another generator."""
    t = g.clone()
    for owner in (0, 1):
        ps = t.players[owner]
        zones = ps.library + (ps.hand + ps.set_cards if owner != player else [])
        ids = sorted(zones)
        defs = [t.defs[c] for c in ids]
        defs = defs[1:] + defs[:1]          # rotate: each hidden id becomes another card
        for c, d in zip(ids, defs, strict=True):
            t.defs[c] = d
        ps.library.reverse()
    t.rng.state ^= 0xDEADBEEF
    t.seed ^= 0xDEADBEEF
    return t


def _differs_in_hidden(a: Game, b: Game, player: int) -> bool:
    opp = 1 - player
    return ([a.card(c).id for c in a.players[opp].hand] != [b.card(c).id for c in b.players[opp].hand]
            and a.state_hash() != b.state_hash())


@pytest.mark.parametrize("seed", [3, 17])
def test_hidden_twin_looks_the_same_but_is_not(seed: int) -> None:
    g = midgame(seed)
    t = hidden_twin(g, 0)
    assert _differs_in_hidden(g, t, 0)
    assert observe(g, 0) == observe(t, 0)
    assert InfoSet(g, 0).key == InfoSet(t, 0).key
    assert InfoSet(g, 0).quick_key == InfoSet(t, 0).quick_key


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_samples_depend_only_on_the_view(seed: int) -> None:
    g = midgame(seed)
    t = hidden_twin(g, 0)
    for s in (1, 2, 99):
        a, b = InfoSet(g, 0).sample(s), InfoSet(t, 0).sample(s)
        assert a.state_hash() == b.state_hash()
    assert InfoSet(g, 0).sample(1).state_hash() != InfoSet(g, 0).sample(2).state_hash()


def test_a_sample_is_consistent_with_the_view() -> None:
    g = midgame(5)
    for player in (0, 1):
        s = determinize(g, player, 42)
        assert observe(s, player) == observe(g, player)
        # each owner keeps the same cards overall; only hidden identities moved
        for owner in (0, 1):
            mine = sorted(c for c in g.defs if g.exists(c) and g.owner[c] == owner)
            assert Counter(g.card(c).id for c in mine) == Counter(s.card(c).id for c in mine)
        # the player's own hand is untouched; the samples differ from the truth somewhere hidden
        assert [s.card(c).id for c in s.players[player].hand] == [g.card(c).id for c in g.players[player].hand]
    assert determinize(g, 0, 42).players[0].library != g.players[0].library or \
        [determinize(g, 0, 42).card(c).id for c in g.players[0].library] != \
        [g.card(c).id for c in g.players[0].library]


def test_a_sample_plays_on() -> None:
    g = midgame(7)
    s = InfoSet(g, 0).sample(3)
    rng = SplitMix64(1)
    for _ in range(300):
        if s.is_terminal():
            break
        s.apply(random_action(s, rng))


@pytest.mark.parametrize("spec", ["random", "greedy", "search:1", "halving:1"])
@pytest.mark.parametrize("seed", [3, 17])
def test_an_agent_cannot_see_hidden_cards(spec: str, seed: int) -> None:
    """Two positions identical for p1 but with other hidden cards: the same decision."""
    g = midgame(seed)
    t = hidden_twin(g, 0)
    assert _differs_in_hidden(g, t, 0)
    a = make_agent(spec, seed=11).act(InfoSet(g, 0))
    b = make_agent(spec, seed=11).act(InfoSet(t, 0))
    assert a == b


@pytest.mark.parametrize("kind", ["attackers", "blockers"])
def test_combat_decisions_cannot_see_hidden_cards(kind: str) -> None:
    player = 0 if kind == "attackers" else 1
    g = midgame(23, turn=5, kind=kind, player=player)
    t = hidden_twin(g, player)
    for agent in (GreedyAgent(5), SearchAgent(5, level=1, iterations=30)):
        assert agent.act(InfoSet(g, player)) == agent.act(InfoSet(t, player))


def test_same_view_and_seed_same_decision() -> None:
    g = midgame(31)
    for agent in (RandomAgent(4), GreedyAgent(4), SearchAgent(4, level=1)):
        first = agent.act(InfoSet(g, 0))
        # the agent keeps no state between decisions: asking again (even after other decisions) agrees
        agent.act(InfoSet(midgame(32), 0))
        assert agent.act(InfoSet(g.clone(), 0)) == first
        assert g.why_not(first, 0) is None


def test_agents_answer_every_kind_of_decision_legally() -> None:
    g = Game.new(DB, DECKS["veil-masquerade"], DECKS["null-silence"], 8, MatchOptions(max_turns=30))
    agents = (GreedyAgent(1), RandomAgent(2))
    kinds: set[str] = set()

    def check(p: int, a: object) -> None:
        kinds.add(g.pending.kind)
        assert g.why_not(a, p) is None, f"{a} refused: {g.why_not(a, p)}"   # type: ignore[arg-type]

    r = play_match(g, agents, on_decision=check)
    assert r.turns > 1 and {"priority", "attackers", "blockers"} <= kinds


def test_sampled_attacks_and_blocks_are_legal_and_varied() -> None:
    seen_blocks: set[Block] = set()
    seen_attacks: set[Attack] = set()
    for seed in range(12):
        g = Game.new(DB, DECKS["ironbound"], DECKS["genesis-grove"], seed, MatchOptions(max_turns=40))
        rng = SplitMix64(seed)
        while not g.is_terminal():
            k = g.pending.kind
            if k == "blockers":
                for _ in range(5):
                    b = random_block(g, rng)
                    assert g.why_not(b) is None, f"{b}: {g.why_not(b)}"
                    seen_blocks.add(b)
            elif k == "attackers":
                for _ in range(5):
                    a = random_attack(g, rng)
                    assert g.why_not(a) is None
                    seen_attacks.add(a)
            g.apply(random_action(g, rng))
    assert any(b.pairs for b in seen_blocks) and any(a.units for a in seen_attacks)


def test_blocks_are_sampled_not_enumerated_on_a_wide_board() -> None:
    """Seven attackers against seven blockers (7×7 has 131k assignments): the agents still answer."""
    opts = MatchOptions(max_turns=200, unit_slots=7)
    g = Game.new(DB, DECKS["ironbound"], DECKS["ironbound"], 41, opts)
    # put seven ready units on each side straight from the libraries
    for p in (0, 1):
        ps = g.players[p]
        ps.board = [0] * 7
        units = [c for c in ps.library if g.card(c).type == "unit"][:7]
        for i, c in enumerate(units):
            ps.library.remove(c)
            zones.enter_play(g, c, p, i, summoned=True)
            g.perms[c].entered_turn = -5
    rng = SplitMix64(2)
    while g.pending.kind != "attackers":
        g.apply(random_action(g, rng) if g.pending.kind != "priority" else
                next(a for a in g.legal_actions() if str(a) == "pass"))
    g.apply(Attack(tuple(g.players[0].units())))
    while str(g.pending.kind) != "blockers":   # (str: mypy narrowed the kind at the loop above)
        g.apply(next(a for a in g.legal_actions() if str(a) in ("pass", "decline")))
    info = InfoSet(g, 1)
    assert info.legal_actions() == []
    # the engine's own list is capped instead of exploding (131k assignments at 7×7)
    listed = g.legal_actions()
    assert Block(()) in listed and len(listed) <= BLOCK_LEAF_CAP
    assert all(g.why_not(a, 1) is None for a in listed[::17])
    for agent in (RandomAgent(1), GreedyAgent(1), SearchAgent(1, level=1, iterations=20)):
        a = agent.act(info)
        assert isinstance(a, Block) and g.why_not(a, 1) is None


def test_rules_2_ai_query_state_after_this_phase_depends_only_on_the_view() -> None:
    """rules.md §2 "AI queries": the views after the rest of the phase, from the player's view only."""
    g = midgame(3, turn=6, kind="priority", player=0)
    t = hidden_twin(g, 0)
    start = (g.turn, phase_of(g.win))
    a = forecast(g, 0, samples=4, seed=9)
    b = forecast(t, 0, samples=4, seed=9)
    assert a == b and len(a) == 4
    for v in a:
        assert (v.turn, v.phase) != start or v.outcome is not None
        assert v.viewer == 0
    # the truth is untouched
    assert g.state_hash() != t.state_hash() and (g.turn, phase_of(g.win)) == start


def test_forecast_under_agents_is_seeded_and_hides_the_opponents_cards() -> None:
    g = midgame(4, turn=6, kind="priority", player=0)
    pol = agent_policy(GreedyAgent(1), GreedyAgent(2))
    a = forecast(g, 0, policy=pol, samples=2, seed=5)
    assert a == forecast(hidden_twin(g, 0), 0, policy=pol, samples=2, seed=5)


def test_forecast_views_hide_the_opponents_cards() -> None:
    g = midgame(3)
    opp_hand = {c for c in g.players[1].hand}
    for v in forecast(g, 0, samples=2, seed=1):
        assert v.opponent.hand_size >= 0 and all(h.cid not in opp_hand for h in v.hand)


def test_unknown_agent_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("grandmaster")
    with pytest.raises(ValueError, match="level"):
        make_agent("search:9")
    assert make_agent("search:3").name == "search:3"


def test_greedy_beats_random() -> None:
    wins = 0
    names = ["ironbound", "emberfall", "veil-masquerade", "genesis-grove"]
    for i in range(4):
        a, b = names[i], names[(i + 1) % 4]
        g = Game.new(DB, DECKS[a], DECKS[b], 100 + i, MatchOptions(max_turns=200))
        seats = (GreedyAgent(i), RandomAgent(i)) if i % 2 == 0 else (RandomAgent(i), GreedyAgent(i))
        r = play_match(g, seats)
        wins += r.winner == (0 if i % 2 == 0 else 1)
    assert wins >= 3


class _Script:
    """Plays the listed action texts in order when they are legal, and otherwise the first legal action."""
    name = "script"

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)

    def act(self, info: InfoSet) -> Action:
        acts = info.legal_actions()
        for a in acts:
            if self.texts and str(a) == self.texts[0]:
                self.texts.pop(0)
                return a
        return acts[0]


def test_play_match_counts_a_nullify_used_from_the_hand_as_played() -> None:
    """KW Nullify: the Action is used from the hand as an Interrupt, not played — but for the card
    statistics of `c1k simulate` it was played (it left the hand and did its work)."""
    from pathlib import Path

    from engine.scenario import build, load_scenario

    root = Path(__file__).resolve().parent.parent / "decks" / "lessons"
    g = build(load_scenario(root / "32-null-nullify.scenario.toml", DB))
    ember = next(c for c in g.players[0].hand if g.card(c).name == "Emberlash")
    word = next(c for c in g.players[1].hand if g.card(c).name == "Swallowed Word")
    target = g.players[1].board[0]
    seen: list[tuple[int, str]] = []
    r = play_match(g, (_Script(f"play #{ember} target #{target}"), _Script(f"interrupt #{word}")),
                   max_actions=3, on_decision=lambda p, a: seen.append((p, str(a))))
    assert seen[:2] == [(0, f"play #{ember} target #{target}"), (1, f"interrupt #{word}")]
    assert g.zone[word] == GRAVEYARD
    assert r.played == (("emberlash",), ("swallowed-word",))
