"""Every game's front-ends against calls out of order and values of the wrong kind: the
batched core refuses to step envs never reset, takes only int seeds and env ids inside the
batch; the AEC env checks each action as it is given (a rejected one leaves the same agent
to act); the SB3 vector env checks its opponents' actions before any kernel sees them."""
import numpy as np
import pytest

import botarena
from conftest import SHORT_CONFIGS


def make_game(env_id, num_envs=2):
    module = botarena.env_module(env_id)
    return module.Game(module.Config(**SHORT_CONFIGS[env_id]), num_envs)


def test_step_before_reset_raises(env_id):
    game = make_game(env_id)
    with pytest.raises(RuntimeError, match="reset"):
        game.step()
    game.reset(seed=0, env_ids=[0])
    with pytest.raises(RuntimeError, match=r"\[1\]"):     # env 1 was never reset
        game.step()
    game.reset(seed=0, env_ids=[1])
    game.step()
    assert (game.state.steps == 1).all()


@pytest.mark.parametrize("seed, error", [(1.5, TypeError), (True, TypeError), ("3", TypeError),
                                         ([1], ValueError), ([1, 2.5], TypeError)])
def test_bad_seeds(env_id, seed, error):
    game = make_game(env_id)
    with pytest.raises(error, match="seed"):
        game.reset(seed=seed)


@pytest.mark.parametrize("env_ids, error", [([-1], ValueError), ([2], ValueError),
                                            ([0.5], TypeError), ([0, 0], ValueError),
                                            ([[0]], TypeError)])
def test_bad_env_ids(env_id, env_ids, error):
    game = make_game(env_id)
    game.reset(seed=0)
    before = [field.copy() for field in game.state]
    with pytest.raises(error, match="env_ids"):
        game.reset(seed=1, env_ids=env_ids)
    assert all(np.array_equal(a, b) for a, b in zip(before, game.state))


@pytest.mark.parametrize("num_envs", [0, 2.5, "3", True])
def test_bad_num_envs(env_id, num_envs):
    with pytest.raises(ValueError, match="num_envs"):
        make_game(env_id, num_envs)


def test_aec_rejected_action_leaves_the_same_agent_to_act(env_id):
    env = botarena.env(env_id, **SHORT_CONFIGS[env_id])
    env.reset(seed=0)
    reference = botarena.env(env_id, **SHORT_CONFIGS[env_id])
    reference.reset(seed=0)
    shape = env.unwrapped.game.action_shape()
    for turn in range(3):
        for agent in list(env.agents):
            assert env.agent_selection == agent == reference.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                reference.step(None)
                continue
            with pytest.raises((ValueError, TypeError)):
                env.step(10 ** 6 if not shape else np.full(shape, 10 ** 6))
            assert env.agent_selection == agent
            good = env.action_space(agent).sample()
            env.step(good)
            reference.step(good)
    a, b = env.unwrapped.game.state, reference.unwrapped.game.state
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_vector_env_rejects_an_opponents_wild_actions(env_id):

    def wild(obs, masks):
        return np.full((len(obs),) + game.action_shape(), 2 ** 40)

    venv = botarena.vector_env(env_id, 4, opponent=wild, **SHORT_CONFIGS[env_id])
    game = venv.slots.game
    venv.reset()
    before = [field.copy() for field in game.state]
    with pytest.raises(ValueError, match="outside"):
        venv.step(np.zeros((venv.num_envs,) + game.action_shape(), dtype=np.int64))
    assert all(np.array_equal(a, b) for a, b in zip(before, game.state))


@pytest.mark.parametrize("case", ["env -1", "env past the batch", "agent past the seats",
                                  "lengths differ", "out too short", "float ids"])
def test_bots_check_their_indices(env_id, case):
    game = make_game(env_id, 3)
    game.reset(seed=0)
    env_ids, agent_ids = np.array([0, 1]), np.array([0, 1])
    out = np.zeros((2,) + game.action_shape(), dtype=np.int64)
    if case == "env -1":
        env_ids = np.array([0, -1])
    elif case == "env past the batch":
        env_ids = np.array([0, 3])
    elif case == "agent past the seats":
        agent_ids = np.array([0, game.num_agents])
    elif case == "lengths differ":
        agent_ids = np.array([0])
    elif case == "out too short":
        out = out[:1]
    else:
        env_ids = np.array([0.0, 1.0])
    before = [field.copy() for field in game.state]
    for bot in game.bots.values():
        with pytest.raises(ValueError):
            bot(game.state, game.params, env_ids, agent_ids, out)
    assert all(np.array_equal(a, b) for a, b in zip(before, game.state))


def test_a_map_file_that_is_not_text_is_named(env_id, tmp_path):
    path = tmp_path / "binary.txt"
    path.write_bytes(bytes(range(256)) * 4)
    module = botarena.env_module(env_id)
    with pytest.raises(ValueError, match="binary.txt.*not text"):
        module.Config(board=str(path))
