"""Towers' codes: terrain, commands, bot command kinds, observation planes, characters.

Coordinates follow the seed: a position is ``(x, y)`` with ``x`` going DOWN (the row) and
``y`` going RIGHT (the column), as a 2-d array is indexed; grids are indexed ``[x, y]``
and a tile's flat index is ``x * N + y`` (``N`` the map size).  A bot's position is
continuous (``0 <= x, y < N``); its tile is ``(floor(x), floor(y))``.  A tower fills one
tile; its position is the tile's midpoint ``(x + 0.5, y + 0.5)``.

Player 1 sees and commands from the opposite corner: its view of tile ``(x, y)`` is the
absolute tile ``(N - 1 - x, N - 1 - y)`` (a flat index ``t`` becomes ``N * N - 1 - t``),
a position ``(x, y)`` becomes ``(N - x, N - y)`` and every direction its opposite.
"""
from enum import IntEnum

import numpy as np

from ...core.grid import DIRECTIONS, NUM_DIRECTIONS

# -- terrain (``state.terrain``) ----------------------------------------------------------
LAND = 0
WATER = 1
FLAG = 2
MAP_LETTERS = "LWF"          # the map file's letter of each terrain code
RANDOM_BOARD = "random"      # Config.board value: a new generated map at every reset

NUM_PLAYERS = 2
NO_UNIT = -1
UNREACHED = -1               # a distance field's tiles no search reached
FIELD_SLOTS = 4              # distance fields an env keeps (by destination tile)
MAX_LEGS = 8                 # straight legs of a bot's walk within one turn, at most
ARRIVED = 1e-6               # a bot this close to its target stands on it


class Command(IntEnum):
    """The command for the own units on a tile (one entry per tile of the player's view)."""
    NOOP = 0        # units carry on with their current command
    MOVE_N = 1      # move to the neighbouring tile's centre: x - 1 (up)
    MOVE_NE = 2     # x - 1, y + 1
    MOVE_E = 3      # y + 1 (right)
    MOVE_SE = 4     # x + 1, y + 1
    MOVE_S = 5      # x + 1 (down)
    MOVE_SW = 6     # x + 1, y - 1
    MOVE_W = 7      # y - 1 (left)
    MOVE_NW = 8     # x - 1, y - 1
    BLAST = 9       # bots blast where they stand; a tower blasts (if old enough)
    TRANSFORM = 10  # bots transform into a tower on their tile (keep trying while occupied)


NUM_COMMANDS = len(Command)
FIRST_MOVE = int(Command.MOVE_N)
COMMAND_NAMES = ("noop", "N", "NE", "E", "SE", "S", "SW", "W", "NW", "blast", "transform")
# (dx, dy) of each move command's direction, in Command order (core.grid's compass order)
MOVE_DELTAS = DIRECTIONS
OPPOSITE = (np.arange(NUM_DIRECTIONS) + NUM_DIRECTIONS // 2) % NUM_DIRECTIONS


class BotCommand(IntEnum):
    """A bot's current command (``state.bot_cmd``), kept until it is done or replaced."""
    IDLE = 0
    MOVE = 1        # walk to the target position; idle once there
    BLAST = 2       # walk to the target, then blast there (the turn after arriving)
    TRANSFORM = 3   # walk to the target's tile, then transform as soon as it is free


BOT_COMMAND_NAMES = ("idle", "move", "blast", "transform")


class Plane(IntEnum):
    """Observation planes ``obs[plane, x, y]`` from the observing player's side (player
    1's mirrored).  Binary planes hold 0 / full (255 in uint8, 1.0 in float32)."""
    OWN_BOTS = 0           # min(living own bots on the tile, BOT_COUNT_CAP) / BOT_COUNT_CAP
    OWN_BOT_HP = 1         # their mean HP / max_bot_hp
    ENEMY_BOTS = 2         # as OWN_BOTS for the enemy's bots
    ENEMY_BOT_HP = 3       # their mean HP / max_bot_hp
    OWN_TOWERS = 4         # full on an own living tower
    OWN_TOWER_HP = 5       # its HP / max_tower_hp
    OWN_TOWER_READY = 6    # full if it may blast (age >= tower_min_blast_age)
    ENEMY_TOWERS = 7       # full on an enemy living tower
    ENEMY_TOWER_HP = 8     # its HP / max_tower_hp
    ENEMY_TOWER_READY = 9  # full if it may blast
    WATER = 10             # binary
    FLAG = 11              # binary: flag tiles
    TURN = 12              # constant: turn / num_turns
    SCORE_MARGIN = 13      # constant: 1/2 + (own - enemy game points) / (2 MARGIN_CAP), clipped
    TURN_SCORE_MARGIN = 14  # constant: the same for the last turn score, over TURN_SCORE_CAP


NUM_PLANES = len(Plane)
BOT_COUNT_CAP = 16
MARGIN_CAP = 100
TURN_SCORE_CAP = 250

# -- ASCII boards (snapshot()["board"], render ansi, scenario tests) ----------------------
CHAR_TERRAIN = ".~!"         # land, water, flag (by terrain code)
CHAR_BOTS = "ab"             # bots of player 0 / 1 on land
CHAR_BOTS_ON_FLAG = "AB"     # ... on a flag tile
CHAR_TOWERS = "xy"           # a tower of player 0 / 1 on land
CHAR_TOWERS_ON_FLAG = "XY"   # ... on a flag tile
CHAR_MIXED = "*"             # bots of both players on one tile
