"""Ants' codes: terrain, commands, observation planes, ASCII characters and fixed limits.

Coordinates are ``(x, y)`` with ``x`` the column and ``y`` the row, ``y = 0`` the TOP row
(as in the PPM maps and the ASCII text); grids are indexed ``[y, x]``; a cell's flat
index is ``y * width + x``.
"""
from enum import IntEnum

import numpy as np

# -- terrain (``Params.water``) -------------------------------------------------------------
LAND = 0
WATER = 1

MIN_PLAYERS = 2
MAX_PLAYERS = 4              # hills 0..3 in the ASCII format, colonies a..d in boards
MAX_ENEMY_PLANES = MAX_PLAYERS - 1
RANDOM_BOARD = "random"      # Config.board value asking for the seeded generator
NO_ANT = -1
NO_HILL = -1
FAR = 1 << 20                # the bounding box of no ants lies this far off the map


class Command(IntEnum):
    """A command for the own ant standing on a cell (one entry per cell of the grid)."""
    STAY = 0
    N = 1        # y - 1 (up the text)
    E = 2        # x + 1
    S = 3        # y + 1
    W = 4        # x - 1


NUM_COMMANDS = len(Command)
COMMAND_NAMES = ("stay", "N", "E", "S", "W")
# (dx, dy) of each command
COMMAND_DELTAS = np.array([(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0)], dtype=np.int64)


class Plane(IntEnum):
    """Observation planes ``obs[plane, y, x]`` from the observing colony's side.

    Binary planes hold 0 / full (255 in uint8, 1.0 in float32: the core's ``OBS_ONE``);
    hills are full while standing and half once razed; scalars are constant planes."""
    OWN_ANTS = 0           # binary: the colony's own ants
    ENEMY_ANTS_1 = 1       # binary: the ants of the next colony (own index + 1, mod
                           # players)
    ENEMY_ANTS_2 = 2       # binary: colony own index + 2 (zero with fewer players)
    ENEMY_ANTS_3 = 3       # binary: colony own index + 3 (zero with fewer players)
    FOOD = 4               # binary
    OWN_HILLS = 5          # full: standing, half: razed
    ENEMY_HILLS = 6        # full: standing, half: razed (any enemy colony)
    WATER = 7              # binary
    STORED_FOOD = 8        # constant: min(stored food, FOOD_OBS_CAP) / FOOD_OBS_CAP
    TURN = 9               # constant: turn / max_turns
    ALIVE_PLAYERS = 10     # constant: colonies still in the game / colonies
    HILL_PROXIMITY = 11    # full on a standing enemy hill, falling to 0 at HILL_REACH steps


NUM_PLANES = len(Plane)
FOOD_OBS_CAP = 20
# HILL_PROXIMITY: a land cell d steps (moves over land) from the nearest standing enemy
# hill shows full * (HILL_REACH - d) / HILL_REACH; cells HILL_REACH or more steps away,
# cut off, or water show 0.  64: 4 uint8 values a step, across any map up to 32 x 32.
HILL_REACH = 64
UNREACHED = -1               # a distance map's cells no search reached (yet)

# win_loss rank key: (turn of elimination, or max_turns + 1 while alive) * weight + score
RANK_TURN_WEIGHT = 1.0e7

# -- ASCII --------------------------------------------------------------------------------
# maps: terrain and hills
CHAR_LAND = "."
CHAR_WATER = "%"
CHAR_HILLS = "0123456789"      # a hill of player k (players >= MAX_PLAYERS are rejected)
CHAR_FREE_HILL = "*"           # an unassigned hill, dealt at random at every reset
MAP_CHARS = CHAR_LAND + CHAR_WATER + CHAR_HILLS + CHAR_FREE_HILL
# boards (snapshots, ansi renders, scenario tests): the map characters plus
CHAR_FOOD = "f"
CHAR_ANTS = "abcd"             # an ant of colony 0..3 on a cell that is not a hill
CHAR_ANTS_ON_HILL = "ABCD"     # an ant of colony 0..3 standing on a hill
CHAR_RAZED = "x"               # a razed hill without an ant
BOARD_CHARS = CHAR_LAND + CHAR_WATER + CHAR_HILLS[:MAX_PLAYERS] + CHAR_FOOD + CHAR_ANTS \
    + CHAR_ANTS_ON_HILL + CHAR_RAZED

# PPM colours
PPM_LAND = (255, 255, 255)
PPM_WATER = (0, 0, 255)
PPM_HILL = (255, 0, 0)
