"""Dungeon's prefetching, the step's memory plumbing (``core.loop`` calls
``prefetch_ahead`` while it steps env e).

At batch 4096 an env's grids, lists and observation lines are far from the core.  The
step loop prefetches in two stages while it steps env e: env e + 2 ``AHEAD``'s record
(its small fields, see ``core.layout``) and its entries in the caller's buffers
(``prefetch_record``), then the lines of env e + ``AHEAD`` whose addresses the record
gives (``prefetch_env``: its state's grids and lists, its scattered observation lines).
The record and its prefetch, with the state in one huge-page block: ~1.15x the steps/s at
batch 4096.
"""
from ...core import layout
from ...core.jit import phase
from ...core.prefetch import LINE, prefetch
from .observe import MARKED_PLANES, PLAYER_PLANES

AHEAD = 2          # the serial step driver prefetches env e + AHEAD while it steps env e


@phase
def prefetch_grid(grid, e):
    """Prefetch every line of env e's ``grid[e, y, x]``."""
    height, width = grid.shape[1], grid.shape[2]
    rows = max(1, LINE // (width * grid.itemsize))    # rows per step: no line skipped
    for y in range(0, height, rows):
        prefetch(grid, (e, y, 0))
    prefetch(grid, (e, height - 1, width - 1))


@phase
def prefetch_env(s, e, planes):
    """Prefetch the lines env e's next step is bound to touch: its board grids, the first
    lines of its bombs, fire, ammo and spawn lists and of the bombs' arms, and the
    observation lines its observe (``observe.draw_observation``) touches, scattered over its planes
    (``planes[a, plane, cell]``): every player's cell as last drawn (``shown_at``) in the
    players' planes, and the bombs and danger planes while they hold or need marks.  A
    hint only: nothing is written."""
    for grid in (s.tiles, s.ore_hp):
        prefetch_grid(grid, e)
    prefetch_grid(s.bomb_grid, e)
    for row in (s.shown_tiles, s.shown_ore):
        for i in range(0, row.shape[1], LINE):
            prefetch(row, (e, i))
    for first in (s.bomb_x, s.bomb_y, s.bomb_timer, s.pending, s.ammo_x, s.ammo_y,
                  s.ammo_life, s.hit_in):
        prefetch(first, (e, 0))
    for first in (s.bomb_owner, s.bomb_power):
        prefetch(first, (e, 0))
    for arms in (s.blast, s.fire_reach):
        prefetch(arms, (e, 0, 0))
    prefetch(s.chain, (e, 0, 0))
    if s.num_fires[e] > 0:
        for first in (s.fire_x, s.fire_y):
            prefetch(first, (e, 0))
        prefetch(s.fire_owner, (e, 0))
    shown_at = s.shown_at[e]
    cells = planes.shape[2]
    marks = (s.marked_bombs[e] > 0 or s.marked_fires[e] > 0 or s.num_bombs[e] > 0
             or s.num_fires[e] > 0)
    for a in range(planes.shape[0]):
        for b in range(shown_at.shape[0]):
            for k in PLAYER_PLANES:
                prefetch(planes, (a, k, shown_at[b]))
        if marks:
            for k in MARKED_PLANES:
                for i in range(0, cells, LINE):
                    prefetch(planes, (a, k, i))
                prefetch(planes, (a, k, cells - 1))


@phase
def prefetch_record(s, e, actions, masks, rewards, terminated, truncated):
    """Prefetch env e's record (its small fields, see ``core.layout``: what ``prefetch_env``
    reads ``AHEAD`` envs later), its random streams and its entries in the caller's
    buffers."""
    layout.prefetch_record(s.records, e)
    prefetch(s.rng, (e, 0))
    prefetch(actions, (e, 0))
    prefetch(masks, (e, 0, 0))
    prefetch(masks, (e, masks.shape[1] - 1, masks.shape[2] - 1))
    prefetch(rewards, (e, 0))
    prefetch(terminated, (e, 0))
    prefetch(truncated, (e, 0))


@phase
def prefetch_ahead(s, p, e, hi, actions, masks, rewards, terminated, truncated, views,
                   journals):
    """While env e is stepped: env e + 2 ``AHEAD``'s record, then env e + ``AHEAD``'s
    lines (see above)."""
    if e + 2 * AHEAD < hi:
        prefetch_record(s, e + 2 * AHEAD, actions, masks, rewards, terminated, truncated)
    if e + AHEAD < hi:
        prefetch_env(s, e + AHEAD, views[2][e + AHEAD])
