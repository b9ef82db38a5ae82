"""ants_v0 rule scenarios: one group per phase of shared/rules/ants.md (and the seed's two
focus_split examples).  Each scenario is an ASCII board before, the colonies' commands,
and the ASCII board and scores after (format in ``test_ants_helpers``).  Colonies keep an ant
parked on a far hill (``A``, ``B``) so that nobody is eliminated unless a test wants it.
"""
import numpy as np
import pytest

from test_ants_helpers import (E, N, S, W, new_game, play, reference_focus_split, scores,
                               turn, with_food)


# -- 1. moves ----------------------------------------------------------------------------

def test_moves_in_the_four_directions():
    before = ["A.......",
              "...a....",
              "........",
              "......%B"]
    for cmd, after_row1, after_row2, after_row0 in [
        (N, "........", "........", "A..a...."),
        (E, "....a...", "........", "A......."),
        (S, "........", "...a....", "A......."),
        (W, "..a.....", "........", "A......."),
    ]:
        _, snap = play(before, {0: {(3, 1): cmd}})
        assert snap["board"] == [after_row0, after_row1, after_row2, "......%B"]
        assert scores(snap) == [1, 1]


def test_moves_onto_water_or_off_the_map_are_ignored():
    _, snap = play(["a%.....",
                    ".......",
                    "A.....B"], {0: {(0, 0): E}})
    assert snap["board"] == ["a%.....", ".......", "A.....B"]
    _, snap = play(["a......",
                    ".......",
                    "A.....B"], {0: {(0, 0): N}})
    assert snap["board"] == ["a......", ".......", "A.....B"]
    _, snap = play(["a......",
                    ".......",
                    "A.....B"], {0: {(0, 0): W}})
    assert snap["board"][0] == "a......"


def test_commands_for_other_colonies_ants_are_ignored():
    _, snap = play(["..b....",
                    ".......",
                    "A.....B"], {0: {(2, 0): S}})
    assert snap["board"] == ["..b....", ".......", "A.....B"]


def test_two_colonies_entering_one_cell_both_die():
    _, snap = play(["a.b....",
                    ".......",
                    ".......",
                    "A.....B"], {0: {(0, 0): E}, 1: {(2, 0): W}})
    assert snap["board"] == [".......", ".......", ".......", "A.....B"]
    assert len(snap["ants"]) == 2


def test_same_colony_collision_kills_both():
    _, snap = play(["a.a....",
                    ".......",
                    ".......",
                    "A.....B"], {0: {(0, 0): E, (2, 0): W}})
    assert snap["board"] == [".......", ".......", ".......", "A.....B"]


def test_walking_onto_a_staying_ant_kills_both():
    _, snap = play(["aa.....",
                    ".......",
                    ".......",
                    "A.....B"], {0: {(0, 0): E}})
    assert snap["board"] == [".......", ".......", ".......", "A.....B"]


def test_three_ants_on_one_cell_all_die():
    _, snap = play([".a.....",
                    "a.a....",
                    ".......",
                    "A.....B"], {0: {(1, 0): S, (0, 1): E, (2, 1): W}})
    assert snap["board"] == [".......", ".......", ".......", "A.....B"]


def test_swaps_pass():
    _, snap = play(["ab.....",
                    ".......",
                    ".......",
                    "A.....B"], {0: {(0, 0): E}, 1: {(1, 0): W}}, attack_radius2=0)
    assert snap["board"] == ["ba.....", ".......", ".......", "A.....B"]
    # same colony
    _, snap = play(["aa.....",
                    ".......",
                    "A.....B"], {0: {(0, 0): E, (1, 0): W}})
    assert snap["board"] == ["aa.....", ".......", "A.....B"]
    ids = {(d["x"], d["y"]): d["id"] for d in snap["ants"]}
    assert ids[(0, 0)] == 1 and ids[(1, 0)] == 0      # the two ants really swapped


def test_a_chain_of_ants_moves_along():
    _, snap = play(["aaa....",
                    ".......",
                    "A.....B"], {0: {(0, 0): E, (1, 0): E, (2, 0): E}})
    assert snap["board"] == [".aaa...", ".......", "A.....B"]


# -- 2. attack (focus_split) ----------------------------------------------------------------

def test_seed_example_1_colony_together_wins():
    """Three colonies: A's two ants stand together (focus 2), B and C see three enemies
    each (focus 3): all but A's ants die."""
    before = ["A.......B",
              ".........",
              "...aa....",
              "...bc....",
              ".........",
              "C........"]
    _, snap = play(before, {})
    assert snap["board"] == ["A.......B",
                             ".........",
                             "...aa....",
                             ".........",
                             ".........",
                             "C........"]


def test_seed_example_2_outer_ants_kill_the_middle():
    """The outer ants reach only the middle ones (focus 1); the middle ants see two
    enemies each (focus 2): the middle ants die."""
    before = ["A..........B",
              "............",
              "a.b.a..b.a.b"]
    _, snap = play(before, {})
    assert snap["board"] == ["A..........B", "............", "a...a..b...b"]


def test_one_on_one_in_range_both_die():
    _, snap = play(["A.....B",
                    ".......",
                    "..a....",
                    "...b...",
                    "......."], {})
    assert snap["board"] == ["A.....B", ".......", ".......", ".......", "......."]


def test_knight_distance_is_in_range_and_diagonal_two_is_not():
    # d^2 = 5: in range
    _, snap = play(["A......B",
                    "........",
                    "..a.....",
                    "....b...",
                    "........"], {})
    assert snap["board"][2:4] == ["........", "........"]
    # d^2 = 8: out of range
    _, snap = play(["A......B",
                    "..a.....",
                    "........",
                    "....b...",
                    "........"], {})
    assert snap["board"][1:4] == ["..a.....", "........", "....b..."]


def test_two_against_one():
    _, snap = play(["A......B",
                    "........",
                    "..aa....",
                    "...b....",
                    "........"], {})
    assert snap["board"][2:4] == ["..aa....", "........"]


def test_attack_radius_is_a_config_value():
    _, snap = play(["A......B",
                    "........",
                    "..a.b...",
                    "........"], {}, attack_radius2=3)
    assert snap["board"][2] == "..a.b..."


def test_attack_follows_the_moves():
    # b walks into a's range and both die (focus 1 each)
    _, snap = play(["A.......B",
                    ".........",
                    "..a..b...",
                    "........."], {1: {(5, 2): W}})
    assert snap["board"][2] == "........."


@pytest.mark.parametrize("seed", range(20))
def test_focus_split_matches_the_seeds_pseudocode(seed):
    rng = np.random.default_rng(seed)
    H = W = 9
    rows = [["."] * W for _ in range(H)]
    rows[0][0], rows[0][W - 1], rows[H - 1][0] = "A", "B", "C"
    cells = rng.choice(np.arange(W, (H - 1) * W), size=22, replace=False)
    ants = []
    for c in cells:
        y, x = divmod(int(c), W)
        owner = int(rng.integers(3))
        rows[y][x] = "abc"[owner]
        ants.append((owner, x, y))
    before = ["".join(r) for r in rows]
    game = new_game(before)
    parked = [(0, 0, 0), (1, W - 1, 0), (2, 0, H - 1)]
    all_ants = parked + ants
    dead = reference_focus_split(all_ants)
    snap = turn(game, {})
    survivors = sorted((d["owner"], d["x"], d["y"]) for d in snap["ants"])
    assert survivors == sorted(a for i, a in enumerate(all_ants) if i not in dead)


# -- 3. razing -----------------------------------------------------------------------------




def test_razing_scores_and_marks_the_hill():
    before = ["A...b.0.",
              "........",
              "........",
              "1......B"]
    # colony 0 has two hills (A's and 0), colony 1 two (1 and B)
    game, snap = play(before, {1: {(4, 0): E}})
    assert snap["board"] == ["A....b0.", "........", "........", "1......B"]
    snap = turn(game, {1: {(5, 0): E}})
    assert snap["board"] == ["A.....B.", "........", "........", "1......B"]
    assert scores(snap) == [2 - 1, 2 + 2]
    assert [h["razed"] for h in snap["hills"] if (h["x"], h["y"]) == (6, 0)] == [True]
    # leaving it shows the razed hill; coming back razes nothing more
    snap = turn(game, {1: {(6, 0): W}})
    assert snap["board"][0] == "A....bx."
    snap = turn(game, {1: {(5, 0): E}})
    assert scores(snap) == [1, 4]


def test_several_hills_razed_in_one_turn():
    # colony 0: three hills (A's and two 0s); colony 1: three (two 1s and B's)
    before = ["A.b0.b0.",
              "........",
              "1.......",
              "1......B"]
    _, snap = play(before, {1: {(2, 0): E, (5, 0): E}})
    assert snap["board"][0] == "A..B..B."
    assert scores(snap) == [3 - 2, 3 + 4]
    assert sum(h["razed"] for h in snap["hills"]) == 2


def test_own_hill_is_not_razed():
    _, snap = play(["A.a0....",
                    "........",
                    "1......B"], {0: {(2, 0): E}})
    assert snap["board"][0] == "A..A...."
    assert scores(snap) == [2, 2]
    assert not any(h["razed"] for h in snap["hills"])


# -- 4. spawning ---------------------------------------------------------------------------

def test_spawn_one_ant_per_free_hill_while_food_lasts():
    before = ["A.0.0...",
              "........",
              "1.1....B"]
    _, snap = play(before, {}, stored_food=[5, 0])
    assert snap["board"][0] == "A.A.A..."
    assert snap["stored_food"].tolist() == [3, 0]


def test_spawn_limited_by_food_and_random_hill():
    before = ["A.0.0...",
              "........",
              "1.1....B"]
    seen = set()
    for seed in range(12):
        _, snap = play(before, {}, stored_food=[1, 0], seed=seed)
        row = snap["board"][0]
        assert row in ("A.A.0...", "A.0.A...")
        assert snap["stored_food"].tolist() == [0, 0]
        seen.add(row)
    assert len(seen) == 2                      # the hills are shuffled (env RNG)


def test_no_spawn_on_occupied_or_razed_hills():
    before = ["A...b0..",
              "........",
              "1......B"]
    game, snap = play(before, {1: {(4, 0): E}}, stored_food=[3, 0])
    # the hill under b was razed this turn: no spawn there; A's hill holds an ant
    assert snap["board"][0] == "A....B.."
    assert snap["stored_food"].tolist() == [3, 0]
    snap = turn(game, {0: {(0, 0): E}})
    assert snap["board"][0] == "Aa...B.."     # A's hill freed: a new ant at once
    assert snap["stored_food"].tolist() == [2, 0]


def test_new_ants_get_new_ids():
    _, snap = play(["0......1", "A......B"], {0: {(0, 1): E}}, stored_food=[1, 0])
    assert sorted(d["id"] for d in snap["ants"]) == [0, 1, 2]


# -- 5. gathering ---------------------------------------------------------------------------

def test_gather_adjacent_food():
    _, snap = play(["A......B",
                    "........",
                    "...af...",
                    "........"], {})
    assert snap["board"][2] == "...a...."
    assert snap["stored_food"].tolist() == [1, 0]


def test_food_walked_onto_is_gathered():
    _, snap = play(["A......B",
                    "........",
                    "...a.f..",
                    "........"], {0: {(3, 2): E}})
    assert snap["board"][2] == "....a..."
    assert snap["stored_food"].tolist() == [1, 0]


def test_diagonal_food_is_out_of_reach():
    _, snap = play(["A......B",
                    "....f...",
                    "...a....",
                    "........"], {})
    assert snap["board"][1:3] == ["....f...", "...a...."]
    assert snap["stored_food"].tolist() == [0, 0]


def test_contested_food_is_destroyed():
    _, snap = play(["A.......B",
                    ".........",
                    "..a......",
                    "..f......",
                    "...b.....",
                    "........."], {1: {(3, 4): W}}, attack_radius2=0)
    # the food at (2, 3) is next to a (2, 2) and b (now at 2, 4): destroyed
    assert snap["board"][2:5] == ["..a......", ".........", "..b......"]
    assert snap["stored_food"].tolist() == [0, 0]
    assert snap["food"] == []


def test_two_ants_of_one_colony_gather_once():
    _, snap = play(["A......B",
                    "........",
                    "...afa..",
                    "........"], {})
    assert snap["stored_food"].tolist() == [1, 0]


def test_several_foods_gathered_by_one_ant():
    _, snap = play(["A......B",
                    "....f...",
                    "...faf..",
                    "....f..."], {})
    assert snap["stored_food"].tolist() == [4, 0]


def test_stacked_food_is_gathered_whole():
    game = new_game(["A......B",
                     "........",
                     "...a....",
                     "........"])
    assert with_food(game, [(4, 2, 3)])["board"][2] == "...af..."
    snap = turn(game, {})
    assert snap["board"][2] == "...a...."
    assert snap["stored_food"].tolist() == [3, 0] and snap["food"] == []


def test_food_under_an_ant_is_gathered():
    game = new_game(["A......B",
                     "........",
                     "...a....",
                     "........"])
    assert with_food(game, [(3, 2, 2)])["board"][2] == "...a...."   # the ant hides it
    snap = turn(game, {})
    assert snap["stored_food"].tolist() == [2, 0] and snap["food"] == []


def test_food_on_a_hill_is_gathered_by_the_ant_spawned_there():
    game = new_game(["a......B",
                     "0.......",
                     "........"], stored_food=[1, 0])
    with_food(game, [(0, 1, 1)])
    snap = turn(game, {0: {(0, 0): E}})
    assert snap["board"][:2] == [".a.....B", "A......."]
    assert snap["stored_food"].tolist() == [1, 0] and snap["food"] == []


def test_contested_stack_is_destroyed_whole():
    game = new_game(["A.......B",
                     ".........",
                     "..a......",
                     ".b.......",
                     "........."], attack_radius2=0)
    with_food(game, [(2, 3, 2)])
    snap = turn(game, {})
    assert snap["stored_food"].tolist() == [0, 0] and snap["food"] == []


# -- 6. food spawning --------------------------------------------------------------------

def food_total(snap):
    return sum(count for _, _, count in snap["food"])


def test_food_spawn_formula():
    game, snap = play(["A.......",
                       "........",
                       "...%%...",
                       ".......B"], {}, max_food=20, gather_radius2=0)
    assert food_total(snap) == 10             # floor((20 - 0) / 2)
    snap = turn(game, {})
    assert food_total(snap) == 15             # + floor((20 - 10) / 2)
    for x, y, _ in snap["food"]:              # on land
        assert snap["board"][y][x] != "%"
    _, snap = play(["A.ffff..",
                    "........",
                    "........",
                    ".......B"], {}, max_food=11, gather_radius2=0)
    assert food_total(snap) == 4 + (11 - 4) // 2


def test_food_spawns_on_any_land_cell_with_replacement():
    """Ten new food on the four land cells: they stack, and land on the ants and hills
    too (every land cell gets some over a few games)."""
    before = ["A%%%",
              "%..%",
              "%%%B"]
    land = {(0, 0), (1, 1), (2, 1), (3, 2)}
    seen = set()
    for seed in range(8):
        _, snap = play(before, {}, seed=seed, max_food=20, gather_radius2=0)
        assert food_total(snap) == 10
        assert {(x, y) for x, y, _ in snap["food"]} <= land
        assert max(count for _, _, count in snap["food"]) >= 3   # 10 food on 4 cells
        assert snap["board"][0][0] == "A" and snap["board"][2][3] == "B"
        seen |= {(x, y) for x, y, _ in snap["food"]}
    assert seen == land


def test_food_spawn_counts_every_food_on_a_cell():
    """Three food stacked on one cell count three towards max_food."""
    game = new_game(["A......B",
                     "........"], max_food=9, gather_radius2=0)
    with_food(game, [(3, 1, 3)])
    snap = turn(game, {})
    assert food_total(snap) == 3 + (9 - 3) // 2


# -- 7. elimination and the end -------------------------------------------------------------

def test_colony_without_ants_and_food_is_eliminated():
    game, snap = play(["A.......",
                       "........",
                       ".......1"], {})
    assert snap["alive"].tolist() == [True, False]
    assert scores(snap) == [1 + 1, 1]
    assert snap["over"]
    assert game.terminated[0].tolist() == [True, True]
    assert game.rewards[0].tolist() == [1.0, 0.0]


def test_no_ants_but_food_and_a_hill_spawns_instead():
    _, snap = play(["A.......",
                    "........",
                    ".......1"], {}, stored_food=[0, 2])
    assert snap["alive"].tolist() == [True, True]
    assert snap["board"][2] == ".......B"
    assert snap["stored_food"].tolist() == [0, 1]


def test_no_ants_food_but_all_hills_razed_is_eliminated():
    _, snap = play(["A.....a1",
                    "........",
                    "........"], {0: {(6, 0): E}}, stored_food=[0, 5])
    assert snap["board"][0] == "A......A"
    assert snap["alive"].tolist() == [True, False]
    assert scores(snap) == [1 + 2 + 1, 1 - 1]


def test_eliminations_in_one_turn_share_the_points():
    game, snap = play(["A.......",
                       "........",
                       "1.....2."], {}, num_players=3)
    assert snap["alive"].tolist() == [True, False, False]
    assert scores(snap) == [1 + 2, 1, 1]
    assert snap["over"] and snap["winner"] == 0


def test_elimination_order_and_points():
    # turn 1: c (alone, colony 2) dies against two a's; turn 2: b walks into a's range
    before = ["A...........",
              "............",
              ".aa..b......",
              ".c..........",
              "............",
              "1.........2."]
    game = new_game(before, num_players=3)
    snap = turn(game, {})
    assert snap["board"][2:4] == [".aa..b......", "............"]
    assert snap["alive"].tolist() == [True, True, False]
    assert scores(snap) == [2, 2, 1]
    assert game.rewards[0].tolist() == [1.0, 1.0, 0.0]
    assert game.terminated[0].tolist() == [False, False, True]
    snap = turn(game, {1: {(5, 2): W}})
    assert snap["board"][2] == ".a.........."
    assert snap["alive"].tolist() == [True, False, False]
    assert scores(snap) == [3, 2, 1]
    assert snap["elim_turn"].tolist() == [301, 2, 1]
    assert snap["over"] and snap["winner"] == 0
    assert game.rewards[0].tolist() == [1.0, 0.0, 0.0]
    assert game.terminated[0].tolist() == [True, True, True]


def test_turn_limit_ends_the_game():
    game, snap = play(["A......B",
                       "........"], {}, {}, {}, max_turns=3)
    assert snap["over"] and snap["turn"] == 3
    assert game.terminated[0].tolist() == [True, True]
    assert not game.truncated[0].any()


# -- the original engine's behaviours (Config switches, off by default) ------------------

def test_engine_razes_one_hill_per_turn_the_first_in_hill_id_order():
    before = ["A.b0.b0.",
              "........",
              "1.......",
              "1......B"]
    orders = {1: {(2, 0): E, (5, 0): E}}
    game, snap = play(before, orders, raze_one_hill_per_turn=True)
    assert snap["board"][0] == "A..B..B."
    assert [(h["x"], h["razed"]) for h in snap["hills"] if h["y"] == 0] == \
        [(0, False), (3, True), (6, False)]
    assert scores(snap) == [3 - 1, 3 + 2]
    snap = turn(game, {})                     # the ant still on (6, 0) razes it now
    assert [h["razed"] for h in snap["hills"] if h["y"] == 0] == [False, True, True]
    assert scores(snap) == [3 - 2, 3 + 4]
    # hill-id order is the order the hills were restored in: (6, 0) first
    game = new_game(before, raze_one_hill_per_turn=True)
    snap = game.snapshot(0)
    snap["hills"] = snap["hills"][::-1]
    game.restore(snap)
    snap = turn(game, orders)
    assert [(h["x"], h["y"]) for h in snap["hills"] if h["razed"]] == [(6, 0)]


def test_engine_credits_contested_food_to_the_first_colony_its_scan_meets():
    """The scan around the food goes column by column (dx, then dy): b to the west is met
    before a to the north.  Both food on the cell go to b."""
    before = ["A.......B",
              ".........",
              "..a......",
              ".b.......",
              "........."]
    for switch, stored in ((False, [0, 0]), (True, [0, 2])):
        game = new_game(before, attack_radius2=0, contested_food_credit=switch)
        with_food(game, [(2, 3, 2)])
        snap = turn(game, {})
        assert snap["stored_food"].tolist() == stored and snap["food"] == []
        assert snap["board"][2:4] == ["..a......", ".b......."]


def test_engine_gives_a_colony_out_later_in_one_check_the_points_of_those_before():
    before = ["A.......",
              "........",
              "1.....2."]
    for switch, after in ((False, [1 + 2, 1, 1]), (True, [1 + 2, 1, 1 + 1])):
        _, snap = play(before, {}, num_players=3, sequential_elimination_points=switch)
        assert snap["alive"].tolist() == [True, False, False]
        assert scores(snap) == after


# -- given draws (replaying a recorded game) ------------------------------------------------

def test_step_drawn_spawns_on_the_given_hills_and_places_the_given_food():
    before = ["A.0.0...",
              "........",
              "1.1....B"]
    game = new_game(before, stored_food=[1, 0], max_food=4)
    for hill, row in (((4, 0), "A.0.A..."), ((2, 0), "A.A.0...")):
        game.set_position(0, before, [1, 0])
        game.step_drawn(np.zeros(game.actions.shape[1:], dtype=np.int64),
                        food=[(6, 1), (6, 1), (1, 1)], spawn_hills=[hill])
        snap = game.snapshot(0)
        assert snap["board"][0] == row
        # floor((4 - 0) / 2) = 2 new food: the first two given, stacked; the third unused
        assert snap["food"] == [(6, 1, 2)]
