"""CodeRunner's state: the one table of arrays, each with a leading env axis E.

Positions are ``(row, col)``, row 0 at the top; ``-1, -1`` for a dead character.
``M`` bounds the enemies (the largest map of the pool), ``S`` the pursuit stack,
``Q`` (``constants.QUEUE``) the removed bricks or collected gold at a time.
Turns are absolute turn numbers of the game (the first turn is 0); "-1" means none.

| field          | shape, dtype          | meaning                                               |
|----------------|-----------------------|-------------------------------------------------------|
| cells          | [E, H, W] uint8       | EMPTY, BRICK, LADDER, GOLD or REMOVED (constants)     |
| restore_turn   | [E, H, W] int16       | turn a removed brick is restored (-1: none)           |
| dug_by         | [E, H, W] uint8       | bit a set: runner a dug this removed brick            |
| gold_turn      | [E, H, W] int16       | turn a collected gold reappears (-1: none)            |
| num_holes      | [E] int32             | removed bricks on the map                             |
| hole_queue     | [E, Q] int16          | their cells (r * W + c), a ring buffer in dig order   |
| hole_head      | [E] int32             | index of the oldest removed brick in hole_queue       |
| num_gold_out   | [E] int32             | collected gold waiting to reappear                    |
| gold_queue     | [E, Q] int16          | their cells, a ring buffer in collection order        |
| gold_head      | [E] int32             | index of the oldest in gold_queue                     |
| runner_pos     | [E, 2, 2] int16       | runners (red, blue)                                   |
| runner_alive   | [E, 2] bool           | the runner is on the map                              |
| runner_respawn | [E, 2] int32          | turn a dead runner reappears                          |
| dig_ready      | [E, 2] int32          | first turn the runner may dig again                   |
| died           | [E, 2] bool           | the runner died during the last turn (shaping)        |
| new_visit      | [E, 2] int16          | cell (r * W + c) the runner first visited during the  |
|                |                       | last turn (-1: none; the observation's VISITED)       |
| visited        | [E, H, W] uint8       | 1 where a runner has been (no first-visit points left) |
| scores         | [E, 2] int32          | the game's points                                     |
| prev_scores    | [E, 2] int32          | scores before the last step (rewards)                 |
| alive          | [E, 2] bool           | always True: runners never leave the game             |
| prev_alive     | [E, 2] bool           | always True                                           |
| rank_key       | [E, 2] float64        | the score (win_loss)                                  |
| num_enemies    | [E] int32             | enemies of this map (<= M)                            |
| enemy_pos      | [E, M, 2] int16       | enemies                                               |
| enemy_alive    | [E, M] bool           | the enemy is on the map                               |
| enemy_respawn  | [E, M] int32          | turn a dead enemy reappears (at the end of it)        |
| enemy_next     | [E, M] int32          | first turn the enemy may move again                   |
| enemy_pc       | [E, M] int16          | next letter of its program                            |
| enemy_sp       | [E, M] int16          | pursuit stack depth                                   |
| enemy_stack    | [E, M, S] int8        | pursuit moves made (bottom first)                     |
| enemy_master   | [E, M] int8           | runner that last killed it (-1: none)                 |
| enemy_radius   | [E, M, 2] int16       | chase radius for each runner                          |
| map_id         | [E] int32             | map of the pool this game is played on                |
| turn           | [E] int32             | the next turn to play (turns played)                  |
| steps          | [E] int32             | steps since the reset (= turn)                        |
| over           | [E] bool              | the game has ended (or was truncated)                 |
| runner_new     | [E, 2, 2] int16       | scratch: runners' cells after this turn's moves       |
| runner_dig     | [E, 2] int16          | scratch: column of the brick dug this turn (-1: none) |
| enemy_new      | [E, M, 2] int16       | scratch: enemies' cells after this turn's moves       |
| bot_dist       | [E, H*W] int16        | scratch: bots' search                                 |
| bot_queue      | [E, H*W] int32        | scratch: bots' search                                 |
| bot_first      | [E, H*W] int8         | scratch: bots' search (first move)                    |
| obs_queues     | [E, 4] int32          | scratch: hole head and count, gold head and count as  |
|                |                       | the observations show them                            |
| obs_bars       | [E, 3] int16          | scratch: lengths of the bars shown (dig delays, turn) |
| rng            | [E, NUM_STREAMS] u64  | per-env random streams (see core.rng)                 |
| records        | [E, R] uint8          | the bytes of each env's record: its small fields (at  |
|                |                       | most ``core.layout.RECORD_MAX`` bytes an env each)    |

The small fields (positions, flags, counters, scores, turns) are strided views into one
record per env (``records``, see ``core.layout``); the others are C-contiguous arrays.
"""
from collections import namedtuple

import numpy as np

from ...core.layout import alloc_block
from ...core.rng import NUM_STREAMS
from .constants import HEIGHT as H, QUEUE, WIDTH as W

FIELDS = (
    ("cells", lambda M, S: (H, W), np.uint8),
    ("restore_turn", lambda M, S: (H, W), np.int16),
    ("dug_by", lambda M, S: (H, W), np.uint8),
    ("gold_turn", lambda M, S: (H, W), np.int16),
    ("num_holes", lambda M, S: (), np.int32),
    ("hole_queue", lambda M, S: (QUEUE,), np.int16),
    ("hole_head", lambda M, S: (), np.int32),
    ("num_gold_out", lambda M, S: (), np.int32),
    ("gold_queue", lambda M, S: (QUEUE,), np.int16),
    ("gold_head", lambda M, S: (), np.int32),
    ("runner_pos", lambda M, S: (2, 2), np.int16),
    ("runner_alive", lambda M, S: (2,), np.bool_),
    ("runner_respawn", lambda M, S: (2,), np.int32),
    ("dig_ready", lambda M, S: (2,), np.int32),
    ("died", lambda M, S: (2,), np.bool_),
    ("new_visit", lambda M, S: (2,), np.int16),
    ("visited", lambda M, S: (H, W), np.uint8),
    ("scores", lambda M, S: (2,), np.int32),
    ("prev_scores", lambda M, S: (2,), np.int32),
    ("alive", lambda M, S: (2,), np.bool_),
    ("prev_alive", lambda M, S: (2,), np.bool_),
    ("rank_key", lambda M, S: (2,), np.float64),
    ("num_enemies", lambda M, S: (), np.int32),
    ("enemy_pos", lambda M, S: (M, 2), np.int16),
    ("enemy_alive", lambda M, S: (M,), np.bool_),
    ("enemy_respawn", lambda M, S: (M,), np.int32),
    ("enemy_next", lambda M, S: (M,), np.int32),
    ("enemy_pc", lambda M, S: (M,), np.int16),
    ("enemy_sp", lambda M, S: (M,), np.int16),
    ("enemy_stack", lambda M, S: (M, S), np.int8),
    ("enemy_master", lambda M, S: (M,), np.int8),
    ("enemy_radius", lambda M, S: (M, 2), np.int16),
    ("map_id", lambda M, S: (), np.int32),
    ("turn", lambda M, S: (), np.int32),
    ("steps", lambda M, S: (), np.int32),
    ("over", lambda M, S: (), np.bool_),
    ("runner_new", lambda M, S: (2, 2), np.int16),
    ("runner_dig", lambda M, S: (2,), np.int16),
    ("enemy_new", lambda M, S: (M, 2), np.int16),
    ("bot_dist", lambda M, S: (H * W,), np.int16),
    ("bot_queue", lambda M, S: (H * W,), np.int32),
    ("bot_first", lambda M, S: (H * W,), np.int8),
    ("obs_queues", lambda M, S: (4,), np.int32),
    ("obs_bars", lambda M, S: (3,), np.int16),
    ("rng", lambda M, S: (NUM_STREAMS,), np.uint64),
)

State = namedtuple("State", [name for name, _, _ in FIELDS] + ["records"])


def alloc(num_envs, max_enemies, stack_size):
    """Zeroed state for ``num_envs`` envs, laid out by ``core.layout.alloc_block``: the
    small fields in one record an env (some 35 of them, ~4 cache lines), the large ones
    after, all in one block backed by huge pages."""
    arrays, records = alloc_block([((num_envs,) + shape(max_enemies, stack_size), dtype)
                                   for _, shape, dtype in FIELDS])
    return State(*arrays, records)
