"""Scripted paint players, jitted and batched: ``random`` and ``greedy``.

Each bot is ``bot(s, p, env_ids, agent_ids, out)``: it writes into ``out[i]`` the action of
player ``agent_ids[i]`` in env ``env_ids[i]``.  They change no game state (only the
search scratch), and their random choices come from each env's ``AGENT`` stream, never
from the game's own.

``greedy`` scores every legal walk and shot by the squares it would take this turn
(neutral 1, an opponent's 2: it is taken from them), counting a shot along its whole
range until an edge, obstacle or avatar, and plays the best (ties at random).  When
nothing scores, it walks towards the nearest square that is not its own.
"""
import numpy as np
from numba import njit

from ...core.grid import DIRECTIONS, in_bounds
from ...core.rng import AGENT, randint
from .constants import FIRST_SHOOT, FIRST_WALK, NUM_ACTIONS, OBSTACLE
from .rules import legal_actions, shot_range, walkable

GAIN_NEUTRAL = 1
GAIN_OPPONENT = 2


@njit(cache=True)
def random(s, p, env_ids, agent_ids, out):
    """A uniformly random legal action."""
    legal = np.empty(NUM_ACTIONS, dtype=np.bool_)
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        legal_actions(s, e, a, legal)
        k = randint(s.rng, e, AGENT, legal.sum())
        for act in range(NUM_ACTIONS):
            if legal[act]:
                if k == 0:
                    out[i] = act
                    break
                k -= 1


@njit(cache=True)
def _gain(s, e, a, row, col):
    colour = s.colour[e, row, col]
    if colour == a + 1 or colour == OBSTACLE:
        return 0
    return GAIN_NEUTRAL if colour == 0 else GAIN_OPPONENT


@njit(cache=True)
def _avatar_at(s, e, row, col):
    for b in range(s.positions.shape[1]):
        if s.positions[e, b, 0] == row and s.positions[e, b, 1] == col:
            return True
    return False


@njit(cache=True)
def _action_value(s, e, a, act):
    row, col = s.positions[e, a, 0], s.positions[e, a, 1]
    height, width = s.colour.shape[1], s.colour.shape[2]
    if act >= FIRST_SHOOT:
        d = act - FIRST_SHOOT
        value = 0
        for _ in range(shot_range(s, e, a, d)):
            row += DIRECTIONS[d, 0]
            col += DIRECTIONS[d, 1]
            if not in_bounds(row, col, height, width) or s.colour[e, row, col] == OBSTACLE \
                    or _avatar_at(s, e, row, col):
                break
            value += _gain(s, e, a, row, col)
        return value
    d = act - FIRST_WALK
    row += DIRECTIONS[d, 0]
    col += DIRECTIONS[d, 1]
    if _avatar_at(s, e, row, col):
        return 0
    return _gain(s, e, a, row, col)


@njit(cache=True)
def _walk_towards_unowned(s, e, a):
    """First walk of a shortest path to the nearest square not of player a's colour
    (STAY if there is none).  bfs_dist holds 1 + the first walk's direction."""
    height, width = s.colour.shape[1], s.colour.shape[2]
    first, queue = s.bfs_dist[e], s.bfs_queue[e]
    first[:] = 0
    row, col = s.positions[e, a, 0], s.positions[e, a, 1]
    head, tail = 0, 0
    for d in range(DIRECTIONS.shape[0]):
        nr, nc = row + DIRECTIONS[d, 0], col + DIRECTIONS[d, 1]
        if walkable(s, e, nr, nc) and first[nr, nc] == 0:
            first[nr, nc] = d + 1
            queue[tail] = nr * width + nc
            tail += 1
    while head < tail:
        i = queue[head]
        head += 1
        r, c = i // width, i % width
        if s.colour[e, r, c] != a + 1:
            return FIRST_WALK + first[r, c] - 1
        for d in range(DIRECTIONS.shape[0]):
            nr, nc = r + DIRECTIONS[d, 0], c + DIRECTIONS[d, 1]
            if walkable(s, e, nr, nc) and first[nr, nc] == 0 and not (nr == row and nc == col):
                first[nr, nc] = first[r, c]
                queue[tail] = nr * width + nc
                tail += 1
    return 0


@njit(cache=True)
def greedy(s, p, env_ids, agent_ids, out):
    """The legal action taking the most squares this turn; else towards unowned squares."""
    legal = np.empty(NUM_ACTIONS, dtype=np.bool_)
    for i in range(env_ids.shape[0]):
        e, a = env_ids[i], agent_ids[i]
        legal_actions(s, e, a, legal)
        best, best_value, ties = 0, 0, 0
        for act in range(1, NUM_ACTIONS):
            if not legal[act]:
                continue
            value = _action_value(s, e, a, act)
            if value > best_value:
                best, best_value, ties = act, value, 1
            elif value == best_value and value > 0:
                ties += 1
                if randint(s.rng, e, AGENT, ties) == 0:
                    best = act
        out[i] = best if best_value > 0 else _walk_towards_unowned(s, e, a)


BOTS = {"random": random, "greedy": greedy}
