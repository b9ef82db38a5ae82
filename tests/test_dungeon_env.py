"""dungeon_v0 env: spaces, observation planes and masks, snapshot, renders, rewards, and
the scripted bots."""
import numpy as np
import pytest

from botarena.envs.dungeon import observe
from botarena.envs.dungeon.constants import Plane
from botarena.envs.dungeon_v0 import Config, DungeonGame, parallel_env

from test_dungeon_rules import new_game, step, wait

P = Plane


def test_spaces_and_agents():
    env = parallel_env()
    obs, infos = env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    space = env.observation_space("player_0")
    assert space.shape == (len(Plane), 10, 12) and space.dtype == np.uint8
    assert env.action_space("player_0").n == 6
    assert all(space.contains(o) for o in obs.values())
    four = parallel_env(num_players=4)
    assert len(four.possible_agents) == 4


def test_observation_planes_from_each_side():
    game = new_game(["#w..1", ".o0a.", "t...."])
    obs = game.obs[0]
    # obs[a, plane, y, x]; the text's top row is y = 2
    for a in range(2):
        # uint8 planes: 255 for true and full (SB3 reads them as an image)
        assert obs[a, P.METAL, 2, 0] == 255 and obs[a, P.METAL].sum() == 255
        assert obs[a, P.WOOD, 2, 1] == 255
        assert obs[a, P.ORE, 1, 1] == 255
        assert obs[a, P.AMMO, 1, 3] == 255 and obs[a, P.TREASURE, 0, 0] == 255
        assert obs[a, P.BOMB].sum() == 0 and obs[a, P.DANGER].sum() == 0
        assert (obs[a, P.OWN_HP] == 255).all() and (obs[a, P.TIME_LEFT] == 255).all()
        assert (obs[a, P.OWN_AMMO] == int(255 * 3 / 10 + 0.5)).all()
    assert obs[0, P.OWN, 1, 2] == 255 and obs[0, P.OPPONENT, 2, 4] == 255
    assert obs[1, P.OWN, 2, 4] == 255 and obs[1, P.OPPONENT, 1, 2] == 255
    assert obs[0, P.OWN].sum() == 255 and obs[1, P.OPPONENT].sum() == 255


def test_bomb_and_danger_planes():
    game = new_game([".....", "0....", "....1"], bomb_fuse=4)
    step(game, "p", "")
    obs = game.obs[0]
    assert obs[0, P.BOMB, 1, 0] == int(255 * 3 / 4 + 0.5)
    danger = obs[0, P.DANGER]
    cells = {(int(x), int(y)) for y, x in zip(*np.nonzero(danger))}
    assert cells == {(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)}
    assert len(set(danger[danger > 0].tolist())) == 1
    step(game, "r", "")
    step(game, "r", "")
    step(game, "r", "")                                            # tick 3: fire formed
    assert (game.obs[0, :, P.DANGER, 1, 1] == 255).all()
    assert game.obs[0, 0, P.BOMB].sum() == 0



def test_ego_view_centres_the_planes_on_the_own_player():
    """3 x 5 board, so the ego window is 5 x 9 with the own player at (x 4, y 2)."""
    game = new_game(["#w..1", ".o0a.", "t...."], view="ego")
    assert game.obs.shape == (1, 2, len(Plane), 5, 9)
    for a, (x, y) in enumerate([(2, 1), (4, 2)]):
        obs = game.obs[0, a]
        left, bottom = 4 - x, 2 - y                  # board (0, 0) in the window
        assert obs[P.OWN, 2, 4] == 255 and obs[P.OWN].sum() == 255
        assert obs[P.WOOD, bottom + 2, left + 1] == 255 and obs[P.WOOD].sum() == 255
        assert obs[P.TREASURE, bottom, left] == 255
        # off the board: metal; the board's own metal block is the one inside
        inside = np.zeros((5, 9), bool)
        inside[bottom:bottom + 3, left:left + 5] = True
        assert (obs[P.METAL][~inside] == 255).all()
        assert obs[P.METAL][inside].sum() == 255 and obs[P.METAL, bottom + 2, left] == 255
        # constant planes cover the whole window, other planes are empty off the board
        assert (obs[P.OWN_HP] == 255).all() and (obs[P.TIME_LEFT] == 255).all()
        assert (obs[P.OWN_AMMO] == int(255 * 3 / 10 + 0.5)).all()
        assert obs[P.WOOD][~inside].sum() == 0 and obs[P.DANGER][~inside].sum() == 0
    assert game.obs[0, 0, P.OPPONENT, 3, 6] == 255 and game.obs[0, 1, P.OPPONENT, 1, 2] == 255


def shifted(planes, window, x, y):
    """The ego window centred on (x, y) holds ``planes`` (a 7 x 9 board)."""
    return np.array_equal(window[:, 6 - y:6 - y + 7, 8 - x:8 - x + 9], planes)


@pytest.mark.parametrize("obs_dtype", ["uint8", "float32"])
def test_ego_view_is_the_board_view_shifted(obs_dtype):
    """Random games with autoresets (final observations included) on generated 4-player
    boards: every ego window holds its board planes at the own player's offset, the same
    masks, rewards and flags."""
    config = dict(num_players=4, width=9, height=7, metal_blocks=6, wooden_blocks=8,
                  ore_blocks=2, bomb_fuse=6, max_turns=40, obs_dtype=obs_dtype)
    board, ego = DungeonGame(Config(**config), 3), DungeonGame(Config(view="ego", **config), 3)
    board.reset(seed=5)
    ego.reset(seed=5)
    rng = np.random.default_rng(2)
    finals = 0
    for _ in range(120):
        actions = rng.integers(0, 6, (3, 4))
        board.step(actions, autoreset=True)
        ego.step(actions, autoreset=True)
        for name in ("rewards", "terminated", "truncated", "masks"):
            np.testing.assert_array_equal(getattr(board, name), getattr(ego, name))
        for e in range(3):
            for a in range(4):
                x, y = board.state.positions[e, a]
                assert shifted(board.obs[e, a], ego.obs[e, a], x, y)
        done = np.flatnonzero(board.truncated.any(1) | board.terminated.all(1))
        for e in done:                     # the final observation, before the reset
            finals += 1
            for a in range(4):
                placed = [(x, y) for y in range(7) for x in range(9)
                          if shifted(board.final_obs[e, a], ego.final_obs[e, a], x, y)]
                assert placed, "the final ego window holds the final board planes"
    assert finals > 0


@pytest.mark.parametrize("view", ["board", "ego"])
@pytest.mark.parametrize("obs_dtype", ["uint8", "float32"])
def test_observation_redrawn_where_changed_is_whole(view, obs_dtype):
    """A step redraws only what changed (observe.draw_observation): after every step of
    random games with autoresets, the observation and masks equal a whole drawing of the same
    state into zeroed buffers."""
    config = Config(num_players=3, width=7, height=6, metal_blocks=4, wooden_blocks=8,
                    ore_blocks=3, ore_hp=2, bomb_fuse=4, max_turns=50, ammo_lifetime=9,
                    ammo_delay=3, treasure_min=2, treasure_max=6, view=view,
                    obs_dtype=obs_dtype)
    game = DungeonGame(config, 4)
    game.reset(seed=3)
    rng = np.random.default_rng(4)
    for _ in range(150):
        game.step(rng.integers(0, 6, (4, 3)), autoreset=True)
        state = game.copy_state()
        obs, masks = np.zeros_like(game.obs), np.zeros_like(game.masks)
        board, ore = state.tiles.reshape(4, -1), state.ore_hp.reshape(4, -1)
        windows = obs.reshape(obs.shape[:3] + (-1,))
        planes = state.board_obs if view == "ego" else windows
        for e in range(4):
            observe.draw_observation(state, game.params, e, board[e], ore[e], planes[e],
                               windows[e], masks[e], True)
        np.testing.assert_array_equal(game.obs, obs)
        np.testing.assert_array_equal(game.masks, masks)


def test_float32_observations():
    game = new_game(["#w..1", ".o0a.", "t...."], obs_dtype="float32")
    obs = game.obs[0]
    assert obs.dtype == np.float32 and obs.max() <= 1.0 and obs.min() >= 0.0
    assert obs[0, P.ORE, 1, 1] == 1.0 and obs[0, P.OWN_HP, 0, 0] == 1.0


def test_action_masks():
    game = new_game(["0w.", "...", "..1"], player_ammo=1)
    # player 0 at (0, 2): up and left off the board, right into wood
    assert game.masks[0, 0].tolist() == [1, 0, 1, 0, 0, 1]
    step(game, "p", "")
    assert game.masks[0, 0].tolist() == [1, 0, 1, 0, 0, 0]          # on its bomb, no ammo
    step(game, "d", "")
    assert game.masks[0, 0].tolist() == [1, 0, 1, 0, 1, 0]          # bomb above: not back up



# -- the shield (Config.shield): masks of actions with no escape ----------------------

DEAD_END = ["#0..#..1"]      # player 0's blast (power 2) covers its whole corridor
OPEN_END = ["#0...#.1"]      # ... leaves (4, 0) out of it


def test_shield_masks_a_bomb_in_a_dead_end_that_the_legal_mask_allows():
    assert new_game(DEAD_END).masks[0, 0].tolist() == [1, 0, 0, 0, 1, 1]
    assert new_game(DEAD_END, shield=True).masks[0, 0].tolist() == [1, 0, 0, 0, 1, 0]
    assert new_game(OPEN_END, shield=True).masks[0, 0].tolist() == [1, 0, 0, 0, 1, 1]
    # what the shield spares: bombing there and running as far as it can costs a hit point
    game = new_game(DEAD_END)
    for action in ("p", "r", "r"):
        step(game, action, "")
    assert wait(game, 40)["hp"].tolist() == [2, 3]


def test_shield_masks_a_step_into_fire_due_next_tick_but_not_a_step_in_and_out():
    game, unshielded = new_game(OPEN_END, shield=True), new_game(OPEN_END)
    for g in (game, unshielded):
        for action in ("p", "r", "r", "r"):
            step(g, action, "")                 # bomb at (1, 0), player 0 on (4, 0)
    while game.snapshot(0)["bombs"][0]["fuse"] > 1:
        for g in (game, unshielded):
            step(g, "", "")
    # the fire hits (1..3, 0) two ticks from now: stepping in and back out is safe; a
    # bomb here is not (its blast covers (2..4, 0), the first bomb still blocks (1, 0))
    assert game.masks[0, 0].tolist() == [1, 0, 0, 1, 0, 0]
    for g in (game, unshielded):
        step(g, "", "")
    # now the fire hits during the next tick: the step into it is masked too
    assert game.masks[0, 0].tolist() == [1, 0, 0, 0, 0, 0]
    assert unshielded.masks[0, 0].tolist() == [1, 0, 0, 1, 0, 1]
    assert step(unshielded, "l", "")["hp"].tolist() == [2, 3]
    assert step(game, "", "")["hp"].tolist() == [3, 3]


def test_shield_leaves_the_legal_mask_when_no_action_escapes():
    game = new_game(DEAD_END, shield=True)
    for action in ("p", "r", "r"):
        step(game, action, "")                  # masked, but played: the game takes it
    assert game.snapshot(0)["players"][0]["x"] == 3
    assert game.masks[0, 0].tolist() == [1, 0, 0, 1, 0, 1]     # all doomed: the legal mask


def test_shield_changes_masks_only_and_spares_random_players_their_own_fire():
    """Uniformly random players, on the legal and on the shielded masks: the shielded
    masks are non-empty subsets of the legal ones, and the shielded players lose far
    fewer hit points."""
    envs, ticks = 32, 400
    lost = {}
    for shield in (False, True):
        game = DungeonGame(Config(shield=shield), envs)
        legal = DungeonGame(Config(), envs)
        rng = np.random.default_rng(5)
        game.reset(seed=9)
        legal.reset(seed=9)
        hurt = 0
        for _ in range(ticks):
            assert (game.masks <= legal.masks).all() and game.masks.any(axis=2).all()
            weights = rng.random(game.masks.shape) * game.masks
            actions = weights.argmax(axis=2)
            hp, tick = np.maximum(game.state.hp, 0), game.state.tick.copy()
            for g in (game, legal):
                g.step(actions, autoreset=True)
            same_game = game.state.tick == tick + 1          # not a new one (autoreset)
            hurt += (hp - np.maximum(game.state.hp, 0))[same_game].sum()
            assert np.array_equal(game.state.tiles, legal.state.tiles)
            assert np.array_equal(game.state.positions, legal.state.positions)
        lost[shield] = hurt
    assert lost[True] * 4 < lost[False]


def test_snapshot_keys():
    game = new_game(["0..", "..1"])
    step(game, "p", "r")
    snap = game.snapshot(0)
    assert set(snap) == {
        "board", "tick", "turns_left", "steps", "over", "players", "positions", "hp", "ammo",
        "alive", "scores", "bombs", "fires", "fire", "ore_hp", "ammo_items", "pending_ammo",
        "treasure_timer", "tiles", "winner", "rng"}
    assert snap["tick"] == 1 and snap["turns_left"] == 1799
    assert snap["bombs"] == [{"x": 0, "y": 1, "owner": 0, "fuse": 34, "power": 2}]
    assert snap["players"][1] == {"x": 2, "y": 0, "hp": 3, "ammo": 3, "power": 2, "score": 0,
                                  "alive": True, "death_tick": None}
    assert snap["pending_ammo"] == [69] and snap["fires"] == []


def test_renders():
    env = parallel_env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "tick=0" in text and "0" in text and "1" in text
    env = parallel_env(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape[1:] == (288, 3) and frame.dtype == np.uint8     # 12 cells of 24 pixels
    assert env.state().shape == env.state_space.shape


def test_hurt_penalty_per_hit_point_lost():
    """Both players stand in player 0's fire and lose a hit point each: -1.5 each on top of
    the score reward (player 0's +25 for hitting player 1)."""
    game = new_game(["0.1.."], bomb_fuse=2, hurt_penalty=1.5)
    step(game, "p", "")
    step(game, "", "l")                              # both in the fire's reach
    snap = step(game, "", "")                        # the fire hits during this tick
    assert list(snap["hp"]) == [2, 2]
    assert list(game.rewards[0]) == [25.0 - 1.5, -1.5]
    step(game, "", "")
    assert list(game.rewards[0]) == [0.0, 0.0]


@pytest.mark.parametrize("reward", ["score", "zero_sum"])
def test_rewards_add_up(reward):
    env = parallel_env(reward=reward)
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        acts = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
        obs, rew, term, trunc, infos = env.step(acts)
        for a, r in rew.items():
            totals[a] += r
    scores = env.snapshot()["scores"]
    if reward == "score":
        assert [totals[a] for a in env.possible_agents] == [float(s) for s in scores]
    else:
        assert totals["player_0"] == pytest.approx(-totals["player_1"])


# -- bots --------------------------------------------------------------------------------

def play_bots(bot0, bot1, seed, ticks=600, num_envs=8, **config):
    game = DungeonGame(Config(**config), num_envs)
    game.reset(seed=seed)
    envs = np.arange(num_envs)
    a0, a1 = np.zeros(num_envs, np.int64), np.ones(num_envs, np.int64)
    out0, out1 = np.zeros(num_envs, np.int64), np.zeros(num_envs, np.int64)
    hp_lost = np.zeros((num_envs, 2), np.int64)
    for _ in range(ticks):
        if game.over.all():
            break
        before = game.state.hp.copy()
        game.bots[bot0](game.state, game.params, envs, a0, out0) if bot0 else out0.fill(0)
        game.bots[bot1](game.state, game.params, envs, a1, out1) if bot1 else out1.fill(0)
        game.step(np.stack([out0, out1], axis=1))
        hp_lost += before - game.state.hp
    return game, hp_lost


def test_bots_use_only_the_agent_stream():
    game = DungeonGame(Config(), 4)
    game.reset(seed=1)
    game_rng = game.state.rng[:, 0].copy()
    out = np.zeros(4, np.int64)
    for name in ("random", "safe_bomber", "aggressive", "greedy"):
        game.bots[name](game.state, game.params, np.arange(4), np.zeros(4, np.int64), out)
        assert ((out >= 0) & (out < 6)).all()
    assert np.array_equal(game.state.rng[:, 0], game_rng)


def test_safe_bomber_bombs_blocks_and_never_hurts_itself():
    game, hp_lost = play_bots("safe_bomber", None, seed=0)
    assert (hp_lost[:, 0] == 0).all()
    assert (game.state.scores[:, 0] > 0).sum() >= 6                 # it scores by bombing


def test_random_bot_plays_legal_actions():
    game = DungeonGame(Config(), 16)
    game.reset(seed=0)
    out = np.zeros(16, np.int64)
    for _ in range(100):
        for a in range(2):
            game.bots["random"](game.state, game.params, np.arange(16), np.full(16, a), out)
            assert game.masks[np.arange(16), a, out].all()
            game.actions[:, a] = out
        game.step(autoreset=True)


def test_aggressive_hunts_a_passive_opponent():
    game, hp_lost = play_bots("aggressive", None, seed=4, ticks=900)
    assert hp_lost[:, 1].sum() > 0                                  # it hits the opponent
    assert (game.state.scores[:, 0] >= 25).sum() >= 2
    assert hp_lost[:, 0].sum() <= hp_lost[:, 1].sum()


def test_cloning_data_leaves_out_teacher_actions_the_shield_masks():
    """``training.pretrain.collect``: a teacher action outside the recorded mask would cost
    ~1e8 of log-likelihood; the random bot (legal, not shielded, actions) plays some."""
    from botarena.training.pretrain import collect

    envs, steps = 8, 200
    data = collect("dungeon_v0", envs, steps, opponent=("random",), seed=3, teacher="random",
                   shield=True)
    kept = len(data["actions"])
    assert 0 < kept < envs * steps
    assert all(len(value) == kept for value in data.values())
    assert data["masks"][np.arange(kept), data["actions"]].all()
