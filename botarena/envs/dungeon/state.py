"""Dungeon's state: the one table of arrays, each with a leading env axis E.

Grids are indexed ``[y, x]`` (y = 0 is the bottom row); positions are ``(x, y)``.
``C = H * W`` bounds every entity pool; ``P`` bounds the pending ammo spawns.

| field         | shape, dtype          | meaning                                                |
|---------------|-----------------------|--------------------------------------------------------|
| tiles         | [E, H, W] uint8       | FLOOR, METAL, WOOD, ORE, AMMO or TREASURE (constants)  |
| ore_hp        | [E, H, W] uint8       | hits an ore block still takes (0 elsewhere)            |
| bomb_grid     | [E, H, W] int16       | index + 1 of the bomb that lies there (0: none)        |
| bomb_x, bomb_y| [E, C] int16          | bombs, in the order they were placed                   |
| bomb_timer    | [E, C] int16          | ticks until the bomb turns into fire (>= 1 between ticks)|
| bomb_owner    | [E, C] int8           | player who placed it                                   |
| bomb_power    | [E, C] int8           | its blast reach                                        |
| num_bombs     | [E] int32             | bombs in the pool                                      |
| fire_x, fire_y| [E, C] int16          | explosion centres (fire that hits during the next tick)|
| fire_owner    | [E, C] int8           | owner of the bomb that exploded                        |
| fire_reach    | [E, C, 4] int8        | cells the fire covers up, down, left, right            |
| num_fires     | [E] int32             | explosions in the pool                                 |
| positions     | [E, A, 2] int16       | players (x, y), bodies of dead players included        |
| hp            | [E, A] int16          | hit points (<= 0: dead)                                |
| prev_hp       | [E, A] int16          | hit points before the last step (hurt_penalty)         |
| ammo          | [E, A] int16          | bombs the player can place                             |
| power         | [E, A] int16          | blast reach of the player's bombs                      |
| alive         | [E, A] bool           | the player is still in the game                        |
| death_tick    | [E, A] int32          | tick the player died (max_turns + 1 while alive)       |
| scores        | [E, A] int32          | the game's points                                      |
| prev_scores   | [E, A] int32          | scores before the last step (for rewards)              |
| prev_alive    | [E, A] bool           | alive before the last step (for rewards)               |
| rank_key      | [E, A] float64        | death_tick * RANK_TICK_WEIGHT + score (win_loss)       |
| ammo_x, ammo_y| [E, C] int16          | ammo tokens on the floor                               |
| ammo_life     | [E, C] int16          | ticks until the token perishes                         |
| num_ammo      | [E] int32             | tokens in the pool                                     |
| pending       | [E, P] int16          | ticks until each scheduled ammo spawn                  |
| num_pending   | [E] int32             | scheduled ammo spawns                                  |
| treasure_timer| [E] int32             | ticks until the next treasure appears                  |
| gone          | [E, C] int32          | flat cells whose block or item went this tick (their   |
|               |                       | tiles BROKEN_* or CLEARED until the tick ends)         |
| num_gone      | [E] int32             | cells in ``gone`` (0 between ticks)                    |
| tick          | [E] int32             | ticks played in this game                              |
| steps         | [E] int32             | steps since the reset (= tick)                         |
| over          | [E] bool              | the game has ended (or was truncated)                  |
| order         | [E, A] int8           | scratch: this tick's action order                      |
| marks         | [E, H, W] uint8       | scratch: generator marks, bots' search                 |
| cells         | [E, C] int32          | scratch: lists of flat cells, free cells per row       |
| hit_in        | [E, C] int16          | scratch: ticks until each bomb's fire hits (observe)   |
| blast         | [E, C, 4] int8        | each bomb's reach up, down, left, right (as last drawn)|
| chain         | [E, C, 4] int16       | the bomb each blast arm ends on (-1: none; last drawn) |
| shown_tiles   | [E, C] uint8          | tiles as the observation last drew them                |
| shown_ore     | [E, C] uint8          | ore hits as the observation last drew them             |
| shown_at      | [E, A] int32          | flat cell where the observation last drew each player  |
| marked_bombs  | [E] int32             | bombs the bombs and danger planes last drew            |
| marked_fires  | [E] int32             | fires the danger plane last drew                       |
| rng           | [E, NUM_STREAMS] u64  | per-env random streams (see core.rng)                  |
| outside       | [E, NUM_PLANES] f64   | scratch: ego view, what each plane reads off the board |
| shown_consts  | [E, A, NUM_PLANES]    | each constant plane's value as the observation last    |
|               | (obs dtype)           | drew it, by plane (the other planes' entries unused)   |
| board_obs     | [E, A, NUM_PLANES, C] | scratch: ego view, the board view before centring (obs |
|               |                       | dtype; no cells when ``view="board"``)                 |
| records       | [E, R] uint8          | each env's record: its small fields side by side       |

The small fields (counters, players' positions, HP, scores, flags, timers: at most
``core.layout.RECORD_MAX`` bytes an env, not sized by the board, but for ``OWN_ARRAY``) are
strided views into one record per env (``records``, see ``core.layout``); the others are
C-contiguous arrays.
"""
from collections import namedtuple

import numpy as np

from ...core.layout import alloc_block
from ...core.rng import NUM_STREAMS
from .constants import NUM_PLANES

# small fields kept out of the records: the bots draw from rng's second stream between
# steps, and the records (an alias of the fields in them) change only through the kernels
OWN_ARRAY = ("rng",)

FIELDS = (
    ("tiles", lambda H, W, A, P: (H, W), np.uint8),
    ("ore_hp", lambda H, W, A, P: (H, W), np.uint8),
    ("bomb_grid", lambda H, W, A, P: (H, W), np.int16),
    ("bomb_x", lambda H, W, A, P: (H * W,), np.int16),
    ("bomb_y", lambda H, W, A, P: (H * W,), np.int16),
    ("bomb_timer", lambda H, W, A, P: (H * W,), np.int16),
    ("bomb_owner", lambda H, W, A, P: (H * W,), np.int8),
    ("bomb_power", lambda H, W, A, P: (H * W,), np.int8),
    ("num_bombs", lambda H, W, A, P: (), np.int32),
    ("fire_x", lambda H, W, A, P: (H * W,), np.int16),
    ("fire_y", lambda H, W, A, P: (H * W,), np.int16),
    ("fire_owner", lambda H, W, A, P: (H * W,), np.int8),
    ("fire_reach", lambda H, W, A, P: (H * W, 4), np.int8),
    ("num_fires", lambda H, W, A, P: (), np.int32),
    ("positions", lambda H, W, A, P: (A, 2), np.int16),
    ("hp", lambda H, W, A, P: (A,), np.int16),
    ("prev_hp", lambda H, W, A, P: (A,), np.int16),
    ("ammo", lambda H, W, A, P: (A,), np.int16),
    ("power", lambda H, W, A, P: (A,), np.int16),
    ("alive", lambda H, W, A, P: (A,), np.bool_),
    ("death_tick", lambda H, W, A, P: (A,), np.int32),
    ("scores", lambda H, W, A, P: (A,), np.int32),
    ("prev_scores", lambda H, W, A, P: (A,), np.int32),
    ("prev_alive", lambda H, W, A, P: (A,), np.bool_),
    ("rank_key", lambda H, W, A, P: (A,), np.float64),
    ("ammo_x", lambda H, W, A, P: (H * W,), np.int16),
    ("ammo_y", lambda H, W, A, P: (H * W,), np.int16),
    ("ammo_life", lambda H, W, A, P: (H * W,), np.int16),
    ("num_ammo", lambda H, W, A, P: (), np.int32),
    ("pending", lambda H, W, A, P: (P,), np.int16),
    ("num_pending", lambda H, W, A, P: (), np.int32),
    ("treasure_timer", lambda H, W, A, P: (), np.int32),
    ("gone", lambda H, W, A, P: (H * W,), np.int32),
    ("num_gone", lambda H, W, A, P: (), np.int32),
    ("tick", lambda H, W, A, P: (), np.int32),
    ("steps", lambda H, W, A, P: (), np.int32),
    ("over", lambda H, W, A, P: (), np.bool_),
    ("order", lambda H, W, A, P: (A,), np.int8),
    ("marks", lambda H, W, A, P: (H, W), np.uint8),
    ("cells", lambda H, W, A, P: (H * W,), np.int32),
    ("hit_in", lambda H, W, A, P: (H * W,), np.int16),
    ("blast", lambda H, W, A, P: (H * W, 4), np.int8),
    ("chain", lambda H, W, A, P: (H * W, 4), np.int16),
    ("shown_tiles", lambda H, W, A, P: (H * W,), np.uint8),
    ("shown_ore", lambda H, W, A, P: (H * W,), np.uint8),
    ("shown_at", lambda H, W, A, P: (A,), np.int32),
    ("marked_bombs", lambda H, W, A, P: (), np.int32),
    ("marked_fires", lambda H, W, A, P: (), np.int32),
    ("rng", lambda H, W, A, P: (NUM_STREAMS,), np.uint64),
    ("outside", lambda H, W, A, P: (NUM_PLANES,), np.float64),
)
# fields in the observation's dtype (alloc's obs_dtype): the constant planes' values as
# drawn, and the ego view's scratch
SHOWN_CONSTS, EGO_SCRATCH = "shown_consts", "board_obs"

State = namedtuple("State", [name for name, _, _ in FIELDS] + [SHOWN_CONSTS, EGO_SCRATCH,
                                                                "records"])


def pending_capacity(height, width, num_players, ammo_delay):
    """Scheduled ammo spawns that can be waiting at once: one per bomb placed in the last
    ``ammo_delay`` ticks, plus one per token that perished in the last ``ammo_respawn``
    ticks (at most one per cell while ``ammo_respawn <= ammo_lifetime``); a spawn
    scheduled beyond that is dropped."""
    return num_players * (ammo_delay + 1) + height * width


def alloc(num_envs, height, width, num_players, ammo_delay, obs_dtype, ego):
    """Zeroed state for ``num_envs`` envs of an ``height x width`` board; ``ego``: with
    the ego view's scratch of board planes (in ``obs_dtype``).  Laid out by
    ``core.layout.alloc_block``: the ~24 small fields in one record an env (~3 cache lines,
    which the step driver prefetches: ``memory.prefetch_record``), the large ones after,
    all in one block backed by huge pages."""
    P = pending_capacity(height, width, num_players, ammo_delay)
    cells = height * width if ego else 0
    shapes = [((num_envs,) + shape(height, width, num_players, P), dtype)
              for _, shape, dtype in FIELDS]
    shapes += [((num_envs, num_players, NUM_PLANES), obs_dtype),
               ((num_envs, num_players, NUM_PLANES, cells), obs_dtype)]
    # fields sized by the board stay C-contiguous on every board (the kernels reshape the
    # grids, and their types must not depend on the board's size)
    board_sized = [shape(height, width, num_players, P)
                   != shape(2 * height, 2 * width, num_players, 2 * P)
                   for _, shape, _ in FIELDS] + [False, True]
    in_record = [not sized and name not in OWN_ARRAY
                 for name, sized in zip(State._fields, board_sized)]
    arrays, records = alloc_block(shapes, in_record)
    return State(*arrays, records)
