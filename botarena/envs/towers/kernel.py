"""Towers' batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: ``nbr`` (int64[N * N, 8], the neighbouring tile in each
direction, -1 off the map), ``base_tile`` (the bases' flat tiles), the map (``terrain``,
uint8[N, N]; unused with ``random_board``, which draws a map at every reset: ``water``,
``flag_size``), every rule constant of ``Config``, the reward mode, ``max_steps``,
``turn_score_weight``, the observation's scale (``full``, and ``round``: 0.5 where planes
are stored as integers, so that the store rounds) and ``noop_mask`` (the action mask with
only no-op legal on every tile).

Observations and masks are written whole every step (``observe_env``: about 14 planes
of N * N per player): simple, and cheap next to the rules at a few hundred units.
"""
from collections import namedtuple

from numba import njit

from ...core.jit import batch_drivers, copy_into, fill_plane
from ...core.rewards import finish_step
from .constants import (BOT_COUNT_CAP, FIRST_MOVE, MARGIN_CAP, NUM_COMMANDS, NUM_PLAYERS,
                        TURN_SCORE_CAP, FLAG, WATER, Command, Plane)
from .maps import generate_terrain
from .paths import NUM_DIRECTIONS, forget_fields, step_ok
from .rules import (clear_counts, count_bots, play_turn, spawn_at_base, tile_of, tower_age,
                    update_rank_keys, view_direction, view_tile)

Params = namedtuple("Params", [
    "nbr", "base_tile", "terrain", "random_board", "water", "flag_size", "num_bots_start",
    "spawn_frequency", "max_bot_hp", "max_tower_hp", "bot_speed", "bot_radius",
    "bot_damage", "tower_radius", "tower_damage", "min_blast_age", "bot_multiplier",
    "tower_multiplier", "hp_factor", "num_turns", "reward_mode", "max_steps",
    "turn_score_weight", "full", "round", "noop_mask",
])

P_OWN_BOTS, P_OWN_BOT_HP, P_ENEMY_BOTS, P_ENEMY_BOT_HP = (
    int(Plane.OWN_BOTS), int(Plane.OWN_BOT_HP), int(Plane.ENEMY_BOTS), int(Plane.ENEMY_BOT_HP))
P_OWN_TOWERS, P_ENEMY_TOWERS = int(Plane.OWN_TOWERS), int(Plane.ENEMY_TOWERS)
TOWER_HP_OFFSET = int(Plane.OWN_TOWER_HP) - int(Plane.OWN_TOWERS)
TOWER_READY_OFFSET = int(Plane.OWN_TOWER_READY) - int(Plane.OWN_TOWERS)
P_WATER, P_FLAG, P_TURN = int(Plane.WATER), int(Plane.FLAG), int(Plane.TURN)
P_MARGIN, P_TURN_MARGIN = int(Plane.SCORE_MARGIN), int(Plane.TURN_SCORE_MARGIN)
C_BLAST, C_TRANSFORM = int(Command.BLAST), int(Command.TRANSFORM)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False, inline="always")
def margin_value(p, own, other, cap):
    """A constant plane's value for the margin own - other: 1/2 at a tie, full at +cap."""
    m = min(max((own - other) / cap, -1.0), 1.0)
    return p.full * 0.5 * (1.0 + m) + p.round


@njit(cache=True, _nrt=False)
def observe_player(s, p, e, a, planes, mask):
    """Player a's planes (flat, plane k at ``[k * N * N, (k + 1) * N * N)``) and mask from
    its own side; ``s.count`` / ``s.hp_sum`` hold the bots per tile."""
    size = s.terrain.shape[1]
    tiles = size * size
    terrain = s.terrain[e].reshape(tiles)
    tower_at = s.tower_at[e]
    full, rnd = p.full, p.round
    for i in range(P_WATER * tiles):
        planes[i] = 0
    for t in range(tiles):
        v = view_tile(t, a, tiles)
        planes[P_WATER * tiles + v] = full * (terrain[t] == WATER) + rnd
        planes[P_FLAG * tiles + v] = full * (terrain[t] == FLAG) + rnd
    copy_into(mask, p.noop_mask)
    for q in range(NUM_PLAYERS):
        count, hp_sum = s.count[e, q], s.hp_sum[e, q]
        plane = P_OWN_BOTS if q == a else P_ENEMY_BOTS
        for i in range(s.num_bots[e, q]):
            if s.bot_dead[e, q, i]:
                continue
            t = tile_of(s.bot_x[e, q, i], s.bot_y[e, q, i], size)
            v = view_tile(t, a, tiles)
            c = count[t]
            planes[plane * tiles + v] = full * min(c, BOT_COUNT_CAP) / BOT_COUNT_CAP + rnd
            planes[(plane + 1) * tiles + v] = full * hp_sum[t] / (c * p.max_bot_hp) + rnd
            if q != a:
                continue
            base = v * NUM_COMMANDS
            for k in range(NUM_DIRECTIONS):
                mask[base + FIRST_MOVE + k] = step_ok(terrain, tower_at, p.nbr, t,
                                                      view_direction(k, a))
            mask[base + C_BLAST] = 1
            mask[base + C_TRANSFORM] = (t != p.base_tile[0] and t != p.base_tile[1]
                                        and s.num_towers[e, a] < s.tower_x.shape[2])
        plane = P_OWN_TOWERS if q == a else P_ENEMY_TOWERS
        for i in range(s.num_towers[e, q]):
            if s.tower_dead[e, q, i]:
                continue
            v = view_tile(s.tower_x[e, q, i] * size + s.tower_y[e, q, i], a, tiles)
            ready = tower_age(s, e, q, i) >= p.min_blast_age
            planes[plane * tiles + v] = full + rnd
            planes[(plane + TOWER_HP_OFFSET) * tiles + v] = \
                full * min(s.tower_hp[e, q, i] / p.max_tower_hp, 1.0) + rnd
            planes[(plane + TOWER_READY_OFFSET) * tiles + v] = full * ready + rnd
            if q == a and ready:
                mask[v * NUM_COMMANDS + C_BLAST] = 1
    b = 1 - a
    fill_plane(planes[P_TURN * tiles:(P_TURN + 1) * tiles],
               full * s.turn[e] / p.num_turns + rnd, True)
    fill_plane(planes[P_MARGIN * tiles:(P_MARGIN + 1) * tiles],
               margin_value(p, s.scores[e, a], s.scores[e, b], MARGIN_CAP), True)
    fill_plane(planes[P_TURN_MARGIN * tiles:(P_TURN_MARGIN + 1) * tiles],
               margin_value(p, s.turn_scores[e, a], s.turn_scores[e, b], TURN_SCORE_CAP), True)


@njit(cache=True, _nrt=False)
def observe_env(s, p, e, obs, masks):
    """Every player's planes (``obs[a]``, see constants.Plane) and action mask of env e,
    written whole."""
    planes = obs.reshape(obs.shape[0], obs.size // obs.shape[0])
    count_bots(s, e)
    for a in range(NUM_PLAYERS):
        observe_player(s, p, e, a, planes[a], masks[a])
    clear_counts(s, e)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def reset_range(s, p, lo, hi, env_mask, obs, masks):
    for e in range(lo, hi):
        if env_mask[e]:
            reset_env(s, p, e)
            observe_env(s, p, e, obs[e], masks[e])


@njit(cache=True, _nrt=False)
def step_range(s, p, lo, hi, actions, autoreset, rewards, terminated, truncated, obs, masks,
               final_obs, final_scores, final_rank_keys):
    for e in range(lo, hi):
        if s.over[e]:
            continue
        done = step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e])
        observe_env(s, p, e, obs[e], masks[e])
        if done and autoreset:
            copy_into(final_obs[e], obs[e])
            copy_into(final_scores[e], s.scores[e])
            copy_into(final_rank_keys[e], s.rank_key[e])
            reset_env(s, p, e)
            observe_env(s, p, e, obs[e], masks[e])


reset, reset_parallel = batch_drivers(reset_range, "reset")
step, step_parallel = batch_drivers(step_range, "step")

__all__ = ["Params", "reset", "reset_parallel", "step", "step_parallel", "NUM_COMMANDS"]
