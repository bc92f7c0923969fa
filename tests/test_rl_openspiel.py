"""The OpenSpiel game `python_c1k` (engine.rl.openspiel, docs/rl.md): OpenSpiel's own random simulation
test, its game type, the action numbering, and OpenSpiel's ISMCTS bot playing it."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import engine.rl.openspiel as c1k_spiel  # noqa: E402
from engine.rl.encoding import MAX_ACTIONS  # noqa: E402


def test_import_registers_the_game_with_pyspiel() -> None:
    assert c1k_spiel.GAME_NAME in pyspiel.registered_names()
    t = pyspiel.load_game(c1k_spiel.GAME_NAME).get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_openspiels_random_simulation_test_passes() -> None:
    game = pyspiel.load_game(c1k_spiel.GAME_NAME, {"seed": 3, "max_turns": 8})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_actions_are_the_legal_lists_positions_and_the_rewards_are_plus_minus_one() -> None:
    game = pyspiel.load_game(c1k_spiel.GAME_NAME, {"seed": 8, "max_turns": 16})
    assert game.num_distinct_actions() == MAX_ACTIONS
    s = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        assert legal == list(range(len(s.match.legal_actions())))
        assert [s.action_to_string(p, a) for a in legal] == [str(a) for a in s.match.legal_actions()]
        s.apply_action(int(rng.choice(legal)))
    o = s.match.outcome
    assert o is not None
    assert s.returns() == ([0.0, 0.0] if o.winner is None else [1.0, -1.0] if o.winner == 0 else [-1.0, 1.0])


def test_initial_states_follow_the_seed_parameter() -> None:
    a = pyspiel.load_game(c1k_spiel.GAME_NAME, {"seed": 5})
    b = pyspiel.load_game(c1k_spiel.GAME_NAME, {"seed": 5})
    first = [a.new_initial_state().match.state_hash() for _ in range(2)]
    assert first == [b.new_initial_state().match.state_hash() for _ in range(2)]
    assert first[0] != first[1]
    assert c1k_spiel.initial_state(a, 5).match.state_hash() == first[0]


def test_openspiels_ismcts_bot_plays_the_game() -> None:
    game = pyspiel.load_game(c1k_spiel.GAME_NAME, {"seed": 4, "max_turns": 6})
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), 2.0, 3,
                           random_state=rs)
    bot.set_resampler(lambda st, p: st.resample_from_infostate(p, rs.uniform))   # (reproducible re-deals)
    s = game.new_initial_state()
    searched = 0
    while not s.is_terminal() and searched < 4:
        legal = s.legal_actions()
        if len(legal) > 1:
            a = bot.step(s)
            assert a in legal
            searched += 1
        else:
            a = legal[0]
        s.apply_action(a)
    assert searched == 4
