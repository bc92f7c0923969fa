"""The PettingZoo environment (engine.rl.pettingzoo_env, docs/rl.md): PettingZoo's own API test, a
reproducible seeded rollout, the action numbering, rewards at the end, and a clear refusal of a bad action."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from engine.rl.encoding import MAX_ACTIONS  # noqa: E402
from engine.rl.pettingzoo_env import env, raw_env  # noqa: E402
from engine.state import MatchOptions  # noqa: E402


def test_the_environment_passes_pettingzoos_api_test() -> None:
    api_test(env(seed=3), num_cycles=1000, verbose_progress=False)


def _rollout(seed: int, policy_seed: int) -> tuple[list[int], list[int], dict[str, Any], str]:
    """A random rollout over the action mask: the actions taken, a digest of each observation, the
    rewards and the final state's hash."""
    e = raw_env(seed=seed, options=MatchOptions(max_turns=12))
    e.reset()
    rng = np.random.default_rng(policy_seed)
    actions: list[int] = []
    digests: list[int] = []
    total = dict.fromkeys(e.possible_agents, 0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        digests.append(int(obs["observation"].astype(np.int64).sum() * 31 + obs["action_mask"].sum()))
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        actions.append(a)
        e.step(a)
    assert e.game is not None
    return actions, digests, total, e.game.state_hash()


def test_a_seeded_random_rollout_is_reproducible() -> None:
    first = _rollout(5, 1)
    assert _rollout(5, 1) == first
    assert len(first[0]) > 20
    assert _rollout(6, 1)[3] != first[3]   # another seed, another match


def test_the_winner_gets_plus_one_and_the_loser_minus_one_at_the_end() -> None:
    actions, _, total, _ = _rollout(5, 1)
    e = raw_env(seed=5, options=MatchOptions(max_turns=12))
    e.reset()
    for a in actions:
        assert all(r == 0 for r in e.rewards.values())   # nothing before the end
        e.step(a)
    assert e.game is not None and e.game.outcome is not None
    w = e.game.outcome.winner
    expected = {"player_0": 0, "player_1": 0} if w is None else {f"player_{w}": 1, f"player_{1 - w}": -1}
    assert e.rewards == expected
    assert total == expected
    assert all(e.terminations.values())


def test_action_i_is_the_i_th_legal_action_and_only_the_decider_has_a_mask() -> None:
    e = raw_env(seed=2)
    e.reset()
    g = e.game
    assert g is not None
    me = e.agent_selection
    other = next(a for a in e.possible_agents if a != me)
    legal = g.legal_actions()
    mask = e.observe(me)["action_mask"]
    assert mask.shape == (MAX_ACTIONS,)
    assert mask.sum() == len(legal) and mask[:len(legal)].all()
    assert e.observe(other)["action_mask"].sum() == 0
    assert [e.describe(i) for i in range(len(legal))] == [str(a) for a in legal]


def test_an_illegal_action_number_is_refused_and_changes_nothing() -> None:
    e = raw_env(seed=2)
    e.reset()
    assert e.game is not None
    before = e.game.state_hash()
    n = int(e.observe(e.agent_selection)["action_mask"].sum())
    with pytest.raises(ValueError, match=f"action {n} is not legal now"):
        e.step(n)
    with pytest.raises(ValueError, match="expected an action number"):
        e.step("pass")  # type: ignore[arg-type]
    assert e.game.state_hash() == before


def test_reset_without_a_seed_plays_the_next_match_of_the_base_seed() -> None:
    e = raw_env(seed=9)
    e.reset()
    s1 = e.match_seed
    e.reset()
    s2 = e.match_seed
    e.reset(seed=9)
    assert (s1, e.match_seed) == (9, 9) and s2 != 9
