"""towers_v0 scripted bots: what they write, and what they do to each other."""
import numpy as np
import pytest

from botarena.envs.towers.constants import NUM_COMMANDS, Command
from botarena.envs.towers_v0 import Config, TowersGame

GAMES = 4


def play(names, turns=250, board="random"):
    game = TowersGame(Config(board=board, max_turns=turns), GAMES)
    game.reset(11)
    ids = np.arange(GAMES)
    out = np.zeros((GAMES, 900), dtype=np.int64)
    while not game.over.all():
        for a, name in enumerate(names):
            game.bots[name](game.state, game.params, ids, np.full(GAMES, a), out)
            game.actions[:, a] = out
        game.step()
    return game.scores.copy()


@pytest.mark.parametrize("name", ["random", "greedy", "defensive", "striped"])
def test_bots_write_legal_commands_on_own_tiles_only(name):
    game = TowersGame(Config(), 2)
    game.reset(0)
    out = np.full((2, 900), -1, dtype=np.int64)
    game.bots[name](game.state, game.params, np.arange(2), np.array([0, 1]), out)
    assert ((out >= 0) & (out < NUM_COMMANDS)).all()
    # both seats see their base at their view's tile 0: the only tile with units
    assert (out[:, 1:] == Command.NOOP).all()
    for a in range(2):
        assert game.masks[a, a, out[a, 0]] == 1     # env a, player a, tile 0


def test_greedy_beats_random():
    scores = play(("greedy", "random"))
    assert (scores[:, 0] > scores[:, 1]).all()


def test_defensive_guard_towers_beat_greedy_on_the_default_map():
    scores = play(("greedy", "defensive"), board="default")
    assert (scores[:, 1] > scores[:, 0]).all()
    game = TowersGame(Config(max_turns=250), 1)
    game.reset(11)
    out = np.zeros((1, 900), dtype=np.int64)
    while not game.over.all():
        for a, name in enumerate(("greedy", "defensive")):
            game.bots[name](game.state, game.params, np.arange(1), np.full(1, a), out)
            game.actions[:, a] = out
        game.step()
    snap = game.snapshot()
    flags = {(x, y) for x, row in enumerate(snap["map"]) for y, letter in
             enumerate(row.split()) if letter == "F"}
    guards = [(t["x"], t["y"]) for t in snap["towers"]
              if t["owner"] == 1 and (t["x"], t["y"]) not in flags]
    assert guards                           # towers off the flags, on player 1's half
    assert all(x + y > 29 for x, y in guards)
    assert all(min(max(abs(x - fx), abs(y - fy)) for fx, fy in flags) == 2 for x, y in guards)


def play_default(names, turns):
    """One default-map game of the two bots; returns the game."""
    game = TowersGame(Config(max_turns=turns), 1)
    game.reset(11)
    out = np.zeros((1, 900), dtype=np.int64)
    while not game.over.all():
        for a, name in enumerate(names):
            game.bots[name](game.state, game.params, np.arange(1), np.full(1, a), out)
            game.actions[:, a] = out
        game.step()
    return game


@pytest.mark.parametrize("seat", [0, 1])
def test_striped_towers_on_every_other_flag_row_beat_greedy_on_the_default_map(seat):
    names = ("striped", "greedy") if seat == 0 else ("greedy", "striped")
    game = play_default(names, 300)
    assert game.scores[0, seat] > game.scores[0, 1 - seat]
    snap = game.snapshot()
    built = [(t["x"], t["y"]) for t in snap["towers"] if t["owner"] == seat]
    assert built
    for x, y in built:                      # on the flag, an even row of the own view
        assert snap["map"][x].split()[y] == "F"
        assert (x if seat == 0 else 29 - x) % 2 == 0


def test_striped_commands_depend_on_the_board_not_on_the_turn():
    game = TowersGame(Config(), 1)
    game.reset(0)
    out = np.zeros((2, 900), dtype=np.int64)
    first = np.zeros(1, dtype=np.int64)
    game.bots["striped"](game.state, game.params, first, first, out[:1])
    game.state.turn[0] += 3                 # greedy's tie-breaks would rotate
    game.bots["striped"](game.state, game.params, first, first, out[1:])
    assert (out[0] == out[1]).all() and out[0, 0] != Command.NOOP


def test_greedy_against_itself_plays_mirror_images_to_a_draw():
    scores = play(("greedy", "greedy"), turns=150)
    assert (scores[:, 0] == scores[:, 1]).all()
