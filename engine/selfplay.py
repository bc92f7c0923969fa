"""Random-legal-action self-play and the benchmark behind `c1k selfplay` / `c1k bench`.

The random agent has its own SplitMix64 stream (seeded from the match seed), separate from the game's,
so an agent's choices never disturb the game's shuffles or Flux outcomes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import CardDB
from engine.decks import Deck
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.state import MatchOptions

SELFPLAY_MAX_TURNS = 200


@dataclass
class MatchSummary:
    index: int
    seed: int
    winner: str
    termination: str
    actions: int
    turns: int
    state_hash: str

    def line(self) -> str:
        return (f"match {self.index} seed {self.seed} winner {self.winner} ({self.termination}) "
                f"turns {self.turns} actions {self.actions} hash {self.state_hash}")


def random_action(game: Game, agent: SplitMix64) -> Action:
    acts = game.legal_actions()
    return acts[agent.below(len(acts))]


def play_random(db: CardDB, deck_a: Deck, deck_b: Deck, seed: int,
                options: MatchOptions | None = None) -> tuple[Game, int]:
    opts = options or MatchOptions(max_turns=SELFPLAY_MAX_TURNS)
    game = Game.new(db, deck_a, deck_b, seed, opts)
    agent = SplitMix64(seed ^ 0x5EED)
    n = 0
    legal, apply, below, forced = game.legal_actions, game.apply, agent.below, game.pass_if_forced
    while game.outcome is None:   # (random_action's loop, its calls bound once: the benchmark's loop)
        n += 1
        if forced():
            below(1)   # (Pass was the one legal action, and is taken: random_action's one draw of a 1-item list)
            continue
        acts = legal()
        apply(acts[below(len(acts))])
    return game, n


def selfplay(db: CardDB, deck_a: Deck, deck_b: Deck, base_seed: int, matches: int) -> Iterator[MatchSummary]:
    for i in range(matches):
        seed = derive_seed(base_seed, i)
        game, n = play_random(db, deck_a, deck_b, seed)
        assert game.outcome is not None
        yield MatchSummary(i, seed, game.outcome.result(), game.outcome.termination.value, n, game.turn,
                           game.state_hash())


__all__ = [
    "SELFPLAY_MAX_TURNS", "MatchSummary", "play_random", "random_action", "selfplay",
]
