"""Helpers for the paint_v0 rule scenario tests: play ASCII boards, name actions."""
import numpy as np

from botarena.envs.paint_v0 import Action, Config, PaintGame

STAY = int(Action.STAY)
DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def walk(direction):
    """The walk action in compass ``direction`` ("N", "NE", ... "NW")."""
    return int(Action[f"WALK_{direction}"])


def shoot(direction):
    """The shoot action in compass ``direction``."""
    return int(Action[f"SHOOT_{direction}"])


def new_game(board, seed=0, **config):
    """A one-env PaintGame on ``board`` (list of rows or string), reset with ``seed``."""
    if isinstance(board, (list, tuple)):
        board = "\n".join(board)
    config.setdefault("max_turns", 50)
    game = PaintGame(Config(board=board, **config), num_envs=1)
    game.reset(seed=seed)
    return game


def step(game, actions):
    """One turn with the players' ``actions`` (a sequence of ints); the snapshot after."""
    game.step(np.array([list(actions)], dtype=np.int64))
    return game.snapshot(0)


def play(board, *turns, **config):
    """Play ``turns`` (each a sequence of actions, one per player) on ``board``; the
    snapshot after the last turn."""
    game = new_game(board, **config)
    snap = game.snapshot(0)
    for actions in turns:
        snap = step(game, actions)
    return snap


def play_game(board, *turns, **config):
    """Like ``play`` but returns ``(game, snapshot)``."""
    game = new_game(board, **config)
    snap = game.snapshot(0)
    for actions in turns:
        snap = step(game, actions)
    return game, snap


def scores(snap):
    return [int(x) for x in snap["scores"]]


def count_colours(rows, num_players):
    """Squares of each player's colour in ASCII rows (avatars stand on their own colour)."""
    text = "".join(rows)
    return [text.count(chr(ord("a") + p)) + text.count(chr(ord("A") + p))
            for p in range(num_players)]
