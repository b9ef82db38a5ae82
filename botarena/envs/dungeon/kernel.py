"""Dungeon's batch kernels (the contract in ``botarena.core.batched``): a new game
(``reset_env``) and a tick (``play_env``: the rules' tick, its rewards, the observation
redrawn where it changed); ``observe.py`` draws the observations, ``memory.py``
prefetches, ``core.loop`` runs the envs.

``p``, the params tuple: the map template (``tiles``, ``positions``) or the generator's
counts, every rule number of ``Config``, the reward mode, ``max_steps``, and the
observation's values in the obs dtype: ``on`` / ``off`` (binary planes), ``ore_lut[hp]``,
``bomb_lut[timer]``, ``danger_lut[ticks until the fire hits]``, ``hp_lut[hp]``, and the
constant planes' ``time_lut[tick]``, ``ammo_lut[min(ammo, AMMO_OBS_CAP)]``,
``power_lut[min(power, POWER_OBS_CAP)]`` and ``score_lut[margin + SCORE_OBS_CAP]``
(a table lookup instead of a division per plane and player at every step).

Calls: the functions that take the whole state ``s`` and params ``p`` (``step_env``,
``observe.draw_observation``, ``rules.blast_arms``, ``rules.chain_times``,
``rules.play_tick``) are ``@phase`` (inlined into the batch drivers, see ``core.jit``);
so are ``rules.legal_actions`` and its ``can_enter`` (called per player and move: ~1.4x
the steps/s at batch 4096).  A whole redraw (``observe.observe_env``) stays a real call.
"""
from ...core.jit import copy_into, glue, hot, phase
from ...core.journal import journal_of, record_whole
from ...core.loop import game_loop
from ...core.params import params_type
from ...core.rewards import finish_step
from ...core.rng import GAME, randint
from .config import Config
from .constants import AMMO, ORE
from .maps import generate_map
from .memory import prefetch_ahead
from .observe import draw_observation, flat_cells, observe_env
from .rules import place_ammo, play_tick, update_rank_keys

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "tiles", "positions", "generate", "reward_mode", "ego", "on", "off", "ore_lut",
    "bomb_lut", "danger_lut", "hp_lut", "time_lut", "ammo_lut", "power_lut", "score_lut",
], __name__)


@hot
def reset_env(s, p, e):
    """A new game in env e: the template or a generated map, fresh players and timers."""
    tiles = s.tiles[e]
    if p.generate:
        generate_map(tiles, s.positions[e], s.marks[e], s.cells[e], s.rng, e, p.metal_blocks,
                     p.wooden_blocks, p.ore_blocks, p.map_ammo, p.symmetric)
    else:
        copy_into(tiles, p.tiles)
        positions = s.positions[e]     # a strided view into the record: no copy_into
        for a in range(positions.shape[0]):
            positions[a, 0], positions[a, 1] = p.positions[a, 0], p.positions[a, 1]
    height, width = tiles.shape
    ore_hp = s.ore_hp[e]
    s.bomb_grid[e] = 0
    s.num_bombs[e] = 0
    s.num_fires[e] = 0
    s.num_ammo[e] = 0
    s.num_pending[e] = 0
    s.num_gone[e] = 0
    for y in range(height):
        for x in range(width):
            ore_hp[y, x] = p.ore_hp if tiles[y, x] == ORE else 0
            if tiles[y, x] == AMMO:
                place_ammo(s, e, x, y, p.ammo_lifetime)
    for a in range(s.positions.shape[1]):
        s.hp[e, a] = p.player_hp
        s.prev_hp[e, a] = p.player_hp
        s.ammo[e, a] = p.player_ammo
        s.power[e, a] = p.bomb_power
        s.alive[e, a] = True
        s.death_tick[e, a] = p.max_turns + 1
        s.scores[e, a] = 0
        s.prev_scores[e, a] = 0
        s.prev_alive[e, a] = True
    s.treasure_timer[e] = p.treasure_min + randint(s.rng, e, GAME, p.treasure_max - p.treasure_min + 1)
    s.tick[e] = 0
    s.steps[e] = 0
    s.over[e] = False
    update_rank_keys(s, p, e)


@phase
def step_env(s, p, e, actions, rewards, terminated, truncated):
    """One tick of env e and its rewards (with the hurt shaping) and end flags; True when
    the episode is done."""
    game_over = play_tick(s, p, e, actions)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, s.alive[e],
                       s.prev_alive[e], s.scores[e], s.prev_scores[e], s.rank_key[e], rewards,
                       terminated, truncated)
    hp, prev_hp = s.hp[e], s.prev_hp[e]
    for a in range(hp.shape[0]):
        now = max(hp[a], 0)
        rewards[a] -= p.hurt_penalty * (prev_hp[a] - now)
        prev_hp[a] = now
    s.over[e] = done
    return done


@glue
def play_env(s, p, e, actions, rewards, terminated, truncated, views, masks, journals):
    """One tick of env e, its observation redrawn where it changed (recorded in its
    journal as written whole: a double-buffered row is copied); True when it is done."""
    board, ore, planes, windows = views
    done = step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e])
    draw_observation(s, p, e, board[e], ore[e], planes[e], windows[e], masks[e], False)
    record_whole(journal_of(journals, e))
    return done


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, obs_views=flat_cells, prefetch_env=prefetch_ahead)
