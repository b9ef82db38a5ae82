"""Dungeon's observations and action masks.

A new game (or a restore) draws the observation whole (``observe_env``); a step redraws
it only where it changed (``draw_observation``), so the kernels must be the only writers
of the observation buffers: the tile planes where a tile or ore hits differ from those
drawn (``shown_tiles``, ``shown_ore``), a constant plane only when its value changed
(``shown_consts`` holds the values drawn), the bombs and danger planes while they hold or
need marks, with the bombs' blast arms kept between steps while no bomb or block changed
(``draw_marks``), and the players' cells (``shown_at``).  The values are table lookups
in the obs dtype (``p.ore_lut``, ``p.bomb_lut``, ...: see ``kernel.py``).  The batch
drivers take flat-cell views of the tiles, ore hits and planes once per call
(``flat_cells``), since numba's reshape is a call too.
"""
from ...core.grid import centre_window
from ...core.jit import fill_plane, hot, phase
from .constants import (AMMO, AMMO_OBS_CAP, METAL, POWER_OBS_CAP, SCORE_OBS_CAP, TREASURE,
                        WOOD, Plane)
from .rules import ACTION_DELTAS, blast_arms, chain_times, legal_actions

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


@phase(python=True)
def draw_observation(s, p, e, board, ore, planes, windows, masks, whole):
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
def ego_window(planes, height, width, position, on, off, outside, window):
    """A player's board planes centred on its (x, y) ``position``: cells off the board read
    as metal, the constant planes keep their value."""
    for k in range(planes.shape[0]):
        outside[k] = off
    outside[P_METAL] = on
    for k in CONSTANT_PLANES:
        outside[k] = planes[k, 0]
    centre_window(planes, height, width, position[1], position[0], outside, window)


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
def observe_env(s, p, e, views, masks, journals):
    """Env e's observation and masks drawn whole (a new game, or after a restore);
    ``views`` as ``flat_cells`` gives them.  A real call: inlined into the step loop's
    rare autoreset branch, it slowed every step by ~10%."""
    board, ore, planes, windows = views
    draw_observation(s, p, e, board[e], ore[e], planes[e], windows[e], masks[e], True)
