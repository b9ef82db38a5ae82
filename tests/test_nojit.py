"""The rules stay debuggable in plain Python: a small subset replayed with
``NUMBA_DISABLE_JIT=1`` (in a subprocess) gives exactly the jitted trajectories."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import botarena

ROOT = Path(__file__).resolve().parents[1]

# (config, seed, steps) per env id: small boards, a few dozen steps.
NOJIT_CASES = {
    "paint_v0": [
        ({"board": "random", "width": 5, "height": 5, "num_players": 2}, 0, 30),
        # short games: crosses autoresets and the generator with obstacles, 3 players
        ({"board": "random", "width": 5, "height": 5, "num_players": 3, "symmetric": False,
          "obstacle_density": 0.2, "max_turns": 8}, 1, 30),
    ],
    "ants_v0": [
        ({"board": "random", "width": 10, "height": 8, "map_seed": 1, "max_turns": 20}, 0, 50),
    ],
    "coderunner_v0": [
        # short games: two autoresets within the 60 steps
        ({"max_turns": 25}, 0, 60),
    ],
    "dungeon_v0": [
        # a small map and short games: bombs go off, games end and autoreset within 60 ticks
        ({"width": 7, "height": 7, "metal_blocks": 4, "wooden_blocks": 6, "ore_blocks": 2,
          "bomb_fuse": 5, "max_turns": 25}, 0, 60),
    ],
    "towers_v0": [
        # a small random map, short games: blasts, towers, autoresets within the 50 steps
        ({"board": "random", "map_size": 8, "flag_size": 2, "max_turns": 20,
          "num_bots_start": 4}, 0, 50),
    ],
}


def bot_trajectory_hash(env_id, config, seed, steps):
    """sha256 of a game where every scripted bot plays a seat (the rest random actions)."""
    module = botarena.env_module(env_id)
    game = module.Game(module.Config(**config), 2)
    game.reset(seed)
    rng = np.random.default_rng(seed)
    A = game.num_agents
    bots = sorted(game.bots)
    env_ids = np.array([0, 1], dtype=np.int64)
    out = np.zeros((2,) + game.action_shape(), dtype=np.int64)
    h = hashlib.sha256()
    for t in range(steps):
        game.actions[...] = rng.integers(0, game.action_values(), size=(2, A) + game.action_shape())
        for k, name in enumerate(bots):
            seats = np.full(2, k % A, dtype=np.int64)
            game.bots[name](game.state, game.params, env_ids, seats, out)
            game.actions[env_ids, seats] = out
        h.update(game.actions.tobytes())
        game.step(autoreset=True)
        for array in (game.obs, game.rewards, game.terminated, game.truncated, game.masks,
                      game.scores):
            h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def hashes(env_id):
    from tests.test_golden import trajectory_hash
    result = []
    for config, seed, steps in NOJIT_CASES[env_id]:
        result.append({"golden": list(trajectory_hash(env_id, config, seed, steps)),
                       "bots": bot_trajectory_hash(env_id, config, seed, steps)})
    return result


SCRIPT = r"""
import json, sys
sys.path[:0] = [{root!r}, {tests!r}]     # the package, and conftest (test_golden's cases)
import numba
import botarena
from tests.test_nojit import hashes
module = botarena.env_module({env_id!r})
step = module.Game.kernels.step
print("RESULT" + json.dumps({{"disabled": bool(numba.config.DISABLE_JIT),
                             "dispatcher": hasattr(step, "overloads"),
                             "hashes": hashes({env_id!r})}}))
"""


def test_nojit_matches_jit(env_id):
    assert NOJIT_CASES.get(env_id), f"add no-jit cases for {env_id} in tests/test_nojit.py"
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    environ = dict(os.environ, NUMBA_DISABLE_JIT="1")
    script = SCRIPT.format(root=str(ROOT), tests=str(ROOT / "tests"), env_id=env_id)
    proc = subprocess.run([sys.executable, "-c", script],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=environ)
    assert proc.returncode == 0, proc.stderr[-4000:]
    line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT")][-1]
    plain = json.loads(line[len("RESULT"):])
    assert plain["disabled"] is True
    assert plain["dispatcher"] is False, "the kernels were still numba dispatchers"
    jitted = hashes(env_id)
    assert len(plain["hashes"]) == len(jitted) == len(NOJIT_CASES[env_id])
    for case, p, j in zip(NOJIT_CASES[env_id], plain["hashes"], jitted):
        assert p["golden"] == j["golden"], f"plain Python and jitted trajectories differ: {case}"
        assert p["bots"] == j["bots"], f"plain Python and jitted bots differ: {case}"
    # some case crosses autoresets
    assert max(j["golden"][1] for j in jitted) >= 2
