"""Ants' batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the map (``water`` uint8[H, W], ``water_plane`` its observation
plane in the obs dtype, ``land_cells`` the flat indices of its non-water cells (where
food spawns), ``move_ok[cell, command]``, ``stay_mask`` the action mask with only 'stay'
legal on every cell), the hill template (``hill_x``, ``hill_y``, ``hill_owner``: -1
where dealt at random), the (dx, dy) offsets within the attack radius (reading order)
and the gather radius (the original engine's scan order: dx, then dy) and their reach
(the largest |dx| or |dy|), every rule number and switch of ``Config``, the reward mode,
``max_steps``, and the observation's values in the obs dtype: ``on`` (full), ``half``
(razed hills), ``full`` / ``round`` for the constant planes (``round`` is 0.5 where they
are stored as integers, so that the store rounds).

Memory: at batch 1024 and more, an env's arrays, planes and commands are far from the
core, and a step touches a few dozen scattered cache lines of them.  While the step
driver steps env e, it prefetches (``prefetch``, a hint that changes nothing) the lists
and grids of env e + ``AHEAD_LISTS`` (``prefetch_lists``) and the lines at the ants,
hills and constant planes of env e + ``AHEAD`` (``prefetch_ants``, which reads the ant
list prefetched two envs before): ~1.3x kernel speed at batch 1024 (``core.prefetch``).
"""

from ...core.jit import copy_into, fill_plane, hot, phase
from ...core.loop import game_loop, player_rows
from ...core.params import params_type
from ...core.rewards import finish_step
from ...core.rng import GAME, randint
from ...core.prefetch import LINE, prefetch
from .config import Config
from .constants import FOOD_OBS_CAP, HILL_REACH, NUM_COMMANDS, UNREACHED, Plane
from .rules import (add_ant, land_distances, legal_commands, play_turn, spawn_food,
                    update_rank_keys)

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "water_plane", "land_cells", "move_ok", "stay_mask", "hill_x", "hill_y", "hill_owner",
    "attack_offsets", "attack_reach", "gather_offsets", "gather_reach", "reward_mode", "on",
    "half", "full", "round",
], __name__)

P_OWN, P_FOOD, P_OWN_HILLS, P_ENEMY_HILLS, P_WATER = (
    int(Plane.OWN_ANTS), int(Plane.FOOD), int(Plane.OWN_HILLS), int(Plane.ENEMY_HILLS),
    int(Plane.WATER))
P_STORED, P_TURN, P_ALIVE = int(Plane.STORED_FOOD), int(Plane.TURN), int(Plane.ALIVE_PLAYERS)
P_PROXIMITY = int(Plane.HILL_PROXIMITY)
AHEAD_LISTS = 4    # while it steps env e, the step driver prefetches the lists of env
AHEAD = 2          # e + AHEAD_LISTS and the lines at the ants of env e + AHEAD (read there)


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


@hot
def mark_ants(s, p, e, planes, masks, drawing):
    """Env e's ants on every colony's planes and mask: ``drawing``, full on the ant
    plane of its colony (relative to the viewer) and its legal moves in its colony's
    mask; else those cells and entries cleared.  (``planes``: env e's planes, one flat
    row per colony as in ``observe_env``.)"""
    height, width = s.ant_at.shape[1], s.ant_at.shape[2]
    n = height * width
    ant_x, ant_y, ant_owner, num_ants = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.num_ants[e]
    num_players = planes.shape[0]
    value = p.on * drawing
    for a in range(num_players):
        own = planes[a]
        for i in range(num_ants):
            rel = int(ant_owner[i]) - a   # int: the int8 owner would wrap in pure Python
            if rel < 0:
                rel += num_players
            own[rel * n + int(ant_y[i]) * width + ant_x[i]] = value
        legal_commands(ant_x, ant_y, ant_owner, num_ants, p.move_ok, width, a, int(drawing),
                       masks[a])


@hot
def show_food(s, p, e, planes, shown):
    """Every colony's food plane (full where food lies, however many), showing the first ``shown`` entries of the
    ``shown_x``/``shown_y`` list, made to show env e's food list: one walk over both
    lists in order.  A shown entry that the food list does not match in order is cleared
    as the walk passes it; a matched entry stays; once the shown list is passed, the
    remaining food is drawn.  (Right for any order: a cleared entry that comes later in
    the food list is drawn after every clear.)  A turn keeps the food it does not gather
    in order and appends the new food, so only changed cells are written."""
    width = s.ant_at.shape[2]
    n = s.ant_at.shape[1] * width
    food_x, food_y, shown_x, shown_y = s.food_x[e], s.food_y[e], s.shown_x[e], s.shown_y[e]
    j = 0
    for f in range(s.num_food[e]):
        x, y = food_x[f], food_y[f]
        while j < shown and (shown_x[j] != x or shown_y[j] != y):
            c = P_FOOD * n + shown_y[j] * width + shown_x[j]
            for a in range(planes.shape[0]):
                planes[a, c] = 0
            j += 1
        if j < shown:
            j += 1
            continue
        c = P_FOOD * n + y * width + x
        for a in range(planes.shape[0]):
            planes[a, c] = p.on
    while j < shown:
        c = P_FOOD * n + shown_y[j] * width + shown_x[j]
        for a in range(planes.shape[0]):
            planes[a, c] = 0
        j += 1


@hot
def show_hills_and_counts(s, p, e, planes, whole):
    """Every colony's hill planes (full standing, half razed) and constant planes (those
    whose value changed, or all if ``whole``)."""
    width = s.ant_at.shape[2]
    n = s.ant_at.shape[1] * width
    hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
    stored, alive = s.stored_food[e], s.alive[e]
    num_players = alive.shape[0]
    living = 0
    for a in range(num_players):
        living += alive[a]
    turn_value = p.full * s.turn[e] / p.max_turns + p.round
    alive_value = p.full * living / num_players + p.round
    for a in range(num_players):
        own = planes[a]
        for h in range(hill_x.shape[0]):            # hills stand on distinct cells
            owner = hill_owner[h]
            if owner < 0:
                continue
            k = P_OWN_HILLS if owner == a else P_ENEMY_HILLS
            own[k * n + hill_y[h] * width + hill_x[h]] = p.half if hill_razed[h] else p.on
        fill_plane(own[P_STORED * n:(P_STORED + 1) * n],
                   p.full * min(stored[a], FOOD_OBS_CAP) / FOOD_OBS_CAP + p.round, whole)
        fill_plane(own[P_TURN * n:(P_TURN + 1) * n], turn_value, whole)
        fill_plane(own[P_ALIVE * n:(P_ALIVE + 1) * n], alive_value, whole)


@hot
def razed_hills(s, e):
    """How many of env e's hills are razed (a turn that razes one redraws the proximity
    planes)."""
    razed = 0
    for h in range(s.hill_razed.shape[1]):
        razed += s.hill_razed[e, h]
    return razed


@hot
def show_hill_proximity(s, p, e, planes):
    """Every colony's HILL_PROXIMITY plane, drawn whole from the steps over land to the
    nearest standing hill of another colony (``land_distances``; the scratch ``s.focus``
    holds the distances, ``s.cells`` is the search's queue)."""
    width = s.ant_at.shape[2]
    n = s.ant_at.shape[1] * width
    hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
    dist, queue = s.focus[e], s.cells[e]
    for a in range(planes.shape[0]):
        for c in range(n):
            dist[c] = UNREACHED
        tail = 0
        for h in range(hill_x.shape[0]):
            owner = hill_owner[h]
            if owner < 0 or owner == a or hill_razed[h]:
                continue
            c = hill_y[h] * width + hill_x[h]
            dist[c] = 0
            queue[tail] = c
            tail += 1
        land_distances(p.move_ok, width, dist, queue, tail)
        near = planes[a, P_PROXIMITY * n:(P_PROXIMITY + 1) * n]
        for c in range(n):
            d = dist[c]
            if d == UNREACHED or d >= HILL_REACH:
                near[c] = 0
            else:
                near[c] = p.full * (HILL_REACH - d) / HILL_REACH + p.round


@hot
def observe_env(s, p, e, planes, masks):
    """Every colony's planes (``planes[e, a]``, see ``core.loop.player_rows`` and constants.Plane) and
    action mask of env e, written whole (after a reset, or a position set from outside):
    the planes before the water one cleared, water copied, masks copied from the
    stay-only template, then the ants, all food, hills and constant planes drawn."""
    n = s.ant_at.shape[1] * s.ant_at.shape[2]
    planes, masks = planes[e], masks[e]
    for a in range(planes.shape[0]):
        own = planes[a]
        for i in range(P_WATER * n):
            own[i] = 0
        water = own[P_WATER * n:(P_WATER + 1) * n]
        for i in range(n):
            water[i] = p.water_plane[i]
        copy_into(masks[a], p.stay_mask)
    mark_ants(s, p, e, planes, masks, True)
    show_food(s, p, e, planes, 0)
    show_hills_and_counts(s, p, e, planes, True)
    show_hill_proximity(s, p, e, planes)


@hot
def before_turn(s, p, e, planes, masks):
    """What a step's in-place update needs from the state the planes show: its ants'
    marks cleared, its food list kept (``shown_x``/``shown_y``); returns that list's
    length and the number of razed hills."""
    mark_ants(s, p, e, planes, masks, False)
    food_x, food_y, shown_x, shown_y = s.food_x[e], s.food_y[e], s.shown_x[e], s.shown_y[e]
    for f in range(s.num_food[e]):
        shown_x[f] = food_x[f]
        shown_y[f] = food_y[f]
    return s.num_food[e], razed_hills(s, e)


@hot
def after_turn(s, p, e, planes, masks, shown, razed):
    """The planes and masks updated in place to the state the turn ended on (nothing
    else may write them between steps); ``shown``, ``razed``: as ``before_turn`` found."""
    mark_ants(s, p, e, planes, masks, True)
    show_food(s, p, e, planes, shown)
    show_hills_and_counts(s, p, e, planes, False)
    if razed_hills(s, e) != razed:
        show_hill_proximity(s, p, e, planes)


@hot
def step_env(s, p, e, actions, draws, rewards, terminated, truncated):
    """One turn of env e (with ``draws``, see ``rules.Draws``, or None) and its rewards and
    end flags; True when the episode is done."""
    game_over = play_turn(s, p, e, actions, draws)
    done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, s.alive[e],
                       s.prev_alive[e], s.scores[e], s.prev_scores[e], s.rank_key[e], rewards,
                       terminated, truncated)
    s.over[e] = done
    return done


@phase
def step_and_observe(s, p, e, actions, draws, rewards, terminated, truncated, planes, masks):
    """``step_env`` with env e's planes (one flat row per colony) and masks updated in
    place; True when the episode is done."""
    shown, razed = before_turn(s, p, e, planes, masks)
    done = step_env(s, p, e, actions, draws, rewards, terminated, truncated)
    after_turn(s, p, e, planes, masks, shown, razed)
    return done


@phase
def prefetch_lists(s, e):
    """Prefetch env e's ant and food lists (their first lines) and its ant and food grids."""
    for array in (s.ant_x, s.ant_y, s.food_x, s.food_y, s.shown_x, s.shown_y):
        prefetch(array, (e, 0))
    prefetch(s.ant_owner, (e, 0))
    prefetch(s.focus, (e, 0))
    prefetch(s.ant_id, (e, 0))
    prefetch(s.dead, (e, 0))
    height, width = s.ant_at.shape[1], s.ant_at.shape[2]
    for c in range(0, height * width, LINE // s.ant_at.itemsize):
        prefetch(s.ant_at, (e, c // width, c % width))
    for c in range(0, height * width, LINE // s.food_at.itemsize):
        prefetch(s.food_at, (e, c // width, c % width))


@phase
def prefetch_ants(s, e, planes, masks, actions):
    """Prefetch what env e's step reads and writes at its ants' cells (their commands,
    planes and mask entries) and its hills' cells, the first cells of the stored food and
    alive planes, and the turn plane (redrawn most turns)."""
    num_players = planes.shape[0]
    width = s.ant_at.shape[2]
    n = s.ant_at.shape[1] * width
    ant_x, ant_y, ant_owner = s.ant_x[e], s.ant_y[e], s.ant_owner[e]
    for i in range(s.num_ants[e]):
        owner = int(ant_owner[i])
        c = int(ant_y[i]) * width + ant_x[i]
        prefetch(actions, (owner, c))
        prefetch(masks, (owner, c * NUM_COMMANDS))
        for a in range(num_players):
            rel = owner - a
            if rel < 0:
                rel += num_players
            prefetch(planes, (a, rel * n + c))
    hill_x, hill_y = s.hill_x[e], s.hill_y[e]
    for a in range(num_players):
        for h in range(hill_x.shape[0]):
            c = int(hill_y[h]) * width + hill_x[h]
            prefetch(planes, (a, P_OWN_HILLS * n + c))
            prefetch(planes, (a, P_ENEMY_HILLS * n + c))
        prefetch(planes, (a, P_STORED * n))
        prefetch(planes, (a, P_ALIVE * n))
        for c in range(P_TURN * n, (P_TURN + 1) * n, LINE // planes.itemsize):
            prefetch(planes, (a, c))


@phase
def prefetch_ahead(s, p, e, hi, actions, masks, rewards, terminated, truncated, planes):
    """While env e is stepped: the lists of env e + ``AHEAD_LISTS`` and the lines at the
    ants of env e + ``AHEAD``."""
    if e + AHEAD_LISTS < hi:
        prefetch_lists(s, e + AHEAD_LISTS)
    if e + AHEAD < hi:
        prefetch_ants(s, e + AHEAD, planes[e + AHEAD], masks[e + AHEAD], actions[e + AHEAD])


@phase
def play_env(s, p, e, actions, rewards, terminated, truncated, planes, masks):
    """One turn of env e (its own draws), its planes and masks updated in place; True when
    it is done."""
    return step_and_observe(s, p, e, actions[e], None, rewards[e], terminated[e],
                            truncated[e], planes[e], masks[e])


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_env, play_env, obs_views=player_rows, prefetch_env=prefetch_ahead)

__all__ = ["Params", "reset", "reset_parallel", "step", "step_parallel", "NUM_COMMANDS"]
