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
| death_tick    | [E, A] int32          | tick the player died (max_ticks + 1 while alive)       |
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

The small fields (counters, players' positions, HP, scores, flags, timers:
``RECORD_MAX`` bytes an env or less, not sized by the board, but for ``OWN_ARRAY``) are
strided views into one
record per env (``records``), so one env's lie in a few neighbouring cache lines; the
others are C-contiguous arrays.
"""
import mmap
from collections import namedtuple

import numpy as np

from ...core.prefetch import LINE
from ...core.rng import NUM_STREAMS
from .constants import NUM_PLANES

HUGE_PAGE = 2 * 2**20   # bytes of a huge page (x86-64, arm64 with 4 KiB base pages)
RECORD_MAX = 64         # bytes an env: a field at most this large lives in the env's record
RECORD_ALIGN = 8        # a record's size is a multiple of the largest itemsize (8 bytes)
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
    ``ammo_delay`` ticks, plus one per token that perished (at most one per cell)."""
    return num_players * (ammo_delay + 1) + height * width


def _record_layout(shapes, in_record):
    """Offset of each field in an env's record (None for the fields not ``in_record`` and
    those larger than ``RECORD_MAX``) and the record's size; a field starts at a multiple
    of its itemsize."""
    offsets, size = [], 0
    for (shape, dtype), wanted in zip(shapes, in_record):
        nbytes = int(np.prod(shape[1:])) * dtype.itemsize
        if nbytes > RECORD_MAX or not wanted:
            offsets.append(None)
            continue
        size = -(-size // dtype.itemsize) * dtype.itemsize
        offsets.append(size)
        size += nbytes
    return offsets, -(-size // RECORD_ALIGN) * RECORD_ALIGN


def alloc(num_envs, height, width, num_players, ammo_delay, obs_dtype, ego):
    """Zeroed state for ``num_envs`` envs of an ``height x width`` board; ``ego``: with
    the ego view's scratch of board planes (in ``obs_dtype``).

    One block of memory that the kernel is asked to back with huge pages: the records
    (``records``), then each large field from a cache line's start.  As one array each,
    the ~25 small fields were ~25 streams of lines that a step read at scattered places;
    the record puts them in one ~3-line span an env that the step driver prefetches
    (``kernel.prefetch_record``)."""
    P = pending_capacity(height, width, num_players, ammo_delay)
    cells = height * width if ego else 0
    shapes = [((num_envs,) + shape(height, width, num_players, P), np.dtype(dtype))
              for _, shape, dtype in FIELDS]
    shapes += [((num_envs, num_players, NUM_PLANES), np.dtype(obs_dtype)),
               ((num_envs, num_players, NUM_PLANES, cells), np.dtype(obs_dtype))]
    # fields sized by the board stay C-contiguous on every board (the kernels reshape the
    # grids, and their types must not depend on the board's size)
    board_sized = [shape(height, width, num_players, P)
                   != shape(2 * height, 2 * width, num_players, 2 * P)
                   for _, shape, _ in FIELDS] + [False, True]
    in_record = [not sized and name not in OWN_ARRAY
                 for name, sized in zip(State._fields, board_sized)]
    offsets, record = _record_layout(shapes, in_record)
    nbytes = [int(np.prod(sh)) * dt.itemsize for sh, dt in shapes]
    spans = [0 if offset is not None else -(-n // LINE) * LINE
             for n, offset in zip(nbytes, offsets)]
    records_span = -(-num_envs * record // LINE) * LINE
    # private anonymous memory: zeroed, page-aligned, and eligible for huge pages (Windows
    # has no such flags: its anonymous maps are zeroed and page-aligned too)
    size = records_span + sum(spans) + HUGE_PAGE
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    block = mmap.mmap(-1, size, flags=flags) if flags else mmap.mmap(-1, size)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        block.madvise(mmap.MADV_HUGEPAGE)
    memory = np.frombuffer(block, dtype=np.uint8)
    records_start = -memory.ctypes.data % HUGE_PAGE
    records = memory[records_start:records_start + num_envs * record].reshape(num_envs, record)
    start = records_start + records_span
    fields = []
    for (sh, dt), n, span, offset in zip(shapes, nbytes, spans, offsets):
        if offset is None:
            fields.append(memory[start:start + n].view(dt).reshape(sh))
            start += span
        else:
            inner = [int(np.prod(sh[i + 1:])) * dt.itemsize for i in range(1, len(sh))]
            fields.append(np.ndarray(sh, dt, buffer=memory, offset=records_start + offset,
                                     strides=[record] + inner))
    return State(*fields, records)
