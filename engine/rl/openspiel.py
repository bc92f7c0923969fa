"""Council of 1000 as an OpenSpiel game: `import engine.rl.openspiel` registers `python_c1k` (docs/rl.md).
Needs the `rl` extra (PyPI `open-spiel`, module `pyspiel`).

    import pyspiel
    import engine.rl.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_c1k", {"deck1": "ironbound", "deck2": "emberfall", "seed": 7})
    state = game.new_initial_state()

- two players, sequential, imperfect information, zero-sum, terminal rewards (+1 / -1, 0 for a draw);
  chance is the engine's own seeded generator (`SAMPLED_STOCHASTIC`): the k-th `new_initial_state()` of
  a game plays match seed `seed` (k = 0), then `derive_seed(seed, k)`; `initial_state(game, seed)`
  gives the match of any seed;
- actions are numbered as in the PettingZoo environment (`engine.rl.encoding`): number `i` is the `i`-th
  entry of the deciding player's legal list, up to 512;
- `information_state_string(p)` is player p's view (`engine.view.observe`) as text — everything p may
  know now (rules.md §7a), the same view `engine.sampling.InfoSet` keys the built-in search with (it is
  the current view, not a replay of the history: two histories that leave p with the same view share an
  information state); `observation_string` is the same text, `information_state_tensor` and
  `observation_tensor` the view's vector (`engine.rl.encoding.Encoder`);
- `resample_from_infostate(p, sampler)` deals every card hidden from p again, consistently with p's view
  (`engine.sampling.determinize`), with a fresh seed for the generator; the sampler's draw picks the
  deal. OpenSpiel's `ISMCTSBot` searches with it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from engine.actions import Action
from engine.cards import CardDB, load_card_db
from engine.decks import Deck
from engine.game import Game
from engine.rl.encoding import DEFAULT_MAX_TURNS, MAX_ACTIONS, MAX_GAME_ACTIONS, Encoder, legal_actions
from engine.rl.pettingzoo_env import DEFAULT_DECKS, load_decks
from engine.rng import derive_seed
from engine.sampling import determinize
from engine.state import MatchOptions
from engine.view import observe

GAME_NAME = "python_c1k"

_PARAMS: dict[str, Any] = {"deck1": DEFAULT_DECKS[0], "deck2": DEFAULT_DECKS[1], "seed": 0,
                           "max_turns": DEFAULT_MAX_TURNS}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Council of 1000",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class C1KGame(pyspiel.Game):  # type: ignore[misc]   # (pyspiel ships no type hints)
    """The game: the two decks, the first match's seed and the turn limit are its parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(_PARAMS)
        p.update(params or {})
        self.db: CardDB = load_card_db()
        self.decks: tuple[Deck, Deck] = load_decks((str(p["deck1"]), str(p["deck2"])), self.db)
        self.options = MatchOptions(max_turns=int(p["max_turns"]))
        self.encoder = Encoder(self.db, self.options)
        self.seed = int(p["seed"])
        self.params = p
        self._states = 0
        info = pyspiel.GameInfo(num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_ACTIONS)
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> C1KState:
        k = self._states
        self._states += 1
        return initial_state(self, self.seed if k == 0 else derive_seed(self.seed, k))

    def get_rng_state(self) -> str:
        """The game's own chance: how many initial states it dealt (the next one's seed follows from it)."""
        return str(self._states)

    def set_rng_state(self, rng_state: str) -> None:
        if not rng_state.isdigit():
            raise ValueError(f"{GAME_NAME}: rng state '{rng_state}': expected a count of initial states")
        self._states = int(rng_state)

    def __deepcopy__(self, memo: dict[int, Any]) -> C1KGame:
        """The game itself: pyspiel deep-copies a Python game with each state it copies (pickling it would ask
        the C++ side for a generator state a Python game doesn't have); a game holds the card set, the
        decks and the options, none of which changes, and its count of initial states, which copies share."""
        return self

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"{GAME_NAME}: observation parameters are not supported; passed {params}")
        return ViewObserver(self.encoder)


class C1KState(pyspiel.State):  # type: ignore[misc]
    """A match: a `Game` of the engine and the number of actions played."""

    def __init__(self, game: C1KGame, match: Game, actions: int = 0) -> None:
        super().__init__(game)
        self.c1k_game = game
        self._m = _Match(match, actions)

    @property
    def match(self) -> Game:
        return self._m.game

    @property
    def actions(self) -> int:
        return self._m.actions

    # ------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.match.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.match.current_player():
            return []
        return list(range(len(legal_actions(self.match))))

    def _apply_action(self, action: int) -> None:
        acts = legal_actions(self.match)
        if not 0 <= action < len(acts):
            raise ValueError(f"{GAME_NAME}: action {action} is not legal now ({len(acts)} legal actions)")
        self.match.apply(acts[action])
        self._m.actions += 1
        self._m.views = {}

    def apply_engine_action(self, action: Action) -> None:
        """Apply an engine action of the deciding player (an agent of `engine.ai` deciding in this match),
        counted like a numbered one; IllegalAction if it is not legal (nothing changes then)."""
        self.match.apply(action)
        self._m.actions += 1
        self._m.views = {}

    def _action_to_string(self, player: int, action: int) -> str:
        acts = legal_actions(self.match)
        return str(acts[action]) if 0 <= action < len(acts) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.match.is_terminal() or self.actions >= MAX_GAME_ACTIONS

    def returns(self) -> list[float]:
        o = self.match.outcome
        if o is None or o.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if o.winner == 0 else [-1.0, 1.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> C1KState:
        """A state `player_id` can't tell from this one, its hidden cards dealt again (module docstring)."""
        seed = int(probability_sampler() * (1 << 53))
        return C1KState(self.c1k_game, determinize(self.match, player_id, seed), self.actions)

    def clone(self) -> C1KState:
        return C1KState(self.c1k_game, self.match.clone(), self.actions)

    def __deepcopy__(self, memo: dict[int, Any]) -> C1KState:
        return self.clone()

    def __str__(self) -> str:
        g = self.match
        sides = " | ".join(f"{ps.name}: life {ps.life}, hand {len(ps.hand)}, library {len(ps.library)}"
                           for ps in g.players)
        return f"turn {g.turn} {g.window} after {self.actions} actions — {sides}"

    # ------------------------------------------------------------ views

    def view_text(self, player: int) -> str:
        """Player `player`'s view as text (remembered until the next action)."""
        text = self._m.views.get(player)
        if text is None:
            text = self._m.views[player] = repr(observe(self.match, player))
        return text


class _Match:
    """A state's match, its action count and its views' texts. pyspiel copies a Python state by
    deep-copying its attributes: this copies itself with `Game.clone()`, the engine's own copy."""

    __slots__ = ("game", "actions", "views")

    def __init__(self, game: Game, actions: int) -> None:
        self.game = game
        self.actions = actions
        self.views: dict[int, str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        return _Match(self.game.clone(), self.actions)


def initial_state(game: C1KGame, seed: int) -> C1KState:
    """The state at the start of the match of `seed` (the game's decks and options)."""
    return C1KState(game, Game.new(game.db, game.decks[0], game.decks[1], seed, game.options))


class ViewObserver:
    """OpenSpiel's observer (`PyObserver`): a player's view as a tensor and as text. The information state
    and the observation are the same here (module docstring)."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {s.name: self.tensor[s.offset:s.offset + s.size] for s in encoder.layout}

    def set_from(self, state: C1KState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(observe(state.match, player))

    def string_from(self, state: C1KState, player: int) -> str:
        return state.view_text(player)


pyspiel.register_game(_GAME_TYPE, C1KGame)

__all__ = ["C1KGame", "C1KState", "GAME_NAME", "ViewObserver", "initial_state"]
