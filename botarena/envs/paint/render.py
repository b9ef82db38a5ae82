"""Paint pictures: the ASCII board and an RGB array (numpy only)."""
import numpy as np

from .constants import (CHAR_AVATAR, CHAR_AVATAR_MANY, CHAR_NEUTRAL, CHAR_OBSTACLE, CHAR_PAINT,
                        CHAR_PAINT_MANY, NEUTRAL, OBSTACLE)

SQUARE_PIXELS = 24
AVATAR_MARGIN = 6
BACKGROUND = (235, 235, 235)
OBSTACLE_RGB = (60, 60, 60)
GRID_RGB = (200, 200, 200)
PLAYER_RGB = np.array([
    (230, 60, 60), (60, 110, 230), (60, 180, 80), (240, 180, 40), (160, 80, 200),
    (40, 190, 200), (240, 120, 180), (130, 90, 50), (120, 120, 120), (20, 60, 40),
], dtype=np.int32)
LEGEND = (("NEUTRAL", BACKGROUND), ("OBSTACLE", OBSTACLE_RGB), ("PALE: PAINT", None))


def board_rows(colour, positions):
    """The ASCII rows (see maps) of a board: colour grid plus avatar positions."""
    chars = np.full(colour.shape, CHAR_NEUTRAL, dtype="<U1")
    chars[colour == OBSTACLE] = CHAR_OBSTACLE
    for p in np.unique(colour[colour > NEUTRAL]):
        chars[colour == p] = CHAR_PAINT[p - 1] if p <= len(CHAR_PAINT) else CHAR_PAINT_MANY
    for p, (row, col) in enumerate(positions):
        chars[row, col] = CHAR_AVATAR[p] if p < len(CHAR_AVATAR) else CHAR_AVATAR_MANY
    return ["".join(row) for row in chars]


def ansi(colour, positions, turns_left, scores):
    lines = board_rows(colour, positions)
    lines.append(f"turns_left={int(turns_left)} scores=" + ",".join(str(int(x)) for x in scores))
    return "\n".join(lines) + "\n"


def player_rgb(p):
    return PLAYER_RGB[p % len(PLAYER_RGB)]


def rgb(colour, positions):
    """The board, ``uint8[H*S, W*S, 3]``: squares in their owner's colour (pale), avatars solid."""
    height, width = colour.shape
    s = SQUARE_PIXELS
    image = np.empty((height * s, width * s, 3), dtype=np.uint8)
    image[...] = BACKGROUND
    for row in range(height):
        for col in range(width):
            block = image[row * s:(row + 1) * s, col * s:(col + 1) * s]
            value = colour[row, col]
            if value == OBSTACLE:
                block[...] = OBSTACLE_RGB
            elif value > NEUTRAL:
                block[...] = (player_rgb(value - 1) + 2 * 255) // 3
            block[0, :] = GRID_RGB
            block[:, 0] = GRID_RGB
    m = AVATAR_MARGIN
    for p, (row, col) in enumerate(positions):
        image[row * s + m:(row + 1) * s - m, col * s + m:(col + 1) * s - m] = player_rgb(p)
    return image

