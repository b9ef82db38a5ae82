"""Paint's batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the board template (``colour``, ``positions``) or the generator
settings, ``max_turns``, the reward mode, ``max_steps``, ``ego`` (the planes are centred on
the observer's avatar, ``Config.view == "ego"``), ``on`` (a true cell, in the
obs dtype: 255 or 1.0), ``full`` (the same as a float: the TIME_LEFT plane's value at the
first turn), ``round`` (0.5 where planes are stored as integers, so that stores round)
and ``alive`` (all True: nobody leaves a paint game, so it also serves as the row of
who was in the game before a step).
"""
from ...core.jit import copy_into, hot, phase
from ...core.loop import game_loop
from ...core.params import params_type
from ...core.rewards import finish_step
from .config import Config
from .constants import OBSTACLE, Plane
from .maps import generate_board
from .rules import legal_actions, play_turn

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "colour", "positions", "generate", "reward_mode", "ego", "on", "full", "round", "alive",
], __name__)


@hot
def reset_env(s, p, e):
    """A new game in env e: the board template or a generated board, full turns."""
    if p.generate:
        generate_board(s, e, p.num_players, p.obstacle_density, p.symmetric)
    else:
        copy_into(s.colour[e], p.colour)
        copy_into(s.positions[e], p.positions)
    colour, scores = s.colour[e], s.scores[e]
    scores[:] = 0
    for r in range(colour.shape[0]):
        for c in range(colour.shape[1]):
            if colour[r, c] > 0:
                scores[colour[r, c] - 1] += 1
    copy_into(s.prev_scores[e], scores)
    s.turns_left[e] = p.max_turns
    s.steps[e] = 0
    s.over[e] = False
    s.shot_stamp[e] = 0
    s.occupancy[e] = 0


# plane indices as plain ints (numba indexes with IntEnum members more slowly)
OWN_PAINT, OPPONENT_PAINT, OBSTACLE_PLANE, OWN_AVATAR, OPPONENT_AVATAR, TIME_LEFT = (
    int(Plane.OWN_PAINT), int(Plane.OPPONENT_PAINT), int(Plane.OBSTACLE), int(Plane.OWN_AVATAR),
    int(Plane.OPPONENT_AVATAR), int(Plane.TIME_LEFT))


@hot
def observe_board(colour, positions, time_value, on, obs):
    """Every player's planes (``obs[a]``, see constants.Plane) over the board as it is.

    The loops run over the flattened board, one plane each, so that each compiles to
    vector stores (one loop storing all six planes did not vectorize)."""
    width = colour.shape[1]
    n = colour.size
    board = colour.reshape(n)
    all_planes = obs.reshape(obs.shape[0], obs.shape[1], n)
    for a in range(positions.shape[0]):
        me = a + 1
        planes = all_planes[a]
        own, opponent, obstacle = planes[OWN_PAINT], planes[OPPONENT_PAINT], planes[OBSTACLE_PLANE]
        own_avatar, opponent_avatar, time_left = (planes[OWN_AVATAR], planes[OPPONENT_AVATAR],
                                                  planes[TIME_LEFT])
        time_left[0] = time_value
        time_cell = time_left[0]   # cast once to the obs dtype, outside the loops
        for i in range(n):
            own[i] = (board[i] == me) * on
        for i in range(n):
            opponent[i] = ((board[i] > 0) & (board[i] != me)) * on
        for i in range(n):
            obstacle[i] = (board[i] == OBSTACLE) * on
        for i in range(n):
            own_avatar[i] = 0
        for i in range(n):
            opponent_avatar[i] = 0
        for i in range(n):
            time_left[i] = time_cell
        for b in range(positions.shape[0]):
            i = positions[b, 0] * width + positions[b, 1]
            planes[OWN_AVATAR if b == a else OPPONENT_AVATAR, i] = on


@hot
def observe_ego(colour, positions, time_value, on, obs):
    """Every player's planes on a (2H-1, 2W-1) window centred on its own avatar: board
    square (r, c) is window square (r - row + H - 1, c - col + W - 1), so the whole board
    is in view from anywhere; window squares off the board read as obstacles."""
    height, width = colour.shape
    for a in range(positions.shape[0]):
        me = a + 1
        planes = obs[a]
        planes[TIME_LEFT, 0, 0] = time_value
        time_cell = planes[TIME_LEFT, 0, 0]   # cast once to the obs dtype
        for k in range(planes.shape[0]):
            fill = on if k == OBSTACLE_PLANE else time_cell if k == TIME_LEFT else 0
            plane = planes[k]
            for r in range(plane.shape[0]):
                for c in range(plane.shape[1]):
                    plane[r, c] = fill
        top, left = height - 1 - positions[a, 0], width - 1 - positions[a, 1]
        for r in range(height):
            for c in range(width):
                value = colour[r, c]
                planes[OWN_PAINT, top + r, left + c] = (value == me) * on
                planes[OPPONENT_PAINT, top + r, left + c] = ((value > 0) & (value != me)) * on
                planes[OBSTACLE_PLANE, top + r, left + c] = (value == OBSTACLE) * on
        for b in range(positions.shape[0]):
            planes[OWN_AVATAR if b == a else OPPONENT_AVATAR,
                   top + positions[b, 0], left + positions[b, 1]] = on


@hot
def observe_env(s, p, e, obs, masks):
    """Every player's planes (board or ego view) and action mask of env e.  The helpers
    take the env's arrays, not ``s`` and ``p``: a call passing those tuples copies them."""
    colour, positions, planes, env_masks = s.colour[e], s.positions[e], obs[e], masks[e]
    time_value = p.full * s.turns_left[e] / p.max_turns + p.round
    if p.ego:
        observe_ego(colour, positions, time_value, p.on, planes)
    else:
        observe_board(colour, positions, time_value, p.on, planes)
    for a in range(positions.shape[0]):
        legal_actions(colour, positions, a, env_masks[a])


@hot
def step_env(s, p, e, actions, rewards, terminated, truncated):
    """One turn of env e and its rewards and end flags; True when the episode is done."""
    game_over = play_turn(s, e, actions)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, p.alive, p.alive,
                       s.scores[e], s.prev_scores[e], s.scores[e], rewards, terminated, truncated)
    s.over[e] = done
    return done


@phase
def play_env(s, p, e, actions, rewards, terminated, truncated, obs, masks):
    """One turn of env e, then its observations drawn whole; True when it is done."""
    done = step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e])
    observe_env(s, p, e, obs, masks)
    return done


@phase
def score_keys(s):
    """Paint's rank keys: the scores (the most painted squares win)."""
    return s.scores


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, rank_keys=score_keys)
