"""paint_v0 boards: the ASCII format, boards in files, and the seeded generator."""
from collections import deque

import numpy as np
import pytest

import botarena
from botarena.envs.paint_v0 import Config, PaintGame

from paint_helpers import count_colours, new_game, scores

# -- ASCII ---------------------------------------------------------------------------

ROUND_TRIP = [
    ["A.", ".B"],
    ["aA.#", "#.bB", "cC.."],
    ["..........", ".#a#b#c#d#", "ABCD.....e", "E.#######."],
    ["AB"],
    ["A", "B"],
]


@pytest.mark.parametrize("rows", ROUND_TRIP)
def test_ascii_round_trip(rows):
    game = new_game(rows)
    snap = game.snapshot(0)
    assert snap["board"] == rows
    n = len(snap["positions"])
    assert scores(snap) == count_colours(rows, n)
    assert snap["colour"].shape == (len(rows), len(rows[0]))
    assert ((snap["colour"] == -1) == (np.array([list(r) for r in rows]) == "#")).all()
    for p, (r, c) in enumerate(snap["positions"]):
        assert rows[r][c] == chr(ord("A") + p)


def test_ascii_string_list_and_tuple_are_the_same_board():
    rows = ["aA.#", "#.bB"]
    boards = ["\n".join(rows), rows, tuple(rows), "\n\n" + "\n".join(r + "   " for r in rows) + "\n\n"]
    for board in boards:
        game = PaintGame(Config(board=board, max_turns=3), num_envs=1)
        game.reset(seed=0)
        assert game.snapshot(0)["board"] == rows


def test_ascii_26_players():
    top = "ABCDEFGHIJKLM"
    bottom = "NOPQRSTUVWXYZ"
    rows = [top, "abcdefghijklm", bottom]
    game = new_game(rows)
    snap = game.snapshot(0)
    assert snap["board"] == rows
    assert len(snap["positions"]) == 26
    assert scores(snap) == [2] * 13 + [1] * 13


def test_ascii_board_through_parallel_env():
    rows = ["aA..", "..#B"]
    env = botarena.parallel_env("paint_v0", board="\n".join(rows))
    obs, infos = env.reset(seed=3)
    assert env.snapshot()["board"] == rows
    assert env.possible_agents == ["player_0", "player_1"]
    assert obs["player_0"].shape == (6, 2, 4)
    assert infos["player_0"]["score"] == 2 and infos["player_1"]["score"] == 1
    # walks off the board or onto the obstacle are masked
    assert infos["player_1"]["action_mask"].tolist() == [
        True, True, False, False, False, False, False, False, True] + [True] * 8
    assert env.snapshot()["turns_left"] == 40


# -- files -----------------------------------------------------------------------------

def test_board_from_a_file(tmp_path):
    rows = ["aA...", ".#.#.", "...Bb"]
    path = tmp_path / "board.txt"
    path.write_text("\n".join(rows) + "\n")
    for board in (str(path), path):
        game = PaintGame(Config(board=board), num_envs=1)
        game.reset(seed=0)
        snap = game.snapshot(0)
        assert snap["board"] == rows
        assert snap["turns_left"] == 50        # 10 x width for boards that are not bundled
        assert scores(snap) == [2, 2]


def test_bad_board_file_names_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("A.\n.B.\n")
    with pytest.raises(ValueError, match="bad.txt"):
        PaintGame(Config(board=str(path)), num_envs=1)


# -- the generator ---------------------------------------------------------------------

def connected(colour):
    """Whether the non-obstacle squares form one 8-connected region."""
    free = list(zip(*np.nonzero(colour != -1)))
    if not free:
        return False
    seen = {free[0]}
    queue = deque([free[0]])
    h, w = colour.shape
    while queue:
        r, c = queue.popleft()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nr, nc = r + dr, c + dc
                if (0 <= nr < h and 0 <= nc < w and colour[nr, nc] != -1
                        and (nr, nc) not in seen):
                    seen.add((nr, nc))
                    queue.append((nr, nc))
    return len(seen) == len(free)


def generated(num_envs=16, seed=0, **config):
    """Snapshots of ``num_envs`` generated boards (env i seeded seed + i)."""
    config.setdefault("max_turns", 60)
    game = PaintGame(Config(board="random", **config), num_envs=num_envs)
    game.reset(seed=seed)
    return game, [game.snapshot(e) for e in range(num_envs)]


def check_board_basics(snap, num_players):
    colour, positions = snap["colour"], snap["positions"]
    assert len(positions) == num_players
    assert len({tuple(p) for p in positions.tolist()}) == num_players   # distinct squares
    for p, (r, c) in enumerate(positions):
        assert colour[r, c] == p + 1                    # start squares painted
    assert ((colour == 0) | (colour == -1) | (colour > 0)).all()
    assert scores(snap) == [1] * num_players            # only the start squares painted
    assert connected(colour)


GENERATOR_CASES = [
    dict(width=10, height=10, num_players=2, obstacle_density=0.2),
    dict(width=9, height=7, num_players=4, obstacle_density=0.3),
    dict(width=7, height=7, num_players=3, obstacle_density=0.25),
    dict(width=11, height=5, num_players=5, obstacle_density=0.1),
    dict(width=8, height=8, num_players=30, obstacle_density=0.2),
    dict(width=3, height=3, num_players=9, obstacle_density=0.0),
    dict(width=2, height=1, num_players=2, obstacle_density=0.0),
    dict(width=9, height=9, num_players=6, obstacle_density=0.9),
]


@pytest.mark.parametrize("case", GENERATOR_CASES)
def test_symmetric_generator(case):
    n = case["num_players"]
    _, snaps = generated(symmetric=True, **case)
    h, w = case["height"], case["width"]
    for snap in snaps:
        colour, positions = snap["colour"], snap["positions"]
        assert colour.shape == (h, w)
        check_board_basics(snap, n)
        obstacles = colour == -1
        assert (obstacles == obstacles[::-1, ::-1]).all()          # point-symmetric
        for k in range(n // 2):
            r, c = positions[2 * k]
            assert positions[2 * k + 1].tolist() == [h - 1 - r, w - 1 - c]
        if n % 2:
            assert positions[n - 1].tolist() == [h // 2, w // 2]  # the centre


@pytest.mark.parametrize("case", GENERATOR_CASES + [
    dict(width=8, height=6, num_players=3, obstacle_density=0.3),
    dict(width=4, height=4, num_players=16, obstacle_density=0.0),
])
def test_asymmetric_generator(case):
    _, snaps = generated(symmetric=False, **case)
    for snap in snaps:
        check_board_basics(snap, case["num_players"])


def test_generator_obstacles_really_appear():
    _, snaps = generated(num_envs=8, width=12, height=12, obstacle_density=0.3)
    fractions = [float((s["colour"] == -1).mean()) for s in snaps]
    assert all(0.1 < f < 0.5 for f in fractions), fractions
    _, snaps = generated(num_envs=4, width=12, height=12, obstacle_density=0.0)
    assert all(not (s["colour"] == -1).any() for s in snaps)


def test_generator_same_seed_same_board_different_seeds_differ():
    cfg = dict(width=9, height=9, num_players=4, obstacle_density=0.25)
    _, a = generated(num_envs=6, seed=100, **cfg)
    _, b = generated(num_envs=6, seed=100, **cfg)
    for x, y in zip(a, b):
        assert x["board"] == y["board"]
        assert x["positions"].tolist() == y["positions"].tolist()
    boards = {tuple(s["board"]) for s in a}
    assert len(boards) == len(a)                 # seeds 100..105 all differ


def test_generator_new_board_at_each_reset_and_reset_with_seed_repeats():
    env = botarena.parallel_env("paint_v0", board="random", width=9, height=9,
                                num_players=2, obstacle_density=0.25)
    env.reset(seed=7)
    first = env.snapshot()["board"]
    env.reset()
    second = env.snapshot()["board"]
    env.reset(seed=7)
    assert env.snapshot()["board"] == first
    assert second != first


def test_generator_default_turns_and_obs_shape():
    env = botarena.parallel_env("paint_v0", board="random", width=9, height=5, num_players=3,
                                symmetric=False)
    obs, _ = env.reset(seed=0)
    assert env.snapshot()["turns_left"] == 90
    assert obs["player_2"].shape == (6, 5, 9)
    assert len(env.possible_agents) == 3


def test_many_players_render_beyond_z():
    _, snaps = generated(num_envs=2, width=8, height=8, num_players=30, obstacle_density=0.0)
    text = "".join(snaps[0]["board"])
    assert text.count("@") == 4 and sum(ch.isupper() for ch in text) == 26


@pytest.mark.parametrize("case", [
    dict(width=9, height=7, num_players=4, obstacle_density=0.3, symmetric=True),
    dict(width=7, height=7, num_players=3, obstacle_density=0.2, symmetric=True),
    dict(width=8, height=8, num_players=30, obstacle_density=0.2, symmetric=True),
    dict(width=6, height=5, num_players=5, obstacle_density=0.4, symmetric=False),
])
def test_generated_boards_play_50_random_steps(case):
    num_envs = 8
    game, _ = generated(num_envs=num_envs, seed=11, **case)
    n = case["num_players"]
    rng = np.random.default_rng(0)
    for _ in range(50):
        game.step(rng.integers(0, 17, size=(num_envs, n)))
        for e in range(num_envs):
            snap = game.snapshot(e)
            colour, positions = snap["colour"], snap["positions"]
            # scores are the colour counts; avatars on distinct free squares of own colour
            assert scores(snap) == [int((colour == p + 1).sum()) for p in range(n)]
            assert len({tuple(p) for p in positions.tolist()}) == n
            for p, (r, c) in enumerate(positions):
                assert colour[r, c] == p + 1
    for e in range(num_envs):
        assert game.snapshot(e)["turns_left"] == 10


def test_snapshot_ranks_share_equal_counts():
    from botarena.envs.paint_v0 import Config, PaintGame
    game = PaintGame(Config(board="aA.\nbB.\nCcc"), 1)
    game.reset(seed=0)
    snap = game.snapshot(0)
    assert snap["scores"].tolist() == [2, 2, 3]
    assert snap["ranks"].tolist() == [2, 2, 1]
