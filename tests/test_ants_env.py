"""ants_v0 env: PettingZoo API, spaces, masks, observations from each colony's side,
determinism and batch equivalence, bots, bad input, snapshot and renders."""
import pickle

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import parallel_api_test

from botarena.envs.ants.constants import HILL_REACH
from botarena.envs.ants_v0 import AntsGame, Config, Plane, parallel_env
from botarena.envs.ants_v0 import env as aec_env

from test_ants_helpers import E, S, W, new_game, turn





# 3-4 colonies (agents leaving mid-game) are left out until core/parallel_env.py builds
# the action array per agent (see the report: it mixes 0 and arrays in one list)
@pytest.mark.parametrize("config", [{}, {"board": "quad", "num_players": 2},
                                    {"obs_dtype": "float32", "reward": "zero_sum"},
                                    {"reward": "win_loss", "max_turns": 40}])
def test_parallel_api(config):
    parallel_api_test(parallel_env(**config), num_cycles=60)


def test_spaces():
    env = parallel_env()
    assert env.possible_agents == ["colony_0", "colony_1"]
    space = env.action_space("colony_0")
    assert isinstance(space, spaces.MultiDiscrete)
    assert space.shape == (400,) and (space.nvec == 5).all()
    assert env.action_space("colony_1") is space
    obs_space = env.observation_space("colony_0")
    assert obs_space.shape == (12, 20, 20) and obs_space.dtype == np.uint8 and obs_space.high.max() == 255
    game = env.game
    assert game.action_shape() == (400,) and game.action_values() == 5 and game.num_actions() == 2000
    obs, infos = env.reset(seed=0)
    # infos: one mask row per cell (Gymnasium's MultiDiscrete.sample takes that tuple);
    # action_mask(agent): the flat layout MaskablePPO takes
    rows = infos["colony_0"]["action_mask"]
    assert isinstance(rows, tuple) and len(rows) == 400
    assert all(row.shape == (5,) and row.dtype == np.int8 for row in rows)
    flat = env.action_mask("colony_0")
    assert flat.shape == (2000,) and flat.dtype == np.int8
    assert np.array_equal(np.concatenate(rows), flat)
    assert env.action_space("colony_0").sample(rows).shape == (400,)
    # one [cells, commands] array under the tuple: numpy, copies and pickles see the rows
    assert np.array_equal(np.asarray(rows), flat.reshape(400, 5))
    assert rows == tuple(rows) and rows[7].shape == (5,)
    again = pickle.loads(pickle.dumps(rows))
    assert type(again) is type(rows) and np.array_equal(np.asarray(again), np.asarray(rows))
    assert parallel_env(obs_dtype="float32").observation_space("colony_0").dtype == np.float32


def test_mask_layout():
    game = new_game(["A%......",
                     "........",
                     "....a...",
                     ".......B"])
    mask = game.masks[0, 0].reshape(4 * 8, 5)
    own = {(0, 0), (4, 2)}
    for y in range(4):
        for x in range(8):
            row = mask[y * 8 + x]
            assert row[0] == 1
            if (x, y) not in own:
                assert row[1:].sum() == 0
    assert mask[0].tolist() == [1, 0, 0, 1, 0]              # N off-map, E water, S, W off
    assert mask[2 * 8 + 4].tolist() == [1, 1, 1, 1, 1]
    # colony 1 sees only its own ant's moves
    m1 = game.masks[0, 1].reshape(32, 5)
    assert m1[3 * 8 + 7].tolist() == [1, 1, 0, 0, 1]
    assert m1[2 * 8 + 4].tolist() == [1, 0, 0, 0, 0]


def test_observation_planes_from_each_side():
    game = new_game(["A......B",
                     "........",
                     "..a.f.b.",
                     "%......."], num_players=3, board_extra=None) if False else \
        new_game(["A......B",
                  "........",
                  "..a.f.b.",
                  "%.c....C"], attack_radius2=0, gather_radius2=0)
    obs = game.obs[0]
    on = 255
    # colony 0
    assert obs[0, Plane.OWN_ANTS, 2, 2] == on and obs[0, Plane.OWN_ANTS, 0, 0] == on
    assert obs[0, Plane.ENEMY_ANTS_1, 2, 6] == on and obs[0, Plane.ENEMY_ANTS_2, 3, 2] == on
    assert obs[0, Plane.ENEMY_ANTS_3].sum() == 0
    assert obs[0, Plane.FOOD, 2, 4] == on and obs[0, Plane.FOOD].sum() == on
    assert obs[0, Plane.OWN_HILLS, 0, 0] == on and obs[0, Plane.ENEMY_HILLS, 0, 7] == on
    assert obs[0, Plane.ENEMY_HILLS, 3, 7] == on
    assert obs[0, Plane.WATER, 3, 0] == on and obs[0, Plane.WATER].sum() == on
    # colony 2: next colony is 0, then 1
    assert obs[2, Plane.OWN_ANTS, 3, 2] == on
    assert obs[2, Plane.ENEMY_ANTS_1, 2, 2] == on and obs[2, Plane.ENEMY_ANTS_2, 2, 6] == on
    assert obs[2, Plane.OWN_HILLS, 3, 7] == on
    # constant planes
    assert (obs[:, Plane.ALIVE_PLAYERS] == on).all()
    assert (obs[:, Plane.TURN] == 0).all()


def test_razed_hill_is_half_and_stored_food_plane():
    game = new_game(["A...b0..",
                     "........",
                     "1......B"], stored_food=[0, 10])
    turn(game, {1: {(4, 0): E}})
    obs = game.obs[0]
    assert obs[0, Plane.OWN_HILLS, 0, 5] == 128
    assert obs[1, Plane.ENEMY_HILLS, 0, 5] == 128
    assert obs[1, Plane.STORED_FOOD, 0, 0] == round(255 * 9 / 20)   # one ant spawned on hill 1
    assert obs[0, Plane.TURN, 0, 0] == round(255 * 1 / 300)


def proximity_steps(obs_plane):
    """A HILL_PROXIMITY plane (uint8) as steps to the nearest standing enemy hill: -1 where
    it shows 0 (water, cut off, no such hill)."""
    plane = obs_plane.astype(int)
    return np.where(plane > 0, np.round((255 - plane) * HILL_REACH / 255).astype(int), -1)


def test_hill_proximity_plane_counts_steps_over_land_and_drops_a_razed_hill():
    # colony 0's hill at (0, 0); colony 1's at (6, 0), walled off from the left half but
    # for the gap at (3, 3): its distances run round the water
    game = new_game(["A..%..B",
                     "...%...",
                     "...%...",
                     "......."], stored_food=[0, 0])
    assert proximity_steps(game.obs[0, 0, Plane.HILL_PROXIMITY]).tolist() == [
        [12, 11, 10, -1, 2, 1, 0],
        [11, 10, 9, -1, 3, 2, 1],
        [10, 9, 8, -1, 4, 3, 2],
        [9, 8, 7, 6, 5, 4, 3]]
    assert proximity_steps(game.obs[0, 1, Plane.HILL_PROXIMITY]).tolist() == [
        [0, 1, 2, -1, 10, 11, 12],
        [1, 2, 3, -1, 9, 10, 11],
        [2, 3, 4, -1, 8, 9, 10],
        [3, 4, 5, 6, 7, 8, 9]]
    assert game.obs[0, 0, Plane.HILL_PROXIMITY, 0, 6] == 255
    # colony 1 steps onto colony 0's hill from (1, 0): razed, colony 1 has no standing
    # enemy hill left, colony 0's plane is unchanged
    game = new_game(["Ab.%..B",
                     "...%...",
                     "...%...",
                     "......."], stored_food=[0, 0], attack_radius2=0)
    before = game.obs[0, 0, Plane.HILL_PROXIMITY].copy()
    snap = turn(game, {0: {(0, 0): E}, 1: {(1, 0): W}})   # the two ants swap
    assert snap["board"][0][:2] == "Ba" and snap["scores"].tolist() == [0, 3]
    assert (game.obs[0, 1, Plane.HILL_PROXIMITY] == 0).all()
    assert np.array_equal(game.obs[0, 0, Plane.HILL_PROXIMITY], before)


def _trajectory(seed, num_envs=1, e=0, steps=120, config=None):
    game = AntsGame(Config(**(config or {})), num_envs)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    env_ids = np.arange(num_envs)
    out = np.zeros((num_envs, game.height * game.width), dtype=np.int64)
    frames = []
    for t in range(steps):
        game.bots["greedy"](game.state, game.params, env_ids, np.zeros(num_envs, np.int64), out)
        game.actions[:, 0] = out
        game.actions[:, 1] = rng.integers(0, 5, size=(num_envs, game.height * game.width))
        game.step(autoreset=True)
        frames.append((game.obs[e].copy(), game.rewards[e].copy(), game.masks[e].copy(),
                       game.snapshot(e)["board"]))
    return frames


def test_same_seed_same_trajectory():
    a, b = _trajectory(5), _trajectory(5)
    assert len(a) == 120
    for x, y in zip(a, b):
        assert all(np.array_equal(u, v) for u, v in zip(x[:3], y[:3])) and x[3] == y[3]
    c = _trajectory(6)
    assert any(x[3] != y[3] for x, y in zip(a, c))


def test_batch_equivalence():
    alone = _trajectory(12, steps=60)
    # env 3 of a batch of 5 seeded 9 + 3 = 12; the random actions differ per env, so
    # compare with actions drawn the same way: use one env per batch position instead
    game = AntsGame(Config(), 5)
    game.reset(seed=9)
    single = AntsGame(Config(), 1)
    single.reset(seed=12)
    rng = np.random.default_rng(0)
    for t in range(80):
        actions = rng.integers(0, 5, size=(5, 2, 400))
        game.step(actions, autoreset=True)
        single.step(actions[3:4], autoreset=True)
        assert np.array_equal(game.obs[3], single.obs[0])
        assert np.array_equal(game.rewards[3], single.rewards[0])
        assert game.snapshot(3)["board"] == single.snapshot(0)["board"]
    assert len(alone) == 60


@pytest.mark.slow
def test_threaded_kernel_matches_serial():
    serial, threaded = AntsGame(Config(), 8, threads=False), AntsGame(Config(), 8, threads=True)
    serial.reset(seed=1)
    threaded.reset(seed=1)
    rng = np.random.default_rng(1)
    for t in range(50):
        actions = rng.integers(0, 5, size=(8, 2, 400))
        serial.step(actions, autoreset=True)
        threaded.step(actions, autoreset=True)
        assert np.array_equal(serial.obs, threaded.obs)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_command_only_own_ants_legally(bot):
    game = AntsGame(Config(board="quad", num_players=4), 3)
    game.reset(seed=2)
    env_ids = np.repeat(np.arange(3), 4)
    agent_ids = np.tile(np.arange(4), 3)
    out = np.zeros((12, 400), dtype=np.int64)
    for t in range(60):
        before = [field.copy() for field in game.state if field is not game.state.rng]
        game.bots[bot](game.state, game.params, env_ids, agent_ids, out)
        after = [field for field in game.state if field is not game.state.rng]
        assert all(np.array_equal(u, v) for u, v in zip(before, after))
        for i, (e, a) in enumerate(zip(env_ids, agent_ids)):
            mask = game.masks[e, a].reshape(400, 5)
            assert mask[np.arange(400), out[i]].all()
        game.actions[env_ids, agent_ids] = out
        game.step(autoreset=True)


def test_greedy_beats_random():
    game = AntsGame(Config(max_turns=150), 8)
    game.reset(seed=0)
    env_ids = np.arange(8)
    out = np.zeros((8, 400), dtype=np.int64)
    for t in range(150):
        game.bots["greedy"](game.state, game.params, env_ids, np.zeros(8, np.int64), out)
        game.actions[:, 0] = out
        game.bots["random"](game.state, game.params, env_ids, np.ones(8, np.int64), out)
        game.actions[:, 1] = out
        game.step()
    assert game.state.over.all()
    assert (game.state.rank_key[:, 0] > game.state.rank_key[:, 1]).sum() >= 6


def test_bots_use_only_the_agent_stream():
    game = AntsGame(Config(), 1)
    game.reset(seed=0)
    before = game.state.rng[0].copy()
    out = np.zeros((1, 400), dtype=np.int64)
    game.bots["random"](game.state, game.params, np.array([0]), np.array([0]), out)
    assert game.state.rng[0, 0] == before[0] and game.state.rng[0, 1] != before[1]


def test_bad_input():
    env = parallel_env()
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step({"colony_0": np.zeros(399, dtype=np.int64)})
    with pytest.raises(TypeError):
        env.step({"colony_0": np.zeros(400, dtype=np.float32)})
    with pytest.raises(ValueError):
        env.step({"colony_0": np.full(400, 5, dtype=np.int64)})
    with pytest.raises(ValueError):
        env.step({"colony_0": np.full(400, -1, dtype=np.int64)})
    with pytest.raises(ValueError):     # 257 would be 1 in the int8 buffer
        env.step({"colony_0": np.full(400, 257, dtype=np.int64)})
    with pytest.raises(ValueError):
        env.step({"colony_1": np.full(400, 2 ** 63 + 1, dtype=np.uint64)})
    with pytest.raises(ValueError):
        env.step({"colony_9": np.zeros(400, dtype=np.int64)})
    game = AntsGame(Config(), 1)
    game.reset(seed=0)
    with pytest.raises(ValueError):
        game.step(np.full((1, 2, 400), 7))
    with pytest.raises(ValueError):
        game.step(np.full((1, 2, 400), 256 + 2))
    with pytest.raises(TypeError):
        game.step(np.zeros((1, 2, 400), dtype=np.float64))
    with pytest.raises(ValueError):
        Config(num_players=5)
    with pytest.raises(ValueError):
        Config(num_players=1)
    with pytest.raises(ValueError):
        Config(reward="money")
    with pytest.raises(ValueError):
        Config(max_food=-1)
    with pytest.raises(ValueError):
        Config(board="default", num_players=3)


def test_illegal_commands_are_accepted_and_do_nothing():
    game = new_game(["A%......", "........", ".......B"])
    snap = turn(game, {0: {(0, 0): E, (3, 1): S}})
    assert snap["board"] == ["A%......", "........", ".......B"]


def test_snapshot_and_renders():
    env = parallel_env(render_mode="ansi")
    env.reset(seed=4)
    snap = env.snapshot()
    for key in ("board", "turn", "ants", "hills", "food", "stored_food", "scores", "alive",
                "positions", "turns_left"):
        assert key in snap
    assert set(snap["ants"][0]) == {"owner", "id", "x", "y"}
    assert set(snap["hills"][0]) == {"owner", "x", "y", "razed"}
    text = env.render()
    assert text.splitlines()[:20] == snap["board"]
    env = parallel_env(render_mode="rgb_array")
    env.reset(seed=4)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape[1:] == (20 * 16, 3)   # 20 cells of 16 pixels
    state = env.state()
    assert state.shape == env.state_space.shape and state.dtype == np.float32


def test_aec_env_runs():
    env = aec_env()
    env.reset(seed=0)
    for agent in env.agent_iter(40):
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else np.zeros(400, dtype=np.int64))
