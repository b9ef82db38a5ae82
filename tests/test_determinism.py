"""Determinism over whole trajectories (autoreset across several games), batch equivalence
(env e of a batch of 64 equals the same seed alone, scripted bots included) and
thread-count independence (serial kernel vs the threaded twin on 1 and 2 threads)."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import botarena

ROOT = Path(__file__).resolve().parents[1]
STEPS = 500
BATCH = 64


def make_game(env_id, config, num_envs, threads=None):
    module = botarena.env_module(env_id)
    return module.Game(module.Config(**config), num_envs, threads)


BUFFERS = ("obs", "rewards", "terminated", "truncated", "masks")


def snapshot_fields(game):
    """The state fields that the snapshot exposes (scratch arrays are left out: they may
    hold leftovers of an earlier game and are rewritten before use)."""
    return [f for f in game.state._fields if f in game.snapshot(0)]


def record_sources(game, fields):
    """name -> the live array whose copies a trajectory records after every step."""
    sources = {name: getattr(game, name) for name in BUFFERS}
    sources["final_obs"] = game.final_obs
    sources["final_scores"] = game.final_scores
    for f in fields:
        sources["state." + f] = getattr(game.state, f)
    return sources


def record(game, done, fields, out=None, t=0):
    """Copies of everything the batch shows after a step: obs, rewards, end flags, masks,
    the final observations/scores of episodes that just ended (zero elsewhere) and the
    snapshot's state fields; written into ``out[name][t]`` when given."""
    sources = record_sources(game, fields)
    if out is None:
        out = {name: np.zeros((1,) + src.shape, src.dtype) for name, src in sources.items()}
        t = 0
    for name, src in sources.items():
        if name.startswith("final_"):
            out[name][t][done] = src[done]
        else:
            out[name][t] = src
    return out


def run(env_id, config, seed, actions, bot=None, threads=None):
    """Play ``actions`` (``int[steps, E, A, *action_shape]``) with autoreset in a batch of ``E`` envs
    seeded ``seed + e``; with ``bot``, the scripted bot plays the last agent of every env.
    Returns (records: name -> array[steps + 1, E, ...], per-env episode-end counts,
    the final snapshots of every env)."""
    steps, E, A = actions.shape[:3]
    game = make_game(env_id, config, E, threads)
    assert game.num_agents == A and actions.shape[3:] == game.action_shape()
    game.reset(seed)
    fields = snapshot_fields(game)
    records = {name: np.zeros((steps + 1,) + src.shape, src.dtype)
               for name, src in record_sources(game, fields).items()}
    env_ids = np.arange(E, dtype=np.int64)
    bot_agents = np.full(E, A - 1, dtype=np.int64)
    out = np.zeros((E,) + game.action_shape(), dtype=np.int64)
    record(game, np.zeros(E, dtype=bool), fields, records, 0)
    ends = np.zeros(E, dtype=np.int64)
    for t in range(steps):
        game.actions[...] = actions[t]
        if bot is not None:
            game.bots[bot](game.state, game.params, env_ids, bot_agents, out)
            game.actions[env_ids, bot_agents] = out
        game.step(autoreset=True)
        done = (game.terminated | game.truncated).all(axis=1)
        ends += done
        record(game, done, fields, records, t + 1)
    return records, ends, [game.snapshot(e) for e in range(E)]


def digests(records):
    """Per env: {record name: sha256 of that env's whole trajectory of it}."""
    E = next(iter(records.values())).shape[1]
    return [{name: hashlib.sha256(np.ascontiguousarray(array[:, e]).tobytes()).hexdigest()
             for name, array in records.items()} for e in range(E)]


def env_slice(records, e):
    return {name: array[:, e:e + 1] for name, array in records.items()}


def assert_same(a, b, what):
    """Equal records, naming the first differing step and record."""
    assert a.keys() == b.keys()
    steps = None
    for name in sorted(a):
        assert a[name].shape == b[name].shape, (what, name)
        assert a[name].dtype == b[name].dtype, (what, name)
        differs = (a[name] != b[name]).reshape(a[name].shape[0], -1).any(axis=1)
        if differs.any():
            raise AssertionError(f"{what}: {name} first differs at step {int(np.argmax(differs))}")
        steps = a[name].shape[0] - 1
    return steps


def same_value(x, y):
    """Equal snapshot values: arrays, numbers, strings, and nested (possibly ragged) lists,
    tuples and dicts of them."""
    if isinstance(x, dict) or isinstance(y, dict):
        return (isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys()
                and all(same_value(x[k], y[k]) for k in x))
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        if len(x) == len(y) and all(same_value(u, v) for u, v in zip(x, y)):
            return True
        return False
    return np.array_equal(np.asarray(x), np.asarray(y))


def assert_same_snapshots(a, b, what):
    assert a.keys() == b.keys(), what
    for key in a:
        assert same_value(a[key], b[key]), (what, key)


def action_table(env_id, config, seed, steps, num_envs):
    game = make_game(env_id, config, 1)
    rng = np.random.default_rng(seed)
    return rng.integers(0, game.action_values(),
                        size=(steps, num_envs, game.num_agents) + game.action_shape())


def random_actions(env, rng):
    """A random action per live agent of a ParallelEnv: an int for ``Discrete`` games,
    an int array of the action shape for array-action games."""
    shape, values = env.game.action_shape(), env.game.action_values()
    if not shape:  # the same draws as rng.integers(action_space.n)
        return {a: int(rng.integers(0, values)) for a in env.agents}
    return {a: rng.integers(0, values, size=shape) for a in env.agents}


def noop_actions(env):
    shape = env.game.action_shape()
    return {a: (np.zeros(shape, dtype=np.int64) if shape else 0) for a in env.agents}


def test_same_seed_same_trajectory(determinism_case):
    env_id, config = determinism_case
    actions = action_table(env_id, config, 123, STEPS, 2)
    first, ends1, snaps1 = run(env_id, config, 40, actions)
    second, ends2, snaps2 = run(env_id, config, 40, actions)
    compared = assert_same(first, second, "same seed")
    assert compared == STEPS
    assert first["obs"].shape[:2] == (STEPS + 1, 2)
    for e in range(2):
        assert_same_snapshots(snaps1[e], snaps2[e], f"env {e}")
    assert np.array_equal(ends1, ends2)
    assert (ends1 >= 3).all(), f"autoreset should cross several games in {STEPS} steps: {ends1}"
    # the trajectory is not trivially constant, and the two envs play different games
    assert len({first["obs"][t, 0].tobytes() for t in range(STEPS + 1)}) > STEPS // 2
    assert not np.array_equal(first["obs"][:, 0], first["obs"][:, 1])
    # autoreset wrote final observations at every episode end
    done = first["terminated"].all(axis=2) | first["truncated"].all(axis=2)
    assert done.sum() == ends1.sum()
    assert first["final_obs"][done].any()


def test_same_seed_same_trajectory_parallel_env(determinism_case):
    """Through the ParallelEnv with explicit resets: identical dicts step by step."""
    env_id, config = determinism_case

    def play(seed):
        env = botarena.parallel_env(env_id, **config)
        rng = np.random.default_rng(seed)
        log = []
        obs, infos = env.reset(seed=seed)
        log.append((obs, infos, env.snapshot()))
        resets = 0
        for _ in range(STEPS):
            if not env.agents:
                obs, infos = env.reset(seed=int(rng.integers(1 << 30)))
                resets += 1
                log.append((obs, infos, env.snapshot()))
            actions = random_actions(env, rng)
            log.append(env.step(actions) + (env.snapshot(),))
        return log, resets

    log1, resets1 = play(5)
    log2, resets2 = play(5)
    assert len(log1) == len(log2) == STEPS + 1 + resets1
    assert resets1 == resets2 >= 3
    compared = 0
    for x, y in zip(log1, log2):
        for dx, dy in zip(x[:-1], y[:-1]):
            assert dx.keys() == dy.keys()
            for agent in dx:
                vx, vy = dx[agent], dy[agent]
                if isinstance(vx, dict):
                    assert vx.keys() == vy.keys()
                    for k in vx:
                        assert np.array_equal(vx[k], vy[k])
                else:
                    assert np.array_equal(vx, vy)
        assert_same_snapshots(x[-1], y[-1], "parallel env")
        compared += 1
    assert compared == STEPS + 1 + resets1


def test_different_seeds_differ(env_id, random_config):
    actions = action_table(env_id, random_config, 0, 50, 1)
    a, _, _ = run(env_id, random_config, 1, actions)
    b, _, _ = run(env_id, random_config, 2, actions)
    assert not np.array_equal(a["obs"][0], b["obs"][0]), "different seeds gave the same start"
    differs = (a["obs"] != b["obs"]).reshape(51, -1).any(axis=1)
    assert differs.sum() >= 45
    first_a, first_b = digests(a)[0], digests(b)[0]
    assert first_a["state.rng"] != first_b["state.rng"]
    assert any(first_a[k] != first_b[k] for k in first_a if k.startswith("state.") and k != "state.rng")
    game1, game2 = make_game(env_id, random_config, 1), make_game(env_id, random_config, 1)
    game1.reset(1)
    game2.reset(2)
    assert game1.snapshot()["board"] != game2.snapshot()["board"]


def test_reset_seed_twice_same_start(determinism_case):
    env_id, config = determinism_case
    env = botarena.parallel_env(env_id, **config)
    obs1, infos1 = env.reset(seed=77)
    snap1 = env.snapshot()
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(random_actions(env, rng))
    assert env.snapshot()["steps"] == 10
    obs2, infos2 = env.reset(seed=77)
    for agent in env.possible_agents:
        assert np.array_equal(obs1[agent], obs2[agent])
        m1, m2 = infos1[agent]["action_mask"], infos2[agent]["action_mask"]
        assert type(m1) is type(m2)
        if isinstance(m1, tuple):
            assert len(m1) == len(m2) and all(np.array_equal(x, y) for x, y in zip(m1, m2))
        else:
            assert np.array_equal(m1, m2)
        assert infos1[agent]["score"] == infos2[agent]["score"]
    assert_same_snapshots(snap1, env.snapshot(), "reset twice")
    # a batched game's partial reset of one env with the same seed gives that start
    game = make_game(env_id, config, 3)
    fields = snapshot_fields(game)
    game.reset(77 - 2)   # env 2 gets seed 77
    start = record(game, np.zeros(3, dtype=bool), fields)
    game.step(np.zeros((3, game.num_agents) + game.action_shape(), dtype=np.int64))
    game.reset(77, env_ids=[2])
    again = record(game, np.zeros(3, dtype=bool), fields)
    for name in start:
        assert np.array_equal(start[name][0, 2], again[name][0, 2]), name
    assert_same_snapshots(game.snapshot(2), snap1, "batched reset vs parallel env")


@pytest.mark.parametrize("bot", [None, "random", "greedy"])
def test_batch_equivalence(determinism_case, bot):
    """Env e of a batch of 64 seeded s (env e gets s + e) equals a batch of 1 seeded s + e,
    also with a scripted bot (drawing from the per-env AGENT stream) on one seat."""
    env_id, config = determinism_case
    seed = 1000
    actions = action_table(env_id, config, 9, STEPS, BATCH)
    batch, batch_ends, batch_snaps = run(env_id, config, seed, actions, bot=bot)
    compared = 0
    for e in range(BATCH):
        single, single_ends, single_snaps = run(env_id, config, seed + e, actions[:, e:e + 1], bot=bot)
        compared += assert_same(env_slice(batch, e), single, f"env {e}")
        assert batch_ends[e] == single_ends[0]
        assert_same_snapshots(batch_snaps[e], single_snaps[0], f"env {e}")
    assert compared == BATCH * STEPS
    assert batch_ends.min() >= 3
    # the envs of the batch really play different games
    assert len({batch["obs"][1:, e].tobytes() for e in range(BATCH)}) == BATCH


THREAD_SCRIPT = r"""
import json, sys
import numba
sys.path.insert(0, {root!r})
from tests.test_determinism import action_table, digests, run
env_id, config = {env_id!r}, {config!r}
actions = action_table(env_id, config, 3, {steps}, {batch})
records, ends, _ = run(env_id, config, 500, actions, bot="random", threads=False)
result = {{"serial": digests(records), "ends": ends.tolist(),
          "steps": records["obs"].shape[0] - 1}}
for n in (1, 2):
    numba.set_num_threads(n)
    records, _, _ = run(env_id, config, 500, actions, bot="random", threads=True)
    assert numba.get_num_threads() == n
    result["threads_%d" % n] = digests(records)
result["layer"] = numba.threading_layer()
print("RESULT" + json.dumps(result))
"""


@pytest.mark.slow
def test_thread_count_independence(determinism_case):
    """The serial kernel and the threaded twin on 1 and 2 numba threads agree exactly."""
    env_id, config = determinism_case
    script = THREAD_SCRIPT.format(root=str(ROOT), env_id=env_id, config=config, steps=STEPS,
                                  batch=BATCH)
    environ = dict(os.environ, NUMBA_NUM_THREADS="2")
    environ.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, cwd=ROOT, env=environ)
    assert proc.returncode == 0, proc.stderr[-4000:]
    line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT")][-1]
    result = json.loads(line[len("RESULT"):])
    assert result["layer"] in ("omp", "tbb", "workqueue")
    compared = 0
    assert result["steps"] == STEPS
    for e in range(BATCH):
        serial = result["serial"][e]
        assert "obs" in serial and "rewards" in serial and "masks" in serial
        for n in (1, 2):
            twin = result[f"threads_{n}"][e]
            differing = sorted(k for k in serial if serial[k] != twin[k])
            assert not differing, f"env {e}: {n}-thread twin differs in {differing}"
            compared += result["steps"]
    assert compared == 2 * BATCH * STEPS
    assert min(result["ends"]) >= 3
    assert len({d["obs"] for d in result["serial"]}) == BATCH


def test_unseeded_reset_continues_the_seeded_rng(env_id, random_config):
    """Gymnasium/PettingZoo seeding: after ``reset(seed=s)``, a later ``reset()`` (seed None)
    continues the seeded generator, so the whole sequence of episodes is reproducible."""
    def boards():
        env = botarena.parallel_env(env_id, **random_config)
        env.reset(seed=3)
        seen = [env.snapshot()["board"]]
        for _ in range(3):
            steps = 0
            while env.agents and steps < 5:
                env.step(noop_actions(env))
                steps += 1
            env.reset()
            seen.append(env.snapshot()["board"])
        return seen

    first, second = boards(), boards()
    assert len(first) == len(second) == 4
    assert first[0] == second[0]
    assert first[1:] == second[1:], "reset() after reset(seed=3) is not reproducible"
