"""CodeRunner's observations and action masks.

Observations (``constants.Plane``) are written whole by a reset (``observe_all``) and then
kept up to date by each step, which writes only what changed: the characters' marks are
cleared before the turn (``character_marks``) and written after it (``observe_changes``);
cells are rewritten where a brick was dug or restored and gold collected or respawned (the
entries that entered or left the queues since ``obs_queues``); the countdowns of removed
bricks and collected gold from the queues; the bars between the lengths shown
(``obs_bars``) and the new ones.  The state must change only through ``reset`` and
``step`` (the kernels own it, as in every game).  Every entry written is recorded in
env e's ``journal`` (``core.journal``; ``_entry`` gives an entry's place in its
observation row).

The writers that the step's prefetching (``memory.py``) also runs take ``fetch``
(``character_marks``, ``draw_countdowns``, ``draw_bars``: see ``_put`` and ``_run``): with it they
only prefetch the lines they would write, so what is prefetched cannot drift from what is
written; ``draw_bars`` then looks one turn ahead (a dig during the turn is not foreseen), the
characters' marks are fetched where they stand before the turn.  A bar changes by whole
runs of cells (a dig fills 400, each turn empties 40), so ``_bar`` writes runs (one loop
per run, over a view of it indexed from 0, which the compiler vectorizes: indexed from the
run's start it did not, and the serial kernel ran ~10% slower) and prefetches one index per
line: a loop per cell was ~27% of a step.
"""
from ...core.jit import hot, phase, view
from ...core.journal import journal_of, record
from ...core.prefetch import LINE, prefetch
from .constants import HEIGHT, NUM_PLANES, OPP_SPAWN, OWN_SPAWN, QUEUE, REMOVED, WIDTH, Plane
from .rules import legal_actions

P_CELL, P_TIMER, P_OWN, P_OPPONENT = (int(Plane.CELL), int(Plane.TIMER), int(Plane.OWN),
                                      int(Plane.OPPONENT))
P_ENEMY, P_TRAPPED, P_ENEMY_SPAWN, P_VISITED = (int(Plane.ENEMY), int(Plane.TRAPPED),
                                                int(Plane.ENEMY_SPAWN), int(Plane.VISITED))
P_DIG, P_OPP_DIG, P_TURN = int(Plane.DIG_DELAY), int(Plane.OPP_DIG_DELAY), int(Plane.TURN)
N = HEIGHT * WIDTH


@hot
def _clip(x, top):
    if x < 0:
        return 0
    if x > top:
        return top
    return x


@hot
def _at(r, c, flip):
    """Index of cell (r, c) in a flat plane, mirrored left-right with ``flip``."""
    if flip:
        return r * WIDTH + WIDTH - 1 - c
    return r * WIDTH + c


@hot
def _fill(plane, value):
    for i in range(N):
        plane[i] = value


@phase
def _entry(a, j, k):
    """The place of ``planes[a, j, k]`` in the env's observation row."""
    return (a * NUM_PLANES + j) * N + k


@phase
def _put(planes, a, j, k, value, fetch, journal):
    """``planes[a, j, k] = value``, recorded in ``journal``; with ``fetch`` only
    prefetch its line.  The writers below take ``fetch`` so that the lines prefetched
    are exactly those they write."""
    if fetch:
        prefetch(planes, (a, j, k))
    else:
        planes[a, j, k] = value
        record(journal, _entry(a, j, k), 1, planes[a, j, k])


@hot
def character_marks(s, p, e, planes, show, fetch, journal):
    """Write (``show``) or clear the planes of env e that follow the characters: OWN and
    OPPONENT (a runner or its respawn countdown), ENEMY, TRAPPED and ENEMY_SPAWN; with
    ``fetch`` only prefetch their lines (nothing is read from the planes)."""
    zero = p.removed_lut[0]
    turn = s.turn[e]
    m_id = s.map_id[e]
    pos, alive, respawn = s.runner_pos[e], s.runner_alive[e], s.runner_respawn[e]
    spawns = p.spawns[m_id]
    top_runner = p.runner_lut.shape[0] - 1
    for b in range(2):          # runner b: OWN for b, OPPONENT for the other
        if alive[b]:
            r, c, value = pos[b, 0], pos[b, 1], p.on
        else:
            r, c = spawns[b, 0], spawns[b, 1]
            value = p.runner_lut[_clip(respawn[b] - turn + 1, top_runner)]
        if not show:
            value = zero
        for a in range(2):
            _put(planes, a, P_OWN if a == b else P_OPPONENT, _at(r, c, p.mirror and a == 1),
                 value, fetch, journal)
    cells = s.cells[e]
    enemy_pos, enemy_alive, enemy_respawn = s.enemy_pos[e], s.enemy_alive[e], s.enemy_respawn[e]
    enemy_spawn = p.enemy_spawn[m_id]
    top_enemy = p.enemy_lut.shape[0] - 1
    for i in range(s.num_enemies[e]):
        if enemy_alive[i]:
            r, c = enemy_pos[i, 0], enemy_pos[i, 1]
            trapped = cells[r, c] == REMOVED
            for a in range(2):
                k = _at(r, c, p.mirror and a == 1)
                if trapped:
                    _put(planes, a, P_TRAPPED, k, p.on if show else zero, fetch, journal)
                elif fetch or not show:
                    _put(planes, a, P_ENEMY, k, zero, fetch, journal)
                else:
                    _put(planes, a, P_ENEMY, k,
                         p.half if planes[a, P_ENEMY, k] == zero else p.on, False, journal)
        else:
            r, c = enemy_spawn[i, 0], enemy_spawn[i, 1]
            value = p.enemy_lut[_clip(enemy_respawn[i] - turn + 1, top_enemy)]
            for a in range(2):
                k = _at(r, c, p.mirror and a == 1)
                if fetch or not show:
                    _put(planes, a, P_ENEMY_SPAWN, k, zero, fetch, journal)
                elif planes[a, P_ENEMY_SPAWN, k] < value:
                    _put(planes, a, P_ENEMY_SPAWN, k, value, False, journal)


@hot
def _queue_changes(p, queue, head, count, shown, cells, planes, journal):
    """CELL (and TIMER cleared) of the cells that left or entered a ring buffer of cells
    (``state.hole_queue``, ``gold_queue``) since it was shown (``shown``: head, count):
    the popped entries are still in place (a queue never holds QUEUE cells)."""
    zero = p.removed_lut[0]
    left = (head - shown[0]) % QUEUE
    for j in range(left + count):
        if j < left or j >= shown[1]:       # popped, or pushed since
            k = queue[(shown[0] + j) % QUEUE]
            r, c = k // WIDTH, k % WIDTH
            for a in range(2):
                i = _at(r, c, p.mirror and a == 1)
                _put(planes, a, P_CELL, i, p.cell_lut[cells[r, c]], False, journal)
                _put(planes, a, P_TIMER, i, zero, False, journal)
    shown[0] = head
    shown[1] = count


@hot
def _queue_countdowns(queue, head, count, due, lut, turn, mirror, planes, fetch, journal):
    """TIMER at the ``count`` cells waiting in ``queue`` from ``head``: ``lut`` of the turns
    until ``due[r, c]`` (with ``fetch``: the lines of ``due`` and TIMER)."""
    top = lut.shape[0] - 1
    for j in range(count):
        k = queue[(head + j) % QUEUE]
        r, c = k // WIDTH, k % WIDTH
        if fetch:
            prefetch(due, (r, c))
        value = lut[0] if fetch else lut[_clip(due[r, c] - turn + 1, top)]   # unused: fetch
        for a in range(2):
            _put(planes, a, P_TIMER, _at(r, c, mirror and a == 1), value, fetch, journal)


@hot
def draw_countdowns(s, p, e, planes, fetch, journal):
    """TIMER at every removed brick and collected gold (from their queues)."""
    _queue_countdowns(s.hole_queue[e], s.hole_head[e], s.num_holes[e], s.restore_turn[e],
                      p.removed_lut, s.turn[e], p.mirror, planes, fetch, journal)
    _queue_countdowns(s.gold_queue[e], s.gold_head[e], s.num_gold_out[e], s.gold_turn[e],
                      p.gold_lut, s.turn[e], p.mirror, planes, fetch, journal)


@phase
def _run(plane, lo, hi, value, fetch, journal, start):
    """``plane[lo:hi] = value`` (a flat plane, at ``start`` in the env's observation
    row), recorded in ``journal``; with ``fetch`` only prefetch its lines."""
    if fetch:
        if hi > lo:
            for k in range(lo, hi, LINE // plane.itemsize):
                prefetch(plane, k)
            prefetch(plane, hi - 1)
    elif hi > lo:
        run = plane[lo:hi]
        for k in range(run.shape[0]):
            run[k] = value
        record(journal, start + lo, hi - lo, plane[lo])


@hot
def _bar_cells(plane, lo, hi, value, flip, fetch, journal, start):
    """Cells ``lo .. hi - 1`` of a bar in reading order set to ``value``: one run, or with
    ``flip`` (mirrored left-right) one run per row (``journal``, ``start``: as ``_run``)."""
    if not flip:
        _run(plane, lo, hi, value, fetch, journal, start)
        return
    for r in range(lo // WIDTH, (hi + WIDTH - 1) // WIDTH):
        first, end = max(lo, r * WIDTH), min(hi, (r + 1) * WIDTH)
        _run(plane, _at(r, end - 1 - r * WIDTH, True), _at(r, first - r * WIDTH, True) + 1,
             value, fetch, journal, start)


@hot
def _bar(p, planes, red_plane, blue_plane, shown, length, fetch, journal):
    """Bring a bar shown ``shown`` cells long to ``length`` (red's plane and blue's): the
    cells between the two lengths become full (it grew) or 0 (it shrank)."""
    if shown == length:
        return
    value = p.on if length > shown else p.removed_lut[0]
    lo, hi = min(shown, length), max(shown, length)
    _bar_cells(planes[0, red_plane], lo, hi, value, False, fetch, journal,
               _entry(0, red_plane, 0))
    _bar_cells(planes[1, blue_plane], lo, hi, value, p.mirror, fetch, journal,
               _entry(1, blue_plane, 0))


@hot
def draw_bars(s, p, e, planes, fetch, journal):
    """The bar planes (dig delays, turn), written between the lengths shown (``obs_bars``)
    and the new ones; with ``fetch``, before a turn, the lines of the lengths after it
    (as if no runner digs)."""
    turn, ready, shown = s.turn[e] + (1 if fetch else 0), s.dig_ready[e], s.obs_bars[e]
    top_dig, top_turn = p.dig_bar.shape[0] - 1, p.turn_bar.shape[0] - 1
    red = p.dig_bar[_clip(ready[0] - turn, top_dig)]
    blue = p.dig_bar[_clip(ready[1] - turn, top_dig)]
    length = p.turn_bar[_clip(turn, top_turn)]
    _bar(p, planes, P_DIG, P_OPP_DIG, shown[0], red, fetch, journal)
    _bar(p, planes, P_OPP_DIG, P_DIG, shown[1], blue, fetch, journal)
    _bar(p, planes, P_TURN, P_TURN, shown[2], length, fetch, journal)
    if not fetch:
        shown[0], shown[1], shown[2] = red, blue, length


@hot(python=True)
def observe_all(s, p, e, planes, masks, journal):
    """Both runners' planes (``planes[a]``: ``obs[e, a]`` as ``[plane, row * WIDTH + col]``,
    see constants.Plane), written whole, and their action masks; the planes are mirrored
    left-right for blue with ``p.mirror`` (``journal``: as ``observe_changes``'s, the
    shared writers record what they write)."""
    cells, visited = s.cells[e], s.visited[e]
    spawns = p.spawns[s.map_id[e]]
    zero = p.removed_lut[0]
    for a in range(2):
        mine = planes[a]
        flip = p.mirror and a == 1
        for r in range(HEIGHT):
            for c in range(WIDTH):
                k = _at(r, c, flip)
                mine[P_CELL, k] = p.cell_lut[cells[r, c]]
                mine[P_VISITED, k] = p.on if visited[r, c] else zero
        mine[P_CELL, _at(spawns[a, 0], spawns[a, 1], flip)] = p.cell_lut[OWN_SPAWN]
        mine[P_CELL, _at(spawns[1 - a, 0], spawns[1 - a, 1], flip)] = p.cell_lut[OPP_SPAWN]
        for j in (P_TIMER, P_OWN, P_OPPONENT, P_ENEMY, P_TRAPPED, P_ENEMY_SPAWN, P_DIG,
                  P_OPP_DIG, P_TURN):
            _fill(mine[j], zero)
    shown = s.obs_queues[e]
    shown[0], shown[1] = s.hole_head[e], s.num_holes[e]
    shown[2], shown[3] = s.gold_head[e], s.num_gold_out[e]
    for j in range(3):
        s.obs_bars[e, j] = 0
    draw_countdowns(s, p, e, planes, False, journal)
    character_marks(s, p, e, planes, True, False, journal)
    draw_bars(s, p, e, planes, False, journal)
    for a in range(2):
        legal_actions(s, p, e, a, masks[a])


@phase
def observe_changes(s, p, e, planes, masks, journal):
    """``observe_all``'s planes brought up to date after a turn, whose characters' marks
    ``character_marks`` cleared before it, what it writes recorded in ``journal``; and
    the action masks."""
    cells, shown = s.cells[e], s.obs_queues[e]
    _queue_changes(p, s.hole_queue[e], s.hole_head[e], s.num_holes[e], shown[0:2], cells, planes,
                   journal)
    _queue_changes(p, s.gold_queue[e], s.gold_head[e], s.num_gold_out[e], shown[2:4], cells,
                   planes, journal)
    draw_countdowns(s, p, e, planes, False, journal)
    character_marks(s, p, e, planes, True, False, journal)
    for a in range(2):
        k = s.new_visit[e, a]
        if k >= 0:
            for b in range(2):      # one set of visited cells, shown to both runners
                _put(planes, b, P_VISITED, _at(k // WIDTH, k % WIDTH, p.mirror and b == 1),
                     p.on, False, journal)
    draw_bars(s, p, e, planes, False, journal)
    for a in range(2):
        legal_actions(s, p, e, a, masks[a])


@view
def planes_of(s, p, obs):
    """The batch's planes as ``observe_all`` takes them (a flat row of cells per plane),
    reshaped once per driver call (a reshape costs tens of ns)."""
    return obs.reshape(obs.shape[0], 2, NUM_PLANES, N)


@hot
def observe_env(s, p, e, planes, masks, journals):
    """Env e's planes and masks written whole from its state."""
    observe_all(s, p, e, planes[e], masks[e], journal_of(journals, e))
