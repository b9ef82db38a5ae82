"""Paint boards: the bundled originals, the ASCII format, and the seeded generator.

ASCII format, one character per square: ``.`` neutral, ``#`` obstacle, ``a``..``z`` a
square of player 0..25, ``A``..``Z`` player 0..25's avatar (standing on its own colour).
Every player from 0 to n-1 has exactly one avatar; paint of a player without an avatar
is an error.
"""
import os
from importlib import resources

import numpy as np
from numba import njit

from ...core.grid import DIRECTIONS, in_bounds, parse_ascii, read_map_file
from ...core.rng import GAME, randint, uniform
from .constants import (CHAR_AVATAR, CHAR_NEUTRAL, CHAR_OBSTACLE, CHAR_PAINT, NEUTRAL,
                        OBSTACLE, RANDOM_BOARD)

# name: turns of the original board (the squares are in maps/<name>.txt)
BUNDLED_TURNS = {"10x10": 100, "5x11": 110, "7x13": 130, "7x13b": 130}
ALLOWED = CHAR_NEUTRAL + CHAR_OBSTACLE + CHAR_PAINT + CHAR_AVATAR
GENERATOR_ATTEMPTS = 100


def bundled_board(name):
    return resources.files(__package__).joinpath("maps", f"{name}.txt").read_text()


def load_board(board):
    """``(colour, positions, turns)`` of ``board``: a bundled name, a path, an ASCII string
    or a list of rows (``turns`` is the bundled board's own, None for others)."""
    if isinstance(board, str) and board in BUNDLED_TURNS:
        return parse_board(parse_ascii(bundled_board(board), ALLOWED)) + (BUNDLED_TURNS[board],)
    if isinstance(board, (str, os.PathLike)) and "\n" not in str(board) and os.path.isfile(board):
        return parse_board(parse_ascii(read_map_file(board), ALLOWED, what=f"board in {board}")) + (None,)
    if not isinstance(board, (str, list, tuple)):
        raise TypeError(f"board must be a name, a path, an ASCII string or a list of rows, "
                        f"got {type(board).__name__}")
    try:
        return parse_board(parse_ascii(board, ALLOWED)) + (None,)
    except ValueError as err:
        if isinstance(board, str) and "\n" not in board:
            raise ValueError(
                f"board {board!r} is not a bundled board ({', '.join(BUNDLED_TURNS)}), "
                f"{RANDOM_BOARD!r}, an existing file, nor a valid ASCII board: {err}") from None
        raise


def parse_board(rows):
    """``(colour int16[H, W], positions int16[A, 2])`` of an ASCII board (see module doc)."""
    height, width = len(rows), len(rows[0])
    colour = np.zeros((height, width), dtype=np.int16)
    avatars = {}
    painted = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == CHAR_OBSTACLE:
                colour[r, c] = OBSTACLE
            elif ch in CHAR_PAINT:
                colour[r, c] = CHAR_PAINT.index(ch) + 1
                painted.add(CHAR_PAINT.index(ch))
            elif ch in CHAR_AVATAR:
                p = CHAR_AVATAR.index(ch)
                if p in avatars:
                    raise ValueError(f"player {p} ({ch}) has two avatars: at {avatars[p]} and {[r, c]}")
                avatars[p] = [r, c]
                colour[r, c] = p + 1
    n = len(avatars)
    if n < 2:
        raise ValueError(f"a board needs at least 2 avatars (A, B, ...), found {n}")
    if sorted(avatars) != list(range(n)):
        missing = min(set(range(n)) - set(avatars))
        raise ValueError(f"avatars must be A, B, ... without gaps: {CHAR_AVATAR[missing]} is missing")
    orphans = sorted(painted - set(avatars))
    if orphans:
        raise ValueError(f"paint {CHAR_PAINT[orphans[0]]!r} belongs to no avatar")
    positions = np.array([avatars[p] for p in range(n)], dtype=np.int16)
    return colour, positions


@njit(cache=True)
def _connected(colour, queue, seen):
    """Whether all non-obstacle squares form one 8-connected region."""
    height, width = colour.shape
    seen[:] = 0
    free, start = 0, -1
    for i in range(height * width):
        if colour[i // width, i % width] != OBSTACLE:
            free += 1
            if start < 0:
                start = i
    if free == 0:
        return False
    head, tail = 0, 1
    queue[0] = start
    seen[start // width, start % width] = 1
    while head < tail:
        i = queue[head]
        head += 1
        r, c = i // width, i % width
        for d in range(DIRECTIONS.shape[0]):
            nr, nc = r + DIRECTIONS[d, 0], c + DIRECTIONS[d, 1]
            if in_bounds(nr, nc, height, width) and seen[nr, nc] == 0 \
                    and colour[nr, nc] != OBSTACLE:
                seen[nr, nc] = 1
                queue[tail] = nr * width + nc
                tail += 1
    return tail == free


@njit(cache=True)
def _place_obstacles(colour, rng, e, density, symmetric, keep_centre):
    height, width = colour.shape
    colour[:] = NEUTRAL
    for i in range(height * width):
        mirror = height * width - 1 - i
        if (symmetric and i > mirror) or (keep_centre and i == mirror):
            continue
        if uniform(rng, e, GAME) < density:
            colour[i // width, i % width] = OBSTACLE
            if symmetric:
                colour[mirror // width, mirror % width] = OBSTACLE


@njit(cache=True)
def _start_candidates(colour, symmetric, out):
    """Fill ``out`` with the flat squares a start may be drawn from; return how many.

    These are the free squares, and on symmetric boards only the first of each mirror pair
    (the centre excluded), so that a drawn square's mirror is free and untaken too."""
    height, width = colour.shape
    count = 0
    for i in range(height * width):
        mirror = height * width - 1 - i
        if colour[i // width, i % width] == OBSTACLE or (symmetric and i >= mirror):
            continue
        out[count] = i
        count += 1
    return count


@njit(cache=True)
def generate_board(s, e, num_players, density, symmetric):
    """A random board in env e: connected free squares, start squares painted.

    With ``symmetric``, obstacles are point-symmetric through the centre and player 2k+1
    starts on the mirror square of player 2k (an odd last player in the centre).  After
    GENERATOR_ATTEMPTS boards that are disconnected or too full, the board is left empty.
    """
    colour, positions, queue, seen = s.colour[e], s.positions[e], s.bfs_queue[e], s.bfs_dist[e]
    height, width = colour.shape
    odd_centre = symmetric and num_players % 2 == 1
    draws = (num_players // 2) if symmetric else num_players
    for _ in range(GENERATOR_ATTEMPTS):
        _place_obstacles(colour, s.rng, e, density, symmetric, odd_centre)
        if _connected(colour, queue, seen) and _start_candidates(colour, symmetric, queue) >= draws:
            break
    else:
        colour[:] = NEUTRAL
    count = _start_candidates(colour, symmetric, queue)
    if odd_centre:
        centre = (height * width - 1) // 2
        positions[num_players - 1, 0] = centre // width
        positions[num_players - 1, 1] = centre % width
    p = 0
    for _ in range(draws):
        k = randint(s.rng, e, GAME, count)
        i = queue[k]
        queue[k] = queue[count - 1]
        count -= 1
        positions[p, 0] = i // width
        positions[p, 1] = i % width
        p += 1
        if symmetric:
            mirror = height * width - 1 - i
            positions[p, 0] = mirror // width
            positions[p, 1] = mirror % width
            p += 1
    for q in range(num_players):
        colour[positions[q, 0], positions[q, 1]] = q + 1
