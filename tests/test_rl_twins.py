"""rules.md §7a for the AI-training interfaces (docs/rl.md): two matches that differ only in the cards a
player may not see give that player identical observations, tensors, action masks, legal-action numbers
and information-state strings — in the PettingZoo environment and in the OpenSpiel game alike."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import engine.rl.openspiel as c1k_spiel  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rl.encoding import legal_actions  # noqa: E402
from engine.rl.pettingzoo_env import raw_env  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402
from engine.sampling import determinize, random_action  # noqa: E402
from engine.state import MatchOptions  # noqa: E402


def _hidden(g: Game, player: int) -> list[str]:
    """The identities of the cards hidden from `player`: the opponent's hand and Set, both libraries."""
    opp = g.players[1 - player]
    return [g.card(c).id for c in opp.hand + opp.set_cards + opp.library + g.players[player].library]


def _twins(seed: int, steps: int) -> list[tuple[Game, Game, int]]:
    """Positions of a random match, each with a twin dealt again for one player (`determinize`: the same
    view, other hidden cards), for the player deciding and for the other one."""
    env = raw_env(seed=seed, options=MatchOptions(max_turns=30))
    env.reset()
    g = env.game
    assert g is not None
    rng = SplitMix64(seed)
    out = []
    for step in range(steps):
        if g.is_terminal():
            break
        if step % 7 == 3:
            for p in (0, 1):
                twin = determinize(g, p, seed * 1000 + step)
                if _hidden(twin, p) != _hidden(g, p):
                    out.append((g.clone(), twin, p))
        g.apply(random_action(g, rng))
    return out


_ENV: list[raw_env] = []
_GAME: list[Any] = []


def _pettingzoo_face(g: Game, player: int) -> tuple[Any, ...]:
    if not _ENV:
        _ENV.append(raw_env(seed=0))
        _ENV[0].reset()
    env = _ENV[0]
    env.game = g
    obs = env.observe(f"player_{player}")
    legal = [str(a) for a in legal_actions(g)] if g.current_player() == player else []
    return obs["observation"].tolist(), obs["action_mask"].tolist(), legal


def _openspiel_face(g: Game, player: int) -> tuple[Any, ...]:
    if not _GAME:
        _GAME.append(pyspiel.load_game(c1k_spiel.GAME_NAME))
    s = c1k_spiel.C1KState(_GAME[0], g)
    legal = s.legal_actions(player) if s.current_player() == player else []
    return (s.information_state_string(player), s.observation_string(player),
            list(s.information_state_tensor(player)), list(s.observation_tensor(player)), legal,
            [s.action_to_string(player, a) for a in legal])


def test_twins_differing_in_hidden_cards_look_the_same_to_the_player() -> None:
    pairs = _twins(seed=13, steps=160)
    assert len(pairs) >= 12 and {p for _, _, p in pairs} == {0, 1}
    deciding = 0
    for real, twin, p in pairs:
        assert _hidden(real, p) != _hidden(twin, p)       # they do differ where the player can't look
        assert _pettingzoo_face(real, p) == _pettingzoo_face(twin, p)
        assert _openspiel_face(real, p) == _openspiel_face(twin, p)
        deciding += real.current_player() == p
    assert 0 < deciding < len(pairs)                     # the decider's faces and the waiting player's


def test_resampled_states_share_the_players_information_state() -> None:
    """`resample_from_infostate` (what ISMCTS searches with) keeps the player's information state and
    legal actions, and deals the hidden cards again."""
    game = pyspiel.load_game(c1k_spiel.GAME_NAME, {"seed": 21})
    s = game.new_initial_state()
    rng = SplitMix64(4)
    for _ in range(60):
        s.apply_engine_action(random_action(s.match, rng))
    p = s.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    dealt = set()
    for _ in range(6):
        r = s.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.legal_actions() == s.legal_actions()
        dealt.add(tuple(_hidden(r.match, p)))
    assert len(dealt) > 1
