"""Towers maps: the map file format, the bundled maps and a seeded point-symmetric generator.

Format (the issue's): ``N`` lines of ``N`` letters separated by spaces (``N`` =
``Config.map_size``, 30), ``L`` land, ``W`` water, ``F`` flag; line ``x`` is row ``x``
(the first line is x = 0), letter ``y`` column ``y``.  Blank lines around the map are
ignored; a list of rows may give each row with or without the spaces.  Player 0's base
is tile (0, 0), player 1's tile (N - 1, N - 1).  A map is rejected with a ``ValueError``
that names the problem: a wrong number of rows or letters in a row, an unknown letter, a
base in water, no flag tile, or the bases not connected over land and flags.

Bundled (``maps/<name>.txt``): ``default`` (the rules file's: a water cross two tiles
wide on rows and columns 14-15, a 2-tile bridge across each arm, the 4 x 4 flag at rows
and columns 13-16), ``islands`` (lakes, the central flag and two side flags) and
``lanes`` (three lanes between walls of water; flags in the middle lane).

The generator (``generate_terrain``, jitted: ``board="random"`` draws a new map at every
reset from the env's GAME stream; ``generate_map(seed)`` gives the map of a seed): water
blobs dropped in point-symmetric pairs, (x, y) and (N - 1 - x, N - 1 - y), until about
``water`` of the tiles are water, a central ``flag_size`` square of flags and a symmetric
pair of 2 x 2 flag patches, the 2 x 2 corners at the bases kept land; retried until
every non-water tile is connected (``GENERATOR_TRIES``, else the last try without water).
"""
import os

import numpy as np
from ...core.jit import hot, phase
from ...core.grid import read_map_file
from ...core.rng import GAME, randint
from .constants import FLAG, LAND, MAP_LETTERS, WATER

BUNDLED = ("default", "islands", "lanes")
MIN_SIZE = 6
GENERATOR_TRIES = 50
BLOB_STEPS = (2, 6)          # a water blob is a random walk of 2 to 5 steps
PATCH = 2                    # side of the generator's side flag patches
ORTHOGONAL = np.array([(-1, 0), (0, 1), (1, 0), (0, -1)], dtype=np.int64)


class TowersMap:
    """A loaded map: ``terrain`` uint8[N, N] of LAND / WATER / FLAG codes."""

    def __init__(self, terrain, name="map"):
        self.terrain = np.ascontiguousarray(terrain, dtype=np.uint8)
        self.name = name

    @property
    def size(self):
        return self.terrain.shape[0]

    def rows(self):
        """The map in the file format (a list of rows of space-separated letters)."""
        return [" ".join(MAP_LETTERS[v] for v in row) for row in self.terrain.tolist()]


@hot
def connected(flat, size, queue, seen):
    """Whether every non-water tile of the flat terrain is reachable from tile 0 (by
    orthogonal steps; a diagonal step without corner cutting implies them); ``queue``,
    ``seen``: int scratch of N * N."""
    n = size * size
    for t in range(n):
        seen[t] = 0
    if flat[0] == WATER:
        return False
    seen[0] = 1
    queue[0] = 0
    head, tail = 0, 1
    while head < tail:
        t = queue[head]
        head += 1
        x, y = t // size, t % size
        for k in range(ORTHOGONAL.shape[0]):
            nx, ny = x + ORTHOGONAL[k, 0], y + ORTHOGONAL[k, 1]
            if 0 <= nx < size and 0 <= ny < size:
                u = nx * size + ny
                if not seen[u] and flat[u] != WATER:
                    seen[u] = 1
                    queue[tail] = u
                    tail += 1
    for t in range(n):
        if flat[t] != WATER and not seen[t]:
            return False
    return True


@phase
def set_pair(flat, t, value):
    """Tile t and its point-symmetric twin set to ``value``; returns how many changed."""
    changed = 0
    for u in (t, flat.shape[0] - 1 - t):
        if flat[u] != value:
            flat[u] = value
            changed += 1
    return changed


@hot(python=True)
def generate_terrain(rng, e, water, flag_size, terrain, queue, seen):
    """A point-symmetric connected map into ``terrain`` (uint8[N, N]) from env e's GAME
    stream (see the module doc); ``queue``, ``seen``: int scratch of N * N."""
    size = terrain.shape[0]
    n = size * size
    flat = terrain.reshape(n)
    target = int(water * n)
    for attempt in range(GENERATOR_TRIES + 1):
        for t in range(n):
            flat[t] = LAND
        count = 0
        while count < target and attempt < GENERATOR_TRIES:
            x, y = randint(rng, e, GAME, size), randint(rng, e, GAME, size)
            for _ in range(BLOB_STEPS[0] + randint(rng, e, GAME, BLOB_STEPS[1] - BLOB_STEPS[0])):
                count += set_pair(flat, x * size + y, WATER)
                k = randint(rng, e, GAME, ORTHOGONAL.shape[0])
                x = min(max(x + ORTHOGONAL[k, 0], 0), size - 1)
                y = min(max(y + ORTHOGONAL[k, 1], 0), size - 1)
        lo = (size - flag_size) // 2
        for x in range(lo, lo + flag_size):
            for y in range(lo, lo + flag_size):
                set_pair(flat, x * size + y, FLAG)
        px = randint(rng, e, GAME, size - PATCH + 1)
        py = randint(rng, e, GAME, size - PATCH + 1)
        for x in range(px, px + PATCH):
            for y in range(py, py + PATCH):
                set_pair(flat, x * size + y, FLAG)
        for x in range(PATCH):
            for y in range(PATCH):
                set_pair(flat, x * size + y, LAND)
        if connected(flat, size, queue, seen):
            return


def generate_map(seed=0, size=30, water=0.12, flag_size=4):
    """The ``TowersMap`` the generator draws from ``seed`` (an env seeded ``seed`` draws
    this map at its first reset with ``board="random"``)."""
    from ...core.rng import NUM_STREAMS, seed_rows
    rng = np.zeros((1, NUM_STREAMS), dtype=np.uint64)
    seed_rows(rng, [0], [seed])
    terrain = np.zeros((size, size), dtype=np.uint8)
    scratch = np.zeros((2, size * size), dtype=np.int32)
    generate_terrain(rng, 0, float(water), int(flag_size), terrain, scratch[0], scratch[1])
    return TowersMap(terrain, f"generated(seed={seed})")


def parse_map(text, size, name="map"):
    """``TowersMap`` of the map text (or a list of rows), checked (see the module doc)."""
    lines = text.splitlines() if isinstance(text, str) else [str(row) for row in text]
    rows = [line.strip() for line in lines]
    while rows and not rows[0]:
        rows.pop(0)
    while rows and not rows[-1]:
        rows.pop()
    if len(rows) != size:
        raise ValueError(f"{name} has {len(rows)} rows, want {size} (map_size)")
    terrain = np.zeros((size, size), dtype=np.uint8)
    for x, row in enumerate(rows):
        letters = row.split() if " " in row else list(row)
        if len(letters) != size:
            raise ValueError(f"{name}: row {x} has {len(letters)} letters, want {size}")
        for y, letter in enumerate(letters):
            if len(letter) != 1 or letter not in MAP_LETTERS:
                raise ValueError(f"{name}: unknown letter {letter!r} at (x, y) = {(x, y)}; "
                                 f"allowed: L (land), W (water), F (flag)")
            terrain[x, y] = MAP_LETTERS.index(letter)
    check_map(terrain, name)
    return TowersMap(terrain, name)


def check_map(terrain, name="map"):
    """Raise ``ValueError`` for a base in water, no flag, or bases not connected."""
    size = terrain.shape[0]
    for player, (x, y) in enumerate(((0, 0), (size - 1, size - 1))):
        if terrain[x, y] == WATER:
            raise ValueError(f"{name}: player {player}'s base (x, y) = {(x, y)} is water")
    if not (terrain == FLAG).any():
        raise ValueError(f"{name} has no flag tile (F)")
    flat = terrain.reshape(-1).copy()
    reach = reachable(flat, size)
    if not reach[-1]:
        raise ValueError(f"{name}: the bases are not connected (the two halves of the map "
                         f"are cut apart by water)")


def reachable(flat, size):
    """bool[N * N]: the tiles reachable from tile 0 over non-water tiles."""
    land = flat != WATER
    seen = np.zeros(size * size, dtype=bool)
    seen[0] = True
    stack = [0]
    while stack:
        t = stack.pop()
        x, y = divmod(t, size)
        for dx, dy in ORTHOGONAL.tolist():
            nx, ny = x + dx, y + dy
            u = nx * size + ny
            if 0 <= nx < size and 0 <= ny < size and land[u] and not seen[u]:
                seen[u] = True
                stack.append(u)
    return seen


def bundled_map(name):
    from importlib import resources
    return resources.files(__package__).joinpath("maps", f"{name}.txt").read_text()


def load_map(board, size):
    """``TowersMap`` of ``board``: a bundled name, a path, the map text, a list of rows or a
    ``TowersMap`` (checked against ``size``)."""
    if isinstance(board, TowersMap):
        if board.size != size:
            raise ValueError(f"{board.name} is {board.size} x {board.size}, want {size} "
                             f"(map_size)")
        check_map(board.terrain, board.name)
        return board
    if isinstance(board, str) and board in BUNDLED:
        return parse_map(bundled_map(board), size, f"map {board}")
    if isinstance(board, (str, os.PathLike)) and "\n" not in str(board) \
            and os.path.isfile(board):
        return parse_map(read_map_file(board), size, str(board))
    if not isinstance(board, (str, list, tuple)):
        raise TypeError(f"board must be 'random', a map name, a path, the map's text or a "
                        f"list of rows, got {type(board).__name__}")
    if isinstance(board, str) and "\n" not in board.strip():
        raise ValueError(f"board {board!r} is not 'random', a bundled map "
                         f"({', '.join(BUNDLED)}), an existing file, nor a map's text")
    return parse_map(board, size)
