"""coderunner_v0 rule scenarios: one test per numbered rule of the seed
(shared/seeds/coderunner.txt) and per decision and special case of
shared/rules/coderunner.md.

A scenario is a small ASCII board (placed at the top-left of the 16 x 25 map, the rest
brick), the runners' actions, and the board (``r``/``b`` runners, ``E`` enemies, ``T``
trapped enemies, ``-`` removed bricks) and scores after.  Scenario maps are built as
``MapData`` directly (no symmetry check), so they can be tiny.
"""
import numpy as np
import pytest

from botarena.envs.coderunner.constants import (BOTTOM, BRICK, CHAR_CELLS, DIG_LEFT,
                                                DIG_RIGHT, HEIGHT, LEFT, NONE, PROGRAM_LETTERS,
                                                RIGHT, TOP, WIDTH)
from botarena.envs.coderunner.maps import MapData
from botarena.envs.coderunner_v0 import CodeRunnerGame, Config

WAIT = "WAIT"   # an enemy program that never moves (see ``scenario``)


def scenario(rows, enemies=(), **config):
    """A game of one env on ``rows`` (R, B the runners) with ``enemies`` given as
    (row, col, program letters); program ``WAIT`` is replaced by a move into a brick."""
    cells = np.full((HEIGHT, WIDTH), BRICK, dtype=np.uint8)
    spawns = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "RB":
                spawns[ch] = (r, c)
                ch = "."
            cells[r, c] = CHAR_CELLS[ch]
    listed = []
    for r, c, prog in enemies:
        if prog == WAIT:
            prog = "T"   # TOP without a ladder: never legal, the enemy waits
        listed.append((r, c, tuple(PROGRAM_LETTERS[x] for x in prog)))
    data = MapData(cells, (spawns["R"], spawns["B"]), listed, "scenario")
    game = CodeRunnerGame(Config(board=data, **config), 1)
    game.reset(0)
    game.view_size = (len(rows), len(rows[0]))
    return game


def view(game):
    h, w = game.view_size
    return [row[:w] for row in game.ansi_rows(0)[:h]]


def play(game, *turns):
    """Play turns given as (red, blue) pairs (an int: red's action, blue NONE)."""
    for t in turns:
        red, blue = (t, NONE) if isinstance(t, int) else t
        game.step(np.array([[red, blue]], dtype=np.int64))
    return game.snapshot(0)


def scores(game):
    return [int(x) for x in game.snapshot(0)["scores"]]


def mask(game, a=0):
    return [int(x) for x in game.masks[0, a]]


# -- runner moves: rules 1-7 ----------------------------------------------------------------

def test_rule1_none_is_always_legal():
    g = scenario(["R...B", "====="])
    assert mask(g)[NONE] == 1
    play(g, NONE)
    assert view(g) == ["r...b", "====="]
    assert scores(g) == [1, 1]


def test_walk_right_and_first_visit_point():
    g = scenario(["R...B", "====="])
    play(g, RIGHT)
    assert view(g) == [".r..b", "====="]
    assert scores(g) == [2, 1]
    play(g, LEFT)                     # back to a visited cell: no point
    assert scores(g) == [2, 1]


def test_first_visit_one_set_for_both_runners():
    # a cell the opponent already stood on gives nothing (rules/coderunner.md, Scoring)
    g = scenario(["R..B.", "====="])
    play(g, (RIGHT, LEFT))
    assert view(g) == [".rb..", "====="]
    assert scores(g) == [2, 2]
    play(g, (RIGHT, LEFT))               # each steps onto the other's earlier cell
    assert view(g) == [".br..", "====="]
    assert scores(g) == [2, 2]
    play(g, (RIGHT, NONE))               # red onto blue's start cell: visited
    assert scores(g) == [2, 2]
    play(g, (RIGHT, NONE))               # (0, 4): nobody's yet
    assert view(g) == [".b..r", "====="]
    assert scores(g) == [3, 2]


def test_first_visit_same_turn_both_score():
    g = scenario(["R.B..", "====="])
    play(g, (RIGHT, LEFT))               # both reach (0, 1) in the same turn
    assert view(g) == [".r...", "====="] or view(g) == [".b...", "====="]
    assert g.snapshot(0)["runners"] == [(0, 1), (0, 1)]
    assert scores(g) == [2, 2]


def test_rule2_cannot_leave_the_map():
    g = scenario(["R...B", "====="])
    assert mask(g)[LEFT] == 0 and mask(g)[TOP] == 0
    play(g, LEFT)
    play(g, TOP)
    assert view(g) == ["r...b", "====="]


def test_rule2_no_climbing_from_row_zero_even_on_a_ladder():
    g = scenario(["H..B", "H===", "HR==", "===="])
    play(g, LEFT, TOP, TOP)
    assert g.snapshot(0)["runners"][0] == (0, 0)
    assert mask(g)[TOP] == 0
    play(g, TOP)
    assert g.snapshot(0)["runners"][0] == (0, 0)


def test_rule3_cannot_enter_brick():
    g = scenario(["R=.B.", "====="])
    assert mask(g)[RIGHT] == 0
    play(g, RIGHT)
    assert view(g) == ["r=.b.", "====="]


def test_rule4_on_a_ladder_all_four_directions():
    g = scenario([".....", ".RHB.", "==H==", "..H..", "====="])
    play(g, RIGHT)
    assert mask(g)[LEFT] == mask(g)[RIGHT] == mask(g)[BOTTOM] == 1
    assert mask(g)[TOP] == 1
    play(g, TOP)
    assert g.snapshot(0)["runners"][0] == (0, 2)
    play(g, BOTTOM, BOTTOM, BOTTOM)
    assert g.snapshot(0)["runners"][0] == (3, 2)


def test_rule5_above_a_ladder_left_right_bottom_not_top():
    g = scenario(["R.B..", "==H==", "..H..", "====="])
    play(g, RIGHT)   # (0, 1): above brick
    play(g, RIGHT)   # (0, 2): above the ladder
    m = mask(g)
    assert m[LEFT] == m[RIGHT] == m[BOTTOM] == 1 and m[TOP] == 0
    play(g, BOTTOM)
    assert g.snapshot(0)["runners"][0] == (1, 2)


def test_rule6_above_brick_left_right_only():
    g = scenario(["R...B", "====="])
    m = mask(g)
    assert m[LEFT] == 0 and m[RIGHT] == 1 and m[TOP] == 0 and m[BOTTOM] == 0
    play(g, BOTTOM)
    assert view(g) == ["r...b", "====="]


def test_rule7_falling_one_cell_per_turn_ignoring_commands():
    g = scenario(["RB....", "=.====", "=.====", "=.====", "======"])
    play(g, RIGHT)
    assert g.snapshot(0)["runners"][0] == (0, 1)
    for row in (1, 2, 3):
        play(g, LEFT)      # ignored while falling
        assert g.snapshot(0)["runners"][0] == (row, 1)
    # blue, above the shaft, fell along one cell ahead: its first visits (one visited set
    # for both runners), so red has only its start cell's point
    assert scores(g) == [1, 4]
    assert mask(g)[LEFT] == 0 and mask(g)[RIGHT] == 0   # bricks on both sides


# -- digging -------------------------------------------------------------------------------

def test_dig_left_and_right_make_removed_bricks():
    g = scenario(["..R..B.", "=======", "======="])
    assert mask(g)[DIG_LEFT] == 1 and mask(g)[DIG_RIGHT] == 1
    snap = play(g, DIG_RIGHT)
    assert view(g) == ["..r..b.", "===-===", "======="]
    assert snap["dig_delay"][0] == 9
    assert snap["dug_by"] == {(1, 3): 1}


def test_dig_cooldown_ten_turns():
    g = scenario(["..R..B.", "=======", "======="])
    play(g, DIG_RIGHT)                              # turn 0
    for _ in range(9):                              # turns 1..9: refused
        assert mask(g)[DIG_LEFT] == 0
        play(g, DIG_LEFT)
    assert view(g)[1] == "===-==="
    assert mask(g)[DIG_LEFT] == 1
    play(g, DIG_LEFT)                               # turn 10
    assert view(g)[1] == "=-=-==="


def test_dig_side_cell_must_not_be_brick_or_ladder():
    g = scenario(["=R.HB.", "======", "======"])
    assert mask(g)[DIG_LEFT] == 0
    play(g, DIG_LEFT)
    assert view(g)[1] == "======"
    play(g, RIGHT)
    assert mask(g)[DIG_RIGHT] == 0     # ladder beside


def test_dig_target_must_be_brick():
    g = scenario(["..R..B", "==H===", "..H...", "======"])
    assert mask(g)[DIG_RIGHT] == 1 and mask(g)[DIG_LEFT] == 1
    play(g, LEFT)
    assert mask(g)[DIG_RIGHT] == 0     # ladder below-right


def test_dig_not_from_the_bottom_row():
    g = scenario(["=========", "R.......B"] + ["========="] * 13 + ["........."])
    play(g, RIGHT)
    assert mask(g)[DIG_LEFT] == 1      # row 1, bricks below
    g2 = scenario(["=" * 9] * 15 + ["R.......B"])
    assert mask(g2)[DIG_LEFT] == 0 and mask(g2)[DIG_RIGHT] == 0
    play(g2, DIG_RIGHT)
    assert g2.snapshot(0)["board"][15][:9] == "........."


def test_dig_needs_support_or_ladder():
    # on a ladder above empty: may dig; standing on a trapped enemy: may not
    g = scenario([".......", "..RH.B.", "=.=H===", "=======", "======="])
    play(g, RIGHT)            # onto the ladder (1, 3)
    assert mask(g)[DIG_RIGHT] == 1


def test_standing_on_a_trapped_enemy_does_not_allow_digging():
    g = scenario(["R.........B", "===========", "==========="], enemies=[(0, 3, "L")])
    play(g, DIG_RIGHT)        # red digs (1, 1); the enemy walks left to (0, 2)
    play(g, NONE)
    play(g, NONE)             # enemy moves at turn 2 onto (0, 1): above the hole
    play(g, NONE)             # falls into the hole at turn 3
    snap = g.snapshot(0)
    assert snap["enemy_trapped"][0] and snap["enemies"][0] == (1, 1)
    play(g, RIGHT, NONE)       # red walks over the trapped enemy's head
    assert g.snapshot(0)["runners"][0] == (0, 1)
    assert mask(g)[DIG_LEFT] == 0 and mask(g)[DIG_RIGHT] == 0
    assert mask(g)[RIGHT] == 1


# -- restoration, kills, respawn ----------------------------------------------------------

def test_brick_restored_after_25_turns():
    g = scenario(["..R..B.", "=======", "======="])
    play(g, DIG_RIGHT)                   # turn 0: restored at turn 25
    for _ in range(24):
        play(g, NONE)
    assert view(g)[1] == "===-==="
    play(g, NONE)
    assert view(g)[1] == "======="


def test_runner_killed_by_restored_brick_gives_opponent_300_and_respawns_after_50():
    g = scenario(["R..B......", "=========.", "=========="])
    play(g, (NONE, DIG_LEFT))            # blue digs (1, 2) at turn 0
    play(g, RIGHT)                       # red to (0, 1)
    play(g, RIGHT)                       # red to (0, 2): above the hole
    play(g, NONE)                        # falls into the hole (1, 2), stands on brick
    assert g.snapshot(0)["runners"][0] == (1, 2)
    assert mask(g)[LEFT] == 0 and mask(g)[TOP] == 0
    for _ in range(25 - 4):              # turns 4..24
        play(g, NONE)
    assert g.snapshot(0)["runners"][0] == (1, 2)
    snap = play(g, NONE)                 # turn 25: restored
    assert snap["runners"][0] == (-1, -1)
    assert scores(g) == [4, 1 + 300]
    assert snap["runner_respawn"][0] == 25 + 50
    while g.snapshot(0)["turn"] < 75:
        play(g, NONE)
    assert g.snapshot(0)["runners"][0] == (-1, -1)
    play(g, NONE)                        # turn 75: respawn
    assert g.snapshot(0)["runners"][0] == (0, 0)


def test_no_points_for_killing_yourself():
    g = scenario(["R.....B...", "=========.", "=========="])
    play(g, DIG_RIGHT, RIGHT, NONE)     # dig (1,1), walk onto it, fall in
    assert g.snapshot(0)["runners"][0] == (1, 1)
    while g.snapshot(0)["turn"] < 26:    # the brick is restored during turn 25
        play(g, NONE)
    assert g.snapshot(0)["runners"][0] == (-1, -1)
    assert scores(g) == [3, 1]


def test_both_runners_dig_the_same_brick():
    g = scenario(["R.B.......", "==========", "=========="])
    play(g, (DIG_RIGHT, DIG_LEFT))
    snap = g.snapshot(0)
    assert snap["dug_by"] == {(1, 1): 3}
    assert snap["dig_delay"] == [9, 9]


# -- gold ----------------------------------------------------------------------------------

def test_gold_collected_plus_100_and_respawns_after_150():
    g = scenario(["R*...B", "======"])
    play(g, RIGHT)
    assert view(g)[0] == ".r...b"
    assert scores(g) == [1 + 1 + 100, 1]
    snap = g.snapshot(0)
    assert snap["gold_turn"] == {(0, 1): 150}
    play(g, RIGHT)
    while g.snapshot(0)["turn"] < 150:
        play(g, NONE)
    assert g.snapshot(0)["board"][0][1] == "."
    play(g, NONE)
    assert g.snapshot(0)["board"][0][1] == "*"


def test_both_runners_on_one_gold_both_collect():
    g = scenario(["R.*.B", "====="])
    play(g, (RIGHT, LEFT))
    play(g, (RIGHT, LEFT))
    assert scores(g) == [103, 103]
    assert g.snapshot(0)["board"][0][2] == "."


# -- death by enemies ------------------------------------------------------------------------

def test_enemy_contact_kills():
    g = scenario(["R.......B", "========="], enemies=[(0, 2, "LR")])
    play(g, RIGHT)          # turn 0: red to (0, 1), enemy to (0, 1): same cell
    snap = g.snapshot(0)
    assert snap["runners"][0] == (-1, -1)
    assert scores(g) == [2, 1]                 # the visit counted, nothing for the death


def test_swap_kills_the_runner():
    g = scenario(["R.......B", "========="], enemies=[(0, 2, "LR")])
    play(g, NONE)   # turn 0: enemy moves to (0, 1)
    play(g, RIGHT)  # turn 1: enemy does not move: red walks into it
    assert g.snapshot(0)["runners"][0] == (-1, -1)
    g = scenario(["R.......B", "========="], enemies=[(0, 1, "RL")])
    play(g, NONE)     # turn 0: enemy to (0, 2)
    play(g, NONE)     # turn 1
    play(g, RIGHT)    # turn 2: red (0,0)->(0,1), enemy (0,2)->(0,1): same cell
    assert g.snapshot(0)["runners"][0] == (-1, -1)
    g = scenario([".R.......B", "=========="], enemies=[(0, 2, "LR")])
    play(g, RIGHT)    # turn 0: red (0,1)->(0,2), enemy (0,2)->(0,1): swap
    assert g.snapshot(0)["runners"][0] == (-1, -1)
    assert scores(g) == [1, 1]


def test_following_an_enemy_out_of_a_cell_is_safe():
    g = scenario(["R.......B", "========="], enemies=[(0, 1, "RL")], chase_radius=0)
    play(g, RIGHT)    # red into (0, 1) as the enemy leaves it for (0, 2)
    assert g.snapshot(0)["runners"][0] == (0, 1)


def test_runners_pass_through_each_other():
    g = scenario(["..RB..", "======"])
    play(g, (RIGHT, LEFT))
    assert g.snapshot(0)["runners"] == [(0, 3), (0, 2)]


# -- the four special cases -------------------------------------------------------------------

def test_special_runner_and_enemy_enter_gold_together():
    g = scenario(["R*.......B", "=========="], enemies=[(0, 2, "LR")])
    play(g, RIGHT)
    snap = g.snapshot(0)
    assert snap["runners"][0] == (-1, -1)
    assert scores(g) == [1 + 1 + 100, 1]
    assert snap["board"][0][1] == "."


def test_special_passing_through_an_enemy_to_gold_gets_no_gold():
    g = scenario([".R*.......B", "==========="], enemies=[(0, 2, "LR")])
    play(g, RIGHT)   # red (0,1)->(0,2) gold, enemy (0,2)->(0,1): swap
    snap = g.snapshot(0)
    assert snap["runners"][0] == (-1, -1)
    assert scores(g) == [1, 1]
    assert snap["board"][0][2] == "*"


def test_special_dig_under_an_enemy_that_steps_into_the_runner():
    g = scenario(["..R.......B", "==========="], enemies=[(0, 3, "LR")])
    play(g, DIG_RIGHT)   # the brick under the enemy goes; the enemy steps onto red
    snap = g.snapshot(0)
    assert snap["board"][1][3] == "-"
    assert snap["runners"][0] == (-1, -1)


def test_special_runner_and_enemy_enter_a_hole_as_it_is_restored():
    # red digs (1, 3) at turn 0 (restored at turn 25); at turn 25 red falls into it from
    # (0, 3) and the enemy (first move at turn 25) walks into it from (1, 4)
    g = scenario(["..R....B.", "====.====", "========="], enemies=[(1, 4, "LR")],
                 enemy_first_move_turn=25)
    play(g, DIG_RIGHT)
    while g.snapshot(0)["turn"] < 24:
        play(g, NONE)
    play(g, RIGHT)                       # turn 24: above the hole
    snap = play(g, NONE)                 # turn 25
    assert snap["runners"][0] == (-1, -1)
    assert snap["enemies"][0] == (-1, -1)
    assert snap["board"][1][3] == "="
    assert scores(g) == [1 + 1 + 20, 1]  # the enemy's 20, nothing for killing yourself
    assert snap["enemy_master"][0] == 0
    assert snap["enemy_radius"][0].tolist() == [4, 8]
