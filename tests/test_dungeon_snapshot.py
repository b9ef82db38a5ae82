"""dungeon_v0 snapshot and restore: ``restore(snapshot())`` gives the same snapshot and the
same trajectory (random states of several configs), in any env of a batch, and a bad
snapshot raises ``ValueError`` naming its key and changes nothing."""
import copy

import numpy as np
import pytest

from botarena.envs.dungeon.constants import METAL
from botarena.replay import canonical as canonical_snapshot
from botarena.envs.dungeon_v0 import Config, DungeonGame, parallel_env

CONFIGS = [{}, {"num_players": 4, "width": 13, "height": 11}, {"view": "ego", "shield": True}]
SEEDS = range(4)
FOLLOW = 80            # steps compared after each restore


def random_actions(game, rng):
    """A random legal action per player of every env (from the masks)."""
    masks = game.masks
    actions = np.zeros(game.actions.shape, dtype=np.int64)
    for e in range(game.num_envs):
        for a in range(game.num_agents):
            actions[e, a] = rng.choice(np.flatnonzero(masks[e, a]))
    return actions


def played(config, seed, steps, num_envs=1):
    """A game after ``steps`` random legal steps (with bombs: the masks allow them)."""
    game = DungeonGame(Config(**config), num_envs=num_envs)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        game.step(random_actions(game, rng), autoreset=True)
    return game


def same_state(game_a, e_a, game_b, e_b):
    assert canonical_snapshot(game_a.snapshot(e_a)) == canonical_snapshot(game_b.snapshot(e_b))
    assert np.array_equal(game_a.obs[e_a], game_b.obs[e_b])
    assert np.array_equal(game_a.masks[e_a], game_b.masks[e_b])


def follow(game_a, e_a, game_b, e_b, seed):
    """Step both envs with the same random actions (new games included: their maps come
    from the restored streams); they stay equal.  Returns the steps compared."""
    rng = np.random.default_rng(seed + 1000)
    compared = 0
    for _ in range(FOLLOW):
        actions = random_actions(game_a, rng)[e_a]
        for game, e in ((game_a, e_a), (game_b, e_b)):
            row = np.zeros(game.actions.shape, dtype=np.int64)
            row[e] = actions
            game.step(row, autoreset=True)
        compared += 1
        same_state(game_a, e_a, game_b, e_b)
        assert np.array_equal(game_a.rewards[e_a], game_b.rewards[e_b])
        assert np.array_equal(game_a.terminated[e_a], game_b.terminated[e_b])
    return compared


@pytest.mark.parametrize("config", CONFIGS)
def test_restore_of_a_snapshot_gives_the_same_state_and_trajectory(config):
    compared = 0
    for seed in SEEDS:
        for steps in (0, 37 + 61 * seed, 300 + 97 * seed):
            original = played(config, seed, steps)
            copy_ = DungeonGame(Config(**config), num_envs=1)
            copy_.reset(seed=seed + 77)                     # another game, another stream
            copy_.restore(original.snapshot(0))
            same_state(original, 0, copy_, 0)
            compared += follow(original, 0, copy_, 0, seed)
    assert compared == len(SEEDS) * 3 * FOLLOW


def test_restore_into_env_3_of_a_batch_of_8_equals_a_single_env():
    source = played({}, seed=5, steps=250)
    snap = source.snapshot(0)
    single = DungeonGame(Config(), num_envs=1)
    single.reset(seed=1)
    single.restore(snap)
    batch = played({}, seed=9, steps=20, num_envs=8)
    others = [canonical_snapshot(batch.snapshot(e)) for e in range(8)]
    batch.restore(snap, env=3)
    assert [canonical_snapshot(batch.snapshot(e)) for e in range(8) if e != 3] \
        == others[:3] + others[4:]
    same_state(single, 0, batch, 3)
    assert follow(single, 0, batch, 3, seed=5) == FOLLOW


def test_parallel_env_restore_returns_observations_and_infos():
    env = parallel_env()
    env.reset(seed=3)
    for _ in range(40):
        env.step({agent: 0 for agent in env.agents})
    snap = env.unwrapped.snapshot()
    other = parallel_env()
    other.reset(seed=4)
    obs, infos = other.restore(snap)
    assert set(obs) == set(infos) == {"player_0", "player_1"}
    assert np.array_equal(obs["player_1"], env.game.obs[0, 1])
    assert infos["player_0"]["score"] == int(snap["scores"][0])


def test_a_restored_dead_player_is_no_agent_and_its_body_stays():
    game = played({"num_players": 3}, seed=2, steps=5)
    snap = game.snapshot(0)
    snap = {k: v for k, v in snap.items() if k not in ("board", "hp", "alive")}
    snap["players"][1].update(hp=0, alive=False, death_tick=2)
    game.restore(snap)
    assert game.live_agents(0) == [0, 2]
    after = game.snapshot(0)
    x, y = after["players"][1]["x"], after["players"][1]["y"]
    assert after["board"][game.height - 1 - y][x] == "x"


def bad_cases(snap, height):
    """(key the error must name, the broken snapshot) for a few kinds of damage."""
    players = snap["players"]
    wall = next((x, y) for y in range(height) for x in range(len(snap["board"][0]))
                if snap["tiles"][y, x] == METAL)
    cases = []

    def case(key, **changes):
        broken = copy.deepcopy(snap)
        broken.update(changes)
        cases.append((key, broken))

    missing = copy.deepcopy(snap)
    del missing["bombs"]
    cases.append(("bombs", missing))
    case("tiles", tiles=np.zeros((3, 3), dtype=np.uint8))
    case("tick", tick=-1)
    case("players", players=players[:1])
    case("players", players=[dict(players[0], x=99), players[1]])
    case("players", players=[dict(players[0], x=wall[0], y=wall[1]), players[1]])
    case("players", players=[dict(players[0], hp=0), players[1]])
    p0 = players[0]
    case("bombs", bombs=[{"x": p0["x"], "y": p0["y"], "owner": 0, "fuse": 5, "power": 2}] * 2)
    case("bombs", bombs=[{"x": p0["x"], "y": p0["y"], "owner": 7, "fuse": 5, "power": 2}])
    case("fires", fires=[{"x": 0, "y": 0, "owner": 0, "up": 0, "down": 1, "left": 0,
                          "right": 0}])
    case("ammo_items", ammo_items=snap["ammo_items"] + [{"x": wall[0], "y": wall[1],
                                                         "life": 9}])
    case("ore_hp", ore_hp={})
    case("pending_ammo", pending_ammo=[0])
    case("treasure_timer", treasure_timer="soon")
    case("over", over="maybe")
    case("rng", rng=[1, 2, 3])
    case("board", board=["." * len(row) for row in snap["board"]])
    return cases


def test_bad_snapshots_name_the_key_and_change_nothing():
    game = played({}, seed=4, steps=120)
    snap = game.snapshot(0)
    before = canonical_snapshot(snap)
    obs, masks = game.obs.copy(), game.masks.copy()
    cases = bad_cases(snap, game.height)
    assert len(cases) == 17
    for key, broken in cases:
        with pytest.raises(ValueError, match=repr(key)):
            game.restore(broken)
        assert canonical_snapshot(game.snapshot(0)) == before, key
        assert np.array_equal(game.obs, obs) and np.array_equal(game.masks, masks), key
    with pytest.raises(TypeError):
        game.restore([snap])


def test_a_game_that_has_ended_must_say_so():
    game = played({}, seed=1, steps=3)
    snap = game.snapshot(0)
    snap = {k: v for k, v in snap.items() if k not in ("board", "hp", "alive")}
    snap["players"][1].update(hp=0, alive=False, death_tick=1)
    with pytest.raises(ValueError, match="'over'"):
        game.restore(snap)
    snap["over"] = True
    game.restore(snap)
    assert game.over[0] and game.snapshot(0)["winner"] == 0
