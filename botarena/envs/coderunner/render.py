"""CodeRunner pictures: ASCII board rows and an RGB array (numpy only)."""
import numpy as np

from .constants import (BRICK, CELL_CHARS, CHAR_ENEMY, CHAR_RUNNERS, CHAR_TRAPPED, GOLD,
                        LADDER, REMOVED)

CELL_PIXELS = 20
BACKGROUND = (20, 20, 30)
CELL_RGB = {BRICK: (160, 80, 40), LADDER: (200, 200, 200), GOLD: (240, 200, 30),
            REMOVED: (80, 50, 30)}
RUNNER_RGB = ((230, 50, 50), (60, 110, 240))
ENEMY_RGB = (60, 200, 80)
TRAPPED_RGB = (30, 110, 40)
RUNNER_NAMES = ("RED", "BLUE")
LEGEND = (("BRICK", CELL_RGB[BRICK]), ("HOLE", CELL_RGB[REMOVED]), ("LADDER", CELL_RGB[LADDER]),
          ("GOLD", CELL_RGB[GOLD]), ("ENEMY", ENEMY_RGB), ("TRAPPED", TRAPPED_RGB))


def board_rows(cells):
    """16 strings in the map characters (``-`` a removed brick), no characters."""
    return ["".join(CELL_CHARS[int(x)] for x in row) for row in cells]


def ansi_rows(cells, runners, runner_alive, enemies, enemy_alive):
    """The board with enemies (``E``, ``T`` trapped) and runners (``r``, ``b``) on top."""
    chars = [[CELL_CHARS[int(x)] for x in row] for row in cells]
    for (r, c), live in zip(enemies, enemy_alive):
        if live:
            chars[r][c] = CHAR_TRAPPED if cells[r, c] == REMOVED else CHAR_ENEMY
    for a, ((r, c), live) in enumerate(zip(runners, runner_alive)):
        if live:
            chars[r][c] = CHAR_RUNNERS[a]
    return ["".join(row) for row in chars]


def rgb(cells, runners, runner_alive, enemies, enemy_alive):
    """The board, ``uint8[16*S, 25*S, 3]``."""
    height, width = cells.shape
    s = CELL_PIXELS
    image = np.empty((height * s, width * s, 3), dtype=np.uint8)
    image[...] = BACKGROUND

    def block(r, c, margin=0):
        return image[r * s + margin:(r + 1) * s - margin, c * s + margin:(c + 1) * s - margin]

    for r in range(height):
        for c in range(width):
            v = int(cells[r, c])
            if v in (BRICK, REMOVED):
                block(r, c, 1)[...] = CELL_RGB[v]
            elif v == LADDER:
                cell = block(r, c)
                cell[:, 3:5] = CELL_RGB[LADDER]
                cell[:, s - 5:s - 3] = CELL_RGB[LADDER]
                cell[2::5, 3:s - 3] = CELL_RGB[LADDER]
            elif v == GOLD:
                block(r, c, 6)[...] = CELL_RGB[GOLD]
    for (r, c), live in zip(enemies, enemy_alive):
        if live:
            block(r, c, 3)[...] = TRAPPED_RGB if cells[r, c] == REMOVED else ENEMY_RGB
    for a, ((r, c), live) in enumerate(zip(runners, runner_alive)):
        if live:
            block(r, c, 4)[...] = RUNNER_RGB[a]
    return image
