"""dungeon_v0 rule scenarios: one test (or a few) per rule of shared/seeds/dungeon.txt and
shared/rules/dungeon.md.

Each scenario is an ASCII board before (top text row = top of the board, y = height-1),
the players' actions per tick (the seed's strings '' u d l r p), and the ASCII board, HP
and scores after.  ``.`` floor, ``#`` metal, ``w`` wood, ``o`` ore, ``a`` ammo, ``t``
treasure, ``0``-``3`` players; after a step also ``b`` bomb, ``x`` body, ``*`` fire.
The treasure timer is pushed past the game unless a test is about treasure.
"""
import numpy as np
import pytest

import botarena
from botarena.envs.dungeon.snapshot import DERIVED_KEYS
from botarena.envs.dungeon_v0 import Action, Config, DungeonGame

NAMES = {"": 0, "u": 1, "d": 2, "l": 3, "r": 4, "p": 5}
NO_TREASURE = {"treasure_min": 100_000, "treasure_max": 100_000}


def new_game(rows, seed=0, **config):
    """A one-env DungeonGame on the ASCII ``rows`` (list of strings), reset with ``seed``."""
    for key, value in NO_TREASURE.items():
        config.setdefault(key, value)
    game = DungeonGame(Config(board="\n".join(rows), **config), num_envs=1)
    game.reset(seed=seed)
    return game


def step(game, *actions):
    """One tick with one action string per player; the snapshot after."""
    game.step(np.array([[NAMES[a] for a in actions]], dtype=np.int64))
    return game.snapshot(0)


def wait(game, ticks, *actions):
    """``ticks`` ticks of the same actions (no-ops by default); the snapshot after."""
    actions = actions or ("",) * game.num_agents
    snap = game.snapshot(0)
    for _ in range(ticks):
        snap = step(game, *actions)
    return snap


def edited(snap, **changes):
    """``snap`` without its derived keys (which would disagree once edited), with
    ``changes``: a state to ``restore``."""
    out = {k: v for k, v in snap.items() if k not in DERIVED_KEYS}
    out.update(changes)
    return out


def hp(snap):
    return [int(x) for x in snap["hp"]]


def scores(snap):
    return [int(x) for x in snap["scores"]]


# -- actions and moves ----------------------------------------------------------------

def test_actions_are_the_seeds_in_its_order():
    assert [a.name for a in Action] == ["NOOP", "UP", "DOWN", "LEFT", "RIGHT", "BOMB"]
    assert DungeonGame.action_names == ("", "u", "d", "l", "r", "p")


def test_moves_go_up_down_left_right():
    game = new_game([".....", "..0..", ".....", "....1"])
    assert step(game, "u", "")["players"][0]["y"] == 3          # u is y + 1 (up the text)
    snap = step(game, "r", "")
    assert (snap["players"][0]["x"], snap["players"][0]["y"]) == (3, 3)
    snap = step(game, "d", "")
    assert snap["board"] == [".....", "...0.", ".....", "....1"]
    snap = step(game, "l", "")
    assert snap["board"] == [".....", "..0..", ".....", "....1"]


def test_moves_off_the_board_or_into_blocks_do_nothing():
    rows = ["0#", "wo", "1."]
    game = new_game(rows)
    for action in ("u", "l", "r", "d"):
        assert step(game, action, "")["board"] == rows
    assert step(game, "", "d")["board"] == rows               # off the bottom edge


def test_bodies_players_and_bombs_are_solid():
    game = new_game(["012", "..."], player_hp=1, bomb_fuse=3)
    # player 0 bombs its cell and walks off; player 1 cannot walk onto the bomb
    step(game, "p", "", "")
    snap = step(game, "d", "l", "")
    assert snap["board"] == ["b12", "0.."]
    # player 2 is killed by player 1's bomb (hp 1); its body stays and is solid
    game = new_game(["0..1.2", "......"], player_hp=1, bomb_fuse=2)
    step(game, "", "p", "")
    step(game, "", "d", "")
    snap = step(game, "", "l", "")                               # fire hits during tick 2
    assert snap["alive"].tolist() == [True, True, False]
    assert snap["board"] == ["0....x", "..1..."]
    game.state.positions[0, 1] = (5, 0)                          # white-box: below the body
    snap = step(game, "", "u", "")
    assert snap["board"] == ["0....x", ".....1"]
    snap = step(game, "", "l", "")
    snap = step(game, "", "u", "")
    assert snap["board"] == ["0...1x", "......"]
    snap = step(game, "", "r", "")                               # into the body: no
    assert snap["board"] == ["0...1x", "......"]


def test_no_swaps():
    for seed in range(8):
        game = new_game(["01", ".."], seed=seed)
        assert step(game, "r", "l")["board"] == ["01", ".."]


def test_random_order_decides_a_contested_cell():
    winners = set()
    for seed in range(40):
        game = new_game(["0.1", "..."], seed=seed)
        snap = step(game, "r", "l")
        assert snap["board"] in ([".01", "..."], ["01.", "..."])
        winners.add(0 if snap["board"] == [".01", "..."] else 1)
    assert winners == {0, 1}


def test_random_order_decides_following_into_a_leaving_cell():
    outcomes = set()
    for seed in range(40):
        game = new_game(["01.", "..."], seed=seed)
        snap = step(game, "r", "r")
        # first come, first served: 0 follows only if 1 moved first
        assert snap["board"] in ([".01", "..."], ["0.1", "..."])
        outcomes.add(snap["board"][0])
    assert outcomes == {".01", "0.1"}


def test_set_action_order_pins_the_next_ticks_order():
    for seed in range(6):
        for order, board in (([0, 1], [".01", "..."]), ([1, 0], ["01.", "..."])):
            game = new_game(["0.1", "..."], seed=seed)
            game.set_action_order(order)
            assert step(game, "r", "l")["board"] == board          # the first one in wins
    game = new_game(["0.1", "..."])
    with pytest.raises(ValueError, match="living players"):
        game.set_action_order([0, 0])


def test_action_order_comes_from_the_game_rng():
    a, b = new_game(["0.1", "..."], seed=3), new_game(["0.1", "..."], seed=3)
    for _ in range(5):
        assert step(a, "r", "l")["board"] == step(b, "r", "l")["board"]


# -- bombs: fuse, stepping out, fire shape -------------------------------------------

def test_fuse_fire_forms_at_end_of_tick_34_and_hits_on_tick_35():
    game = new_game([".......", "0......", "......1"])
    snap = step(game, "p", "")                                     # tick 0: placed
    assert snap["bombs"] == [{"x": 0, "y": 1, "owner": 0, "fuse": 34, "power": 2}]
    assert snap["ammo"].tolist() == [2, 3]
    step(game, "r", "")
    snap = step(game, "r", "")                                     # at (2, 1): in range
    assert snap["board"] == [".......", "b.0....", "......1"]
    snap = wait(game, 31)                                          # ticks 3..33
    assert snap["tick"] == 34 and snap["bombs"][0]["fuse"] == 1 and snap["fire"] == []
    snap = step(game, "", "")                                      # tick 34: fire forms
    assert snap["bombs"] == []
    assert snap["board"] == ["*......", "**0....", "*.....1"]
    assert sorted(snap["fire"]) == [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]
    assert hp(snap) == [3, 3]                                      # not yet hit
    snap = step(game, "", "")                                      # tick 35: hits
    assert hp(snap) == [2, 3] and snap["fire"] == []
    assert snap["board"] == [".......", "..0....", "......1"]


def test_stepping_out_on_the_hit_tick_escapes():
    game = new_game([".......", "0......", "......1"])
    step(game, "p", "")
    step(game, "r", "")
    step(game, "r", "")
    snap = wait(game, 32)                                          # through tick 34: fire
    assert (2, 1) in snap["fire"]
    snap = step(game, "r", "")                                     # tick 35: move, then fire
    assert hp(snap) == [3, 3]
    assert snap["players"][0]["x"] == 3


def test_a_player_may_walk_off_its_own_bomb_and_shows_as_the_bomb():
    game = new_game(["0..", "..1"])
    snap = step(game, "p", "")
    assert snap["board"] == ["b..", "..1"]                        # player under its bomb
    assert snap["players"][0]["x"] == 0
    snap = step(game, "r", "")
    assert snap["board"] == ["b0.", "..1"]
    snap = step(game, "l", "")                                     # cannot walk back on
    assert snap["board"] == ["b0.", "..1"]


def test_no_bomb_without_ammo_or_on_a_bomb():
    game = new_game(["0...", "...1"], player_ammo=1)
    step(game, "p", "")
    snap = step(game, "p", "")                                     # a bomb lies there
    assert len(snap["bombs"]) == 1 and snap["ammo"].tolist() == [0, 1]
    step(game, "r", "")
    snap = step(game, "p", "")                                     # no ammo left
    assert len(snap["bombs"]) == 1 and snap["ammo"].tolist() == [0, 1]


def test_fire_stops_on_and_includes_the_first_block():
    #        x: 0123456
    rows = ["......1",
            "..#0ww.",
            "......."]
    game = new_game(rows, bomb_fuse=3)
    step(game, "p", "")
    step(game, "u", "")
    step(game, "l", "")                                            # (2, 2): diagonal, safe
    snap = step(game, "", "")                                      # tick 3: hits
    # right arm: stops on (and destroys) the first wood, the second stays;
    # left arm: stops on the metal (indestructible), nothing beyond it is hit
    assert snap["board"] == ["..0...1", "..#..w.", "......."]
    assert scores(snap) == [2, 0] and hp(snap) == [3, 3]


def test_fire_stops_on_a_bomb_and_sets_it_off():
    rows = ["0.....", "......", ".....1"]
    game = new_game(rows, bomb_fuse=5)
    step(game, "p", "")                                            # A at (0, 2), tick 0
    step(game, "r", "")
    step(game, "p", "")                                            # B at (1, 2), tick 2
    step(game, "d", "")
    snap = step(game, "r", "")                                     # (2, 1): diagonal to B
    # tick 4: A turned into fire; its right arm stops on (and includes) bomb B
    assert [(b["x"], b["y"]) for b in snap["bombs"]] == [(1, 2)]
    assert snap["fire"] == [(0, 0), (0, 1), (0, 2), (1, 2)]
    snap = step(game, "", "")                                      # tick 5: A hits B
    assert snap["bombs"] == []                                     # B set off: fire now
    assert snap["fire"] == [(0, 2), (1, 0), (1, 1), (1, 2), (2, 2), (3, 2)]
    assert hp(step(game, "", "")) == [3, 3]


def test_fire_stops_on_a_block_destroyed_earlier_in_the_same_tick():
    #        x: 012345
    rows = [".....0",
            "......",
            ".w..1."]
    game = new_game(rows)
    snap = game.snapshot(0)
    # A (fuse 1) turns into fire at the end of tick 0, hits the wood during tick 1; B
    # (fuse 2, power 4) turns into fire at the end of tick 1: its right arm stops on the
    # wood destroyed during that tick, short of player 1
    game.restore(edited(snap, bombs=[{"x": 1, "y": 2, "owner": 0, "fuse": 1, "power": 2},
                                     {"x": 0, "y": 0, "owner": 0, "fuse": 2, "power": 4}]))
    step(game, "", "")
    snap = step(game, "", "")
    assert snap["fires"] == [{"x": 0, "y": 0, "owner": 0, "up": 2, "down": 0, "left": 0,
                              "right": 1}]
    assert snap["board"] == ["*....0", "*.....", "**..1."] and scores(snap) == [2, 0]
    snap = step(game, "", "")
    assert hp(snap) == [3, 3] and snap["board"] == [".....0", "......", "....1."]


def test_fire_passes_players_and_the_board_edge_stops_it():
    rows = ["..0.w", ".....", "....1"]
    game = new_game(rows, bomb_fuse=3)
    step(game, "p", "")
    step(game, "d", "r")                                           # 0 leaves the bomb
    step(game, "l", "")                                            # (1, 1): diagonal, safe
    game.state.positions[0, 1] = (3, 2)                            # put player 1 in the arm
    snap = step(game, "", "")
    # player 1 at distance 1 is hit and the wood at distance 2 behind it too
    assert hp(snap) == [3, 2] and scores(snap) == [2 + 25, 0]
    assert snap["board"][0] == "...1."


def test_ore_takes_three_hits_and_pays_the_last_hitter():
    rows = ["......",
            "0..o.1",
            "......"]
    game = new_game(rows, bomb_fuse=4)

    def bomb_and_hide(player, toward, hide):
        acts = [[""] * 2 for _ in range(5)]
        acts[0][player] = toward
        acts[1][player] = "p"
        acts[2][player] = "u"
        acts[3][player] = hide
        for a in acts:
            snap = step(game, *a)
        return wait(game, 1)

    snap = bomb_and_hide(0, "r", "l")                              # bomb at (1, 1)
    assert snap["ore_hp"] == {(3, 1): 2} and scores(snap) == [0, 0]
    step(game, "d", "")
    step(game, "r", "")                                            # back to (1, 1)
    snap = bomb_and_hide(0, "", "l")
    assert snap["ore_hp"] == {(3, 1): 1} and scores(snap) == [0, 0]
    snap = bomb_and_hide(1, "l", "r")                              # player 1 at (4, 1)
    assert snap["ore_hp"] == {} and scores(snap) == [0, 10]
    assert snap["board"][1][3] == "."


def test_two_fires_on_a_block_in_one_tick_pay_once_to_the_first_hit():
    rows = ["......",
            ".0w1..",
            "......"]
    for double_pay in (False, True):
        game = new_game(rows, bomb_fuse=3, double_pay=double_pay)
        snap = step(game, "p", "p")                                # same tick: order random
        order = [b["owner"] for b in snap["bombs"]]
        step(game, "u", "u")
        step(game, "l", "r")
        snap = step(game, "", "")
        assert snap["board"][1][2] == "."
        # fires hit in placing order (here the random action order): the first destroys it;
        # the original engine (double_pay) pays the second fire on the destroyed block too
        assert scores(snap)[order[0]] == 2
        assert scores(snap)[order[1]] == (2 if double_pay else 0)

def test_ore_hit_by_two_fires_in_one_tick_loses_two_hits():
    rows = ["......", ".0o1..", "......"]
    game = new_game(rows, bomb_fuse=3)
    step(game, "p", "p")
    step(game, "u", "u")
    step(game, "l", "r")
    snap = step(game, "", "")
    assert snap["ore_hp"] == {(2, 1): 1} and scores(snap) == [0, 0]


def test_chain_with_bombs_in_reach():
    #        x: 0123456789
    rows = ["0.........",
            "..........",
            ".........1"]
    game = new_game(rows, bomb_fuse=6)
    # player 0 lays A at (0, 2) on tick 0, B at (2, 2) on tick 3, C at (4, 2) on tick 6
    for acts in (("p", ""), ("r", ""), ("r", ""), ("p", ""), ("r", ""), ("r", "")):
        snap = step(game, *acts)
    # tick 5: A turned into fire, stopping on B
    assert [(b["x"], b["fuse"]) for b in snap["bombs"]] == [(2, 3)]
    assert snap["fire"] == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]
    snap = step(game, "p", "")                                     # tick 6: A hits B
    assert [(b["x"], b["fuse"]) for b in snap["bombs"]] == [(4, 5)]
    assert snap["fire"] == [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2), (3, 2), (4, 2)]
    snap = step(game, "d", "")                                     # tick 7: B hits C
    assert snap["bombs"] == []
    assert snap["fire"] == [(2, 2), (3, 2), (4, 0), (4, 1), (4, 2), (5, 2), (6, 2)]
    snap = step(game, "r", "")                                     # tick 8: C hits
    assert snap["fire"] == [] and hp(snap) == [3, 3]


def test_overlapping_fires_cost_two_hp_and_pay_the_owner_per_hit():
    rows = [".....", "0...1", "....."]
    game = new_game(rows, bomb_fuse=4)
    step(game, "p", "p")
    step(game, "r", "u")
    snap = step(game, "r", "l")                                    # 0 at (2, 1): both arms
    assert snap["board"] == ["...1.", "b.0.b", "....."]
    snap = wait(game, 2)
    assert hp(snap) == [1, 3] and scores(snap) == [0, 25]          # own bomb pays nothing


def test_players_are_only_hit_on_the_tick_the_fire_hits():
    rows = ["0....", ".....", "....1"]
    game = new_game(rows, bomb_fuse=3)
    step(game, "p", "")
    step(game, "r", "")
    snap = step(game, "d", "")                                     # tick 2: fire forms
    assert (1, 2) in snap["fire"] and (1, 1) not in snap["fire"]
    snap = step(game, "", "")                                      # tick 3: hits; (1, 1) safe
    assert hp(snap) == [3, 3] and snap["fire"] == []
    snap = step(game, "u", "")                                     # into the spent fire's cell
    assert hp(snap) == [3, 3] and snap["players"][0]["y"] == 2


# -- ammo, treasure ---------------------------------------------------------------------

def test_ammo_pickup():
    game = new_game(["0a..", "...1"])
    snap = step(game, "r", "")
    assert snap["ammo"].tolist() == [4, 3] and snap["board"] == [".0..", "...1"]
    assert snap["ammo_items"] == []


def test_ammo_perishes_after_175_ticks_and_respawns_70_ticks_later_elsewhere():
    rows = ["0....", ".a...", "....1"]
    game = new_game(rows)
    snap = wait(game, 174)
    assert snap["ammo_items"] == [{"x": 1, "y": 1, "life": 1}]
    snap = step(game, "", "")                                      # tick 174: 175th tick
    assert snap["ammo_items"] == [] and snap["pending_ammo"] == [70]
    assert snap["board"] == ["0....", ".....", "....1"]
    snap = wait(game, 69)                                          # through tick 243
    assert snap["ammo_items"] == [] and snap["pending_ammo"] == [1]
    snap = step(game, "", "")                                      # tick 244: back
    assert len(snap["ammo_items"]) == 1 and snap["ammo_items"][0]["life"] == 175
    assert sum(row.count("a") for row in snap["board"]) == 1
    # over seeds the respawn lands on other cells
    cells = set()
    for seed in range(10):
        game = new_game(rows, seed=seed)
        snap = wait(game, 245)
        cells.add((snap["ammo_items"][0]["x"], snap["ammo_items"][0]["y"]))
    assert len(cells) > 1


def test_ammo_taken_on_its_last_tick_is_replaced_70_ticks_later():
    game = new_game(["0a..", "...1"])
    snap = game.snapshot(0)
    game.restore(edited(snap, ammo_items=[{"x": 1, "y": 1, "life": 1}]))
    snap = step(game, "r", "")                                     # taken on its last tick
    assert snap["ammo"].tolist() == [4, 3] and snap["ammo_items"] == []
    assert snap["pending_ammo"] == [70]
    snap = wait(game, 70)
    assert len(snap["ammo_items"]) == 1 and snap["pending_ammo"] == []
    game = new_game(["0a..", "...1"])                               # taken earlier: none
    snap = step(game, "r", "")
    assert snap["pending_ammo"] == []

def test_each_bomb_schedules_one_ammo_at_the_end_of_tick_t_plus_69():
    rows = ["0....", ".....", "....1"]
    game = new_game(rows)
    snap = step(game, "p", "")                                     # tick 0: placed
    assert snap["pending_ammo"] == [69] and snap["bombs"][0]["fuse"] == 34
    step(game, "r", "")
    step(game, "d", "")                                            # (1, 1): safe diagonal
    snap = wait(game, 66)                                          # through tick 68
    assert snap["tick"] == 69 and snap["ammo_items"] == [] and snap["pending_ammo"] == [1]
    snap = step(game, "", "")                                      # tick 69
    assert len(snap["ammo_items"]) == 1 and snap["pending_ammo"] == []
    assert snap["ammo_items"][0]["life"] == 175

def test_ammo_without_room_retries_ammo_respawn_ticks_later():
    game = new_game(["0w", "w1"], ammo_delay=2, ammo_respawn=5)
    step(game, "p", "")
    snap = step(game, "", "")                                      # tick 1: due, no room
    assert snap["ammo_items"] == [] and snap["pending_ammo"] == [5]
    snap = wait(game, 4)
    assert snap["pending_ammo"] == [1]
    snap = step(game, "", "")                                      # tick 6: still no room
    assert snap["ammo_items"] == [] and snap["pending_ammo"] == [5]

def test_a_spawn_never_lands_where_something_went_this_tick():
    game = new_game(["0a", "1#"], treasure_retry=1)
    snap = game.snapshot(0)
    # the token perishes during tick 0 and the treasure is due then: its cell, the only
    # one without a player, is not free before the tick ends
    game.restore(edited(snap, ammo_items=[{"x": 1, "y": 1, "life": 1}], treasure_timer=1))
    snap = step(game, "", "")
    assert snap["board"] == ["0.", "1#"] and snap["treasure_timer"] == 1     # retries
    snap = step(game, "", "")
    assert snap["board"] == ["0t", "1#"]


def test_treasure_appears_every_randint_ticks_and_never_perishes():
    rows = ["0....", ".....", "....1"]
    game = new_game(rows, treasure_min=10, treasure_max=10)
    snap = wait(game, 9)
    assert sum(row.count("t") for row in snap["board"]) == 0
    snap = step(game, "", "")
    assert sum(row.count("t") for row in snap["board"]) == 1
    snap = wait(game, 10)
    assert sum(row.count("t") for row in snap["board"]) == 2
    snap = wait(game, 500)                                         # never perishes: fills
    assert sum(row.count("t") for row in snap["board"]) == 13      # every free cell


def test_treasure_intervals_are_drawn_in_range():
    game = new_game(["0....", ".....", "....1"], treasure_min=3, treasure_max=6)
    seen = set()
    last = 0
    for t in range(1, 200):
        snap = step(game, "", "")
        count = sum(row.count("t") for row in snap["board"])
        if count > last:
            seen.add(snap["tick"])
            last = count
        if count == 13:                                            # board full
            break
    times = sorted(seen)
    gaps = {b - a for a, b in zip(times, times[1:])}
    assert gaps <= set(range(3, 7)) and len(gaps) > 1


def test_treasure_pickup_scores_one():
    game = new_game(["0t..", "...1"])
    snap = step(game, "r", "")
    assert scores(snap) == [1, 0] and snap["board"] == [".0..", "...1"]


def test_treasure_without_room_retries_after_randint_1_retry():
    game = new_game(["01"], treasure_min=1, treasure_max=1, treasure_retry=4)
    timers = set()
    for _ in range(40):
        timers.add(step(game, "", "")["treasure_timer"])
    assert timers <= {0, 1, 2, 3, 4} and max(timers) > 1


# -- HP, death, end ------------------------------------------------------------------

def test_last_player_alive_wins():
    game = new_game(["0.1", "...", "..."], player_hp=1, bomb_fuse=3, reward="win_loss")
    step(game, "", "p")
    step(game, "", "d")
    step(game, "", "l")                                           # 1 at (1, 1): diagonal
    snap = step(game, "", "")                                      # 0 at (0, 2): x distance 2
    assert snap["over"] and snap["alive"].tolist() == [False, True]
    assert snap["winner"] == 1 and scores(snap) == [0, 25]
    assert game.rewards[0].tolist() == [-1.0, 1.0]
    assert game.terminated[0].tolist() == [True, True]


def test_last_alive_wins_even_with_a_lower_score():
    game = new_game(["0.1", "...", "..."], player_hp=1, bomb_fuse=3, reward="win_loss")
    game.state.scores[0, 0] = 500
    step(game, "p", "")
    step(game, "d", "")
    step(game, "r", "")                                            # 0 safe at (1, 1)
    snap = step(game, "", "")                                      # 1 at (2, 2): hit
    assert snap["winner"] == 0
    game = new_game(["0.1", "...", "..."], player_hp=1, bomb_fuse=3, reward="win_loss")
    game.state.scores[0, 1] = 500
    step(game, "p", "")
    step(game, "d", "")
    step(game, "r", "")
    snap = step(game, "", "")
    assert snap["winner"] == 0 and game.rewards[0].tolist() == [1.0, -1.0]


def test_time_limit_highest_score_wins_else_draw():
    game = new_game(["0t..", "...1"], max_turns=5, reward="win_loss")
    snap = step(game, "r", "")
    assert game.rewards[0].tolist() == [0.0, 0.0] and not snap["over"]
    snap = wait(game, 4)
    assert snap["over"] and snap["tick"] == 5 and snap["winner"] == 0
    assert game.rewards[0].tolist() == [1.0, -1.0]
    assert game.terminated[0].tolist() == [True, True]
    assert game.truncated[0].tolist() == [False, False]
    game = new_game(["0...", "...1"], max_turns=5, reward="win_loss")
    snap = wait(game, 5)
    assert snap["over"] and snap["winner"] == -1 and game.rewards[0].tolist() == [0.0, 0.0]


def test_all_players_dying_on_the_same_tick_draw_whatever_the_scores():
    rows = ["0.1", "...", "..."]
    game = new_game(rows, player_hp=1, bomb_fuse=3, reward="win_loss")
    game.state.scores[0, 0] = 7
    step(game, "p", "")
    snap = wait(game, 3)                                           # both in the blast
    assert snap["alive"].tolist() == [False, False] and snap["over"]
    assert snap["winner"] == -1 and game.rewards[0].tolist() == [0.0, 0.0]

def test_default_game_lasts_1800_ticks():
    game = new_game(["0...", "...1"])
    snap = wait(game, 1799)
    assert not snap["over"] and snap["turns_left"] == 1
    snap = wait(game, 1)
    assert snap["over"] and snap["tick"] == 1800


def test_hp_three_and_score_rewards():
    game = new_game([".....", "0...1", "....."], bomb_fuse=3)
    assert hp(game.snapshot(0)) == [3, 3]
    step(game, "", "p")
    step(game, "", "u")
    step(game, "", "l")
    game.state.positions[0, 0] = (3, 1)
    snap = step(game, "", "")
    assert hp(snap) == [2, 3] and scores(snap) == [0, 25]
    assert game.rewards[0].tolist() == [0.0, 25.0]


def test_dead_player_terminates_and_the_game_goes_on():
    env = botarena.envs.dungeon_v0.parallel_env(board="0..1.2\n......", player_hp=1, bomb_fuse=2,
                                                **NO_TREASURE)
    env.reset(seed=0)
    env.step({"player_0": 0, "player_1": 5, "player_2": 0})
    env.step({"player_0": 0, "player_1": 2, "player_2": 0})
    obs, rew, term, trunc, infos = env.step({"player_0": 0, "player_1": 3, "player_2": 0})
    assert term == {"player_0": False, "player_1": False, "player_2": True}
    assert env.agents == ["player_0", "player_1"]
    assert rew["player_1"] == 25.0
    obs, rew, term, trunc, infos = env.step({"player_0": 0, "player_1": 0})
    assert set(obs) == {"player_0", "player_1"} and not any(term.values())
    # the dead player's actions are ignored and its body stays
    snap = env.snapshot()
    assert snap["board"][0][5] == "x" and snap["players"][2]["alive"] is False


def test_a_dead_players_fire_still_hits_and_pays_it():
    game = new_game(["0.w", "...", ".12"], player_hp=1)
    snap = step(game, "", "", "")
    players = snap["players"]
    players[0].update(hp=0, alive=False, death_tick=0)
    # a bomb of the dead player 0, placed before it died, about to turn into fire
    game.restore(edited(snap, players=players,
                        bombs=[{"x": 1, "y": 2, "owner": 0, "fuse": 1, "power": 2}]))
    snap = step(game, "", "", "")
    assert snap["board"] == ["x*w", ".*.", ".12"]                 # player 1 under the fire
    assert (1, 0) in snap["fire"]
    snap = step(game, "", "", "")
    assert snap["board"][0] == "x.." and snap["alive"].tolist() == [False, False, True]
    assert scores(snap) == [2 + 25, 0, 0] and snap["over"] and snap["winner"] == 2

