"""ants_v0 ``restore``: ``restore(snapshot())`` gives the same snapshot and the same
trajectory afterwards (random states of random games: 2 and 4 colonies, several hills
each, fights, razing, stacked food); a snapshot restored into env 3 of a batch of 8 plays
as the game it came from; a bad snapshot raises ValueError naming its key and changes
nothing."""
import copy

import numpy as np
import pytest

from botarena.envs.ants.bots import BOTS
from botarena.envs.ants_v0 import AntsGame, Config
from test_ants_obs import assert_up_to_date, greedy_with_noise

CONFIGS = [
    {},
    {"board": "quad", "num_players": 4, "start_food": 2},
    {"board": "quad", "num_players": 2, "hills_per_player": 2, "start_food": 3,
     "max_food": 40},
]
STATES = 4           # snapshots per config and seed
SEEDS = (0, 1, 2)
BETWEEN = 15         # turns played between two snapshots
AFTER = 25           # turns compared after a restore


def same(a, b):
    """Deep equality of snapshot values (dicts, lists, tuples, arrays, scalars)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def greedy_commands(game, e, seed, noise=0.3):
    """Env e's commands ``int[A, H*W]`` of the greedy bot (which draws from the env's agent
    stream), a fraction replaced by random ones drawn from ``seed``."""
    A = game.num_agents
    out = np.zeros((A, game.height * game.width), dtype=np.int64)
    BOTS["greedy"](game.state, game.params, np.full(A, e), np.arange(A), out)
    rng = np.random.default_rng(seed)
    flip = rng.random(out.shape) < noise
    out[flip] = rng.integers(0, game.action_values(), int(flip.sum()))
    return out


def play_alongside(first, e1, second, e2, seed, turns):
    """Step env e1 of ``first`` and env e2 of ``second`` with the commands of noisy greedy
    bots; assert the commands, snapshots, observations, masks and rewards equal after every
    turn; returns the turns compared."""
    compared = 0
    for t in range(turns):
        if first.over[e1]:
            break
        mine, theirs = np.zeros_like(first.actions), np.zeros_like(second.actions)
        mine[e1] = greedy_commands(first, e1, seed + t)
        theirs[e2] = greedy_commands(second, e2, seed + t)
        assert np.array_equal(mine[e1], theirs[e2])
        first.step(mine)
        second.step(theirs)
        assert same(first.snapshot(e1), second.snapshot(e2))
        assert np.array_equal(first.obs[e1], second.obs[e2])
        assert np.array_equal(first.masks[e1], second.masks[e2])
        assert np.array_equal(first.rewards[e1], second.rewards[e2])
        compared += 1
    return compared


def random_states(config, seed):
    """(game, snapshot) at STATES points of a game played by noisy greedy bots."""
    game = AntsGame(Config(**config))
    game.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(STATES):
        for _ in range(BETWEEN):
            game.step(greedy_with_noise(game, rng, noise=0.3), autoreset=True)
        yield game, game.snapshot(0)


@pytest.mark.parametrize("config", CONFIGS)
def test_restore_of_a_snapshot_gives_the_same_snapshot_and_trajectory(config):
    stacked = compared = states = 0
    for seed in SEEDS:
        for game, snap in random_states(config, seed):
            other = AntsGame(Config(**config))
            other.reset(seed + 100)
            other.restore(copy.deepcopy(snap))
            assert same(other.snapshot(0), snap)
            assert_up_to_date(other)
            compared += play_alongside(game, 0, other, 0, seed, AFTER)
            stacked += any(count > 1 for _, _, count in snap["food"])
            states += 1
    assert states == len(SEEDS) * STATES
    assert compared >= states * AFTER // 2
    assert stacked >= 1          # food lay stacked in some of the states


def test_restore_into_env_3_of_a_batch_of_8_plays_as_the_single_env():
    config = Config(board="quad", num_players=4, start_food=2)
    single = AntsGame(config)
    single.reset(5)
    rng = np.random.default_rng(5)
    for _ in range(20):
        single.step(greedy_with_noise(single, rng))
    batch = AntsGame(config, 8)
    batch.reset(11)
    others = [batch.snapshot(e) for e in range(8)]
    batch.restore(single.snapshot(0), env=3)
    assert same(batch.snapshot(3), single.snapshot(0))
    assert np.array_equal(batch.obs[3], single.obs[0])
    assert np.array_equal(batch.masks[3], single.masks[0])
    assert all(same(batch.snapshot(e), others[e]) for e in range(8) if e != 3)
    assert play_alongside(single, 0, batch, 3, 5, 30) == 30


def test_restore_without_rng_carries_the_envs_rng_on():
    game = AntsGame(Config())
    game.reset(0)
    snap = game.snapshot(0)
    rng = snap.pop("rng")
    game.step()
    carried = game.state.rng[0].copy()
    game.restore(snap)
    assert np.array_equal(game.state.rng[0], carried) and not np.array_equal(carried, rng)


def bad_snapshots(snap):
    """(key named in the error, snapshot) pairs, each with one thing wrong."""
    def changed(key, value):
        bad = copy.deepcopy(snap)
        bad[key] = value
        return key, bad

    ant, hill = snap["ants"][0], snap["hills"][0]
    y, x = np.argwhere(Config().load_map().water)[0]
    water = (int(x), int(y))
    missing = copy.deepcopy(snap)
    del missing["hills"]
    yield "hills", missing
    yield changed("turn", -1)
    yield changed("turn", 301)
    yield changed("ants", snap["ants"] + [dict(ant, id=99)])                   # two on a cell
    yield changed("ants", [dict(ant, x=water[0], y=water[1])])                  # in water
    yield changed("ants", [dict(ant, x=20)])                                   # off the map
    yield changed("ants", [dict(ant, owner=2)])                                # no colony 2
    yield changed("ants", [{"owner": 0, "x": 1}])                              # keys missing
    yield changed("ants", snap["ants"] + [dict(ant, x=ant["x"] + 1)])         # same id
    yield changed("ants", "ants")
    yield changed("next_ant_id", max(a["id"] for a in snap["ants"]))
    yield changed("hills", [dict(hill, x=hill["x"] + 1)])                      # not a hill
    yield changed("hills", [hill, dict(hill)])                                 # listed twice
    yield changed("hills", [dict(hill, owner=-1)])
    yield changed("food", [(1, 1, 0)])                                         # no food
    yield changed("food", [(1, 1, 256)])                                       # > uint8
    yield changed("food", [(1, 1, 1), (1, 1, 2)])                              # cell twice
    yield changed("food", [(water[0], water[1], 1)])
    yield changed("food", [(1, 1)])
    yield changed("stored_food", [1, -1])
    yield changed("stored_food", [1, 2, 3])
    yield changed("scores", [1])
    yield changed("alive", [True, 2])
    yield changed("elim_turn", [301, 5])                                       # alive, out
    yield changed("over", "yes")
    yield changed("rng", [1, 2, 3])


def test_bad_snapshots_name_the_key_and_change_nothing():
    game = AntsGame(Config(), 2)
    game.reset(3)
    rng = np.random.default_rng(3)
    for _ in range(10):
        game.step(greedy_with_noise(game, rng))
    good = game.snapshot(1)
    before = game.copy_state()
    obs, masks = game.obs.copy(), game.masks.copy()
    cases = 0
    for key, bad in bad_snapshots(good):
        with pytest.raises(ValueError, match=repr(key)):
            game.restore(bad, env=1)
        for field, kept in zip(game.state, before):
            assert np.array_equal(field, kept)
        assert np.array_equal(game.obs, obs) and np.array_equal(game.masks, masks)
        cases += 1
    assert cases == 26
    game.restore(good, env=1)                 # and the good one still goes in
    assert same(game.snapshot(1), good)
