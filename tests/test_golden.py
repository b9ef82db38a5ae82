"""Golden trajectories: (config, seed, actions) -> sha256 of the observations, rewards and
termination flags, stored in ``tests/golden/<env_id>.json``; the cases (config, seed) are
the "golden" entries of ``GAMES`` in ``tests/conftest.py``.

The actions of a case are ``numpy.random.default_rng(seed).integers(0, action_values,
size=(steps, num_agents) + action_shape)`` (``action_values == num_actions`` and
``action_shape == ()`` for ``Discrete`` games); the game is a batch of one env seeded ``seed``, stepped with
autoreset (so a case crosses several games).  The hash covers, in order, the reset's
observations, then per step the observations, rewards and terminated flags (raw bytes).

THE HASHES CHANGE ONLY WITH A NEW ENV VERSION (``paint_v0`` -> ``paint_v1``).  If a change
to a game alters them, the change alters the game: bump the env id (and its version
history) instead of regenerating.  Regenerate only for a new env id or new cases:

    python tests/test_golden.py --regenerate [env_id ...]
"""
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import botarena
from conftest import GOLDEN_CASES

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
STEPS = 300

def golden_actions(game, seed, steps):
    """``int64[steps, num_agents, *action_shape]``: the random actions of a case."""
    return np.random.default_rng(seed).integers(0, game.action_values(),
                                                size=(steps, game.num_agents) + game.action_shape())


def as_action(value):
    """An action of the ParallelEnv: an int (``Discrete``) or an int array."""
    return int(value) if np.ndim(value) == 0 else np.asarray(value)


def trajectory_hash(env_id, config, seed, steps=STEPS):
    """(sha256 hex, number of episode ends, final scores) of the golden trajectory."""
    module = botarena.env_module(env_id)
    game = module.Game(module.Config(**config), 1)
    actions = golden_actions(game, seed, steps)
    game.reset(seed)
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(game.obs).tobytes())
    ends = 0
    for t in range(steps):
        game.step(actions[t][None, :], autoreset=True)
        h.update(np.ascontiguousarray(game.obs).tobytes())
        h.update(np.ascontiguousarray(game.rewards).tobytes())
        h.update(np.ascontiguousarray(game.terminated).tobytes())
        ends += int((game.terminated | game.truncated).all())
    return h.hexdigest(), ends, [int(x) for x in game.scores[0]]


def golden_path(env_id):
    return GOLDEN_DIR / f"{env_id}.json"


def compute(env_id):
    cases = []
    for config, seed in GOLDEN_CASES[env_id]:
        digest, ends, scores = trajectory_hash(env_id, config, seed)
        cases.append({"config": config, "seed": seed, "steps": STEPS, "sha256": digest,
                      "episode_ends": ends, "final_scores": scores})
    return {
        "_comment": "Golden trajectories of tests/test_golden.py. These hashes change only "
                    "with a new env version (e.g. paint_v0 -> paint_v1); do not regenerate "
                    "them to make a changed game pass.",
        "env_id": env_id,
        "botarena_version": botarena.__version__,
        "cases": cases,
    }


def regenerate(env_ids):
    GOLDEN_DIR.mkdir(exist_ok=True)
    for env_id in env_ids:
        golden_path(env_id).write_text(json.dumps(compute(env_id), indent=2) + "\n")
        print(f"wrote {golden_path(env_id)}")


def load(env_id):
    path = golden_path(env_id)
    assert path.exists(), f"no golden file for {env_id}: python tests/test_golden.py --regenerate {env_id}"
    return json.loads(path.read_text())


def test_every_env_has_golden_cases(env_id):
    assert GOLDEN_CASES.get(env_id), f"add golden cases for {env_id} to GAMES in tests/conftest.py"
    data = load(env_id)
    assert data["env_id"] == env_id
    stored = [(c["config"], c["seed"]) for c in data["cases"]]
    assert stored == [(dict(c), s) for c, s in GOLDEN_CASES[env_id]]


def _all_cases():
    return [pytest.param(env_id, i, id=f"{env_id}-{i}")
            for env_id in botarena.ENV_IDS for i in range(len(GOLDEN_CASES.get(env_id, ())))]


@pytest.mark.parametrize("env_id, index", _all_cases())
def test_golden_trajectory(env_id, index):
    case = load(env_id)["cases"][index]
    digest, ends, scores = trajectory_hash(env_id, case["config"], case["seed"], case["steps"])
    assert case["steps"] == STEPS
    assert (ends, scores) == (case["episode_ends"], case["final_scores"]), case["config"]
    assert digest == case["sha256"], (
        f"{env_id} {case['config']} seed {case['seed']}: the trajectory changed; a game "
        f"change needs a new env version")


def test_golden_trajectory_through_parallel_env(env_id):
    """The ParallelEnv front-end reproduces the first golden case's first episode."""
    config, seed = GOLDEN_CASES[env_id][0]
    env = botarena.parallel_env(env_id, **config)
    obs, _ = env.reset(seed=seed)
    module = botarena.env_module(env_id)
    game = module.Game(module.Config(**config), 1)
    game.reset(seed)
    actions = golden_actions(game, seed, STEPS)
    steps = 0
    while env.agents and steps < STEPS:
        obs, rew, term, trunc, _ = env.step({a: as_action(actions[steps, i])
                                            for i, a in enumerate(env.possible_agents)})
        game.step(actions[steps][None, :])
        for i, a in enumerate(env.possible_agents):
            assert np.array_equal(obs[a], game.obs[0, i])
            assert rew[a] == game.rewards[0, i]
            assert term[a] == game.terminated[0, i]
        steps += 1
    assert steps >= 10


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "--regenerate":
        sys.exit("usage: python tests/test_golden.py --regenerate [env_id ...]")
    regenerate(args[1:] or list(botarena.ENV_IDS))
