"""towers_v0 rule scenarios: an ASCII board before, the commands, the state after; one or
more per paragraph of the turn (rules.py), named after it.

Boards use ``snapshot()["board"]``'s characters: ``.`` land, ``~`` water, ``!`` flag,
``a``/``b`` one bot of player 0/1 at the tile's centre (``A``/``B`` on a flag), ``x``/``y``
a tower of player 0/1, ready to blast (``X``/``Y`` on a flag).  Row x = 0 is the top line.
Games here spawn nothing unless a test says so (``num_bots_start=0``,
``bot_spawn_frequency=0``).
"""
import numpy as np
import pytest

from botarena.envs.towers.constants import Command
from botarena.envs.towers_v0 import Config, TowersGame

TERRAIN_OF = {".": "L", "~": "W", "!": "F", "a": "L", "b": "L", "x": "L", "y": "L",
              "A": "F", "B": "F", "X": "F", "Y": "F"}
MOVES = {"N": Command.MOVE_N, "NE": Command.MOVE_NE, "E": Command.MOVE_E, "SE": Command.MOVE_SE,
         "S": Command.MOVE_S, "SW": Command.MOVE_SW, "W": Command.MOVE_W, "NW": Command.MOVE_NW}
MIRROR = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


def rows_of(board):
    return [r.strip() for r in board.strip().splitlines()]


def scenario(board, **config):
    """A one-env game in the position of ``board`` (its terrain is the map)."""
    rows = rows_of(board)
    terrain = ["".join(TERRAIN_OF[ch] for ch in row) for row in rows]
    settings = dict(num_bots_start=0, bot_spawn_frequency=0)
    settings.update(config)
    game = TowersGame(Config(board=terrain, map_size=len(rows), **settings), 1)
    game.reset(0)
    game.set_position(rows)
    return game


def step(game, *commands):
    """One turn with ``(player, x, y, command)`` entries in absolute terms (tile (x, y),
    a move by compass name or a ``Command``); other tiles no-op."""
    N = game.size
    actions = np.zeros_like(game.actions)
    for player, x, y, command in commands:
        if isinstance(command, str):
            command = MOVES[MIRROR[command] if player == 1 else command]
        t = x * N + y
        actions[0, player, t if player == 0 else N * N - 1 - t] = int(command)
    game.step(actions)


def board(game):
    return game.snapshot()["board"]


def bots(game, owner=None):
    return [b for b in game.snapshot()["bots"] if owner is None or b["owner"] == owner]


def place(game, bots_=(), towers=(), turn=None):
    """Replace the units by explicit ones: bots ``(owner, x, y, hp)``, towers ``(owner, x, y,
    hp, age)``; ids in order."""
    snap = game.snapshot()
    if turn is not None:
        snap["turn"] = turn
    units = []
    for k, (owner, x, y, hp) in enumerate(bots_):
        units.append({"owner": owner, "id": k, "x": x, "y": y, "hp": hp, "command": "idle",
                      "target_x": x, "target_y": y, "dead": False})
    built = [{"owner": owner, "id": len(units) + k, "x": x, "y": y, "hp": hp, "age": age,
              "dead": False} for k, (owner, x, y, hp, age) in enumerate(towers)]
    snap.update(bots=units, towers=built, next_id=len(units) + len(built))
    game.restore(snap)


OPEN = """
........
........
........
........
........
........
...!!...
........
"""


# -- 1. apply_commands ---------------------------------------------------------------------
def test_apply_commands_a_tile_command_moves_its_oldest_bot_only():
    game = scenario("""
a.......
........
........
........
........
........
.......!
.......b
""")
    place(game, [(0, 2.5, 2.5, 200), (0, 2.5, 2.5, 200)])
    step(game, (0, 2, 2, "E"))
    assert board(game)[2] == "..aa...."
    assert [b["y"] for b in bots(game)] == [3.5, 2.5]
    step(game, (0, 2, 2, "S"), (0, 2, 3, "W"))    # the one left behind goes S; the other W
    assert [(b["x"], b["y"]) for b in bots(game)] == [(2.5, 2.5), (3.5, 2.5)]


def test_apply_commands_noop_keeps_the_current_command():
    game = scenario(OPEN)
    place(game, [(0, 2.5, 2.5, 200)])
    step(game, (0, 2, 2, "SE"))                    # sqrt(2) away: two turns at speed 1
    b = bots(game)[0]
    assert b["command"] == "move" and (b["target_x"], b["target_y"]) == (3.5, 3.5)
    assert b["x"] == pytest.approx(2.5 + 0.5 ** 0.5, abs=1e-6)
    step(game)
    b = bots(game)[0]
    assert (b["x"], b["y"], b["command"]) == (3.5, 3.5, "idle")


def test_apply_commands_off_the_map_is_ignored():
    game = scenario(OPEN)
    place(game, [(0, 0.5, 0.5, 200)])
    step(game, (0, 0, 0, "N"))
    assert bots(game)[0]["command"] == "idle"


# -- 2. remove_dead ------------------------------------------------------------------------
def test_remove_dead_a_blaster_stays_marked_for_one_turn_then_leaves():
    game = scenario(OPEN)
    place(game, [(0, 2.5, 2.5, 200), (1, 5.5, 5.5, 200)])
    step(game, (0, 2, 2, Command.BLAST))
    assert [(b["owner"], b["dead"]) for b in bots(game)] == [(0, True), (1, False)]
    assert board(game)[2] == "........"            # the board shows living units only
    step(game)
    assert [b["owner"] for b in bots(game)] == [1]


# -- 3. bots_act: blast falloff ------------------------------------------------------------
@pytest.mark.parametrize("distance, damage", [(0.0, 50), (0.5, 37), (1.0, 25), (1.5, 12),
                                              (1.99, 0), (2.0, 0), (2.5, 0)])
def test_bots_act_blast_falls_off_linearly(distance, damage):
    game = scenario(OPEN)
    place(game, [(0, 3.5, 3.5, 200), (1, 3.5, 3.5 + distance, 200), (0, 3.5, 4.0, 200)])
    step(game, (0, 3, 3, Command.BLAST))
    blaster, friend, enemy = bots(game)[0], bots(game)[1], bots(game)[2]
    assert blaster["dead"]
    assert friend["hp"] == 200                    # no friendly fire
    assert enemy["hp"] == 200 - damage


def test_bots_act_simultaneous_blasts_sum_and_use_positions_before_the_moves():
    game = scenario(OPEN)
    place(game, [(0, 3.5, 3.5, 200), (0, 3.5, 5.5, 200), (1, 3.5, 4.5, 200),
                 (1, 4.5, 3.5, 200), (1, 2.5, 4.5, 200)])
    # both of player 0's bots blast; player 1's bot at (3.5, 4.5) blasts too; the one at
    # (2.5, 4.5) walks away N but is hit where it stood
    step(game, (0, 3, 3, Command.BLAST), (0, 3, 5, Command.BLAST),
         (1, 3, 4, Command.BLAST), (1, 2, 4, "N"))
    hp = {(b["owner"], b["x"], b["y"]): (b["hp"], b["dead"]) for b in bots(game)}
    assert hp[(0, 3.5, 3.5)] == (200 - 25, True)  # hit by the enemy blast, and blasted
    assert hp[(0, 3.5, 5.5)] == (200 - 25, True)
    assert hp[(1, 3.5, 4.5)] == (200 - 25 - 25, True)
    assert hp[(1, 4.5, 3.5)] == (200 - 25 - 0, False)   # 1 and sqrt(5) from the blasts
    assert hp[(1, 1.5, 4.5)] == (200 - 14 - 14, False)  # sqrt(2) from both: 14 each


# -- 4. towers_act -------------------------------------------------------------------------
def test_towers_act_a_young_tower_cannot_blast_an_old_one_can():
    game = scenario(OPEN, tower_min_blast_age=3)
    place(game, [(1, 4.5, 3.5, 200), (1, 3.5, 7.5, 200)], [(0, 3, 3, 600, 2)], turn=5)
    t = 3 * 8 + 3
    assert game.masks[0, 0, t * 11 + Command.BLAST] == 0
    step(game, (0, 3, 3, Command.BLAST))
    assert not game.snapshot()["towers"][0]["dead"]
    assert [b["hp"] for b in bots(game)] == [200, 200]
    assert game.masks[0, 0, t * 11 + Command.BLAST] == 1     # age 3 now
    step(game, (0, 3, 3, Command.BLAST))
    assert game.snapshot()["towers"][0]["dead"]
    # from the tower's midpoint (3.5, 3.5): 1 -> floor(500 * 5/6), 4 -> floor(500 * 2/6)
    assert [b["hp"] for b in bots(game)] == [200 - 416, 200 - 166]
    assert [b["dead"] for b in bots(game)] == [True, False]


# -- 5. apply_damage -----------------------------------------------------------------------
def test_apply_damage_kills_at_zero_hp_and_a_dead_tower_frees_its_tile():
    game = scenario(OPEN)
    place(game, [(0, 3.5, 3.5, 200), (1, 3.5, 3.5, 50), (1, 3.5, 4.5, 26)],
          [(1, 4, 3, 10, 0)])
    step(game, (0, 3, 3, Command.BLAST))
    state = {(b["x"], b["y"]): b["dead"] for b in bots(game) if b["owner"] == 1}
    assert state == {(3.5, 3.5): True, (3.5, 4.5): False}       # 26 - 25 = 1 HP left
    assert game.snapshot()["towers"][0]["dead"]                  # 10 HP, hit by 25
    assert board(game)[4] == "........"


# -- 6. move_bots --------------------------------------------------------------------------
def test_move_bots_walk_around_water_without_cutting_corners():
    game = scenario("""
a.......
.a~.....
........
........
........
........
...!!...
.......b
""")
    assert game.masks[0, 0, (1 * 8 + 1) * 11 + Command.MOVE_SE] == 0   # corner cut
    step(game, (0, 1, 1, "SE"))
    b = bots(game, 0)[1]
    assert (b["x"], b["y"]) == (2.5, 1.5)          # first the tile below, ...
    step(game)
    b = bots(game, 0)[1]
    assert (b["x"], b["y"], b["command"]) == (2.5, 2.5, "idle")    # ... then beside it


def test_move_bots_keep_trying_an_unreachable_tile_until_it_opens():
    # the flag lies behind water and player 0's towers in column 5
    game = scenario("""
.....~..
.....~.a
.....x..
.....x..
...!!x..
.....x..
.....x..
.....x.b
""")
    snap = game.snapshot()
    bot = next(b for b in snap["bots"] if b["owner"] == 1)
    bot.update(command="move", target_x=4.5, target_y=3.5)
    game.restore(snap)
    for _ in range(3):
        step(game)
        b = bots(game, 1)[0]
        assert (b["x"], b["y"], b["command"]) == (7.5, 7.5, "move")   # keeps trying
    step(game, (0, 2, 5, Command.BLAST))           # the tower at (2, 5) opens the wall
    assert bots(game, 1)[0]["x"] == 6.5            # on its way at once (moves follow deaths)
    for _ in range(12):
        step(game)
    b = bots(game, 1)[0]
    assert (b["x"], b["y"], b["command"]) == (4.5, 3.5, "idle")


def test_move_bots_a_tower_blocks_the_mask_and_the_path():
    game = scenario(OPEN)
    place(game, [(0, 3.5, 3.5, 200)], [(1, 3, 4, 600, 0)])
    t = 3 * 8 + 3
    assert game.masks[0, 0, t * 11 + Command.MOVE_E] == 0
    step(game, (0, 3, 3, "E"))
    b = bots(game)[0]
    assert (b["x"], b["y"], b["command"]) == (3.5, 3.5, "move")   # unreachable: waits


# -- 7. transform --------------------------------------------------------------------------
def test_transform_alone_makes_a_tower_with_three_times_the_hp():
    game = scenario(OPEN)
    place(game, [(0, 6.5, 3.5, 120)])
    step(game, (0, 6, 3, Command.TRANSFORM))
    towers = game.snapshot()["towers"]
    assert [(t["owner"], t["x"], t["y"], t["hp"], t["age"]) for t in towers] == [(0, 6, 3, 360, 0)]
    assert bots(game)[0]["dead"]
    assert board(game)[6] == "...X!..."


@pytest.mark.parametrize("other", [0, 1])
def test_transform_blocked_by_a_unit_of_either_player_keeps_trying(other):
    game = scenario(OPEN)
    place(game, [(0, 6.5, 3.5, 200), (other, 6.9, 3.9, 200)])
    step(game, (0, 6, 3, Command.TRANSFORM))
    assert game.snapshot()["towers"] == []
    assert bots(game)[0]["command"] == "transform"
    step(game)
    assert game.snapshot()["towers"] == []         # still blocked, still trying
    # the tile's command would go to its oldest bot (the transformer): the other one is
    # sent away through a snapshot
    snap = game.snapshot()
    snap["bots"][1].update(command="move", target_x=0.5, target_y=3.5)
    game.restore(snap)
    step(game)                                      # it walks out; the transform succeeds
    assert [t["x"] for t in game.snapshot()["towers"]] == [6]


def test_transform_never_on_a_base_nor_on_a_tower_nor_over_the_cap():
    game = scenario(OPEN, max_num_towers=1)
    place(game, [(0, 0.5, 0.5, 200), (0, 4.5, 4.5, 200), (0, 5.5, 5.5, 200)],
          [(0, 2, 2, 600, 0)])
    base = 0
    assert game.masks[0, 0, base * 11 + Command.TRANSFORM] == 0
    assert game.masks[0, 0, (4 * 8 + 4) * 11 + Command.TRANSFORM] == 0   # cap reached
    step(game, (0, 0, 0, Command.TRANSFORM), (0, 4, 4, Command.TRANSFORM))
    assert len(game.snapshot()["towers"]) == 1
    assert [b["command"] for b in bots(game)] == ["transform", "transform", "idle"]


# -- 8. score ------------------------------------------------------------------------------
def test_score_bots_and_towers_on_flags_and_ties_give_nothing():
    game = scenario("""
a.......
........
..!!!!..
..!!!!..
..!!!!..
........
........
.......b
""")
    five = [(0, 2.5, 2.5 + k, 200) for k in range(4)] + [(0, 3.5, 2.5, 200)]
    place(game, five + [(0, 6.5, 6.5, 200)], [(1, 4, 2, 600, 0), (1, 4, 3, 600, 0)])
    step(game)
    snap = game.snapshot()
    assert snap["turn_scores"].tolist() == [50, 50]
    assert snap["scores"].tolist() == [0, 0]
    place(game, five + [(0, 3.5, 3.5, 200)], [(1, 4, 2, 600, 0), (1, 4, 3, 600, 0)])
    step(game)
    snap = game.snapshot()
    assert snap["turn_scores"].tolist() == [60, 50]
    assert snap["scores"].tolist() == [1, 0]


# -- 9. spawn and the end --------------------------------------------------------------------
def test_spawn_one_bot_a_turn_at_each_base_up_to_the_cap_and_the_game_ends():
    game = scenario(OPEN, num_bots_start=0, bot_spawn_frequency=1, max_num_bots=2,
                    max_turns=4)
    place(game, [])
    for turn in range(3):
        step(game)
    snap = game.snapshot()
    assert sorted((b["owner"], b["x"], b["y"]) for b in snap["bots"]) == \
        [(0, 0.5, 0.5)] * 2 + [(1, 7.5, 7.5)] * 2
    assert not snap["over"]
    step(game)
    snap = game.snapshot()
    assert snap["over"] and snap["turn"] == 4 and snap["winner"] == -1
    assert game.terminated.all()


def test_reset_starts_num_bots_start_at_each_base():
    game = TowersGame(Config(), 1)
    game.reset(0)
    snap = game.snapshot()
    assert sum(b["owner"] == 0 and (b["x"], b["y"]) == (0.5, 0.5) for b in snap["bots"]) == 20
    assert sum(b["owner"] == 1 and (b["x"], b["y"]) == (29.5, 29.5) for b in snap["bots"]) == 20


# -- the mirrored view ---------------------------------------------------------------------
def test_player_1_sees_and_commands_a_mirrored_board():
    game = scenario("""
a.......
.a......
........
...!!...
...!!...
........
......b.
.......b
""")
    # the position is point-symmetric: both players see the same planes and masks
    assert np.array_equal(game.obs[0, 0], game.obs[0, 1])
    assert np.array_equal(game.masks[0, 0], game.masks[0, 1])
    # player 1's own bot at absolute (6, 6) is on its view's tile (1, 1); its view's
    # "move S" (x + 1) walks it up the absolute board, as player 0's "move S" walks down
    actions = np.zeros_like(game.actions)
    actions[0, 0, 1 * 8 + 1] = Command.MOVE_S
    actions[0, 1, 1 * 8 + 1] = Command.MOVE_S
    game.step(actions)
    assert board(game)[2][1] == "a" and board(game)[5][6] == "b"
    assert np.array_equal(game.obs[0, 0], game.obs[0, 1])
