"""Ants' batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the map (``water`` uint8[H, W], ``water_plane`` its observation
plane in the obs dtype, ``land_cells`` the flat indices of its non-water cells (where
food spawns), ``move_ok[cell, command]``, ``stay_mask`` the action mask with only 'stay'
legal on every cell), the hill template (``hill_x``, ``hill_y``, ``hill_owner``: -1
where dealt at random), the (dx, dy) offsets within the attack radius (reading order)
and the gather radius (the original engine's scan order: dx, then dy) and their reach
(the largest |dx| or |dy|), ``hill_near[k]`` the HILL_PROXIMITY plane that the map's
hill k gives alone (``game.hill_nearness``), every rule number and switch of ``Config``,
the reward mode, ``max_steps``, and the observation's values in the obs dtype: ``on``
(full), ``half`` (razed hills), ``full`` / ``round`` for the constant planes (``round``
is 0.5 where they are stored as integers, so that the store rounds).

Observations and masks (``observe``): written whole after a reset (``observe_env``),
updated in place by a step (``before_turn``, ``after_turn``: only the cells that
changed).  Prefetching for the envs after the one stepped (``memory``): ``prefetch_ahead``.
"""

from ...core.jit import glue, hot, phase
from ...core.journal import journal_of
from ...core.loop import game_loop, player_rows
from ...core.params import params_type
from ...core.rewards import finish_step
from ...core.rng import GAME, randint
from .config import Config
from .constants import NUM_COMMANDS
from .memory import prefetch_ahead
from .observe import after_turn, before_turn, observe_env
from .rules import add_ant, play_turn, spawn_food, update_rank_keys

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "water_plane", "land_cells", "move_ok", "stay_mask", "hill_x", "hill_y", "hill_owner",
    "attack_offsets", "attack_reach", "gather_offsets", "gather_reach", "hill_near",
    "reward_mode", "on", "half", "full", "round",
], __name__)


@hot
def deal_hills(s, p, e):
    """Each colony's hills: its numbered ones plus random unassigned ones (GAME stream)."""
    hill_owner, order, rng = s.hill_owner[e], s.order[e], s.rng
    num_players = s.alive.shape[1]
    m = 0
    for h in range(hill_owner.shape[0]):
        hill_owner[h] = p.hill_owner[h]
        if p.hill_owner[h] < 0:
            order[m] = h
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint(rng, e, GAME, i + 1)
        order[i], order[j] = order[j], order[i]
    k = 0
    for a in range(num_players):
        have = 0
        for h in range(hill_owner.shape[0]):
            if p.hill_owner[h] == a:
                have += 1
        while have < p.hills_per_player and k < m:
            hill_owner[order[k]] = a
            k += 1
            have += 1


@hot
def reset_env(s, p, e):
    """A new game in env e: hills dealt, one ant on each, food spawned, scores set."""
    ant_at, food_at = s.ant_at[e], s.food_at[e]
    height, width = ant_at.shape
    for y in range(height):
        for x in range(width):
            ant_at[y, x] = -1
            food_at[y, x] = 0
    deal_hills(s, p, e)
    hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
    ant_x, ant_y, ant_owner, ant_id = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.ant_id[e]
    n = 0
    for h in range(hill_x.shape[0]):
        hill_x[h] = p.hill_x[h]
        hill_y[h] = p.hill_y[h]
        hill_razed[h] = False
        if hill_owner[h] >= 0:
            n = add_ant(ant_x, ant_y, ant_owner, ant_id, ant_at, n, hill_x[h], hill_y[h],
                        hill_owner[h], n)
    s.num_ants[e] = n
    s.next_ant_id[e] = n
    for a in range(s.alive.shape[1]):
        s.stored_food[e, a] = p.start_food
        s.alive[e, a] = True
        s.prev_alive[e, a] = True
        s.elim_turn[e, a] = p.max_turns + 1
        s.scores[e, a] = p.hill_points * p.hills_per_player
        s.prev_scores[e, a] = s.scores[e, a]
    s.num_food[e] = 0
    s.food_total[e] = 0
    if p.spawn_food_at_reset:
        spawn_food(s, p, e, None)
    s.turn[e] = 0
    s.steps[e] = 0
    s.over[e] = False
    update_rank_keys(s, p, e)


@phase
def step_env(s, p, e, actions, draws, rewards, terminated, truncated):
    """One turn of env e (with ``draws``, see ``rules.Draws``, or None) and its rewards and
    end flags; True when the episode is done."""
    game_over = play_turn(s, p, e, actions, draws)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, s.alive[e],
                       s.prev_alive[e], s.scores[e], s.prev_scores[e], s.rank_key[e], rewards,
                       terminated, truncated)
    s.over[e] = done
    return done


@phase(python=True)
def step_and_observe(s, p, e, actions, draws, rewards, terminated, truncated, planes, masks,
                     journal):
    """``step_env`` with env e's planes (one flat row per colony) and masks updated in
    place, what it writes of the planes recorded in its ``journal``; True when the
    episode is done."""
    shown, razed = before_turn(s, p, e, planes, masks, journal)
    done = step_env(s, p, e, actions, draws, rewards, terminated, truncated)
    after_turn(s, p, e, planes, masks, shown, razed, journal)
    return done


@glue
def play_env(s, p, e, actions, rewards, terminated, truncated, planes, masks, journals):
    """One turn of env e (its own draws), its planes and masks updated in place; True when
    it is done."""
    return step_and_observe(s, p, e, actions[e], None, rewards[e], terminated[e],
                            truncated[e], planes[e], masks[e], journal_of(journals, e))


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, obs_views=player_rows, prefetch_env=prefetch_ahead)

__all__ = ["Params", "reset", "reset_parallel", "step", "step_parallel", "NUM_COMMANDS"]
