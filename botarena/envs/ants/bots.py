"""Scripted colonies, jitted and batched: ``random``, ``greedy`` and ``raider``.

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

``raider`` forages like ``greedy`` until turn ``RAID_TURN``; from then on every ant that can
reach a standing enemy hill raids the nearest.  Raiders first mass on the staging band, the
cells ``STAGE_DISTANCE`` to ``STAGE_DISTANCE + STAGE_DEPTH - 1`` steps from the hill (out of
reach of greedy's hill defence): each walks to the nearest free band cell (the search does
not pass band cells an own ant holds, so the band fills sideways instead of queueing) and
then as deep into the band as it can.  Once ``WAVE`` raiders stand within ``STAGE_DISTANCE +
WAVE_REACH`` steps of an enemy hill, all of them storm down the distance map together; below
that, raiders nearer the hill than the band fall back to it.  A raider next to an enemy hill
always steps onto it: a fresh ant spawned there walks at the raider, the two swap places and
the raider razes the hill if it survives the attack.  Its ants move farthest from the own
hills first and may step onto a cell an own ant leaves this turn, so columns keep flowing
and the own hill stays free to spawn (greedy's jams: it stops spawning at about 23 ants
while its stored food grows).  Against greedy on the default map it razes greedy's hill in
nearly every game (first raze around turn 120).
"""
import numpy as np
from numba import njit

from ...core.jit import batch_typed
from ...core.rng import AGENT, randint
from .constants import COMMAND_DELTAS, NUM_COMMANDS, UNREACHED
from .rules import land_distances

SIGHT2 = 13
SIGHT_REACH = int(SIGHT2 ** 0.5)
DEFEND_DISTANCE = 6
ATTACK_GROUP = 6
RAID_TURN = 80               # raider: the turn from which its ants raid instead of forage
STAGE_DISTANCE = 8           # raider: steps from the hill to the staging band's near edge
STAGE_DEPTH = 2              # raider: the band's thickness in steps
WAVE = 20                    # raider: massed raiders that launch the assault
WAVE_REACH = 3               # raider: massed = within STAGE_DISTANCE + WAVE_REACH steps
WALL = -2                    # in a BFS map while it is built: a cell the search does not pass


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
def _distance_maps(move_ok, width, a, ant_x, ant_y, ant_owner, num_ants, food_x, food_y, num_food,
                   hill_x, hill_y, hill_owner, hill_razed, food_dist, enemy_dist, hill_dist,
                   queue, blocked):
    """Colony ``a``'s view: the BFS maps from the food, the enemy ants and the standing
    enemy hills, and ``blocked`` true on the own ants' cells.  Returns (own ants, whether
    an enemy is within ``DEFEND_DISTANCE`` steps of a standing own hill)."""
    n = food_dist.shape[0]
    tail = 0
    for c in range(n):
        food_dist[c] = UNREACHED
        enemy_dist[c] = UNREACHED
        hill_dist[c] = UNREACHED
        blocked[c] = False
    for f in range(num_food):
        c = food_y[f] * width + food_x[f]
        food_dist[c] = 0
        queue[tail] = c
        tail += 1
    land_distances(move_ok, width, food_dist, queue, tail)
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
    land_distances(move_ok, width, enemy_dist, queue, tail)
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
    land_distances(move_ok, width, hill_dist, queue, tail)
    return own, threatened


@njit(cache=True)
def _forage(move_ok, a, x, y, ant_owner, ant_at, food_dist, enemy_dist, hill_dist, blocked, rot,
            own, threatened):
    """``greedy``'s command for colony ``a``'s ant at (x, y)."""
    height, width = ant_at.shape
    c = y * width + x
    mine, theirs = 0, 0
    for dy in range(-SIGHT_REACH, SIGHT_REACH + 1):
        for dx in range(-SIGHT_REACH, SIGHT_REACH + 1):
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
    if theirs > 0:
        if mine > theirs or threatened:
            return _step_along(move_ok, width, c, enemy_dist, blocked, rot, True)
        return _step_along(move_ok, width, c, enemy_dist, blocked, rot, False)
    if food_dist[c] != UNREACHED:
        return _step_along(move_ok, width, c, food_dist, blocked, rot, True)
    if own >= ATTACK_GROUP:
        return _step_along(move_ok, width, c, hill_dist, blocked, rot, True)
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
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        row = out[i]
        for c in range(n):
            row[c] = 0
        ant_x, ant_y, ant_owner, ant_at = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_at[e]
        num_ants = s.num_ants[e]
        rot = randint(s.rng, e, AGENT, 4)
        own, threatened = _distance_maps(move_ok, width, a, ant_x, ant_y, ant_owner, num_ants,
                                         s.food_x[e], s.food_y[e], s.num_food[e], s.hill_x[e],
                                         s.hill_y[e], s.hill_owner[e], s.hill_razed[e], food_dist,
                                         enemy_dist, hill_dist, queue, blocked)
        for j in range(num_ants):
            if ant_owner[j] != a:
                continue
            x, y = ant_x[j], ant_y[j]
            cmd = _forage(move_ok, a, x, y, ant_owner, ant_at, food_dist, enemy_dist, hill_dist,
                          blocked, rot, own, threatened)
            if cmd > 0:
                blocked[(y + COMMAND_DELTAS[cmd, 1]) * width + x + COMMAND_DELTAS[cmd, 0]] = True
            row[y * width + x] = cmd


@njit(cache=True)
def _farthest_first(move_ok, width, a, ant_x, ant_y, ant_owner, num_ants, hill_x, hill_y,
                    hill_owner, hill_razed, home_dist, queue, first, order):
    """Fills ``order`` with colony ``a``'s ants, farthest from its standing hills first
    (out of their reach last), and returns their number; ``home_dist`` gets the BFS map
    from those hills."""
    n = home_dist.shape[0]
    for c in range(n):
        home_dist[c] = UNREACHED
    tail = 0
    for h in range(hill_x.shape[0]):
        if hill_owner[h] == a and not hill_razed[h]:
            c = hill_y[h] * width + hill_x[h]
            home_dist[c] = 0
            queue[tail] = c
            tail += 1
    land_distances(move_ok, width, home_dist, queue, tail)
    # counting sort on home_dist + 1 (0: unreachable), largest first
    for d in range(n + 1):
        first[d] = 0
    for j in range(num_ants):
        if ant_owner[j] == a:
            first[home_dist[ant_y[j] * width + ant_x[j]] + 1] += 1
    total = 0
    for d in range(n, -1, -1):
        count = first[d]
        first[d] = total
        total += count
    for j in range(num_ants):
        if ant_owner[j] == a:
            d = home_dist[ant_y[j] * width + ant_x[j]] + 1
            order[first[d]] = j
            first[d] += 1
    return total


@njit(cache=True)
def _stage_map(move_ok, width, hill_dist, blocked, stage_dist, queue):
    """BFS map to the free cells of the staging band (``STAGE_DISTANCE`` to
    ``STAGE_DISTANCE + STAGE_DEPTH - 1`` steps from an enemy hill); it does not pass band
    cells an own ant holds, so raiders spread along the band instead of queueing."""
    tail = 0
    for c in range(stage_dist.shape[0]):
        stage_dist[c] = UNREACHED
        d = hill_dist[c]
        if d >= STAGE_DISTANCE and d < STAGE_DISTANCE + STAGE_DEPTH:
            if blocked[c]:
                stage_dist[c] = WALL
            else:
                stage_dist[c] = 0
                queue[tail] = c
                tail += 1
    land_distances(move_ok, width, stage_dist, queue, tail)
    for c in range(stage_dist.shape[0]):
        if stage_dist[c] == WALL:
            stage_dist[c] = UNREACHED


@njit(cache=True)
def _raid_command(move_ok, width, c, hill_dist, stage_dist, blocked, rot, assault):
    """A raider's command: onto a neighbouring enemy hill; else on towards the hill in an
    ``assault``; else into (and deeper into) the staging band."""
    y, x = c // width, c % width
    for k in range(1, NUM_COMMANDS):
        if move_ok[c, k]:
            nc = (y + COMMAND_DELTAS[k, 1]) * width + x + COMMAND_DELTAS[k, 0]
            if hill_dist[nc] == 0 and not blocked[nc]:
                return k
    if assault:
        return _step_along(move_ok, width, c, hill_dist, blocked, rot, True)
    here = hill_dist[c]
    if here > STAGE_DISTANCE:
        for j in range(4):
            k = 1 + (j + rot) % 4
            if not move_ok[c, k]:
                continue
            nc = (y + COMMAND_DELTAS[k, 1]) * width + x + COMMAND_DELTAS[k, 0]
            d = hill_dist[nc]
            if not blocked[nc] and STAGE_DISTANCE <= d < here and d < STAGE_DISTANCE + STAGE_DEPTH:
                return k
    if here < STAGE_DISTANCE or here >= STAGE_DISTANCE + STAGE_DEPTH:
        return _step_along(move_ok, width, c, stage_dist, blocked, rot, True)
    return 0


@njit(cache=True)
def raider(s, p, env_ids, agent_ids, out):
    """Forages like greedy, then masses out of the enemy's sight and storms its hill."""
    move_ok = p.move_ok
    height, width = s.ant_at.shape[1], s.ant_at.shape[2]
    n = height * width
    food_dist = np.empty(n, dtype=np.int32)
    enemy_dist = np.empty(n, dtype=np.int32)
    hill_dist = np.empty(n, dtype=np.int32)
    home_dist = np.empty(n, dtype=np.int32)
    stage_dist = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    blocked = np.zeros(n, dtype=np.bool_)
    first = np.empty(n + 1, dtype=np.int32)
    order = np.empty(n, dtype=np.int32)
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        row = out[i]
        for c in range(n):
            row[c] = 0
        ant_x, ant_y, ant_owner, ant_at = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_at[e]
        num_ants = s.num_ants[e]
        hill_x, hill_y = s.hill_x[e], s.hill_y[e]
        hill_owner, hill_razed = s.hill_owner[e], s.hill_razed[e]
        rot = randint(s.rng, e, AGENT, 4)
        own, threatened = _distance_maps(move_ok, width, a, ant_x, ant_y, ant_owner, num_ants,
                                         s.food_x[e], s.food_y[e], s.num_food[e], hill_x, hill_y,
                                         hill_owner, hill_razed, food_dist, enemy_dist, hill_dist,
                                         queue, blocked)
        m = _farthest_first(move_ok, width, a, ant_x, ant_y, ant_owner, num_ants, hill_x, hill_y,
                            hill_owner, hill_razed, home_dist, queue, first, order)
        raiding = s.turn[e] >= RAID_TURN
        assault = False
        if raiding:
            massed = 0
            for j in range(num_ants):
                if ant_owner[j] == a:
                    d = hill_dist[ant_y[j] * width + ant_x[j]]
                    if d != UNREACHED and d <= STAGE_DISTANCE + WAVE_REACH:
                        massed += 1
            assault = massed >= WAVE
            _stage_map(move_ok, width, hill_dist, blocked, stage_dist, queue)
        for q in range(m):
            j = order[q]
            x, y = ant_x[j], ant_y[j]
            c = y * width + x
            if raiding and hill_dist[c] != UNREACHED:
                cmd = _raid_command(move_ok, width, c, hill_dist, stage_dist, blocked, rot, assault)
            else:
                cmd = _forage(move_ok, a, x, y, ant_owner, ant_at, food_dist, enemy_dist,
                              hill_dist, blocked, rot, own, threatened)
            if cmd > 0:
                blocked[c] = False          # followers may step in behind it
                blocked[(y + COMMAND_DELTAS[cmd, 1]) * width + x + COMMAND_DELTAS[cmd, 0]] = True
            row[c] = cmd


def command_per_cell(s):
    """One ant bot action: a command per cell of the map."""
    return (s.ant_at.shape[1] * s.ant_at.shape[2],)


BOTS = batch_typed({"random": random, "greedy": greedy, "raider": raider}, command_per_cell)
