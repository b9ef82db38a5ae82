"""Scripted colonies, jitted and batched: ``random`` and ``greedy``.

Each bot is ``bot(s, p, env_ids, agent_ids, out)``: it writes into ``out[i]`` (a command per
cell, ``out.shape == (n, H * W)``) the commands of colony ``agent_ids[i]`` in env
``env_ids[i]``; cells without an own ant get 0 (stay).  They change no game state, and
their random choices come from each env's ``AGENT`` stream, never from the game's own.

``random``: every own ant takes a uniformly random legal command (stay included).

``greedy`` reads three breadth-first distance maps over land (from the food, the enemy
ants and the standing enemy hills).  An ant with enemies within ``SIGHT2`` (squared) fights
where its side outnumbers them there (counting own ants within ``SIGHT2`` of it; focus_split
then favours the group) or where it defends an own hill with an enemy within
``DEFEND_DISTANCE`` steps, walking towards the nearest enemy; otherwise it backs off.
Else it walks to the nearest food; with no food in reach and at least ``ATTACK_GROUP``
ants it marches on the nearest standing enemy hill.  Own ants never step onto a cell an
own ant holds or has claimed this turn, so they never collide with each other.
"""
import numpy as np
from numba import njit

from ...core.rng import AGENT, randint
from .constants import COMMAND_DELTAS, NUM_COMMANDS

SIGHT2 = 13
DEFEND_DISTANCE = 6
ATTACK_GROUP = 6
UNREACHED = -1


@njit(cache=True)
def random(s, p, env_ids, agent_ids, out):
    """A uniformly random legal command for every own ant."""
    move_ok = p.move_ok
    width = s.ant_at.shape[2]
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        row = out[i]
        for c in range(row.shape[0]):
            row[c] = 0
        ant_x, ant_y, ant_owner = s.ant_x[e], s.ant_y[e], s.ant_owner[e]
        for j in range(s.num_ants[e]):
            if ant_owner[j] != a:
                continue
            c = ant_y[j] * width + ant_x[j]
            legal = 0
            for k in range(NUM_COMMANDS):
                legal += move_ok[c, k]
            pick = randint(s.rng, e, AGENT, legal)
            for k in range(NUM_COMMANDS):
                if move_ok[c, k]:
                    if pick == 0:
                        row[c] = k
                        break
                    pick -= 1


@njit(cache=True)
def _bfs(move_ok, width, dist, queue, tail):
    """Multi-source BFS over land: ``dist`` holds 0 at the ``queue[:tail]`` sources and
    UNREACHED elsewhere; fills in the rest."""
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        y, x = c // width, c % width
        for k in range(1, NUM_COMMANDS):
            if move_ok[c, k]:
                nc = (y + COMMAND_DELTAS[k, 1]) * width + x + COMMAND_DELTAS[k, 0]
                if dist[nc] == UNREACHED:
                    dist[nc] = dist[c] + 1
                    queue[tail] = nc
                    tail += 1


@njit(cache=True)
def _step_along(move_ok, width, c, dist, blocked, rot, down):
    """A command to a free neighbour with a smaller (``down``) or larger distance; 0 if
    none."""
    here = dist[c]
    y, x = c // width, c % width
    for j in range(4):
        k = 1 + (j + rot) % 4
        if not move_ok[c, k]:
            continue
        nc = (y + COMMAND_DELTAS[k, 1]) * width + x + COMMAND_DELTAS[k, 0]
        if blocked[nc]:
            continue
        d = dist[nc]
        if d == UNREACHED:
            continue
        if down:
            if here == UNREACHED or d < here:
                return k
        elif here != UNREACHED and d > here:
            return k
    return 0


@njit(cache=True)
def greedy(s, p, env_ids, agent_ids, out):
    """Food first, fights where it outnumbers, defends its hills, raids in groups."""
    move_ok = p.move_ok
    height, width = s.ant_at.shape[1], s.ant_at.shape[2]
    n = height * width
    food_dist = np.empty(n, dtype=np.int32)
    enemy_dist = np.empty(n, dtype=np.int32)
    hill_dist = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    blocked = np.zeros(n, dtype=np.bool_)
    r = int(np.sqrt(SIGHT2))
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        row = out[i]
        for c in range(n):
            row[c] = 0
        ant_x, ant_y, ant_owner, ant_at = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_at[e]
        num_ants = s.num_ants[e]
        hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
        rot = randint(s.rng, e, AGENT, 4)
        # distance maps
        tail = 0
        for c in range(n):
            food_dist[c] = UNREACHED
            enemy_dist[c] = UNREACHED
            hill_dist[c] = UNREACHED
            blocked[c] = False
        for f in range(s.num_food[e]):
            c = s.food_y[e, f] * width + s.food_x[e, f]
            food_dist[c] = 0
            queue[tail] = c
            tail += 1
        _bfs(move_ok, width, food_dist, queue, tail)
        tail = 0
        own = 0
        for j in range(num_ants):
            c = ant_y[j] * width + ant_x[j]
            if ant_owner[j] == a:
                own += 1
                blocked[c] = True
            else:
                enemy_dist[c] = 0
                queue[tail] = c
                tail += 1
        _bfs(move_ok, width, enemy_dist, queue, tail)
        tail = 0
        threatened = False
        for h in range(hill_x.shape[0]):
            if hill_owner[h] < 0 or hill_razed[h]:
                continue
            c = hill_y[h] * width + hill_x[h]
            if hill_owner[h] == a:
                d = enemy_dist[c]
                if d != UNREACHED and d <= DEFEND_DISTANCE:
                    threatened = True
            else:
                hill_dist[c] = 0
                queue[tail] = c
                tail += 1
        _bfs(move_ok, width, hill_dist, queue, tail)
        # commands
        for j in range(num_ants):
            if ant_owner[j] != a:
                continue
            x, y = ant_x[j], ant_y[j]
            c = y * width + x
            mine, theirs = 0, 0
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    if dx * dx + dy * dy > SIGHT2:
                        continue
                    nx, ny = x + dx, y + dy
                    if nx < 0 or ny < 0 or nx >= width or ny >= height:
                        continue
                    k = ant_at[ny, nx]
                    if k >= 0:
                        if ant_owner[k] == a:
                            mine += 1
                        else:
                            theirs += 1
            cmd = 0
            if theirs > 0:
                if mine > theirs or threatened:
                    cmd = _step_along(move_ok, width, c, enemy_dist, blocked, rot, True)
                else:
                    cmd = _step_along(move_ok, width, c, enemy_dist, blocked, rot, False)
            elif food_dist[c] != UNREACHED:
                cmd = _step_along(move_ok, width, c, food_dist, blocked, rot, True)
            elif own >= ATTACK_GROUP:
                cmd = _step_along(move_ok, width, c, hill_dist, blocked, rot, True)
            if cmd > 0:
                blocked[(y + COMMAND_DELTAS[cmd, 1]) * width + x + COMMAND_DELTAS[cmd, 0]] = True
            row[c] = cmd


BOTS = {"random": random, "greedy": greedy}
