"""Ants maps: ASCII PPM files, our plain ASCII format and a seeded symmetric generator.

PPM (``P3``, the contest's format; ``#`` comments allowed): white ``FFFFFF`` land, blue
``0000FF`` water, red ``FF0000`` an unassigned hill.  Other colours are rejected.

ASCII, one character per cell, text row 0 is the top row (``y = 0``):

    ``.`` land     ``%`` water     ``0``-``9`` a hill of that player     ``*`` an unassigned hill

At every reset each player gets ``hills_per_player`` hills: its own numbered hills, and
the rest dealt at random (GAME stream of the env's RNG) from the unassigned ones.  Hills
left over are plain land for that game.

The generator (``generate_map``, seeded, numpy): a ``width x height`` map with water blobs
and ``hills_per_player`` unassigned hills per player, symmetric under a half turn (2
players) or under both mirrors (4 players; 3 players use the 4-player layout and leave
hills over), retried until every land cell reachable from one hill is reachable from all.
"""
import os
from collections import deque

import numpy as np

from ...core.grid import parse_ascii, read_map_file
from .constants import (CHAR_FREE_HILL, CHAR_HILLS, CHAR_WATER, LAND, MAP_CHARS,
                        MAX_PLAYERS, PPM_HILL, PPM_LAND, PPM_WATER, WATER)

BUNDLED = ("default", "quad")     # maps/<name>.txt
FREE = -1                         # owner of an unassigned hill


class AntsMap:
    """A loaded map: ``water`` uint8[H, W] (1 = water) and ``hills`` int16[K, 3] rows
    ``(x, y, owner)`` in reading order (owner -1: unassigned)."""

    def __init__(self, water, hills, name="map"):
        self.water = np.ascontiguousarray(water, dtype=np.uint8)
        self.hills = np.asarray(hills, dtype=np.int16).reshape(-1, 3)
        self.name = name

    @property
    def height(self):
        return self.water.shape[0]

    @property
    def width(self):
        return self.water.shape[1]

    def rows(self):
        """The map in the ASCII format."""
        chars = [[CHAR_WATER if w else "." for w in row] for row in self.water]
        for x, y, owner in self.hills.tolist():
            chars[y][x] = CHAR_FREE_HILL if owner < 0 else CHAR_HILLS[owner]
        return ["".join(r) for r in chars]


def parse_rows(rows, name="map"):
    """``AntsMap`` of ASCII rows (see the module doc)."""
    height, width = len(rows), len(rows[0])
    water = np.zeros((height, width), dtype=np.uint8)
    hills = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == CHAR_WATER:
                water[y, x] = WATER
            elif ch == CHAR_FREE_HILL:
                hills.append((x, y, FREE))
            elif ch in CHAR_HILLS:
                owner = CHAR_HILLS.index(ch)
                if owner >= MAX_PLAYERS:
                    raise ValueError(f"hill {ch!r} at (x, y) = {(x, y)}: ants takes at most "
                                     f"{MAX_PLAYERS} players (hills 0-{MAX_PLAYERS - 1})")
                hills.append((x, y, owner))
    if not hills:
        raise ValueError(f"{name} has no hill")
    return AntsMap(water, hills, name)


def _ppm_tokens(text):
    tokens = []
    for line in text.splitlines():
        tokens.extend(line.split("#", 1)[0].split())
    return tokens


def parse_ppm(text, name="map"):
    """``AntsMap`` of an ASCII PPM (P3) text."""
    tokens = _ppm_tokens(text)
    if not tokens or tokens[0] != "P3":
        raise ValueError(f"{name} is not an ASCII PPM (P3) file")
    try:
        width, height, maxval = int(tokens[1]), int(tokens[2]), int(tokens[3])
        values = np.array([int(t) for t in tokens[4:]], dtype=np.int64)
    except (IndexError, ValueError):
        raise ValueError(f"{name}: malformed PPM header or pixel values") from None
    if width < 1 or height < 1 or maxval < 1:
        raise ValueError(f"{name}: bad PPM size {width} x {height} (maxval {maxval})")
    if values.size != 3 * width * height:
        raise ValueError(f"{name}: {values.size} values for {width} x {height} pixels "
                         f"({3 * width * height} expected)")
    px = (values.reshape(height, width, 3) * 255 // maxval)
    water = np.zeros((height, width), dtype=np.uint8)
    hills = []
    for y in range(height):
        for x in range(width):
            colour = tuple(int(v) for v in px[y, x])
            if colour == PPM_WATER:
                water[y, x] = WATER
            elif colour == PPM_HILL:
                hills.append((x, y, FREE))
            elif colour != PPM_LAND:
                raise ValueError(f"{name}: unknown colour {colour} at (x, y) = {(x, y)}; "
                                 f"white land, blue water, red hill")
    if not hills:
        raise ValueError(f"{name} has no hill")
    return AntsMap(water, hills, name)


def bundled_map(name):
    from importlib import resources
    return resources.files(__package__).joinpath("maps", f"{name}.txt").read_text()


def load_map(board):
    """``AntsMap`` of ``board``: a bundled name, a path (``.ppm`` or ASCII), an ASCII map
    string, PPM text, a list of rows, or an ``AntsMap``."""
    if isinstance(board, AntsMap):
        return board
    if isinstance(board, str) and board in BUNDLED:
        return parse_rows(parse_ascii(bundled_map(board), MAP_CHARS, what=f"map {board}"), board)
    if isinstance(board, (str, os.PathLike)) and "\n" not in str(board) and os.path.isfile(board):
        text = read_map_file(board)
        if text.lstrip().startswith("P3"):
            return parse_ppm(text, name=str(board))
        return parse_rows(parse_ascii(text, MAP_CHARS, what=f"map in {board}"), str(board))
    if isinstance(board, str) and board.lstrip().startswith("P3"):
        return parse_ppm(board)
    if not isinstance(board, (str, list, tuple)):
        raise TypeError(f"board must be 'random', a map name, a path, an ASCII string or a "
                        f"list of rows, got {type(board).__name__}")
    try:
        return parse_rows(parse_ascii(board, MAP_CHARS, what="map"))
    except ValueError as err:
        if isinstance(board, str) and "\n" not in board:
            raise ValueError(
                f"board {board!r} is not 'random', a bundled map ({', '.join(BUNDLED)}), "
                f"an existing file, nor a valid ASCII map: {err}") from None
        raise


# -- the generator ----------------------------------------------------------------------------

def _orbit(x, y, width, height, players):
    """The cells symmetric to (x, y): a half turn (2 players) or both mirrors (4)."""
    mx, my = width - 1 - x, height - 1 - y
    if players <= 2:
        return [(x, y), (mx, my)]
    return [(x, y), (mx, y), (x, my), (mx, my)]


def _connected(water, cells):
    height, width = water.shape
    seen = np.zeros_like(water, dtype=bool)
    x0, y0 = cells[0]
    seen[y0, x0] = True
    queue = deque([(x0, y0)])
    while queue:
        x, y = queue.popleft()
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < height and not water[ny, nx] and not seen[ny, nx]:
                seen[ny, nx] = True
                queue.append((nx, ny))
    land = ~water.astype(bool)
    return all(seen[y, x] for x, y in cells) and seen[land].all()


def generate_map(width=20, height=20, num_players=2, hills_per_player=1, water=0.15, seed=0,
                 tries=200):
    """A symmetric ``AntsMap`` (see the module doc) from ``seed``; ``water`` is the
    fraction of cells under water (about)."""
    if not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"ants takes 2 to {MAX_PLAYERS} players, got {num_players}")
    if width < 4 or height < 4:
        raise ValueError(f"the map must be at least 4 x 4, got {width} x {height}")
    if not 0.0 <= water < 0.6:
        raise ValueError(f"water must be in [0, 0.6), got {water}")
    group = 2 if num_players <= 2 else 4
    groups = -(-num_players * hills_per_player // group)
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        grid = np.zeros((height, width), dtype=np.uint8)
        target = int(water * width * height)
        while int(grid.sum()) < target:
            x, y = int(rng.integers(width)), int(rng.integers(height))
            for _ in range(int(rng.integers(2, 6))):
                for cx, cy in _orbit(x, y, width, height, group):
                    grid[cy, cx] = WATER
                dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[int(rng.integers(4))]
                x, y = min(max(x + dx, 0), width - 1), min(max(y + dy, 0), height - 1)
        hills, taken = [], set()
        ok = True
        for _ in range(groups):
            for _ in range(100):
                x = int(rng.integers(1, max(2, width // 2 - 1)))
                y = int(rng.integers(1, height - 1))
                cells = _orbit(x, y, width, height, group)
                if len(set(cells)) == group and not taken.intersection(cells):
                    break
            else:
                ok = False
                break
            for cx, cy in cells:
                grid[cy, cx] = LAND
                taken.add((cx, cy))
                hills.append((cx, cy, FREE))
        if ok and _connected(grid, [(x, y) for x, y, _ in hills]):
            hills.sort(key=lambda h: (h[1], h[0]))
            return AntsMap(grid, hills, f"generated(seed={seed})")
    raise ValueError(f"no connected {width} x {height} map with {water} water found in {tries} "
                     f"tries; lower water")
