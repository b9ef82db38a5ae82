"""CodeRunner's rules: one jitted function per phase of a turn, in the order of
the contest's turn (checked against the original engine).  A turn (``play_turn``) runs:

1. ``plan_runners``   from the start-of-turn state: a falling runner falls (one cell down;
                      commands are ignored), a standing runner's legal move or dig is noted;
   ``plan_enemies``   a trapped enemy stays, a falling one falls (in patrol mode it consumes
                      a program letter); one whose move is due (``enemy_next``) pursues the
                      runner within its chase radius (closest; ties by the first move's
                      preference, then red), else pops its pursuit stack (the opposite move),
                      else plays its program's next letter (an illegal letter waits);
2. ``move_characters`` everybody moves at once; a runner and an enemy that swap cells kill
                      the runner;
3. ``apply_digs``     digs replace their target brick by a removed brick (both runners may
                      dig the same brick);
4. ``timed_events``   removed bricks due are restored (killing runners: +300 to the other
                      runner if it dug it; enemies: +20 to each digger, the master and chase
                      radii updated), gold due reappears, runners and enemies due respawn;
5. ``collect_gold``   a living runner on gold takes it (+100 each, both may);
6. ``visit_cells``    +1 for a cell no runner stood on before (one set of visited cells
                      shared by both runners; both score a cell they reach on the same turn);
7. ``enemy_contact``  a runner sharing a cell with an enemy dies.

Movement (both kinds of character): a character falls when its cell and the cell below are
empty-like (empty, gold, or a removed brick without a trapped enemy) and it is not on the
bottom row; LEFT/RIGHT need a target inside the map that is not brick; TOP a ladder in the
cell and no brick above; BOTTOM a ladder or empty-like cell below.  An enemy entering a
removed brick is trapped there until it is restored.  Digging (5/6) needs turn >=
``dig_ready``, not the bottom row, a ladder in the cell or brick/ladder below, a side cell
that is neither brick nor ladder, and brick as the target.

Timings: an event of turn t with a delay D happens in phase 4 of turn t + D (bricks,
gold, runners and enemies alike: an enemy killed on turn t is back at its respawn cell in
the state of turn t + D + 1 and moves from that turn on).  An enemy moves once every
``enemy_period`` turns, and a fall step counts as its move: one that lands on turn t moves
again on turn t + ``enemy_period`` at the earliest.
Removed bricks and collected gold wait in queues (``hole_queue``, ``gold_queue``) in the
order they fall due (their delays are fixed), so phase 4 pops what is due instead of
scanning the map (bricks restored in one turn touch different cells: their order does not
matter).

Phases take the state ``s``, the params ``p`` and the env ``e`` and bind that env's arrays
once.  ``play_turn`` and ``timed_events`` are ``@phase`` (inlined, see ``core.jit``;
``timed_events`` was the one phase LLVM left as a real call: inlining it gave 1.19x the
kernel's steps/s), the other phases ``@hot``.
"""
from ...core.jit import hot, phase
from .constants import (BOTTOM, BRICK, DIG_LEFT, DIG_RIGHT, EMPTY, GOLD, HEIGHT, LADDER,
                        LEFT, MIRRORED, MOVE_DELTAS, NONE, NUM_ACTIONS, OPPOSITE, PREFERENCE,
                        QUEUE, REMOVED, RIGHT, TOP, WIDTH)


# -- cell predicates ------------------------------------------------------------------------

@hot
def trapped_at(enemy_pos, enemy_alive, n, r, c):
    """An enemy is trapped in (r, c) (callers check that the cell is a removed brick)."""
    for i in range(n):
        if enemy_alive[i]:
            if enemy_pos[i, 0] == r and enemy_pos[i, 1] == c:
                return True
    return False


@hot
def empty_like(cells, enemy_pos, enemy_alive, n, r, c):
    """Empty, gold, or a removed brick holding no trapped enemy."""
    v = cells[r, c]
    if v == EMPTY or v == GOLD:
        return True
    if v == REMOVED:
        if trapped_at(enemy_pos, enemy_alive, n, r, c):
            return False
        return True
    return False


@hot
def falling(cells, enemy_pos, enemy_alive, n, r, c):
    """Whether a character at (r, c) falls (see Movement above): not on the bottom row or
    a ladder, and its cell (unless a removed brick it stands in) and the cell below
    empty-like."""
    if r >= HEIGHT - 1:
        return False
    if cells[r, c] == LADDER:
        return False
    if cells[r, c] == REMOVED:      # a runner in a hole (enemies there are trapped)
        if not empty_like(cells, enemy_pos, enemy_alive, n, r + 1, c):
            return False
        return True
    if not empty_like(cells, enemy_pos, enemy_alive, n, r, c):
        return False
    if not empty_like(cells, enemy_pos, enemy_alive, n, r + 1, c):
        return False
    return True


@hot
def legal_move(cells, enemy_pos, enemy_alive, n, r, c, m):
    """Move m (1..4) from the non-falling (r, c) is allowed."""
    if m == LEFT or m == RIGHT:
        nc = c + MOVE_DELTAS[m, 1]
        if nc < 0 or nc >= WIDTH:
            return False
        if cells[r, nc] == BRICK:
            return False
        return True
    if m == TOP:
        if r == 0:
            return False
        if cells[r, c] != LADDER:
            return False
        if cells[r - 1, c] == BRICK:
            return False
        return True
    if m == BOTTOM:
        if r >= HEIGHT - 1:
            return False
        if cells[r + 1, c] == LADDER:
            return True
        if empty_like(cells, enemy_pos, enemy_alive, n, r + 1, c):
            return True
        return False
    return False


@hot
def can_dig(cells, r, c, side, turn, dig_ready):
    """Digging the brick below-left (side -1) or below-right (+1) of (r, c) succeeds."""
    if turn < dig_ready:
        return False
    if r >= HEIGHT - 1:
        return False
    if cells[r, c] != LADDER:
        below = cells[r + 1, c]
        if below != BRICK and below != LADDER:
            return False
    sc = c + side
    if sc < 0 or sc >= WIDTH:
        return False
    if cells[r, sc] == BRICK or cells[r, sc] == LADDER:
        return False
    if cells[r + 1, sc] != BRICK:
        return False
    return True


@hot
def legal_actions(s, p, e, a, out):
    """``out[action]`` = 1 where runner a's command does something (0 elsewhere); with
    ``p.mirror`` blue's actions are mirrored (LEFT <-> RIGHT, DIG_LEFT <-> DIG_RIGHT)."""
    cells, pos, alive = s.cells[e], s.runner_pos[e], s.runner_alive[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    for k in range(NUM_ACTIONS):
        out[k] = 0
    out[NONE] = 1
    if not alive[a]:
        return
    r, c = pos[a, 0], pos[a, 1]
    if falling(cells, enemy_pos, enemy_alive, n, r, c):
        return
    flip = p.mirror and a == 1
    for m in range(1, 5):
        if legal_move(cells, enemy_pos, enemy_alive, n, r, c, m):
            if flip:
                out[MIRRORED[m]] = 1
            else:
                out[m] = 1
    turn, ready = s.turn[e], s.dig_ready[e, a]
    for act in range(DIG_LEFT, DIG_RIGHT + 1):
        side = -1 if act == DIG_LEFT else 1
        if can_dig(cells, r, c, side, turn, ready):
            if flip:
                out[MIRRORED[act]] = 1
            else:
                out[act] = 1


# -- timed cells ------------------------------------------------------------------------------

@hot
def push(queue, head, count, k):
    """Append cell k (``r * WIDTH + c``) to a ring buffer of cells holding ``count`` from
    ``head``.  Removed bricks and collected gold wait a fixed delay, so each queue is in
    the order of its due turns: ``timed_events`` pops from the head."""
    queue[(head + count) % QUEUE] = k


# -- deaths -------------------------------------------------------------------------------

@hot
def kill_runner(s, p, e, a):
    """Runner a dies: off the map until its respawn, ``runner_respawn`` turns from now."""
    s.runner_alive[e, a] = False
    s.runner_pos[e, a, 0] = -1
    s.runner_pos[e, a, 1] = -1
    s.runner_respawn[e, a] = s.turn[e] + p.runner_respawn
    s.died[e, a] = True


@hot
def kill_enemy(s, p, e, i):
    """Enemy i dies: off the map until its respawn, ``enemy_respawn`` turns from now; its
    pursuit stack and program restart."""
    s.enemy_alive[e, i] = False
    s.enemy_pos[e, i, 0] = -1
    s.enemy_pos[e, i, 1] = -1
    s.enemy_respawn[e, i] = s.turn[e] + p.enemy_respawn
    s.enemy_sp[e, i] = 0
    s.enemy_pc[e, i] = 0


# -- 1. plans -------------------------------------------------------------------------------

@hot
def plan_runners(s, p, e, actions):
    """Phase 1 (runners): from the start-of-turn state, a falling runner's fall, else its
    legal move or dig (``runner_new``, ``runner_dig``); illegal commands do nothing."""
    cells, pos, alive = s.cells[e], s.runner_pos[e], s.runner_alive[e]
    new, dig, ready = s.runner_new[e], s.runner_dig[e], s.dig_ready[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    turn = s.turn[e]
    for a in range(2):
        r, c = pos[a, 0], pos[a, 1]
        new[a, 0] = r
        new[a, 1] = c
        dig[a] = -1
        if not alive[a]:
            continue
        if falling(cells, enemy_pos, enemy_alive, n, r, c):
            new[a, 0] = r + 1
            continue
        act = actions[a]
        if p.mirror and a == 1:
            act = MIRRORED[act]
        if act >= 1 and act <= 4:
            if legal_move(cells, enemy_pos, enemy_alive, n, r, c, act):
                new[a, 0] = r + MOVE_DELTAS[act, 0]
                new[a, 1] = c + MOVE_DELTAS[act, 1]
        elif act == DIG_LEFT or act == DIG_RIGHT:
            side = -1 if act == DIG_LEFT else 1
            if can_dig(cells, r, c, side, turn, ready[a]):
                dig[a] = c + side


@hot
def first_move(nbr, dist, src, tgt, pref):
    """The most preferred first move of a shortest reversible path src -> tgt (NONE if
    src == tgt or unreachable)."""
    d = dist[src, tgt]
    if d == 0:
        return NONE
    for k in range(4):
        m = pref[k]
        t = nbr[src, m]
        if t >= 0:
            if dist[t, tgt] == d - 1:
                return m
    return NONE


@hot
def pursuit_move(s, p, e, i, side, r, c):
    """The pursuit move of enemy i at (r, c): -1 if no runner is within its chase radius."""
    m_id = s.map_id[e]
    dist, nbr = p.dist[m_id], p.nbr[m_id]
    pos, alive, radius = s.runner_pos[e], s.runner_alive[e], s.enemy_radius[e]
    pref = PREFERENCE[side]
    src = r * WIDTH + c
    best_d = 32767
    best_move = -1
    best_rank = 99
    for a in range(2):
        if not alive[a]:
            continue
        d = dist[src, pos[a, 0] * WIDTH + pos[a, 1]]
        if d > radius[i, a]:
            continue
        m = first_move(nbr, dist, src, pos[a, 0] * WIDTH + pos[a, 1], pref)
        rank = 4
        for k in range(4):
            if pref[k] == m:
                rank = k
        if d < best_d or (d == best_d and rank < best_rank):
            best_d = d
            best_move = m
            best_rank = rank
    return best_move


@hot
def plan_enemies(s, p, e):
    """Phase 1 (enemies): trapped stays, falling falls, a due enemy pursues a runner in its
    chase radius, else pops its pursuit stack, else plays its program (``enemy_new``)."""
    cells = s.cells[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    new, nxt, pc, sp, stack = s.enemy_new[e], s.enemy_next[e], s.enemy_pc[e], s.enemy_sp[e], s.enemy_stack[e]
    m_id = s.map_id[e]
    prog, prog_len, sides = p.prog[m_id], p.prog_len[m_id], p.side[m_id]
    turn = s.turn[e]
    cap = stack.shape[1]
    for i in range(n):
        r, c = enemy_pos[i, 0], enemy_pos[i, 1]
        new[i, 0] = r
        new[i, 1] = c
        if not enemy_alive[i]:
            continue
        if cells[r, c] == REMOVED:          # trapped
            continue
        if falling(cells, enemy_pos, enemy_alive, n, r, c):
            new[i, 0] = r + 1
            nxt[i] = turn + p.enemy_period     # a fall step is the enemy's move
            if sp[i] == 0:
                pc[i] = (pc[i] + 1) % prog_len[i]
            continue
        if turn < nxt[i]:
            continue
        nxt[i] = turn + p.enemy_period
        m = pursuit_move(s, p, e, i, sides[i], r, c)
        if m >= 0:
            if m != NONE and legal_move(cells, enemy_pos, enemy_alive, n, r, c, m):
                new[i, 0] = r + MOVE_DELTAS[m, 0]
                new[i, 1] = c + MOVE_DELTAS[m, 1]
                if sp[i] < cap:
                    stack[i, sp[i]] = m
                    sp[i] += 1
        elif sp[i] > 0:
            m = OPPOSITE[stack[i, sp[i] - 1]]
            if legal_move(cells, enemy_pos, enemy_alive, n, r, c, m):
                new[i, 0] = r + MOVE_DELTAS[m, 0]
                new[i, 1] = c + MOVE_DELTAS[m, 1]
                sp[i] -= 1
        else:
            m = prog[i, pc[i]]
            if legal_move(cells, enemy_pos, enemy_alive, n, r, c, m):
                new[i, 0] = r + MOVE_DELTAS[m, 0]
                new[i, 1] = c + MOVE_DELTAS[m, 1]
                pc[i] = (pc[i] + 1) % prog_len[i]


# -- 2. moves --------------------------------------------------------------------------------

@hot
def move_characters(s, p, e):
    """Phase 2: everybody moves to their planned cell at once; a runner that swaps cells
    with an enemy dies."""
    pos, alive, new = s.runner_pos[e], s.runner_alive[e], s.runner_new[e]
    enemy_pos, enemy_alive, enemy_new, n = s.enemy_pos[e], s.enemy_alive[e], s.enemy_new[e], s.num_enemies[e]
    for a in range(2):
        if not alive[a]:
            continue
        r0, c0, r1, c1 = pos[a, 0], pos[a, 1], new[a, 0], new[a, 1]
        swapped = False
        if r0 != r1 or c0 != c1:
            for i in range(n):
                if enemy_alive[i]:
                    if enemy_pos[i, 0] == r1 and enemy_pos[i, 1] == c1 and \
                            enemy_new[i, 0] == r0 and enemy_new[i, 1] == c0:
                        swapped = True
        if swapped:
            kill_runner(s, p, e, a)
        else:
            pos[a, 0] = r1
            pos[a, 1] = c1
    for i in range(n):
        if enemy_alive[i]:
            enemy_pos[i, 0] = enemy_new[i, 0]
            enemy_pos[i, 1] = enemy_new[i, 1]


# -- 3. digs ---------------------------------------------------------------------------------

@hot
def apply_digs(s, p, e):
    """Phase 3: each planned dig turns its target brick into a removed brick (restored
    ``brick_restore`` turns later); both runners may dig the same brick."""
    cells, restore, dug_by = s.cells[e], s.restore_turn[e], s.dug_by[e]
    dig, new = s.runner_dig[e], s.runner_new[e]
    turn = s.turn[e]
    for a in range(2):
        tc = dig[a]
        if tc < 0:
            continue
        tr = new[a, 0] + 1            # a digging runner did not move
        if cells[tr, tc] == BRICK:
            cells[tr, tc] = REMOVED
            restore[tr, tc] = turn + p.brick_restore
            dug_by[tr, tc] = 1 << a
            push(s.hole_queue[e], s.hole_head[e], s.num_holes[e], tr * WIDTH + tc)
            s.num_holes[e] += 1
        elif cells[tr, tc] == REMOVED:    # both runners dug it this turn
            dug_by[tr, tc] |= 1 << a
        s.dig_ready[e, a] = turn + p.dig_delay


# -- 4. timed events ---------------------------------------------------------------------------

@hot
def restore_brick(s, p, e, r, c):
    """A removed brick at (r, c) turns back into brick: a runner inside dies
    (``opponent_kill_points`` to the other runner if it dug it), an enemy inside dies
    (``enemy_kill_points`` to each digger)."""
    cells, dug_by = s.cells[e], s.dug_by[e]
    pos, alive, scores = s.runner_pos[e], s.runner_alive[e], s.scores[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    diggers = dug_by[r, c]
    cells[r, c] = BRICK
    s.restore_turn[e, r, c] = -1
    dug_by[r, c] = 0
    s.num_holes[e] -= 1
    for a in range(2):
        if alive[a]:
            if pos[a, 0] == r and pos[a, 1] == c:
                kill_runner(s, p, e, a)
                b = 1 - a
                if diggers & (1 << b):
                    scores[b] += p.opponent_kill_points
    for i in range(n):
        if enemy_alive[i]:
            if enemy_pos[i, 0] == r and enemy_pos[i, 1] == c:
                kill_enemy(s, p, e, i)
                for a in range(2):
                    if diggers & (1 << a):
                        scores[a] += p.enemy_kill_points
                if diggers == 1 or diggers == 2:
                    master = 0 if diggers == 1 else 1
                    s.enemy_master[e, i] = master
                    s.enemy_radius[e, i, master] = p.master_radius
                    s.enemy_radius[e, i, 1 - master] = p.other_radius
                elif diggers == 3:
                    s.enemy_master[e, i] = -1
                    s.enemy_radius[e, i, 0] = p.chase_radius
                    s.enemy_radius[e, i, 1] = p.chase_radius


@phase
def timed_events(s, p, e):
    """Phase 4: what falls due this turn, from the queues and timers: bricks restored,
    gold back, runners and enemies respawned."""
    turn = s.turn[e]
    holes, restore = s.hole_queue[e], s.restore_turn[e]
    while s.num_holes[e] > 0:
        k = holes[s.hole_head[e]]
        r, c = k // WIDTH, k % WIDTH
        if restore[r, c] != turn:
            break
        s.hole_head[e] = (s.hole_head[e] + 1) % QUEUE
        restore_brick(s, p, e, r, c)
    golds, cells, gold_turn = s.gold_queue[e], s.cells[e], s.gold_turn[e]
    while s.num_gold_out[e] > 0:
        k = golds[s.gold_head[e]]
        r, c = k // WIDTH, k % WIDTH
        if gold_turn[r, c] != turn:
            break
        s.gold_head[e] = (s.gold_head[e] + 1) % QUEUE
        cells[r, c] = GOLD
        gold_turn[r, c] = -1
        s.num_gold_out[e] -= 1
    m_id = s.map_id[e]
    pos, alive, respawn = s.runner_pos[e], s.runner_alive[e], s.runner_respawn[e]
    spawns = p.spawns[m_id]
    for a in range(2):
        if not alive[a] and respawn[a] == turn:
            alive[a] = True
            pos[a, 0] = spawns[a, 0]
            pos[a, 1] = spawns[a, 1]
    enemy_pos, enemy_alive, enemy_respawn = s.enemy_pos[e], s.enemy_alive[e], s.enemy_respawn[e]
    enemy_spawn = p.enemy_spawn[m_id]
    for i in range(s.num_enemies[e]):
        if not enemy_alive[i] and enemy_respawn[i] <= turn:
            enemy_alive[i] = True
            enemy_pos[i, 0] = enemy_spawn[i, 0]
            enemy_pos[i, 1] = enemy_spawn[i, 1]
            s.enemy_pc[e, i] = 0
            s.enemy_sp[e, i] = 0
            s.enemy_next[e, i] = turn + 1


# -- 5.-7. -------------------------------------------------------------------------------------

@hot
def collect_gold(s, p, e):
    """Phase 5: a living runner on gold takes it (``gold_points`` each: both may take the
    same gold); it reappears ``gold_respawn`` turns later."""
    cells, pos, alive, scores = s.cells[e], s.runner_pos[e], s.runner_alive[e], s.scores[e]
    for a in range(2):
        if alive[a]:
            if cells[pos[a, 0], pos[a, 1]] == GOLD:
                scores[a] += p.gold_points
    for a in range(2):
        if alive[a]:
            r, c = pos[a, 0], pos[a, 1]
            if cells[r, c] == GOLD:
                cells[r, c] = EMPTY
                s.gold_turn[e, r, c] = s.turn[e] + p.gold_respawn
                push(s.gold_queue[e], s.gold_head[e], s.num_gold_out[e], r * WIDTH + c)
                s.num_gold_out[e] += 1


@hot
def visit_cells(s, p, e):
    """+``visit_points`` to each living runner on a cell no runner stood on before: one
    set of visited cells for both, so both score a new cell they reach on the same turn
    (both are checked before either marks its cell)."""
    pos, alive, scores, visited = s.runner_pos[e], s.runner_alive[e], s.scores[e], s.visited[e]
    for a in range(2):
        if alive[a]:
            r, c = pos[a, 0], pos[a, 1]
            if visited[r, c] == 0:
                scores[a] += p.visit_points
                s.new_visit[e, a] = r * WIDTH + c
    for a in range(2):
        k = s.new_visit[e, a]
        if k >= 0:
            visited[k // WIDTH, k % WIDTH] = 1


@hot
def enemy_contact(s, p, e):
    """Phase 7: a living runner sharing its cell with a living enemy dies."""
    pos, alive = s.runner_pos[e], s.runner_alive[e]
    enemy_pos, enemy_alive, n = s.enemy_pos[e], s.enemy_alive[e], s.num_enemies[e]
    for a in range(2):
        if not alive[a]:
            continue
        hit = False
        for i in range(n):
            if enemy_alive[i]:
                if enemy_pos[i, 0] == pos[a, 0] and enemy_pos[i, 1] == pos[a, 1]:
                    hit = True
        if hit:
            kill_runner(s, p, e, a)


@phase
def play_turn(s, p, e, actions):
    """One turn of env e (the phases above); True when the game is over."""
    for a in range(2):
        s.died[e, a] = False
        s.new_visit[e, a] = -1
    plan_runners(s, p, e, actions)
    plan_enemies(s, p, e)
    move_characters(s, p, e)
    apply_digs(s, p, e)
    timed_events(s, p, e)
    collect_gold(s, p, e)
    visit_cells(s, p, e)
    enemy_contact(s, p, e)
    s.turn[e] += 1
    s.steps[e] += 1
    s.rank_key[e, 0] = s.scores[e, 0]
    s.rank_key[e, 1] = s.scores[e, 1]
    return s.turn[e] >= p.max_turns
