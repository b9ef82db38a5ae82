"""coderunner_v0 maps: the nine real maps and the bundled ones load and play 700 random turns
keeping the invariants; the hand-drawn maps have every gold reachable from every reachable
cell; generated maps; clear errors for bad maps."""
import numpy as np
import pytest

from botarena.envs.coderunner.constants import BRICK, GOLD, MOVE_DELTAS, OPPOSITE, REMOVED
from botarena.envs.coderunner.maps import (BUNDLED, HAND_MADE, generate_map, load_map, parse_map,
                                           reachable, walk_program)
from botarena.envs.coderunner_v0 import CodeRunnerGame, Config
from shared_data import needs_shared, shared_files, shared_path

MAPS_DIR = shared_path("maps", "coderunner")
REAL_MAPS = sorted(MAPS_DIR.glob("*.txt"))
needs_maps = needs_shared("maps", "coderunner")


@needs_maps
def test_nine_real_maps_exist():
    assert len(REAL_MAPS) == 9


def check_invariants(game, data, prev_scores):
    snap = game.snapshot(0)
    cells = game.state.cells[0]
    scores = snap["scores"]
    assert (scores >= prev_scores).all()
    for (r, c) in snap["runners"]:
        if r >= 0:
            assert cells[r, c] != BRICK
    for i, ((r, c), live) in enumerate(zip(snap["enemies"], snap["enemy_alive"])):
        if not live:
            continue
        assert cells[r, c] != BRICK
        if cells[r, c] == REMOVED:
            continue          # trapped
        # undo the pursuit stack: the enemy is back on its circuit at its program counter
        for m in reversed(snap["enemy_stack"][i]):
            r, c = r + MOVE_DELTAS[OPPOSITE[m], 0], c + MOVE_DELTAS[OPPOSITE[m], 1]
        er, ec, prog = data.enemies[i]
        path = walk_program(data.cells, er, ec, prog)
        assert (r, c) == path[snap["enemy_pc"][i]], (i, snap["turn"])
    return scores.copy()


def play_random_game(spec, seed):
    """700 seeded random turns on map ``spec``, checking the invariants after each."""
    data = load_map(spec)
    assert len(data.enemies) % 2 == 0 and data.enemies
    game = CodeRunnerGame(Config(board=spec), 1)
    game.reset(seed)
    rng = np.random.default_rng(seed)
    prev = game.snapshot(0)["scores"].copy()
    for _ in range(700):
        game.step(rng.integers(0, 7, size=(1, 2)))
        prev = check_invariants(game, data, prev)
    assert game.over[0]
    assert game.snapshot(0)["turn"] == 700
    return game


@pytest.mark.parametrize("path", shared_files("maps/coderunner", "*.txt"))
def test_real_map_random_game_keeps_invariants(path):
    play_random_game(str(path), 0)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_map_random_game_keeps_invariants(name):
    game = play_random_game(name, 3)
    assert game.snapshot(0)["scores"].max() > 1      # somebody did more than stand there


@pytest.mark.parametrize("name", HAND_MADE)
def test_hand_made_maps_have_no_traps(name):
    """Every gold is reachable by both runners, and again from every cell they can reach
    by moves and falls (digging aside): a fall never strands a runner."""
    data = load_map(name)
    gold = {(int(r), int(c)) for r, c in np.argwhere(data.cells == GOLD)}
    assert len(gold) >= 8
    for spawn in data.spawns:
        cells = reachable(data.cells, spawn)
        assert gold <= cells
        for cell in cells:
            assert gold <= reachable(data.cells, cell), (name, cell)
    assert not {(r, c) for r, c, _ in data.enemies} & set(data.spawns)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_maps_load_and_are_symmetric(name):
    data = load_map(name)
    assert np.array_equal(data.cells, data.cells[:, ::-1])
    assert parse_map(data.text()).enemies == data.enemies


@pytest.mark.parametrize("seed", range(6))
def test_generator_is_seeded_and_playable(seed):
    a, b = generate_map(seed), generate_map(seed)
    assert a.text() == b.text()
    assert np.array_equal(a.cells, a.cells[:, ::-1])
    assert parse_map(a.text()).enemies == a.enemies
    assert a.spawns[0] != a.spawns[1]


def test_random_pool_draws_maps_per_seed():
    game = CodeRunnerGame(Config(board="random", random_maps=4), 8)
    game.reset(0)
    assert len({game.snapshot(e)["map"] for e in range(8)}) > 1


def good_text():
    return load_map("alpha").text()


def test_bad_maps_are_rejected_with_clear_errors():
    text = good_text()
    lines = text.splitlines()
    asym = list(lines)
    asym[0] = "=" + asym[0][1:]
    with pytest.raises(ValueError, match="not left-right symmetric"):
        parse_map("\n".join(asym))
    col12 = list(lines)
    col12[17] = "3 12 RL"
    with pytest.raises(ValueError, match="column 12"):
        parse_map("\n".join(col12))
    open_prog = list(lines)
    open_prog[17] = "6 1 RRRRRRRLLLLLL"
    with pytest.raises(ValueError, match="closed circuit"):
        parse_map("\n".join(open_prog))
    illegal = list(lines)
    illegal[17] = "6 2 TB"
    with pytest.raises(ValueError, match="not a legal"):
        parse_map("\n".join(illegal))
    short = list(lines)
    short[3] = short[3][:-1]
    with pytest.raises(ValueError, match="characters"):
        parse_map("\n".join(short))
    with pytest.raises(ValueError, match="16 rows"):
        parse_map("\n".join(lines[:10]))
    with pytest.raises(ValueError, match="not 'random'"):
        Config(board="no-such-map")
    with pytest.raises(ValueError):
        Config(max_turns=1300)
