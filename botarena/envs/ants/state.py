"""Ants' state: the one table of arrays, each with a leading env axis E.

Grids are indexed ``[y, x]`` (y = 0 is the top row).  ``C = H * W`` bounds the ant and
food pools (one ant and one food per cell at most between turns); ``K`` is the number of
hills of the map; ``A`` the number of colonies.  No array grows with the number of ants.

| field         | shape, dtype          | meaning                                                 |
|---------------|-----------------------|---------------------------------------------------------|
| ant_x, ant_y  | [E, C] int16          | living ants, entries ``[:num_ants]``, oldest first      |
| ant_owner     | [E, C] int8           | colony of each ant                                      |
| ant_id        | [E, C] int32          | each ant's id (0, 1, ... in spawn order per game)       |
| num_ants      | [E] int32             | ants in the pool                                        |
| next_ant_id   | [E] int32             | id of the next ant to spawn                             |
| ant_at        | [E, H, W] int16 (*)   | pool index of the ant on each cell, -1 if none          |
| food_x, food_y| [E, C] int16          | food on the map, entries ``[:num_food]``                |
| num_food      | [E] int32             | food on the map (current_food_count)                    |
| food_at       | [E, H, W] uint8       | 1 where a food lies                                     |
| hill_x, hill_y| [E, K] int16          | the map's hills (reading order)                         |
| hill_owner    | [E, K] int8           | colony it was dealt to; -1: not dealt (plain land)      |
| hill_razed    | [E, K] bool           | razed (spawns no more)                                  |
| hill_at       | [E, H, W] int16       | hill index on each cell (dealt hills only), -1 if none  |
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
| focus         | [E, C] int32          | scratch: focus_split of each ant; distances (kernel)    |
| dead          | [E, C] bool           | scratch: ants marked to die                             |
| order         | [E, K] int32          | scratch: a colony's free hills, shuffled                |
| cells         | [E, C] int16 (*)      | scratch: candidate cells for new food; the queue of the |
|               |                       | hill-proximity search (kernel)                          |
| box           | [E, A, 4] int32       | scratch: each colony's ants' bounding box (rules)       |
| shown_x/_y    | [E, C] int16          | scratch: the food list the planes show (kernel)         |
| rng           | [E, NUM_STREAMS] u64  | per-env random streams (see core.rng)                   |

(*) int32 on maps of more than 32768 cells (a cell index or pool index must fit).
"""
from collections import namedtuple

import numpy as np

from ...core.rng import NUM_STREAMS


def cell_index(H, W):
    """The smallest signed integer type holding every cell index (and -1)."""
    return np.int16 if H * W - 1 <= np.iinfo(np.int16).max else np.int32


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
    ("food_at", lambda H, W, A, K: (H, W), np.uint8),
    ("hill_x", lambda H, W, A, K: (K,), np.int16),
    ("hill_y", lambda H, W, A, K: (K,), np.int16),
    ("hill_owner", lambda H, W, A, K: (K,), np.int8),
    ("hill_razed", lambda H, W, A, K: (K,), np.bool_),
    ("hill_at", lambda H, W, A, K: (H, W), np.int16),
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
    ("cells", lambda H, W, A, K: (H * W,), cell_index),
    ("box", lambda H, W, A, K: (A, 4), np.int32),
    ("shown_x", lambda H, W, A, K: (H * W,), np.int16),
    ("shown_y", lambda H, W, A, K: (H * W,), np.int16),
    ("rng", lambda H, W, A, K: (NUM_STREAMS,), np.uint64),
)

State = namedtuple("State", [name for name, _, _ in FIELDS])


def alloc(num_envs, height, width, num_players, num_hills):
    """Zeroed state for ``num_envs`` envs of an ``height x width`` map with ``num_hills``."""
    return State(*[np.zeros((num_envs,) + shape(height, width, num_players, num_hills),
                            dtype=dtype if isinstance(dtype, type) else dtype(height, width))
                   for _, shape, dtype in FIELDS])
