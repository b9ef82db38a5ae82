"""towers_v0 maps: the bundled ones, the loader's errors, the seeded generator."""
import numpy as np
import pytest

from botarena.envs.towers.constants import FLAG, WATER
from botarena.envs.towers.maps import BUNDLED, generate_map, load_map, reachable
from botarena.envs.towers_v0 import Config, TowersGame

N = 30


def default_rows():
    return load_map("default", N).rows()


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_maps_are_point_symmetric_and_connected(name):
    terrain = load_map(name, N).terrain
    assert terrain.shape == (N, N)
    assert np.array_equal(terrain, terrain[::-1, ::-1])
    assert (terrain == FLAG).any()
    flat = terrain.reshape(-1)
    assert reachable(flat, N)[flat != WATER].all()


def test_default_map_is_the_rules_files_cross_with_the_central_flag():
    terrain = load_map("default", N).terrain
    assert (terrain[13:17, 13:17] == FLAG).all()
    assert (terrain == FLAG).sum() == 16
    assert (terrain[14:16, :13] == WATER).sum() == 2 * 11     # a 2-tile bridge in each arm
    assert (terrain[:13, 14:16] == WATER).sum() == 2 * 11


@pytest.mark.parametrize("seed", range(6))
def test_generator_is_seeded_symmetric_and_connected(seed):
    a, b = generate_map(seed), generate_map(seed)
    assert np.array_equal(a.terrain, b.terrain)
    t = a.terrain
    assert np.array_equal(t, t[::-1, ::-1])
    assert t[0, 0] != WATER and (t == FLAG).sum() >= 16
    assert 0.05 < (t == WATER).mean() < 0.25
    flat = t.reshape(-1)
    assert reachable(flat, N)[flat != WATER].all()
    assert not np.array_equal(t, generate_map(seed + 100).terrain)


def test_random_board_draws_a_new_map_at_every_reset_from_the_env_rng():
    game = TowersGame(Config(board="random"), 2)
    game.reset(seed=[5, 6])
    assert np.array_equal(game.state.terrain[0], generate_map(5).terrain)
    assert not np.array_equal(game.state.terrain[0], game.state.terrain[1])
    first = game.state.terrain[0].copy()
    game.reset(env_ids=[0])
    assert not np.array_equal(game.state.terrain[0], first)


def test_a_map_file_loads(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("\n".join(default_rows()) + "\n")
    assert np.array_equal(Config(board=str(path)).load_map().terrain,
                          load_map("default", N).terrain)


def _with(rows, x, y, letter):
    letters = [r.split() for r in rows]
    letters[x][y] = letter
    return [" ".join(r) for r in letters]


@pytest.mark.parametrize("make, match", [
    (lambda r: r[:-1], "has 29 rows, want 30"),
    (lambda r: r[:3] + [" ".join(r[3].split()[:-1])] + r[4:], "row 3 has 29 letters"),
    (lambda r: _with(r, 2, 7, "Q"), r"unknown letter 'Q' at \(x, y\) = \(2, 7\)"),
    (lambda r: _with(r, 0, 0, "W"), "player 0's base .* is water"),
    (lambda r: _with(r, 29, 29, "W"), "player 1's base .* is water"),
    (lambda r: [row.replace("F", "L") for row in r], "no flag tile"),
    (lambda r: [" ".join(["W"] * 30) if x in (14, 15) else row.replace("L L W W L L", "L L L L L L")
                for x, row in enumerate(r)], "bases are not connected"),
])
def test_bad_maps_are_named(make, match):
    with pytest.raises(ValueError, match=match):
        Config(board=make(default_rows()))


@pytest.mark.parametrize("config, match", [
    ({"board": "nowhere"}, "not 'random', a bundled map"),
    ({"board": 3}, "board must be"),
    ({"map_size": 3}, r"map_size must be in \[6, 1000\], got 3"),
    ({"max_turns": 0}, r"max_turns must be in \[1"),
    ({"max_bot_hp": 2.5}, "max_bot_hp must be an int"),
    ({"bot_speed": 0}, r"bot_speed must be in \[1e-06, 1000\], got 0"),
    ({"bot_blast_impact_radius": float("nan")}, "must be a finite number"),
    ({"num_bots_start": 200}, "exceeds max_num_bots"),
    ({"water": 0.9}, r"water must be in \[0.0, 0.5\]"),
    ({"flag_size": 29}, "flag_size must be <="),
    ({"reward": "gold"}, "reward must be one of"),
    ({"board": "default", "map_size": 20}, "has 30 rows, want 20"),
])
def test_bad_configs_are_named(config, match):
    with pytest.raises((ValueError, TypeError), match=match):
        Config(**config)
