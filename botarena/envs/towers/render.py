"""Towers pictures: the ASCII board and an RGB array (numpy only)."""
import numpy as np

from .constants import (CHAR_BOTS, CHAR_BOTS_ON_FLAG, CHAR_MIXED, CHAR_TERRAIN, CHAR_TOWERS,
                        CHAR_TOWERS_ON_FLAG, FLAG, WATER)

TILE_PIXELS = 16
BOT_PIXELS = 2               # a bot is a square of 2 * BOT_PIXELS + 1 pixels a side
TERRAIN_RGB = ((225, 215, 180), (60, 110, 200), (250, 235, 120))   # land, water, flag
GRID_RGB = (205, 195, 160)
PLAYER_RGB = ((220, 50, 50), (40, 40, 160))
LEGEND = (("WATER", TERRAIN_RGB[WATER]), ("FLAG", TERRAIN_RGB[FLAG]),
          ("SQUARE: TOWER, DOT: BOT", None))


def board_rows(terrain, bots, towers):
    """ASCII rows (row x first; see constants): ``bots`` (owner, x, y) living bots,
    ``towers`` (owner, tile x, tile y) living towers."""
    size = terrain.shape[0]
    chars = [[CHAR_TERRAIN[terrain[x, y]] for y in range(size)] for x in range(size)]
    owners = {}
    for owner, x, y in bots:
        owners.setdefault((int(x), int(y)), set()).add(owner)
    for (x, y), seen in owners.items():
        on_flag = terrain[x, y] == FLAG
        chars[x][y] = CHAR_MIXED if len(seen) > 1 else \
            (CHAR_BOTS_ON_FLAG if on_flag else CHAR_BOTS)[seen.pop()]
    for owner, x, y in towers:
        chars[x][y] = (CHAR_TOWERS_ON_FLAG if terrain[x, y] == FLAG else CHAR_TOWERS)[owner]
    return ["".join(row) for row in chars]


def rgb(terrain, bots, towers):
    """The board, ``uint8[N*S, N*S, 3]``: picture row = x (down), column = y (right)."""
    size = terrain.shape[0]
    s = TILE_PIXELS
    image = np.empty((size * s, size * s, 3), dtype=np.uint8)
    for x in range(size):
        for y in range(size):
            block = image[x * s:(x + 1) * s, y * s:(y + 1) * s]
            block[...] = TERRAIN_RGB[terrain[x, y]]
            if terrain[x, y] != WATER:
                block[0, :] = GRID_RGB
                block[:, 0] = GRID_RGB
    for owner, x, y in towers:
        image[x * s + 2:(x + 1) * s - 2, y * s + 2:(y + 1) * s - 2] = PLAYER_RGB[owner]
    for owner, x, y in bots:
        px, py = int(x * s), int(y * s)
        image[max(px - BOT_PIXELS, 0):px + BOT_PIXELS + 1,
              max(py - BOT_PIXELS, 0):py + BOT_PIXELS + 1] = PLAYER_RGB[owner]
    return image
