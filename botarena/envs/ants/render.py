"""Ants pictures: the ASCII board and an RGB array (numpy only)."""
import numpy as np

from .constants import (CHAR_ANTS, CHAR_ANTS_ON_HILL, CHAR_FOOD, CHAR_HILLS, CHAR_LAND,
                        CHAR_RAZED, CHAR_WATER)

CELL_PIXELS = 16
LAND_RGB = (235, 225, 200)
WATER_RGB = (60, 110, 200)
GRID_RGB = (215, 205, 180)
FOOD_RGB = (60, 170, 60)
RAZED_RGB = (110, 110, 110)
COLONY_RGB = ((220, 50, 50), (40, 40, 40), (200, 140, 30), (160, 60, 200))
LEGEND = (("WATER", WATER_RGB), ("FOOD", FOOD_RGB), ("RAZED HILL", RAZED_RGB),
          ("RING: HILL", None))


def board_rows(water, ants, hills, food):
    """ASCII rows (see constants): ``ants`` (owner, x, y) rows, ``hills`` (owner, x, y,
    razed) rows of dealt hills, ``food`` (x, y) cells (not shown under a hill or an ant)."""
    height, width = water.shape
    chars = [[CHAR_WATER if water[y, x] else CHAR_LAND for x in range(width)]
             for y in range(height)]
    for x, y in food:
        chars[y][x] = CHAR_FOOD
    on_hill = set()
    for owner, x, y, razed in hills:
        chars[y][x] = CHAR_RAZED if razed else CHAR_HILLS[owner]
        on_hill.add((x, y))
    for owner, x, y in ants:
        chars[y][x] = (CHAR_ANTS_ON_HILL if (x, y) in on_hill else CHAR_ANTS)[owner]
    return ["".join(row) for row in chars]


def rgb(water, ants, hills, food):
    """The board, ``uint8[H*S, W*S, 3]``, top row of the picture = y = 0."""
    height, width = water.shape
    s = CELL_PIXELS
    image = np.empty((height * s, width * s, 3), dtype=np.uint8)
    image[...] = LAND_RGB

    def block(x, y, margin=0):
        return image[y * s + margin:(y + 1) * s - margin, x * s + margin:(x + 1) * s - margin]

    for y in range(height):
        for x in range(width):
            cell = block(x, y)
            if water[y, x]:
                cell[...] = WATER_RGB
            else:
                cell[0, :] = GRID_RGB
                cell[:, 0] = GRID_RGB
    for owner, x, y, razed in hills:
        block(x, y, 1)[...] = RAZED_RGB if razed else COLONY_RGB[owner]
        block(x, y, 3)[...] = LAND_RGB
    for x, y in food:
        block(x, y, 5)[...] = FOOD_RGB
    for owner, x, y in ants:
        block(x, y, 4)[...] = COLONY_RGB[owner]
    return image
