"""Council of 1000 as a PettingZoo AEC environment (docs/rl.md). Needs the `rl` extra.

    from engine.rl.pettingzoo_env import env
    e = env(decks=("ironbound", "emberfall"), seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else my_policy(obs["observation"], obs["action_mask"])
        e.step(action)

- agents `player_0`, `player_1` (seats 0 and 1: the engine's p1 and p2); whoever must decide is `agent_selection` (a player may act many times
  in a row: priority, declarations, choices);
- an observation is `{"observation": int32[Encoder.size], "action_mask": int8[512]}`, built from
  `engine.view.observe(game, agent)` alone (`engine.rl.encoding`): it never reads the hidden state;
  the mask is all 0 for the agent that isn't deciding;
- action `i` is the `i`-th entry of the deciding player's legal list (`engine.rl.encoding.legal_actions`);
  `describe(i)` is its command text;
- rewards: +1 to the winner and -1 to the loser when the match ends (0 for a draw, and 0 before the end);
  a match that reaches `MAX_GAME_ACTIONS` actions is truncated (a draw).

Same decks, options and seed, same actions: the same match, bit for bit (tests/test_rl_pettingzoo.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from engine.actions import Action
from engine.cards import CardDB, load_card_db
from engine.decks import Deck, find_deck, load_deck
from engine.game import Game
from engine.rl.encoding import (
    DEFAULT_MAX_TURNS,
    MAX_ACTIONS,
    MAX_GAME_ACTIONS,
    Encoder,
    action_mask,
    legal_actions,
)
from engine.rng import derive_seed
from engine.state import MatchOptions
from engine.view import observe

#: the decks a match is played with unless told otherwise (`c1k play`'s defaults)
DEFAULT_DECKS = ("ironbound", "emberfall")
AGENTS = ("player_0", "player_1")
RENDER_MODES = ("ansi",)


def load_decks(decks: Sequence[str | Path | Deck] | None, db: CardDB) -> tuple[Deck, Deck]:
    """Two decks: each a `Deck`, a bundled deck's name ("ironbound") or a deck file's path."""
    names = list(decks) if decks is not None else list(DEFAULT_DECKS)
    if len(names) != 2:
        raise ValueError(f"decks: expected two decks (one a seat), got {len(names)}")
    out = [d if isinstance(d, Deck) else load_deck(find_deck(str(d)), db) for d in names]
    return out[0], out[1]


class raw_env(AECEnv):  # type: ignore[misc]   # (PettingZoo ships no type hints)
    """The environment without PettingZoo's order-enforcing wrapper (`env()` adds it)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "c1k_v0", "is_parallelizable": False}

    def __init__(self, decks: Sequence[str | Path | Deck] | None = None, seed: int = 0,
                 options: MatchOptions | None = None, db: CardDB | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode '{render_mode}': expected None or 'ansi'")
        self.render_mode = render_mode
        self.db = db if db is not None else load_card_db()
        self.decks = load_decks(decks, self.db)
        self.options = options if options is not None else MatchOptions(max_turns=DEFAULT_MAX_TURNS)
        self.encoder = Encoder(self.db, self.options)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        obs = spaces.Dict({
            "observation": spaces.Box(low=np.iinfo(np.int32).min, high=np.iinfo(np.int32).max,
                                      shape=(self.encoder.size,), dtype=np.int32),
            "action_mask": spaces.Box(low=0, high=1, shape=(MAX_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(MAX_ACTIONS) for a in AGENTS}
        self._base_seed = seed
        self._resets = 0
        self.match_seed = seed
        self.game: Game | None = None
        self.actions = 0

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match. `seed`: its seed; without one, the k-th reset since the last seeded one plays seed
        `derive_seed(base, k)` (the base: the constructor's `seed`, or the last one given here)."""
        if seed is not None:
            self._base_seed, self._resets = int(seed), 0
        self.match_seed = self._base_seed if self._resets == 0 else derive_seed(self._base_seed, self._resets)
        self._resets += 1
        self.game = Game.new(self.db, self.decks[0], self.decks[1], self.match_seed, self.options)
        self.actions = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.game.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        g = self._live()
        p = AGENTS.index(agent)
        return {"observation": np.asarray(self.encoder.encode(observe(g, p)), dtype=np.int32),
                "action_mask": np.asarray(action_mask(g, p), dtype=np.int8)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self._live()
        chosen = self.action_of(action)
        self._cumulative_rewards[agent] = 0
        g.apply(chosen, AGENTS.index(agent))
        self.actions += 1
        self.rewards = dict.fromkeys(AGENTS, 0)
        if g.is_terminal():
            assert g.outcome is not None
            w = g.outcome.winner
            if w is not None:
                self.rewards[AGENTS[w]], self.rewards[AGENTS[1 - w]] = 1, -1
            self.terminations = dict.fromkeys(AGENTS, True)
        elif self.actions >= MAX_GAME_ACTIONS:
            self.truncations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[g.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """`ansi`: the match's public facts in a line (what both players may see)."""
        if self.render_mode is None or self.game is None:
            return None
        v = observe(self.game, 0)
        sides = " | ".join(f"{s.name}: life {s.life}, hand {s.hand_size}, library {s.library}, "
                           f"units {sum(1 for u in s.units if u)}" for s in (v.me, v.opponent))
        return f"turn {v.turn} {v.window} — {sides}" + (f" — {v.outcome}" if v.outcome else "")

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ helpers

    def action_of(self, action: int | np.integer[Any] | None) -> Action:
        """The engine action that number `action` stands for now; ValueError (nothing changes) if it is
        not a legal action's number."""
        g = self._live()
        acts = legal_actions(g)
        if action is None or isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"action {action!r}: expected an action number 0–{MAX_ACTIONS - 1} (see action_mask)")
        i = int(action)
        if not 0 <= i < len(acts):
            raise ValueError(f"action {i} is not legal now: {self.agent_selection} has {len(acts)} legal actions, "
                             f"numbered 0–{len(acts) - 1} (the action_mask's 1s)")
        return acts[i]

    def describe(self, action: int) -> str:
        """The command text of action number `action` now ("play 12", "attack 7 9", "pass")."""
        return str(self.action_of(action))

    def _live(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def env(decks: Sequence[str | Path | Deck] | None = None, seed: int = 0, options: MatchOptions | None = None,
        db: CardDB | None = None, render_mode: str | None = None) -> Any:
    """The environment, wrapped in PettingZoo's order enforcing (reset before step, …). `decks`: two deck
    names or paths (default ironbound v emberfall); `seed`: the first match's seed; `options`: the match
    options (default: a draw after 200 turns); `db`: the card set (default: the bundled cards)."""
    return wrappers.OrderEnforcingWrapper(raw_env(decks, seed, options, db, render_mode))


__all__ = ["AGENTS", "DEFAULT_DECKS", "env", "load_decks", "raw_env"]
