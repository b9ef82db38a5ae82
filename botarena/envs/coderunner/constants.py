"""CodeRunner's codes: cells, actions, observation planes, ASCII characters, fixed sizes."""
from enum import IntEnum

import numpy as np

HEIGHT = 16
WIDTH = 25
MIDDLE = 12            # no enemy may start in this column; < MIDDLE is the left side
NUM_RUNNERS = 2
QUEUE = HEIGHT * WIDTH  # capacity of the removed-brick and collected-gold queues (state)
RANDOM_MAP = "random"  # Config.board value: a pool of generated maps, one drawn per reset

# -- cells (``state.cells``) -------------------------------------------------------------
EMPTY = 0
BRICK = 1
LADDER = 2
GOLD = 3
REMOVED = 4            # a dug brick (restored later)

CHAR_EMPTY, CHAR_BRICK, CHAR_LADDER, CHAR_GOLD, CHAR_REMOVED = ".", "=", "H", "*", "-"
CHAR_RED, CHAR_BLUE = "R", "B"           # respawn cells in map files (standing on empty)
CELL_CHARS = {EMPTY: CHAR_EMPTY, BRICK: CHAR_BRICK, LADDER: CHAR_LADDER, GOLD: CHAR_GOLD,
              REMOVED: CHAR_REMOVED}
CHAR_CELLS = {ch: cell for cell, ch in CELL_CHARS.items()}
# ansi render only
CHAR_RUNNERS = ("r", "b")                # red, blue runner (upper case: on a ladder: no)
CHAR_ENEMY = "E"
CHAR_TRAPPED = "T"


class Action(IntEnum):
    """The seed's 7 moves (``NONE LEFT RIGHT TOP BOTTOM DIG_LEFT DIG_RIGHT``)."""
    NONE = 0
    LEFT = 1
    RIGHT = 2
    TOP = 3
    BOTTOM = 4
    DIG_LEFT = 5
    DIG_RIGHT = 6


NUM_ACTIONS = len(Action)
ACTION_NAMES = tuple(a.name for a in Action)
NONE, LEFT, RIGHT, TOP, BOTTOM, DIG_LEFT, DIG_RIGHT = range(7)
# (d_row, d_col) of the actions 0..4 (0 stays)
MOVE_DELTAS = np.array([(0, 0), (0, -1), (0, 1), (-1, 0), (1, 0)], dtype=np.int64)
OPPOSITE = np.array([NONE, RIGHT, LEFT, BOTTOM, TOP], dtype=np.int64)
MIRRORED = np.array([NONE, RIGHT, LEFT, TOP, BOTTOM, DIG_RIGHT, DIG_LEFT], dtype=np.int64)
# pursuit preference orders: enemies whose respawn column is < MIDDLE, and the others
PREFERENCE = np.array([[TOP, RIGHT, BOTTOM, LEFT], [TOP, LEFT, BOTTOM, RIGHT]], dtype=np.int64)
PROGRAM_LETTERS = {"L": LEFT, "R": RIGHT, "T": TOP, "B": BOTTOM}
LETTER_OF = {v: k for k, v in PROGRAM_LETTERS.items()}

UNREACHABLE = 32767    # pursuit distance between cells without a reversible path


# codes of the observation's CELL plane: the cell constants above, then the respawn cells
OWN_SPAWN = 5          # the observing runner's respawn cell (always an empty cell)
OPP_SPAWN = 6          # the opponent's
NUM_CELL_CODES = 7


class Plane(IntEnum):
    """Observation planes ``obs[plane, row, col]`` from the observing runner's side.

    Values are fractions of full (full = 255 in uint8, 1.0 in float32, the core's
    ``OBS_ONE``); a countdown is turns left / its delay.  A bar shows a fraction x of one
    number: its first ``ceil(x * 400)`` cells in reading order are full, the others 0."""
    CELL = 0           # cell code / (NUM_CELL_CODES - 1): EMPTY, BRICK, LADDER, GOLD, REMOVED,
                       # OWN_SPAWN, OPP_SPAWN
    TIMER = 1          # countdowns: a removed brick's restore, a collected gold's respawn
    OWN = 2            # own runner: full on its cell; when dead its respawn cell holds
                       # 1 - turns left / runner_respawn
    OPPONENT = 3       # the same for the opponent
    ENEMY = 4          # free enemies: half for one, full for two or more
    TRAPPED = 5        # binary: enemies trapped in removed bricks
    ENEMY_SPAWN = 6    # respawn cells of dead enemies: turns to respawn / enemy_respawn
    VISITED = 7        # binary: cells a runner has visited (no first-visit points left)
    DIG_DELAY = 8      # bar: own turns until digging again / dig_delay
    OPP_DIG_DELAY = 9  # bar: the opponent's
    TURN = 10          # bar: turn / max_turns


NUM_PLANES = len(Plane)
