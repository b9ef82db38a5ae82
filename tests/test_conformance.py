"""Conformance of every registered env over several configs (the "conformance" configs of
``conftest.GAMES``): PettingZoo's own API tests, spaces and dtypes, observations/masks/state inside their spaces
over whole episodes, renders, snapshots, scores, and a light import."""
import subprocess
import sys

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

import botarena

SNAPSHOT_KEYS = {"board", "turns_left", "scores", "positions"}
MAX_EPISODE_STEPS = 5000  # guard against an episode that never ends


def make(case, render_mode=None):
    env_id, config = case
    return botarena.parallel_env(env_id, render_mode=render_mode, **config)


def mask_shape(space):
    if isinstance(space, spaces.Discrete):
        return (int(space.n),)
    if isinstance(space, spaces.MultiDiscrete):
        return (int(np.sum(space.nvec)),)
    raise AssertionError(f"unexpected action space {space}")


def random_actions(env, rng):
    """A random action per live agent: an int for ``Discrete`` games (the same draws as
    ever), an int array of the action shape for array-action (``MultiDiscrete``) games."""
    shape, values = env.game.action_shape(), env.game.action_values()
    if not shape:  # the same draws as rng.integers(action_space.n)
        return {a: int(rng.integers(0, values)) for a in env.agents}
    return {a: rng.integers(0, values, size=shape) for a in env.agents}


def noop_actions(env):
    """Action 0 (the no-op) for every live agent, in the game's action shape."""
    shape = env.game.action_shape()
    return {a: (np.zeros(shape, dtype=np.int64) if shape else 0) for a in env.agents}


def flat_mask(mask):
    """The flat mask (as ``env.action_mask``) of an infos mask: an int8 array for
    ``Discrete`` actions, a tuple of int8 per-cell rows for ``MultiDiscrete`` ones."""
    if isinstance(mask, tuple):
        return np.concatenate(mask)
    return mask


def check_info_mask(mask, space):
    """The infos mask has the layout Gymnasium's ``space.sample(mask=...)`` takes."""
    if isinstance(space, spaces.MultiDiscrete):
        assert isinstance(mask, tuple) and len(mask) == len(space.nvec)
        for row, n in zip(mask, space.nvec):
            assert isinstance(row, np.ndarray) and row.dtype == np.int8 and row.shape == (int(n),)
    else:
        assert isinstance(mask, np.ndarray) and mask.dtype in (np.bool_, np.int8)
    assert flat_mask(mask).shape == mask_shape(space)


def test_every_env_has_configs(config_tables):
    assert len(botarena.ENV_IDS) >= 1
    for name, table in config_tables.items():
        missing = [env_id for env_id in botarena.ENV_IDS if not table.get(env_id)]
        assert not missing, f"{name} has no config for {missing}: add it to GAMES in tests/conftest.py"


def test_parallel_api(conformance_case):
    env = make(conformance_case)
    parallel_api_test(env, num_cycles=300)
    # parallel_api_test must have run real steps: the env went through reset and steps
    assert env.possible_agents and env.snapshot()["steps"] >= 1


def test_aec_api(conformance_case):
    env_id, config = conformance_case
    aec = botarena.env(env_id, **config)
    api_test(aec, num_cycles=300)
    assert list(aec.possible_agents) == list(make(conformance_case).possible_agents)


def test_aec_round_trip_matches_parallel(conformance_case):
    """The AEC view (parallel_to_aec) plays the same game as the parallel env."""
    env_id, config = conformance_case
    par = make(conformance_case)
    assert aec_to_parallel(parallel_to_aec(par)) is par

    def policy(obs, agent_index, mask):
        key = int(np.asarray(obs, dtype=np.int64).sum()) + 7 * agent_index
        if isinstance(mask, tuple):  # one legal command per cell
            return np.array([np.flatnonzero(row)[(key + c) % int(row.sum())]
                             for c, row in enumerate(mask)], dtype=np.int64)
        legal = np.flatnonzero(mask)
        return int(legal[key % len(legal)])

    seed = 11
    obs, infos = par.reset(seed=seed)
    index = {a: i for i, a in enumerate(par.possible_agents)}
    par_totals = dict.fromkeys(par.possible_agents, 0.0)
    par_steps = 0
    while par.agents:
        actions = {a: policy(obs[a], index[a], infos[a]["action_mask"]) for a in par.agents}
        obs, rew, term, trunc, infos = par.step(actions)
        for a, r in rew.items():
            par_totals[a] += r
        par_steps += 1
        assert par_steps < MAX_EPISODE_STEPS
    par_final = par.snapshot()

    aec = botarena.env(env_id, **config)
    aec.reset(seed=seed)
    aec_totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter(MAX_EPISODE_STEPS * len(aec.possible_agents)):
        o, r, term, trunc, info = aec.last()
        aec_totals[agent] += r
        if term or trunc:
            action = None
        else:
            assert np.array_equal(flat_mask(info["action_mask"]), aec.unwrapped.action_mask(agent))
            action = policy(o, index[agent], info["action_mask"])
        aec.step(action)
    aec_final = aec.unwrapped.snapshot()
    assert aec_final["steps"] == par_final["steps"] == par_steps
    for key in SNAPSHOT_KEYS:
        assert np.array_equal(np.asarray(aec_final[key]), np.asarray(par_final[key])), key
    assert aec_totals == pytest.approx(par_totals)


def test_spaces_and_dtypes(conformance_case):
    env = make(conformance_case)
    agents = env.possible_agents
    assert len(agents) >= 2 and len(set(agents)) == len(agents)
    obs_space, act_space = env.observation_space(agents[0]), env.action_space(agents[0])
    for agent in agents:
        assert env.observation_space(agent) is obs_space
        assert env.action_space(agent) is act_space
    assert isinstance(obs_space, spaces.Box)
    assert obs_space.dtype in (np.uint8, np.float32)
    expected_dtype = np.float32 if conformance_case[1].get("obs_dtype") == "float32" else np.uint8
    assert obs_space.dtype == expected_dtype
    assert isinstance(act_space, (spaces.Discrete, spaces.MultiDiscrete))
    assert isinstance(env.state_space, spaces.Box)
    obs, infos = env.reset(seed=0)
    assert set(obs) == set(infos) == set(agents)
    for agent in agents:
        assert obs[agent].dtype == obs_space.dtype
        assert obs[agent].shape == obs_space.shape
        check_info_mask(infos[agent]["action_mask"], act_space)
        assert np.array_equal(flat_mask(infos[agent]["action_mask"]), env.action_mask(agent))
        assert env.action_mask(agent).shape == mask_shape(act_space)
    with pytest.raises(ValueError):
        env.observation_space("nobody")


@pytest.mark.parametrize("seed", [0, 1])
def test_whole_episode_inside_spaces(conformance_case, seed):
    """Every observation, mask, state and score of whole episodes is consistent."""
    env_id, config = conformance_case
    env = make(conformance_case)
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    agents = list(env.possible_agents)
    index = {a: i for i, a in enumerate(agents)}
    state_space = env.state_space
    first = env.snapshot()
    start_scores = first["scores"].copy()
    totals = dict.fromkeys(agents, 0.0)
    exit_scores = {}  # every player's scores on the step each agent left the game
    exit_steps = {}   # the step each agent left the game on
    nonzero_steps = {a: [] for a in agents}  # the steps each agent got a nonzero reward on
    steps, checked, expected_checks = 0, 0, len(agents)

    def check(obs, infos, live):
        nonlocal checked
        snap = env.snapshot()
        assert SNAPSHOT_KEYS <= set(snap)
        state = env.state()
        assert state.dtype == state_space.dtype and state_space.contains(state)
        for agent in live:
            space = env.observation_space(agent)
            assert obs[agent].dtype == space.dtype
            assert space.contains(obs[agent]), f"obs of {agent} outside its space at step {steps}"
            check_info_mask(infos[agent]["action_mask"], env.action_space(agent))
            if isinstance(infos[agent]["action_mask"], tuple):
                # every cell has a legal command (its no-op at least)
                assert all(row.any() for row in infos[agent]["action_mask"])
            mask = flat_mask(infos[agent]["action_mask"])
            assert mask.dtype in (np.bool_, np.int8) and mask.any()
            assert set(np.unique(mask).tolist()) <= {0, 1}
            assert np.array_equal(mask, env.action_mask(agent))
            assert infos[agent]["score"] == int(snap["scores"][index[agent]])
            checked += 1

    check(obs, infos, agents)
    while env.agents:
        live = list(env.agents)
        obs, rew, term, trunc, infos = env.step(random_actions(env, rng))
        steps += 1
        assert set(obs) == set(rew) == set(term) == set(trunc) == set(live)
        for agent in live:
            assert isinstance(rew[agent], float)
            totals[agent] += rew[agent]
            if rew[agent] != 0:
                nonzero_steps[agent].append(steps)
        check(obs, infos, live)
        expected_checks += len(live)
        assert env.agents == [a for a in live if not (term[a] or trunc[a])]
        for agent in set(live) - set(env.agents):
            exit_scores[agent] = env.snapshot()["scores"].astype(np.float64)
            exit_steps[agent] = steps
        assert steps < MAX_EPISODE_STEPS
    assert checked == expected_checks >= len(agents) * 2
    assert steps >= 2

    final = env.snapshot()
    assert final["steps"] == steps
    max_steps = config.get("max_steps")
    if max_steps is not None:
        assert steps <= max_steps
        if steps == max_steps:
            assert all(trunc.values()) and not any(term.values())
    else:
        assert all(term.values()) and not any(trunc.values())
    # rewards add up to the change of the score (or margin) until the agent left the game
    start = start_scores.astype(np.float64)
    reward_mode = config.get("reward", "score")
    assert set(exit_scores) == set(agents)
    for agent, i in index.items():
        scores = exit_scores[agent]
        if reward_mode == "score":
            expected = scores[i] - start[i]
        elif reward_mode == "zero_sum":
            expected = (scores[i] - np.delete(scores, i).max()) - (start[i] - np.delete(start, i).max())
        elif reward_mode == "win_loss":
            # 0 until the agent leaves, then its outcome; leaving early is a loss
            assert nonzero_steps[agent] in ([], [exit_steps[agent]]), agent
            assert totals[agent] in (-1.0, 0.0, 1.0), agent
            expected = -1.0 if exit_steps[agent] < steps else totals[agent]
        else:
            raise AssertionError(f"no total-reward rule for {reward_mode}")
        assert totals[agent] == pytest.approx(expected), agent
    if reward_mode == "win_loss":
        # one strict winner and the rest lose, or the best tie (0) and the rest lose
        outcomes = sorted(totals.values())
        assert outcomes.count(1.0) <= 1
        assert not (1.0 in outcomes and 0.0 in outcomes)
        assert outcomes.count(0.0) != 1
    # the ended env refuses more steps until it is reset
    with pytest.raises(RuntimeError):
        env.step({})


def test_action_mask_works_with_gymnasium_sample(conformance_case):
    """PettingZoo's api_test and users sample with ``action_space.sample(mask=info["action_mask"])``;
    Gymnasium's Discrete/MultiDiscrete.sample accept only int8 masks."""
    env = make(conformance_case)
    obs, infos = env.reset(seed=4)
    for agent in env.agents:
        mask = infos[agent]["action_mask"]
        space = env.action_space(agent)
        space.seed(0)
        for _ in range(20):
            action = space.sample(mask=mask)
            if isinstance(mask, tuple):
                assert env.action_space(agent).contains(action)
                assert all(row[a] for row, a in zip(mask, action))
            else:
                assert mask[action]


def test_bad_actions_rejected(conformance_case):
    env = make(conformance_case)
    env.reset(seed=3)
    agent = env.possible_agents[0]
    before = env.snapshot()
    n = env.game.action_values()
    shape = env.game.action_shape()
    if shape:
        assert isinstance(env.action_space(agent), spaces.MultiDiscrete)
        assert (env.action_space(agent).nvec == n).all() and env.action_space(agent).shape == shape
        with pytest.raises(ValueError):
            env.step({agent: np.full(shape, n)})
        with pytest.raises(ValueError):
            env.step({agent: np.full(shape, -1)})
        one_bad = np.zeros(shape, dtype=np.int64)
        one_bad.flat[-1] = n
        with pytest.raises(ValueError):  # checked before anything is written
            env.step({env.possible_agents[1]: np.zeros(shape, dtype=np.int64), agent: one_bad})
        with pytest.raises(ValueError):
            env.step({"nobody": np.zeros(shape, dtype=np.int64)})
        with pytest.raises(TypeError):
            env.step({agent: "left"})
        with pytest.raises(TypeError):
            env.step({agent: 0})  # not of the action shape
    else:
        assert env.action_space(agent).n == n
        with pytest.raises(ValueError):
            env.step({agent: n})
        with pytest.raises(ValueError):
            env.step({agent: -1})
        with pytest.raises(ValueError):
            env.step({"nobody": 0})
        with pytest.raises(TypeError):
            env.step({agent: "left"})
    after = env.snapshot()
    assert after["steps"] == before["steps"] == 0
    assert after["board"] == before["board"]


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_modes(conformance_case, mode):
    env = make(conformance_case, render_mode=mode)
    assert mode in env.metadata["render_modes"]
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    frames = [env.render()]
    for _ in range(3):
        env.step(random_actions(env, rng))
        frames.append(env.render())
    for frame in frames:
        if mode == "ansi":
            assert isinstance(frame, str) and frame.strip()
        else:
            assert isinstance(frame, np.ndarray)
            assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
            assert frame.shape[0] > 0 and frame.shape[1] > 0
            assert frame.max() > frame.min()  # not a blank picture
    assert make(conformance_case).render() is None
    with pytest.raises(ValueError):
        make(conformance_case, render_mode="hologram")


def test_snapshot_is_a_copy(conformance_case):
    env = make(conformance_case)
    obs, infos = env.reset(seed=2)
    snap = env.snapshot()
    assert SNAPSHOT_KEYS <= set(snap)
    assert isinstance(snap["turns_left"], int) and snap["turns_left"] > 0
    assert snap["positions"].shape == (len(env.possible_agents), 2)
    assert [infos[a]["score"] for a in env.possible_agents] == [int(x) for x in snap["scores"]]
    snap["scores"][:] = 12345
    snap["positions"][:] = 0
    again = env.snapshot()
    assert not np.array_equal(again["scores"], snap["scores"])
    # observations are copies too
    keep = {a: o.copy() for a, o in obs.items()}
    env.step(noop_actions(env))
    for a in obs:
        assert np.array_equal(obs[a], keep[a])


def test_reset_restores_after_episode_end(conformance_case):
    env = make(conformance_case)
    obs0, _ = env.reset(seed=9)
    rng = np.random.default_rng(0)
    steps = 0
    while env.agents:
        env.step(random_actions(env, rng))
        steps += 1
        assert steps < MAX_EPISODE_STEPS
    obs1, _ = env.reset(seed=9)
    assert env.agents == list(env.possible_agents)
    for a in env.possible_agents:
        assert np.array_equal(obs0[a], obs1[a])
    assert env.snapshot()["steps"] == 0


def test_import_is_light():
    """Importing botarena (and building every env) pulls in neither torch, SB3 nor pygame."""
    code = (
        "import sys, botarena\n"
        "import numpy as np\n"
        "for env_id in botarena.ENV_IDS:\n"
        "    env = botarena.parallel_env(env_id, render_mode='rgb_array')\n"
        "    env.reset(seed=0)\n"
        "    shape = env.game.action_shape()\n"
        "    env.step({a: (np.zeros(shape, dtype=np.int64) if shape else 0) for a in env.agents})\n"
        "    env.render()\n"
        "    botarena.env(env_id).reset(seed=0)\n"
        "heavy = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'pygame') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "HEAVY []" in result.stdout, result.stdout
