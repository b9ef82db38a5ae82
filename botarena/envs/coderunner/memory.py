"""CodeRunner's prefetching, the step's memory plumbing (``core.loop`` calls
``prefetch_ahead`` while it steps env e).

At batch 4096 the envs' arrays and planes are far from the core, and a step touches a few
dozen scattered cache lines.  The step loop prefetches in three stages while it steps env
e: env e + 3 ``AHEAD``'s record (its ~35 small fields in ~4 lines, see ``core.layout``)
and its entries in the caller's buffers (``prefetch_record``); the rows of env e + 2
``AHEAD`` whose addresses it knows from its record (``prefetch_rows``: cells, the queues'
waiting entries); then the lines of env e + ``AHEAD`` that depend on them
(``prefetch_env``, which runs the observation's writers with ``fetch``, see
``observe.py``).  Before the record, a profile showed the loads of positions, turns and
actions waiting (the record and its prefetch: ~1.2x the steps/s at batch 4096).
"""
from ...core import layout
from ...core.jit import phase
from ...core.journal import journal_of
from ...core.prefetch import LINE, prefetch
from .constants import NUM_ACTIONS, QUEUE, WIDTH
from .observe import N, draw_bars, draw_countdowns, character_marks

AHEAD = 2          # the serial driver prefetches env e + AHEAD while it steps env e


@phase
def prefetch_record(s, e, actions, masks, rewards, terminated, truncated):
    """Prefetch env e's record (its small fields, see ``core.layout``: what
    ``prefetch_rows`` reads ``AHEAD`` envs later) and its entries in the caller's buffers."""
    layout.prefetch_record(s.records, e)
    prefetch(actions, (e, 0))
    prefetch(masks, (e, 0, 0))
    prefetch(masks, (e, 1, NUM_ACTIONS - 1))
    prefetch(rewards, (e, 0))
    prefetch(terminated, (e, 0))
    prefetch(truncated, (e, 0))


@phase
def prefetch_rows(s, e):
    """Prefetch env e's cells and the lines of its queues that hold waiting cells: what
    ``prefetch_env`` reads ``AHEAD`` envs later."""
    for k in range(0, N, LINE):
        prefetch(s.cells, (e, k // WIDTH, k % WIDTH))
    for queue, head, count in ((s.hole_queue, s.hole_head[e], s.num_holes[e]),
                               (s.gold_queue, s.gold_head[e], s.num_gold_out[e])):
        prefetch(queue, (e, head))
        prefetch(queue, (e, (head + max(count, 1) - 1) % QUEUE))


@phase
def prefetch_env(s, p, e, planes, journal):
    """Prefetch the scattered lines env e's next turn touches (``planes``: its planes, as
    in ``observe_all``): the characters' marks, the waiting cells' countdowns, the bars,
    the visited cells, pursuit stacks and distances.  A hint only: nothing changes."""
    character_marks(s, p, e, planes, False, True, journal)
    draw_countdowns(s, p, e, planes, True, journal)
    draw_bars(s, p, e, planes, True, journal)
    m_id = s.map_id[e]
    pos, alive = s.runner_pos[e], s.runner_alive[e]
    for a in range(2):
        if alive[a]:
            prefetch(s.visited, (e, pos[a, 0], pos[a, 1]))
    enemy_pos = s.enemy_pos[e]
    top = s.enemy_stack.shape[2] - 1
    for i in range(s.num_enemies[e]):
        if s.enemy_alive[e, i]:
            src = enemy_pos[i, 0] * WIDTH + enemy_pos[i, 1]
            prefetch(s.enemy_stack, (e, i, min(s.enemy_sp[e, i], top)))
            for a in range(2):
                if alive[a]:
                    prefetch(p.dist, (m_id, src, pos[a, 0] * WIDTH + pos[a, 1]))


@phase
def prefetch_ahead(s, p, e, hi, actions, masks, rewards, terminated, truncated, planes,
                   journals):
    """While env e is stepped: env e + 3 ``AHEAD``'s record, env e + 2 ``AHEAD``'s rows and
    env e + ``AHEAD``'s scattered lines (see above)."""
    if e + 3 * AHEAD < hi:
        prefetch_record(s, e + 3 * AHEAD, actions, masks, rewards, terminated, truncated)
    if e + 2 * AHEAD < hi:
        prefetch_rows(s, e + 2 * AHEAD)
    if e + AHEAD < hi:
        prefetch_env(s, p, e + AHEAD, planes[e + AHEAD], journal_of(journals, e + AHEAD))
