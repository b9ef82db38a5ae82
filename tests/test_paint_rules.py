"""paint_v0 rule scenarios: one test per paragraph of the seed's resolution algorithm
(shared/seeds/paint.txt) and of shared/rules/paint.md.

Each scenario is an ASCII board before, the players' actions, and the ASCII board and
scores after.  ``.`` neutral, ``#`` obstacle, ``a``.. paint of player 0.., ``A``.. the
avatars (standing on their own paint).  Rows are listed top (row 0) to bottom.
"""
import numpy as np
import pytest

import botarena
from botarena.envs.paint_v0 import Action, Config, PaintGame

from paint_helpers import (DIRS, STAY, count_colours, new_game, play, play_game,
                           reference_turn, scores, shoot, step, walk)


def check(before, turns, after, expected_scores, **config):
    """Play ``turns`` on ``before``; assert the board and scores after."""
    snap = play(before, *turns, **config)
    assert snap["board"] == after
    assert scores(snap) == expected_scores
    # the score is the number of squares of each colour
    assert scores(snap) == count_colours(after, len(expected_scores))
    return snap


# -- 1. walks ------------------------------------------------------------------------

def test_walk_moves_and_paints_the_target():
    check(["A...", "...B"], [[walk("E"), STAY]],
          ["aA..", "...B"], [2, 1])


def test_walk_diagonal_paints_the_target():
    check(["A...", "....", "...B"], [[walk("SE"), walk("NW")]],
          ["a...", ".AB.", "...b"], [2, 2])


@pytest.mark.parametrize("d", range(8))
def test_each_walk_direction(d):
    dr, dc = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)][d]
    game = new_game([".....", ".....", "..A..", ".....", "....B"])
    snap = step(game, [walk(DIRS[d]), STAY])
    assert snap["positions"][0].tolist() == [2 + dr, 2 + dc]
    assert snap["colour"][2, 2] == 1 and snap["colour"][2 + dr, 2 + dc] == 1
    assert scores(snap) == [2, 1]


@pytest.mark.parametrize("direction", ["N", "NE", "NW", "W", "SW"])
def test_walk_off_the_board_is_dropped(direction):
    # A in the top-left corner: N, NE, NW, W and SW leave the board
    check(["A..", "..B"], [[walk(direction), walk("SE")]],
          ["A..", "..B"], [1, 1])


def test_walk_onto_an_obstacle_is_dropped():
    check(["A#.", "#.B"], [[walk("E"), STAY]], ["A#.", "#.B"], [1, 1])
    check(["A#.", "#.B"], [[walk("S"), STAY]], ["A#.", "#.B"], [1, 1])
    # diagonal between two obstacles is allowed (only the target square matters)
    check(["A#.", "#.B"], [[walk("SE"), walk("N")]], ["a#B", "#Ab"], [2, 2])


def test_dropped_walk_still_paints_the_avatar_square_and_blocks_others():
    # A walks off the board (dropped, so A stands still); B walking onto A fails
    check(["AB"], [[walk("W"), walk("W")]], ["AB"], [1, 1])


# -- 2. collisions -------------------------------------------------------------------

def test_two_walkers_into_one_square_both_stay():
    check(["A.B"], [[walk("E"), walk("W")]], ["A.B"], [1, 1])


def test_two_diagonal_walkers_into_one_square_both_stay():
    check(["A.B", "...", "..."], [[walk("SE"), walk("SW")]], ["A.B", "...", "..."], [1, 1])


def test_three_walkers_into_one_square_all_stay():
    check(["A.B", "...", ".C."], [[walk("SE"), walk("SW"), walk("N")]],
          ["A.B", "...", ".C."], [1, 1, 1])


def test_walking_onto_a_standing_player_fails():
    check(["AB."], [[walk("E"), STAY]], ["AB."], [1, 1])


def test_walking_onto_a_shooting_player_fails_and_the_shot_flies():
    # B shoots E (the square behind it is A's: range 1) while A tries to walk onto B
    check(["AB.."], [[walk("E"), shoot("E")]], ["ABb."], [1, 2])


def test_chain_undo_cascades():
    # B and C collide on square 2; B goes back to square 1, where A arrived: A goes back
    check(["AB.C"], [[walk("E"), walk("E"), walk("W")]], ["AB.C"], [1, 1, 1])


def test_long_chain_undo_cascades_three_times():
    # C and D collide on 3 -> C back to 2 (B there) -> B back to 1 (A there) -> A back
    check(["ABC.D"], [[walk("E"), walk("E"), walk("E"), walk("W")]],
          ["ABC.D"], [1, 1, 1, 1])


def test_chain_undo_leaves_unrelated_walkers_alone():
    # same chain on row 0; D on row 1 walks freely
    check(["AB.C", "D..."], [[walk("E"), walk("E"), walk("W"), walk("E")]],
          ["AB.C", "dD.."], [1, 1, 1, 2])


def test_follow_the_leader_succeeds():
    # everybody walks E into the square the next one leaves
    check(["ABC."], [[walk("E"), walk("E"), walk("E")]], ["aABC"], [2, 1, 1])


def test_adjacent_walkers_swap():
    check(["AB"], [[walk("E"), walk("W")]], ["BA"], [1, 1])


def test_diagonal_swap_and_crossing_paths_succeed():
    check(["A.", ".B"], [[walk("SE"), walk("NW")]], ["B.", ".A"], [1, 1])
    # crossing diagonals (no common square) both succeed
    check(["AB", ".."], [[walk("SE"), walk("SW")]], ["ab", "BA"], [2, 2])


def test_three_way_rotation_succeeds():
    # A -> B's square, B -> C's square, C -> A's square
    check(["AB", "C."], [[walk("E"), walk("SW"), walk("N")]], ["CA", "B."], [1, 1, 1])


def test_swap_inside_a_collision_cascades_back():
    # A and B swap, but C also walks onto B's old square (0, 1) with A: A and C go back;
    # A's return puts two avatars on (0, 0) (A and B): B goes back too
    check(["AB", ".C"], [[walk("E"), walk("W"), walk("N")]], ["AB", ".C"], [1, 1, 1])


# -- 3. every avatar paints its square every turn -------------------------------------

def _plant_enemy_paint_under(game, player, owner):
    """White-box: put ``owner``'s paint under ``player``'s avatar (keeping the scores)."""
    s = game.state
    r, c = s.positions[0, player]
    s.colour[0, r, c] = owner + 1
    s.scores[0, player] -= 1
    s.scores[0, owner] += 1
    s.prev_scores[0] = s.scores[0]


@pytest.mark.parametrize("action", [STAY, shoot("E"), walk("N")])
def test_idlers_shooters_and_blocked_walkers_repaint_their_square(action):
    # No legal move leaves an avatar on another colour, so plant B's paint under A.
    game = new_game(["A..", "..B"])
    _plant_enemy_paint_under(game, 0, 1)
    assert scores(game.snapshot(0)) == [0, 2]
    snap = step(game, [action, STAY])
    assert snap["colour"][0, 0] == 1
    expected = ["Aa.", "..B"] if action == shoot("E") else ["A..", "..B"]
    assert snap["board"] == expected
    assert scores(snap) == count_colours(expected, 2)


def test_walkers_paint_over_enemy_paint():
    check(["Ab.", "..B"], [[walk("E"), STAY]], ["aA.", "..B"], [2, 1])


# -- 4. shot range: max(1, k), k = own contiguous line behind, after step 3 ----------

def test_shot_without_a_line_behind_flies_one_square():
    check(["A.....", ".....B"], [[shoot("E"), STAY]], ["Aa....", ".....B"], [2, 1])


def test_shot_range_is_the_line_behind():
    check(["aaA......", "........B"], [[shoot("E"), STAY]],
          ["aaAaa....", "........B"], [5, 1])
    check(["aaaA.....", "........B"], [[shoot("E"), STAY]],
          ["aaaAaaa..", "........B"], [7, 1])


def test_shot_range_line_broken_by_a_gap():
    check(["a.aA.....", "........B"], [[shoot("E"), STAY]],
          ["a.aAa....", "........B"], [4, 1])


def test_shot_range_line_broken_by_another_colour():
    check(["abaA.....", "........B"], [[shoot("E"), STAY]],
          ["abaAa....", "........B"], [4, 2])


def test_shot_range_line_broken_by_an_obstacle():
    check(["a#aA.....", "........B"], [[shoot("E"), STAY]],
          ["a#aAa....", "........B"], [4, 1])


def test_shot_range_ignores_own_paint_in_front():
    # paint in front of the shooter does not count; the line behind is the board edge
    check(["Aaa....", "......B"], [[shoot("E"), STAY]], ["Aaa....", "......B"], [3, 1])
    check(["Aaa....", "......B"], [[shoot("W"), STAY]], ["Aaa....", "......B"], [3, 1])


def test_shot_range_line_behind_counted_after_walks():
    # B walks onto A's line (row 0, col 1) in the same turn: k = 1, not 3
    check(["aaaA.....", "B........"], [[shoot("E"), walk("NE")]],
          ["aBaAa....", "b........"], [4, 2])


def test_shot_ranges_are_aimed_before_any_shot_flies():
    # B's shot paints (1, 1) inside A's line this turn, but A's range (3) was counted first
    check([".B......", "aaaA...."], [[shoot("E"), shoot("S")]],
          [".B......", "abaAaaa."], [6, 2])


def test_walk_on_the_previous_turn_lengthens_the_shot():
    check(["aA......", "B......."], [[walk("E"), STAY], [shoot("E"), STAY]],
          ["aaAaa...", "B......."], [5, 1])


def test_swap_partner_paint_breaks_the_line():
    # A and B swap (turn 1); on turn 2 the square behind A is B's: A's range is 1
    check(["aAB...", "......"], [[walk("E"), walk("W")], [shoot("E"), STAY]],
          ["aBAa..", "......"], [3, 1])


def test_diagonal_shot_range():
    check(["a....", ".a...", "..A..", ".....", "B...."], [[shoot("SE"), STAY]],
          ["a....", ".a...", "..A..", "...a.", "B...a"], [5, 1])


@pytest.mark.parametrize("d", range(8))
def test_each_shot_direction(d):
    dr, dc = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)][d]
    game = new_game([".....", ".....", "..A..", ".....", "....B"])
    # nothing behind A: range 1 in every direction
    snap = step(game, [shoot(DIRS[d]), STAY])
    if (2 + dr, 2 + dc) == (4, 4):
        pytest.fail("test board must keep B off the shooting squares")
    assert snap["colour"][2 + dr, 2 + dc] == 1
    assert scores(snap) == [2, 1]


@pytest.mark.parametrize("d", range(8))
def test_each_shot_direction_with_a_line_behind(d):
    dr, dc = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)][d]
    rows = [list(".......") for _ in range(7)]
    rows[3][3] = "A"
    rows[3 - 2 * dr][3 - 2 * dc] = "a"
    rows[3 - dr][3 - dc] = "a"
    b = (1, 2)   # a knight's move from A: on none of A's eight lines
    rows[b[0]][b[1]] = "B"
    snap = play(["".join(r) for r in rows], [shoot(DIRS[d]), STAY])
    assert snap["colour"][3 + dr, 3 + dc] == 1
    assert snap["colour"][3 + 2 * dr, 3 + 2 * dc] == 1
    assert snap["colour"][3 + 3 * dr, 3 + 3 * dc] == 0
    assert scores(snap) == [5, 1]


# -- 5. shot flight: edge, obstacle, avatar, shots, squares shot this turn ----------

def test_shot_stops_at_the_board_edge():
    check(["aaaaA.", "B....."], [[shoot("E"), STAY]], ["aaaaAa", "B....."], [6, 1])


def test_shot_into_the_edge_at_once_paints_nothing():
    check(["aaA", "B.."], [[shoot("E"), STAY]], ["aaA", "B.."], [3, 1])


def test_shot_stops_at_an_obstacle():
    check(["aaaA.#..", "B......."], [[shoot("E"), STAY]],
          ["aaaAa#..", "B......."], [5, 1])


def test_shot_stops_at_an_avatar():
    check(["aaaA.B..", "........"], [[shoot("E"), STAY]],
          ["aaaAaB..", "........"], [5, 1])


def test_shot_at_an_adjacent_avatar_paints_nothing():
    check(["aaaAB...", "........"], [[shoot("E"), STAY]],
          ["aaaAB...", "........"], [4, 1])


def test_shot_stops_at_an_avatar_that_walked_into_its_path():
    check(["aaaA....", "....B..."], [[shoot("E"), walk("N")]],
          ["aaaAB...", "....b..."], [4, 2])


def test_shot_flies_through_the_square_a_walker_left():
    # B's old square keeps its paint until the shot paints it over
    check(["aaA.B.", "......"], [[shoot("E"), walk("S")]],
          ["aaAaa.", "....B."], [5, 1])


def test_shot_paints_over_enemy_colour():
    check(["aaA.bbb", "......B"], [[shoot("E"), STAY]],
          ["aaAaabb", "......B"], [5, 3])


def test_shot_stops_at_a_diagonal_avatar():
    check(["a....", ".A...", ".....", "...B.", "....."], [[shoot("SE"), STAY]],
          ["a....", ".A...", "..a..", "...B.", "....."], [3, 1])


def test_check_case_1x5_range_one_shots_at_each_other():
    # rules/paint.md: on a 1x5 board shooters at both ends with range 1 paint a a . b b
    snap = check(["A...B"], [[shoot("E"), shoot("W")]], ["Aa.bB"], [2, 2])
    assert snap["colour"].tolist() == [[1, 1, 0, 2, 2]]


def test_check_case_1x5_walkers_into_one_square_and_swap():
    check(["A.B.."], [[walk("E"), walk("W")]], ["A.B.."], [1, 1])
    check(["AB..."], [[walk("E"), walk("W")]], ["BA..."], [1, 1])


def test_head_on_shots_three_squares_apart_leave_the_middle_untouched():
    # squares between the shooters: 3 (odd), column distance 4: the middle stays neutral
    check(["aaaA...Bbbb"], [[shoot("E"), shoot("W")]], ["aaaAa.bBbbb"], [5, 5])


def test_head_on_shots_two_squares_apart_paint_both():
    # squares between: 2 (even), column distance 3: each paints its first square, then
    # each arrives on the square the other painted and stops
    check(["aaaA..Bbbb"], [[shoot("E"), shoot("W")]], ["aaaAabBbbb"], [5, 5])


def test_head_on_shots_one_square_apart_paint_nothing():
    check(["aaA.Bbb"], [[shoot("E"), shoot("W")]], ["aaA.Bbb"], [3, 3])


def test_head_on_shots_adjacent_paint_nothing():
    check(["aaABbb"], [[shoot("E"), shoot("W")]], ["aaABbb"], [3, 3])


def test_head_on_shots_long_distance_even_and_odd():
    # ranges 5; 7 squares between (odd count): middle square 9 untouched
    check(["aaaaaA.......Bbbbbb"], [[shoot("E"), shoot("W")]],
          ["aaaaaAaaa.bbbBbbbbb"], [9, 9])
    # ranges 5; 6 squares between (even count): all painted, split in the middle
    check(["aaaaaA......Bbbbbb"], [[shoot("E"), shoot("W")]],
          ["aaaaaAaaabbbBbbbbb"], [9, 9])


def test_head_on_shots_unequal_ranges():
    # A's range 3, B's range 1 (edge behind): B's square is painted first, A flies on
    check(["aaaA....B"], [[shoot("E"), shoot("W")]], ["aaaAaaabB"], [7, 2])


def test_head_on_shot_stops_on_a_square_painted_by_an_earlier_shorter_shot():
    # B's range-1 shot paints col 7 in round 1 and ends; A's range-4 shot paints 5, 6, 7?
    # No: it paints 5 and 6, then arrives on col 7 (painted by a shot this turn): stopped.
    check(["aaaaA...B"], [[shoot("E"), shoot("W")]], ["aaaaAaabB"], [7, 2])


def test_diagonal_head_on_shots():
    # A shoots SE, B shoots NW with 3 squares between: the middle (2, 2) stays neutral
    board = ["a.....", ".A....", "......", "......", "....B.", ".....b"]
    after = ["a.....", ".A....", "..a...", "...b..", "....B.", ".....b"]
    # squares between: (2,2) and (3,3): 2 (even): both painted
    check(board, [[shoot("SE"), shoot("NW")]], after, [3, 3])
    board = ["a......", ".A.....", ".......", ".......", ".......", ".....B.", "......b"]
    after = ["a......", ".A.....", "..a....", ".......", "....b..", ".....B.", "......b"]
    check(board, [[shoot("SE"), shoot("NW")]], after, [3, 3])


def test_diagonal_shots_crossing_between_squares_both_paint():
    # SE and SW shots swap places diagonally without sharing a square: both paint on
    board = ["a..b", ".AB.", "....", "...."]
    after = ["a..b", ".AB.", ".ba.", "...."]
    check(board, [[shoot("SE"), shoot("SW")]], after, [3, 3])
    # with ranges 2 they fly on past each other
    board = ["a....b", ".a..b.", "..AB..", "......", "......"]
    after = ["a....b", ".a..b.", "..AB..", "..ba..", ".b..a."]
    check(board, [[shoot("SE"), shoot("SW")]], after, [5, 5])


def test_perpendicular_shots_arriving_together_both_stop():
    board = [".........",
             "aaaA.....",
             ".........",
             ".....B...",
             ".....b...",
             ".....b..."]
    after = [".........",
             "aaaAa....",
             ".....b...",
             ".....B...",
             ".....b...",
             ".....b..."]
    # both reach (1, 5) in round 2: both stop there, (1, 5) and (1, 6) stay neutral
    check(board, [[shoot("E"), shoot("N")]], after, [5, 4])


def test_perpendicular_shot_arriving_later_stops_on_the_painted_square():
    board = [".........",
             "aaaaA....",
             ".........",
             ".....B...",
             ".....b...",
             ".....b..."]
    after = [".........",
             "aaaaAaaaa",
             ".....b...",
             ".....B...",
             ".....b...",
             ".....b..."]
    # A's shot paints (1, 5) in round 1; B's arrives there in round 2 and stops; A's
    # flies on to the edge
    check(board, [[shoot("E"), shoot("N")]], after, [9, 4])


def test_perpendicular_shot_stops_on_a_square_painted_by_a_finished_shot():
    board = [".........",
             "aaaA.....",
             ".....B...",
             "........."]
    after = [".........",
             "aaaAab...",
             ".....B...",
             "........."]
    # B's range-1 shot paints (1, 5) in round 1 and ends; A's arrives in round 2: stops
    check(board, [[shoot("E"), shoot("N")]], after, [5, 2])


def test_three_shots_meeting_in_one_square_all_stop():
    check([".B.", "A.C", "..."], [[shoot("E"), shoot("S"), shoot("W")]],
          [".B.", "A.C", "..."], [1, 1, 1])


def test_a_square_where_shots_collided_stays_open_for_a_later_shot():
    board = ["...", "A.B", "...", ".C.", ".c.", ".c."]
    after = ["...", "AcB", ".c.", ".C.", ".c.", ".c."]
    # A and B collide on (1, 1) in round 1 (nothing painted); C's shot arrives in round 2
    check(board, [[shoot("E"), shoot("W"), shoot("N")]], after, [1, 1, 5])


def test_walk_painted_squares_do_not_stop_shots_by_themselves():
    # Every square painted by steps 2-3 holds an avatar while shots fly, so the rule
    # "walk-painting does not count" shows only as: the square a walker LEFT (painted by
    # it on an earlier turn) does not stop a shot, and the square it walked onto stops
    # the shot because of the avatar, not because of the paint.
    # B leaves (0, 5); C walks onto (0, 6): A's range-3 shot paints 4 and 5, stops on C
    check(["aaaA.B..", ".......C"], [[shoot("E"), walk("SE"), walk("NW")]],
          ["aaaAaaC.", "......Bc"], [6, 1, 2])


def test_shot_and_walk_on_one_turn_for_different_players():
    # A walks E (painting), B's range-3 shot W reaches A's new square: A stops it
    check(["A...Bbbb"], [[walk("E"), shoot("W")]], ["aAbbBbbb"], [2, 6])


# -- 6. end of the game, rewards, ranks ----------------------------------------------

def test_game_ends_after_max_turns():
    game = new_game(["A.", ".B"], max_turns=3)
    snap = game.snapshot(0)
    assert snap["turns_left"] == 3 and not snap["over"] and snap["steps"] == 0
    for turn in range(1, 4):
        snap = step(game, [STAY, STAY])
        assert snap["turns_left"] == 3 - turn
        assert snap["steps"] == turn
        assert snap["over"] == (turn == 3)
        assert game.terminated[0].tolist() == [turn == 3] * 2
        assert game.truncated[0].tolist() == [False, False]
    # an ended env is not stepped any more by the batched game
    before = game.snapshot(0)
    after = step(game, [walk("E"), STAY])
    assert after["board"] == before["board"] and after["turns_left"] == 0


def test_default_max_turns_is_ten_per_column():
    game = PaintGame(Config(board="A....\n....B"), num_envs=1)
    game.reset(seed=0)
    assert game.snapshot(0)["turns_left"] == 50


def test_parallel_env_terminates_everybody_together():
    env = botarena.parallel_env("paint_v0", board="A..\n..B", max_turns=2)
    obs, infos = env.reset(seed=1)
    assert env.agents == ["player_0", "player_1"]
    _, rew, term, trunc, infos = env.step({"player_0": int(Action.WALK_E), "player_1": 0})
    assert term == {"player_0": False, "player_1": False}
    assert rew == {"player_0": 1.0, "player_1": 0.0}
    assert infos["player_0"]["score"] == 2 and infos["player_1"]["score"] == 1
    _, rew, term, trunc, infos = env.step({"player_0": 0, "player_1": int(Action.SHOOT_W)})
    assert term == {"player_0": True, "player_1": True}
    assert trunc == {"player_0": False, "player_1": False}
    assert env.agents == []
    assert env.snapshot()["board"] == ["aA.", ".bB"]
    assert env.snapshot()["over"] and env.snapshot()["turns_left"] == 0
    with pytest.raises(RuntimeError, match="ended"):
        env.step({"player_0": 0, "player_1": 0})


def test_max_steps_truncates():
    env = botarena.parallel_env("paint_v0", board="A..\n..B", max_turns=10, max_steps=2)
    env.reset(seed=0)
    _, _, term, trunc, _ = env.step({})
    assert not any(term.values()) and not any(trunc.values())
    _, _, term, trunc, _ = env.step({})
    assert not any(term.values()) and all(trunc.values())
    assert env.agents == []


SCORE_BOARD = ["aaA.b.", ".....B"]
SCORE_TURN = [shoot("E"), walk("N")]
# A's shot paints (0,3) and takes (0,4) from b; B walks N painting (0,5): [3, 2] -> [5, 2]
SCORE_AFTER = ["aaAaaB", ".....b"]


def test_reward_score_is_the_change_of_own_squares():
    game, snap = play_game(SCORE_BOARD, SCORE_TURN, reward="score")
    assert snap["board"] == SCORE_AFTER and scores(snap) == [5, 2]
    assert game.rewards[0].tolist() == [2.0, 0.0]


def test_reward_zero_sum_is_the_change_of_the_margin():
    # margins before: 3-2 = 1, 2-3 = -1; after: 5-2 = 3, 2-5 = -3
    game, snap = play_game(SCORE_BOARD, SCORE_TURN, reward="zero_sum")
    assert game.rewards[0].tolist() == [2.0, -2.0]


def test_reward_zero_sum_three_players_uses_the_best_opponent():
    # scores [3, 1, 1] -> [5, 2, 1]; margins before [2, -2, -2], after [3, -3, -4]
    board = ["aaA..", "B....", "C...."]
    game, snap = play_game(board, [shoot("E"), walk("E"), STAY], reward="zero_sum")
    assert snap["board"] == ["aaAaa", "bB...", "C...."]
    assert scores(snap) == [5, 2, 1]
    assert game.rewards[0].tolist() == [1.0, -1.0, -2.0]
    game, snap = play_game(board, [shoot("E"), walk("E"), STAY], reward="score")
    assert game.rewards[0].tolist() == [2.0, 1.0, 0.0]


def test_reward_zero_sum_sums_to_the_final_margin():
    game = new_game(["aaA..", "....B"], reward="zero_sum", max_turns=3)
    total = np.zeros(2)
    for actions in ([shoot("E"), walk("W")], [walk("S"), walk("W")], [STAY, shoot("N")]):
        step(game, actions)
        total += game.rewards[0]
    final = scores(game.snapshot(0))
    start = [3, 1]
    assert total.tolist() == [(final[0] - final[1]) - (start[0] - start[1]),
                              (final[1] - final[0]) - (start[1] - start[0])]


def test_reward_win_loss_is_zero_until_the_end():
    game, snap = play_game(SCORE_BOARD, SCORE_TURN, reward="win_loss", max_turns=2)
    assert game.rewards[0].tolist() == [0.0, 0.0] and not snap["over"]
    snap = step(game, [STAY, STAY])
    assert snap["over"] and scores(snap) == [5, 2]
    assert game.rewards[0].tolist() == [1.0, -1.0]


def test_reward_win_loss_draw_is_zero():
    game, snap = play_game(["A.", ".B"], [STAY, STAY], reward="win_loss", max_turns=1)
    assert snap["over"] and scores(snap) == [1, 1]
    assert game.rewards[0].tolist() == [0.0, 0.0]


def test_reward_win_loss_three_players_shared_first_rank():
    board = ["A..", "B..", "C.."]
    game, snap = play_game(board, [walk("E"), walk("E"), STAY], reward="win_loss", max_turns=1)
    assert scores(snap) == [2, 2, 1]
    assert game.rewards[0].tolist() == [0.0, 0.0, -1.0]
    game, snap = play_game(board, [walk("E"), STAY, STAY], reward="win_loss", max_turns=1)
    assert scores(snap) == [2, 1, 1]
    assert game.rewards[0].tolist() == [1.0, -1.0, -1.0]


def test_rewards_through_the_parallel_env():
    env = botarena.parallel_env("paint_v0", board="\n".join(SCORE_BOARD), reward="zero_sum",
                                max_turns=5)
    env.reset(seed=0)
    _, rew, _, _, infos = env.step({"player_0": SCORE_TURN[0], "player_1": SCORE_TURN[1]})
    assert rew == {"player_0": 2.0, "player_1": -2.0}
    assert [infos[a]["score"] for a in ("player_0", "player_1")] == [5, 2]


# -- bundled boards (rules/paint.md) --------------------------------------------------

@pytest.mark.parametrize("name, shape, turns, starts, painted", [
    ("10x10", (10, 10), 100, [[0, 0], [9, 9]], None),
    ("5x11", (5, 11), 110, [[2, 3], [2, 7]],
     [[[1, 1], [1, 2], [2, 1], [2, 2], [2, 3]], [[2, 7], [2, 8], [2, 9], [3, 8], [3, 9]]]),
    ("7x13", (7, 13), 130, [[3, 1], [3, 11]], None),
    ("7x13b", (7, 13), 130, [[5, 5], [1, 7]], None),
])
def test_bundled_boards(name, shape, turns, starts, painted):
    game = PaintGame(Config(board=name), num_envs=1)
    game.reset(seed=0)
    snap = game.snapshot(0)
    assert snap["colour"].shape == shape
    assert snap["turns_left"] == turns
    assert snap["positions"].tolist() == starts
    if painted is None:
        painted = [[s] for s in starts]     # only the start squares are painted
    for p, squares in enumerate(painted):
        got = sorted(map(list, zip(*np.nonzero(snap["colour"] == p + 1))))
        assert got == sorted(squares)
    assert scores(snap) == [len(s) for s in painted]
    assert not (snap["colour"] == -1).any()


# -- cross-check against a plain-Python reading of the rules ---------------------------

ROW_PLAY = [int(Action.WALK_E), int(Action.WALK_W)] * 2 + [
    int(Action.SHOOT_E), int(Action.SHOOT_W), int(Action.SHOOT_N), int(Action.SHOOT_S)]


@pytest.mark.parametrize("config, choices", [
    (dict(width=5, height=5, num_players=8, obstacle_density=0.15, symmetric=False), None),
    (dict(width=7, height=3, num_players=6, obstacle_density=0.1, symmetric=True), None),
    (dict(width=9, height=9, num_players=4, obstacle_density=0.2, symmetric=True), None),
    (dict(width=4, height=4, num_players=12, obstacle_density=0.0, symmetric=False), None),
    # walks along rows build long lines, so long shots meet and cross (shot-painted stops)
    (dict(width=8, height=8, num_players=6, obstacle_density=0.0, symmetric=True), ROW_PLAY),
])
def test_kernel_matches_a_plain_python_reading_of_the_rules(config, choices):
    num_envs, n = 6, config["num_players"]
    game = PaintGame(Config(board="random", max_turns=60, **config), num_envs=num_envs)
    game.reset(seed=5)
    rng = np.random.default_rng(1)
    for turn in range(60):
        if choices is None:
            actions = rng.integers(0, 17, size=(num_envs, n))
        else:
            actions = rng.choice(choices, size=(num_envs, n))
        before = [game.snapshot(e) for e in range(num_envs)]
        game.step(actions)
        for e in range(num_envs):
            colour, positions, expected_scores = reference_turn(
                before[e]["colour"], before[e]["positions"], actions[e])
            snap = game.snapshot(e)
            assert snap["positions"].tolist() == positions.tolist(), (turn, e)
            assert np.array_equal(snap["colour"], colour), (turn, e, before[e]["board"],
                                                            actions[e].tolist())
            assert scores(snap) == expected_scores
