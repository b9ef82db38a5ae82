"""coderunner_v0 env: spaces, masks, mirror, determinism, bots, renders, bad input."""
import numpy as np
import pytest

from botarena.core.jit import bind  # noqa: F401
from botarena.envs.coderunner.constants import NUM_ACTIONS, NUM_PLANES
from botarena.envs.coderunner_v0 import CodeRunnerGame, Config, parallel_env


def test_spaces_and_agents():
    env = parallel_env()
    obs, infos = env.reset(seed=0)
    assert env.possible_agents == ["runner_0", "runner_1"]
    assert obs["runner_0"].shape == (NUM_PLANES, 16, 25) and obs["runner_0"].dtype == np.uint8
    assert obs["runner_0"].max() == 255
    assert infos["runner_0"]["action_mask"].shape == (NUM_ACTIONS,)
    env = parallel_env(obs_dtype="float32")
    obs, _ = env.reset(seed=0)
    assert obs["runner_1"].dtype == np.float32 and obs["runner_1"].max() == 1.0


def test_whole_game_and_scores_in_infos():
    env = parallel_env(max_turns=50)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    while env.agents:
        _, rew, term, trunc, infos = env.step({a: int(rng.integers(7)) for a in env.agents})
        steps += 1
    assert steps == 50 and all(term.values())
    assert infos["runner_0"]["score"] == int(env.snapshot()["scores"][0])


def play_bots(seed, bots=("greedy", "trapper"), steps=200, **config):
    game = CodeRunnerGame(Config(**config), 2)
    game.reset(seed)
    env_ids = np.array([0, 1])
    out = np.zeros(2, dtype=np.int64)
    trail = []
    for _ in range(steps):
        for a, bot in enumerate(bots):
            game.bots[bot](game.state, game.params, env_ids, np.array([a, a]), out)
            game.actions[:, a] = out
        game.step(autoreset=True)
        trail.append(game.state.scores.copy())
    return np.array(trail)


def test_bots_are_deterministic_and_score():
    a = play_bots(3)
    b = play_bots(3)
    assert np.array_equal(a, b)
    assert a[-1].max() > 100          # greedy collects gold


@pytest.mark.parametrize("bot", ["random", "greedy", "trapper"])
def test_bots_play_legal_actions(bot):
    game = CodeRunnerGame(Config(board="random"), 4)
    game.reset(0)
    env_ids, agents = np.repeat(np.arange(4), 2), np.tile([0, 1], 4)
    out = np.zeros(8, dtype=np.int64)
    for _ in range(100):
        game.bots[bot](game.state, game.params, env_ids, agents, out)
        assert game.masks[env_ids, agents, out].all()
        game.actions[env_ids, agents] = out
        game.step(autoreset=True)


def test_mirror_blue_sees_and_acts_mirrored():
    plain = CodeRunnerGame(Config(), 1)
    mirrored = CodeRunnerGame(Config(mirror=True), 1)
    plain.reset(0)
    mirrored.reset(0)
    # symmetric map: blue's mirrored view of the start equals red's view
    assert np.array_equal(mirrored.obs[0, 1], mirrored.obs[0, 0])
    assert np.array_equal(plain.obs[0, 1][:, :, ::-1], mirrored.obs[0, 1])
    for _ in range(30):
        plain.step(np.array([[2, 2]]))
        mirrored.step(np.array([[2, 1]]))
    assert np.array_equal(plain.state.runner_pos, mirrored.state.runner_pos)


def test_snapshot_keys_and_renders():
    env = parallel_env(render_mode="ansi")
    env.reset(seed=0)
    snap = env.snapshot()
    for key in ("board", "turn", "runners", "scores", "dig_delay", "enemies", "enemy_master"):
        assert key in snap
    assert len(snap["board"]) == 16 and all(len(row) == 25 for row in snap["board"])
    text = env.render()
    assert "r" in text and "b" in text and "E" in text
    frame = parallel_env(render_mode="rgb_array")
    frame.reset(seed=0)
    assert frame.render().shape[1:] == (500, 3)          # 25 cells of 20 pixels


def test_death_penalty_shaping():
    env = parallel_env(death_penalty=5.0)
    env.reset(seed=0)
    assert env.config.death_penalty == 5.0
    with pytest.raises(ValueError):
        parallel_env(reward="nope")
    with pytest.raises(ValueError):
        parallel_env(mirror=1)


def _played(turns=60, seed=3):
    game = CodeRunnerGame(Config(max_turns=200), 1)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(turns):
        game.step(rng.integers(0, NUM_ACTIONS, size=(1, 2)))
    return game


@pytest.mark.parametrize("change, key", [
    (lambda s: s.update(board=["=" * 25] * 16), "board"),            # not the map's cells
    (lambda s: s.update(board=s["board"][:-1]), "board"),              # 15 rows
    (lambda s: s.update(runners=[(0, -1), s["runners"][1]]), "runners"),  # half dead
    (lambda s: s.update(runner_alive=[False, True]), "runners"),       # alive at (r, c)
    (lambda s: s.update(enemy_pc=[999] * len(s["enemy_pc"])), "enemy_pc"),
    (lambda s: s.update(enemy_stack=[[7]] * len(s["enemy_stack"])), "enemy_stack"),
    (lambda s: s.update(restore_turn={(0, 0): 999}), "restore_turn"),  # not a removed brick
    (lambda s: s.update(dig_delay=[11, 0]), "dig_delay"),              # above Config.dig_delay
    (lambda s: s.update(map=1), "map"),                                # one map in the pool
])
def test_restore_rejects_inconsistent_snapshots(change, key):
    game = _played()
    snapshot = game.snapshot(0)
    before = [field.copy() for field in game.state]
    change(snapshot)
    with pytest.raises(ValueError, match=repr(key)):
        game.restore(snapshot)
    assert all(np.array_equal(a, b) for a, b in zip(before, game.state))


def test_restore_holes_and_gold_come_back_on_time():
    """A removed brick and a collected gold restored from a snapshot are refilled on the
    turns the snapshot gives (the queues are rebuilt in due order)."""
    game = CodeRunnerGame(Config(max_turns=200), 1)
    game.reset(seed=0)
    snapshot = game.snapshot(0)
    brick = next((r, c) for r, row in enumerate(snapshot["board"]) for c, ch in enumerate(row)
                 if ch == "=" and r < 15)
    gold = next((r, c) for r, row in enumerate(snapshot["board"]) for c, ch in enumerate(row)
                if ch == "*")
    board = [list(row) for row in snapshot["board"]]
    board[brick[0]][brick[1]], board[gold[0]][gold[1]] = "-", "."
    snapshot.update(board=["".join(row) for row in board], restore_turn={brick: 3},
                    dug_by={brick: 1}, gold_turn={gold: 2})
    game.restore(snapshot)
    rows = []
    for _ in range(4):
        game.step(np.zeros((1, 2), dtype=np.int64))
        board = game.snapshot(0)["board"]
        rows.append((board[brick[0]][brick[1]], board[gold[0]][gold[1]]))
    # turn 0 and 1: both away; gold back in turn 2's timed events, the brick in turn 3's
    assert rows == [("-", "."), ("-", "."), ("-", "*"), ("=", "*")]
