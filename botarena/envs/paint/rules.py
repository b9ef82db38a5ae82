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

Functions take the state tuple ``s`` and the env index ``e``.
"""
from numba import njit

from ...core.grid import DIRECTIONS, in_bounds
from .constants import (FIRST_SHOOT, FIRST_WALK, NEUTRAL, NO_SHOT, NUM_ACTIONS, OBSTACLE,
                        SHOT_STOPPED)


@njit(cache=True)
def paint(s, e, row, col, colour):
    """Give square (row, col) the colour ``colour`` (player + 1), keeping the scores."""
    old = s.colour[e, row, col]
    if old != colour:
        if old > NEUTRAL:
            s.scores[e, old - 1] -= 1
        s.scores[e, colour - 1] += 1
        s.colour[e, row, col] = colour


@njit(cache=True)
def walkable(s, e, row, col):
    height, width = s.colour.shape[1], s.colour.shape[2]
    return in_bounds(row, col, height, width) and s.colour[e, row, col] != OBSTACLE


@njit(cache=True)
def legal_actions(s, e, a, out):
    """out[k] = whether action k is legal for player a: stay and shots always, walks onto
    a square of the board that is not an obstacle."""
    row, col = s.positions[e, a, 0], s.positions[e, a, 1]
    for k in range(NUM_ACTIONS):
        out[k] = True
    for d in range(DIRECTIONS.shape[0]):
        out[FIRST_WALK + d] = walkable(s, e, row + DIRECTIONS[d, 0], col + DIRECTIONS[d, 1])


@njit(cache=True)
def apply_walks(s, e, actions):
    """Rule 1: move every walking avatar; record where each came from; count avatars."""
    for a in range(s.positions.shape[1]):
        row, col = s.positions[e, a, 0], s.positions[e, a, 1]
        s.walk_from[e, a, 0] = row
        s.walk_from[e, a, 1] = col
        act = actions[a]
        if FIRST_WALK <= act < FIRST_SHOOT:
            d = act - FIRST_WALK
            nr, nc = row + DIRECTIONS[d, 0], col + DIRECTIONS[d, 1]
            if walkable(s, e, nr, nc):
                s.positions[e, a, 0] = nr
                s.positions[e, a, 1] = nc
        s.occupancy[e, s.positions[e, a, 0], s.positions[e, a, 1]] += 1


@njit(cache=True)
def undo_collisions(s, e):
    """Rule 2: while some square holds several avatars, undo the walks of all of them.

    Each round first marks every walker on a crowded square (shot_dir is free scratch
    until aim_shots), then sends them all back, so two walkers meeting both go back."""
    num_players = s.positions.shape[1]
    undo = s.shot_dir[e]
    while True:
        crowded = 0
        for a in range(num_players):
            row, col = s.positions[e, a, 0], s.positions[e, a, 1]
            moved = row != s.walk_from[e, a, 0] or col != s.walk_from[e, a, 1]
            undo[a] = moved and s.occupancy[e, row, col] > 1
            crowded += undo[a]
        if crowded == 0:
            return
        for a in range(num_players):
            if undo[a]:
                s.occupancy[e, s.positions[e, a, 0], s.positions[e, a, 1]] -= 1
                s.positions[e, a, 0] = s.walk_from[e, a, 0]
                s.positions[e, a, 1] = s.walk_from[e, a, 1]
                s.occupancy[e, s.positions[e, a, 0], s.positions[e, a, 1]] += 1


@njit(cache=True)
def paint_avatars(s, e):
    """Rule 3: every avatar's square takes its owner's colour."""
    for a in range(s.positions.shape[1]):
        paint(s, e, s.positions[e, a, 0], s.positions[e, a, 1], a + 1)


@njit(cache=True)
def line_behind(s, e, a, d):
    """Contiguous squares of player a's colour directly behind its avatar, opposite to
    direction d, not counting the avatar's own square."""
    height, width = s.colour.shape[1], s.colour.shape[2]
    row, col = s.positions[e, a, 0], s.positions[e, a, 1]
    k = 0
    while True:
        row -= DIRECTIONS[d, 0]
        col -= DIRECTIONS[d, 1]
        if not in_bounds(row, col, height, width) or s.colour[e, row, col] != a + 1:
            return k
        k += 1


@njit(cache=True)
def shot_range(s, e, a, d):
    """Rule 4: a shot in direction d flies max(1, line_behind) squares."""
    return max(1, line_behind(s, e, a, d))


@njit(cache=True)
def aim_shots(s, e, actions):
    """Rule 4: direction and range of every shot, starting on the shooter's square."""
    for a in range(s.positions.shape[1]):
        act = actions[a]
        if act >= FIRST_SHOOT:
            d = act - FIRST_SHOOT
            s.shot_dir[e, a] = d
            s.shot_range[e, a] = shot_range(s, e, a, d)
            s.shot_pos[e, a, 0] = s.positions[e, a, 0]
            s.shot_pos[e, a, 1] = s.positions[e, a, 1]
        else:
            s.shot_dir[e, a] = NO_SHOT


@njit(cache=True)
def fly_shots(s, e):
    """Rule 5: advance all shots together, one square per round, until none is left.

    The occupancy grid still counts one per avatar; each round adds the shots on their
    squares, so a count above one means the shot shares its square with an avatar or
    another shot.  shot_stamp marks the squares shots painted this turn."""
    height, width = s.colour.shape[1], s.colour.shape[2]
    num_players = s.positions.shape[1]
    stamp = s.turns_left[e]
    flying = 0
    for a in range(num_players):
        flying += s.shot_dir[e, a] != NO_SHOT
    while flying > 0:
        for a in range(num_players):                       # advance
            d = s.shot_dir[e, a]
            if d == NO_SHOT:
                continue
            s.shot_pos[e, a, 0] += DIRECTIONS[d, 0]
            s.shot_pos[e, a, 1] += DIRECTIONS[d, 1]
            s.shot_range[e, a] -= 1
            row, col = s.shot_pos[e, a, 0], s.shot_pos[e, a, 1]
            if not walkable(s, e, row, col):               # off the board, or an obstacle
                s.shot_dir[e, a] = NO_SHOT
                flying -= 1
            else:
                s.occupancy[e, row, col] += 1
        for a in range(num_players):                       # disable, or paint
            if s.shot_dir[e, a] == NO_SHOT:
                continue
            row, col = s.shot_pos[e, a, 0], s.shot_pos[e, a, 1]
            if s.occupancy[e, row, col] > 1 or s.shot_stamp[e, row, col] == stamp:
                s.shot_dir[e, a] = SHOT_STOPPED
        for a in range(num_players):                       # paint; drop spent shots
            d = s.shot_dir[e, a]
            if d == NO_SHOT:
                continue
            row, col = s.shot_pos[e, a, 0], s.shot_pos[e, a, 1]
            s.occupancy[e, row, col] -= 1
            if d != SHOT_STOPPED:
                s.shot_stamp[e, row, col] = stamp
                paint(s, e, row, col, a + 1)
            if d == SHOT_STOPPED or s.shot_range[e, a] == 0:
                s.shot_dir[e, a] = NO_SHOT
                flying -= 1


@njit(cache=True)
def end_turn(s, e):
    """Rule 6: one turn fewer; clear the avatars from the occupancy grid.  True at the end."""
    for a in range(s.positions.shape[1]):
        s.occupancy[e, s.positions[e, a, 0], s.positions[e, a, 1]] = 0
    s.turns_left[e] -= 1
    s.steps[e] += 1
    return s.turns_left[e] <= 0


@njit(cache=True)
def play_turn(s, e, actions):
    """One turn of env e with the players' ``actions``; True when the game is over."""
    apply_walks(s, e, actions)
    undo_collisions(s, e)
    paint_avatars(s, e)
    aim_shots(s, e, actions)
    fly_shots(s, e)
    return end_turn(s, e)
