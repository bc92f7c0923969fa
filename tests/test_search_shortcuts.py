"""The search's shortcuts (issue #20 item 8) decide exactly what the long way decides.

- A determinization dealt from a kept plan (`deal_plan`, what `InfoSet.sample` reuses across a search)
  is the sample the reference algorithm (the one before the plan, kept below) deals from the same seed.
- The inlined shuffle draws exactly as `SplitMix64.shuffle`.
- A search that stops once its choice can no longer change (`_decided`) chooses what the full budget
  chooses.
- A forced decision (one legal action) handed over by `play_match` without asking the agent is what
  every built-in agent answers from its information set.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.actions import Action
from engine.ai import GreedyAgent, Node, RandomAgent, SearchAgent, _decided, choose, forced_action
from engine.cards import load_card_db
from engine.chunked import ChunkedList
from engine.decks import bundled_deck_paths, load_deck
from engine.events import EventLog
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.sampling import InfoSet, deal_plan, determinize
from engine.selfplay import random_action
from engine.state import MatchOptions

DB = load_card_db()
DECKS = [load_deck(p, DB) for p in bundled_deck_paths()]


def reference_determinize(game: Game, player: int, seed: int) -> Game:
    """`determinize` as it was before the plan (commit fc08790), line for line."""
    g = game.clone()
    rng = SplitMix64(seed)
    for owner in (player, 1 - player):
        ps = g.players[owner]
        zones = ps.library + ps.hand + ps.set_cards if owner != player else list(ps.library)
        hidden = sorted(c for c in zones if g.owner[c] == owner and not g.visible_to(c, player))
        if not hidden:
            continue
        pool = [g.defs[c] for c in hidden]
        pool.sort(key=lambda d: d.id if d else "")
        rng.shuffle(pool)
        set_ids = sorted(ps.set_cards) if owner != player else []
        for cid in set_ids:
            k = next((i for i, cd in enumerate(pool) if cd is not None and "ambush" in cd.keywords), 0)
            g.defs[cid] = pool.pop(k)
        rest = [c for c in hidden if c not in set_ids]
        for cid, cd in zip(rest, pool, strict=True):
            g.defs[cid] = cd
        ps.library = sorted(ps.library)
        if owner != player:
            ps.hand = sorted(ps.hand)
            ps.set_cards = set_ids
    g.rng = SplitMix64(rng.next())
    g.seed = rng.next()
    g._events = EventLog()
    g.record = ChunkedList([""] * len(game.record))
    g.aliases = {}
    g.earlier_numbers = {}
    d = g.pending
    if d.player >= 0 and d.player != player:
        ch = g.choice
        if ch is not None and ch.player == d.player and ch.kind == "permit":
            g.choice = replace(ch, values=tuple(c for c in ch.values if g.visible_to(c, player)))
            shown = len(g.choice.values)
        else:
            shown = len(d.options)
        g.pending = replace(d, prompt=f"waiting for p{d.player + 1}", options=tuple("?" for _ in range(shown)),
                            eligible=tuple(c for c in d.eligible if g.visible_to(c, player)))
    return g


def states(matches: int, every: int, seed: int = 1) -> list[Game]:
    """Positions of random matches between the bundled decks (every `every`-th decision)."""
    out = []
    for m in range(matches):
        d1, d2 = DECKS[m % len(DECKS)], DECKS[(3 * m + 1) % len(DECKS)]
        g = Game.new(DB, d1, d2, derive_seed(seed, m), MatchOptions(max_turns=30))
        rng = SplitMix64(derive_seed(seed + 1, m))
        n = 0
        while not g.is_terminal():
            if n % every == 0:
                out.append(g.clone())
            g.apply(random_action(g, rng))
            n += 1
    return out


POSITIONS = states(11, 9)


def sample_text(g: Game) -> Any:
    """Everything a sample deals: its snapshot, and the hidden zones' cards in order."""
    return (g.snapshot_bytes(), [[g.card(c).id for c in ps.library + ps.hand + ps.set_cards] for ps in g.players],
            g.rng.state, g.seed, g.pending, g.choice)


def test_a_sample_dealt_from_a_plan_is_the_reference_sample() -> None:
    assert len(POSITIONS) > 300
    for i, g in enumerate(POSITIONS):
        for player in (0, 1):
            plan = deal_plan(g, player)
            for seed in (i, derive_seed(i, player)):
                want = sample_text(reference_determinize(g, player, seed))
                assert sample_text(determinize(g, player, seed, plan)) == want, (i, player, seed)
                assert sample_text(determinize(g, player, seed)) == want, (i, player, seed)


def test_an_information_set_deals_its_samples_as_the_reference_does() -> None:
    for i, g in enumerate(POSITIONS[::4]):
        p = g.current_player() if not g.is_terminal() else 0
        info = InfoSet(g, p)
        base = reference_determinize(g, p, 0x1AF0_5E7)      # what the InfoSet keeps (REDACT_SEED)
        for k in range(3):                                   # the plan is kept after the first sample
            s = derive_seed(i, k)
            assert sample_text(info.sample(s)) == sample_text(reference_determinize(base, p, s)), (i, k)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 40, 61])
def test_the_inlined_shuffle_draws_as_fisher_yates_with_below(n: int) -> None:
    """SplitMix64.shuffle inlines `below` (docs/determinism.md §1): the same draws, the same state after."""
    for seed in range(25):
        a, b = SplitMix64(seed * 7919), SplitMix64(seed * 7919)
        xs, ys = list(range(n)), list(range(n))
        a.shuffle(xs)
        for i in range(n - 1, 0, -1):            # the contract's shuffle, written plainly
            j = b.below(i + 1)
            ys[i], ys[j] = ys[j], ys[i]
        assert xs == ys and a.state == b.state


def test_a_search_is_decided_when_no_other_action_can_catch_up() -> None:
    root = Node(-1, children={"a": Node(0, n=10), "b": Node(0, n=4), "c": Node(0, n=3)})
    assert _decided(root, 5)          # b reaches 9 at most
    assert not _decided(root, 6)      # b could tie at 10 (then the mean decides)
    assert not _decided(root, 7)


def real_choices(limit: int) -> list[Game]:
    out = []
    for g in POSITIONS:
        if not g.is_terminal() and InfoSet(g, g.current_player()).forced_action() is None:
            out.append(g)
    return out[:: max(1, len(out) // limit)][:limit]


@pytest.mark.parametrize("iterations", [0, 40])
def test_a_search_that_stops_once_decided_chooses_what_the_full_budget_chooses(iterations: int) -> None:
    stopped = 0
    for i, g in enumerate(real_choices(24)):
        info = InfoSet(g, g.current_player())
        agent = SearchAgent(derive_seed(7, i), level=1, iterations=iterations)
        full_root, keys = agent.search(info)
        short_root, _ = agent.search(info, decided_stop=True)
        assert agent.act(info) == choose(full_root, keys), i
        if full_root is not None and short_root is not None:
            stopped += sum(c.n for c in short_root.children.values()) < sum(c.n for c in full_root.children.values())
    assert stopped >= 3      # the shortcut was taken, in several positions


def test_a_forced_action_is_what_every_built_in_agent_answers() -> None:
    forced = 0
    for i, g in enumerate(POSITIONS):
        if g.is_terminal():
            continue
        p = g.current_player()
        a: Action | None = forced_action(g)
        info = InfoSet(g, p)
        assert info.forced_action() == a, i                   # the real game and the information set agree
        if a is None:
            continue
        forced += 1
        for agent in (RandomAgent(i), GreedyAgent(i), SearchAgent(i, level=1)):
            assert agent.act(info) == a, (i, agent.name)
    assert forced >= 100
