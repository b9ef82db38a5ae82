"""Towers' pathing: where a bot walks next on its way to a destination.

The choice (documented in the env's docstring): tiles form an 8-connected grid; a tile is
passable unless it is water or holds a living tower; a diagonal step needs both
orthogonal tiles beside it passable (no corner cutting).  A shortest path counts steps (a
diagonal step is one).  A bot walks from its position to the centre of the next tile on a
shortest path, tile centre by tile centre, and from the destination's tile, or a tile
next to it, straight to the destination: every straight leg stays inside the tiles the
step connects, so it never touches water or a tower.

Paths are read from distance fields: the steps from every tile to the destination tile,
by a breadth-first search from the destination (``distance_field``).  An env keeps the
fields of its last ``FIELD_SLOTS`` destinations (``field_dest``, replaced round robin)
and drops them all when a tower appears or dies (``forget_fields``), the only change of
the graph during a game.  A step to a passable neighbouring destination needs no field.
"""
from ...core.jit import hot, phase
from .constants import NUM_COMMANDS, FIRST_MOVE, UNREACHED, WATER

NUM_DIRECTIONS = NUM_COMMANDS - FIRST_MOVE - 2   # the 8 moves (blast, transform follow)


@phase
def passable(terrain, tower_at, t):
    """Tile t (flat) can be walked on: not water, no living tower."""
    return terrain[t] != WATER and tower_at[t] < 0


@phase
def step_ok(terrain, tower_at, nbr, t, k):
    """A bot may step from tile t to its neighbour in direction k (``nbr[t, k]``, -1 off
    the map): that tile is passable and, for a diagonal (odd k), so are both tiles
    beside the step."""
    n = nbr[t, k]
    if n < 0 or not passable(terrain, tower_at, n):
        return False
    if k % 2 == 1:
        if not passable(terrain, tower_at, nbr[t, k - 1]):
            return False
        if not passable(terrain, tower_at, nbr[t, (k + 1) % NUM_DIRECTIONS]):
            return False
    return True


@hot
def distance_field(terrain, tower_at, nbr, dest, dist, queue):
    """``dist[t]``: steps from tile t to tile ``dest`` (UNREACHED where no path leads)."""
    for t in range(dist.shape[0]):
        dist[t] = UNREACHED
    dist[dest] = 0
    queue[0] = dest
    head, tail = 0, 1
    while head < tail:
        t = queue[head]
        head += 1
        for k in range(NUM_DIRECTIONS):
            n = nbr[t, k]
            if n >= 0 and dist[n] == UNREACHED and step_ok(terrain, tower_at, nbr, t, k):
                dist[n] = dist[t] + 1
                queue[tail] = n
                tail += 1


@hot(python=True)
def forget_fields(s, e):
    """Drop env e's distance fields (the towers changed)."""
    for k in range(s.field_dest.shape[1]):
        s.field_dest[e, k] = -1


@hot
def field_of(s, p, e, dest):
    """The slot of env e's distance field to tile ``dest``, searched if not kept."""
    dests = s.field_dest[e]
    for k in range(dests.shape[0]):
        if dests[k] == dest:
            return k
    k = s.field_next[e]
    s.field_next[e] = (k + 1) % dests.shape[0]
    size = s.terrain.shape[1]
    distance_field(s.terrain[e].reshape(size * size), s.tower_at[e], p.nbr, dest,
                   s.field[e, k], s.queue[e])
    dests[k] = dest
    return k


@hot
def step_by_field(s, p, e, t, dest):
    """The neighbour of tile t on a shortest path to tile ``dest`` by env e's distance
    field to ``dest``, or -1 if none leads there."""
    size = s.terrain.shape[1]
    terrain, tower_at, nbr = s.terrain[e].reshape(size * size), s.tower_at[e], p.nbr
    if not passable(terrain, tower_at, dest):
        return -1
    dist = s.field[e, field_of(s, p, e, dest)]
    best, choice = dist[t], -1
    if best == UNREACHED:
        return -1
    for k in range(NUM_DIRECTIONS):
        n = nbr[t, k]
        if n >= 0 and dist[n] != UNREACHED and dist[n] < best and step_ok(terrain, tower_at, nbr, t, k):
            best, choice = dist[n], n
    return choice


@phase
def next_tile(s, p, e, terrain, tower_at, t, dest):
    """The tile a bot on tile t steps to on a shortest path to tile ``dest`` (t != dest),
    or -1 if none leads there (``terrain``, ``tower_at``: env e's, flat).  A passable
    neighbour is stepped to at once (most moves: a command targets a neighbour)."""
    nbr = p.nbr
    for k in range(NUM_DIRECTIONS):
        if nbr[t, k] == dest and step_ok(terrain, tower_at, nbr, t, k):
            return dest
    return step_by_field(s, p, e, t, dest)
