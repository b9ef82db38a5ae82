"""Scripted dungeon players, jitted and batched: ``random``, ``safe_bomber`` (alias
``greedy``), ``aggressive`` and ``trapper``.

Each bot is ``bot(s, p, env_ids, agent_ids, out)``: it writes into ``out[i]`` the action of
player ``agent_ids[i]`` in env ``env_ids[i]``.  They change no game state (only the
``hit_in``, ``blast`` and ``chain`` scratch; what they try out on the board is put back),
and their random choices come from each env's ``AGENT`` stream, never from the game's own.

The planners read a danger map: for every cell, the number of ticks until a fire hits
it (1 = during the next tick), from the fire on the board and from every bomb's blast on
the current board, chains included (``rules.hit_times``).

``safe_bomber``: if its cell is in danger, it runs along the shortest path whose every
step is not hit on the tick it arrives there, to a cell no fire will hit.  Otherwise it
places a bomb when its blast would reach a wooden or ore block (``aggressive``: an
opponent, too) and an escape path exists with that bomb added; else it walks, through
cells no fire will hit, towards the nearest such bombing cell, ammo or treasure; else
it waits.  ``aggressive`` does the same but prefers cells from which its blast covers an
opponent, and walks towards opponents when nothing else is in reach.

``trapper`` escapes the same way; otherwise it goes for the cell, among those it can
walk to through cells no fire will hit, with the most points per step (value / (steps +
``WALK_OVERHEAD``)), and bombs on arrival (only where ``safe_bomber`` would find an
escape).  A cell's value: ammo (``AMMO_VALUE``), treasure, and with ammo in hand the
blocks its blast would reach counted with the bombs already on the board: a block those
bombs destroy is worth nothing, the hit that breaks a block pays its points (an ore block
with one hit left: the ore's 10), an earlier hit on ore ``ORE_SHARE`` of its points split
over the hits left; plus ``hit_points`` if a bomb there would leave an opponent in its
blast no escape (``safe_bomber``'s own escape search finds none, so it stays and is hit).
With nothing worth a step it walks towards the nearest opponent.  Against
``safe_bomber`` it wins mostly on ore (it takes the last hits and wastes no bombs on
blocks already doomed) and on the traps.
"""
import numpy as np
from numba import njit

from ...core.jit import batch_typed
from ...core.rng import AGENT, randint
from .constants import AMMO, NUM_ACTIONS, ORE, TREASURE, WOOD
from .rules import ACTION_DELTAS, BOMB_ACTION, can_enter, hit_times, legal_actions, reach

NO_DANGER = 1 << 30
NO_ESCAPE = -1
SAFE, AGGRESSIVE, TRAPPER = 0, 1, 2     # _plan's styles
AMMO_VALUE = 4.0        # trapper: points an ammo token is worth (the blocks of a next bomb)
ORE_SHARE = 0.5         # trapper: share of the ore's points credited to the hits before the last
WALK_OVERHEAD = 4.0     # trapper: steps added to every walk (placing the bomb, running off)
NO_TARGET = -1


@njit(cache=True)
def random(s, p, env_ids, agent_ids, out):
    """A uniformly random legal action."""
    legal = np.empty(NUM_ACTIONS, dtype=np.int8)
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        legal_actions(s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e], s.ammo[e], a, legal)
        k = randint(s.rng, e, AGENT, legal.sum())
        for act in range(NUM_ACTIONS):
            if legal[act]:
                if k == 0:
                    out[i] = act
                    break
                k -= 1


@njit(cache=True)
def _add_blast(tiles, bomb_grid, danger, x, y, power, when):
    if danger[y, x] > when:
        danger[y, x] = when
    for d in range(1, 5):
        r = reach(tiles, bomb_grid, x, y, d, power)
        for k in range(1, r + 1):
            cx, cy = x + k * ACTION_DELTAS[d, 0], y + k * ACTION_DELTAS[d, 1]
            if danger[cy, cx] > when:
                danger[cy, cx] = when


@njit(cache=True)
def danger_map(s, e, danger):
    """``danger[y, x]``: ticks until a fire hits the cell (NO_DANGER if none foreseen)."""
    tiles, bomb_grid = s.tiles[e], s.bomb_grid[e]
    danger[:] = NO_DANGER
    for f in range(s.num_fires[e]):
        x, y = s.fire_x[e, f], s.fire_y[e, f]
        danger[y, x] = 1
        for d in range(4):
            for k in range(1, s.fire_reach[e, f, d] + 1):
                danger[y + k * ACTION_DELTAS[d + 1, 1], x + k * ACTION_DELTAS[d + 1, 0]] = 1
    hit_in = s.hit_in[e]
    nb = hit_times(s, e, hit_in)
    for b in range(nb):
        _add_blast(tiles, bomb_grid, danger, s.bomb_x[e, b], s.bomb_y[e, b], s.bomb_power[e, b],
                   hit_in[b])


@njit(cache=True)
def _escape(tiles, bomb_grid, positions, a, danger, dist, queue, first, rot, t0):
    """First move (1..4) of a shortest path to a cell no fire will hit, every step safe on
    the tick it is taken, for player a standing on its cell at tick ``t0`` (0: now); 0 if
    that cell is such a cell; NO_ESCAPE if none."""
    height, width = tiles.shape
    x0, y0 = positions[a, 0], positions[a, 1]
    if danger[y0, x0] == NO_DANGER:
        return 0
    dist[:] = -1
    dist[y0, x0] = t0
    queue[0] = y0 * width + x0
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        y, x = c // width, c % width
        t = dist[y, x] + 1
        for j in range(4):
            d = 1 + (j + rot) % 4
            nx, ny = x + ACTION_DELTAS[d, 0], y + ACTION_DELTAS[d, 1]
            if not can_enter(tiles, bomb_grid, positions, nx, ny) or dist[ny, nx] >= 0:
                continue
            if danger[ny, nx] == t:
                continue                      # hit on the tick it would arrive
            dist[ny, nx] = t
            first[ny, nx] = d if t == t0 + 1 else first[y, x]
            if danger[ny, nx] == NO_DANGER:
                return first[ny, nx]
            queue[tail] = ny * width + nx
            tail += 1
    return NO_ESCAPE


@njit(cache=True)
def _blast_hits(tiles, bomb_grid, positions, alive, a, x, y, power, want_blocks, want_players):
    """Whether a bomb of player a at (x, y) would hit a wooden/ore block or an opponent."""
    for d in range(1, 5):
        r = reach(tiles, bomb_grid, x, y, d, power)
        if want_blocks and r > 0:
            cx, cy = x + r * ACTION_DELTAS[d, 0], y + r * ACTION_DELTAS[d, 1]
            t = tiles[cy, cx]
            if t == WOOD or t == ORE:
                return True
        if want_players:
            for b in range(positions.shape[0]):
                if b == a or not alive[b]:
                    continue
                for k in range(0, r + 1):
                    if positions[b, 0] == x + k * ACTION_DELTAS[d, 0] and \
                            positions[b, 1] == y + k * ACTION_DELTAS[d, 1]:
                        return True
    return False


@njit(cache=True)
def _can_escape(tiles, bomb_grid, positions, a, danger, dist, queue, first, t0):
    """Whether player a, standing on its cell at tick ``t0`` (0: now), is not hit there
    then and finds an escape (``_escape``)."""
    x, y = positions[a, 0], positions[a, 1]
    return danger[y, x] != t0 and \
        _escape(tiles, bomb_grid, positions, a, danger, dist, queue, first, 0, t0) != NO_ESCAPE


@njit(cache=True)
def _bomb_is_safe(s, p, e, a, danger, scratch, dist, queue, first, t0):
    """Whether player a could still escape after placing a bomb on its cell, standing
    there at tick ``t0`` (the bots plan from now, 0; the shield from after this tick, 1)."""
    tiles, bomb_grid, positions = s.tiles[e], s.bomb_grid[e], s.positions[e]
    x, y = positions[a, 0], positions[a, 1]
    scratch[:, :] = danger
    bomb_grid[y, x] = s.num_bombs[e] + 1      # the bomb blocks and stops fire (restored below)
    _add_blast(tiles, bomb_grid, scratch, x, y, s.power[e, a], p.bomb_fuse + 1)
    ok = _can_escape(tiles, bomb_grid, positions, a, scratch, dist, queue, first, t0)
    bomb_grid[y, x] = 0
    return ok


@njit(cache=True)
def _reach(tiles, bomb_grid, positions, danger, dist, first, x, y, nx, ny, d):
    """One step of the bots' searches from ``(x, y)`` by move ``d`` to ``(nx, ny)``: when
    that cell can be entered, no fire is due on it and it is not reached yet, it gets its
    distance and the path's first move, and True is returned."""
    if not can_enter(tiles, bomb_grid, positions, nx, ny) or dist[ny, nx] >= 0:
        return False
    if danger[ny, nx] != NO_DANGER:
        return False
    dist[ny, nx] = dist[y, x] + 1
    first[ny, nx] = d if dist[y, x] == 0 else first[y, x]
    return True


@njit(cache=True)
def _towards(s, e, a, danger, dist, queue, first, rot, hunt, blocks, items, opponents):
    """First move of a shortest path through cells no fire will hit to the nearest target:
    a cell whose bomb would hit a block (``blocks``) or an opponent (``hunt``), ammo or
    treasure (``items``), or a cell next to an opponent (``opponents``); 0 if none."""
    tiles, bomb_grid, positions, alive = s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e]
    height, width = tiles.shape
    power = s.power[e, a]
    x0, y0 = positions[a, 0], positions[a, 1]
    dist[:] = -1
    dist[y0, x0] = 0
    queue[0] = y0 * width + x0
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        y, x = c // width, c % width
        for j in range(4):
            d = 1 + (j + rot) % 4
            nx, ny = x + ACTION_DELTAS[d, 0], y + ACTION_DELTAS[d, 1]
            if opponents and 0 <= nx < width and 0 <= ny < height:
                for b in range(positions.shape[0]):
                    if b != a and alive[b] and positions[b, 0] == nx and positions[b, 1] == ny:
                        if dist[y, x] > 0:
                            return first[y, x]
            if not _reach(tiles, bomb_grid, positions, danger, dist, first, x, y, nx, ny, d):
                continue
            t = tiles[ny, nx]
            if items and (t == AMMO or t == TREASURE):
                return first[ny, nx]
            if (blocks or hunt) and _blast_hits(tiles, bomb_grid, positions, alive, a, nx, ny,
                                                power, blocks, hunt):
                return first[ny, nx]
            queue[tail] = ny * width + nx
            tail += 1
    return 0


@njit(cache=True)
def _bomb_traps(s, p, e, a, x, y, danger, scratch, dist, queue, first):
    """Whether a bomb placed by player a standing at (x, y) would leave an opponent in its
    blast no escape (``_escape`` finds none) while a could still escape."""
    tiles, bomb_grid, positions, alive = s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e]
    x0, y0 = positions[a, 0], positions[a, 1]
    positions[a, 0], positions[a, 1] = x, y   # tried there (restored below)
    trapped = False
    if _bomb_is_safe(s, p, e, a, danger, scratch, dist, queue, first, 0):   # scratch: with it
        bomb_grid[y, x] = s.num_bombs[e] + 1
        for b in range(positions.shape[0]):
            if b == a or not alive[b] or scratch[positions[b, 1], positions[b, 0]] == NO_DANGER:
                continue
            if _escape(tiles, bomb_grid, positions, b, scratch, dist, queue, first, 0, 0) == NO_ESCAPE:
                trapped = True
        bomb_grid[y, x] = 0
    positions[a, 0], positions[a, 1] = x0, y0
    return trapped


@njit(cache=True)
def _pending_hits(s, e, x, y):
    """How many bombs on the board will hit the block at (x, y) (their arms in ``s.blast``,
    as ``danger_map`` left them)."""
    blast = s.blast[e]
    n = 0
    for b in range(s.num_bombs[e]):
        for d in range(4):
            r = blast[b, d]
            if r > 0 and s.bomb_x[e, b] + r * ACTION_DELTAS[d + 1, 0] == x and \
                    s.bomb_y[e, b] + r * ACTION_DELTAS[d + 1, 1] == y:
                n += 1
    return n


@njit(cache=True)
def _bomb_value(s, p, e, x, y, power):
    """The points a bomb at (x, y) is worth for the blocks it would hit, after the bombs
    already on the board: the hit that breaks a block pays its points, an earlier hit on
    ore ``ORE_SHARE`` of its points over the hits left, a block they destroy nothing."""
    tiles, bomb_grid = s.tiles[e], s.bomb_grid[e]
    value = 0.0
    for d in range(1, 5):
        r = reach(tiles, bomb_grid, x, y, d, power)
        if r == 0:
            continue
        cx, cy = x + r * ACTION_DELTAS[d, 0], y + r * ACTION_DELTAS[d, 1]
        t = tiles[cy, cx]
        if t == WOOD:
            left, points = 1, p.wood_points
        elif t == ORE:
            left, points = int(s.ore_hp[e, cy, cx]), p.ore_points
        else:
            continue
        left -= _pending_hits(s, e, cx, cy)
        if left == 1:
            value += points
        elif left > 1:
            value += ORE_SHARE * points / left
    return value


@njit(cache=True)
def _best_target(s, p, e, a, danger, scratch, dist, queue, first, dist2, queue2, first2, rot):
    """First move towards the cell worth the most points per step (see the module
    docstring), through cells no fire will hit; 0: bomb here; NO_TARGET if nothing is
    worth a step.  ``dist2``, ``queue2``, ``first2``: scratch of the searches it tries."""
    tiles, bomb_grid, positions, alive = s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e]
    height, width = tiles.shape
    power = s.power[e, a]
    armed = s.ammo[e, a] > 0
    x0, y0 = positions[a, 0], positions[a, 1]
    bomb_here = armed and bomb_grid[y0, x0] == 0 and \
        _bomb_is_safe(s, p, e, a, danger, scratch, dist2, queue2, first2, 0)
    dist[:] = -1
    dist[y0, x0] = 0
    first[y0, x0] = 0
    queue[0] = y0 * width + x0
    head, tail = 0, 1
    best, best_move = 0.0, NO_TARGET
    while head < tail:
        c = queue[head]
        head += 1
        y, x = c // width, c % width
        value = 0.0
        if tiles[y, x] == AMMO:
            value += AMMO_VALUE
        elif tiles[y, x] == TREASURE:
            value += p.treasure_points
        if armed and bomb_grid[y, x] == 0 and (dist[y, x] > 0 or bomb_here):
            value += _bomb_value(s, p, e, x, y, power)
            if _blast_hits(tiles, bomb_grid, positions, alive, a, x, y, power, False, True) and \
                    _bomb_traps(s, p, e, a, x, y, danger, scratch, dist2, queue2, first2):
                value += p.hit_points
        if value / (dist[y, x] + WALK_OVERHEAD) > best:
            best, best_move = value / (dist[y, x] + WALK_OVERHEAD), first[y, x]
        for j in range(4):
            d = 1 + (j + rot) % 4
            nx, ny = x + ACTION_DELTAS[d, 0], y + ACTION_DELTAS[d, 1]
            if not _reach(tiles, bomb_grid, positions, danger, dist, first, x, y, nx, ny, d):
                continue
            queue[tail] = ny * width + nx
            tail += 1
    return best_move


@njit(cache=True)
def _scratch(s):
    """The searches' scratch for a board of ``s``: the danger map, a second one (with a
    tried bomb), distances, first moves and the queue."""
    height, width = s.tiles.shape[1], s.tiles.shape[2]
    return (np.empty((height, width), dtype=np.int32), np.empty((height, width), dtype=np.int32),
            np.empty((height, width), dtype=np.int32), np.zeros((height, width), dtype=np.int32),
            np.empty(height * width, dtype=np.int32))


@njit(cache=True)
def _plan(s, p, env_ids, agent_ids, out, style):
    if env_ids.shape[0] == 0:
        return
    danger, scratch, dist, first, queue = _scratch(s)
    _, _, dist2, first2, queue2 = _scratch(s)
    aggressive = style == AGGRESSIVE
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        out[i] = 0
        if not s.alive[e, a]:
            continue
        rot = randint(s.rng, e, AGENT, 4)
        tiles, bomb_grid, positions, alive = s.tiles[e], s.bomb_grid[e], s.positions[e], s.alive[e]
        danger_map(s, e, danger)
        x, y = positions[a, 0], positions[a, 1]
        if danger[y, x] != NO_DANGER:
            move = _escape(tiles, bomb_grid, positions, a, danger, dist, queue, first, rot, 0)
            out[i] = move if move > 0 else 0
            continue
        if style == TRAPPER:
            move = _best_target(s, p, e, a, danger, scratch, dist, queue, first, dist2, queue2,
                                first2, rot)
            if move == 0:
                out[i] = BOMB_ACTION
            elif move == NO_TARGET:
                out[i] = _towards(s, e, a, danger, dist, queue, first, rot, False, False, False,
                                  True)
            else:
                out[i] = move
            continue
        can_bomb = s.ammo[e, a] > 0 and bomb_grid[y, x] == 0
        if can_bomb and _blast_hits(tiles, bomb_grid, positions, alive, a, x, y, s.power[e, a],
                                    True, aggressive):
            if _bomb_is_safe(s, p, e, a, danger, scratch, dist, queue, first, 0):
                out[i] = BOMB_ACTION
                continue
        move = 0
        if aggressive and can_bomb:
            move = _towards(s, e, a, danger, dist, queue, first, rot, True, False, False, False)
        if move == 0:
            move = _towards(s, e, a, danger, dist, queue, first, rot, False, can_bomb, True, False)
        if move == 0 and aggressive:
            move = _towards(s, e, a, danger, dist, queue, first, rot, False, False, False, True)
        out[i] = move


@njit(cache=True)
def _shield_player(s, p, e, a, danger, scratch, dist, queue, first, mask):
    """Clear ``mask``'s actions after which player a could not escape (see ``shield``),
    unless that would clear them all."""
    tiles, bomb_grid, positions = s.tiles[e], s.bomb_grid[e], s.positions[e]
    x0, y0 = positions[a, 0], positions[a, 1]
    keep = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for act in range(NUM_ACTIONS):
        if not mask[act]:
            continue
        if act == BOMB_ACTION:
            keep[act] = _bomb_is_safe(s, p, e, a, danger, scratch, dist, queue, first, 1)
        else:
            positions[a, 0] = x0 + ACTION_DELTAS[act, 0]   # tried there (restored below)
            positions[a, 1] = y0 + ACTION_DELTAS[act, 1]
            keep[act] = _can_escape(tiles, bomb_grid, positions, a, danger, dist, queue, first,
                                    1)
            positions[a, 0], positions[a, 1] = x0, y0
    if keep.any():
        for act in range(NUM_ACTIONS):
            mask[act] = keep[act]


@njit(cache=True)
def shield(s, p, masks):
    """The shielded action masks (``Config.shield``): for every live player of every env
    still playing, the legal actions in ``masks`` (``[E, A, actions]``) after which it
    would have no escape are cleared, unless none keeps one.  After the action the
    player stands on its (new) cell during the next tick; it must not be hit there then,
    and from there a path must lead to a cell no fire will hit (``_escape``), with the
    bomb's own blast added for a bomb.  What it foresees is the bots' danger map: the
    fire and the bombs on the board with their chains, not the other players' moves and
    bombs."""
    danger, scratch, dist, first, queue = _scratch(s)
    for e in range(masks.shape[0]):
        if s.over[e]:
            continue
        danger_map(s, e, danger)
        for a in range(masks.shape[1]):
            if s.alive[e, a]:
                _shield_player(s, p, e, a, danger, scratch, dist, queue, first, masks[e, a])


@njit(cache=True)
def safe_bomber(s, p, env_ids, agent_ids, out):
    """Bombs blocks, collects ammo and treasure, never stands in a blast it can foresee."""
    _plan(s, p, env_ids, agent_ids, out, SAFE)


@njit(cache=True)
def aggressive(s, p, env_ids, agent_ids, out):
    """Hunts the opponents (bombs them when its blast reaches them), safely."""
    _plan(s, p, env_ids, agent_ids, out, AGGRESSIVE)


@njit(cache=True)
def trapper(s, p, env_ids, agent_ids, out):
    """Goes for the most points per step (ore's last hits, ammo) and traps opponents."""
    _plan(s, p, env_ids, agent_ids, out, TRAPPER)


BOTS = batch_typed({"random": random, "safe_bomber": safe_bomber, "greedy": safe_bomber,
                    "aggressive": aggressive, "trapper": trapper})
