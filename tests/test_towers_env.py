"""towers_v0 env: spaces, observation planes and masks, snapshot / restore round trips."""
import numpy as np
import pytest

import botarena
from botarena.envs.towers.constants import NUM_COMMANDS, Command, Plane
from botarena.envs.towers_v0 import Config, TowersGame


def greedy_game(num_envs=1, seed=0, turns=0, **config):
    """A game played ``turns`` turns by greedy against greedy (towers and fights appear)."""
    game = TowersGame(Config(**config), num_envs)
    game.reset(seed)
    ids = np.arange(num_envs)
    out = np.zeros((num_envs, game.size ** 2), dtype=np.int64)
    for _ in range(turns):
        play_bots(game, ids, out, ("greedy", "defensive"))
        game.step()
    return game


def play_bots(game, ids, out, names):
    for a, name in enumerate(names):
        game.bots[name](game.state, game.params, ids, np.full(len(ids), a), out)
        game.actions[ids, a] = out


def test_spaces():
    env = botarena.parallel_env("towers_v0")
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.observation_space("player_0").shape == (15, 30, 30)
    assert env.action_space("player_1").nvec.tolist() == [NUM_COMMANDS] * 900


def test_start_planes_and_masks():
    game = TowersGame(Config(), 1)
    game.reset(0)
    obs, mask = game.obs[0, 0], game.masks[0, 0].reshape(900, NUM_COMMANDS)
    assert obs[Plane.OWN_BOTS, 0, 0] == round(255 * 16 / 16)       # 20 bots, capped
    assert obs[Plane.OWN_BOT_HP, 0, 0] == 255
    assert obs[Plane.ENEMY_BOTS, 29, 29] == 255
    assert obs[Plane.FLAG].sum() == 16 * 255
    assert (obs[Plane.SCORE_MARGIN] == 128).all() and (obs[Plane.TURN] == 0).all()
    assert mask[:, Command.NOOP].all()
    assert mask[1:].sum() == 899                  # only the base tile has units
    assert mask[0].tolist() == [1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0]   # E, SE, S, blast
    assert np.array_equal(game.obs[0, 0], game.obs[0, 1])   # the start is symmetric


def test_snapshot_restore_round_trip_same_snapshot_and_trajectory():
    game = greedy_game(turns=70)
    snap = game.snapshot()
    assert snap["towers"] and any(b["command"] != "idle" for b in snap["bots"])
    twin = TowersGame(Config(), 1)
    twin.reset(99)
    twin.restore(snap)
    again = twin.snapshot()
    for key in snap:
        assert np.array_equal(np.asarray(snap[key], dtype=object), np.asarray(again[key], dtype=object)), key
    assert np.array_equal(twin.obs, game.obs) and np.array_equal(twin.masks, game.masks)
    ids, out = np.arange(1), np.zeros((1, 900), dtype=np.int64)
    for _ in range(60):
        for g in (game, twin):
            play_bots(g, ids, out, ("greedy", "defensive"))
            g.step()
        assert np.array_equal(twin.obs, game.obs)
        assert np.array_equal(twin.rewards, game.rewards)
    assert twin.snapshot()["board"] == game.snapshot()["board"]


def test_restore_into_env_3_of_8_changes_only_that_env():
    source = greedy_game(turns=50)
    batch = TowersGame(Config(), 8)
    batch.reset(7)
    before = [batch.snapshot(e) for e in range(8)]
    batch.restore(source.snapshot(), env=3)
    assert batch.snapshot(3)["board"] == source.snapshot()["board"]
    assert np.array_equal(batch.obs[3], source.obs[0])
    for e in (0, 1, 2, 4, 5, 6, 7):
        assert batch.snapshot(e)["board"] == before[e]["board"]
    ids = np.arange(8)
    out = np.zeros((8, 900), dtype=np.int64)
    one = np.zeros((1, 900), dtype=np.int64)
    for _ in range(30):
        play_bots(batch, ids, out, ("greedy", "defensive"))
        play_bots(source, np.arange(1), one, ("greedy", "defensive"))
        batch.step()
        source.step()
    assert np.array_equal(batch.obs[3], source.obs[0])


@pytest.mark.parametrize("change, match", [
    (lambda s: s.pop("towers"), "missing key 'towers'"),
    (lambda s: s.update(map=s["map"][:-1]), "'map'.*29 rows"),
    (lambda s: s.update(turn=-1), "'turn'"),
    (lambda s: s["bots"][0].update(x=31.0), "'bots'.*entry 0: x"),
    (lambda s: s["bots"][0].update(hp=0), "'bots'.*entry 0: hp"),
    (lambda s: s["bots"][2].update(x=float("nan")), "'bots'.*entry 2: x = nan"),
    (lambda s: s["bots"][1].update(id=True), "'bots'.*entry 1: id = True, want an int"),
    (lambda s: s["bots"][1].update(hp=10 ** 30), "'bots'.*entry 1: hp"),
    (lambda s: s["bots"][0].update(owner=1.0), "'bots'.*entry 0: owner = 1.0, want an int"),
    (lambda s: s["bots"][3].update(dead="no"), "'bots'.*entry 3: dead"),
    (lambda s: s["bots"][0].update(command="dance"), "'bots'.*command 'dance'"),
    (lambda s: s["bots"][0].pop("target_x"), "'bots'.*want a dict with keys"),
    (lambda s: s["bots"][1].update(id=s["bots"][0]["id"]), "same id"),
    (lambda s: s.update(next_id=1), "'next_id'"),
    (lambda s: s["bots"][0].update(x=14.5, y=0.5), "'bots'.*in water"),
    (lambda s: s.update(towers=[{"owner": 0, "id": 999, "x": 0, "y": 0, "hp": 5, "age": 0,
                                 "dead": False}], next_id=1000), "'towers'.*base tile"),
    (lambda s: s.update(towers=[{"owner": 1, "id": 999, "x": 0, "y": 1, "hp": 5, "age": 0,
                                 "dead": False}], next_id=1000) or s["bots"][0].update(x=0.5, y=1.5),
     "'bots'.*inside a tower"),
])
def test_bad_snapshots_are_named_and_change_nothing(change, match):
    game = greedy_game(turns=3)
    snap = game.snapshot()
    before = game.snapshot()
    change(snap)
    with pytest.raises(ValueError, match=match):
        game.restore(snap)
    assert game.snapshot()["board"] == before["board"]
    assert game.snapshot()["bots"] == before["bots"]


def test_renders():
    game = greedy_game(turns=40)
    text = game.render_ansi()
    assert text.splitlines()[0][0] in "ab" and "p0:points=" in text
    frame = game.render_rgb()
    assert frame.shape[1:] == (480, 3) and frame.dtype == np.uint8     # 30 tiles of 16 pixels
    assert game.global_state().shape == game.global_state_space.shape
