"""coderunner_v0 enemies: half speed, patrol traces, falls as program letters, pursuit
with its preference orders on both sides, the pursuit stack and the return."""

from botarena.envs.coderunner.constants import LEFT, NONE, RIGHT

from test_coderunner_rules import play, scenario


def enemy(game, i=0):
    return game.snapshot(0)["enemies"][i]


def test_half_speed_patrol_trace():
    g = scenario(["R..........B", "============"], enemies=[(0, 4, "RRLL")], chase_radius=0)
    trace = [enemy(g)]
    for _ in range(8):
        play(g, NONE)
        trace.append(enemy(g))
    assert trace == [(0, 4), (0, 5), (0, 5), (0, 6), (0, 6), (0, 5), (0, 5), (0, 4), (0, 4)]


def test_first_move_turn_one():
    g = scenario(["R..........B", "============"], enemies=[(0, 4, "RRLL")],
                 enemy_first_move_turn=1, chase_radius=0)
    play(g, NONE)
    assert enemy(g) == (0, 4)
    play(g, NONE)
    assert enemy(g) == (0, 5)


def test_falls_consume_program_letters_and_count_as_moves():
    # walks right off a ledge, falls two cells (two B letters, one per turn), and, a fall
    # step being the enemy's move for its every-other-turn clock, walks back two turns
    # after it landed (the original engine; rules/coderunner.md, 2026-11-24)
    g = scenario(["R..H..B.....", "===H.=======", "===H.=======", "============"],
                 enemies=[(0, 3, "RBBLTT")], chase_radius=0)
    trace = [enemy(g)]
    for _ in range(7):
        play(g, NONE)
        trace.append((enemy(g), g.snapshot(0)["enemy_pc"][0]))
    assert trace[1] == ((0, 4), 1)      # turn 0: right, off the ledge
    assert trace[2] == ((1, 4), 2)      # turn 1: falls (B)
    assert trace[3] == ((2, 4), 3)      # turn 2: falls (B)
    assert trace[4] == ((2, 4), 3)      # turn 3: waits (its fall on turn 2 was its move)
    assert trace[5] == ((2, 3), 4)      # turn 4: moves again (L)


def test_pursuit_within_radius_and_stack_return():
    # the enemy (radius 5) chases red along the floor, then returns along its stack
    g = scenario(["R.............B", "==============="], enemies=[(0, 6, "WAIT")])
    play(g, NONE)                       # turn 0: distance 6 > 5: waits
    assert enemy(g) == (0, 6)
    play(g, RIGHT)                      # turn 1: red to (0, 1)
    play(g, NONE)                       # turn 2: distance 5: chases left
    snap = g.snapshot(0)
    assert snap["enemies"][0] == (0, 5) and snap["enemy_stack"][0] == [LEFT]
    play(g, LEFT)                       # turn 3: red back to (0, 0)
    play(g, NONE)                       # turn 4: distance 5: chases again
    assert g.snapshot(0)["enemy_stack"][0] == [LEFT, LEFT]


def test_return_along_the_stack_when_runner_leaves():
    g = scenario(["R...........B", "=============", "============="], enemies=[(0, 6, "WAIT")])
    play(g, RIGHT, NONE)                # turn 0: dist 5 -> pursue at turn 0? red moved after
    snap = g.snapshot(0)
    assert snap["enemies"][0] == (0, 6)  # decided from the start of turn 0: distance 6
    play(g, NONE)                        # turn 1: no move
    play(g, NONE)                        # turn 2: distance 5: left
    assert enemy(g) == (0, 5)
    # red digs itself a hole and falls in: out of reach (removed bricks count as brick)
    play(g, NONE)
    assert g.snapshot(0)["enemy_stack"][0] == [LEFT, LEFT] or enemy(g) in ((0, 4), (0, 5))


def test_tie_between_runners_left_enemy_prefers_right_first_move():
    # both runners at distance 3; the left-side enemy's order T, R, B, L picks blue (right)
    g = scenario(["..R...B...", "=========="], enemies=[(0, 4, "WAIT")])
    # make it a right-side enemy mirror check with a second scenario below
    play(g, NONE)
    assert enemy(g) == (0, 5)
    g = scenario(["...........R...B....", "===================="],
                 enemies=[(0, 13, "WAIT")])
    play(g, NONE)                        # column 13 >= 12: right-side order T, L, B, R
    assert enemy(g) == (0, 12)


def test_enemies_trapped_die_and_respawn_with_program_reset():
    g = scenario(["R.........B", "===========", "==========="], enemies=[(0, 3, "LLRR")])
    play(g, DIG_RIGHT_ := 6)             # red digs (1, 1); enemy walks to (0, 2)
    play(g, NONE, NONE, NONE)            # turn 2: (0, 1) above the hole; 3: falls in
    snap = g.snapshot(0)
    assert snap["enemy_trapped"][0]
    while g.snapshot(0)["turn"] < 26:    # restored during turn 25
        play(g, NONE)
    snap = g.snapshot(0)
    assert snap["enemies"][0] == (-1, -1)
    assert snap["enemy_master"][0] == 0
    assert snap["scores"][0] >= 20
    # killed on turn K = 25: absent from the states of turns K+1 .. K+25, back at its
    # respawn cell (in turn K+25's timed events) from turn K+26's state, moving from then on
    killed = snap["turn"] - 1
    while g.snapshot(0)["turn"] < killed + 25:
        play(g, NONE)
    assert g.snapshot(0)["enemies"][0] == (-1, -1)
    play(g, NONE)
    snap = g.snapshot(0)
    assert snap["turn"] == killed + 26 and snap["enemy_next"][0] == killed + 26
    assert snap["enemies"][0] == (0, 3) and snap["enemy_pc"][0] == 0
    assert snap["enemy_stack"][0] == []
