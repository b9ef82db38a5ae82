"""Grids: the 8 compass directions, bounds checks and ASCII board parsing."""
import numpy as np

from .jit import hot, phase

DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# (d_row, d_col) of each direction, in DIRECTION_NAMES order: clockwise from north.
DIRECTIONS = np.array(
    [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)], dtype=np.int64
)
NUM_DIRECTIONS = len(DIRECTION_NAMES)

# Config.view of the games that offer it: the planes cover the board as it is, or a
# (2H-1, 2W-1) window centred on the observer (``centre_window``).
BOARD_VIEW, EGO_VIEW = "board", "ego"
VIEWS = (BOARD_VIEW, EGO_VIEW)


def ego_shape(height, width):
    """The (rows, columns) of the window ``centre_window`` writes for a height x width board."""
    return 2 * height - 1, 2 * width - 1


@hot
def in_bounds(row, col, height, width):
    return 0 <= row < height and 0 <= col < width


@phase
def centre_window(planes, height, width, row, col, outside, window):
    """The planes of a board seen from square (row, col): board square (r, c) lands on
    window square (r - row + height - 1, c - col + width - 1), so the whole board is in
    view from anywhere, and the observer's own square is the window's centre.

    ``planes[k, r * width + c]`` and ``window[k, r * (2 * width - 1) + c]`` are flat;
    window squares off the board read ``outside[k]``."""
    wide = 2 * width - 1
    for k in range(planes.shape[0]):
        src, out, value = planes[k], window[k], outside[k]
        for i in range(out.shape[0]):
            out[i] = value
        for r in range(height):
            start = (r - row + height - 1) * wide + width - 1 - col
            # views indexed from 0: LLVM then copies the row many entries at a time
            # (``core.journal.replay``)
            dst, line = out[start:start + width], src[r * width:(r + 1) * width]
            for c in range(width):
                dst[c] = line[c]


def read_map_file(path):
    """The text of the map file ``path``; ``ValueError`` naming the file when it cannot be
    read or is not text."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise ValueError(f"map file {str(path)!r} is not text (UTF-8)") from None
    except OSError as err:
        raise ValueError(f"map file {str(path)!r} cannot be read: {err.strerror}") from None


def parse_ascii(text, allowed, what="board"):
    """Split an ASCII board into rows and check it.

    ``text`` is a string (one row per line) or a sequence of row strings; blank lines
    around the board and trailing spaces are ignored.  Raises ``ValueError`` naming the
    first bad row or character.
    """
    if isinstance(text, str):
        lines = text.splitlines()
    else:
        lines = [str(row) for row in text]
    rows = [line.rstrip() for line in lines]
    while rows and not rows[0]:
        rows.pop(0)
    while rows and not rows[-1]:
        rows.pop()
    if not rows:
        raise ValueError(f"the {what} is empty")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"the {what} is not rectangular: row {r} has {len(row)} characters, "
                f"row 0 has {width}"
            )
        for c, ch in enumerate(row):
            if ch not in allowed:
                raise ValueError(
                    f"unknown character {ch!r} at row {r}, column {c} of the {what}; "
                    f"allowed: {''.join(sorted(set(allowed)))}"
                )
    return rows


def coordinate_planes(height, width):
    """float32[2, H, W]: each cell's row / (H - 1) and column / (W - 1) (0 to 1)."""
    rows = np.linspace(0.0, 1.0, height, dtype=np.float32)
    cols = np.linspace(0.0, 1.0, width, dtype=np.float32)
    return np.stack(np.meshgrid(rows, cols, indexing="ij"))
