"""Paint's codes: square colours, actions and observation planes."""
from enum import IntEnum

from ...core.grid import NUM_DIRECTIONS

NEUTRAL = 0      # an unpainted square; player p's colour is p + 1
OBSTACLE = -1    # a square nobody can enter or paint

NO_SHOT = -1     # shot direction of an avatar that does not shoot (or whose shot ended)
SHOT_STOPPED = -2  # shot direction of a shot stopped in the current round of flight
MAX_ASCII_PLAYERS = 26  # players a..z / A..Z in the ASCII board format
RANDOM_BOARD = "random"  # Config.board value asking for a generated board at every reset


class Action(IntEnum):
    """0 stays, 1..8 walk and 9..16 shoot, in the directions N, NE, E, SE, S, SW, W, NW."""
    STAY = 0
    WALK_N = 1
    WALK_NE = 2
    WALK_E = 3
    WALK_SE = 4
    WALK_S = 5
    WALK_SW = 6
    WALK_W = 7
    WALK_NW = 8
    SHOOT_N = 9
    SHOOT_NE = 10
    SHOOT_E = 11
    SHOOT_SE = 12
    SHOOT_S = 13
    SHOOT_SW = 14
    SHOOT_W = 15
    SHOOT_NW = 16


FIRST_WALK = int(Action.WALK_N)
FIRST_SHOOT = int(Action.SHOOT_N)
NUM_ACTIONS = 1 + 2 * NUM_DIRECTIONS


class Plane(IntEnum):
    """Observation planes, from the observing agent's side."""
    OWN_PAINT = 0          # binary: squares in the own colour
    OPPONENT_PAINT = 1     # binary: squares in any opponent's colour
    OBSTACLE = 2           # binary: obstacles (and, in the ego view, squares off the board)
    OWN_AVATAR = 3         # binary: the observing player's avatar
    OPPONENT_AVATAR = 4    # binary: the other players' avatars
    TIME_LEFT = 5          # constant: turns_left / max_turns


NUM_PLANES = len(Plane)

# Board characters of the ASCII format.
CHAR_NEUTRAL = "."
CHAR_OBSTACLE = "#"
CHAR_PAINT = "abcdefghijklmnopqrstuvwxyz"
CHAR_AVATAR = CHAR_PAINT.upper()
CHAR_PAINT_MANY = "*"    # paint of a player beyond z (generated boards only)
CHAR_AVATAR_MANY = "@"   # avatar of a player beyond Z
