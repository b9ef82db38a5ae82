"""Scripted CodeRunner players, jitted and batched: ``random``, ``greedy``, ``trapper`` and
``racer``.

Each bot is ``bot(s, p, env_ids, agent_ids, out)``: it writes into ``out[i]`` the action of
runner ``agent_ids[i]`` in env ``env_ids[i]`` (in the env's own action convention: mirrored
for blue with ``Config.mirror``).  They change no game state (only the search scratch), and
their random choices come from each env's ``AGENT`` stream, never from the game's own.

``greedy``: a breadth-first search over the runner's moves (falls included) to the nearest
gold, avoiding cells holding or next to a free enemy; the first move of that path (a random
legal move when no gold is reachable).
``trapper``: digs when a free enemy or the opponent stands two to four cells away on its
row, on the side of the dig, and walking towards it would cross the dug cell; else greedy.
``racer`` (the strongest: on the default map it beats greedy and trapper in over 9 games of
10), each turn, the first that applies:

1. trap: when the opponent steps this turn (falling, or the move greedy would make) onto
   the cell beside it above a brick it can dig, and that brick is a pit (brick on both
   sides and below: no way out), it digs it; the opponent falls in and dies when the brick
   is restored (+300, and it loses 50 turns).
2. race: it heads for the gold it gets first: gold there, or collected and back by the
   time it arrives, that it reaches sooner than the opponent (who takes its own nearest
   gold first; a dead one starts from its respawn cell when it reappears) or before the
   gold is back.  Of those, the one it can have soonest.  While that one is more than
   ``EXPLORE_SLACK`` turns from being back, or when there is none, it visits the nearest
   cell it never stood on (+1 each).  It never heads into a dead end (a cell with no way
   to any gold cell, as a pit at the bottom of the map), and its searches avoid enemies
   as greedy's do.
3. with no way anywhere, or a free enemy next to it, a random move to a cell clear of
   enemies (it stays when there is none).
"""
import numpy as np
from numba import njit

from ...core.jit import batch_typed
from ...core.rng import AGENT, randint
from .constants import (BOTTOM, BRICK, DIG_LEFT, DIG_RIGHT, GOLD, HEIGHT, MIRRORED,
                        MOVE_DELTAS, NONE, NUM_ACTIONS, REMOVED, WIDTH)
from .rules import can_dig, falling, legal_actions, legal_move

DANGER = 1           # greedy, racer: cells this close (Manhattan) to a free enemy are avoided
EXPLORE_SLACK = 20   # racer: turns to spare before its gold that it spends visiting new cells
FAR = 32767          # racer: the distance of a cell a runner cannot reach


@njit(cache=True)
def _pick_random(s, e, legal):
    count = 0
    for k in range(NUM_ACTIONS):
        count += legal[k]
    j = randint(s.rng, e, AGENT, count)
    for k in range(NUM_ACTIONS):
        if legal[k]:
            if j == 0:
                return k
            j -= 1
    return NONE


@njit(cache=True)
def random(s, p, env_ids, agent_ids, out):
    """A uniformly random legal action."""
    legal = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        legal_actions(s, p, e, a, legal)
        out[i] = _pick_random(s, e, legal)


@njit(cache=True)
def _enemy_near(s, e, r, c, reach):
    """A free enemy is within ``reach`` steps (Manhattan) of (r, c)."""
    enemy_pos, enemy_alive, cells = s.enemy_pos[e], s.enemy_alive[e], s.cells[e]
    for i in range(s.num_enemies[e]):
        if enemy_alive[i]:
            er, ec = enemy_pos[i, 0], enemy_pos[i, 1]
            if cells[er, ec] != REMOVED:
                if abs(er - r) + abs(ec - c) <= reach:
                    return True
    return False


@njit(cache=True)
def _search(s, e, r0, c0, stop_at_gold, dist, queue, first):
    """Breadth-first search over a runner's moves (falls included) from (r0, c0): fills
    ``dist`` (-1: not reached), ``first`` (the first move, in absolute terms, of a shortest
    path) and ``queue`` (the cells reached, in search order); returns how many were
    reached.  It never goes through a cell holding or next to a free enemy.
    ``stop_at_gold``: stop at the first gold (other than the start) reached, the last
    cell of the queue."""
    cells = s.cells[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    for k in range(HEIGHT * WIDTH):
        dist[k] = -1
    src = r0 * WIDTH + c0
    dist[src] = 0
    first[src] = NONE
    head, tail = 0, 1
    queue[0] = src
    while head < tail:
        k = queue[head]
        head += 1
        r, c = k // WIDTH, k % WIDTH
        if stop_at_gold and k != src and cells[r, c] == GOLD:
            return head
        fall = falling(cells, enemy_pos, enemy_alive, n, r, c)
        for m in range(1, 5):
            if fall:
                if m != BOTTOM:
                    continue
            elif not legal_move(cells, enemy_pos, enemy_alive, n, r, c, m):
                continue
            nr, nc = r + MOVE_DELTAS[m, 0], c + MOVE_DELTAS[m, 1]
            t = nr * WIDTH + nc
            if dist[t] >= 0:
                continue
            if _enemy_near(s, e, nr, nc, DANGER):
                continue
            dist[t] = dist[k] + 1
            first[t] = m if k == src else first[k]
            queue[tail] = t
            tail += 1
    return tail


@njit(cache=True)
def _first_gold(cells, queue, reached):
    """The first gold cell (other than the start) among the ``reached`` cells of a search
    queue, or -1."""
    for j in range(1, reached):
        k = queue[j]
        if cells[k // WIDTH, k % WIDTH] == GOLD:
            return k
    return -1


@njit(cache=True)
def _to_gold(s, p, e, a):
    """First move (in absolute terms) towards the nearest reachable gold, or -1."""
    queue, first = s.bot_queue[e], s.bot_first[e]
    reached = _search(s, e, s.runner_pos[e, a, 0], s.runner_pos[e, a, 1], True,
                      s.bot_dist[e], queue, first)
    k = _first_gold(s.cells[e], queue, reached)
    return first[k] if k >= 0 else -1


@njit(cache=True)
def _greedy_one(s, p, e, a, legal):
    legal_actions(s, p, e, a, legal)
    if not s.runner_alive[e, a]:
        return NONE
    m = _to_gold(s, p, e, a)
    if m > 0:
        act = MIRRORED[m] if (p.mirror and a == 1) else m
        if legal[act]:
            return act
    if m == NONE:
        return NONE
    return _pick_random(s, e, legal)


@njit(cache=True)
def greedy(s, p, env_ids, agent_ids, out):
    """Towards the nearest gold avoiding enemies (see the module doc)."""
    legal = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for i in range(env_ids.shape[0]):
        out[i] = _greedy_one(s, p, env_ids[i], agent_ids[i], legal)


@njit(cache=True)
def _target_on_row(s, e, a, r, c, side):
    """A free enemy or the opponent 2..4 cells away on row r on ``side``."""
    enemy_pos, enemy_alive, cells = s.enemy_pos[e], s.enemy_alive[e], s.cells[e]
    for i in range(s.num_enemies[e]):
        if enemy_alive[i]:
            if enemy_pos[i, 0] == r and cells[r, enemy_pos[i, 1]] != REMOVED:
                d = (enemy_pos[i, 1] - c) * side
                if d >= 2 and d <= 4:
                    return True
    b = 1 - a
    if s.runner_alive[e, b]:
        if s.runner_pos[e, b, 0] == r:
            d = (s.runner_pos[e, b, 1] - c) * side
            if d >= 2 and d <= 4:
                return True
    return False


@njit(cache=True)
def trapper(s, p, env_ids, agent_ids, out):
    """Digs traps for enemies and the opponent, else plays greedy."""
    legal = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        legal_actions(s, p, e, a, legal)
        flip = p.mirror and a == 1
        chosen = -1
        if s.runner_alive[e, a]:
            r, c = s.runner_pos[e, a, 0], s.runner_pos[e, a, 1]
            for act in range(DIG_LEFT, DIG_RIGHT + 1):
                side = -1 if act == DIG_LEFT else 1
                mine = MIRRORED[act] if flip else act
                if legal[mine] and _target_on_row(s, e, a, r, c, side):
                    chosen = mine
        if chosen < 0:
            chosen = _greedy_one(s, p, e, a, legal)
        out[i] = chosen


@njit(cache=True)
def _pit(cells, r, c):
    """A runner falling into the brick (r, c), once dug, cannot get out before it is
    restored: brick (or the map's edge) on both sides and below."""
    for sc in (c - 1, c + 1):
        if sc >= 0 and sc < WIDTH:
            if cells[r, sc] != BRICK:
                return False
    if r + 1 < HEIGHT:
        if cells[r + 1, c] != BRICK:
            return False
    return True


@njit(cache=True)
def _trap_dig(s, e, a, r, c, next_cell):
    """DIG_LEFT or DIG_RIGHT (absolute) when the opponent steps next to runner a at (r, c)
    this turn (onto ``next_cell``) above a pit runner a can dig now; else -1."""
    if next_cell < 0 or next_cell // WIDTH != r:
        return -1
    side = next_cell % WIDTH - c
    if side != -1 and side != 1:
        return -1
    cells = s.cells[e]
    if not can_dig(cells, r, c, side, s.turn[e], s.dig_ready[e, a]):
        return -1
    if not _pit(cells, r + 1, c + side):
        return -1
    return DIG_LEFT if side == -1 else DIG_RIGHT


@njit(cache=True)
def _greedy_next_cell(s, e, b, queue, first, reached):
    """The cell runner b enters this turn if it falls or plays greedy (its search in
    ``queue``, ``first``), or -1 when that is not known."""
    r, c = s.runner_pos[e, b, 0], s.runner_pos[e, b, 1]
    cells = s.cells[e]
    if falling(cells, s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e], r, c):
        return (r + 1) * WIDTH + c
    k = _first_gold(cells, queue, reached)
    if k < 0:
        return -1
    m = first[k]
    return (r + MOVE_DELTAS[m, 0]) * WIDTH + c + MOVE_DELTAS[m, 1]


@njit(cache=True)
def _leads_to(cells, enemy_pos, enemy_alive, n, r, c, m, tr, tc):
    """A runner at (r, c) gets to (tr, tc) with move m (1..4) or by falling."""
    if cells[r, c] == BRICK:
        return False
    if falling(cells, enemy_pos, enemy_alive, n, r, c):
        return tr == r + 1 and tc == c
    return legal_move(cells, enemy_pos, enemy_alive, n, r, c, m)


@njit(cache=True)
def _way_to_gold(s, e, back, queue):
    """``back[k]`` = 1 where a runner standing on cell k can get to a gold cell (its gold
    there or collected; enemies ignored), else 0: a breadth-first search backwards over
    the runner's moves.  Cells without (a pit) are dead ends."""
    cells, gold_turn = s.cells[e], s.gold_turn[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    tail = 0
    for k in range(HEIGHT * WIDTH):
        back[k] = 0
        if cells[k // WIDTH, k % WIDTH] == GOLD or gold_turn[k // WIDTH, k % WIDTH] >= 0:
            back[k] = 1
            queue[tail] = k
            tail += 1
    head = 0
    while head < tail:
        k = queue[head]
        head += 1
        r, c = k // WIDTH, k % WIDTH
        for m in range(1, 5):   # the cell the runner comes from with move m
            pr, pc = r - MOVE_DELTAS[m, 0], c - MOVE_DELTAS[m, 1]
            if pr < 0 or pr >= HEIGHT or pc < 0 or pc >= WIDTH:
                continue
            t = pr * WIDTH + pc
            if back[t]:
                continue
            if _leads_to(cells, enemy_pos, enemy_alive, n, pr, pc, m, r, c):
                back[t] = 1
                queue[tail] = t
                tail += 1


@njit(cache=True)
def _racer_target(s, e, a, dist, queue, reached, their_dist, their_goal, late, back):
    """The cell the racer heads for (see the module doc), or -1.  Only cells with a way
    back (``back``) count."""
    cells, gold_turn, visited = s.cells[e], s.gold_turn[e], s.visited[e]
    turn = s.turn[e]
    best, best_eta, best_any, best_any_eta = -1, FAR, -1, FAR
    for j in range(reached):
        k = queue[j]
        if not back[k]:
            continue
        r, c = k // WIDTH, k % WIDTH
        if cells[r, c] == GOLD:
            wait = 0
        elif gold_turn[r, c] >= 0:
            wait = gold_turn[r, c] - turn
        else:
            continue
        d = dist[k]
        eta = max(d, wait)
        theirs = their_dist[k] + late if their_dist[k] >= 0 else FAR
        if their_goal >= 0 and k != their_goal:     # it takes its own gold first
            theirs += their_dist[their_goal]
        if eta < best_any_eta:
            best_any, best_any_eta = k, eta
        if d < theirs or d <= wait:
            if eta < best_eta:
                best, best_eta = k, eta
    if best >= 0 and best_eta - dist[best] <= EXPLORE_SLACK:
        return best
    for j in range(1, reached):
        k = queue[j]
        if back[k] and visited[k // WIDTH, k % WIDTH] == 0:
            return k
    if best >= 0:
        return best
    return best_any


@njit(cache=True)
def _random_clear_move(s, e, r, c, flip, legal):
    """A random legal move (NONE included, digs not) to a cell clear of enemies; NONE when
    there is none.  ``legal`` is overwritten."""
    for act in range(NUM_ACTIONS):
        if legal[act]:
            m = MIRRORED[act] if flip else act
            if m > BOTTOM:
                legal[act] = 0
            elif _enemy_near(s, e, r + MOVE_DELTAS[m, 0], c + MOVE_DELTAS[m, 1], DANGER):
                legal[act] = 0
    if legal.sum() == 0:
        return NONE
    return _pick_random(s, e, legal)


@njit(cache=True)
def _racer_one(s, p, e, a, legal, their_dist, their_queue, their_first, back, back_queue):
    legal_actions(s, p, e, a, legal)
    if not s.runner_alive[e, a]:
        return NONE
    cells, pos = s.cells[e], s.runner_pos[e]
    r, c = pos[a, 0], pos[a, 1]
    if falling(cells, s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e], r, c):
        return NONE
    flip = p.mirror and a == 1
    b = 1 - a
    if s.runner_alive[e, b]:
        br, bc, late = pos[b, 0], pos[b, 1], 0
    else:
        spawn = p.spawns[s.map_id[e], b]
        br, bc, late = spawn[0], spawn[1], s.runner_respawn[e, b] - s.turn[e]
    their_reached = _search(s, e, br, bc, False, their_dist, their_queue, their_first)
    their_goal = _first_gold(cells, their_queue, their_reached)
    if s.runner_alive[e, b]:
        nxt = _greedy_next_cell(s, e, b, their_queue, their_first, their_reached)
        dig = _trap_dig(s, e, a, r, c, nxt)
        if dig >= 0:
            return MIRRORED[dig] if flip else dig
    dist, queue, first = s.bot_dist[e], s.bot_queue[e], s.bot_first[e]
    reached = _search(s, e, r, c, False, dist, queue, first)
    _way_to_gold(s, e, back, back_queue)
    k = _racer_target(s, e, a, dist, queue, reached, their_dist, their_goal, late, back)
    m = first[k] if k >= 0 else -1
    if m > 0:
        return MIRRORED[m] if flip else m
    if m == NONE and not _enemy_near(s, e, r, c, DANGER):
        return NONE
    return _random_clear_move(s, e, r, c, flip, legal)


@njit(cache=True)
def racer(s, p, env_ids, agent_ids, out):
    """Races for the gold it reaches first, traps the opponent, visits cells (module doc)."""
    legal = np.zeros(NUM_ACTIONS, dtype=np.int8)
    their_dist = np.empty(HEIGHT * WIDTH, dtype=np.int16)
    their_queue = np.empty(HEIGHT * WIDTH, dtype=np.int32)
    their_first = np.empty(HEIGHT * WIDTH, dtype=np.int8)
    back = np.empty(HEIGHT * WIDTH, dtype=np.uint8)
    back_queue = np.empty(HEIGHT * WIDTH, dtype=np.int32)
    for i in range(env_ids.shape[0]):
        out[i] = _racer_one(s, p, env_ids[i], agent_ids[i], legal, their_dist, their_queue,
                            their_first, back, back_queue)


BOTS = batch_typed({"random": random, "greedy": greedy, "trapper": trapper, "racer": racer})
