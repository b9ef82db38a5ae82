"""Every game as a single-agent Gymnasium env (``gymnasium.make("botarena/...")``): the
checkers of Gymnasium and SB3, seats alternating per episode, the opponent's seats played
by bots or callables, the end of an episode, bad actions (the learner's or an opponent's)
rejected before anything changes, and ``make_vec`` giving the batched vector env."""
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import botarena
from botarena.wrappers.gymnasium_vector import SlotVectorEnv
from conftest import SHORT_CONFIGS


def make(env_id, **kwargs):
    return gymnasium.make(botarena.GYMNASIUM_IDS[env_id], **kwargs).unwrapped


def play_episode(env, rng):
    _, info = env.reset(seed=int(rng.integers(1000)))
    steps, done = 0, False
    while not done:
        action = rng.integers(0, env.game.action_values(), size=env.game.action_shape())
        _, reward, terminated, truncated, info = env.step(action)
        assert isinstance(reward, float)
        done = terminated or truncated
        steps += 1
    return steps, info


def test_every_game_is_registered():
    assert set(botarena.GYMNASIUM_IDS) == set(botarena.ENV_IDS)
    for gym_id in botarena.GYMNASIUM_IDS.values():
        assert gym_id in gymnasium.registry


def test_gymnasium_and_sb3_checkers(env_id):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    env = make(env_id, opponent="bot:greedy", **SHORT_CONFIGS[env_id])
    check_env(env, skip_render_check=True)
    sb3_check_env(env, warn=False)


def test_discrete_space_samples_from_the_info_mask():
    env = make("paint_v0", opponent="random", **SHORT_CONFIGS["paint_v0"])
    _, info = env.reset(seed=1)
    env.action_space.seed(1)
    for _ in range(5):
        action = env.action_space.sample(mask=info["action_mask"])
        assert info["action_mask"][action] == 1
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break


def test_seats_alternate_and_episodes_end(env_id):
    env = make(env_id, opponent="random", **SHORT_CONFIGS[env_id])
    agents = env.game.num_agents
    seats = []
    rng = np.random.default_rng(0)
    for k in range(agents + 1):
        if k == 0:
            steps, info = play_episode(env, rng)
        else:
            env.reset()
            seats.append(env.seat)
            continue
        seats.append(info["seat"])
        assert steps >= 1 and set(info) == {"action_mask", "score", "seat"}
        assert info["action_mask"].dtype == np.int8
        with pytest.raises(RuntimeError, match="reset"):
            env.step(np.zeros(env.game.action_shape(), dtype=np.int64))
    assert seats == [k % agents for k in range(agents + 1)]
    env.reset(seed=3)                      # a seed replays the seats from the first
    assert env.seat == 0
    fixed = make(env_id, learner_seat=1, **SHORT_CONFIGS[env_id])
    for _ in range(2):
        fixed.reset()
        assert fixed.seat == 1


def test_same_seed_same_episode(env_id):
    def run():
        env = make(env_id, opponent="greedy", **SHORT_CONFIGS[env_id])
        rng = np.random.default_rng(1)
        env.reset(seed=5)
        rewards = []
        for _ in range(8):
            action = rng.integers(0, env.game.action_values(), size=env.game.action_shape())
            _, reward, terminated, truncated, _ = env.step(action)
            rewards.append(reward)
            if terminated or truncated:
                break
        return rewards, env.game.snapshot(0)
    (r1, s1), (r2, s2) = run(), run()
    assert r1 == r2
    assert s1.keys() == s2.keys() and all(np.array_equal(np.asarray(s1[k], dtype=object),
                                                         np.asarray(s2[k], dtype=object))
                                          for k in s1 if k != "rng")


def test_bad_actions_are_rejected_before_anything_changes(env_id):
    env = make(env_id, **SHORT_CONFIGS[env_id])
    env.reset(seed=0)
    before = [field.copy() for field in env.game.state]
    shape, values = env.game.action_shape(), env.game.action_values()
    for bad in (np.full(shape, values), np.full(shape, -1), np.full(shape, 0.5), "left"):
        with pytest.raises((ValueError, TypeError)):
            env.step(bad)
    assert all(np.array_equal(a, b) for a, b in zip(before, env.game.state))
    with pytest.raises(RuntimeError):
        make(env_id).action_masks()


def test_an_opponent_answering_garbage_is_rejected(env_id):
    """A callable opponent's out-of-range actions raise ValueError (they never reach the
    kernel), and the game is unchanged."""
    def wild(obs, masks):
        return np.full((len(obs),) + env.game.action_shape(), 2 ** 40)

    env = make(env_id, opponent=wild, **SHORT_CONFIGS[env_id])
    env.reset(seed=0)
    before = [field.copy() for field in env.game.state]
    with pytest.raises(ValueError):
        env.step(np.zeros(env.game.action_shape(), dtype=np.int64))
    assert all(np.array_equal(a, b) for a, b in zip(before, env.game.state))


def test_make_vec_is_the_batched_vector_env(env_id):
    vec = gymnasium.make_vec(botarena.GYMNASIUM_IDS[env_id], num_envs=6, opponent="greedy",
                             **SHORT_CONFIGS[env_id])
    assert isinstance(vec, SlotVectorEnv) and vec.num_envs == 6
    obs, infos = vec.reset(seed=0)
    assert obs.shape == (6,) + vec.single_observation_space.shape
    actions = vec.action_space.sample()
    obs, rewards, terminated, truncated, infos = vec.step(actions)
    assert rewards.shape == (6,) and infos["action_mask"].shape[0] == 6
