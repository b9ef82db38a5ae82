"""Dungeon pictures: the ASCII board and an RGB array (numpy only)."""
import numpy as np

from .constants import (CHAR_BODY, CHAR_BOMB, CHAR_FIRE, CHAR_PLAYERS, FLOOR, ACTION_DELTAS,
                        TILE_CHARS, AMMO, METAL, ORE, TREASURE, WOOD)

CELL_PIXELS = 24
MARGIN = 5
BACKGROUND = (235, 225, 200)
GRID_RGB = (200, 190, 170)
TILE_RGB = {METAL: (70, 70, 80), WOOD: (150, 100, 50), ORE: (120, 140, 170),
            AMMO: (230, 200, 40), TREASURE: (240, 150, 20)}
FIRE_RGB = (250, 90, 20)
BOMB_RGB = (20, 20, 20)
BODY_RGB = (130, 130, 130)
PLAYER_RGB = ((220, 50, 50), (50, 100, 230), (50, 170, 70), (170, 70, 200))
LEGEND = (("METAL", TILE_RGB[METAL]), ("WOOD", TILE_RGB[WOOD]), ("ORE", TILE_RGB[ORE]),
          ("AMMO", TILE_RGB[AMMO]), ("TREASURE", TILE_RGB[TREASURE]), ("BOMB", BOMB_RGB),
          ("FIRE", FIRE_RGB), ("BODY", BODY_RGB))


def player_rgb(a):
    return PLAYER_RGB[a % len(PLAYER_RGB)]


def fire_cells(snap_fire_x, snap_fire_y, snap_fire_reach):
    """Set of (x, y) cells covered by the fires."""
    cells = set()
    for fx, fy, reach in zip(snap_fire_x, snap_fire_y, snap_fire_reach):
        cells.add((int(fx), int(fy)))
        for d in range(4):
            dx, dy = ACTION_DELTAS[d + 1]
            for k in range(1, int(reach[d]) + 1):
                cells.add((int(fx + k * dx), int(fy + k * dy)))
    return cells


def board_rows(tiles, bomb_grid, positions, alive, fire):
    """ASCII rows (text row 0 = top, y = height - 1): tiles, fire on empty floor, bodies,
    players, and bombs over everything (a player on its bomb shows as the bomb)."""
    height, width = tiles.shape
    chars = [[TILE_CHARS[int(tiles[y, x])] for x in range(width)] for y in range(height)]
    for (x, y) in fire:
        if tiles[y, x] == FLOOR:
            chars[y][x] = CHAR_FIRE
    for a, (x, y) in enumerate(positions):
        chars[y][x] = CHAR_PLAYERS[a] if alive[a] else CHAR_BODY
    for y, x in zip(*np.nonzero(bomb_grid)):
        chars[y][x] = CHAR_BOMB
    return ["".join(chars[y]) for y in range(height - 1, -1, -1)]


def rgb(tiles, bomb_grid, positions, alive, fire):
    """The board, ``uint8[H*S, W*S, 3]``, top row of the picture = y = height - 1."""
    height, width = tiles.shape
    s = CELL_PIXELS
    image = np.empty((height * s, width * s, 3), dtype=np.uint8)
    image[...] = BACKGROUND

    def block(x, y, margin=0):
        r = height - 1 - y
        return image[r * s + margin:(r + 1) * s - margin, x * s + margin:(x + 1) * s - margin]

    for y in range(height):
        for x in range(width):
            tile = int(tiles[y, x])
            if tile in (METAL, WOOD, ORE):
                block(x, y)[...] = TILE_RGB[tile]
            elif tile in (AMMO, TREASURE):
                block(x, y, MARGIN + 2)[...] = TILE_RGB[tile]
            cell = block(x, y)
            cell[0, :] = GRID_RGB
            cell[:, 0] = GRID_RGB
    for (x, y) in fire:
        block(x, y, 2)[...] = FIRE_RGB
    for a, (x, y) in enumerate(positions):
        block(x, y, MARGIN)[...] = player_rgb(a) if alive[a] else BODY_RGB
    for y, x in zip(*np.nonzero(bomb_grid)):
        block(x, y, MARGIN + 3)[...] = BOMB_RGB
    return image
