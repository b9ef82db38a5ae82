"""Towers' batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: every number field of ``Config`` under its name (``water`` and
``flag_size`` drive the generator of ``random_board``), then ``nbr`` (int64[N * N, 8], the
neighbouring tile in each direction, -1 off the map), ``base_tile`` (the bases' flat
tiles), the map (``terrain``, uint8[N, N]; unused with ``random_board``, which draws a map
at every reset), the reward mode, the observation's scale (``full``, and ``round``: 0.5
where planes are stored as integers, so that the store rounds) and ``noop_mask`` (the
action mask with only no-op legal on every tile).

Observations and masks (``observe``): written whole after a reset (``observe_env``),
updated in place by a step (only the tiles of the units before and after the turn, and
the constant planes whose value changed).
"""
from ...core.jit import copy_into, glue, hot, phase
from ...core.journal import journal_of
from ...core.loop import game_loop, player_rows
from ...core.params import params_type
from ...core.rewards import finish_step
from .config import Config
from .constants import NUM_COMMANDS, NUM_PLAYERS
from .maps import generate_terrain
from .observe import after_turn, before_turn, observe_env
from .paths import forget_fields
from .rules import play_turn, spawn_at_base, update_rank_keys

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "nbr", "base_tile", "terrain", "random_board", "reward_mode", "full", "round", "noop_mask",
], __name__)


@hot
def reset_env(s, p, e):
    """A new game in env e: the map (drawn if random), ``num_bots_start`` bots at each
    base, scores 0."""
    size = s.terrain.shape[1]
    tiles = size * size
    if p.random_board:
        generate_terrain(s.rng, e, p.water, p.flag_size, s.terrain[e], s.queue[e],
                         s.field[e, 0])
    else:
        copy_into(s.terrain[e], p.terrain)
    for t in range(tiles):
        s.tower_at[e, t] = -1
        for a in range(NUM_PLAYERS):
            s.count[e, a, t] = 0
            s.hp_sum[e, a, t] = 0
    forget_fields(s, e)
    s.field_next[e] = 0
    s.next_id[e] = 0
    s.turn[e] = 0
    s.steps[e] = 0
    s.over[e] = False
    for a in range(NUM_PLAYERS):
        s.num_bots[e, a] = 0
        s.num_towers[e, a] = 0
        s.scores[e, a] = 0
        s.prev_scores[e, a] = 0
        s.turn_scores[e, a] = 0
        s.alive[e, a] = True
        s.prev_alive[e, a] = True
        spawn_at_base(s, p, e, a, p.num_bots_start)
    update_rank_keys(s, e)


@hot
def step_env(s, p, e, actions, rewards, terminated, truncated):
    """One turn of env e, its rewards (with the turn-score shaping) and end flags; True
    when the episode is done."""
    game_over = play_turn(s, p, e, actions)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, s.alive[e],
                       s.prev_alive[e], s.scores[e], s.prev_scores[e], s.rank_key[e], rewards,
                       terminated, truncated)
    if p.turn_score_weight != 0.0:
        for a in range(NUM_PLAYERS):
            rewards[a] += p.turn_score_weight * (s.turn_scores[e, a] - s.turn_scores[e, 1 - a])
    s.over[e] = done
    return done


@phase(python=True)
def step_and_observe(s, p, e, actions, rewards, terminated, truncated, planes, masks,
                     journal):
    """``step_env`` with env e's planes (one flat row per player) and masks updated in
    place, what it writes of the planes recorded in its ``journal`` (``core.journal``);
    True when the episode is done."""
    before_turn(s, e, planes, masks, journal)
    done = step_env(s, p, e, actions, rewards, terminated, truncated)
    after_turn(s, p, e, planes, masks, journal)
    return done


@glue
def play_env(s, p, e, actions, rewards, terminated, truncated, planes, masks, journals):
    """One turn of env e, its planes and masks updated in place; True when it is done."""
    return step_and_observe(s, p, e, actions[e], rewards[e], terminated[e], truncated[e],
                            planes[e], masks[e], journal_of(journals, e))


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, obs_views=player_rows)

__all__ = ["Params", "reset", "reset_parallel", "step", "step_parallel", "NUM_COMMANDS"]
