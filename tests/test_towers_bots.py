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


@pytest.mark.parametrize("name", ["random", "greedy", "defensive"])
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


def test_greedy_beats_random_and_defensive():
    scores = play(("greedy", "random"))
    assert (scores[:, 0] > scores[:, 1]).all()
    scores = play(("defensive", "greedy"))
    assert (scores[:, 1] > scores[:, 0]).all()


def test_greedy_against_itself_plays_mirror_images_to_a_draw():
    scores = play(("greedy", "greedy"), turns=150)
    assert (scores[:, 0] == scores[:, 1]).all()
