"""CodeRunner's batch kernels (the contract in ``botarena.core.batched``): a new game
(``reset_env``) and a turn (``play_env``: the characters' marks cleared, the rules'
turn, the observation brought up to date); ``observe.py`` draws the observations,
``memory.py`` prefetches, ``core.loop`` runs the envs.

``p``, the params tuple: the map pool (``cells``, ``spawns``, ``n_enemies``,
``enemy_spawn``, ``prog``, ``prog_len``, ``side`` per map; ``nbr`` and ``dist``, the
pursuit tables of each map, see ``maps.pursuit_tables``), every rule number of ``Config``,
the reward mode, ``max_steps``, shaping, and the observation's values in the obs dtype:
``on`` (full), ``half``, ``cell_lut`` (by cell code) and look-up tables indexed by turns
(``removed_lut``, ``gold_lut``, ``runner_lut``, ``enemy_lut``); bar lengths by turns
(``dig_bar``, ``turn_bar``).

Calls: ``play_env``, ``observe_changes``, ``play_turn`` and ``timed_events`` are
``@phase`` (inlined, see ``core.jit``); the phases LLVM inlines itself stay ``@hot``.
"""
from ...core.jit import copy_into, glue, hot, phase
from ...core.journal import journal_of
from ...core.loop import game_loop
from ...core.params import params_type
from ...core.rewards import finish_step
from ...core.rng import GAME, randint
from .config import Config
from .constants import HEIGHT, WIDTH
from .memory import prefetch_ahead
from .observe import character_marks, observe_changes, observe_env, planes_of
from .rules import play_turn

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "cells", "spawns", "n_enemies", "enemy_spawn", "prog", "prog_len", "side", "nbr", "dist",
    "num_maps", "reward_mode", "on", "half", "cell_lut", "removed_lut", "gold_lut",
    "runner_lut", "enemy_lut", "dig_bar", "turn_bar",
], __name__)


@hot
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
    s.hole_head[e] = 0
    s.num_gold_out[e] = 0
    s.gold_head[e] = 0
    visited = s.visited[e]
    for r in range(HEIGHT):
        for c in range(WIDTH):
            visited[r, c] = 0
    spawns = p.spawns[m]
    for a in range(2):
        s.runner_pos[e, a, 0] = spawns[a, 0]
        s.runner_pos[e, a, 1] = spawns[a, 1]
        visited[spawns[a, 0], spawns[a, 1]] = 1
        s.runner_alive[e, a] = True
        s.runner_respawn[e, a] = -1
        s.dig_ready[e, a] = 0
        s.died[e, a] = False
        s.new_visit[e, a] = -1
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


@phase
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


@glue
def play_env(s, p, e, actions, rewards, terminated, truncated, planes, masks, journals):
    """One turn of env e, its planes updated where they changed (and recorded in its
    journal); True when it is done."""
    env_planes, env_masks, journal = planes[e], masks[e], journal_of(journals, e)
    character_marks(s, p, e, env_planes, False, False, journal)
    done = step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e])
    observe_changes(s, p, e, env_planes, env_masks, journal)
    return done


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, obs_views=planes_of, prefetch_env=prefetch_ahead)
