"""Dungeon's batch kernels (the contract in ``botarena.core.batched``).

``p``, the params tuple: the map template (``tiles``, ``positions``) or the generator's
counts, every rule number of ``Config``, the reward mode, ``max_steps``, and the
observation's values in the obs dtype: ``on`` / ``off`` (binary planes), ``ore_lut[hp]``,
``bomb_lut[timer]``, ``danger_lut[ticks until the fire hits]``, ``hp_lut[hp]``, and the
constant planes' ``time_lut[tick]``, ``ammo_lut[min(ammo, AMMO_OBS_CAP)]``,
``power_lut[min(power, POWER_OBS_CAP)]`` and ``score_lut[margin + SCORE_OBS_CAP]``
(a table lookup instead of a division per plane and player at every step).

Speed: the functions that take the whole state ``s`` and params ``p`` (``step_env``,
``observe_env``, ``rules.blast_arms``, ``rules.chain_times``, ``rules.play_tick``) are ``@phase``
(inlined into the batch drivers, see ``core.jit``); so are ``rules.legal_actions`` and its
``can_enter`` (called per player and move: ~1.4x the steps/s at batch 4096).  The
loop over envs (``core.loop``) takes the flat-cell views (``flat_cells``) once per range,
since numba's reshape is a call too.  A step redraws the observation only where it changed
(``observe_env``; a new game draws it whole): the kernels must be the only writers of the
observation buffers.  A constant plane is only touched when its value changed
(``shown_consts`` holds the values drawn), and the bombs' blast arms are kept between
steps while no bomb or block changed (``draw_marks``).  The step loop prefetches in two
stages while it steps env e (with ``core.prefetch``): env e + 2 ``AHEAD``'s record (its
small fields, see ``core.layout``) and its entries in the caller's buffers
(``prefetch_record``), then the lines of env e + ``AHEAD`` whose addresses the record
gives (``prefetch_env``: its state's grids and lists, its scattered observation lines):
at batch 4096 they are far from the core.  The record and its prefetch, with the state in
one huge-page block: ~1.15x the steps/s at batch 4096.
"""

from ...core import layout
from ...core.grid import centre_window
from ...core.jit import copy_into, fill_plane, hot, phase
from ...core.loop import game_loop
from ...core.params import params_type
from ...core.rewards import finish_step
from ...core.rng import GAME, randint
from .constants import (AMMO, AMMO_OBS_CAP, METAL, ORE, POWER_OBS_CAP, SCORE_OBS_CAP,
                        TREASURE, WOOD, Plane)
from ...core.prefetch import LINE, prefetch
from .config import Config
from .maps import generate_map
from .rules import (ACTION_DELTAS, blast_arms, chain_times, legal_actions, place_ammo,
                    play_tick, update_rank_keys)

# every number field of Config under its own name, then what the game derives from them
Params = params_type(Config, [
    "tiles", "positions", "generate", "reward_mode", "ego", "on", "off", "ore_lut",
    "bomb_lut", "danger_lut", "hp_lut", "time_lut", "ammo_lut", "power_lut", "score_lut",
], __name__)

# plane indices as plain ints (numba indexes with IntEnum members more slowly)
P_METAL, P_WOOD, P_ORE, P_BOMB, P_DANGER, P_AMMO, P_TREASURE, P_BODY, P_TIME = (
    int(Plane.METAL), int(Plane.WOOD), int(Plane.ORE), int(Plane.BOMB), int(Plane.DANGER), int(Plane.AMMO), int(Plane.TREASURE), int(Plane.BODY),
    int(Plane.TIME_LEFT))
P_OWN, P_OPPONENT, P_HP, P_AMMO_LEFT, P_POWER, P_SCORE = (
    int(Plane.OWN), int(Plane.OPPONENT), int(Plane.OWN_HP), int(Plane.OWN_AMMO),
    int(Plane.OWN_POWER), int(Plane.OWN_SCORE))
MARKED_PLANES = (P_BOMB, P_DANGER)   # written cell by cell for player 0, copied
PLAYER_PLANES = (P_OWN, P_OPPONENT, P_BODY)   # written at the players' cells
CONSTANT_PLANES = (P_TIME, P_HP, P_AMMO_LEFT, P_POWER, P_SCORE)
AHEAD = 2          # the serial step driver prefetches env e + AHEAD while it steps env e


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
def observe_env(s, p, e, board, ore, planes, windows, masks, whole):
    """Every player's planes (``planes[a, plane, cell]``, cell = y * width + x, see
    constants.Plane) and action mask of env e; ``board`` and ``ore`` are its tiles and
    ore hits as flat cells (the batch drivers take these flat views once per call).
    With the ego view, ``planes`` is the scratch of board planes, each player's are then
    centred on it into ``windows[a, plane, window cell]`` (the observation).

    ``whole``: draw every cell (a new game, or a buffer that holds another game's
    planes).  Otherwise ``planes`` holds this env's planes as the last observe drew them
    (nothing else writes the observation buffers) and only what changed is redrawn: the
    tile planes at the cells whose tile or ore hits differ from ``shown_tiles`` /
    ``shown_ore``, the constant planes whose value changed, the bombs and danger planes
    while they hold or need marks, and the players' and bodies' cells (``shown_at``: the
    cells last drawn)."""
    num_players = planes.shape[0]
    on, off = p.on, p.off
    draw_tiles(s.shown_tiles[e], s.shown_ore[e], board, ore, planes, on, off, p.ore_lut, whole)
    time_left = p.time_lut[s.tick[e]]
    for a in range(num_players):
        draw_constant(planes[a], P_TIME, time_left, s.shown_consts[e, a], whole)
    draw_marks(s, p, e, planes, whole)
    draw_players(s, e, planes, on, off, p.hp_lut, whole)
    tiles, bomb_grid = s.tiles[e], s.bomb_grid[e]
    positions, alive, hp, ammo, power, scores = (s.positions[e], s.alive[e], s.hp[e], s.ammo[e],
                                                 s.power[e], s.scores[e])
    for a in range(num_players):
        mine = planes[a]
        best = -2147483647
        for b in range(num_players):
            if b != a and scores[b] > best:
                best = scores[b]
        margin = min(max(scores[a] - best, -SCORE_OBS_CAP), SCORE_OBS_CAP)
        shown = s.shown_consts[e, a]
        draw_constant(mine, P_HP, p.hp_lut[min(max(hp[a], 0), p.player_hp)], shown, whole)
        draw_constant(mine, P_AMMO_LEFT, p.ammo_lut[min(ammo[a], AMMO_OBS_CAP)], shown, whole)
        draw_constant(mine, P_POWER, p.power_lut[min(power[a], POWER_OBS_CAP)], shown, whole)
        draw_constant(mine, P_SCORE, p.score_lut[margin + SCORE_OBS_CAP], shown, whole)
        legal_actions(tiles, bomb_grid, positions, alive, ammo, a, masks[a])
        if p.ego:
            ego_window(mine, s.tiles.shape[1], s.tiles.shape[2], positions[a], on, off,
                       s.outside[e], windows[a])


@phase
def draw_constant(planes, k, value, shown, whole):
    """Constant plane k of one player's ``planes`` set to ``value`` (in the obs dtype;
    ``shown[k]``, that player's ``shown_consts``: the values last drawn) where that
    changed, or if ``whole``: an unchanged plane is not touched, not even brought into the
    cache (``fill_plane`` would read its first cell)."""
    old = shown[k]
    shown[k] = value
    if whole or shown[k] != old:
        fill_plane(planes[k], shown[k], True)


@phase
def draw_tiles(shown_tiles, shown_ore, board, ore, planes, on, off, ore_lut, whole):
    """The tile planes (metal, wood, ore hits, ammo, treasure) of every player at the cells
    whose tile or ore hits differ from those last drawn (every cell if ``whole``)."""
    n = board.shape[0]
    changed = 0
    for i in range(n):                        # one vector pass: did any cell change?
        changed |= (board[i] ^ shown_tiles[i]) | (ore[i] ^ shown_ore[i])
    if changed == 0 and not whole:
        return
    for i in range(n):
        tile, hits = board[i], ore[i]
        if whole or tile != shown_tiles[i] or hits != shown_ore[i]:
            shown_tiles[i], shown_ore[i] = tile, hits
            for a in range(planes.shape[0]):
                mine = planes[a]
                mine[P_METAL, i] = on if tile == METAL else off
                mine[P_WOOD, i] = on if tile == WOOD else off
                mine[P_ORE, i] = ore_lut[hits]
                mine[P_AMMO, i] = on if tile == AMMO else off
                mine[P_TREASURE, i] = on if tile == TREASURE else off


@phase
def draw_marks(s, p, e, planes, whole):
    """The bombs and danger planes, drawn for player 0 and copied: fire (hits during the
    next tick), then the bombs' future fire (chains included).  Skipped while there are
    no bombs or fire and none were drawn (``marked_bombs``, ``marked_fires``: the counts
    drawn last).  The bombs' arms (``blast``, ``chain``) are kept from the last draw
    unless bombs or blocks changed since: a new bomb (more bombs, no fire now), an
    explosion (fire now) or a block broken or bomb set off (fire during the last tick,
    the fire drawn last)."""
    nb, nf = s.num_bombs[e], s.num_fires[e]
    drawn_bombs, drawn_fires = s.marked_bombs[e], s.marked_fires[e]
    if not whole and drawn_bombs == 0 and drawn_fires == 0 and nb == 0 and nf == 0:
        return
    s.marked_bombs[e], s.marked_fires[e] = nb, nf
    width = s.tiles.shape[2]
    off, bomb_lut, danger_lut = p.off, p.bomb_lut, p.danger_lut
    mine = planes[0]
    bomb_plane, danger = mine[P_BOMB], mine[P_DANGER]
    n = bomb_plane.shape[0]
    for i in range(n):
        bomb_plane[i] = off
    for i in range(n):
        danger[i] = off
    fire_x, fire_y, fire_reach = s.fire_x[e], s.fire_y[e], s.fire_reach[e]
    soonest = danger_lut[1]
    for f in range(nf):
        i = fire_y[f] * width + fire_x[f]
        danger[i] = soonest
        for d in range(4):
            for k in range(1, fire_reach[f, d] + 1):
                i = ((fire_y[f] + k * ACTION_DELTAS[d + 1, 1]) * width
                     + fire_x[f] + k * ACTION_DELTAS[d + 1, 0])
                danger[i] = soonest
    hit_in, blast, chain = s.hit_in[e], s.blast[e], s.chain[e]
    if whole or nf > 0 or drawn_fires > 0 or nb != drawn_bombs:
        blast_arms(s, e, blast, chain)
    chain_times(s, e, hit_in, chain)
    bomb_x, bomb_y, bomb_timer = s.bomb_x[e], s.bomb_y[e], s.bomb_timer[e]
    horizon = danger_lut.shape[0] - 1
    last_fuse = bomb_lut.shape[0] - 1
    for b in range(nb):
        cell = bomb_y[b] * width + bomb_x[b]
        bomb_plane[cell] = bomb_lut[min(bomb_timer[b], last_fuse)]
        value = danger_lut[min(hit_in[b], horizon)]
        danger[cell] = max(danger[cell], value)
        for d in range(4):
            stride = ACTION_DELTAS[d + 1, 1] * width + ACTION_DELTAS[d + 1, 0]
            i = cell
            for k in range(blast[b, d]):
                i += stride
                danger[i] = max(danger[i], value)
    for a in range(1, planes.shape[0]):
        for k in MARKED_PLANES:
            src, dst = mine[k], planes[a, k]
            for i in range(n):
                dst[i] = src[i]


@phase
def draw_players(s, e, planes, on, off, hp_lut, whole):
    """The own, opponents and bodies planes: the cells drawn last time (``shown_at``) are
    cleared (the whole planes if ``whole``), then every player's cell drawn: a body if
    dead, else own or opponent (by HP) for each observer."""
    width = s.tiles.shape[2]
    positions, alive, hp, shown_at = s.positions[e], s.alive[e], s.hp[e], s.shown_at[e]
    num_players = planes.shape[0]
    last_hp = hp_lut.shape[0] - 1
    for a in range(num_players):
        mine = planes[a]
        if whole:
            for k in PLAYER_PLANES:
                plane = mine[k]
                for i in range(plane.shape[0]):
                    plane[i] = off
        else:
            for b in range(num_players):
                for k in PLAYER_PLANES:
                    mine[k, shown_at[b]] = off
    for b in range(num_players):
        i = positions[b, 1] * width + positions[b, 0]
        shown_at[b] = i
        for a in range(num_players):
            if not alive[b]:
                planes[a, P_BODY, i] = on
            elif b == a:
                planes[a, P_OWN, i] = on
            else:
                planes[a, P_OPPONENT, i] = hp_lut[min(max(hp[b], 0), last_hp)]


@phase
def prefetch_grid(grid, e):
    """Prefetch every line of env e's ``grid[e, y, x]``."""
    height, width = grid.shape[1], grid.shape[2]
    rows = max(1, LINE // (width * grid.itemsize))    # rows per step: no line skipped
    for y in range(0, height, rows):
        prefetch(grid, (e, y, 0))
    prefetch(grid, (e, height - 1, width - 1))


@phase
def prefetch_env(s, e, planes):
    """Prefetch the lines env e's next step is bound to touch: its board grids, the first
    lines of its bombs, fire, ammo and spawn lists and of the bombs' arms, and the
    observation lines its observe (``observe_env``) touches, scattered over its planes
    (``planes[a, plane, cell]``): every player's cell as last drawn (``shown_at``) in the
    players' planes, and the bombs and danger planes while they hold or need marks.  A
    hint only: nothing is written."""
    for grid in (s.tiles, s.ore_hp):
        prefetch_grid(grid, e)
    prefetch_grid(s.bomb_grid, e)
    for row in (s.shown_tiles, s.shown_ore):
        for i in range(0, row.shape[1], LINE):
            prefetch(row, (e, i))
    for first in (s.bomb_x, s.bomb_y, s.bomb_timer, s.pending, s.ammo_x, s.ammo_y,
                  s.ammo_life, s.hit_in):
        prefetch(first, (e, 0))
    for first in (s.bomb_owner, s.bomb_power):
        prefetch(first, (e, 0))
    for arms in (s.blast, s.fire_reach):
        prefetch(arms, (e, 0, 0))
    prefetch(s.chain, (e, 0, 0))
    if s.num_fires[e] > 0:
        for first in (s.fire_x, s.fire_y):
            prefetch(first, (e, 0))
        prefetch(s.fire_owner, (e, 0))
    shown_at = s.shown_at[e]
    cells = planes.shape[2]
    marks = (s.marked_bombs[e] > 0 or s.marked_fires[e] > 0 or s.num_bombs[e] > 0
             or s.num_fires[e] > 0)
    for a in range(planes.shape[0]):
        for b in range(shown_at.shape[0]):
            for k in PLAYER_PLANES:
                prefetch(planes, (a, k, shown_at[b]))
        if marks:
            for k in MARKED_PLANES:
                for i in range(0, cells, LINE):
                    prefetch(planes, (a, k, i))
                prefetch(planes, (a, k, cells - 1))


@phase
def prefetch_record(s, e, actions, masks, rewards, terminated, truncated):
    """Prefetch env e's record (its small fields, see ``core.layout``: what ``prefetch_env``
    reads ``AHEAD`` envs later), its random streams and its entries in the caller's
    buffers."""
    layout.prefetch_record(s.records, e)
    prefetch(s.rng, (e, 0))
    prefetch(actions, (e, 0))
    prefetch(masks, (e, 0, 0))
    prefetch(masks, (e, masks.shape[1] - 1, masks.shape[2] - 1))
    prefetch(rewards, (e, 0))
    prefetch(terminated, (e, 0))
    prefetch(truncated, (e, 0))


@phase
def ego_window(planes, height, width, position, on, off, outside, window):
    """A player's board planes centred on its (x, y) ``position``: cells off the board read
    as metal, the constant planes keep their value."""
    for k in range(planes.shape[0]):
        outside[k] = off
    outside[P_METAL] = on
    for k in CONSTANT_PLANES:
        outside[k] = planes[k, 0]
    centre_window(planes, height, width, position[1], position[0], outside, window)


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


@hot
def flat_cells(s, p, obs):
    """Views over flat cells (numba's reshape is a call: once per batch) of the tiles and
    the ore hits (``[E, H * W]``), the board planes (``[E, A, planes, H * W]``) and the
    observations (``[E, A, planes, window cells]``: with the board view, the same array)."""
    E, A, P, rows, columns = obs.shape
    H, W = s.tiles.shape[1], s.tiles.shape[2]
    windows = obs.reshape(E, A, P, rows * columns)
    planes = s.board_obs if p.ego else windows
    return s.tiles.reshape(E, H * W), s.ore_hp.reshape(E, H * W), planes, windows


@hot
def observe_new(s, p, e, views, masks):
    """Env e's observation and masks drawn whole (a new game, or after a restore);
    ``views`` as ``flat_cells`` gives them.  A real call: inlined into the step loop's
    rare autoreset branch, it slowed every step by ~10%."""
    board, ore, planes, windows = views
    observe_env(s, p, e, board[e], ore[e], planes[e], windows[e], masks[e], True)


@phase
def play_env(s, p, e, actions, rewards, terminated, truncated, views, masks):
    """One tick of env e, its observation redrawn where it changed; True when it is
    done."""
    board, ore, planes, windows = views
    done = step_env(s, p, e, actions[e], rewards[e], terminated[e], truncated[e])
    observe_env(s, p, e, board[e], ore[e], planes[e], windows[e], masks[e], False)
    return done


@phase
def prefetch_ahead(s, p, e, hi, actions, masks, rewards, terminated, truncated, views):
    """While env e is stepped: env e + 2 ``AHEAD``'s record, then env e + ``AHEAD``'s
    lines (see above)."""
    if e + 2 * AHEAD < hi:
        prefetch_record(s, e + 2 * AHEAD, actions, masks, rewards, terminated, truncated)
    if e + AHEAD < hi:
        prefetch_env(s, e + AHEAD, views[2][e + AHEAD])


reset, reset_parallel, step, step_parallel, observe_one = game_loop(
    reset_env, observe_new, play_env, obs_views=flat_cells, prefetch_env=prefetch_ahead)
