"""Scripted CodeRunner players, jitted and batched: ``random``, ``greedy`` and ``trapper``.

Each bot is ``bot(s, p, env_ids, agent_ids, out)``: it writes into ``out[i]`` the action of
runner ``agent_ids[i]`` in env ``env_ids[i]`` (in the env's own action convention: mirrored
for blue with ``Config.mirror``).  They change no game state (only the search scratch), and
their random choices come from each env's ``AGENT`` stream, never from the game's own.

``greedy``: a breadth-first search over the runner's moves (falls included) to the nearest
gold, avoiding cells holding or next to a free enemy; the first move of that path (a random
legal move when no gold is reachable).
``trapper``: digs when a free enemy or the opponent stands two to four cells away on its
row, on the side of the dig, and walking towards it would cross the dug cell; else greedy.
"""
import numpy as np
from numba import njit

from ...core.rng import AGENT, randint
from .constants import (BOTTOM, DIG_LEFT, DIG_RIGHT, GOLD, HEIGHT, MIRRORED, MOVE_DELTAS,
                        NONE, NUM_ACTIONS, REMOVED, WIDTH)
from .rules import falling, legal_actions, legal_move


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
def _danger(s, e, r, c):
    """A free enemy is on (r, c) or next to it."""
    enemy_pos, enemy_alive, cells = s.enemy_pos[e], s.enemy_alive[e], s.cells[e]
    for i in range(s.num_enemies[e]):
        if enemy_alive[i]:
            er, ec = enemy_pos[i, 0], enemy_pos[i, 1]
            if cells[er, ec] != REMOVED:
                if abs(er - r) + abs(ec - c) <= 1:
                    return True
    return False


@njit(cache=True)
def _to_gold(s, p, e, a):
    """First move (in absolute terms) towards the nearest reachable gold, or -1."""
    cells, pos = s.cells[e], s.runner_pos[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    dist, queue, first = s.bot_dist[e], s.bot_queue[e], s.bot_first[e]
    for k in range(HEIGHT * WIDTH):
        dist[k] = -1
    r0, c0 = pos[a, 0], pos[a, 1]
    src = r0 * WIDTH + c0
    dist[src] = 0
    first[src] = NONE
    head, tail = 0, 1
    queue[0] = src
    while head < tail:
        k = queue[head]
        head += 1
        r, c = k // WIDTH, k % WIDTH
        if k != src and cells[r, c] == GOLD:
            return first[k]
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
            if _danger(s, e, nr, nc):
                continue
            dist[t] = dist[k] + 1
            first[t] = m if k == src else first[k]
            queue[tail] = t
            tail += 1
    return -1


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


BOTS = {"random": random, "greedy": greedy, "trapper": trapper}
