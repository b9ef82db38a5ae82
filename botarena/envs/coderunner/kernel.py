"""CodeRunner's batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the map pool (``cells``, ``spawns``, ``n_enemies``,
``enemy_spawn``, ``prog``, ``prog_len``, ``side`` per map; ``nbr`` and ``dist``, the
pursuit tables of each map, see ``maps.pursuit_tables``), every rule number of ``Config``,
the reward mode, ``max_steps``, shaping, and the observation's values in the obs dtype:
``on`` (binary planes) and look-up tables indexed by turns (``removed_lut``, ``gold_lut``,
``runner_lut``, ``enemy_lut``, ``dig_lut``, ``turn_lut``).
"""
from collections import namedtuple

from numba import njit, prange

from ...core.jit import copy_into, serial_and_parallel
from ...core.rewards import finish_step
from ...core.rng import GAME, randint
from .constants import BRICK, GOLD, HEIGHT, LADDER, REMOVED, WIDTH, Plane
from .rules import legal_actions, play_turn

Params = namedtuple("Params", [
    "cells", "spawns", "n_enemies", "enemy_spawn", "prog", "prog_len", "side", "nbr", "dist",
    "num_maps", "brick_restore", "gold_respawn", "runner_respawn", "enemy_respawn",
    "dig_delay", "enemy_period", "enemy_first_move_turn", "chase_radius", "master_radius",
    "other_radius", "gold_points", "visit_points", "enemy_kill_points",
    "opponent_kill_points", "max_turns", "reward_mode", "max_steps", "death_penalty",
    "mirror", "on", "removed_lut", "gold_lut", "runner_lut", "enemy_lut", "dig_lut",
    "turn_lut",
])

P_BRICK, P_LADDER, P_GOLD, P_REMOVED, P_GOLD_TIMER = (int(Plane.BRICK), int(Plane.LADDER),
                                                      int(Plane.GOLD), int(Plane.REMOVED),
                                                      int(Plane.GOLD_TIMER))
P_OWN, P_OPPONENT, P_OWN_SPAWN, P_OPP_SPAWN = (int(Plane.OWN), int(Plane.OPPONENT),
                                               int(Plane.OWN_SPAWN), int(Plane.OPP_SPAWN))
P_ENEMY, P_TRAPPED, P_ENEMY_SPAWN, P_VISITED = (int(Plane.ENEMY), int(Plane.TRAPPED),
                                                int(Plane.ENEMY_SPAWN), int(Plane.VISITED))
P_DIG, P_OPP_DIG, P_TURN = int(Plane.DIG_DELAY), int(Plane.OPP_DIG_DELAY), int(Plane.TURN)
N = HEIGHT * WIDTH


@njit(cache=True, _nrt=False)
def reset_env(s, p, e):
    """A new game in env e on a map of the pool (drawn from the GAME stream if several)."""
    m = 0
    if p.num_maps > 1:
        m = randint(s.rng, e, GAME, p.num_maps)
    s.map_id[e] = m
    copy_into(s.cells[e], p.cells[m])
    restore, dug_by, gold_turn = s.restore_turn[e], s.dug_by[e], s.gold_turn[e]
    for r in range(HEIGHT):
        for c in range(WIDTH):
            restore[r, c] = -1
            dug_by[r, c] = 0
            gold_turn[r, c] = -1
    s.num_holes[e] = 0
    s.num_gold_out[e] = 0
    visited = s.visited[e]
    spawns = p.spawns[m]
    for a in range(2):
        for r in range(HEIGHT):
            for c in range(WIDTH):
                visited[a, r, c] = 0
        s.runner_pos[e, a, 0] = spawns[a, 0]
        s.runner_pos[e, a, 1] = spawns[a, 1]
        visited[a, spawns[a, 0], spawns[a, 1]] = 1
        s.runner_alive[e, a] = True
        s.runner_respawn[e, a] = -1
        s.dig_ready[e, a] = 0
        s.died[e, a] = False
        s.scores[e, a] = p.visit_points       # the start cell counts at turn 0
        s.prev_scores[e, a] = p.visit_points
        s.alive[e, a] = True
        s.prev_alive[e, a] = True
        s.rank_key[e, a] = p.visit_points
    n = p.n_enemies[m]
    s.num_enemies[e] = n
    enemy_spawn = p.enemy_spawn[m]
    for i in range(s.enemy_pos.shape[1]):
        live = i < n
        s.enemy_alive[e, i] = live
        s.enemy_pos[e, i, 0] = enemy_spawn[i, 0] if live else -1
        s.enemy_pos[e, i, 1] = enemy_spawn[i, 1] if live else -1
        s.enemy_respawn[e, i] = -1
        s.enemy_next[e, i] = p.enemy_first_move_turn
        s.enemy_pc[e, i] = 0
        s.enemy_sp[e, i] = 0
        s.enemy_master[e, i] = -1
        s.enemy_radius[e, i, 0] = p.chase_radius
        s.enemy_radius[e, i, 1] = p.chase_radius
    s.turn[e] = 0
    s.steps[e] = 0
    s.over[e] = False


@njit(cache=True, _nrt=False)
def _clip(x, top):
    if x < 0:
        return 0
    if x > top:
        return top
    return x


@njit(cache=True, _nrt=False)
def _fill(plane, value):
    for i in range(N):
        plane[i] = value


@njit(cache=True, _nrt=False)
def _mark(plane, r, c, flip, value):
    if flip:
        plane[r * WIDTH + WIDTH - 1 - c] = value
    else:
        plane[r * WIDTH + c] = value


@njit(cache=True, _nrt=False)
def observe_env(s, p, e, obs, masks):
    """Both runners' planes (``obs[a]``, see constants.Plane) and action masks of env e.
    The planes shared by both runners are written for red and copied for blue (mirrored
    left-right with ``p.mirror``)."""
    cells = s.cells[e].reshape(N)
    restore, gold_turn = s.restore_turn[e].reshape(N), s.gold_turn[e].reshape(N)
    turn = s.turn[e]
    on = p.on
    zero = p.removed_lut[0]
    flat = obs.reshape(2, obs.shape[1], N)
    red = flat[0]
    brick, ladder, gold, removed, gold_timer = (red[P_BRICK], red[P_LADDER], red[P_GOLD],
                                                red[P_REMOVED], red[P_GOLD_TIMER])
    top_removed, top_gold = p.removed_lut.shape[0] - 1, p.gold_lut.shape[0] - 1
    for i in range(N):
        v = cells[i]
        brick[i] = on if v == BRICK else zero
        ladder[i] = on if v == LADDER else zero
        gold[i] = on if v == GOLD else zero
        removed[i] = zero
        gold_timer[i] = zero
        if v == REMOVED:
            removed[i] = p.removed_lut[_clip(restore[i] - turn + 1, top_removed)]
        if gold_turn[i] >= 0:
            gold_timer[i] = p.gold_lut[_clip(gold_turn[i] - turn + 1, top_gold)]
    enemy, trapped, enemy_spawn_plane = red[P_ENEMY], red[P_TRAPPED], red[P_ENEMY_SPAWN]
    _fill(enemy, zero)
    _fill(trapped, zero)
    _fill(enemy_spawn_plane, zero)
    m_id = s.map_id[e]
    enemy_pos, enemy_alive, enemy_respawn = s.enemy_pos[e], s.enemy_alive[e], s.enemy_respawn[e]
    enemy_spawn = p.enemy_spawn[m_id]
    top_enemy = p.enemy_lut.shape[0] - 1
    for i in range(s.num_enemies[e]):
        if enemy_alive[i]:
            k = enemy_pos[i, 0] * WIDTH + enemy_pos[i, 1]
            if cells[k] == REMOVED:
                trapped[k] = on
            else:
                enemy[k] = on
        else:
            k = enemy_spawn[i, 0] * WIDTH + enemy_spawn[i, 1]
            value = p.enemy_lut[_clip(enemy_respawn[i] - turn + 1, top_enemy)]
            if enemy_spawn_plane[k] < value:
                enemy_spawn_plane[k] = value
    _fill(red[P_TURN], p.turn_lut[_clip(turn, p.turn_lut.shape[0] - 1)])
    # blue's copy of the shared planes
    blue = flat[1]
    shared = (P_BRICK, P_LADDER, P_GOLD, P_REMOVED, P_GOLD_TIMER, P_ENEMY, P_TRAPPED,
              P_ENEMY_SPAWN, P_TURN)
    for j in shared:
        src, dst = red[j], blue[j]
        if p.mirror:
            for r in range(HEIGHT):
                base = r * WIDTH
                for c in range(WIDTH):
                    dst[base + c] = src[base + WIDTH - 1 - c]
        else:
            for i in range(N):
                dst[i] = src[i]
    # each runner's own planes
    pos, alive, respawn, ready = s.runner_pos[e], s.runner_alive[e], s.runner_respawn[e], s.dig_ready[e]
    visited = s.visited[e].reshape(2, N)
    spawns = p.spawns[m_id]
    top_runner, top_dig = p.runner_lut.shape[0] - 1, p.dig_lut.shape[0] - 1
    for a in range(2):
        mine = flat[a]
        flip = p.mirror and a == 1
        b = 1 - a
        own, opp, own_spawn, opp_spawn, seen = (mine[P_OWN], mine[P_OPPONENT], mine[P_OWN_SPAWN],
                                                mine[P_OPP_SPAWN], mine[P_VISITED])
        _fill(own, zero)
        _fill(opp, zero)
        _fill(own_spawn, zero)
        _fill(opp_spawn, zero)
        vis = visited[a]
        if flip:
            for r in range(HEIGHT):
                base = r * WIDTH
                for c in range(WIDTH):
                    seen[base + c] = on if vis[base + WIDTH - 1 - c] else zero
        else:
            for i in range(N):
                seen[i] = on if vis[i] else zero
        if alive[a]:
            _mark(own, pos[a, 0], pos[a, 1], flip, on)
            _mark(own_spawn, spawns[a, 0], spawns[a, 1], flip, on)
        else:
            _mark(own_spawn, spawns[a, 0], spawns[a, 1], flip,
                  p.runner_lut[_clip(respawn[a] - turn + 1, top_runner)])
        if alive[b]:
            _mark(opp, pos[b, 0], pos[b, 1], flip, on)
            _mark(opp_spawn, spawns[b, 0], spawns[b, 1], flip, on)
        else:
            _mark(opp_spawn, spawns[b, 0], spawns[b, 1], flip,
                  p.runner_lut[_clip(respawn[b] - turn + 1, top_runner)])
        _fill(mine[P_DIG], p.dig_lut[_clip(ready[a] - turn, top_dig)])
        _fill(mine[P_OPP_DIG], p.dig_lut[_clip(ready[b] - turn, top_dig)])
        legal_actions(s, p, e, a, masks[a])


@njit(cache=True, _nrt=False)
def step_env(s, p, e, actions, rewards, terminated, truncated):
    """One turn of env e and its rewards and end flags; True when the episode is done."""
    game_over = play_turn(s, p, e, actions)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, s.alive[e],
                       s.prev_alive[e], s.scores[e], s.prev_scores[e], s.rank_key[e], rewards,
                       terminated, truncated)
    if p.death_penalty != 0.0:
        for a in range(2):
            if s.died[e, a]:
                rewards[a] -= p.death_penalty
    s.over[e] = done
    return done


def _reset(s, p, env_mask, obs, masks):
    for e in prange(env_mask.shape[0]):
        if env_mask[e]:
            reset_env(s, p, e)
            observe_env(s, p, e, obs[e], masks[e])


def _step(s, p, actions, autoreset, rewards, terminated, truncated, obs, masks, final_obs,
          final_scores, final_rank_keys):
    for e in prange(actions.shape[0]):
        if s.over[e]:
            continue
        if step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e]):
            observe_env(s, p, e, obs[e], masks[e])
            if autoreset:
                copy_into(final_obs[e], obs[e])
                copy_into(final_scores[e], s.scores[e])
                copy_into(final_rank_keys[e], s.rank_key[e])
                reset_env(s, p, e)
                observe_env(s, p, e, obs[e], masks[e])
        else:
            observe_env(s, p, e, obs[e], masks[e])


reset, reset_parallel = serial_and_parallel(_reset)
step, step_parallel = serial_and_parallel(_step)
