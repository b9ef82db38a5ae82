"""paint_v0's observations: the planes from each player's side, in the board view and in
the ego view (``view="ego"``: the planes centred on the observer's avatar)."""
import numpy as np
import pytest

import botarena
from botarena.envs.paint.constants import Plane

BOARD = """\
A.b
.#.
a.B"""


def planes(obs, agent, plane):
    return (obs[agent][plane] > 0).astype(int).tolist()


def test_board_view_planes_from_each_side():
    env = botarena.parallel_env("paint_v0", board=BOARD, max_turns=4)
    obs, _ = env.reset(seed=0)
    assert obs["player_0"].shape == (6, 3, 3)
    # player 0 owns its avatar's square (0, 0) and (2, 0); player 1 owns (0, 2) and (2, 2)
    assert planes(obs, "player_0", Plane.OWN_PAINT) == [[1, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert planes(obs, "player_0", Plane.OPPONENT_PAINT) == [[0, 0, 1], [0, 0, 0], [0, 0, 1]]
    assert planes(obs, "player_1", Plane.OWN_PAINT) == [[0, 0, 1], [0, 0, 0], [0, 0, 1]]
    assert planes(obs, "player_1", Plane.OPPONENT_PAINT) == [[1, 0, 0], [0, 0, 0], [1, 0, 0]]
    for agent in ("player_0", "player_1"):
        assert planes(obs, agent, Plane.OBSTACLE) == [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
        assert (obs[agent][Plane.TIME_LEFT] == 255).all()
    assert planes(obs, "player_0", Plane.OWN_AVATAR) == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert planes(obs, "player_0", Plane.OPPONENT_AVATAR) == [[0, 0, 0], [0, 0, 0], [0, 0, 1]]
    assert planes(obs, "player_1", Plane.OWN_AVATAR) == [[0, 0, 0], [0, 0, 0], [0, 0, 1]]


def test_ego_view_centres_the_planes_on_the_own_avatar():
    env = botarena.parallel_env("paint_v0", board=BOARD, max_turns=4, view="ego")
    assert env.observation_space("player_0").shape == (6, 5, 5)
    obs, _ = env.reset(seed=0)
    # player 0 stands at (0, 0): the board fills the window's bottom-right 3x3
    assert planes(obs, "player_0", Plane.OWN_PAINT) == [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0]]
    assert planes(obs, "player_0", Plane.OBSTACLE) == [
        [1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1],
        [1, 1, 0, 0, 0],
        [1, 1, 0, 1, 0],
        [1, 1, 0, 0, 0]]
    assert planes(obs, "player_0", Plane.OPPONENT_AVATAR)[4][4] == 1
    # player 1 stands at (2, 2): the board fills the window's top-left 3x3
    assert planes(obs, "player_1", Plane.OWN_PAINT) == [
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0]]
    assert planes(obs, "player_1", Plane.OPPONENT_PAINT) == [
        [1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0]]
    assert planes(obs, "player_1", Plane.OPPONENT_AVATAR)[0][0] == 1
    for agent in ("player_0", "player_1"):
        assert planes(obs, agent, Plane.OWN_AVATAR) == [
            [0] * 5, [0] * 5, [0, 0, 1, 0, 0], [0] * 5, [0] * 5]
        assert (obs[agent][Plane.TIME_LEFT] == 255).all()

    # player 0 walks E onto (0, 1): the window follows it and time runs down
    obs, *_ = env.step({"player_0": 3, "player_1": 0})
    assert planes(obs, "player_0", Plane.OWN_PAINT) == [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 1, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0]]
    assert (obs["player_0"][Plane.TIME_LEFT] == round(255 * 3 / 4)).all()


@pytest.mark.parametrize("obs_dtype", ["uint8", "float32"])
def test_ego_view_is_the_board_view_shifted(obs_dtype):
    """Over a random game on a generated board with obstacles and 3 players, every ego
    window holds the board view's planes at the avatar's offset and obstacles elsewhere."""
    config = {"board": "random", "num_players": 3, "width": 7, "height": 5,
              "obstacle_density": 0.2, "symmetric": False, "obs_dtype": obs_dtype}
    board_game = botarena.game("paint_v0", num_envs=4, **config)
    ego_game = botarena.game("paint_v0", num_envs=4, view="ego", **config)
    board_game.reset(11)
    ego_game.reset(11)
    rng = np.random.default_rng(0)
    on = 255 if obs_dtype == "uint8" else 1.0
    checked = 0
    for _ in range(40):
        for e in range(4):
            for a in range(3):
                board, ego = board_game.obs[e, a], ego_game.obs[e, a]
                row, col = board_game.state.positions[e, a]
                top, left = 4 - row, 6 - col
                window = ego[:, top:top + 5, left:left + 7]
                np.testing.assert_array_equal(window, board)
                outside = np.ones((9, 13), dtype=bool)
                outside[top:top + 5, left:left + 7] = False
                assert (ego[Plane.OBSTACLE][outside] == on).all()
                assert (ego[Plane.OWN_PAINT][outside] == 0).all()
                checked += 1
        actions = rng.integers(0, 17, size=(4, 3))
        board_game.step(actions)
        ego_game.step(actions)
        np.testing.assert_array_equal(board_game.rewards, ego_game.rewards)
        np.testing.assert_array_equal(board_game.masks, ego_game.masks)
    assert checked == 40 * 4 * 3


def test_unknown_view_is_refused():
    with pytest.raises(ValueError, match="view must be one of"):
        botarena.parallel_env("paint_v0", view="top")
