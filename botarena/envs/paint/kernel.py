"""Paint's batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the board template (``colour``, ``positions``) or the generator
settings, ``max_turns``, the reward mode, ``max_steps``, ``ego`` (the planes are centred on
the observer's avatar, ``Config.view == "ego"``), ``on`` (a true cell, in the
obs dtype: 255 or 1.0), ``full`` (the same as a float: the TIME_LEFT plane's value at the
first turn), ``round`` (0.5 where planes are stored as integers, so that stores round)
and ``alive`` (all True: nobody leaves a paint game, so it also serves as the row of
who was in the game before a step).
"""
from ...core.jit import copy_into, hot, phase, view
from ...core.loop import game_loop
from ...core.params import params_type
from ...core.rewards import finish_step
from .config import Config
from .maps import generate_board
from .observe import observe_env
from .rules import play_turn

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


@hot
def step_env(s, p, e, actions, rewards, terminated, truncated):
    """One turn of env e and its rewards and end flags; True when the episode is done."""
    game_over = play_turn(s, e, actions)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, p.alive, p.alive,
                       s.scores[e], s.prev_scores[e], s.scores[e], rewards, terminated, truncated)
    s.over[e] = done
    return done


@phase     # not glue: inlined by numba, paint's step ran ~20% slower (A/B at batch 64)
def play_env(s, p, e, actions, rewards, terminated, truncated, obs, masks, journals):
    """One turn of env e, then its observations drawn whole (``redraws_observations``:
    nothing recorded in the journal); True when it is done."""
    done = step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e])
    observe_env(s, p, e, obs, masks, journals)
    return done


@view
def score_keys(s):
    """Paint's rank keys: the scores (the most painted squares win)."""
    return s.scores


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, rank_keys=score_keys)
