"""Ants' prefetching: what the step driver asks the CPU to bring in for the envs after the
one it steps (``prefetch_ahead``, the game's ``prefetch_env``).

At batch 1024 and more, an env's arrays, planes and commands are far from the core, and
a step touches a few dozen scattered cache lines of them.  While the step driver steps
env e, it prefetches (``core.prefetch``, a hint that changes nothing) the lists and grids
of env e + ``AHEAD_LISTS`` (``prefetch_lists``) and the lines at the ants, hills and
constant planes of env e + ``AHEAD`` (``prefetch_ants``, which reads the ant list
prefetched two envs before): ~1.3x kernel speed at batch 1024.
"""
from ...core.jit import phase
from ...core.prefetch import LINE, prefetch
from .constants import NUM_COMMANDS
from .observe import P_ALIVE, P_ENEMY_HILLS, P_OWN, P_OWN_HILLS, P_STORED, P_TURN

AHEAD_LISTS = 4    # while it steps env e, the step driver prefetches the lists of env
AHEAD = 2          # e + AHEAD_LISTS and the lines at the ants of env e + AHEAD (read there)


@phase
def prefetch_lists(s, e):
    """Prefetch env e's ant and food lists (their first lines) and its ant and food grids."""
    for array in (s.ant_x, s.ant_y, s.food_x, s.food_y, s.shown_x, s.shown_y):
        prefetch(array, (e, 0))
    prefetch(s.ant_owner, (e, 0))
    prefetch(s.focus, (e, 0))
    prefetch(s.ant_id, (e, 0))
    prefetch(s.dead, (e, 0))
    height, width = s.ant_at.shape[1], s.ant_at.shape[2]
    for c in range(0, height * width, LINE // s.ant_at.itemsize):
        prefetch(s.ant_at, (e, c // width, c % width))
    for c in range(0, height * width, LINE // s.food_at.itemsize):
        prefetch(s.food_at, (e, c // width, c % width))


@phase
def prefetch_ants(s, e, planes, masks, actions):
    """Prefetch what env e's step reads and writes at its ants' cells (their commands,
    planes and mask entries) and its hills' cells, the first cells of the stored food and
    alive planes, and the turn plane (redrawn most turns)."""
    num_players = planes.shape[0]
    width = s.ant_at.shape[2]
    n = s.ant_at.shape[1] * width
    ant_x, ant_y, ant_owner = s.ant_x[e], s.ant_y[e], s.ant_owner[e]
    for i in range(s.num_ants[e]):
        owner = int(ant_owner[i])
        c = int(ant_y[i]) * width + ant_x[i]
        prefetch(actions, (owner, c))
        prefetch(masks, (owner, c * NUM_COMMANDS))
        for a in range(num_players):
            rel = owner - a
            if rel < 0:
                rel += num_players
            prefetch(planes, (a, (P_OWN + rel) * n + c))
    hill_x, hill_y = s.hill_x[e], s.hill_y[e]
    for a in range(num_players):
        for h in range(hill_x.shape[0]):
            c = int(hill_y[h]) * width + hill_x[h]
            prefetch(planes, (a, P_OWN_HILLS * n + c))
            prefetch(planes, (a, P_ENEMY_HILLS * n + c))
        prefetch(planes, (a, P_STORED * n))
        prefetch(planes, (a, P_ALIVE * n))
        for c in range(P_TURN * n, (P_TURN + 1) * n, LINE // planes.itemsize):
            prefetch(planes, (a, c))


@phase
def prefetch_ahead(s, p, e, hi, actions, masks, rewards, terminated, truncated, planes,
                   journals):
    """While env e is stepped: the lists of env e + ``AHEAD_LISTS`` and the lines at the
    ants of env e + ``AHEAD``."""
    if e + AHEAD_LISTS < hi:
        prefetch_lists(s, e + AHEAD_LISTS)
    if e + AHEAD < hi:
        prefetch_ants(s, e + AHEAD, planes[e + AHEAD], masks[e + AHEAD], actions[e + AHEAD])
