"""Dungeon maps: the ASCII format and the seeded generator.

ASCII format, one character per cell, text row 0 at the TOP of the board (``y = height-1``;
the bottom text row is ``y = 0``, so ``u`` = y + 1 moves a player up the text):

    ``.`` floor     ``#`` metal block     ``w`` wooden block     ``o`` ore block
    ``a`` ammo      ``t`` treasure chest  ``0``..``3`` player 0..3 (standing on floor)

Players 0..n-1 (2 <= n <= 4) appear exactly once each.  Snapshots and ansi renders use
the same characters plus ``b`` (a bomb, also when its owner stands on it, as in the seed),
``x`` (a dead player's body) and ``*`` (fire on an otherwise empty cell).

The generator (``generate_map``, jitted, GAME stream of the env's RNG) places the players
first, as the original engine does: each on a random cell with its in-board 4 neighbours
and one cell two steps away in a straight line (the escape from its first bomb, chosen
at random among those still free) kept free; then ``metal_blocks``, ``wooden_blocks`` and
``ore_blocks`` blocks, then ``map_ammo`` ammo, on random cells not kept free.  With ``symmetric`` the map and the starts are mirrored
left-right (player 2k+1 on the mirror of player 2k; an odd last player on the middle
column, which needs an odd width); an odd count on a board without a middle column is
rounded up to the next even count.
"""
import os

import numpy as np
from numba import njit

from ...core.grid import parse_ascii, read_map_file
from ...core.jit import phase
from ...core.rng import GAME, randint
from .constants import (AMMO, CHAR_PLAYERS, CHAR_TILES, FLOOR, MAX_PLAYERS, METAL, MIN_PLAYERS,
                        ORE, RANDOM_BOARD, WOOD)

ALLOWED = "".join(CHAR_TILES) + CHAR_PLAYERS
BUNDLED = ("classic",)          # maps/<name>.txt
FREE, KEPT, START = 0, 1, 2     # generator marks: free cell, kept free, a player's start
CELLS_KEPT_PER_PLAYER = 6       # start + 4 neighbours + 1 escape cell
ESCAPES = np.array([(2, 0), (-2, 0), (0, 2), (0, -2)], dtype=np.int64)
MIRRORED_ESCAPES = np.array([1, 0, 2, 3], dtype=np.int64)   # index of (-dx, dy)
NEIGHBOURS = np.array([(0, 1), (0, -1), (-1, 0), (1, 0)], dtype=np.int64)


def bundled_map(name):
    from importlib import resources
    return resources.files(__package__).joinpath("maps", f"{name}.txt").read_text()


def load_board(board):
    """``(tiles uint8[H, W], positions int16[A, 2] as (x, y))`` of ``board``: a bundled
    name, a path, an ASCII string or a list of rows."""
    if isinstance(board, str) and board in BUNDLED:
        return parse_board(parse_ascii(bundled_map(board), ALLOWED, what=f"map {board}"))
    if isinstance(board, (str, os.PathLike)) and "\n" not in str(board) and os.path.isfile(board):
        return parse_board(parse_ascii(read_map_file(board), ALLOWED, what=f"map in {board}"))
    if not isinstance(board, (str, list, tuple)):
        raise TypeError(f"board must be 'random', a map name, a path, an ASCII string or a "
                        f"list of rows, got {type(board).__name__}")
    try:
        return parse_board(parse_ascii(board, ALLOWED, what="map"))
    except ValueError as err:
        if isinstance(board, str) and "\n" not in board:
            raise ValueError(
                f"board {board!r} is not {RANDOM_BOARD!r}, a bundled map ({', '.join(BUNDLED)}), "
                f"an existing file, nor a valid ASCII map: {err}") from None
        raise


def parse_board(rows):
    """``(tiles, positions)`` of ASCII rows (see the module doc)."""
    height, width = len(rows), len(rows[0])
    tiles = np.zeros((height, width), dtype=np.uint8)
    players = {}
    for r, row in enumerate(rows):
        y = height - 1 - r
        for x, ch in enumerate(row):
            if ch in CHAR_PLAYERS:
                p = CHAR_PLAYERS.index(ch)
                if p in players:
                    raise ValueError(f"player {ch} appears twice: at (x, y) = {players[p]} and "
                                     f"{(x, y)}")
                players[p] = (x, y)
            else:
                tiles[y, x] = CHAR_TILES[ch]
    n = len(players)
    if n < MIN_PLAYERS:
        raise ValueError(f"a map needs at least {MIN_PLAYERS} players (0, 1, ...), found {n}")
    if sorted(players) != list(range(n)):
        missing = min(set(range(n)) - set(players))
        raise ValueError(f"players must be 0, 1, ... without gaps: {missing} is missing")
    assert n <= MAX_PLAYERS
    positions = np.array([players[p] for p in range(n)], dtype=np.int16)
    return tiles, positions


# -- the generator ------------------------------------------------------------------------

@phase
def _keep(marks, x, y):
    if marks[y, x] == FREE:
        marks[y, x] = KEPT


@phase
def _reserve(marks, rng, e, x, y, escape):
    """Mark (x, y) a start and keep its in-board neighbours and one escape cell (two steps
    away in a straight line, ``ESCAPES``) free.  ``escape`` >= 0 takes that one (mirrored
    players); otherwise a random one of those still free.  Returns the escape chosen (-1
    if none is free)."""
    height, width = marks.shape
    marks[y, x] = START
    for d in range(NEIGHBOURS.shape[0]):
        nx, ny = x + NEIGHBOURS[d, 0], y + NEIGHBOURS[d, 1]
        if 0 <= nx < width and 0 <= ny < height:
            _keep(marks, nx, ny)
    if escape < 0:
        count = 0
        for d in range(ESCAPES.shape[0]):
            nx, ny = x + ESCAPES[d, 0], y + ESCAPES[d, 1]
            if 0 <= nx < width and 0 <= ny < height and marks[ny, nx] == FREE:
                count += 1
        if count == 0:
            return -1
        k = randint(rng, e, GAME, count)
        for d in range(ESCAPES.shape[0]):
            nx, ny = x + ESCAPES[d, 0], y + ESCAPES[d, 1]
            if 0 <= nx < width and 0 <= ny < height and marks[ny, nx] == FREE:
                if k == 0:
                    escape = d
                    break
                k -= 1
    nx, ny = x + ESCAPES[escape, 0], y + ESCAPES[escape, 1]
    if 0 <= nx < width and 0 <= ny < height:
        _keep(marks, nx, ny)
    return escape


@phase
def _pick(rng, e, cells, count):
    """A random entry of ``cells[:count]`` (-1 if empty)."""
    if count == 0:
        return -1
    return cells[randint(rng, e, GAME, count)]


@phase
def _candidates(tiles, marks, cells, mode, symmetric):
    """Flat cells that may take a start (mode 0) or a block or an item (1: cells not kept
    free); on symmetric maps only the left half (``x < mirror``), or only the middle
    column when ``mode`` is negated (-1: middle start, -2: middle block or item)."""
    height, width = tiles.shape
    count = 0
    middle = mode < 0
    kind = -mode - 1 if middle else mode
    for y in range(height):
        for x in range(width):
            mx = width - 1 - x
            if symmetric:
                if middle and x != mx:
                    continue
                if not middle and x >= mx:
                    continue
            if tiles[y, x] != FLOOR:
                continue
            if marks[y, x] != FREE:
                continue
            if kind == 0 and symmetric and not middle and (mx - x < 2 or marks[y, mx] != FREE):
                continue
            cells[count] = y * width + x
            count += 1
    return count


@phase
def _place(tiles, marks, rng, e, cells, tile, count, mode, symmetric):
    """Put ``count`` tiles (mirrored pairs on symmetric maps); returns how many went down."""
    height, width = tiles.shape
    placed = 0
    if not symmetric:
        for _ in range(count):
            i = _pick(rng, e, cells, _candidates(tiles, marks, cells, mode, False))
            if i < 0:
                break
            tiles[i // width, i % width] = tile
            placed += 1
        return placed
    pairs = count // 2
    single = count % 2 == 1
    if single and width % 2 == 0:
        pairs += 1
        single = False
    for _ in range(pairs):
        i = _pick(rng, e, cells, _candidates(tiles, marks, cells, mode, True))
        if i < 0:
            break
        y, x = i // width, i % width
        tiles[y, x] = tile
        tiles[y, width - 1 - x] = tile
        placed += 2
    if single:
        i = _pick(rng, e, cells, _candidates(tiles, marks, cells, -mode - 1, True))
        if i >= 0:
            tiles[i // width, i % width] = tile
            placed += 1
    return placed


@njit(cache=True)
def generate_map(tiles, positions, marks, cells, rng, e, metal, wood, ore, ammo, symmetric):
    """A new random map in ``tiles`` and starts in ``positions`` (see the module doc).

    ``marks`` (uint8[H, W]) and ``cells`` (int32[H*W]) are scratch."""
    height, width = tiles.shape
    num_players = positions.shape[0]
    tiles[:] = FLOOR
    marks[:] = FREE
    p = 0
    if symmetric:
        for _ in range(num_players // 2):
            i = _pick(rng, e, cells, _candidates(tiles, marks, cells, 0, True))
            if i < 0:
                i = 0
            y, x = i // width, i % width
            d = _reserve(marks, rng, e, x, y, -1)
            positions[p, 0], positions[p, 1] = x, y
            mx = width - 1 - x
            _reserve(marks, rng, e, mx, y, MIRRORED_ESCAPES[d] if d >= 0 else 0)
            positions[p + 1, 0], positions[p + 1, 1] = mx, y
            p += 2
        if num_players % 2 == 1:
            i = _pick(rng, e, cells, _candidates(tiles, marks, cells, -1, True))
            if i < 0:
                i = width // 2
            y, x = i // width, i % width
            _reserve(marks, rng, e, x, y, -1)
            positions[p, 0], positions[p, 1] = x, y
    else:
        for _ in range(num_players):
            i = _pick(rng, e, cells, _candidates(tiles, marks, cells, 0, False))
            if i < 0:
                i = 0
            y, x = i // width, i % width
            _reserve(marks, rng, e, x, y, -1)
            positions[p, 0], positions[p, 1] = x, y
            p += 1
    _place(tiles, marks, rng, e, cells, METAL, metal, 1, symmetric)
    _place(tiles, marks, rng, e, cells, WOOD, wood, 1, symmetric)
    _place(tiles, marks, rng, e, cells, ORE, ore, 1, symmetric)
    _place(tiles, marks, rng, e, cells, AMMO, ammo, 1, symmetric)
