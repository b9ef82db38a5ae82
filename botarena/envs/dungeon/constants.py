"""Dungeon's codes: tiles, actions, observation planes, ASCII characters and fixed limits."""
from enum import IntEnum

import numpy as np

# -- tiles (``state.tiles``): what a cell holds besides players, bombs and fire ---------
FLOOR = 0
METAL = 1      # indestructible block (the blocks METAL, WOOD, ORE are consecutive codes)
WOOD = 2       # one hit
ORE = 3        # ``Config.ore_hp`` hits
AMMO = 4       # an ammo token on the floor
TREASURE = 5   # a treasure chest on the floor
NUM_TILES = 6  # the tiles above: all a cell can hold between ticks
# only inside a tick (phase 8 turns them into FLOOR): what went this tick stays in the way
# of this tick's spawns, and a block stays in the way of this tick's new fire
BROKEN_WOOD = 6   # a wooden block destroyed this tick (BROKEN_WOOD, BROKEN_ORE consecutive)
BROKEN_ORE = 7    # an ore block destroyed this tick
CLEARED = 8       # an item taken or perished this tick

MIN_PLAYERS = 2
MAX_PLAYERS = 4          # players 0..3 in the ASCII format
RANDOM_BOARD = "random"  # Config.board value asking for a generated map at every reset
NUM_DIRS = 4             # fire arms: up, down, left, right (the move actions' order)


class Action(IntEnum):
    """The seed's actions in its order: '' u d l r p."""
    NOOP = 0
    UP = 1       # y + 1
    DOWN = 2     # y - 1
    LEFT = 3     # x - 1
    RIGHT = 4    # x + 1
    BOMB = 5


NUM_ACTIONS = len(Action)
ACTION_NAMES = ("", "u", "d", "l", "r", "p")   # the seed's strings, by action index
# (dx, dy) of actions 0..4 (0 stays); fire arms use rows 1..4
ACTION_DELTAS = np.array([(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0)], dtype=np.int64)


class Plane(IntEnum):
    """Observation planes ``obs[plane, y, x]``, from the observing player's side.

    Binary planes hold 0 / 1, graded planes 0..1, stored as 0..255 in uint8 (the core's
    ``OBS_ONE``, so that SB3 reads uint8 planes as an image and scales them itself).  Scalars are constant planes.  Planes METAL..TIME_LEFT are the same for
    every player."""
    METAL = 0          # binary
    WOOD = 1           # binary
    ORE = 2            # graded: hits left / ore_hp
    BOMB = 3           # graded: ticks until the bomb turns into fire / bomb_fuse
    DANGER = 4         # graded: fire and foreseen fire: FULL = fire hitting during the next
                       # tick, then falling with the ticks until a bomb's fire hits (chains
                       # included, on the current board) down to FULL / (bomb_fuse + 1)
    AMMO = 5           # binary
    TREASURE = 6       # binary
    BODY = 7           # binary: dead players' bodies (solid)
    TIME_LEFT = 8      # constant: ticks left / max_turns
    OWN = 9            # binary: the observing player (alive)
    OPPONENT = 10      # graded: other living players, by HP / player_hp
    OWN_HP = 11        # constant: hp / player_hp
    OWN_AMMO = 12      # constant: min(ammo, AMMO_OBS_CAP) / AMMO_OBS_CAP
    OWN_POWER = 13     # constant: min(power, POWER_OBS_CAP) / POWER_OBS_CAP
    OWN_SCORE = 14     # constant: (clip(score - best opponent score, +-SCORE_OBS_CAP)
                       # + SCORE_OBS_CAP) / (2 * SCORE_OBS_CAP)


NUM_PLANES = len(Plane)
AMMO_OBS_CAP = 10
POWER_OBS_CAP = 10
SCORE_OBS_CAP = 100      # score margins beyond +-100 saturate the OWN_SCORE plane

# win_loss rank key: (tick of death, or max_turns + 1 if alive) * RANK_TICK_WEIGHT, plus the
# score while alive (players dying on the same tick tie, whatever their scores)
RANK_TICK_WEIGHT = 1.0e7

# -- ASCII (text row 0 is the top of the board, y = height - 1) -------------------------
CHAR_FLOOR = "."
CHAR_METAL = "#"
CHAR_WOOD = "w"
CHAR_ORE = "o"
CHAR_AMMO = "a"
CHAR_TREASURE = "t"
CHAR_PLAYERS = "0123"
# output only (snapshot boards and ansi renders)
CHAR_BOMB = "b"
CHAR_BODY = "x"
CHAR_FIRE = "*"
TILE_CHARS = {FLOOR: CHAR_FLOOR, METAL: CHAR_METAL, WOOD: CHAR_WOOD, ORE: CHAR_ORE,
              AMMO: CHAR_AMMO, TREASURE: CHAR_TREASURE}
CHAR_TILES = {ch: tile for tile, ch in TILE_CHARS.items()}
