"""Scripted players, jitted and batched: ``random``, ``greedy``, ``defensive`` and
``striped``.

Each bot is ``bot(s, p, env_ids, agent_ids, out)``: it writes into ``out[i]`` (a command per
tile of the player's own mirrored view, ``out.shape == (n, N * N)``) the commands of
player ``agent_ids[i]`` in env ``env_ids[i]``; tiles without an own unit get no-op.  They
change no game state; their random choices come from each env's ``AGENT`` stream.

``random``: each tile with own bots gets a uniformly random command among no-op, the legal
moves, blast and transform (where legal); an own tower blasts with probability
1 / ``NUM_COMMANDS`` once it may.

``greedy`` rushes the flags: a tile's bot blasts if at least ``BLAST_GROUP`` living enemy
bots stand within ``bot_blast_impact_radius`` of the tile's centre; on a flag tile without
a tower where it is the only unit it transforms; on a flag tile with other own bots it
steps to a neighbouring free flag tile; elsewhere it walks down a distance field to the
nearest flag tile without a tower (among equally near neighbours, the choice rotates
with the turn, so stacks fan out).  A tower blasts when at least ``TOWER_BLAST_GROUP``
enemy bots stand within half its radius.

``defensive`` plays as ``greedy`` with more targets: besides the free flag tiles, guard
posts on its own half of the map (nearer its base): free land tiles two tiles (Chebyshev)
from the nearest flag tile, one tile in three, so its towers ring the flag on its side
and leave gaps for its bots.  A guard tower blasts from ``GUARD_TOWER_GROUP`` enemy bots
near; its towers on flags as greedy's.

``striped`` (the training teacher of towers_v0) builds its towers on every other row of
the flag only: a flag tile whose row in the player's own view is even (on the default map
the flag block's second and fourth rows from the player's side), so the rows between stay
open for its bots, which stand there and score.  Every choice is a function of the board
(no turn-dependent tie-breaks: among equally good steps the first direction N, NE, ... NW
of the own view wins), which a cloned policy can copy.  A bot off the flags walks down a
distance field to the nearest free flag tile; one alone on a free tower-row tile without
enemy bots transforms; of a crowded flag tile the oldest bot steps to a neighbouring free
flag tile without own bots (a tower-row tile first); one alone on a tile between the rows
steps only to such a tower-row tile (else it stays).  Blasts as greedy's.  Greedy's towers
fill the flag tiles next to its entry corner and lock its own stack in there (greedy
against greedy ends with 150 bots on one flag tile a side); striped's keep the flag open
and its bots fighting on it: on the default map it beats greedy and defensive in every
game (and greedy in 80-100% of games where 10-20% of its commands are replaced by no-ops
or random moves).
"""
import math

import numpy as np
from numba import njit

from ...core.jit import batch_typed
from ...core.rng import AGENT, randint
from .constants import FIRST_MOVE, FLAG, NUM_COMMANDS, UNREACHED, Command
from .paths import NUM_DIRECTIONS, passable, step_ok
from .rules import tile_of, tower_age, view_direction, view_tile

BLAST_GROUP = 3
TOWER_BLAST_GROUP = 6
GUARD_TOWER_GROUP = 4        # a defensive guard tower (off the flags) blasts from this many
GUARD_DISTANCE = 2           # guard posts: this far (Chebyshev) from the nearest flag tile
GUARD_SPACING = 3            # a post on one tile in this many (by index in the own view)
TOWER_ROW_PARITY = 0         # striped: towers on the flag tiles whose own-view row has this parity
# striped's ranks of a step from a flag tile (lower first)
RANK_STAY, RANK_TOWER_ROW, RANK_OTHER_ROW, RANK_NONE = 0, 1, 2, 3
C_BLAST, C_TRANSFORM, C_NOOP = int(Command.BLAST), int(Command.TRANSFORM), int(Command.NOOP)


@njit(cache=True)
def random(s, p, env_ids, agent_ids, out):
    """A uniformly random legal command for every tile with own units."""
    size = s.terrain.shape[1]
    tiles = size * size
    for r in range(env_ids.shape[0]):
        e, a = env_ids[r], agent_ids[r]
        row = out[r]
        row[:] = C_NOOP
        terrain = s.terrain[e].reshape(tiles)
        for i in range(s.num_bots[e, a]):
            if s.bot_dead[e, a, i]:
                continue
            t = tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)
            legal = np.zeros(NUM_COMMANDS, dtype=np.bool_)
            legal[C_NOOP] = True
            legal[C_BLAST] = True
            legal[C_TRANSFORM] = t != p.base_tile[0] and t != p.base_tile[1]
            for k in range(NUM_DIRECTIONS):
                legal[FIRST_MOVE + view_direction(k, a)] = step_ok(terrain, s.tower_at[e], p.nbr, t, k)
            pick = randint(s.rng, e, AGENT, legal.sum())
            for c in range(NUM_COMMANDS):
                if legal[c]:
                    if pick == 0:
                        row[view_tile(t, a, tiles)] = c
                        break
                    pick -= 1
        for i in range(s.num_towers[e, a]):
            if not s.tower_dead[e, a, i] and tower_age(s, e, a, i) >= p.tower_min_blast_age:
                if randint(s.rng, e, AGENT, NUM_COMMANDS) == 0:
                    t = s.tower_x[e, a, i] * size + s.tower_y[e, a, i]
                    row[view_tile(t, a, tiles)] = C_BLAST


@njit(cache=True)
def target_field(s, p, e, targets, dist, queue):
    """``dist``: steps from every tile to the nearest target tile (``targets`` bool)."""
    tiles = dist.shape[0]
    terrain = s.terrain[e].reshape(tiles)
    tail = 0
    for t in range(tiles):
        dist[t] = UNREACHED
        if targets[t]:
            dist[t] = 0
            queue[tail] = t
            tail += 1
    head = 0
    while head < tail:
        t = queue[head]
        head += 1
        for k in range(NUM_DIRECTIONS):
            n = p.nbr[t, k]
            if n >= 0 and dist[n] == UNREACHED and step_ok(terrain, s.tower_at[e], p.nbr, t, k):
                dist[n] = dist[t] + 1
                queue[tail] = n
                tail += 1


@njit(cache=True)
def enemies_near(s, e, b, bx, by, radius):
    """Living bots of player b within ``radius`` of (bx, by)."""
    n = 0
    for j in range(s.num_bots[e, b]):
        if not s.bot_dead[e, b, j]:
            if math.hypot(s.bot_x[e, b, j] - bx, s.bot_y[e, b, j] - by) <= radius:
                n += 1
    return n


@njit(cache=True)
def play_targets(s, p, e, a, targets, tower_group, flag_tower_group, row, dist, queue, own):
    """The command grid ``row`` of player a (its view) that sends its bots to the
    ``targets`` tiles to transform there, blasting enemy groups on the way; its towers
    blast from ``tower_group`` enemy bots near, those on a flag tile from
    ``flag_tower_group``."""
    size = s.terrain.shape[1]
    tiles = size * size
    terrain = s.terrain[e].reshape(tiles)
    tower_at = s.tower_at[e]
    b = 1 - a
    target_field(s, p, e, targets, dist, queue)
    own[:] = 0
    for i in range(s.num_bots[e, a]):
        if not s.bot_dead[e, a, i]:
            own[tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)] += 1
    enemy = np.zeros(tiles, dtype=np.int64)
    for j in range(s.num_bots[e, b]):
        if not s.bot_dead[e, b, j]:
            enemy[tile_of(s.bot_x[e, b, j], s.bot_y[e, b, j], size)] += 1
    spin = s.turn[e]
    for t in range(tiles):
        if own[t] == 0:
            continue
        v = view_tile(t, a, tiles)
        cx, cy = t // size + 0.5, t % size + 0.5
        if enemies_near(s, e, b, cx, cy, p.bot_blast_impact_radius) >= BLAST_GROUP:
            row[v] = C_BLAST
            continue
        if targets[t] and own[t] == 1 and enemy[t] == 0:
            row[v] = C_TRANSFORM
            continue
        best, choice = dist[t], -1
        if targets[t]:
            best = 1        # on a crowded target: step to a neighbouring target tile
        for k in range(NUM_DIRECTIONS):
            # rotate in the player's own view, so that both seats play mirror images
            kk = view_direction((k + spin + v) % NUM_DIRECTIONS, a)
            n = p.nbr[t, kk]
            if n < 0 or dist[n] == UNREACHED or not step_ok(terrain, tower_at, p.nbr, t, kk):
                continue
            if targets[t] and (not targets[n] or own[n] > 0):
                continue
            if dist[n] < best or (dist[n] == best and choice < 0 and targets[t]):
                best, choice = dist[n], kk
        if choice >= 0:
            row[v] = FIRST_MOVE + view_direction(choice, a)
    tower_blasts(s, p, e, a, tower_group, flag_tower_group, row)


@njit(cache=True)
def tower_blasts(s, p, e, a, tower_group, flag_tower_group, row):
    """Player a's towers that may blast do (in ``row``, its view) when at least
    ``tower_group`` enemy bots stand within half their radius (``flag_tower_group`` for a
    tower on a flag tile)."""
    size = s.terrain.shape[1]
    tiles = size * size
    terrain = s.terrain[e].reshape(tiles)
    for i in range(s.num_towers[e, a]):
        if s.tower_dead[e, a, i] or tower_age(s, e, a, i) < p.tower_min_blast_age:
            continue
        tx, ty = s.tower_x[e, a, i], s.tower_y[e, a, i]
        group = flag_tower_group if terrain[tx * size + ty] == FLAG else tower_group
        if enemies_near(s, e, 1 - a, tx + 0.5, ty + 0.5,
                        p.tower_blast_impact_radius / 2) >= group:
            row[view_tile(tx * size + ty, a, tiles)] = C_BLAST


@njit(cache=True)
def free_flags(s, e, targets):
    """``targets``: the flag tiles without a tower; returns how many."""
    tiles = targets.shape[0]
    terrain = s.terrain[e].reshape(tiles)
    n = 0
    for t in range(tiles):
        targets[t] = terrain[t] == FLAG and s.tower_at[e, t] < 0
        n += targets[t]
    return n


@njit(cache=True)
def greedy(s, p, env_ids, agent_ids, out):
    """Rush the flags, transform on them, blast enemy groups (see the module doc)."""
    tiles = s.terrain.shape[1] * s.terrain.shape[2]
    targets = np.zeros(tiles, dtype=np.bool_)
    dist, queue, own = (np.zeros(tiles, dtype=np.int64), np.zeros(tiles, dtype=np.int64),
                        np.zeros(tiles, dtype=np.int64))
    for r in range(env_ids.shape[0]):
        e, a = env_ids[r], agent_ids[r]
        out[r][:] = C_NOOP
        free_flags(s, e, targets)
        play_targets(s, p, e, a, targets, TOWER_BLAST_GROUP, TOWER_BLAST_GROUP, out[r], dist,
                     queue, own)


@njit(cache=True)
def guard_posts(s, p, e, a, targets):
    """Add to ``targets`` the free land tiles of player a's half at Chebyshev distance
    ``GUARD_DISTANCE`` from the nearest flag tile whose index in the player's own view is
    a multiple of ``GUARD_SPACING`` (both seats set mirror images; the gaps between the
    posts leave the flag open to the player's own bots)."""
    size = s.terrain.shape[1]
    terrain = s.terrain[e].reshape(size * size)
    base, other = p.base_tile[a], p.base_tile[1 - a]
    bx, by, ox, oy = base // size, base % size, other // size, other % size
    flags = np.flatnonzero(terrain == FLAG)
    for t in range(size * size):
        x, y = t // size, t % size
        if terrain[t] == FLAG or not passable(terrain, s.tower_at[e], t) or t == base \
                or t == other or view_tile(t, a, size * size) % GUARD_SPACING != 0 \
                or abs(x - bx) + abs(y - by) >= abs(x - ox) + abs(y - oy):
            continue
        near = GUARD_DISTANCE + 1
        for f in flags:
            near = min(near, max(abs(f // size - x), abs(f % size - y)))
        if near == GUARD_DISTANCE:
            targets[t] = True


@njit(cache=True)
def defensive(s, p, env_ids, agent_ids, out):
    """Greedy that also sets guard towers around the flags on its own half."""
    tiles = s.terrain.shape[1] * s.terrain.shape[2]
    targets = np.zeros(tiles, dtype=np.bool_)
    dist, queue, own = (np.zeros(tiles, dtype=np.int64), np.zeros(tiles, dtype=np.int64),
                        np.zeros(tiles, dtype=np.int64))
    for r in range(env_ids.shape[0]):
        e, a = env_ids[r], agent_ids[r]
        out[r][:] = C_NOOP
        free_flags(s, e, targets)
        guard_posts(s, p, e, a, targets)
        play_targets(s, p, e, a, targets, GUARD_TOWER_GROUP, TOWER_BLAST_GROUP, out[r], dist,
                     queue, own)


@njit(cache=True)
def tower_row(v, size):
    """Whether own-view tile ``v`` lies on a row where ``striped`` builds its towers."""
    return (v // size) % 2 == TOWER_ROW_PARITY


@njit(cache=True)
def first_step(s, p, e, a, t, dist, targets, own, tiles):
    """``striped``'s direction (absolute, -1: stay) for the oldest bot on tile t of player
    a, ``dist`` the distance field to the free flag tiles ``targets`` (module doc)."""
    size = s.terrain.shape[1]
    terrain = s.terrain[e].reshape(tiles)
    tower_at = s.tower_at[e]
    v = view_tile(t, a, tiles)
    choice = -1
    if targets[t]:
        best = RANK_STAY if own[t] == 1 and tower_row(v, size) else RANK_NONE
        for k in range(NUM_DIRECTIONS):
            kk = view_direction(k, a)
            n = p.nbr[t, kk]
            if n < 0 or not targets[n] or own[n] > 0 \
                    or not step_ok(terrain, tower_at, p.nbr, t, kk):
                continue
            rank = RANK_TOWER_ROW if tower_row(view_tile(n, a, tiles), size) else RANK_OTHER_ROW
            if own[t] == 1 and rank == RANK_OTHER_ROW:
                continue            # a lone bot between the rows keeps its tile
            if rank < best:
                best, choice = rank, kk
        return choice
    best = dist[t]
    for k in range(NUM_DIRECTIONS):
        kk = view_direction(k, a)
        n = p.nbr[t, kk]
        if n < 0 or dist[n] == UNREACHED or not step_ok(terrain, tower_at, p.nbr, t, kk):
            continue
        if dist[n] < best:
            best, choice = dist[n], kk
    return choice


@njit(cache=True)
def striped(s, p, env_ids, agent_ids, out):
    """Towers on every other row of the flag, bots on the rows between (module doc)."""
    size = s.terrain.shape[1]
    tiles = size * size
    targets = np.zeros(tiles, dtype=np.bool_)
    dist, queue, own, enemy = (np.zeros(tiles, dtype=np.int64), np.zeros(tiles, dtype=np.int64),
                               np.zeros(tiles, dtype=np.int64), np.zeros(tiles, dtype=np.int64))
    for r in range(env_ids.shape[0]):
        e, a = env_ids[r], agent_ids[r]
        b = 1 - a
        row = out[r]
        row[:] = C_NOOP
        free_flags(s, e, targets)
        target_field(s, p, e, targets, dist, queue)
        own[:] = 0
        enemy[:] = 0
        for i in range(s.num_bots[e, a]):
            if not s.bot_dead[e, a, i]:
                own[tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)] += 1
        for j in range(s.num_bots[e, b]):
            if not s.bot_dead[e, b, j]:
                enemy[tile_of(s.bot_x[e, b, j], s.bot_y[e, b, j], size)] += 1
        for t in range(tiles):
            if own[t] == 0:
                continue
            v = view_tile(t, a, tiles)
            near = enemies_near(s, e, b, t // size + 0.5, t % size + 0.5,
                                p.bot_blast_impact_radius)
            if near >= BLAST_GROUP:
                row[v] = C_BLAST
            elif targets[t] and tower_row(v, size) and own[t] == 1 and enemy[t] == 0:
                row[v] = C_TRANSFORM
            else:
                k = first_step(s, p, e, a, t, dist, targets, own, tiles)
                if k >= 0:
                    row[v] = FIRST_MOVE + view_direction(k, a)
        tower_blasts(s, p, e, a, TOWER_BLAST_GROUP, TOWER_BLAST_GROUP, row)


def command_per_cell(s):
    """One towers bot action: a command per tile of the map."""
    return (s.terrain.shape[1] * s.terrain.shape[2],)


BOTS = batch_typed({"random": random, "greedy": greedy, "defensive": defensive,
                    "striped": striped}, command_per_cell)
