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

from ...core.grid import DIRECTIONS
from ...core.jit import batch_typed
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
        legal_actions(s.colour[e], s.positions[e], a, legal)
        k = randint(s.rng, e, AGENT, legal.sum())
        for act in range(NUM_ACTIONS):
            if legal[act]:
                if k == 0:
                    out[i] = act
                    break
                k -= 1


@njit(cache=True)
def _gain(colour, a, row, col):
    value = colour[row, col]
    if value == a + 1 or value == OBSTACLE:
        return 0
    return GAIN_NEUTRAL if value == 0 else GAIN_OPPONENT


@njit(cache=True)
def _avatar_at(positions, row, col):
    for b in range(positions.shape[0]):
        if positions[b, 0] == row and positions[b, 1] == col:
            return True
    return False


@njit(cache=True)
def _action_value(colour, positions, a, act):
    row, col = positions[a, 0], positions[a, 1]
    if act >= FIRST_SHOOT:
        d = act - FIRST_SHOOT
        value = 0
        for _ in range(shot_range(colour, positions, a, d)):
            row += DIRECTIONS[d, 0]
            col += DIRECTIONS[d, 1]
            if not walkable(colour, row, col) or _avatar_at(positions, row, col):
                break
            value += _gain(colour, a, row, col)
        return value
    d = act - FIRST_WALK
    row += DIRECTIONS[d, 0]
    col += DIRECTIONS[d, 1]
    if _avatar_at(positions, row, col):
        return 0
    return _gain(colour, a, row, col)


@njit(cache=True)
def _walk_towards_unowned(colour, positions, a, first, queue):
    """First walk of a shortest path to the nearest square not of player a's colour
    (STAY if there is none).  ``first`` holds 1 + the first walk's direction."""
    width = colour.shape[1]
    first[:] = 0
    row, col = positions[a, 0], positions[a, 1]
    head, tail = 0, 0
    for d in range(DIRECTIONS.shape[0]):
        nr, nc = row + DIRECTIONS[d, 0], col + DIRECTIONS[d, 1]
        if walkable(colour, nr, nc):
            first[nr, nc] = d + 1
            queue[tail] = nr * width + nc
            tail += 1
    while head < tail:
        i = queue[head]
        head += 1
        r, c = i // width, i % width
        if colour[r, c] != a + 1:
            return FIRST_WALK + first[r, c] - 1
        for d in range(DIRECTIONS.shape[0]):
            nr, nc = r + DIRECTIONS[d, 0], c + DIRECTIONS[d, 1]
            if walkable(colour, nr, nc) and first[nr, nc] == 0 and not (nr == row and nc == col):
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
        colour, positions = s.colour[e], s.positions[e]
        legal_actions(colour, positions, a, legal)
        best, best_value, ties = 0, 0, 0
        for act in range(1, NUM_ACTIONS):
            if not legal[act]:
                continue
            value = _action_value(colour, positions, a, act)
            if value > best_value:
                best, best_value, ties = act, value, 1
            elif value == best_value and value > 0:
                ties += 1
                if randint(s.rng, e, AGENT, ties) == 0:
                    best = act
        if best_value == 0:
            best = _walk_towards_unowned(colour, positions, a, s.bfs_dist[e], s.bfs_queue[e])
        out[i] = best


BOTS = batch_typed({"random": random, "greedy": greedy})
