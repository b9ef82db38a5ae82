"""CodeRunner's codes: cells, actions, observation planes, ASCII characters, fixed sizes."""
from enum import IntEnum

import numpy as np

HEIGHT = 16
WIDTH = 25
MIDDLE = 12            # no enemy may start in this column; < MIDDLE is the left side
NUM_RUNNERS = 2
RANDOM_MAP = "random"  # Config.map value: a pool of generated maps, one drawn per reset

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


class Plane(IntEnum):
    """Observation planes ``obs[plane, row, col]`` from the observing runner's side.

    Binary planes hold 0 / full, graded planes 0..full (full = 255 in uint8, 1.0 in
    float32, the core's ``OBS_ONE``).  Constant planes carry one scalar everywhere."""
    BRICK = 0          # binary: brick (removed bricks not included)
    LADDER = 1         # binary
    GOLD = 2           # binary: gold present
    REMOVED = 3        # graded: removed brick, turns until restored / brick_restore
    GOLD_TIMER = 4     # graded: collected gold, turns until it respawns / gold_respawn
    OWN = 5            # binary: own runner (alive)
    OPPONENT = 6       # binary: opponent runner (alive)
    OWN_SPAWN = 7      # graded: own respawn cell; full while alive, else 1 - wait/runner_respawn
    OPP_SPAWN = 8      # graded: the same for the opponent
    ENEMY = 9          # graded: free enemies (count / 2, capped at full)
    TRAPPED = 10       # binary: enemies trapped in removed bricks
    ENEMY_SPAWN = 11   # graded: respawn cells of dead enemies, turns to respawn / enemy_respawn
    VISITED = 12       # binary: cells the own runner has visited
    DIG_DELAY = 13     # constant: own turns until digging again / dig_delay
    OPP_DIG_DELAY = 14  # constant: the opponent's
    TURN = 15          # constant: turn / max_turns


NUM_PLANES = len(Plane)
