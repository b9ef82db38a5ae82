"""Ants' state: the one table of arrays, each with a leading env axis E.

Grids are indexed ``[y, x]`` (y = 0 is the top row).  ``C = H * W`` bounds the ant pool
(one ant per cell at most between turns) and the list of cells holding food; ``K`` is the
number of hills of the map; ``A`` the number of colonies.  No array grows with the number
of ants or food.

| field         | shape, dtype          | meaning                                                 |
|---------------|-----------------------|---------------------------------------------------------|
| ant_x, ant_y  | [E, C] int16          | living ants, entries ``[:num_ants]``, oldest first      |
| ant_owner     | [E, C] int8           | colony of each ant                                      |
| ant_id        | [E, C] int32          | each ant's id (0, 1, ... in spawn order per game)       |
| num_ants      | [E] int32             | ants in the pool                                        |
| next_ant_id   | [E] int32             | id of the next ant to spawn                             |
| ant_at        | [E, H, W] int16 (*)   | pool index of the ant on each cell, -1 if none          |
| food_x, food_y| [E, C] int16          | the cells holding food, entries ``[:num_food]``, in the |
|               |                       | order food first landed on them (oldest first)          |
| num_food      | [E] int32             | cells holding food                                      |
| food_total    | [E] int32             | food on the map (current_food_count: sum of food_at)    |
| food_at       | [E, H, W] (**)        | how many food lie on each cell                          |
| hill_x, hill_y| [E, K] int16          | the map's hills in hill-id order: the map's reading     |
|               |                       | order after a reset; dealt hills first, in the order    |
|               |                       | given, after a restore                                  |
| hill_owner    | [E, K] int8           | colony it was dealt to; -1: not dealt (plain land)      |
| hill_razed    | [E, K] bool           | razed (spawns no more)                                  |
| stored_food   | [E, A] int32          | each colony's stored food                               |
| alive         | [E, A] bool           | the colony is still in the game                         |
| elim_turn     | [E, A] int32          | turn it was eliminated (max_turns + 1 while alive)      |
| scores        | [E, A] int32          | the game's points                                       |
| prev_scores   | [E, A] int32          | scores before the last step (for rewards)               |
| prev_alive    | [E, A] bool           | alive before the last step (for rewards)                |
| rank_key      | [E, A] float64        | elim_turn * RANK_TURN_WEIGHT + score (win_loss)         |
| turn          | [E] int32             | turns played in this game                               |
| steps         | [E] int32             | steps since the reset (= turn)                          |
| over          | [E] bool              | the game has ended (or was truncated)                   |
| focus         | [E, C] int32          | scratch: focus_split of each ant                        |
| dead          | [E, C] bool           | scratch: ants marked to die                             |
| order         | [E, K] int32          | scratch: a colony's free hills, shuffled                |
| box           | [E, A, 4] int32       | scratch: each colony's ants' bounding box (rules)       |
| shown_x/_y    | [E, C] int16          | scratch: the food list the planes show (observe)        |
| rng           | [E, NUM_STREAMS] u64  | per-env random streams (see core.rng)                   |

(*) int32 on maps of more than 32768 cells (a cell index or pool index must fit).
(**) the smallest unsigned integer type holding ``max_food``: food spawns only while the
map holds less than ``max_food``, so no cell holds more (uint8 by default).
"""
from collections import namedtuple

import numpy as np

from ...core.rng import NUM_STREAMS


def cell_index(H, W, max_food):
    """The smallest signed integer type holding every cell index (and -1)."""
    return np.int16 if H * W - 1 <= np.iinfo(np.int16).max else np.int32


def food_count_type(H, W, max_food):
    """The type of ``food_at``: the smallest unsigned integer type holding ``max_food``."""
    return np.min_scalar_type(max_food)


# (name, shape of one env from (H, W, A, K), dtype: a numpy type or a function of
# (H, W, max_food) choosing one)
FIELDS = (
    ("ant_x", lambda H, W, A, K: (H * W,), np.int16),
    ("ant_y", lambda H, W, A, K: (H * W,), np.int16),
    ("ant_owner", lambda H, W, A, K: (H * W,), np.int8),
    ("ant_id", lambda H, W, A, K: (H * W,), np.int32),
    ("num_ants", lambda H, W, A, K: (), np.int32),
    ("next_ant_id", lambda H, W, A, K: (), np.int32),
    ("ant_at", lambda H, W, A, K: (H, W), cell_index),
    ("food_x", lambda H, W, A, K: (H * W,), np.int16),
    ("food_y", lambda H, W, A, K: (H * W,), np.int16),
    ("num_food", lambda H, W, A, K: (), np.int32),
    ("food_total", lambda H, W, A, K: (), np.int32),
    ("food_at", lambda H, W, A, K: (H, W), food_count_type),
    ("hill_x", lambda H, W, A, K: (K,), np.int16),
    ("hill_y", lambda H, W, A, K: (K,), np.int16),
    ("hill_owner", lambda H, W, A, K: (K,), np.int8),
    ("hill_razed", lambda H, W, A, K: (K,), np.bool_),
    ("stored_food", lambda H, W, A, K: (A,), np.int32),
    ("alive", lambda H, W, A, K: (A,), np.bool_),
    ("elim_turn", lambda H, W, A, K: (A,), np.int32),
    ("scores", lambda H, W, A, K: (A,), np.int32),
    ("prev_scores", lambda H, W, A, K: (A,), np.int32),
    ("prev_alive", lambda H, W, A, K: (A,), np.bool_),
    ("rank_key", lambda H, W, A, K: (A,), np.float64),
    ("turn", lambda H, W, A, K: (), np.int32),
    ("steps", lambda H, W, A, K: (), np.int32),
    ("over", lambda H, W, A, K: (), np.bool_),
    ("focus", lambda H, W, A, K: (H * W,), np.int32),
    ("dead", lambda H, W, A, K: (H * W,), np.bool_),
    ("order", lambda H, W, A, K: (K,), np.int32),
    ("box", lambda H, W, A, K: (A, 4), np.int32),
    ("shown_x", lambda H, W, A, K: (H * W,), np.int16),
    ("shown_y", lambda H, W, A, K: (H * W,), np.int16),
    ("rng", lambda H, W, A, K: (NUM_STREAMS,), np.uint64),
)

State = namedtuple("State", [name for name, _, _ in FIELDS])


def alloc(num_envs, height, width, num_players, num_hills, max_food):
    """Zeroed state for ``num_envs`` envs of an ``height x width`` map with ``num_hills``
    (``max_food``: the rules' max_food_count, which types ``food_at``)."""
    return State(*[np.zeros((num_envs,) + shape(height, width, num_players, num_hills),
                            dtype=dtype if isinstance(dtype, type)
                            else dtype(height, width, max_food))
                   for _, shape, dtype in FIELDS])
