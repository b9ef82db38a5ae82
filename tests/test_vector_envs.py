"""The vector front-ends: SB3 VecEnv (``botarena.vector_env``), Gymnasium VectorEnv
(``botarena.gymnasium_vector_env``), opponents, and SuperSuit over the ParallelEnv."""
import numpy as np
import pytest

import botarena
from botarena.wrappers.opponents import PolicyOpponent

E = 4


def make_game(env_id, config, num_envs=1):
    module = botarena.env_module(env_id)
    return module.Game(module.Config(**config), num_envs)


def zeros(game, n):
    """``n`` no-op actions (0) of the game's action shape."""
    return np.zeros((n,) + game.action_shape(), dtype=np.int64)


def natural_length(env_id, config, seed=0):
    """Steps of a natural game (no max_steps) of ``config`` with no-op actions."""
    env = botarena.parallel_env(env_id, **config)
    env.reset(seed=seed)
    shape = env.game.action_shape()
    steps = 0
    while env.agents:
        obs, rew, term, trunc, infos = env.step(
            {a: (np.zeros(shape, dtype=np.int64) if shape else 0) for a in env.agents})
        steps += 1
        assert steps < 10_000
    assert all(term.values()) and not any(trunc.values())
    return steps


def random_legal(masks, rng, game):
    """A random legal action per row of the flat ``masks`` (an array of the game's action
    shape per row for array-action games: a legal command per cell)."""
    scores = rng.random(masks.shape) * (masks > 0)
    scores = scores.reshape((len(masks),) + game.action_shape() + (game.action_values(),))
    return scores.argmax(axis=-1).astype(np.int64)


def last_legal_of(game):
    """The ``f(obs, masks)`` policy that plays the last legal action (of every cell)."""
    def last_legal(masks):
        masks = masks.reshape((len(masks),) + game.action_shape() + (game.action_values(),))
        return masks.shape[-1] - 1 - np.argmax(masks[..., ::-1] > 0, axis=-1)
    return last_legal


def legal_taken(masks, actions, game):
    """bool per row: every entry of the row's action is legal in its flat mask."""
    masks = masks.reshape((len(masks), -1, game.action_values()))
    actions = actions.reshape(len(masks), -1)
    picked = np.take_along_axis(masks, actions[..., None], axis=-1)[..., 0]
    return (picked > 0).all(axis=1)


# -- SB3 VecEnv ----------------------------------------------------------------------------

def test_sb3_shapes_all_learners(env_id, short_config):
    venv = botarena.vector_env(env_id, E, seed=0, **short_config)
    A = venv.game.num_agents
    obs_space = venv.observation_space
    assert venv.num_envs == E * A
    obs = venv.reset()
    assert obs.shape == (E * A,) + obs_space.shape and obs.dtype == obs_space.dtype
    # slot e * A + a is agent a of env e
    for e in range(E):
        for a in range(A):
            assert np.array_equal(obs[e * A + a], venv.game.obs[e, a])
    masks = venv.action_masks()
    assert masks.shape == (E * A, venv.game.num_actions())
    assert np.array_equal(masks > 0, venv.game.masks.reshape(E * A, -1) > 0)
    assert (masks > 0).any(axis=1).all()
    rng = np.random.default_rng(0)
    obs, rewards, dones, infos = venv.step(random_legal(masks, rng, venv.game))
    assert obs.shape == (E * A,) + obs_space.shape and obs.dtype == obs_space.dtype
    assert rewards.shape == (E * A,) and rewards.dtype == np.float32
    assert dones.shape == (E * A,) and dones.dtype == np.bool_
    assert isinstance(infos, list) and len(infos) == E * A
    assert all(obs_space.contains(o) for o in obs)


def test_sb3_shapes_with_opponent(env_id, short_config):
    venv = botarena.vector_env(env_id, E, opponent="random", seed=0, **short_config)
    assert venv.num_envs == E
    obs = venv.reset()
    assert obs.shape == (E,) + venv.observation_space.shape
    assert venv.action_masks().shape == (E, venv.game.num_actions())
    obs, rewards, dones, infos = venv.step(zeros(venv.game, E))
    assert obs.shape[0] == rewards.shape[0] == dones.shape[0] == len(infos) == E


@pytest.mark.parametrize("opponent", [None, "random"])
def test_sb3_outputs_stay_valid_through_the_next_step(env_id, short_config, opponent):
    """The arrays a step returns are written in place into buffers that alternate
    (``slots.OUT_BUFFERS``): SB3 stores a step's observations and masks after the next
    step, so they must hold until then; the step after that reuses them."""
    venv = botarena.vector_env(env_id, E, opponent=opponent, seed=0, **short_config)
    venv.reset()
    actions = zeros(venv.game, venv.num_envs)
    first, first_masks = venv.step(actions)[0], venv.action_masks()
    kept, kept_masks = first.copy(), first_masks.copy()
    second, second_masks = venv.step(actions)[0], venv.action_masks()
    assert second is not first and second_masks is not first_masks
    assert np.array_equal(first, kept) and np.array_equal(first_masks, kept_masks)
    slots = venv.slots
    assert np.array_equal(second, venv.game.obs[slots.learner_env, slots.learner_agent])
    assert venv.step(actions)[0] is first and venv.action_masks() is first_masks


def test_sb3_env_method_action_masks_one_per_slot(env_id, short_config):
    """sb3-contrib's get_action_masks stacks ``env_method("action_masks")``: that must give
    one mask per slot, i.e. shape (num_envs, n)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    venv = botarena.vector_env(env_id, 2, seed=0, **short_config)
    venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (venv.num_envs, venv.game.num_actions())
    assert np.array_equal(masks, venv.action_masks())


@pytest.mark.parametrize("threads", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_sb3_autoreset_matches_game_replay(env_id, short_config, threads):
    """On the step a slot's episode ends: done, terminal_observation = the game's last
    observation (replayed without autoreset, then reset from the env's own RNG), and the
    returned obs is the new game's first observation; with the threaded kernels too (the
    observations are then copied out on numba's threads; slow: it compiles the threaded
    kernels, as the slow thread-count test does)."""
    seed = 21
    venv = botarena.vector_env(env_id, E, seed=seed, threads=threads, **short_config)
    A = venv.game.num_agents
    N = E * A
    mirror = make_game(env_id, short_config, E)
    mirror.reset(seed)
    # the first episode is also replayed by ParallelEnvs seeded seed + e
    pars = [botarena.parallel_env(env_id, **short_config) for _ in range(E)]
    for e, par in enumerate(pars):
        par.reset(seed=seed + e)
    obs = venv.reset()
    assert np.array_equal(obs, mirror.obs.reshape((N,) + mirror.obs.shape[2:]))
    rng = np.random.default_rng(1)
    ends = 0
    first_episode = np.ones(E, dtype=bool)
    for t in range(40):
        actions = random_legal(venv.action_masks(), rng, venv.game)
        obs, rewards, dones, infos = venv.step(actions)
        mirror.step(actions.reshape((E, A) + mirror.action_shape()))
        expect_done = (mirror.terminated | mirror.truncated).reshape(N)
        assert np.array_equal(dones, expect_done), t
        assert np.array_equal(rewards, mirror.rewards.reshape(N))
        for e in range(E):
            if first_episode[e]:
                o, r, term, trunc, _ = pars[e].step(
                    {f: (int(actions[e * A + i]) if actions.ndim == 1 else actions[e * A + i])
                     for i, f in enumerate(pars[e].possible_agents)})
                for i, agent in enumerate(pars[e].possible_agents):
                    expected = infos[e * A + i]["terminal_observation"] if dones[e * A + i] else obs[e * A + i]
                    assert np.array_equal(o[agent], expected), (t, e, agent)
                    assert r[agent] == rewards[e * A + i]
                first_episode[e] = bool(pars[e].agents)
        for i in range(N):
            e, a = divmod(i, A)
            if dones[i]:
                assert np.array_equal(infos[i]["terminal_observation"], mirror.obs[e, a])
                assert infos[i]["TimeLimit.truncated"] is False
                assert infos[i]["score"] == int(mirror.scores[e, a])
                assert infos[i]["outcome"] in (-1, 0, 1)
            else:
                assert "terminal_observation" not in infos[i]
        done_envs = np.flatnonzero(expect_done.reshape(E, A).all(axis=1))
        ends += len(done_envs)
        if len(done_envs):
            mask = np.zeros(E, dtype=np.bool_)
            mask[done_envs] = True
            # the documented kernel contract: reset the ended envs from their own RNG
            mirror.kernels.reset(mirror.state, mirror.params, 1,
                                 (mask, mirror.obs, mirror.masks) + mirror._obs_sync())
            for e in done_envs:
                assert venv.game.snapshot(e)["steps"] == 0
                for a in range(A):
                    assert not np.array_equal(obs[e * A + a], infos[e * A + a]["terminal_observation"])
        assert np.array_equal(obs, mirror.obs.reshape(obs.shape)), t
        assert np.array_equal(venv.action_masks(), mirror.masks.reshape(N, -1))
    assert ends >= 2 * E
    assert not first_episode.any()


def test_sb3_time_limit_truncated(env_id, short_config):
    length = natural_length(env_id, short_config)
    assert length >= 4
    for max_steps, truncated in ((length - 2, True), (length, False)):
        config = dict(short_config, max_steps=max_steps)
        venv = botarena.vector_env(env_id, 2, opponent="random", seed=3, **config)
        venv.reset()
        done_steps = []
        for t in range(1, 2 * max_steps + 1):
            obs, rewards, dones, infos = venv.step(zeros(venv.game, 2))
            for i in np.flatnonzero(dones):
                assert infos[i]["TimeLimit.truncated"] is truncated, (max_steps, t)
                done_steps.append(t)
            if not dones.any():
                for info in infos:
                    assert "TimeLimit.truncated" not in info
        expected_ends = [max_steps, max_steps, 2 * max_steps, 2 * max_steps]
        assert done_steps == expected_ends, (max_steps, done_steps)


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_sb3_opponent_bot_really_plays(env_id, bot):
    """Opponent seats are hidden from the learner and play what the bot says."""
    num_envs = 6
    venv = botarena.vector_env(env_id, num_envs, opponent=bot, seed=8)
    game = venv.game
    A = game.num_agents
    obs = venv.reset()
    rng = np.random.default_rng(2)
    env_ids = np.array([e for e in range(num_envs) for a in range(A) if a != e % A], dtype=np.int64)
    agent_ids = np.array([a for e in range(num_envs) for a in range(A) if a != e % A], dtype=np.int64)
    non_stay = 0
    for t in range(60):
        # learner seat e % A: the learner sees only its own observation
        for e in range(num_envs):
            assert np.array_equal(obs[e], game.obs[e, e % A])
        copy = game.copy_state()
        expected = zeros(game, len(env_ids))
        game.bots[bot](copy, game.params, env_ids, agent_ids, expected)
        learner = random_legal(venv.action_masks(), rng, game)
        obs, rewards, dones, infos = venv.step(learner)
        assert np.array_equal(game.actions[env_ids, agent_ids], expected), t
        assert np.array_equal(game.actions[np.arange(num_envs), np.arange(num_envs) % A], learner)
        non_stay += int((expected != 0).sum())
    assert non_stay > 0


@pytest.mark.parametrize("who", ["learner", "opponent"])
def test_sb3_actions_that_would_wrap_around_are_refused(env_id, short_config, who):
    """Values past the game's int8 action buffer (2 ** 40 + 1 would land there as 1) raise
    ValueError, the learner's as an opponent policy's, and no game changes."""
    wild = 2 ** 40 + 1

    def opponent(obs, masks):
        return np.full((len(obs),) + game.action_shape(), wild if who == "opponent" else 0)

    venv = botarena.vector_env(env_id, 3, opponent=opponent, seed=4, **short_config)
    game = venv.game
    venv.reset()
    before = [field.copy() for field in game.state]
    learner = zeros(game, 3) + (wild if who == "learner" else 0)
    with pytest.raises(ValueError, match="outside"):
        venv.step(learner)
    assert all(np.array_equal(a, b) for a, b in zip(before, game.state))


def test_sb3_policy_opponent_callable(env_id, short_config):
    calls = []
    pick = last_legal_of(make_game(env_id, short_config))

    def last_legal(obs, masks):
        calls.append((obs.copy(), masks.copy()))
        return pick(masks)

    for opponent in (last_legal, PolicyOpponent(last_legal)):
        calls.clear()
        venv = botarena.vector_env(env_id, 3, opponent=opponent, seed=4, **short_config)
        game = venv.game
        A = game.num_agents
        venv.reset()
        opp_env = np.array([e for e in range(3) for a in range(A) if a != e % A])
        opp_agent = np.array([a for e in range(3) for a in range(A) if a != e % A])
        for t in range(5):
            before_obs = game.obs[opp_env, opp_agent].copy()
            before_masks = game.masks[opp_env, opp_agent].copy()
            venv.step(zeros(game, 3))
            seen_obs, seen_masks = calls[-1]
            assert np.array_equal(seen_obs, before_obs)
            assert np.array_equal(seen_masks, before_masks)
            expected = pick(before_masks)
            assert np.array_equal(game.actions[opp_env, opp_agent], expected)
        assert len(calls) == 5


def test_sb3_learner_seats_rotate(env_id, config_tables):
    for config in config_tables["conformance"][env_id][:3]:
        num_envs = 7
        venv = botarena.vector_env(env_id, num_envs, opponent="random", seed=0, **config)
        A = venv.game.num_agents
        obs = venv.reset()
        seats = []
        for e in range(num_envs):
            matches = [a for a in range(A) if np.array_equal(obs[e], venv.game.obs[e, a])]
            assert e % A in matches
            seats.append(e % A)
            assert np.array_equal(venv.action_masks()[e], venv.game.masks[e, e % A])
        assert set(seats) == set(range(A))
        fixed = botarena.vector_env(env_id, num_envs, opponent="random", seed=0, learner_seat=1,
                                    **config)
        obs = fixed.reset()
        for e in range(num_envs):
            assert np.array_equal(obs[e], fixed.game.obs[e, 1])


def test_sb3_seed_reproducible(env_id, short_config):
    def play():
        venv = botarena.vector_env(env_id, E, opponent="greedy", seed=99, **short_config)
        log = [venv.reset()]
        for t in range(30):
            obs, rewards, dones, infos = venv.step(
                np.full((E,) + venv.game.action_shape(), t % venv.game.action_values(), dtype=np.int64))
            log += [obs, rewards, dones]
        return log

    a, b = play(), play()
    assert len(a) == len(b) == 91
    for x, y in zip(a, b):
        assert np.array_equal(x, y)


@pytest.fixture
def one_torch_thread():
    """torch on one thread: SB3 samples a Categorical per cell of a MultiDiscrete action,
    and on 2 shared cores (two test workers) each tiny op on 2 threads took milliseconds."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_sb3_ppo_learns_briefly(env_id, short_config, one_torch_thread):
    from stable_baselines3 import PPO

    venv = botarena.vector_env(env_id, 2, opponent="random", seed=0, **short_config)
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    assert model.num_timesteps >= 256
    action, _ = model.predict(venv.reset(), deterministic=True)
    assert action.shape == (2,) + venv.game.action_shape()


def test_sb3_maskable_ppo_learns_briefly(env_id, short_config, one_torch_thread):
    from sb3_contrib import MaskablePPO

    venv = botarena.vector_env(env_id, 2, seed=0, **short_config)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    model.learn(256)
    assert model.num_timesteps >= 256
    obs = venv.reset()
    masks = venv.action_masks()
    action, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert action.shape == (venv.num_envs,) + venv.game.action_shape()
    assert legal_taken(masks, action, venv.game).all()


# -- Gymnasium VectorEnv ------------------------------------------------------------------

def test_gymnasium_vector_env(env_id, short_config):
    from gymnasium.vector import AutoresetMode

    venv = botarena.gymnasium_vector_env(env_id, E, **short_config)
    A = venv.slots.game.num_agents
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.num_envs == E * A
    assert venv.observation_space.shape == (E * A,) + venv.single_observation_space.shape
    assert venv.action_space.shape == (E * A,) + venv.slots.game.action_shape()
    obs, infos = venv.reset(seed=5)
    assert venv.observation_space.contains(obs)
    assert infos["action_mask"].shape == (E * A, venv.slots.game.num_actions())
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(30):
        prev = obs
        obs, rewards, terminated, truncated, infos = venv.step(
            random_legal(infos["action_mask"], rng, venv.slots.game))
        assert obs.shape == prev.shape and rewards.shape == terminated.shape == truncated.shape == (E * A,)
        assert venv.observation_space.contains(obs)
        done = terminated | truncated
        if done.any():
            assert np.array_equal(infos["_final_obs"], done)
            game = venv.slots.game
            for i in np.flatnonzero(done):
                e, a = divmod(i, A)
                assert np.array_equal(infos["final_obs"][i], game.final_obs[e, a])
                assert not np.array_equal(infos["final_obs"][i], obs[i])
                assert game.snapshot(e)["steps"] == 0  # same-step autoreset: already restarted
            ends += int(done.sum())
        else:
            assert "final_obs" not in infos and "_final_obs" not in infos
    assert ends >= E * A
    # same seed, same start
    obs2, _ = venv.reset(seed=5)
    obs3, _ = botarena.gymnasium_vector_env(env_id, E, **short_config).reset(seed=5)
    assert np.array_equal(obs2, obs3)


def test_gymnasium_vector_env_without_copies_hands_out_the_game_buffers(env_id, short_config):
    """``copy=False``: the observations and masks are views of the game's buffers (no copy),
    and every step, autoreset and final observation equals the copying env's."""
    copying = botarena.gymnasium_vector_env(env_id, E, **short_config)
    viewing = botarena.gymnasium_vector_env(env_id, E, copy=False, **short_config)
    game = viewing.slots.game
    obs, infos = copying.reset(seed=5)
    view, view_infos = viewing.reset(seed=5)
    rng = np.random.default_rng(0)
    ends = 0
    for t in range(30):
        assert np.shares_memory(view, game.obs) and np.shares_memory(view_infos["action_mask"],
                                                                      game.masks)
        assert np.shares_memory(obs, copying.slots.game.obs)   # written where handed out
        assert np.array_equal(view, obs) and np.array_equal(view_infos["action_mask"],
                                                            infos["action_mask"])
        actions = random_legal(infos["action_mask"], rng, game)
        kept, kept_copy = obs, obs.copy()
        obs, rewards, terminated, truncated, infos = copying.step(actions)
        # the copying env's observations stay valid through the next step
        assert np.array_equal(kept, kept_copy) and not np.shares_memory(kept, obs)
        view, view_rewards, view_terminated, view_truncated, view_infos = viewing.step(actions)
        for mine, theirs in ((view_rewards, rewards), (view_terminated, terminated),
                             (view_truncated, truncated)):
            assert np.array_equal(mine, theirs), t
        if "final_obs" in infos:
            assert np.array_equal(view_infos["final_obs"], infos["final_obs"])
            ends += int(infos["_final_obs"].sum())
    assert ends >= E
    # with opponents, the slots are not the game's rows: copies, as with copy=True
    venv = botarena.gymnasium_vector_env(env_id, 3, opponent="greedy", copy=False, **short_config)
    obs, _ = venv.reset(seed=0)
    assert not np.shares_memory(obs, venv.slots.game.obs)


def test_kernel_writes_into_the_buffer_handed_out(env_id, short_config):
    """With every agent a learner, the kernel writes the observations straight into the
    buffer the vector env hands out (no copy): the two sets alternate, the buffer of two
    steps ago brought up to date by replaying what the last step wrote (or drawn whole:
    paint_v0), and every step's observations, autoresets included, equal those of a game
    stepped alone; what a step returned stays as it was through the next step, and a
    refused step leaves the game's observations where and as they were."""
    check_written_into_handed_out(env_id, short_config)


@pytest.mark.parametrize("view", ["board", "ego"])
def test_kernel_writes_dungeon_blasts_into_the_buffer_handed_out(view):
    """As above, for dungeon_v0 games where bombs go off (the short config's never do)
    and the bombs and danger planes are cleared again, in both views."""
    check_written_into_handed_out("dungeon_v0", dict(
        width=7, height=7, metal_blocks=4, wooden_blocks=6, ore_blocks=2, bomb_fuse=5,
        max_turns=60, num_players=3, view=view))


def check_written_into_handed_out(env_id, short_config):
    num_envs = 3
    venv = botarena.vector_env(env_id, num_envs, seed=2, **short_config)
    game = venv.game
    mirror = make_game(env_id, short_config, num_envs)
    mirror.reset(2)
    rng = np.random.default_rng(0)
    handed = [venv.reset()]
    assert np.array_equal(handed[0], mirror.obs.reshape(handed[0].shape))
    ends = 0
    for t in range(60):
        actions = random_legal(venv.action_masks(), rng, game)
        before = handed[-1].copy()
        obs, _, dones, _ = venv.step(actions)
        handed.append(obs)
        ends += int(dones.sum())
        mirror.step(actions.reshape(mirror.actions.shape), autoreset=True)
        assert np.shares_memory(handed[-1], game.obs)
        assert not np.shares_memory(handed[-1], handed[-2])
        assert np.array_equal(handed[-2], before)             # valid through the next step
        assert np.array_equal(handed[-1], mirror.obs.reshape(handed[-1].shape)), t
    assert ends > 0                                           # autoresets covered
    assert np.shares_memory(handed[-1], handed[-3])          # two sets, in turn
    drawn, shown = game.obs, game.obs.copy()
    with pytest.raises(ValueError):
        venv.step(np.full((num_envs * game.num_agents,) + game.action_shape(),
                          game.action_values()))
    assert game.obs is drawn and np.array_equal(game.obs, shown)
    actions = random_legal(venv.action_masks(), rng, game)   # and on as before
    mirror.step(actions.reshape(mirror.actions.shape), autoreset=True)
    assert np.array_equal(venv.step(actions)[0], mirror.obs.reshape(handed[-1].shape))
    # an opponent seat: copies, as before
    other = botarena.vector_env(env_id, num_envs, opponent="random", seed=0, **short_config)
    assert not np.shares_memory(other.reset(), other.game.obs)


def test_gymnasium_vector_env_with_opponent(env_id, short_config):
    venv = botarena.gymnasium_vector_env(env_id, 3, opponent="greedy", **short_config)
    assert venv.num_envs == 3
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (3,) + venv.single_observation_space.shape
    obs, rewards, terminated, truncated, infos = venv.step(zeros(venv.slots.game, 3))
    assert rewards.shape == (3,)


# -- SuperSuit ------------------------------------------------------------------------------

def test_supersuit_vec_env_steps(env_id):
    import supersuit

    par = botarena.parallel_env(env_id)
    venv = supersuit.pettingzoo_env_to_vec_env_v1(par)
    A = len(par.possible_agents)
    assert venv.num_envs == A
    obs, infos = venv.reset(seed=0)
    assert obs.shape == (A,) + par.observation_space(par.possible_agents[0]).shape
    start = par.snapshot()["scores"].astype(np.float64)
    total = np.zeros(A)
    for t in range(20):
        obs, rewards, terminated, truncated, infos = venv.step(
            np.full((A,) + par.game.action_shape(), t % par.game.action_values()))
        assert obs.shape[0] == rewards.shape[0] == A
        total += rewards
    assert par.snapshot()["steps"] == 20
    # default reward: the score change, so the rewards add up to it
    assert np.array_equal(total, par.snapshot()["scores"] - start)


def test_sb3_later_resets_follow_the_seed(env_id, random_config):
    """As with SB3's own VecEnvs: a seeded VecEnv's later ``reset()`` calls are reproducible."""
    def starts():
        venv = botarena.vector_env(env_id, 2, seed=3, **random_config)
        return [venv.reset(), venv.reset()]

    a, b = starts(), starts()
    assert np.array_equal(a[0], b[0])
    assert np.array_equal(a[1], b[1]), "the second reset() of a seeded VecEnv is not reproducible"


def test_gymnasium_vector_env_truncation(env_id, short_config):
    length = natural_length(env_id, short_config)
    venv = botarena.gymnasium_vector_env(env_id, 2, opponent="random",
                                         **dict(short_config, max_steps=length - 2))
    venv.reset(seed=1)
    for t in range(1, length - 1):
        obs, rewards, terminated, truncated, infos = venv.step(zeros(venv.slots.game, 2))
        if t < length - 2:
            assert not (terminated | truncated).any()
    assert truncated.all() and not terminated.any()
    assert infos["_final_obs"].all()
    venv2 = botarena.gymnasium_vector_env(env_id, 2, opponent="random", **short_config)
    venv2.reset(seed=1)
    for t in range(length):
        obs, rewards, terminated, truncated, infos = venv2.step(zeros(venv2.slots.game, 2))
    assert terminated.all() and not truncated.any()


def test_envs_pickle_and_play_on(env_id):
    """Subprocess vector envs and Ray copy envs by pickling: the copy carries the state and
    steps on exactly like the original."""
    import pickle

    env = botarena.parallel_env(env_id)
    env.reset(seed=5)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.agents == env.agents
    for k, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(k)             # the same random actions every run
    for _ in range(5):
        if not env.agents:
            break
        actions = {a: env.action_space(a).sample(env.action_mask(a).astype(np.int8))
                   if not env.game.action_shape() else env.action_space(a).sample()
                   for a in env.agents}
        a = env.step(actions)
        b = copy.step(actions)
        for agent in a[0]:
            assert np.array_equal(a[0][agent], b[0][agent])
            assert a[1][agent] == b[1][agent]
    assert env.snapshot()["scores"].tolist() == copy.snapshot()["scores"].tolist()


def test_vector_env_counts_games_and_its_num_envs_counts_slots():
    import warnings
    env = botarena.vector_env("paint_v0", 3)                  # 3 games x 2 seats
    assert env.num_envs == 6 and env.game.num_envs == 3
    env.close()
    with pytest.warns(DeprecationWarning, match="num_games"):
        old = botarena.vector_env("paint_v0", num_envs=2)
    assert old.game.num_envs == 2
    old.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(TypeError, match="both num_games and num_envs"):
            botarena.vector_env("paint_v0", 2, num_envs=2)
    with pytest.raises(TypeError, match="number of games"):
        botarena.gymnasium_vector_env("paint_v0")
