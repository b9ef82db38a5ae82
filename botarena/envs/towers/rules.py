"""Towers' rules: one jitted function per paragraph of the turn, in the rules' order.  A turn (``play_turn``) runs:

1. ``apply_commands``  each player's command grid (its own view: player 1's mirrored): a
                       tile's command goes to one unit, the oldest living own bot on the
                       tile (the others carry on: a stack splits one bot a turn), or the
                       own tower there.  A move sets the bot's target to the neighbouring
                       tile's centre (off the map: ignored), blast and transform set its
                       command at its own position, blast marks a tower for this turn;
                       no-op leaves every command as it is.
2. ``remove_dead``     units that died last turn leave their pools.
3. ``bots_act``        every bot whose blast target is where it stands blasts there: each
                       enemy unit within ``bot_blast_impact_radius`` R takes
                       floor(D * (R - d) / R) at distance d (summed, not yet applied); the
                       bot dies.
4. ``towers_act``      every tower told to blast that is at least ``tower_min_blast_age``
                       turns old blasts the same way (its radius and damage) and dies.
5. ``apply_damage``    the summed damage is taken; units at 0 HP or less die (a tower that
                       dies frees its tile at once).
6. ``move_bots``       living bots walk ``bot_speed`` along a shortest path (``paths``)
                       towards a move target, a blast target not reached, or a transform
                       target's tile not reached; unreachable: they stay and keep trying.
                       A bot that reaches a move target becomes idle.
7. ``transform``       a bot with a transform command on its target's tile becomes a tower
                       with floor(transform_hp_factor * HP) (at most max_tower_hp) if the
                       tile is no base, holds no tower and no other living bot of either
                       player, and its player has fewer than ``max_num_towers`` towers;
                       else it keeps trying.
8. ``score``           turn score = bots on flag tiles * bot_score_multiplier + towers on
                       flag tiles * tower_score_multiplier; the higher one gets one game
                       point (none on a tie).
9. ``spawn``           ``bot_spawn_frequency`` bots per player at its base while it has
                       fewer than ``max_num_bots``; the turn ends (the game after
                       ``num_turns``).

Blasts (3, 4) read the positions from before the moves (6).  Phases take the state ``s``,
the params ``p`` and the env ``e``; compiled without numba's runtime.
"""
import math

from ...core.jit import hot, phase
from .constants import (ARRIVED, FIRST_MOVE, FLAG, MAX_LEGS, NUM_PLAYERS, BotCommand,
                        Command)
from .paths import NUM_DIRECTIONS, forget_fields, next_tile

IDLE, MOVE, BLAST, TRANSFORM = (int(BotCommand.IDLE), int(BotCommand.MOVE),
                                int(BotCommand.BLAST), int(BotCommand.TRANSFORM))
C_BLAST, C_TRANSFORM = int(Command.BLAST), int(Command.TRANSFORM)


@phase
def tile_of(x, y, size):
    """The flat tile of position (x, y), on the map (x, y >= 0: truncation is the floor,
    and a quarter of the cost of ``math.floor`` in numba's code)."""
    return int(x) * size + int(y)


@phase(python=True)
def view_tile(t, player, tiles):
    """Tile t as player ``player`` sees it (player 1: mirrored); its own inverse."""
    return t if player == 0 else tiles - 1 - t


@phase(python=True)
def view_direction(k, player):
    """Direction k (0..7) as player ``player`` means it; its own inverse."""
    return k if player == 0 else (k + NUM_DIRECTIONS // 2) % NUM_DIRECTIONS


@phase
def tower_age(s, e, a, i):
    """Turns since player a's tower i was built (it may blast from ``tower_min_blast_age``)."""
    return s.turn[e] - s.tower_born[e, a, i]


@hot
def add_bot(s, p, e, a, x, y):
    """A new idle bot of player a at (x, y) with full HP, if its pool has room."""
    i = s.num_bots[e, a]
    if i >= s.bot_x.shape[2]:
        return
    s.bot_x[e, a, i] = x
    s.bot_y[e, a, i] = y
    s.bot_hp[e, a, i] = p.max_bot_hp
    s.bot_id[e, a, i] = s.next_id[e]
    s.bot_cmd[e, a, i] = IDLE
    s.bot_tx[e, a, i] = x
    s.bot_ty[e, a, i] = y
    s.bot_dead[e, a, i] = False
    s.bot_damage[e, a, i] = 0
    s.num_bots[e, a] = i + 1
    s.next_id[e] += 1


@hot
def spawn_at_base(s, p, e, a, count):
    """``count`` bots of player a at its base's centre."""
    centre = p.base_tile[a] // s.terrain.shape[1] + 0.5
    for _ in range(count):
        add_bot(s, p, e, a, centre, centre)


@phase
def apply_commands(s, p, e, actions):
    """Phase 1: each entry of the command grids ``actions[a, view tile]`` goes to one
    unit: the first living bot of player a on that tile in pool order (its oldest), or
    the player's tower there (blast).  While the phase runs, the tiles served are marked
    in ``s.count[e, a]`` (zero between uses) and listed in ``s.queue[e]`` (the search's
    scratch), which unmarks them after."""
    size = s.terrain.shape[1]
    tiles = size * size
    listed = s.queue[e]
    for a in range(NUM_PLAYERS):
        row, served = actions[a], s.count[e, a]
        num_served = 0
        for i in range(s.num_bots[e, a]):
            if s.bot_dead[e, a, i]:
                continue
            x, y = s.bot_x[e, a, i], s.bot_y[e, a, i]
            t = tile_of(x, y, size)
            if served[t]:
                continue
            served[t] = 1
            listed[num_served] = t
            num_served += 1
            c = row[view_tile(t, a, tiles)]
            if c == C_BLAST or c == C_TRANSFORM:
                s.bot_cmd[e, a, i] = BLAST if c == C_BLAST else TRANSFORM
                s.bot_tx[e, a, i] = x
                s.bot_ty[e, a, i] = y
            elif FIRST_MOVE <= c < FIRST_MOVE + NUM_DIRECTIONS:
                n = p.nbr[t, view_direction(c - FIRST_MOVE, a)]
                if n >= 0:
                    s.bot_cmd[e, a, i] = MOVE
                    s.bot_tx[e, a, i] = n // size + 0.5
                    s.bot_ty[e, a, i] = n % size + 0.5
        for j in range(num_served):
            served[listed[j]] = 0
        for i in range(s.num_towers[e, a]):
            t = s.tower_x[e, a, i] * size + s.tower_y[e, a, i]
            s.tower_blast[e, a, i] = row[view_tile(t, a, tiles)] == C_BLAST


@phase
def remove_dead(s, p, e):
    """Phase 2: the units marked dead leave their pools (the others keep their order)."""
    max_towers = s.tower_x.shape[2]
    for a in range(NUM_PLAYERS):
        kept = 0
        for i in range(s.num_bots[e, a]):
            if s.bot_dead[e, a, i]:
                continue
            if kept != i:
                s.bot_x[e, a, kept] = s.bot_x[e, a, i]
                s.bot_y[e, a, kept] = s.bot_y[e, a, i]
                s.bot_hp[e, a, kept] = s.bot_hp[e, a, i]
                s.bot_id[e, a, kept] = s.bot_id[e, a, i]
                s.bot_cmd[e, a, kept] = s.bot_cmd[e, a, i]
                s.bot_tx[e, a, kept] = s.bot_tx[e, a, i]
                s.bot_ty[e, a, kept] = s.bot_ty[e, a, i]
                s.bot_dead[e, a, kept] = False
            kept += 1
        s.num_bots[e, a] = kept
        kept = 0
        size = s.terrain.shape[1]
        for i in range(s.num_towers[e, a]):
            if s.tower_dead[e, a, i]:
                continue
            if kept != i:
                s.tower_x[e, a, kept] = s.tower_x[e, a, i]
                s.tower_y[e, a, kept] = s.tower_y[e, a, i]
                s.tower_hp[e, a, kept] = s.tower_hp[e, a, i]
                s.tower_id[e, a, kept] = s.tower_id[e, a, i]
                s.tower_born[e, a, kept] = s.tower_born[e, a, i]
                s.tower_blast[e, a, kept] = s.tower_blast[e, a, i]
                s.tower_dead[e, a, kept] = False
                s.tower_at[e, s.tower_x[e, a, i] * size + s.tower_y[e, a, i]] = a * max_towers + kept
            kept += 1
        s.num_towers[e, a] = kept


@phase
def falloff(damage, radius, d):
    """Damage of a blast at distance d: floor(damage * (radius - d) / radius), 0 beyond."""
    if d > radius:
        return 0
    return int(damage * (radius - d) / radius)      # >= 0: truncation is the floor


@hot
def blast(s, e, a, bx, by, radius, damage):
    """A blast of player a at (bx, by): damage added to every living enemy unit in reach."""
    b = 1 - a
    for j in range(s.num_bots[e, b]):
        if not s.bot_dead[e, b, j]:
            d = math.hypot(s.bot_x[e, b, j] - bx, s.bot_y[e, b, j] - by)
            s.bot_damage[e, b, j] += falloff(damage, radius, d)
    for j in range(s.num_towers[e, b]):
        if not s.tower_dead[e, b, j]:
            d = math.hypot(s.tower_x[e, b, j] + 0.5 - bx, s.tower_y[e, b, j] + 0.5 - by)
            s.tower_damage[e, b, j] += falloff(damage, radius, d)


@phase
def at_target(s, e, a, i):
    """Whether player a's bot i stands on its target (within ``ARRIVED``)."""
    return math.hypot(s.bot_tx[e, a, i] - s.bot_x[e, a, i],
                      s.bot_ty[e, a, i] - s.bot_y[e, a, i]) <= ARRIVED


@phase
def bots_act(s, p, e):
    """Phase 3: bots standing on their blast target blast there and die.  (The blasts of
    both players are marked first, so each hurts the other's blasters too.)"""
    for a in range(NUM_PLAYERS):
        for i in range(s.num_bots[e, a]):
            if s.bot_cmd[e, a, i] == BLAST and not s.bot_dead[e, a, i] and at_target(s, e, a, i):
                blast(s, e, a, s.bot_x[e, a, i], s.bot_y[e, a, i], p.bot_blast_impact_radius, p.bot_blast_damage_points)
    for a in range(NUM_PLAYERS):
        for i in range(s.num_bots[e, a]):
            if s.bot_cmd[e, a, i] == BLAST and not s.bot_dead[e, a, i] and at_target(s, e, a, i):
                s.bot_dead[e, a, i] = True


@phase
def towers_act(s, p, e):
    """Phase 4: towers told to blast, old enough, blast and die."""
    for a in range(NUM_PLAYERS):
        for i in range(s.num_towers[e, a]):
            if s.tower_blast[e, a, i] and tower_age(s, e, a, i) >= p.tower_min_blast_age:
                blast(s, e, a, s.tower_x[e, a, i] + 0.5, s.tower_y[e, a, i] + 0.5,
                      p.tower_blast_impact_radius, p.tower_blast_damage_points)
    for a in range(NUM_PLAYERS):
        for i in range(s.num_towers[e, a]):
            if s.tower_blast[e, a, i] and tower_age(s, e, a, i) >= p.tower_min_blast_age:
                s.tower_dead[e, a, i] = True


@phase
def apply_damage(s, p, e):
    """Phase 5: the summed damage is taken; units at 0 HP or less die; dead towers free
    their tiles (and the distance fields are dropped)."""
    size = s.terrain.shape[1]
    for a in range(NUM_PLAYERS):
        for i in range(s.num_bots[e, a]):
            s.bot_hp[e, a, i] -= s.bot_damage[e, a, i]
            s.bot_damage[e, a, i] = 0
            if s.bot_hp[e, a, i] <= 0:
                s.bot_dead[e, a, i] = True
        for i in range(s.num_towers[e, a]):
            s.tower_hp[e, a, i] -= s.tower_damage[e, a, i]
            s.tower_damage[e, a, i] = 0
            if s.tower_hp[e, a, i] <= 0:
                s.tower_dead[e, a, i] = True
            t = s.tower_x[e, a, i] * size + s.tower_y[e, a, i]
            if s.tower_dead[e, a, i] and s.tower_at[e, t] >= 0:
                s.tower_at[e, t] = -1
                forget_fields(s, e)


@hot
def walk(s, p, e, a, i, terrain):
    """Bot i of player a walks ``bot_speed`` towards its target; True if it stands on it
    (``terrain``: env e's, flat)."""
    size = s.terrain.shape[1]
    x, y = float(s.bot_x[e, a, i]), float(s.bot_y[e, a, i])
    tx, ty = float(s.bot_tx[e, a, i]), float(s.bot_ty[e, a, i])
    dest = tile_of(tx, ty, size)
    left = p.bot_speed
    arrived = False
    for _ in range(MAX_LEGS):
        t = tile_of(x, y, size)
        wx, wy = tx, ty
        if t != dest:
            n = next_tile(s, p, e, terrain, s.tower_at[e], t, dest)
            if n < 0:
                break
            if n != dest:
                wx, wy = n // size + 0.5, n % size + 0.5
        d = math.hypot(wx - x, wy - y)
        if d <= left:
            x, y = wx, wy
            left -= d
            if wx == tx and wy == ty:
                arrived = True
                break
        else:
            x += (wx - x) * left / d
            y += (wy - y) * left / d
            break
    s.bot_x[e, a, i] = x
    s.bot_y[e, a, i] = y
    return arrived


@phase
def move_bots(s, p, e):
    """Phase 6: living bots walk towards their targets (see ``walk``)."""
    size = s.terrain.shape[1]
    terrain = s.terrain[e].reshape(size * size)
    for a in range(NUM_PLAYERS):
        for i in range(s.num_bots[e, a]):
            cmd = s.bot_cmd[e, a, i]
            if cmd == IDLE or s.bot_dead[e, a, i]:
                continue
            if cmd == BLAST and at_target(s, e, a, i):
                continue
            if cmd == TRANSFORM and tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size) == \
                    tile_of(s.bot_tx[e, a, i], s.bot_ty[e, a, i], size):
                continue
            if walk(s, p, e, a, i, terrain) and cmd == MOVE:
                s.bot_cmd[e, a, i] = IDLE


@hot
def count_bots(s, e):
    """Every living bot counted in ``s.count[e]`` and its HP in ``s.hp_sum[e]`` (both zero
    between uses: ``clear_counts`` after use, or each tile zeroed as it is read), and the
    tiles counted listed, each once, in ``s.stack_tile[e, a, :s.num_stacks[e, a]]``
    (bots stand in stacks: random play keeps ~276 living bots on ~4 tiles).  The last
    count of a step is the observation's, so the list names the tiles whose bots the
    planes show until the next step erases them."""
    size = s.terrain.shape[1]
    for a in range(NUM_PLAYERS):
        count, hp_sum, tiles = s.count[e, a], s.hp_sum[e, a], s.stack_tile[e, a]
        n = 0
        for i in range(s.num_bots[e, a]):
            if not s.bot_dead[e, a, i]:
                t = tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)
                if count[t] == 0:
                    tiles[n] = t
                    n += 1
                count[t] += 1
                hp_sum[t] += s.bot_hp[e, a, i]
        s.num_stacks[e, a] = n


@phase
def may_transform(s, p, e, a, i, size):
    """Bot i of player a is living, has a transform command and stands on its target's
    tile, which is no base and holds no tower (the other bots there and the tower pool
    are checked after)."""
    if s.bot_cmd[e, a, i] != TRANSFORM or s.bot_dead[e, a, i]:
        return False
    t = tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)
    if t != tile_of(s.bot_tx[e, a, i], s.bot_ty[e, a, i], size):
        return False
    return t != p.base_tile[0] and t != p.base_tile[1] and s.tower_at[e, t] < 0


@hot
def any_may_transform(s, p, e):
    """Some bot of env e passes ``may_transform`` (else phase 7 has nothing to do and
    skips counting the bots)."""
    size = s.terrain.shape[1]
    for a in range(NUM_PLAYERS):
        for i in range(s.num_bots[e, a]):
            if may_transform(s, p, e, a, i, size):
                return True
    return False


@phase
def transform(s, p, e):
    """Phase 7: bots on their transform target's tile become towers where they may."""
    if not any_may_transform(s, p, e):
        return
    size = s.terrain.shape[1]
    max_towers = s.tower_x.shape[2]
    count_bots(s, e)
    for a in range(NUM_PLAYERS):
        for i in range(s.num_bots[e, a]):
            if not may_transform(s, p, e, a, i, size):
                continue
            t = tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)
            if s.count[e, 0, t] + s.count[e, 1, t] > 1:
                continue
            k = s.num_towers[e, a]
            if k >= max_towers:
                continue
            s.tower_x[e, a, k] = t // size
            s.tower_y[e, a, k] = t % size
            s.tower_hp[e, a, k] = min(p.transform_hp_factor * s.bot_hp[e, a, i], p.max_tower_hp)
            s.tower_id[e, a, k] = s.next_id[e]
            s.tower_born[e, a, k] = s.turn[e] + 1
            s.tower_dead[e, a, k] = False
            s.tower_blast[e, a, k] = False
            s.tower_damage[e, a, k] = 0
            s.num_towers[e, a] = k + 1
            s.tower_at[e, t] = a * max_towers + k
            s.next_id[e] += 1
            s.bot_dead[e, a, i] = True
            forget_fields(s, e)
    clear_counts(s, e)


@hot
def clear_counts(s, e):
    """Clear ``s.count[e]`` and ``s.hp_sum[e]`` at every tile ``count_bots`` listed."""
    for a in range(NUM_PLAYERS):
        for j in range(s.num_stacks[e, a]):
            t = s.stack_tile[e, a, j]
            s.count[e, a, t] = 0
            s.hp_sum[e, a, t] = 0


@hot
def turn_score(s, p, e, a):
    """Player a's turn score: its living bots and towers on flag tiles, weighted."""
    size = s.terrain.shape[1]
    terrain = s.terrain[e].reshape(size * size)
    score = 0
    for i in range(s.num_bots[e, a]):
        if not s.bot_dead[e, a, i] and terrain[tile_of(s.bot_x[e, a, i], s.bot_y[e, a, i], size)] == FLAG:
            score += p.bot_score_multiplier
    for i in range(s.num_towers[e, a]):
        if not s.tower_dead[e, a, i] and s.terrain[e, s.tower_x[e, a, i], s.tower_y[e, a, i]] == FLAG:
            score += p.tower_score_multiplier
    return score


@phase
def score(s, p, e):
    """Phase 8: turn scores; the higher gets a game point."""
    for a in range(NUM_PLAYERS):
        s.turn_scores[e, a] = turn_score(s, p, e, a)
    if s.turn_scores[e, 0] > s.turn_scores[e, 1]:
        s.scores[e, 0] += 1
    elif s.turn_scores[e, 1] > s.turn_scores[e, 0]:
        s.scores[e, 1] += 1


@hot(python=True)
def update_rank_keys(s, e):
    """win_loss rank keys: the game points."""
    for a in range(NUM_PLAYERS):
        s.rank_key[e, a] = s.scores[e, a]


@phase
def spawn(s, p, e):
    """Phase 9: new bots at the bases; the turn ends.  True when the game is over."""
    for a in range(NUM_PLAYERS):
        spawn_at_base(s, p, e, a, p.bot_spawn_frequency)
    s.turn[e] += 1
    s.steps[e] += 1
    update_rank_keys(s, e)
    return s.turn[e] >= p.max_turns


@hot
def play_turn(s, p, e, actions):
    """One turn of env e with the players' command grids ``actions[a, view tile]``; True
    when the game is over."""
    apply_commands(s, p, e, actions)
    remove_dead(s, p, e)
    bots_act(s, p, e)
    towers_act(s, p, e)
    apply_damage(s, p, e)
    move_bots(s, p, e)
    transform(s, p, e)
    score(s, p, e)
    return spawn(s, p, e)
