"""``restore`` for every game: ``restore(snapshot())`` gives the same snapshot, the same
observations and masks, and the same trajectory afterwards (over random states of every
determinism config); restoring into one env of a batch leaves the others alone; a bad
snapshot raises ``ValueError`` naming the key and changes nothing; the ParallelEnv's
``restore`` hands back what ``reset`` would.  The games' own restore tests (consistency
checks of their keys) are in their test files; the fidelity tests restore recorded states."""
import numpy as np
import pytest

import botarena
from test_determinism import assert_same_snapshots, make_game, same_value

BATCH = 8
TARGET = 3          # the env of the batch the snapshot is restored into
SEEDS = (0, 1, 2)
BEFORE = (0, 9, 45)  # random steps played before the snapshot
AFTER = 40           # steps compared after the restore


def play_random(game, rng, steps):
    """``steps`` random turns of env 0 (stopping when its game ends)."""
    for _ in range(steps):
        if game.over[0]:
            break
        game.step(rng.integers(0, game.action_values(),
                               size=(game.num_envs, game.num_agents) + game.action_shape()))


def random_state(env_id, config, seed, steps):
    game = make_game(env_id, config, 1)
    game.reset(seed=seed)
    play_random(game, np.random.default_rng(seed), steps)
    return game


def state_copy(game):
    return [field.copy() for field in game.state]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("steps", BEFORE)
def test_round_trip_same_snapshot_and_trajectory(determinism_case, seed, steps):
    env_id, config = determinism_case
    original = random_state(env_id, config, seed, steps)
    batch = make_game(env_id, config, BATCH)
    batch.reset(seed=100 + seed)
    others = [batch.snapshot(e) for e in range(BATCH) if e != TARGET]
    batch.restore(original.snapshot(0), env=TARGET)
    assert_same_snapshots(batch.snapshot(TARGET), original.snapshot(0), "after restore")
    assert np.array_equal(batch.obs[TARGET], original.obs[0])
    assert np.array_equal(batch.masks[TARGET], original.masks[0])
    for e, snapshot in zip([e for e in range(BATCH) if e != TARGET], others):
        assert_same_snapshots(batch.snapshot(e), snapshot, f"env {e} untouched")
    rng = np.random.default_rng(seed + 7)
    compared = 0
    for t in range(AFTER):
        if original.over[0]:
            break
        actions = rng.integers(0, original.action_values(),
                               size=(BATCH, original.num_agents) + original.action_shape())
        original.step(actions[TARGET:TARGET + 1])
        batch.step(actions)
        what = f"step {t} after restore"
        assert_same_snapshots(batch.snapshot(TARGET), original.snapshot(0), what)
        assert np.array_equal(batch.obs[TARGET], original.obs[0]), what
        assert np.array_equal(batch.masks[TARGET], original.masks[0]), what
        assert np.array_equal(batch.rewards[TARGET], original.rewards[0]), what
        assert np.array_equal(batch.terminated[TARGET], original.terminated[0]), what
        compared += 1
    assert compared > 0 or original.over[0]


def test_restore_without_rng_keeps_the_envs_own(determinism_case):
    env_id, config = determinism_case
    snapshot = random_state(env_id, config, 0, 9).snapshot(0)
    del snapshot["rng"]
    game = make_game(env_id, config, 2)
    game.reset(seed=5)
    rng = game.state.rng[1].copy()
    game.restore(snapshot, env=1)
    assert np.array_equal(game.state.rng[1], rng)


def test_missing_key_is_named_or_derived(determinism_case):
    """Every snapshot key is either read by restore (leaving it out raises ValueError
    naming it, and changes nothing) or follows from the others (leaving it out restores
    the same snapshot)."""
    env_id, config = determinism_case
    snapshot = random_state(env_id, config, 1, 9).snapshot(0)
    game = make_game(env_id, config, 2)
    game.reset(seed=3)
    read = 0
    for key in snapshot:
        partial = {k: v for k, v in snapshot.items() if k != key}
        before = state_copy(game)
        try:
            game.restore(partial, env=1)
        except ValueError as error:
            assert repr(key) in str(error), (key, str(error))
            assert all(np.array_equal(a, b) for a, b in zip(before, game.state)), key
            read += 1
        else:
            assert_same_snapshots(game.snapshot(1), snapshot, f"without {key!r}")
    assert read >= 4


def test_bad_values_are_named_and_change_nothing(determinism_case):
    env_id, config = determinism_case
    snapshot = random_state(env_id, config, 2, 9).snapshot(0)
    game = make_game(env_id, config, 1)
    game.reset(seed=4)
    before = state_copy(game)
    bad = {"scores": [1, 2, 3, 4, 5, 6, 7], "steps": -1, "over": "maybe"}
    for key, value in bad.items():
        if key in snapshot:
            with pytest.raises(ValueError, match=repr(key)):
                game.restore(dict(snapshot, **{key: value}))
    with pytest.raises(TypeError):
        game.restore(list(snapshot.items()))
    with pytest.raises(ValueError, match="env"):
        game.restore(snapshot, env=1)
    assert all(np.array_equal(a, b) for a, b in zip(before, game.state))


def test_parallel_env_restore(env_id):
    first = botarena.parallel_env(env_id)
    first.reset(seed=11)
    for k, agent in enumerate(first.possible_agents):
        first.action_space(agent).seed(k)            # the same random actions every run
    for _ in range(12):
        if not first.agents:
            break
        first.step({a: first.action_space(a).sample() for a in first.agents})
    second = botarena.parallel_env(env_id)
    second.reset(seed=99)
    obs, infos = second.restore(first.snapshot())
    assert second.agents == first.agents
    for agent in first.agents:
        assert np.array_equal(obs[agent], first.game.obs[0, first._index[agent]])
        assert infos[agent]["score"] == first.game.scores[0, first._index[agent]]
    for _ in range(10):
        if not first.agents:
            break
        actions = {a: first.action_space(a).sample() for a in first.agents}
        results = [env.step(actions) for env in (first, second)]
        for a, b in zip(*results):
            assert a.keys() == b.keys()
            assert all(same_value(a[k], b[k]) for k in a)
