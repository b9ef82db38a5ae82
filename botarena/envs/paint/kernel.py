"""Paint's batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the board template (``colour``, ``positions``) or the generator
settings, ``max_turns``, the reward mode, ``max_steps``, ``time_full`` (the TIME_LEFT
plane's value at the first turn), ``time_round`` (0.5 where the plane is stored as
integers, so that the store rounds) and ``alive`` (all True: nobody leaves a paint game).
"""
from collections import namedtuple

from numba import njit, prange

from ...core.jit import serial_and_parallel
from ...core.rewards import finish_step
from .constants import OBSTACLE, Plane
from .maps import generate_board
from .rules import legal_actions, play_turn

Params = namedtuple("Params", [
    "colour", "positions", "generate", "num_players", "obstacle_density", "symmetric",
    "max_turns", "reward_mode", "max_steps", "time_full", "time_round", "alive",
])


@njit(cache=True)
def reset_env(s, p, e):
    """A new game in env e: the board template or a generated board, full turns."""
    height, width = s.colour.shape[1], s.colour.shape[2]
    if p.generate:
        generate_board(s, e, height, width, p.num_players, p.obstacle_density, p.symmetric)
    else:
        s.colour[e] = p.colour
        s.positions[e] = p.positions
    s.scores[e] = 0
    for r in range(height):
        for c in range(width):
            if s.colour[e, r, c] > 0:
                s.scores[e, s.colour[e, r, c] - 1] += 1
    s.prev_scores[e] = s.scores[e]
    s.turns_left[e] = p.max_turns
    s.steps[e] = 0
    s.over[e] = False
    s.shot_stamp[e] = 0
    s.occupancy[e] = 0


@njit(cache=True)
def observe_env(s, p, e, obs, masks):
    """Every player's planes (``obs[a]``, see constants.Plane) and action mask of env e."""
    height, width = s.colour.shape[1], s.colour.shape[2]
    time_left = p.time_full * s.turns_left[e] / p.max_turns + p.time_round
    for a in range(s.positions.shape[1]):
        me = a + 1
        o = obs[a]
        for r in range(height):
            for c in range(width):
                colour = s.colour[e, r, c]
                o[Plane.OWN_PAINT, r, c] = colour == me
                o[Plane.OPPONENT_PAINT, r, c] = colour > 0 and colour != me
                o[Plane.OBSTACLE, r, c] = colour == OBSTACLE
                o[Plane.OWN_AVATAR, r, c] = 0
                o[Plane.OPPONENT_AVATAR, r, c] = 0
                o[Plane.TIME_LEFT, r, c] = time_left
        for b in range(s.positions.shape[1]):
            plane = Plane.OWN_AVATAR if b == a else Plane.OPPONENT_AVATAR
            o[plane, s.positions[e, b, 0], s.positions[e, b, 1]] = 1
        legal_actions(s, e, a, masks[a])


@njit(cache=True)
def step_env(s, p, e, actions, rewards, terminated, truncated):
    """One turn of env e and its rewards and end flags; True when the episode is done."""
    game_over = play_turn(s, e, actions)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, p.alive,
                       s.scores[e], s.prev_scores[e], s.scores[e], rewards, terminated, truncated)
    s.over[e] = done
    return done


def _reset(s, p, env_mask, obs, masks):
    for e in prange(env_mask.shape[0]):
        if env_mask[e]:
            reset_env(s, p, e)
            observe_env(s, p, e, obs[e], masks[e])


def _step(s, p, actions, autoreset, rewards, terminated, truncated, obs, masks, final_obs):
    for e in prange(actions.shape[0]):
        if s.over[e]:
            continue
        if step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e]):
            observe_env(s, p, e, obs[e], masks[e])
            if autoreset:
                final_obs[e] = obs[e]
                reset_env(s, p, e)
                observe_env(s, p, e, obs[e], masks[e])
        else:
            observe_env(s, p, e, obs[e], masks[e])


reset, reset_parallel = serial_and_parallel(_reset)
step, step_parallel = serial_and_parallel(_step)
