"""Ants' rules: one jitted function per phase of a turn, in the order of
the contest's turn (checked against the original server).  A turn (``play_turn``) runs:

1. ``move``          every ant takes its colony's command for its cell: a neighbour that is
                     on the map and not water, else it stays.  All at once; every cell then
                     holding two or more ants kills them all (same colony too); swaps pass.
2. ``attack``        focus_split as the seed's pseudocode: an ant's focus is the number of
                     enemy ants within ``attack_radius2``; an ant dies if any enemy in its
                     range has a focus lower than or equal to its own.  All at once.
3. ``raze``          every ant standing on a standing enemy hill razes it (all such hills;
                     with ``raze_one_hill_per_turn``, as the original engine, only the first
                     in hill-id order): owner ``-raze_loss``, razer ``+raze_gain``.
4. ``spawn``         colony by colony (index order), if it has food: its standing hills with
                     no ant, shuffled (GAME stream), get one new ant each while food lasts.
5. ``gather``        every food within ``gather_radius2`` of ants of exactly one colony goes
                     to it (each food on a cell counts); food within reach of two or more
                     colonies is destroyed (with ``contested_food_credit``, as the original
                     engine, credited to the first colony its scan meets instead).
6. ``spawn_food``    floor((max_food - food on the map) / 2) new food, each on a uniformly
                     random non-water cell (GAME stream), with replacement: on ants, hills
                     and food too (a cell holds a count).
7. ``eliminate``     a colony in the game with no ants and (no food or no standing hill) is
                     out; every colony still in gets ``survive_points`` per colony out this
                     turn (with ``sequential_elimination_points``, as the original engine, a
                     colony also gets them for each colony out before it in index order in
                     the same check).  The game ends when at most one colony is in or after
                     max_turns.

The random draws of a turn (phases 4 and 6) can be given instead (``draws``, a ``Draws``
or ``None``: the rules draw them from the env's RNG), to replay a recorded game; ``None``
compiles a kernel without that branch.

Phases take the state ``s``, the params ``p`` and the env ``e`` and bind that env's arrays
once; helpers take arrays.  ``@hot`` and ``@phase``: see ``core.jit``.
"""
from collections import namedtuple

from ...core.jit import hot, phase
from ...core.rng import GAME, randint
from .constants import COMMAND_DELTAS, FAR, NUM_COMMANDS, RANK_TURN_WEIGHT, UNREACHED

# A turn's random draws, given: ``food_cells`` (int64, the flat cells ``y * W + x`` of
# the new food, in the order drawn; the rules draw any further ones) and ``hill_rank``
# (int64[K], per hill index: a colony spawns on its free hills by increasing rank
# instead of in shuffled order).
Draws = namedtuple("Draws", ["food_cells", "hill_rank"])


@hot
def add_ant(ant_x, ant_y, ant_owner, ant_id, ant_at, n, x, y, owner, new_id):
    """Append an ant at (x, y) to the pool of ``n`` ants; returns the new count."""
    ant_x[n] = x
    ant_y[n] = y
    ant_owner[n] = owner
    ant_id[n] = new_id
    ant_at[y, x] = n
    return n + 1


@hot
def remove_dead(ant_x, ant_y, ant_owner, ant_id, ant_at, dead, n):
    """Drop the ants marked ``dead`` (their cells freed), keeping the others' order;
    returns the new count.  Clears ``dead``."""
    kept = 0
    for i in range(n):
        if dead[i]:
            dead[i] = False
            if ant_at[ant_y[i], ant_x[i]] == i:
                ant_at[ant_y[i], ant_x[i]] = -1
            continue
        if kept != i:
            ant_x[kept] = ant_x[i]
            ant_y[kept] = ant_y[i]
            ant_owner[kept] = ant_owner[i]
            ant_id[kept] = ant_id[i]
            ant_at[ant_y[i], ant_x[i]] = kept
        kept += 1
    return kept


@hot
def colony_boxes(ant_x, ant_y, ant_owner, n, box):
    """``box[a] = (min x, min y, max x, max y)`` of colony a's ants (``FAR`` off the map
    for a colony without ants)."""
    for a in range(box.shape[0]):
        box[a, 0] = FAR
        box[a, 1] = FAR
        box[a, 2] = -FAR
        box[a, 3] = -FAR
    for i in range(n):
        a, x, y = ant_owner[i], ant_x[i], ant_y[i]
        box[a, 0] = min(box[a, 0], x)
        box[a, 1] = min(box[a, 1], y)
        box[a, 2] = max(box[a, 2], x)
        box[a, 3] = max(box[a, 3], y)


@phase
def near_colony(box, x, y, reach, skip):
    """Whether (x, y) lies within ``reach`` (in x and in y) of the box of a colony other
    than ``skip``: where no such colony's ant can be within a radius of that reach."""
    for a in range(box.shape[0]):
        if a == skip:
            continue
        if x - box[a, 2] <= reach and box[a, 0] - x <= reach:
            if y - box[a, 3] <= reach and box[a, 1] - y <= reach:
                return True
    return False


@phase
def move(s, p, e, actions):
    """Phase 1: simultaneous moves; every cell holding two or more ants kills them all.

    Every ant leaves its cell, then each takes its target: the first to arrive holds the
    cell in ``ant_at``; any later one marks itself and the holder dead."""
    ant_x, ant_y, ant_owner, ant_id = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_id[e]
    ant_at, dead = s.ant_at[e], s.dead[e]
    move_ok = p.move_ok
    width = ant_at.shape[1]
    n = s.num_ants[e]
    for i in range(n):
        ant_at[ant_y[i], ant_x[i]] = -1
    any_dead = False
    for i in range(n):
        x, y = ant_x[i], ant_y[i]
        cell = y * width + x
        cmd = actions[ant_owner[i], cell]
        if cmd > 0 and cmd < NUM_COMMANDS:
            if move_ok[cell, cmd]:
                x += COMMAND_DELTAS[cmd, 0]
                y += COMMAND_DELTAS[cmd, 1]
                ant_x[i] = x
                ant_y[i] = y
        holder = ant_at[y, x]
        if holder < 0:
            ant_at[y, x] = i
        else:
            dead[holder] = True
            dead[i] = True
            any_dead = True
    if any_dead:
        s.num_ants[e] = remove_dead(ant_x, ant_y, ant_owner, ant_id, ant_at, dead, n)


@phase
def clear_of_edges(x, y, reach, width, height):
    """Whether every cell within ``reach`` of (x, y) along both axes is on the map."""
    return x >= reach and y >= reach and x < width - reach and y < height - reach


@phase
def ant_at_offset(ants, width, height, x, y, inside, offsets, k):
    """The ant on the cell ``offsets[k]`` (dx, dy) away from (x, y), or -1: none, or off
    the map.  ``ants``: ``ant_at`` over flat cells; ``inside``: ``clear_of_edges`` for
    the offsets' reach (no bounds check needed)."""
    dx, dy = offsets[k, 0], offsets[k, 1]
    if not inside:
        nx, ny = x + dx, y + dy
        if nx < 0 or ny < 0 or nx >= width or ny >= height:
            return -1
    return ants[(y + dy) * width + x + dx]


@phase
def attack(s, p, e):
    """Phase 2: focus_split exactly as the seed's pseudocode; the marked ants die at once.

    An ant's focus is the number of enemy ants within the radius; it dies if an enemy
    within the radius has a focus lower than or equal to its own.  Both hold between two
    ants, so each pair is met once: from the ant that has the other at an offset of the
    second half of ``p.attack_offsets`` (reading order, centre left out, so that half
    holds one offset of each pair (dx, dy), (-dx, -dy)).  The offsets need no bounds
    checks for an ant at least ``p.attack_reach`` cells from the edges.  Only ants near
    the bounding box of another colony's ants are probed (the others have focus 0)."""
    ant_x, ant_y, ant_owner, ant_id = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_id[e]
    ant_at, focus, dead, box = s.ant_at[e], s.focus[e], s.dead[e], s.box[e]
    reach = p.attack_reach
    ahead = p.attack_offsets[p.attack_offsets.shape[0] // 2:]
    height, width = ant_at.shape
    ants = ant_at.reshape(height * width)
    n = s.num_ants[e]
    colony_boxes(ant_x, ant_y, ant_owner, n, box)
    for i in range(n):
        focus[i] = 0
    fights = False
    for i in range(n):
        x, y, owner = ant_x[i], ant_y[i], ant_owner[i]
        if not near_colony(box, x, y, reach, owner):
            continue
        inside = clear_of_edges(x, y, reach, width, height)
        for k in range(ahead.shape[0]):
            j = ant_at_offset(ants, width, height, x, y, inside, ahead, k)
            if j >= 0 and ant_owner[j] != owner:
                focus[i] += 1
                focus[j] += 1
                fights = True
    if not fights:
        return
    for i in range(n):
        if focus[i] == 0:
            continue
        x, y, owner = ant_x[i], ant_y[i], ant_owner[i]
        inside = clear_of_edges(x, y, reach, width, height)
        for k in range(ahead.shape[0]):
            j = ant_at_offset(ants, width, height, x, y, inside, ahead, k)
            if j >= 0 and ant_owner[j] != owner:
                if focus[j] <= focus[i]:
                    dead[i] = True
                if focus[i] <= focus[j]:
                    dead[j] = True
    s.num_ants[e] = remove_dead(ant_x, ant_y, ant_owner, ant_id, ant_at, dead, n)


@phase
def raze(s, p, e):
    """Phase 3: every ant on a standing enemy hill razes it (looked up from the hills:
    one ant at most stands on each); only the first in hill-id order with
    ``raze_one_hill_per_turn``."""
    ant_at, ant_owner = s.ant_at[e], s.ant_owner[e]
    hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
    scores = s.scores[e]
    for h in range(hill_x.shape[0]):
        owner = hill_owner[h]
        if owner < 0 or hill_razed[h]:
            continue
        i = ant_at[hill_y[h], hill_x[h]]
        if i < 0:
            continue
        if ant_owner[i] == owner:
            continue
        hill_razed[h] = True
        scores[owner] -= p.raze_loss
        scores[ant_owner[i]] += p.raze_gain
        if p.raze_one_hill_per_turn:
            return


@hot
def order_by_rank(order, m, rank):
    """Sort ``order[:m]`` (hill indices) by increasing ``rank[hill]`` (insertion sort: a
    colony has a few hills)."""
    for i in range(1, m):
        h = order[i]
        j = i
        while j > 0 and rank[order[j - 1]] > rank[h]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = h


@phase
def spawn(s, p, e, draws):
    """Phase 4: each colony with food spawns one ant per free standing hill (shuffled, or
    in the order ``draws`` gives) while its food lasts."""
    ant_x, ant_y, ant_owner, ant_id, ant_at = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_id[e], s.ant_at[e]
    hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
    stored, alive, order, rng = s.stored_food[e], s.alive[e], s.order[e], s.rng
    n = s.num_ants[e]
    next_id = s.next_ant_id[e]
    for a in range(stored.shape[0]):
        if stored[a] <= 0:
            continue
        if not alive[a]:
            continue
        m = 0
        for h in range(hill_x.shape[0]):
            if hill_owner[h] == a and not hill_razed[h]:
                if ant_at[hill_y[h], hill_x[h]] < 0:
                    order[m] = h
                    m += 1
        if draws is None:
            for i in range(m - 1, 0, -1):               # Fisher-Yates on order[:m]
                j = randint(rng, e, GAME, i + 1)
                order[i], order[j] = order[j], order[i]
        else:
            order_by_rank(order, m, draws.hill_rank)
        k = 0
        while k < m and stored[a] > 0:
            h = order[k]
            n = add_ant(ant_x, ant_y, ant_owner, ant_id, ant_at, n, hill_x[h], hill_y[h], a, next_id)
            next_id += 1
            stored[a] -= 1
            k += 1
    s.num_ants[e] = n
    s.next_ant_id[e] = next_id


@phase
def first_colony(ants, ant_owner, width, height, x, y, inside, offsets):
    """The colony of the first ant that the scan of ``offsets`` around (x, y) meets (the
    gather offsets are in the original engine's scan order), or -1."""
    for k in range(offsets.shape[0]):
        j = ant_at_offset(ants, width, height, x, y, inside, offsets, k)
        if j >= 0:
            return ant_owner[j]
    return -1


@phase
def gather(s, p, e):
    """Phase 5: the food on a cell near ants of one colony is stored by it (each food
    counts); contested food is destroyed, or credited to the first colony met with
    ``contested_food_credit``.  (The cells within the radius as in ``attack``; only food
    near the bounding box of some colony's ants is probed.)"""
    ant_at, ant_x, ant_y, ant_owner, box = s.ant_at[e], s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.box[e]
    food_x, food_y, food_at, stored = s.food_x[e], s.food_y[e], s.food_at[e], s.stored_food[e]
    offsets, reach = p.gather_offsets, p.gather_reach
    height, width = ant_at.shape
    ants = ant_at.reshape(height * width)
    colony_boxes(ant_x, ant_y, ant_owner, s.num_ants[e], box)
    kept = 0
    total = s.food_total[e]
    for f in range(s.num_food[e]):
        x, y = food_x[f], food_y[f]
        colonies = 0
        inside = False
        if near_colony(box, x, y, reach, -1):
            inside = clear_of_edges(x, y, reach, width, height)
            for k in range(offsets.shape[0]):
                j = ant_at_offset(ants, width, height, x, y, inside, offsets, k)
                if j >= 0:
                    colonies |= 1 << ant_owner[j]
        if colonies == 0:
            food_x[kept] = x
            food_y[kept] = y
            kept += 1
            continue
        count = food_at[y, x]
        food_at[y, x] = 0
        total -= count
        if colonies & (colonies - 1) == 0:             # exactly one colony
            a = 0
            while colonies > 1:
                colonies >>= 1
                a += 1
            stored[a] += count
        elif p.contested_food_credit:
            stored[first_colony(ants, ant_owner, width, height, x, y, inside, offsets)] += count
    s.num_food[e] = kept
    s.food_total[e] = total


@phase
def add_food(food_x, food_y, food_at, n, x, y):
    """One more food on (x, y), its cell appended to the list of ``n`` food cells if it
    held none; returns the new number of cells."""
    if food_at[y, x] == 0:
        food_x[n] = x
        food_y[n] = y
        n += 1
    food_at[y, x] += 1
    return n


@hot
def spawn_food(s, p, e, draws):
    """Phase 6: floor((max_food - food on the map) / 2) new food, each on a uniformly
    random non-water cell (``p.land_cells``), with replacement; the first ones on the cells
    ``draws`` gives, if any."""
    new = (p.max_food - s.food_total[e]) // 2
    if new <= 0:
        return
    food_x, food_y, food_at, rng, land = s.food_x[e], s.food_y[e], s.food_at[e], s.rng, p.land_cells
    width = food_at.shape[1]
    n = s.num_food[e]
    for i in range(new):
        c = -1
        if draws is not None:
            if i < draws.food_cells.shape[0]:
                c = draws.food_cells[i]
        if c < 0:
            c = land[randint(rng, e, GAME, land.shape[0])]
        n = add_food(food_x, food_y, food_at, n, c % width, c // width)
    s.num_food[e] = n
    s.food_total[e] += new


@hot(python=True)
def update_rank_keys(s, p, e):
    """win_loss rank keys: the turn of elimination (later is better; still in: max_turns +
    1), then the score."""
    elim_turn, scores, rank_key = s.elim_turn[e], s.scores[e], s.rank_key[e]
    for a in range(scores.shape[0]):
        rank_key[a] = elim_turn[a] * RANK_TURN_WEIGHT + scores[a]


@phase
def eliminate(s, p, e):
    """Phase 7: colonies without ants that cannot spawn any are out; the survivors score
    (and, with ``sequential_elimination_points``, each colony out for those out before it
    in this check); the turn ends.  True when the game is over."""
    alive, stored, scores, elim_turn = s.alive[e], s.stored_food[e], s.scores[e], s.elim_turn[e]
    ant_owner, hill_owner, hill_razed = s.ant_owner[e], s.hill_owner[e], s.hill_razed[e]
    turn = s.turn[e] + 1
    out = 0
    for a in range(alive.shape[0]):
        if not alive[a]:
            continue
        has_ant = False
        for i in range(s.num_ants[e]):
            if ant_owner[i] == a:
                has_ant = True
                break
        if has_ant:
            continue
        standing = False
        for h in range(hill_owner.shape[0]):
            if hill_owner[h] == a and not hill_razed[h]:
                standing = True
                break
        if stored[a] <= 0 or not standing:
            alive[a] = False
            elim_turn[a] = turn
            if p.sequential_elimination_points:
                scores[a] += out * p.survive_points
            out += 1
    living = 0
    for a in range(alive.shape[0]):
        if alive[a]:
            living += 1
            scores[a] += out * p.survive_points
    s.turn[e] = turn
    s.steps[e] += 1
    update_rank_keys(s, p, e)
    return living <= 1 or turn >= p.max_turns


@phase
def play_turn(s, p, e, actions, draws):
    """One turn of env e with the colonies' command grids ``actions[a, cell]`` (and the
    random draws ``draws`` gives, if not None); True when the game is over."""
    move(s, p, e, actions)
    attack(s, p, e)
    raze(s, p, e)
    spawn(s, p, e, draws)
    gather(s, p, e)
    spawn_food(s, p, e, draws)
    return eliminate(s, p, e)


@hot(python=True)
def land_distances(move_ok, width, dist, queue, tail):
    """Multi-source breadth-first search over land (``move_ok``): ``dist`` holds 0 at the
    ``queue[:tail]`` sources and UNREACHED at the cells to fill in (any other value: a cell
    the search does not pass); fills in the steps from the nearest source."""
    head = 0
    while head < tail:
        c = int(queue[head])
        head += 1
        y, x = c // width, c % width
        for k in range(1, NUM_COMMANDS):
            if move_ok[c, k]:
                nc = (y + COMMAND_DELTAS[k, 1]) * width + x + COMMAND_DELTAS[k, 0]
                if dist[nc] == UNREACHED:
                    dist[nc] = dist[c] + 1
                    queue[tail] = nc
                    tail += 1
