"""Paint's state: the one table of arrays, each with a leading env axis E.

| field        | shape, dtype        | meaning                                               |
|--------------|---------------------|-------------------------------------------------------|
| colour       | [E, H, W] int16     | NEUTRAL, OBSTACLE, or p + 1 for player p's colour      |
| positions    | [E, A, 2] int16     | avatar [row, col]                                     |
| scores       | [E, A] int32        | squares of each player's colour                        |
| prev_scores  | [E, A] int32        | scores before the last step (for rewards)              |
| turns_left   | [E] int32           | turns until the game ends                             |
| steps        | [E] int32           | steps since the reset                                 |
| over         | [E] bool            | the game has ended (or was truncated)                  |
| shot_stamp   | [E, H, W] int32     | turns_left of the turn a shot last painted the square  |
| walk_from    | [E, A, 2] int16     | scratch: squares before this turn's walks              |
| occupancy    | [E, H, W] int16     | scratch: avatars per square while walks resolve        |
| shot_pos     | [E, A, 2] int16     | scratch: square of each flying shot                    |
| shot_dir     | [E, A] int8         | scratch: direction of each shot, NO_SHOT if none       |
| shot_range   | [E, A] int16        | scratch: squares each shot may still fly               |
| bfs_queue    | [E, H*W] int32      | scratch: flat squares of a breadth-first search        |
| bfs_dist     | [E, H, W] int32     | scratch: distances of a breadth-first search           |
| rng          | [E, NUM_STREAMS] u64| per-env random streams (see core.rng)                  |
"""
from collections import namedtuple

import numpy as np

from ...core.rng import NUM_STREAMS

FIELDS = (
    ("colour", lambda H, W, A: (H, W), np.int16),
    ("positions", lambda H, W, A: (A, 2), np.int16),
    ("scores", lambda H, W, A: (A,), np.int32),
    ("prev_scores", lambda H, W, A: (A,), np.int32),
    ("turns_left", lambda H, W, A: (), np.int32),
    ("steps", lambda H, W, A: (), np.int32),
    ("over", lambda H, W, A: (), np.bool_),
    ("shot_stamp", lambda H, W, A: (H, W), np.int32),
    ("walk_from", lambda H, W, A: (A, 2), np.int16),
    ("occupancy", lambda H, W, A: (H, W), np.int16),
    ("shot_pos", lambda H, W, A: (A, 2), np.int16),
    ("shot_dir", lambda H, W, A: (A,), np.int8),
    ("shot_range", lambda H, W, A: (A,), np.int16),
    ("bfs_queue", lambda H, W, A: (H * W,), np.int32),
    ("bfs_dist", lambda H, W, A: (H, W), np.int32),
    ("rng", lambda H, W, A: (NUM_STREAMS,), np.uint64),
)

State = namedtuple("State", [name for name, _, _ in FIELDS])


def alloc(num_envs, height, width, num_players):
    """Zeroed state for ``num_envs`` envs of an ``height x width`` board."""
    return State(*[np.zeros((num_envs,) + shape(height, width, num_players), dtype=dtype)
                   for _, shape, dtype in FIELDS])
