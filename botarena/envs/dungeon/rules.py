"""Dungeon's rules: one jitted function per phase of a tick, in the contest's order (its
timings measured on the original engine; the env's page tells them in words).  A tick
(``play_tick``) runs:

1. ``apply_actions``     the living players act one after another, in a random order drawn
                         from the env's GAME stream (first come, first served): a move enters
                         a cell in the board that holds no block, bomb, player or body (so no
                         swaps; a player may walk off its own bomb); ``p`` places a bomb on
                         the player's cell if it has ammo and no bomb lies there, and
                         schedules one new ammo for the end of tick ``t + ammo_delay - 1``;
2. ``fire_hits_players`` each fire covering a player costs it 1 HP; each hit on another
                         player pays ``hit_points`` to the fire's owner (dead or alive);
3. ``fire_hits_blocks``  each fire hits the blocks it covers (metal: nothing; wood: destroyed,
                         ``wood_points``; ore: one HP, destroyed at 0 with ``ore_points`` to
                         the owner of the fire making the last hit) and sets off the bombs it
                         covers (``set_off_bomb``, the chain reaction: they turn into
                         fire at the end of this tick);
4. ``pick_up``           players on ammo take it (+1 ammo), on treasure take it
                         (+``treasure_points``);
5. ``count_down``        bombs, scheduled ammo spawns, ammo lifetimes (a token whose time is
                         up perishes and is replaced ``ammo_respawn`` ticks later, as is one
                         taken on its last tick) and the treasure timer count one tick;
6. ``explode``           bombs at 0 turn into fire: their cell plus up to ``power`` cells in
                         each direction, stopping on (and including) the first cell holding
                         a block or a bomb, a block destroyed this tick included (board
                         edges stop it too; players do not);
7. ``spawn``             scheduled ammo and the treasure appear on random free cells (floor,
                         no bomb, no player or body, nothing there that went this tick);
                         ammo without room retries ``ammo_respawn`` ticks later, treasure
                         after randint(1, treasure_retry);
8. ``remove_dead``       the fire that hit this tick, the bombs that exploded and the blocks
                         and items that went are removed, players at 0 HP die (their bodies
                         stay, solid), the tick ends; the game is over when at most one
                         player lives or ``max_turns`` ticks were played.

At the end of the file, not phases: ``blast_arms``, ``chain_times`` and ``hit_times``
foresee when each bomb's fire will hit, chains included (the danger plane and the bots).

What goes during a tick stays in the way until phase 8, as in the original engine: a
destroyed block is ``BROKEN_WOOD`` / ``BROKEN_ORE`` (it stops new fire, takes no spawn and,
with ``double_pay``, pays again), a taken or perished item ``CLEARED`` (takes no spawn),
and the cells are listed in ``gone``.  Fires are processed in the order their bombs were
placed; within a tick, the later fire makes the "last hit" on an ore block.  Phases take
the state ``s``, the params ``p`` and the env ``e`` and bind that env's arrays once;
helpers take the arrays.  The phases called every tick are ``@phase`` (inlined into it);
phases 2 and 3 (run only while there is fire) and phase 8's clean-ups (only after an
explosion or a loss) are ``@hot``, called when needed (see ``core.jit``).
"""
from ...core.jit import hot, phase
from ...core.rng import GAME, randint, shuffle
from .constants import (ACTION_DELTAS, AMMO, BROKEN_ORE, BROKEN_WOOD, CLEARED, FLOOR, METAL,
                        NUM_ACTIONS, ORE, RANK_TICK_WEIGHT, TREASURE, WOOD)

BOMB_ACTION = 5
FIRST_MOVE, LAST_MOVE = 1, 4


@hot(python=True)
def is_block(tile):
    """Metal, wood or ore (consecutive tile codes: one comparison pair, no branches)."""
    return (tile >= METAL) & (tile <= ORE)


@hot
def stops_fire(tile):
    """A block, or a block destroyed during this tick (still in the way of its new fire)."""
    return is_block(tile) | ((tile >= BROKEN_WOOD) & (tile <= BROKEN_ORE))


@hot
def player_at(positions, x, y):
    """Index of the player (living or dead) at (x, y), else -1."""
    for b in range(positions.shape[0]):
        if positions[b, 0] == x and positions[b, 1] == y:
            return b
    return -1


@phase
def can_enter(tiles, bomb_grid, positions, x, y):
    """Whether a player may move onto (x, y): inside the board, no block, bomb, player or
    body there."""
    if x < 0 or y < 0 or y >= tiles.shape[0] or x >= tiles.shape[1]:
        return False
    free = (not is_block(tiles[y, x])) & (bomb_grid[y, x] == 0)
    for b in range(positions.shape[0]):       # no early exit: branch-free over the players
        free &= (positions[b, 0] != x) | (positions[b, 1] != y)
    return free


@phase
def legal_actions(tiles, bomb_grid, positions, alive, ammo, a, out):
    """out[k] = whether action k is legal for player a (no-op always; moves onto cells it
    can enter; a bomb with ammo where no bomb lies).  A dead player may only do nothing."""
    out[0] = 1
    for k in range(1, NUM_ACTIONS):
        out[k] = 0
    if not alive[a]:
        return
    x, y = positions[a, 0], positions[a, 1]
    for k in range(FIRST_MOVE, LAST_MOVE + 1):
        if can_enter(tiles, bomb_grid, positions, x + ACTION_DELTAS[k, 0], y + ACTION_DELTAS[k, 1]):
            out[k] = 1
    if ammo[a] > 0 and bomb_grid[y, x] == 0:
        out[BOMB_ACTION] = 1


@hot
def reach(tiles, bomb_grid, x, y, d, power):
    """Cells a fire at (x, y) covers in direction d (1..4, the move actions' order): up to
    ``power``, stopping on (and including) the first block (or block destroyed this tick)
    or bomb, not past the edge."""
    height, width = tiles.shape
    dx, dy = ACTION_DELTAS[d, 0], ACTION_DELTAS[d, 1]
    if dx > 0:
        room = width - 1 - x
    elif dx < 0:
        room = x
    elif dy > 0:
        room = height - 1 - y
    else:
        room = y
    cells = min(power, room)
    for k in range(1, cells + 1):
        cx, cy = x + k * dx, y + k * dy
        if stops_fire(tiles[cy, cx]):
            return k
        if bomb_grid[cy, cx] != 0:
            return k
    return cells


@hot
def add_pending(s, e, delay):
    """Schedule one ammo spawn ``delay`` ticks from now (0: this tick's spawn phase)."""
    n = s.num_pending[e]
    pending = s.pending[e]
    if n < pending.shape[0]:
        pending[n] = delay
        s.num_pending[e] = n + 1


@phase
def apply_actions(s, p, e, actions):
    """Phase 1: the living players act in a random order (first come, first served)."""
    tiles, bomb_grid, positions = s.tiles[e], s.bomb_grid[e], s.positions[e]
    alive, ammo, power, order, rng = s.alive[e], s.ammo[e], s.power[e], s.order[e], s.rng
    n = 0
    for a in range(positions.shape[0]):
        if alive[a]:
            order[n] = a
            n += 1
    shuffle(rng, e, GAME, order[:n])
    for k in range(n):
        a = order[k]
        act = actions[a]
        x, y = positions[a, 0], positions[a, 1]
        if FIRST_MOVE <= act <= LAST_MOVE:
            nx, ny = x + ACTION_DELTAS[act, 0], y + ACTION_DELTAS[act, 1]
            if can_enter(tiles, bomb_grid, positions, nx, ny):
                positions[a, 0] = nx
                positions[a, 1] = ny
        elif act == BOMB_ACTION:
            if ammo[a] > 0 and bomb_grid[y, x] == 0:
                b = s.num_bombs[e]
                s.bomb_x[e, b] = x
                s.bomb_y[e, b] = y
                s.bomb_timer[e, b] = p.bomb_fuse
                s.bomb_owner[e, b] = a
                s.bomb_power[e, b] = power[a]
                s.num_bombs[e] = b + 1
                bomb_grid[y, x] = b + 1
                ammo[a] -= 1
                # counted down from this tick's phase 5: appears at the end of tick
                # t + ammo_delay - 1, as the bomb's fire at the end of t + bomb_fuse - 1
                add_pending(s, e, p.ammo_delay)


@hot
def fire_hits_players(s, p, e):
    """Phase 2: every fire covering a living player costs it 1 HP (+hit_points to the
    fire's owner if that is another player, whether that one is alive or not)."""
    positions, alive, hp, scores = s.positions[e], s.alive[e], s.hp[e], s.scores[e]
    fire_x, fire_y, fire_owner, fire_reach = s.fire_x[e], s.fire_y[e], s.fire_owner[e], s.fire_reach[e]
    num_players = positions.shape[0]
    for f in range(s.num_fires[e]):
        fx, fy, owner = fire_x[f], fire_y[f], fire_owner[f]
        for a in range(num_players):
            if not alive[a]:
                continue
            dx, dy = positions[a, 0] - fx, positions[a, 1] - fy
            hit = False
            if dx == 0 and dy == 0:
                hit = True
            elif dx == 0:
                if dy > 0:
                    hit = dy <= fire_reach[f, 0]
                else:
                    hit = -dy <= fire_reach[f, 1]
            elif dy == 0:
                if dx < 0:
                    hit = -dx <= fire_reach[f, 2]
                else:
                    hit = dx <= fire_reach[f, 3]
            if hit:
                hp[a] -= 1
                if owner != a:
                    scores[owner] += p.hit_points


@phase
def mark_gone(tiles, gone, num_gone, x, y, tile):
    """The block or item at (x, y) went this tick: it is ``tile`` (BROKEN_* or CLEARED)
    until phase 8 makes it floor, and listed in ``gone`` after its ``num_gone`` cells;
    returns the new count."""
    tiles[y, x] = tile
    gone[num_gone] = y * tiles.shape[1] + x
    return num_gone + 1


@hot
def hit_cell(tiles, ore_hp, bomb_grid, bomb_timer, scores, gone, num_gone, owner, x, y,
             wood_points, ore_points, double_pay):
    """One fire of ``owner`` on (x, y): the block there takes a hit (paid when destroyed,
    then BROKEN_*; with ``double_pay`` a block destroyed earlier this tick pays again) and
    a bomb there is set off.  Returns the count of ``gone`` cells (see ``mark_gone``)."""
    tile = tiles[y, x]
    if tile == WOOD:
        scores[owner] += wood_points
        num_gone = mark_gone(tiles, gone, num_gone, x, y, BROKEN_WOOD)
    elif tile == ORE:
        ore_hp[y, x] -= 1
        if ore_hp[y, x] == 0:
            scores[owner] += ore_points
            num_gone = mark_gone(tiles, gone, num_gone, x, y, BROKEN_ORE)
    elif double_pay and tile == BROKEN_WOOD:
        scores[owner] += wood_points
    elif double_pay and tile == BROKEN_ORE:
        scores[owner] += ore_points
    set_off_bomb(bomb_grid, bomb_timer, x, y)
    return num_gone


@phase
def set_off_bomb(bomb_grid, bomb_timer, x, y):
    """The chain reaction: a bomb on a cell under fire goes off at the end of this tick
    (its timer set to 1, so phase 6 turns it into fire), whatever its fuse had left."""
    b = bomb_grid[y, x] - 1
    if b >= 0 and bomb_timer[b] > 1:
        bomb_timer[b] = 1


@hot
def fire_hits_blocks(s, p, e):
    """Phase 3: every fire hits the blocks it covers and sets off the bombs it covers."""
    tiles, ore_hp, bomb_grid, scores = s.tiles[e], s.ore_hp[e], s.bomb_grid[e], s.scores[e]
    bomb_timer, gone = s.bomb_timer[e], s.gone[e]
    fire_x, fire_y, fire_owner, fire_reach = s.fire_x[e], s.fire_y[e], s.fire_owner[e], s.fire_reach[e]
    wood_points, ore_points, double_pay = p.wood_points, p.ore_points, p.double_pay
    num_gone = s.num_gone[e]
    for f in range(s.num_fires[e]):
        fx, fy, owner = fire_x[f], fire_y[f], fire_owner[f]
        num_gone = hit_cell(tiles, ore_hp, bomb_grid, bomb_timer, scores, gone, num_gone, owner,
                            fx, fy, wood_points, ore_points, double_pay)
        for d in range(4):
            dx, dy = ACTION_DELTAS[d + 1, 0], ACTION_DELTAS[d + 1, 1]
            for k in range(1, fire_reach[f, d] + 1):
                num_gone = hit_cell(tiles, ore_hp, bomb_grid, bomb_timer, scores, gone, num_gone,
                                    owner, fx + k * dx, fy + k * dy, wood_points, ore_points,
                                    double_pay)
    s.num_gone[e] = num_gone


@phase
def pick_up(s, p, e):
    """Phase 4: living players take the ammo or treasure on their cell (CLEARED until the
    tick ends); a token taken on its last tick is replaced as if it had perished."""
    tiles, positions, alive, hp = s.tiles[e], s.positions[e], s.alive[e], s.hp[e]
    ammo, scores, gone = s.ammo[e], s.scores[e], s.gone[e]
    ammo_x, ammo_y, ammo_life = s.ammo_x[e], s.ammo_y[e], s.ammo_life[e]
    for a in range(positions.shape[0]):
        if not alive[a] or hp[a] <= 0:
            continue
        x, y = positions[a, 0], positions[a, 1]
        tile = tiles[y, x]
        if tile == AMMO:
            s.num_gone[e] = mark_gone(tiles, gone, s.num_gone[e], x, y, CLEARED)
            ammo[a] += 1
            n = s.num_ammo[e]
            for i in range(n):
                if ammo_x[i] == x and ammo_y[i] == y:
                    if ammo_life[i] == 1:
                        # its last tick: replaced ammo_respawn ticks after this one (the
                        # entry is counted down in this tick's phase 5 too)
                        add_pending(s, e, p.ammo_respawn + 1)
                    ammo_x[i], ammo_y[i], ammo_life[i] = ammo_x[n - 1], ammo_y[n - 1], ammo_life[n - 1]
                    s.num_ammo[e] = n - 1
                    break
        elif tile == TREASURE:
            s.num_gone[e] = mark_gone(tiles, gone, s.num_gone[e], x, y, CLEARED)
            scores[a] += p.treasure_points


@phase
def count_down(s, p, e):
    """Phase 5: bombs, scheduled spawns, ammo lifetimes and the treasure timer tick down;
    a token whose time is up perishes (CLEARED until the tick ends) and is replaced
    ``ammo_respawn`` ticks later."""
    tiles, gone = s.tiles[e], s.gone[e]
    bomb_timer = s.bomb_timer[e]
    for b in range(s.num_bombs[e]):
        bomb_timer[b] -= 1
    pending = s.pending[e]
    for i in range(s.num_pending[e]):
        pending[i] -= 1
    ammo_x, ammo_y, ammo_life = s.ammo_x[e], s.ammo_y[e], s.ammo_life[e]
    i = 0
    while i < s.num_ammo[e]:
        ammo_life[i] -= 1
        if ammo_life[i] <= 0:
            s.num_gone[e] = mark_gone(tiles, gone, s.num_gone[e], ammo_x[i], ammo_y[i], CLEARED)
            n = s.num_ammo[e] - 1
            ammo_x[i], ammo_y[i], ammo_life[i] = ammo_x[n], ammo_y[n], ammo_life[n]
            s.num_ammo[e] = n
            add_pending(s, e, p.ammo_respawn)   # not counted down before the next tick
        else:
            i += 1
    if s.treasure_timer[e] > 0:
        s.treasure_timer[e] -= 1


@phase
def explode(s, p, e):
    """Phase 6: bombs whose timer ran out turn into fire (appended after the fire that hit
    this tick; phase 8 removes that fire and these bombs); returns how many fires were
    there before."""
    tiles, bomb_grid = s.tiles[e], s.bomb_grid[e]
    bomb_x, bomb_y, bomb_timer = s.bomb_x[e], s.bomb_y[e], s.bomb_timer[e]
    bomb_owner, bomb_power = s.bomb_owner[e], s.bomb_power[e]
    fire_x, fire_y, fire_owner, fire_reach = s.fire_x[e], s.fire_y[e], s.fire_owner[e], s.fire_reach[e]
    old = s.num_fires[e]
    nf = old
    for b in range(s.num_bombs[e]):           # every reach sees all bombs still in place
        if bomb_timer[b] <= 0:
            x, y = bomb_x[b], bomb_y[b]
            fire_x[nf], fire_y[nf], fire_owner[nf] = x, y, bomb_owner[b]
            for d in range(4):
                fire_reach[nf, d] = reach(tiles, bomb_grid, x, y, d + 1, bomb_power[b])
            nf += 1
    s.num_fires[e] = nf
    return old


@hot
def remove_exploded_bombs(s, e):
    """The bombs that turned into fire this tick leave the board (the others keep their
    placing order)."""
    bomb_grid = s.bomb_grid[e]
    bomb_x, bomb_y, bomb_timer = s.bomb_x[e], s.bomb_y[e], s.bomb_timer[e]
    bomb_owner, bomb_power = s.bomb_owner[e], s.bomb_power[e]
    kept = 0
    for b in range(s.num_bombs[e]):
        if bomb_timer[b] <= 0:
            bomb_grid[bomb_y[b], bomb_x[b]] = 0
        else:
            bomb_x[kept], bomb_y[kept], bomb_timer[kept] = bomb_x[b], bomb_y[b], bomb_timer[b]
            bomb_owner[kept], bomb_power[kept] = bomb_owner[b], bomb_power[b]
            kept += 1
            bomb_grid[bomb_y[b], bomb_x[b]] = kept    # its new index + 1
    s.num_bombs[e] = kept


@hot
def drop_spent_fire(s, e, old_fires):
    """The ``old_fires`` fires that hit this tick go; the new ones move to the front."""
    fire_x, fire_y, fire_owner, fire_reach = s.fire_x[e], s.fire_y[e], s.fire_owner[e], s.fire_reach[e]
    nf = s.num_fires[e]
    for f in range(old_fires, nf):
        g = f - old_fires
        fire_x[g], fire_y[g], fire_owner[g] = fire_x[f], fire_y[f], fire_owner[f]
        for d in range(4):
            fire_reach[g, d] = fire_reach[f, d]
    s.num_fires[e] = nf - old_fires


@hot
def clear_gone(s, e):
    """The blocks and items that went this tick (``gone``) leave floor behind."""
    tiles, gone = s.tiles[e], s.gone[e]
    width = tiles.shape[1]
    for i in range(s.num_gone[e]):
        tiles[gone[i] // width, gone[i] % width] = FLOOR
    s.num_gone[e] = 0


@hot
def free_cell(tiles, bomb_grid, positions, rng, e, row_free):
    """A random free cell (floor, no bomb, no player or body; a block or item that went
    this tick is not floor yet, nor a bomb that exploded gone) as y * width + x, or -1;
    ``row_free``: scratch (at least ``height`` entries), the free cells of each row."""
    height, width = tiles.shape
    for y in range(height):                   # floor without a bomb (vector passes) ...
        n = 0
        for x in range(width):
            n += (tiles[y, x] == FLOOR) & (bomb_grid[y, x] == 0)
        row_free[y] = n
    for b in range(positions.shape[0]):       # ... but for the players' and bodies' cells
        # (never two on one cell: bodies are solid, so each is subtracted once)
        x, y = positions[b, 0], positions[b, 1]
        if tiles[y, x] == FLOOR and bomb_grid[y, x] == 0:
            row_free[y] -= 1
    count = 0
    for y in range(height):
        count += row_free[y]
    if count == 0:
        return -1
    k = randint(rng, e, GAME, count)          # the k-th free cell, row by row from y = 0
    y = 0
    while k >= row_free[y]:
        k -= row_free[y]
        y += 1
    for x in range(width):
        if tiles[y, x] == FLOOR and bomb_grid[y, x] == 0 and player_at(positions, x, y) < 0:
            if k == 0:
                return y * width + x
            k -= 1
    return -1


@hot
def place_ammo(s, e, x, y, lifetime):
    """An ammo token on (x, y) that perishes after ``lifetime`` ticks."""
    s.tiles[e, y, x] = AMMO
    n = s.num_ammo[e]
    s.ammo_x[e, n], s.ammo_y[e, n], s.ammo_life[e, n] = x, y, lifetime
    s.num_ammo[e] = n + 1


@phase
def spawn(s, p, e):
    """Phase 7: due ammo spawns and the treasure appear on random free cells."""
    tiles, bomb_grid, positions, pending = s.tiles[e], s.bomb_grid[e], s.positions[e], s.pending[e]
    width, row_free = tiles.shape[1], s.cells[e]
    i = 0
    while i < s.num_pending[e]:
        if pending[i] > 0:
            i += 1
            continue
        cell = free_cell(tiles, bomb_grid, positions, s.rng, e, row_free)
        if cell < 0:                           # no room: retries ammo_respawn ticks later
            pending[i] = p.ammo_respawn
            i += 1
            continue
        place_ammo(s, e, cell % width, cell // width, p.ammo_lifetime)
        n = s.num_pending[e] - 1
        pending[i] = pending[n]
        s.num_pending[e] = n
    if s.treasure_timer[e] <= 0:
        cell = free_cell(tiles, bomb_grid, positions, s.rng, e, row_free)
        if cell < 0:
            s.treasure_timer[e] = 1 + randint(s.rng, e, GAME, p.treasure_retry)
        else:
            tiles[cell // width, cell % width] = TREASURE
            s.treasure_timer[e] = p.treasure_min + randint(
                s.rng, e, GAME, p.treasure_max - p.treasure_min + 1)


@phase(python=True)
def update_rank_keys(s, p, e):
    """win_loss rank keys: the tick of death (later is better; alive: max_turns + 1), then
    the score of the players alive (players dying on the same tick tie)."""
    alive, death_tick, scores, rank_key = s.alive[e], s.death_tick[e], s.scores[e], s.rank_key[e]
    for a in range(alive.shape[0]):
        rank_key[a] = death_tick[a] * RANK_TICK_WEIGHT + (scores[a] if alive[a] else 0)


@phase
def remove_dead(s, p, e, old_fires):
    """Phase 8: the spent fire, the exploded bombs and what went this tick are removed,
    players at 0 HP die, the tick ends.  True when the game is over (at most one player
    alive, or max_turns played)."""
    if s.num_fires[e] > old_fires:
        remove_exploded_bombs(s, e)
    if old_fires > 0:
        drop_spent_fire(s, e, old_fires)
    if s.num_gone[e] > 0:
        clear_gone(s, e)
    alive, hp, death_tick = s.alive[e], s.hp[e], s.death_tick[e]
    tick = s.tick[e]
    living = 0
    for a in range(alive.shape[0]):
        if alive[a] and hp[a] <= 0:
            alive[a] = False
            death_tick[a] = tick
        living += alive[a]
    s.tick[e] = tick + 1
    s.steps[e] += 1
    update_rank_keys(s, p, e)
    return living <= 1 or tick + 1 >= p.max_turns


@phase
def play_tick(s, p, e, actions):
    """One tick of env e with the players' ``actions``; True when the game is over.
    (Fire hits nothing while there is none: phases 2 and 3 are skipped.)"""
    apply_actions(s, p, e, actions)
    if s.num_fires[e] > 0:
        fire_hits_players(s, p, e)
        fire_hits_blocks(s, p, e)
    pick_up(s, p, e)
    count_down(s, p, e)
    old_fires = explode(s, p, e)
    spawn(s, p, e)
    return remove_dead(s, p, e, old_fires)


# -- Foresight: not a phase, what the phases above will do to the bombs on the board (the
# danger plane and the bots read it; the chain reaction is ``set_off_bomb``) ------------

@phase
def blast_arms(s, e, blast, chain):
    """``blast[b, d]``: bomb b's reach in direction d (0..3: up, down, left, right) on the
    current board, and ``chain[b, d]``: the bomb that arm ends on (-1: none)."""
    tiles, bomb_grid = s.tiles[e], s.bomb_grid[e]
    bomb_x, bomb_y, bomb_power = s.bomb_x[e], s.bomb_y[e], s.bomb_power[e]
    for b in range(s.num_bombs[e]):
        x, y, power = bomb_x[b], bomb_y[b], bomb_power[b]
        for d in range(4):
            r = reach(tiles, bomb_grid, x, y, d + 1, power)
            blast[b, d] = r
            c = -1
            if r > 0:
                cx, cy = x + r * ACTION_DELTAS[d + 1, 0], y + r * ACTION_DELTAS[d + 1, 1]
                c = bomb_grid[cy, cx] - 1
            chain[b, d] = c


@phase
def chain_times(s, e, hit_in, chain):
    """``hit_in[b]`` as in ``hit_times``, from the bombs' timers, the fire on the board
    and the arms' ``chain`` (see ``blast_arms``); returns the number of bombs."""
    bomb_grid, bomb_timer = s.bomb_grid[e], s.bomb_timer[e]
    fire_x, fire_y, fire_reach = s.fire_x[e], s.fire_y[e], s.fire_reach[e]
    nb = s.num_bombs[e]
    for b in range(nb):
        hit_in[b] = bomb_timer[b] + 1
    if nb == 0:
        return nb
    for f in range(s.num_fires[e]):            # bombs in today's fire go off next tick
        for d in range(4):
            dx, dy = ACTION_DELTAS[d + 1, 0], ACTION_DELTAS[d + 1, 1]
            for k in range(1, fire_reach[f, d] + 1):
                cx, cy = fire_x[f] + k * dx, fire_y[f] + k * dy
                c = bomb_grid[cy, cx] - 1
                if c >= 0:
                    if hit_in[c] > 2:
                        hit_in[c] = 2
    # shortest chains (Bellman-Ford: settled after nb - 1 passes, whatever the order)
    changed = True
    passes = 0
    while changed and passes < nb:
        changed = False
        passes += 1
        for b in range(nb):
            later = hit_in[b] + 1
            for d in range(4):
                c = chain[b, d]
                if c >= 0:
                    if hit_in[c] > later:
                        hit_in[c] = later
                        changed = True
    return nb


@hot
def hit_times(s, e, hit_in):
    """``hit_in[b]``: ticks until bomb b's fire hits (1 = during the next tick), chains
    included, on the current board; returns the number of bombs.  (Fills the ``blast`` and
    ``chain`` arms too, see ``blast_arms``.)"""
    blast_arms(s, e, s.blast[e], s.chain[e])
    return chain_times(s, e, hit_in, s.chain[e])
