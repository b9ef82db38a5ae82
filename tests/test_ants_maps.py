"""ants_v0 maps: the contest's PPM maps (read from shared/maps/ants, never copied), our
ASCII format and bundled maps, the seeded symmetric generator, and bad maps."""

import numpy as np
import pytest

from botarena.envs.ants.constants import NUM_PLANES
from botarena.envs.ants.maps import generate_map, load_map, parse_ppm
from botarena.envs.ants_v0 import AntsGame, Config
from shared_data import needs_shared, shared_files, shared_path

SHARED_MAPS = shared_path("maps", "ants")
PPM_MAPS = sorted(SHARED_MAPS.glob("*.ppm"))
SIZES = {"bandicoot": (35, 42, 6), "bracket": (50, 50, 8), "default": (20, 20, 4),
         "empty": (20, 20, 4), "eyes": (35, 35, 4), "grid": (50, 50, 36), "maze": (20, 20, 4),
         "net": (25, 25, 15), "race": (20, 20, 4)}


@needs_shared("maps", "ants")
def test_all_nine_shared_maps_are_there():
    assert sorted(p.stem for p in PPM_MAPS) == sorted(SIZES)


@pytest.mark.parametrize("path", shared_files("maps/ants", "*.ppm"))
def test_shared_map_loads(path):
    m = load_map(str(path))
    width, height, hills = SIZES[path.stem]
    assert (m.width, m.height, len(m.hills)) == (width, height, hills)
    assert (m.hills[:, 2] == -1).all()
    assert m.water.dtype == np.uint8 and set(np.unique(m.water)) <= {0, 1}


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("path", shared_files("maps/ants", "*.ppm"))
def test_shared_map_plays(path, players):
    game = AntsGame(Config(board=str(path), num_players=players, max_turns=60), num_envs=2)
    game.reset(seed=3)
    snap = game.snapshot(0)
    assert len(snap["ants"]) == players
    assert sorted(h["owner"] for h in snap["hills"]) == list(range(players))
    assert len(snap["food"]) == 10
    env_ids = np.arange(2)
    out = np.zeros((2, game.height * game.width), dtype=np.int64)
    ends = 0
    for t in range(80):
        for a in range(players):
            game.bots["greedy" if a == 0 else "random"](game.state, game.params, env_ids,
                                                        np.full(2, a), out)
            game.actions[:, a] = out
        game.step(autoreset=True)
        ends += int(game.terminated.all(axis=1).sum() + game.truncated.all(axis=1).sum())
        assert game.obs.shape == (2, players, NUM_PLANES, game.height, game.width)
        for e in range(2):
            rows = game.board_rows(e)
            assert len(rows) == game.height
    assert ends >= 2              # every game ends by turn 60 at the latest


def test_ppm_with_comments_and_maxval():
    text = "P3\n# a comment\n3 2\n15\n15 15 15  0 0 15  15 0 0\n15 15 15 15 15 15 0 0 15\n"
    m = parse_ppm(text)
    assert m.rows() == [".%*", "..%"]


@pytest.mark.parametrize("text, message", [
    ("P6\n1 1\n255\n", "P3"),
    ("P3\n2 1\n255\n255 255 255\n", "values"),
    ("P3\n1 1\n255\n10 20 30\n", "colour"),
    ("P3\n1 1\n255\n255 255 255\n", "no hill"),
])
def test_bad_ppm(text, message):
    with pytest.raises(ValueError, match=message):
        load_map(text) if text.startswith("P3") else parse_ppm(text)


def test_bundled_maps():
    m = load_map("default")
    assert (m.width, m.height, len(m.hills)) == (20, 20, 2)
    q = load_map("quad")
    assert len(q.hills) == 4
    game = AntsGame(Config(board="quad", num_players=4))
    game.reset(seed=0)
    assert len(game.snapshot()["ants"]) == 4


def test_ascii_map_with_fixed_and_dealt_hills():
    rows = ["0..%..",
            "......",
            "*....*",
            "...%.1"]
    for seed in range(6):
        game = AntsGame(Config(board=rows, hills_per_player=2))
        game.reset(seed=seed)
        hills = {(h["x"], h["y"]): h["owner"] for h in game.snapshot()["hills"]}
        assert hills[(0, 0)] == 0 and hills[(5, 3)] == 1
        assert sorted(hills.values()) == [0, 0, 1, 1]
        assert game.snapshot()["scores"].tolist() == [2, 2]


def test_undealt_hills_are_plain_land():
    game = AntsGame(Config(board="quad", num_players=2))
    game.reset(seed=1)
    snap = game.snapshot()
    assert len(snap["hills"]) == 2
    assert sum(row.count("0") + row.count("1") + row.count("A") + row.count("B")
               for row in snap["board"]) == 2


@pytest.mark.parametrize("board, kwargs, message", [
    (["0.1", "..."], {"num_players": 2, "hills_per_player": 2}, "unassigned"),
    (["0.2", "..."], {"num_players": 2}, "player 2"),
    (["00.", "1.."], {"num_players": 2}, "more than"),
    (["...", "..."], {}, "no hill"),
    (["0.q", "..1"], {}, "unknown character"),
    (["0.1", ".."], {}, "rectangular"),
    (["7.1", "..."], {}, "at most"),
    ("no-such-map", {}, "not 'random'"),
])
def test_bad_maps(board, kwargs, message):
    with pytest.raises(ValueError, match=message):
        Config(board=board, **kwargs)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", range(4))
def test_generator_is_symmetric_connected_and_seeded(players, seed):
    m = generate_map(20, 16, players, 1, 0.2, seed=seed)
    assert len(m.hills) == (2 if players == 2 else 4)
    w = m.water
    if players == 2:
        assert np.array_equal(w, w[::-1, ::-1])
    else:
        assert np.array_equal(w, w[::-1, :]) and np.array_equal(w, w[:, ::-1])
    hills = {(int(x), int(y)) for x, y, _ in m.hills}
    for x, y in hills:
        assert (m.width - 1 - x, m.height - 1 - y) in hills
        assert w[y, x] == 0
    again = generate_map(20, 16, players, 1, 0.2, seed=seed)
    assert again.rows() == m.rows()
    assert abs(w.mean() - 0.2) < 0.1


def test_generator_maps_differ_by_seed_and_play():
    assert generate_map(seed=1).rows() != generate_map(seed=2).rows()
    game = AntsGame(Config(board="random", num_players=4, width=16, height=12, map_seed=5,
                           hills_per_player=2))
    assert (game.height, game.width) == (12, 16)
    game.reset(seed=0)
    assert len(game.snapshot()["ants"]) == 8
    game.step(np.zeros((1, 4, 16 * 12), dtype=np.int64))
