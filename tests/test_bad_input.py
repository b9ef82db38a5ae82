"""paint_v0 bad input: clear errors, and no state changed by a rejected call."""
import numpy as np
import pytest

import botarena
from botarena.envs.paint_v0 import Action, Config, PaintGame

BOARD = "aA...\n....B"


def make_env(**config):
    config.setdefault("board", BOARD)
    config.setdefault("max_turns", 5)
    env = botarena.parallel_env("paint_v0", **config)
    env.reset(seed=0)
    return env


def same_snapshot(a, b):
    for key in ("board", "turns_left", "steps", "over"):
        assert a[key] == b[key], key
    for key in ("colour", "positions", "scores", "rng"):
        assert np.array_equal(a[key], b[key]), key


def assert_rejected_without_change(env, actions, exc, match):
    before = env.snapshot()
    agents = list(env.agents)
    with pytest.raises(exc, match=match):
        env.step(actions)
    same_snapshot(before, env.snapshot())
    assert env.agents == agents
    # the next valid step works and is the step it should be
    _, rew, term, _, infos = env.step({"player_0": int(Action.WALK_E), "player_1": 0})
    after = env.snapshot()
    assert after["turns_left"] == before["turns_left"] - 1
    assert after["positions"][0].tolist() == [0, 2]
    assert rew["player_0"] == 1.0 and rew["player_1"] == 0.0
    assert infos["player_0"]["score"] == 3


# -- agents ------------------------------------------------------------------------------

def test_unknown_agent_in_step():
    env = make_env()
    assert_rejected_without_change(env, {"player_0": 3, "player_7": 0}, ValueError,
                                   "unknown agent 'player_7'")


def test_unknown_agent_listed_first_in_step():
    env = make_env()
    assert_rejected_without_change(env, {"bob": 0, "player_0": 3}, ValueError,
                                   "unknown agent 'bob'")


@pytest.mark.parametrize("method", ["observation_space", "action_space", "action_mask"])
def test_unknown_agent_in_spaces(method):
    env = make_env()
    with pytest.raises(ValueError, match="unknown agent 'player_2'"):
        getattr(env, method)("player_2")
    with pytest.raises(ValueError, match="unknown agent"):
        getattr(env, method)(0)
    assert getattr(env, method)("player_1") is not None


# -- actions -----------------------------------------------------------------------------

@pytest.mark.parametrize("action, exc, match", [
    (17, ValueError, r"must be in \[0, 17\), got 17"),
    (100, ValueError, r"must be in \[0, 17\), got 100"),
    (-1, ValueError, r"must be in \[0, 17\), got -1"),
    (np.int64(-3), ValueError, r"got -3"),
    (3.0, TypeError, "must be an int, got 3.0"),
    (np.float32(3.0), TypeError, "must be an int"),
    ("3", TypeError, "must be an int, got '3'"),
    ("walk", TypeError, "must be an int"),
    (None, TypeError, "must be an int, got None"),
    ([3], TypeError, "must be an int"),
])
def test_bad_action_for_the_second_agent(action, exc, match):
    # player_0's valid walk must not be applied either
    env = make_env()
    assert_rejected_without_change(env, {"player_0": int(Action.WALK_E), "player_1": action},
                                   exc, match)


@pytest.mark.parametrize("action", [17, -1, 2.5, "x", None])
def test_bad_action_for_the_first_agent(action):
    env = make_env()
    with pytest.raises((ValueError, TypeError), match="action for 'player_0'"):
        env.step({"player_0": action, "player_1": int(Action.SHOOT_W)})
    assert env.snapshot()["board"] == ["aA...", "....B"]
    assert env.snapshot()["turns_left"] == 5


def test_numpy_integer_actions_are_accepted():
    env = make_env()
    env.step({"player_0": np.int8(3), "player_1": np.int64(0)})
    assert env.snapshot()["positions"][0].tolist() == [0, 2]


def test_missing_agents_stay():
    env = make_env()
    env.step({"player_1": int(Action.WALK_W)})
    assert env.snapshot()["board"] == ["aA...", "...Bb"]
    env.step({})
    assert env.snapshot()["board"] == ["aA...", "...Bb"]
    assert env.snapshot()["turns_left"] == 3


# -- the end of the game -------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["batch", "int64", "strided", "int32"])
def test_batched_step_takes_action_arrays_of_any_layout(layout):
    """An array laid out as the game's action buffer (int8, C order) is read where it is,
    other arrays are copied: same trajectory either way, and a bad action is refused
    before any change."""
    games = [PaintGame(Config(board="random", symmetric=True), 4) for _ in range(2)]
    for game in games:
        game.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = rng.integers(0, len(Action), (4, 2))
        games[0].actions[...] = actions
        games[0].step()
        given = {"batch": actions.astype(np.int8), "int64": actions,
                 "strided": np.repeat(actions, 2, axis=1)[:, ::2],
                 "int32": actions.astype(np.int32)}[layout]
        games[1].step(given)
        assert np.array_equal(given, actions)            # read, never written
        assert np.array_equal(games[0].obs, games[1].obs)
        assert np.array_equal(games[0].rewards, games[1].rewards)
    before = games[1].snapshot(2)
    bad = given.copy()
    bad[2, 1] = len(Action)
    with pytest.raises(ValueError, match="outside"):
        games[1].step(bad)
    same_snapshot(before, games[1].snapshot(2))


@pytest.mark.parametrize("value", [len(Action), 256, 256 + int(Action.WALK_E), -256, 2 ** 40])
def test_actions_that_would_wrap_around_in_the_int8_buffer_are_refused(value):
    """The action buffer is int8 (``core.batched.action_dtype``), where numpy would wrap
    an int64 of 256 + 1 around to 1, a legal action: ``step`` and ``write_actions``
    check the values before they narrow them, and nothing changes."""
    game = PaintGame(Config(board=BOARD, max_turns=5), 2)
    game.reset(seed=1)
    assert game.actions.dtype == np.int8
    before = game.snapshot(1)
    bad = np.zeros((2, 2), dtype=np.int64)
    bad[1, 0] = value
    with pytest.raises(ValueError, match="outside"):
        game.step(bad)
    same_snapshot(before, game.snapshot(1))
    game.actions[...] = 0
    with pytest.raises(ValueError, match="outside"):
        game.write_actions((1, 0), value)
    with pytest.raises(ValueError, match="outside"):
        game.write_actions((slice(None), 1), [0, value])
    assert not game.actions.any()
    game.write_actions((1, 0), int(Action.WALK_E))
    assert game.actions.tolist() == [[0, 0], [int(Action.WALK_E), 0]]


def test_step_after_the_end_raises():
    env = make_env(max_turns=1)
    env.step({"player_0": 0, "player_1": 0})
    assert env.agents == []
    before = env.snapshot()
    with pytest.raises(RuntimeError, match="ended"):
        env.step({"player_0": 0, "player_1": 0})
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    same_snapshot(before, env.snapshot())
    env.reset(seed=0)
    env.step({"player_0": int(Action.WALK_E)})
    assert env.snapshot()["positions"][0].tolist() == [0, 2]


def test_step_after_truncation_raises():
    env = make_env(max_turns=10, max_steps=1)
    env.step({})
    with pytest.raises(RuntimeError, match="ended"):
        env.step({})


def test_step_before_reset_raises():
    env = botarena.parallel_env("paint_v0", board=BOARD)
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"player_0": 0})


# -- boards ------------------------------------------------------------------------------

@pytest.mark.parametrize("board, match", [
    ("A..\n.B", "not rectangular: row 1 has 2 characters"),
    (["A..", ".B"], "not rectangular"),
    ("A.?\n..B", "unknown character '\\?' at row 0, column 2"),
    ("A.1\n..B", "unknown character '1'"),
    ("A.\n.B \n X", "unknown character ' ' at row 2, column 0"),
    ("", "empty"),
    ("\n\n\n", "empty"),
    ([], "empty"),
    ("A.C\n...", "avatars must be A, B, ... without gaps: B is missing"),
    ("A.C", "B is missing"),
    ("A.A\n..B", "two avatars"),
    ("A..\nc.B", "paint 'c' belongs to no avatar"),
    ("A.b\n...", "at least 2 avatars"),
    ("A..\n...", r"at least 2 avatars \(A, B, \.\.\.\), found 1"),
    ("...\n...", r"at least 2 avatars \(A, B, \.\.\.\), found 0"),
    ("12x12", "not a bundled board"),
    ("no_such_file.txt", "not a bundled board"),
])
def test_malformed_ascii_board(board, match):
    with pytest.raises(ValueError, match=match):
        PaintGame(Config(board=board), num_envs=1)
    with pytest.raises(ValueError, match=match):
        botarena.parallel_env("paint_v0", board=board)


@pytest.mark.parametrize("board", [5, 3.5, None, {"A": 1}])
def test_board_of_a_wrong_type(board):
    with pytest.raises(TypeError, match="board must be a name, a path, an ASCII string"):
        PaintGame(Config(board=board), num_envs=1)


# -- configs -----------------------------------------------------------------------------

@pytest.mark.parametrize("config, match", [
    (dict(board="random", width=2, height=2, num_players=5), "5 players do not fit"),
    (dict(board="random", width=3, height=3, num_players=10), "do not fit"),
    (dict(board="random", num_players=1), r"num_players must be in \[2, 1000\], got 1"),
    (dict(board="random", num_players=0), "num_players must be in"),
    (dict(board="random", width=0), r"width must be in \[1, 1000\], got 0"),
    (dict(board="random", height=-2), "height must be in"),
    (dict(board="random", width=2.5), "width must be an int in"),
    (dict(board="random", width=40000), r"width must be in \[1, 1000\]"),
    (dict(board="random", width=1, height=1), "at least 2 squares"),
    (dict(board="random", obstacle_density=1.0), r"obstacle_density must be in \[0.0, 0.99\]"),
    (dict(board="random", obstacle_density=-0.1), "obstacle_density"),
    (dict(board="random", obstacle_density="0.5"), "obstacle_density must be a finite number"),
    (dict(board="random", obstacle_density=float("nan")), "obstacle_density must be a finite"),
    (dict(board="random", symmetric=1), "symmetric must be a bool"),
    (dict(board="random", width=4, height=5, num_players=3, symmetric=True),
     "odd number of players need odd width and height"),
    (dict(board="random", width=5, height=6, num_players=5), "odd width and height"),
    (dict(reward="points"), "reward must be one of"),
    (dict(reward=None), "reward must be a string"),
    (dict(obs_dtype="float64"), "obs_dtype must be one of"),
    (dict(view="side"), "view must be one of"),
    (dict(max_turns=0), r"max_turns must be in \[1, 1000000\], got 0"),
    (dict(max_turns=-3), "max_turns must be in"),
    (dict(max_turns=2.5), "max_turns must be an int"),
    (dict(max_turns=2 ** 32 + 5), "max_turns must be in"),
    (dict(max_steps=0), "max_steps must be in"),
])
def test_impossible_config(config, match):
    with pytest.raises(ValueError, match=match):
        Config(**config)
    with pytest.raises(ValueError, match=match):
        botarena.parallel_env("paint_v0", **config)


def test_symmetric_odd_players_fine_on_odd_board_and_asymmetric_on_even():
    Config(board="random", width=5, height=5, num_players=3, symmetric=True)
    Config(board="random", width=4, height=5, num_players=3, symmetric=False)


def test_unknown_config_field():
    with pytest.raises(TypeError, match="unexpected keyword argument 'colours'"):
        botarena.parallel_env("paint_v0", colours=3)


def test_unknown_env_id_and_render_mode():
    with pytest.raises(ValueError, match="unknown env id 'paint_v9'"):
        botarena.parallel_env("paint_v9")
    with pytest.raises(ValueError, match="render_mode must be one of"):
        botarena.parallel_env("paint_v0", render_mode="video")


def test_num_envs_zero():
    with pytest.raises(ValueError, match="num_envs must be an int >= 1"):
        PaintGame(Config(board=BOARD), num_envs=0)
