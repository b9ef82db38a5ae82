"""ants_v0 scripted bots beyond the shared checks in test_ants_env: the ``raider``'s
decisions on small boards (format in ``test_ants_helpers``), legal and deterministic
output, and matches against ``greedy`` and ``random``."""
import numpy as np
import pytest

from botarena.envs.ants import bots
from botarena.envs.ants.constants import COMMAND_DELTAS
from botarena.envs.ants_v0 import AntsGame, Config

from test_ants_helpers import E, W, new_game, scores, turn


def _raider_commands(game, colony=0):
    out = np.zeros((1, game.height * game.width), dtype=np.int64)
    bots.raider(game.state, game.params, np.array([0]), np.array([colony]), out)
    return out[0]


def _target(game, cmds, x, y):
    k = cmds[y * game.width + x]
    return x + int(COMMAND_DELTAS[k, 0]), y + int(COMMAND_DELTAS[k, 1])


def test_raider_steps_onto_the_enemy_hill_as_its_fresh_ant_walks_out():
    # greedy's ant on its hill walks at the raider next to it; the raider takes its place
    # (a swap passes), the ant dies between the raider and the one behind it, the hill falls
    rows = ["0.........",
            "..........",
            ".a.aB.....",
            ".........."]
    game = new_game(rows)
    game.state.turn[0] = bots.RAID_TURN
    cmds = _raider_commands(game)
    assert cmds[2 * 10 + 3] == E
    assert cmds[2 * 10 + 1] == 0          # no staging band on a board this small: waits
    greedy = np.zeros((1, 40), dtype=np.int64)
    bots.greedy(game.state, game.params, np.array([0]), np.array([1]), greedy)
    assert greedy[0, 2 * 10 + 4] == W
    snap = turn(game, {0: {(3, 2): E}, 1: {(4, 2): W}})
    assert snap["board"][2] == ".a..A....."
    # razed (+2 / -1), then colony 1 (no ants, no standing hill) is out: +1 to colony 0
    assert scores(snap) == [4, 0]


CORRIDOR = ["0" + "." * 23,
            "." * 23 + "1",
            "." * 24]           # hill 1 at (23, 1): the staging band is x = 14..16


def test_raider_masses_on_the_staging_band_then_storms():
    # alone: a raider past the band falls back, one behind it moves in, one in it holds
    rows = [r for r in CORRIDOR]
    rows[1] = "." * 13 + "a" + "." + "a" + "." * 3 + "a" + "..." + "1"
    game = new_game(rows)
    game.state.turn[0] = bots.RAID_TURN
    cmds = _raider_commands(game)
    hill = 23, 1

    def dist(cell):
        return abs(cell[0] - hill[0]) + abs(cell[1] - hill[1])
    assert dist(_target(game, cmds, 19, 1)) == 5           # inside the band: back out
    assert _target(game, cmds, 13, 1) == (14, 1)            # behind it: one step deeper
    assert cmds[1 * 24 + 15] == 0                            # on it, deepest free: holds
    # with WAVE raiders within STAGE_DISTANCE + WAVE_REACH steps, the same ant storms
    rows = [r[:13] + "aaaaaaa" + r[20:] for r in CORRIDOR]
    assert sum(r.count("a") for r in rows) >= bots.WAVE
    game = new_game(rows)
    game.state.turn[0] = bots.RAID_TURN
    cmds = _raider_commands(game)
    assert _target(game, cmds, 19, 1) == (20, 1)


@pytest.mark.parametrize("config", [{}, {"board": "quad", "num_players": 4}])
def test_raider_commands_only_own_ants_legally_and_changes_nothing(config):
    game = AntsGame(Config(**config), 3)
    game.reset(seed=4)
    agents = game.num_agents
    env_ids = np.repeat(np.arange(3), agents)
    agent_ids = np.tile(np.arange(agents), 3)
    out = np.zeros((3 * agents, game.height * game.width), dtype=np.int64)
    moved = 0
    for t in range(bots.RAID_TURN + 60):
        before = [field.copy() for field in game.state if field is not game.state.rng]
        game.bots["raider"](game.state, game.params, env_ids, agent_ids, out)
        after = [field for field in game.state if field is not game.state.rng]
        assert all(np.array_equal(u, v) for u, v in zip(before, after))
        for i, (e, a) in enumerate(zip(env_ids, agent_ids)):
            mask = game.masks[e, a].reshape(-1, 5)
            assert mask[np.arange(mask.shape[0]), out[i]].all()
        moved += (out != 0).sum()
        game.actions[env_ids, agent_ids] = out
        game.step(autoreset=True)
    assert moved > 0


def _commands_of_a_match(seed):
    game = AntsGame(Config(), 2)
    game.reset(seed=seed)
    env_ids, seat = np.arange(2), np.arange(2)
    out = np.zeros((2, 400), dtype=np.int64)
    frames = []
    for t in range(bots.RAID_TURN + 40):
        game.bots["raider"](game.state, game.params, env_ids, seat, out)
        game.actions[env_ids, seat] = out
        frames.append(out.copy())
        game.bots["greedy"](game.state, game.params, env_ids, 1 - seat, out)
        game.actions[env_ids, 1 - seat] = out
        game.step()
    return frames


def test_raider_is_deterministic():
    a, b = _commands_of_a_match(3), _commands_of_a_match(3)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    c = _commands_of_a_match(4)
    assert any(not np.array_equal(u, v) for u, v in zip(a, c))


@pytest.mark.parametrize("opponent, razed", [("greedy", 7), ("random", 0)])
def test_raider_razes_and_wins(opponent, razed):
    # greedy's hill falls (its food would respawn it for ever); random mostly starves out
    # before RAID_TURN (the outliving point)
    games = 8
    game = AntsGame(Config(), games)
    game.reset(seed=0)
    env_ids = np.arange(games)
    seat = env_ids % 2                    # seats alternated
    out = np.zeros((games, 400), dtype=np.int64)
    while not game.state.over.all():
        game.bots["raider"](game.state, game.params, env_ids, seat, out)
        game.actions[env_ids, seat] = out
        game.bots[opponent](game.state, game.params, env_ids, 1 - seat, out)
        game.actions[env_ids, 1 - seat] = out
        game.step()
    s = game.state
    mine, theirs = s.scores[env_ids, seat], s.scores[env_ids, 1 - seat]
    theirs_razed = [s.hill_razed[e][s.hill_owner[e] == 1 - seat[e]].all() for e in env_ids]
    mine_standing = [not s.hill_razed[e][s.hill_owner[e] == seat[e]].any() for e in env_ids]
    assert sum(theirs_razed) >= razed and all(mine_standing)
    assert (mine > theirs).sum() >= 7
