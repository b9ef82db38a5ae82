"""dungeon_v0 maps: the seeded generator (counts, escape cells, symmetry, determinism), the
ASCII format, files and bundled maps, and bad input."""
import numpy as np
import pytest

from botarena.envs.dungeon import maps
from botarena.envs.dungeon.constants import AMMO, FLOOR, METAL, ORE, WOOD
from botarena.envs.dungeon_v0 import Config, DungeonGame


def generated(seed=0, num_envs=4, **config):
    game = DungeonGame(Config(**config), num_envs)
    game.reset(seed=seed)
    return game


@pytest.mark.parametrize("config", [{}, {"num_players": 4}, {"width": 15, "height": 13},
                                    {"num_players": 3}])
def test_generator_counts(config):
    game = generated(**config)
    for e in range(game.num_envs):
        tiles = game.state.tiles[e]
        assert (tiles == METAL).sum() == 18
        assert (tiles == WOOD).sum() == 20
        assert (tiles == ORE).sum() == 5
        assert (tiles == AMMO).sum() == 1
        assert (game.state.ore_hp[e][tiles == ORE] == 3).all()
        assert game.snapshot(e)["board"][0].__len__() == config.get("width", 12)


def test_generator_default_size_and_players():
    snap = generated().snapshot(0)
    assert len(snap["board"]) == 10 and len(snap["board"][0]) == 12
    assert snap["positions"].shape == (2, 2)
    assert [p["hp"] for p in snap["players"]] == [3, 3]
    assert [p["ammo"] for p in snap["players"]] == [3, 3]
    assert [p["power"] for p in snap["players"]] == [2, 2]


@pytest.mark.parametrize("symmetric", [False, True])
def test_every_start_keeps_its_neighbours_and_a_cell_in_line_two_steps_away_free(symmetric):
    """As the original engine: the escape cell kept free is (x +- 2, y) or (x, y +- 2),
    and no block nor the map's ammo lands on a start's neighbours or escape cell."""
    game = generated(num_envs=32, num_players=4, symmetric=symmetric, seed=5)
    for e in range(game.num_envs):
        tiles = game.state.tiles[e]
        height, width = tiles.shape
        taken = tiles != FLOOR
        for x, y in game.state.positions[e]:
            assert not taken[y, x]
            for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                if 0 <= x + dx < width and 0 <= y + dy < height:
                    assert not taken[y + dy, x + dx]
            free_in_line = [(dx, dy) for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2))
                            if 0 <= x + dx < width and 0 <= y + dy < height
                            and not taken[y + dy, x + dx]]
            assert free_in_line, (e, x, y)
        starts = {tuple(p) for p in game.state.positions[e].tolist()}
        assert len(starts) == 4


def test_the_maps_ammo_never_lands_next_to_a_start():
    game = generated(num_envs=64, seed=9, map_ammo=8)
    for e in range(game.num_envs):
        tiles = game.state.tiles[e]
        assert (tiles == AMMO).sum() == 8
        for x, y in game.state.positions[e]:
            for dx, dy in ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)):
                if 0 <= x + dx < tiles.shape[1] and 0 <= y + dy < tiles.shape[0]:
                    assert tiles[y + dy, x + dx] != AMMO


def test_symmetric_maps_mirror_left_right():
    game = generated(num_envs=16, symmetric=True, seed=2, num_players=4, ore_blocks=6)
    for e in range(game.num_envs):
        tiles = game.state.tiles[e]
        assert np.array_equal(tiles, tiles[:, ::-1])
        pos = game.state.positions[e]
        width = tiles.shape[1]
        for k in (0, 2):
            assert pos[k + 1, 0] == width - 1 - pos[k, 0] and pos[k + 1, 1] == pos[k, 1]
        assert (tiles == ORE).sum() == 6


def test_symmetric_odd_counts_round_up_without_a_middle_column():
    game = generated(symmetric=True)
    tiles = game.state.tiles[0]
    assert np.array_equal(tiles, tiles[:, ::-1])
    assert (tiles == ORE).sum() == 6 and (tiles == AMMO).sum() == 2


def test_symmetric_odd_width_and_three_players():
    game = generated(symmetric=True, width=13, num_players=3, num_envs=8)
    for e in range(8):
        tiles = game.state.tiles[e]
        assert np.array_equal(tiles, tiles[:, ::-1])
        assert (tiles == ORE).sum() == 5 and (tiles == AMMO).sum() == 1
        assert game.state.positions[e, 2, 0] == 6


def test_generator_is_deterministic_and_seeded():
    a, b, c = generated(seed=7), generated(seed=7), generated(seed=8)
    assert [a.snapshot(e)["board"] for e in range(4)] == [b.snapshot(e)["board"] for e in range(4)]
    assert a.snapshot(0)["board"] != c.snapshot(0)["board"]
    assert a.snapshot(0)["board"] != a.snapshot(1)["board"]
    # env e of a batch equals the same seed alone
    alone = generated(seed=7 + 2, num_envs=1)
    assert alone.snapshot(0)["board"] == a.snapshot(2)["board"]


# -- ASCII maps -------------------------------------------------------------------------

def test_ascii_rows_top_is_high_y():
    tiles, positions = maps.load_board("#w.\n.o0\na1t")
    assert tiles.shape == (3, 3)
    assert tiles[2].tolist() == [METAL, WOOD, FLOOR]     # top text row = y 2
    assert tiles[1, 1] == ORE and tiles[0, 0] == AMMO
    assert positions.tolist() == [[2, 1], [1, 0]]


def test_ascii_round_trip_through_snapshot():
    rows = ["#w..", ".o0a", "t.1."]
    game = DungeonGame(Config(board=rows), 1)
    game.reset(seed=0)
    assert game.snapshot(0)["board"] == rows
    assert game.snapshot(0)["ore_hp"] == {(1, 1): 3}


def test_map_from_file_and_bundled(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("0..\n.#.\n..1\n")
    game = DungeonGame(Config(board=str(path)), 1)
    game.reset(seed=0)
    assert game.snapshot(0)["board"] == ["0..", ".#.", "..1"]
    classic = DungeonGame(Config(board="classic"), 1)
    classic.reset(seed=0)
    assert len(classic.snapshot(0)["board"]) == 10 and classic.num_agents == 2


@pytest.mark.parametrize("board, message", [
    ("0.z\n..1", "unknown character"),
    ("0..\n.1", "not rectangular"),
    ("0.0\n..1", "appears twice"),
    ("0..\n..2", "missing"),
    ("0..\n...", "at least 2"),
    ("", "empty"),
    ("nosuchmap", "not 'random'"),
])
def test_bad_maps(board, message):
    with pytest.raises(ValueError, match=message):
        Config(board=board)


def test_bad_board_type():
    with pytest.raises(TypeError):
        Config(board=42)


@pytest.mark.parametrize("config, message", [
    ({"num_players": 5}, "2 to 4 players"),
    ({"num_players": 1}, "2 to 4 players"),
    ({"width": 6, "height": 6}, "too small"),
    ({"width": 2, "height": 40}, "at least 3 x 3"),
    ({"symmetric": True, "num_players": 3}, "odd width"),
    ({"treasure_min": 10, "treasure_max": 5}, "treasure_max"),
    ({"reward": "money"}, "reward"),
    ({"obs_dtype": "int64"}, "obs_dtype"),
    ({"bomb_fuse": 0}, "bomb_fuse"),
    ({"player_hp": 2.5}, "player_hp"),
    ({"max_steps": 0}, "max_steps"),
    ({"symmetric": "yes"}, "symmetric"),
])
def test_impossible_configs(config, message):
    with pytest.raises(ValueError, match=message):
        Config(**config)


def test_small_board_with_fewer_blocks_is_fine():
    game = generated(width=6, height=6, metal_blocks=4, wooden_blocks=6, ore_blocks=1)
    tiles = game.state.tiles[0]
    assert (tiles == METAL).sum() == 4 and (tiles == WOOD).sum() == 6
