"""Towers' observations and action masks: written whole after a reset or a restore,
updated in place by a step.

The helpers write ``planes``: env e's planes as one flat row per player (plane k at
``[k * N * N, (k + 1) * N * N)``, the player's mirrored view), and ``masks``, one flat
row per player (``mask[view tile * NUM_COMMANDS + command]``).  Every tile without an own
unit shows nothing but the constant planes: the unit planes hold 0 there and its mask
only no-op (never cleared: always legal).

A step updates them in place (``before_turn``, ``after_turn``): it erases the marks of
the units the planes show (their tiles' unit planes and mask entries cleared), plays the
turn, then draws the units of the state it ends on and rewrites the constant planes whose
value changed (turn, margins).  Water and flag planes are drawn only by ``observe_env``
(the map changes only at a reset).  Nothing else may write the planes between steps.
Every plane entry written is recorded in env e's ``journal`` (``core.journal``: entry
``a * row + k`` of its observation row for ``planes[a, k]``, through ``put``).
"""
from ...core.jit import copy_into, fill_plane, hot, phase
from ...core.journal import journal_of, put, record
from .constants import (BOT_COUNT_CAP, FIRST_MOVE, FLAG, MARGIN_CAP, NUM_COMMANDS, NUM_PLANES,
                        NUM_PLAYERS, TURN_SCORE_CAP, WATER, Command, Plane)
from .paths import NUM_DIRECTIONS, step_ok
from .rules import count_bots, tower_age, view_direction, view_tile

P_OWN_BOTS, P_ENEMY_BOTS = int(Plane.OWN_BOTS), int(Plane.ENEMY_BOTS)
BOT_HP_OFFSET = int(Plane.OWN_BOT_HP) - int(Plane.OWN_BOTS)
P_OWN_TOWERS, P_ENEMY_TOWERS = int(Plane.OWN_TOWERS), int(Plane.ENEMY_TOWERS)
TOWER_HP_OFFSET = int(Plane.OWN_TOWER_HP) - int(Plane.OWN_TOWERS)
TOWER_READY_OFFSET = int(Plane.OWN_TOWER_READY) - int(Plane.OWN_TOWERS)
P_WATER, P_FLAG, P_TURN = int(Plane.WATER), int(Plane.FLAG), int(Plane.TURN)
P_MARGIN, P_TURN_MARGIN = int(Plane.SCORE_MARGIN), int(Plane.TURN_SCORE_MARGIN)
C_BLAST, C_TRANSFORM = int(Command.BLAST), int(Command.TRANSFORM)


@phase
def bot_plane(q, a):
    """The plane where player a sees player q's bot counts (their HP: the next one)."""
    return P_OWN_BOTS if q == a else P_ENEMY_BOTS


@phase
def tower_plane(q, a):
    """The plane where player a sees player q's towers (HP and readiness: at the offsets)."""
    return P_OWN_TOWERS if q == a else P_ENEMY_TOWERS


@phase
def draw_bot_mask(terrain, tower_at, nbr, base_tile, t, a, pool_open, mask):
    """Player a's mask entries at absolute tile t (``terrain``, ``tower_at``: its env's,
    flat), where an own bot stands: the possible moves, blast, and transform unless t is
    a base or the tower pool is full (``pool_open`` False)."""
    tiles = terrain.shape[0]
    base = view_tile(t, a, tiles) * NUM_COMMANDS
    for k in range(NUM_DIRECTIONS):
        mask[base + FIRST_MOVE + k] = step_ok(terrain, tower_at, nbr, t, view_direction(k, a))
    mask[base + C_BLAST] = 1
    mask[base + C_TRANSFORM] = pool_open and t != base_tile[0] and t != base_tile[1]


@hot
def draw_units(s, p, e, planes, masks, journal):
    """Env e's living units on every player's unit planes and its own units' mask
    entries, over planes and masks that show no unit.  Each tile with bots is drawn once,
    from ``s.count`` / ``s.hp_sum`` and the tiles ``count_bots`` lists (counted here;
    every tile drawn is zeroed again, so they are zero afterwards as between uses)."""
    size = s.terrain.shape[1]
    tiles = size * size
    terrain, tower_at = s.terrain[e].reshape(tiles), s.tower_at[e]
    full, rnd = p.full, p.round
    count_bots(s, e)
    for q in range(NUM_PLAYERS):
        count, hp_sum = s.count[e, q], s.hp_sum[e, q]
        pool_open = s.num_towers[e, q] < s.tower_x.shape[2]
        for j in range(s.num_stacks[e, q]):
            t = s.stack_tile[e, q, j]
            c = count[t]
            hp = hp_sum[t]
            count[t] = 0
            hp_sum[t] = 0
            for a in range(NUM_PLAYERS):
                k = bot_plane(q, a) * tiles + view_tile(t, a, tiles)
                put(planes, journal, a, k, full * min(c, BOT_COUNT_CAP) / BOT_COUNT_CAP + rnd)
                put(planes, journal, a, k + BOT_HP_OFFSET * tiles,
                    full * hp / (c * p.max_bot_hp) + rnd)
            draw_bot_mask(terrain, tower_at, p.nbr, p.base_tile, t, q, pool_open, masks[q])
        for i in range(s.num_towers[e, q]):
            if s.tower_dead[e, q, i]:
                continue
            t = s.tower_x[e, q, i] * size + s.tower_y[e, q, i]
            ready = tower_age(s, e, q, i) >= p.tower_min_blast_age
            for a in range(NUM_PLAYERS):
                k = tower_plane(q, a) * tiles + view_tile(t, a, tiles)
                put(planes, journal, a, k, full + rnd)
                put(planes, journal, a, k + TOWER_HP_OFFSET * tiles,
                    full * min(s.tower_hp[e, q, i] / p.max_tower_hp, 1.0) + rnd)
                put(planes, journal, a, k + TOWER_READY_OFFSET * tiles, full * ready + rnd)
            if ready:
                masks[q, view_tile(t, q, tiles) * NUM_COMMANDS + C_BLAST] = 1


@hot
def erase_units(s, e, planes, masks, journal):
    """Undo ``draw_units`` of env e's current state: the unit planes and the own units'
    mask entries (all but no-op) cleared at every tile where a living unit stands: the
    bots' tiles as the draw's ``count_bots`` listed them (each once)."""
    size = s.terrain.shape[1]
    tiles = size * size
    for q in range(NUM_PLAYERS):
        mask = masks[q]
        for j in range(s.num_stacks[e, q]):
            t = s.stack_tile[e, q, j]
            for a in range(NUM_PLAYERS):
                k = bot_plane(q, a) * tiles + view_tile(t, a, tiles)
                put(planes, journal, a, k, 0)
                put(planes, journal, a, k + BOT_HP_OFFSET * tiles, 0)
            base = view_tile(t, q, tiles) * NUM_COMMANDS
            for c in range(FIRST_MOVE, NUM_COMMANDS):
                mask[base + c] = 0
        for i in range(s.num_towers[e, q]):
            if s.tower_dead[e, q, i]:
                continue
            t = s.tower_x[e, q, i] * size + s.tower_y[e, q, i]
            for a in range(NUM_PLAYERS):
                k = tower_plane(q, a) * tiles + view_tile(t, a, tiles)
                put(planes, journal, a, k, 0)
                put(planes, journal, a, k + TOWER_HP_OFFSET * tiles, 0)
                put(planes, journal, a, k + TOWER_READY_OFFSET * tiles, 0)
            mask[view_tile(t, q, tiles) * NUM_COMMANDS + C_BLAST] = 0


@phase
def margin_value(p, own, other, cap):
    """A constant plane's value for the margin own - other: 1/2 at a tie, full at +cap."""
    m = min(max((own - other) / cap, -1.0), 1.0)
    return p.full * 0.5 * (1.0 + m) + p.round


@phase
def show_constant(planes, journal, a, k, value, whole):
    """Player a's constant plane k set to ``value`` where that changed (or if
    ``whole``), then recorded."""
    tiles = planes.shape[1] // NUM_PLANES
    start = k * tiles
    if fill_plane(planes[a, start:start + tiles], value, whole):
        record(journal, a * planes.shape[1] + start, tiles, planes[a, start])


@hot
def show_counters(s, p, e, planes, journal, whole):
    """Every player's constant planes of the turn and the margins (those whose value
    changed, or all if ``whole``)."""
    turn_value = p.full * s.turn[e] / p.max_turns + p.round
    for a in range(NUM_PLAYERS):
        b = 1 - a
        show_constant(planes, journal, a, P_TURN, turn_value, whole)
        show_constant(planes, journal, a, P_MARGIN,
                      margin_value(p, s.scores[e, a], s.scores[e, b], MARGIN_CAP), whole)
        show_constant(planes, journal, a, P_TURN_MARGIN,
                      margin_value(p, s.turn_scores[e, a], s.turn_scores[e, b],
                                   TURN_SCORE_CAP), whole)


@hot
def draw_map(s, p, e, planes):
    """Every player's water and flag planes."""
    tiles = s.terrain.shape[1] * s.terrain.shape[1]
    terrain = s.terrain[e].reshape(tiles)
    full, rnd = p.full, p.round
    for a in range(NUM_PLAYERS):
        for t in range(tiles):
            v = view_tile(t, a, tiles)
            planes[a, P_WATER * tiles + v] = full * (terrain[t] == WATER) + rnd
            planes[a, P_FLAG * tiles + v] = full * (terrain[t] == FLAG) + rnd


@hot(python=True)
def observe_env(s, p, e, planes, masks, journals):
    """Every player's planes (``planes[e, a]``, a flat row per player: see
    ``core.loop.player_rows`` and constants.Plane) and action mask of env e, written whole
    (after a reset, or a position set from outside): the unit planes cleared, masks copied from the
    no-op-only template, then the map, the units and the constant planes drawn."""
    planes, masks = planes[e], masks[e]
    tiles = s.terrain.shape[1] * s.terrain.shape[1]
    for a in range(NUM_PLAYERS):
        for i in range(P_WATER * tiles):
            planes[a, i] = 0
        copy_into(masks[a], p.noop_mask)
    draw_map(s, p, e, planes)
    journal = journal_of(journals, e)
    draw_units(s, p, e, planes, masks, journal)
    show_counters(s, p, e, planes, journal, True)


@hot
def before_turn(s, e, planes, masks, journal):
    """A step's in-place update, before the turn: the units the planes show erased."""
    erase_units(s, e, planes, masks, journal)


@hot
def after_turn(s, p, e, planes, masks, journal):
    """A step's in-place update, after the turn: the units drawn and the constant planes
    that changed rewritten (see the module's docstring)."""
    draw_units(s, p, e, planes, masks, journal)
    show_counters(s, p, e, planes, journal, False)
