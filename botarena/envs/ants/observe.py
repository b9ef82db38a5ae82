"""Ants' observations and action masks: written whole after a reset or a restore
(``observe_env``), updated in place by a step (``before_turn``, ``after_turn``).

The helpers write ``planes``: env e's planes as one flat row per colony (plane k at
``[k * H * W, (k + 1) * H * W)``, see ``core.loop.player_rows`` and ``constants.Plane``),
and ``masks``: one flat row per colony (``mask[cell * NUM_COMMANDS + command]``).  A
cell without an own ant has only 'stay' legal (never cleared: always legal).

A step erases the marks of the ants the planes show (their cells on the ant planes and
their move entries in the masks), keeps the food list the planes show, plays the turn,
then draws the ants of the state it ends on, the food cells that changed, the hills, the
constant planes whose value changed, and the hill proximity when a hill was razed.  The
water plane is drawn only by ``observe_env`` (the map changes only at a reset).  Nothing
else may write the planes between steps.  What the helpers write of the planes is
recorded in env e's ``journal`` (``core.journal``).
"""
from ...core.jit import copy_into, fill_plane, hot, phase
from ...core.journal import journal_of, put, record, record_runs
from .constants import FOOD_OBS_CAP, NUM_COMMANDS, NUM_PLANES, Plane

P_OWN, P_FOOD, P_OWN_HILLS, P_ENEMY_HILLS, P_WATER = (
    int(Plane.OWN_ANTS), int(Plane.FOOD), int(Plane.OWN_HILLS), int(Plane.ENEMY_HILLS),
    int(Plane.WATER))
P_STORED, P_TURN, P_ALIVE = int(Plane.STORED_FOOD), int(Plane.TURN), int(Plane.ALIVE_PLAYERS)
P_PROXIMITY = int(Plane.HILL_PROXIMITY)


@hot
def mark_ants(s, p, e, planes, masks, drawing, journal):
    """Env e's ants on every colony's planes and mask: ``drawing``, full on the ant
    plane of its colony (relative to the viewer) and its legal moves in its colony's
    mask (a move is legal where its target is on the map and not water); else those
    cells and entries cleared, as on cells without an own ant, where only 'stay' is
    legal.  One pass over the ants per colony.  (``planes``: env e's planes, one flat row
    per colony as in ``observe_env``.)"""
    height, width = s.ant_at.shape[1], s.ant_at.shape[2]
    n = height * width
    ant_x, ant_y, ant_owner, num_ants = s.ant_x[e], s.ant_y[e], s.ant_owner[e], s.num_ants[e]
    move_ok = p.move_ok
    num_players = planes.shape[0]
    value = p.on * drawing
    legal = int(drawing)
    for a in range(num_players):
        mask = masks[a]
        for i in range(num_ants):
            rel = int(ant_owner[i]) - a   # int: the int8 owner would wrap in pure Python
            if rel < 0:
                rel += num_players
            c = int(ant_y[i]) * width + ant_x[i]
            put(planes, journal, a, (P_OWN + rel) * n + c, value)
            if rel == 0:
                base = c * NUM_COMMANDS
                for k in range(1, NUM_COMMANDS):
                    mask[base + k] = move_ok[c, k] * legal


@hot
def show_food(s, p, e, planes, shown, journal):
    """Every colony's food plane (full where food lies, however many), showing the first
    ``shown`` entries of the ``shown_x``/``shown_y`` list, made to show env e's food
    list: one walk over both lists in order.  A shown entry that the food list does not
    match in order is cleared as the walk passes it; a matched entry stays; once the
    shown list is passed, the remaining food is drawn.  (Right for any order: a cleared
    entry that comes later in the food list is drawn after every clear.)  A turn keeps
    the food it does not gather in order and appends the new food, so only changed cells
    are written."""
    width = s.ant_at.shape[2]
    n = s.ant_at.shape[1] * width
    food_x, food_y, shown_x, shown_y = s.food_x[e], s.food_y[e], s.shown_x[e], s.shown_y[e]
    j = 0
    for f in range(s.num_food[e]):
        x, y = food_x[f], food_y[f]
        while j < shown and (shown_x[j] != x or shown_y[j] != y):
            c = P_FOOD * n + shown_y[j] * width + shown_x[j]
            for a in range(planes.shape[0]):
                put(planes, journal, a, c, 0)
            j += 1
        if j < shown:
            j += 1
            continue
        c = P_FOOD * n + y * width + x
        for a in range(planes.shape[0]):
            put(planes, journal, a, c, p.on)
    while j < shown:
        c = P_FOOD * n + shown_y[j] * width + shown_x[j]
        for a in range(planes.shape[0]):
            put(planes, journal, a, c, 0)
        j += 1


@hot
def show_hills_and_counts(s, p, e, planes, whole, journal):
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
        for h in range(hill_x.shape[0]):            # hills stand on distinct cells
            owner = hill_owner[h]
            if owner < 0:
                continue
            k = P_OWN_HILLS if owner == a else P_ENEMY_HILLS
            put(planes, journal, a, k * n + hill_y[h] * width + hill_x[h],
                p.half if hill_razed[h] else p.on)
        show_constant(planes, journal, a, P_STORED,
                      p.full * min(stored[a], FOOD_OBS_CAP) / FOOD_OBS_CAP + p.round, whole)
        show_constant(planes, journal, a, P_TURN, turn_value, whole)
        show_constant(planes, journal, a, P_ALIVE, alive_value, whole)


@phase
def show_constant(planes, journal, a, k, value, whole):
    """Colony a's constant plane k set to ``value`` where that changed (or if
    ``whole``), then recorded."""
    n = planes.shape[1] // NUM_PLANES
    if fill_plane(planes[a, k * n:(k + 1) * n], value, whole):
        record(journal, a * planes.shape[1] + k * n, n, planes[a, k * n])


@hot
def razed_hills(s, e):
    """How many of env e's hills are razed (a turn that razes one redraws the proximity
    planes)."""
    razed = 0
    for h in range(s.hill_razed.shape[1]):
        razed += s.hill_razed[e, h]
    return razed


@phase
def map_hill(p, x, y):
    """The index of the map's hill on (x, y) (every hill of an env is one of the map's)."""
    k = 0
    while p.hill_x[k] != x or p.hill_y[k] != y:
        k += 1
    return k


@hot
def show_hill_proximity(s, p, e, planes, journal):
    """Every colony's HILL_PROXIMITY plane, drawn whole: on each cell, the largest value
    that the standing hills of other colonies give it alone (``p.hill_near``, made with
    the map: the plane falls with the steps over land, so the largest value is that of
    the nearest hill); 0 with none."""
    n = s.ant_at.shape[1] * s.ant_at.shape[2]
    hill_x, hill_y, hill_owner, hill_razed = s.hill_x[e], s.hill_y[e], s.hill_owner[e], s.hill_razed[e]
    for a in range(planes.shape[0]):
        near = planes[a, P_PROXIMITY * n:(P_PROXIMITY + 1) * n]
        for c in range(n):
            near[c] = 0
        for h in range(hill_x.shape[0]):
            owner = hill_owner[h]
            if owner < 0 or owner == a or hill_razed[h]:
                continue
            alone = p.hill_near[map_hill(p, hill_x[h], hill_y[h])]
            for c in range(n):
                near[c] = max(near[c], alone[c])
        record_runs(journal, a * planes.shape[1] + P_PROXIMITY * n, near)


@hot(python=True)
def observe_env(s, p, e, planes, masks, journals):
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
    journal = journal_of(journals, e)
    mark_ants(s, p, e, planes, masks, True, journal)
    show_food(s, p, e, planes, 0, journal)
    show_hills_and_counts(s, p, e, planes, True, journal)
    show_hill_proximity(s, p, e, planes, journal)


@phase
def before_turn(s, p, e, planes, masks, journal):
    """What a step's in-place update needs from the state the planes show: its ants'
    marks cleared, its food list kept (``shown_x``/``shown_y``); returns that list's
    length and the number of razed hills."""
    mark_ants(s, p, e, planes, masks, False, journal)
    food_x, food_y, shown_x, shown_y = s.food_x[e], s.food_y[e], s.shown_x[e], s.shown_y[e]
    for f in range(s.num_food[e]):
        shown_x[f] = food_x[f]
        shown_y[f] = food_y[f]
    return s.num_food[e], razed_hills(s, e)


@phase
def after_turn(s, p, e, planes, masks, shown, razed, journal):
    """The planes and masks updated in place to the state the turn ended on (nothing
    else may write them between steps); ``shown``, ``razed``: as ``before_turn`` found."""
    mark_ants(s, p, e, planes, masks, True, journal)
    show_food(s, p, e, planes, shown, journal)
    show_hills_and_counts(s, p, e, planes, False, journal)
    if razed_hills(s, e) != razed:
        show_hill_proximity(s, p, e, planes, journal)
