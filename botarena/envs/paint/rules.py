"""Paint's rules: one jitted function per paragraph of the resolution algorithm.

A turn (``play_turn``) runs, in the seed's order:

1. ``apply_walks``     every walk moves its avatar (walks off the board or onto an obstacle
                       are dropped);
2. ``undo_collisions`` while a square holds two or more avatars, the walks of all avatars on
                       it are undone (repeatedly; swaps are allowed);
3. ``paint_avatars``   every avatar's square takes its owner's colour;
4. ``aim_shots``       each shot's range: max(1, k), k the contiguous own-colour squares
                       directly behind the avatar, counted after 3;
5. ``fly_shots``       all shots advance one square at a time, together; a shot stops when it
                       leaves the board, meets an obstacle, an avatar, another shot, or a
                       square a shot painted earlier this turn; the others paint their square;
                       a shot whose range is spent stops;
6. ``end_turn``        turns_left decreases; the game ends at 0.

Phases take the state tuple ``s`` and the env index ``e`` and bind that env's arrays
once; the helpers take those arrays.  The phases are ``@phase`` (inlined into
``play_turn``), the helpers ``@hot`` (see ``core.jit``).
"""
from ...core.jit import hot, phase
from ...core.grid import DIRECTIONS, in_bounds
from .constants import (FIRST_SHOOT, FIRST_WALK, NEUTRAL, NO_SHOT, NUM_ACTIONS, OBSTACLE,
                        SHOT_STOPPED)


@hot
def paint(colour, scores, row, col, value):
    """Give square (row, col) the colour ``value`` (player + 1), keeping the scores."""
    old = colour[row, col]
    if old != value:
        if old > NEUTRAL:
            scores[old - 1] -= 1
        scores[value - 1] += 1
        colour[row, col] = value


@hot
def walkable(colour, row, col):
    """Whether (row, col) is a square of the board that is not an obstacle.

    (Written with ifs: numba compiles ``a and array[i]`` with reference counting that
    makes this hot helper several times slower.)"""
    if not in_bounds(row, col, colour.shape[0], colour.shape[1]):
        return False
    return colour[row, col] != OBSTACLE


@hot
def legal_actions(colour, positions, a, out):
    """out[k] = whether action k is legal for player a: stay and shots always, walks onto
    a square of the board that is not an obstacle."""
    row, col = positions[a, 0], positions[a, 1]
    for k in range(NUM_ACTIONS):
        out[k] = True
    for d in range(DIRECTIONS.shape[0]):
        out[FIRST_WALK + d] = walkable(colour, row + DIRECTIONS[d, 0], col + DIRECTIONS[d, 1])


@phase
def apply_walks(s, e, actions):
    """Rule 1: move every walking avatar; record where each came from; count avatars."""
    colour, positions, walk_from, occupancy = s.colour[e], s.positions[e], s.walk_from[e], s.occupancy[e]
    for a in range(positions.shape[0]):
        row, col = positions[a, 0], positions[a, 1]
        walk_from[a, 0] = row
        walk_from[a, 1] = col
        act = actions[a]
        if FIRST_WALK <= act < FIRST_SHOOT:
            d = act - FIRST_WALK
            nr, nc = row + DIRECTIONS[d, 0], col + DIRECTIONS[d, 1]
            if walkable(colour, nr, nc):
                positions[a, 0] = nr
                positions[a, 1] = nc
        occupancy[positions[a, 0], positions[a, 1]] += 1


@phase
def undo_collisions(s, e):
    """Rule 2: while some square holds several avatars, undo the walks of all of them.

    Each round first marks every walker on a crowded square (shot_dir is free scratch
    until aim_shots), then sends them all back, so two walkers meeting both go back."""
    positions, walk_from, occupancy, undo = s.positions[e], s.walk_from[e], s.occupancy[e], s.shot_dir[e]
    num_players = positions.shape[0]
    while True:
        crowded = 0
        for a in range(num_players):
            row, col = positions[a, 0], positions[a, 1]
            moved = row != walk_from[a, 0] or col != walk_from[a, 1]
            undo[a] = moved and occupancy[row, col] > 1
            crowded += undo[a]
        if crowded == 0:
            return
        for a in range(num_players):
            if undo[a]:
                occupancy[positions[a, 0], positions[a, 1]] -= 1
                positions[a, 0] = walk_from[a, 0]
                positions[a, 1] = walk_from[a, 1]
                occupancy[positions[a, 0], positions[a, 1]] += 1


@phase
def paint_avatars(s, e):
    """Rule 3: every avatar's square takes its owner's colour."""
    colour, scores, positions = s.colour[e], s.scores[e], s.positions[e]
    for a in range(positions.shape[0]):
        paint(colour, scores, positions[a, 0], positions[a, 1], a + 1)


@hot
def shot_range(colour, positions, a, d):
    """Rule 4: a shot of player a in direction d flies max(1, k) squares, k the contiguous
    squares of a's colour directly behind its avatar (its own square not counted)."""
    row, col = positions[a, 0], positions[a, 1]
    k = 0
    while True:
        row -= DIRECTIONS[d, 0]
        col -= DIRECTIONS[d, 1]
        if not in_bounds(row, col, colour.shape[0], colour.shape[1]):
            break
        if colour[row, col] != a + 1:
            break
        k += 1
    return max(1, k)


@phase
def aim_shots(s, e, actions):
    """Rule 4: direction and range of every shot, starting on the shooter's square."""
    colour, positions = s.colour[e], s.positions[e]
    shot_dir, shot_range_, shot_pos = s.shot_dir[e], s.shot_range[e], s.shot_pos[e]
    for a in range(positions.shape[0]):
        act = actions[a]
        if act >= FIRST_SHOOT:
            d = act - FIRST_SHOOT
            shot_dir[a] = d
            shot_range_[a] = shot_range(colour, positions, a, d)
            shot_pos[a, 0] = positions[a, 0]
            shot_pos[a, 1] = positions[a, 1]
        else:
            shot_dir[a] = NO_SHOT


@phase
def fly_shots(s, e):
    """Rule 5: advance all shots together, one square per round, until none is left.

    The occupancy grid still counts one per avatar; each round adds the shots on their
    squares, so a count above one means the shot shares its square with an avatar or
    another shot.  shot_stamp marks the squares shots painted this turn."""
    colour, scores, occupancy, stamps = s.colour[e], s.scores[e], s.occupancy[e], s.shot_stamp[e]
    shot_dir, shot_range_, shot_pos = s.shot_dir[e], s.shot_range[e], s.shot_pos[e]
    stamp = s.turns_left[e]
    num_players = shot_dir.shape[0]
    flying = 0
    for a in range(num_players):
        flying += shot_dir[a] != NO_SHOT
    while flying > 0:
        for a in range(num_players):                       # advance
            d = shot_dir[a]
            if d == NO_SHOT:
                continue
            shot_pos[a, 0] += DIRECTIONS[d, 0]
            shot_pos[a, 1] += DIRECTIONS[d, 1]
            shot_range_[a] -= 1
            row, col = shot_pos[a, 0], shot_pos[a, 1]
            if not walkable(colour, row, col):             # off the board, or an obstacle
                shot_dir[a] = NO_SHOT
                flying -= 1
            else:
                occupancy[row, col] += 1
        for a in range(num_players):                       # stop on avatars, shots, stamps
            if shot_dir[a] != NO_SHOT:
                row, col = shot_pos[a, 0], shot_pos[a, 1]
                if occupancy[row, col] > 1 or stamps[row, col] == stamp:
                    shot_dir[a] = SHOT_STOPPED
        for a in range(num_players):                       # paint; drop spent shots
            d = shot_dir[a]
            if d == NO_SHOT:
                continue
            row, col = shot_pos[a, 0], shot_pos[a, 1]
            occupancy[row, col] -= 1
            if d != SHOT_STOPPED:
                stamps[row, col] = stamp
                paint(colour, scores, row, col, a + 1)
            if d == SHOT_STOPPED or shot_range_[a] == 0:
                shot_dir[a] = NO_SHOT
                flying -= 1


@phase
def end_turn(s, e):
    """Rule 6: one turn fewer; clear the avatars from the occupancy grid.  True at the end."""
    positions, occupancy = s.positions[e], s.occupancy[e]
    for a in range(positions.shape[0]):
        occupancy[positions[a, 0], positions[a, 1]] = 0
    s.turns_left[e] -= 1
    s.steps[e] += 1
    return s.turns_left[e] <= 0


@hot
def play_turn(s, e, actions):
    """One turn of env e with the players' ``actions``; True when the game is over."""
    apply_walks(s, e, actions)
    undo_collisions(s, e)
    paint_avatars(s, e)
    aim_shots(s, e, actions)
    fly_shots(s, e)
    return end_turn(s, e)
