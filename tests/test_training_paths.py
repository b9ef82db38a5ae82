"""The path-aware features extractor (``botarena.training.paths``) on dungeon_v0's board
view: its walking distances against a board worked out by hand and against a plain
breadth-first search on played games, the discounted best target per move, and a short
training run through the trainer's ``--arch paths``, saved, loaded and played."""
import json
import os
import subprocess
import sys
from collections import deque

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import botarena  # noqa: E402
from botarena.envs.dungeon import PATH_PLANES  # noqa: E402
from botarena.envs.dungeon.constants import Action, Plane  # noqa: E402
from botarena.training.paths import UNREACHABLE, PathPlanes  # noqa: E402

from test_dungeon_rules import new_game  # noqa: E402

# one xdist group with dungeon's other float32 tests (its kernels compile once per worker)
pytestmark = [pytest.mark.xdist_group("dungeon_v0:float32"),
              pytest.mark.usefixtures("torch_one_thread")]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
X = UNREACHABLE
UP, DOWN, LEFT, RIGHT = range(4)        # PATH_PLANES["moves"]: the actions u d l r


def extractor(obs_shape, **kwargs):
    from gymnasium import spaces
    space = spaces.Box(0.0, 1.0, obs_shape, dtype=np.float32)
    return PathPlanes(space, **PATH_PLANES, **kwargs)


def board_obs(rows, **config):
    """float32 board-view observations ``[players, C, H, W]`` of an ASCII dungeon."""
    return torch.as_tensor(new_game(rows, obs_dtype="float32", **config).obs[0])


def test_distances_walk_around_blocks_and_players():
    # player 0 at (x 2, y 1): metal left, wood right, the opponent in the corner
    obs = board_obs([".....",
                     ".#...",
                     ".#0w.",
                     "....1"])
    dist = extractor(obs.shape[1:]).distances(obs[:1])[0].numpy()
    from_up = np.array([[3, 2, 1, 2, 3],       # text rows, top first (y = 3)
                        [4, X, 0, 1, 2],
                        [5, X, 1, X, 3],
                        [4, 3, 2, 3, X]])
    np.testing.assert_array_equal(dist[UP], from_up[::-1])        # planes: row y
    assert dist[DOWN][0, 2] == 0 and dist[DOWN][2, 2] == 2 and dist[DOWN][3, 0] == 5
    assert (dist[LEFT] == X).all() and (dist[RIGHT] == X).all()   # blocked neighbours


def test_foreseen_fire_and_bombs_block_walks():
    game = new_game(["0....",
                     ".....",
                     "....1"], obs_dtype="float32", bomb_fuse=6)
    game.step(np.array([[Action.DOWN, Action.NOOP]]))
    game.step(np.array([[Action.BOMB, Action.NOOP]]))
    obs = torch.as_tensor(game.obs[0])
    assert obs[0, Plane.BOMB, 1, 0] > 0 and obs[0, Plane.DANGER, 1, 2] > 0
    dist = extractor(obs.shape[1:]).distances(obs[:1])[0].numpy()
    # the bomb's blast covers row y 1 to x 2 and column x 0: no walk leaves the cell
    assert (dist == X).all()


def reference_distances(blocked, start, steps):
    dist = np.full(blocked.shape, X)
    if not blocked[start]:
        dist[start] = 0
        queue = deque([start])
        while queue:
            y, x = queue.popleft()
            for dy, dx in PATH_PLANES["moves"]:
                ny, nx = y + dy, x + dx
                if 0 <= ny < blocked.shape[0] and 0 <= nx < blocked.shape[1] \
                        and not blocked[ny, nx] and dist[ny, nx] == X:
                    dist[ny, nx] = dist[y, x] + 1
                    queue.append((ny, nx))
    return np.where(dist > steps, X, dist)


def test_distances_match_a_breadth_first_search_on_played_games():
    venv = botarena.vector_env("dungeon_v0", 16, opponent="safe_bomber", seed=4,
                               obs_dtype="float32")
    rng = np.random.default_rng(0)
    obs = venv.reset()
    for _ in range(60):
        masks = venv.action_masks()
        obs, _, _, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    net = extractor(obs.shape[1:], steps=8)
    dist = net.distances(torch.as_tensor(obs)).numpy()
    for o, d in zip(obs, dist):
        blocked = o[list(PATH_PLANES["blocking"])].sum(0) > 0
        own = np.argwhere(o[Plane.OWN] > 0)
        if len(own) == 0:
            continue                                    # the learner was killed
        y, x = own[0]
        for m, (dy, dx) in enumerate(PATH_PLANES["moves"]):
            ny, nx = y + dy, x + dx
            if not (0 <= ny < blocked.shape[0] and 0 <= nx < blocked.shape[1]):
                assert (d[m] == X).all()
                continue
            np.testing.assert_array_equal(d[m], reference_distances(blocked, (ny, nx), 8))


def test_best_target_per_move_is_the_nearest_value_discounted():
    """One value map equal to the ammo plane (one 3x3 convolution passing it through),
    discount 0.5: each move's feature is 0.5 ** (steps from that neighbour to the nearest
    ammo), the own cell's value its own ammo."""
    obs = board_obs(["a....",
                     ".....",
                     "..0.a",
                     "#...1"])
    net = extractor(obs.shape[1:], channels=(1,), values=1)
    with torch.no_grad():
        net.trunk[0].weight.zero_()
        net.trunk[0].weight[0, Plane.AMMO, 1, 1] = 1.0
        net.trunk[0].bias.zero_()
        net.value.weight.fill_(1.0)
        net.value.bias.zero_()
        net.log_gamma.fill_(float(np.log(0.5)))
        features = net(obs[:1])[0].numpy()
    assert features.shape == (net.features_dim,) == (4 + 1 + 2 + 5,)
    # player 0 at (x 2, y 1); ammo at (4, 1) and (0, 3)
    up, down, left, right = features[:4]
    assert right == pytest.approx(0.5 ** 1)         # (3, 1) -> (4, 1)
    assert up == pytest.approx(0.5 ** 3)            # (2, 2) -> (4, 1) or (0, 3)
    assert down == pytest.approx(0.5 ** 3)          # (2, 0) -> (4, 1), (4, 0) is the opponent
    assert left == pytest.approx(0.5 ** 3)          # (1, 1) -> (0, 3)
    assert features[4] == 0.0                       # no ammo on the own cell


def test_the_trainer_needs_the_board_view_and_path_planes():
    """(dungeon_v0's defaults: --arch paths on the board view)"""
    from botarena.training.ppo import parse_args, train
    with pytest.raises(SystemExit, match="board view"):
        train(parse_args(["--env", "dungeon_v0", "--config", 'view="ego"', "--timesteps",
                          "1"]))
    with pytest.raises(SystemExit, match="PATH_PLANES"):
        train(parse_args(["--env", "paint_v0", "--arch", "paths", "--config", 'view="board"',
                          "--timesteps", "1"]))


def test_short_training_saves_loads_and_plays(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "botarena.training.ppo", "--env", "dungeon_v0",
           "--arch", "paths", "--channels", "8", "--path-values", "2", "--net-arch", "16",
           "--config", 'view="board"', "max_turns=60", "--timesteps", "256",
           "--num-envs", "4", "--pretrain-steps", "256", "--pretrain-epochs", "1",
           "--dagger-rounds", "1", "--dagger-steps", "128", "--eval-games", "4",
           "--no-eval-sampled", "--out", str(out), "--no-progress"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    results = json.loads((out / "results.json").read_text())
    assert results["policy"]["arch"] == "paths" and results["policy"]["path_values"] == 2
    assert results["pretrain"]["dagger"]["rounds"] == 1
    assert results["eval"]["random"]["games"] == 4

    from botarena.training.evaluate import load_model
    model = load_model(str(out / "model.zip"))
    assert isinstance(model.policy.pi_features_extractor, PathPlanes)
    venv = botarena.vector_env("dungeon_v0", 2, opponent="random", obs_dtype="float32",
                               max_turns=60)
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
    assert all(venv.action_masks()[i, a] for i, a in enumerate(actions))
