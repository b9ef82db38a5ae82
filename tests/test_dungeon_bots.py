"""dungeon_v0's ``trapper`` bot: its key decisions on small hand-made boards (ASCII before,
the action it picks), legal actions only, no state touched, determinism, and short
matches against the other bots."""
import numpy as np

from botarena.envs.dungeon.constants import Action
from botarena.envs.dungeon_v0 import Config, DungeonGame

from test_dungeon_env import play_bots
from test_dungeon_rules import hp, new_game, step

SCRATCH = ("hit_in", "blast", "chain")     # the bots' scratch fields


def pick(game, bot, a=0):
    out = np.zeros(1, np.int64)
    game.bots[bot](game.state, game.params, np.zeros(1, np.int64), np.full(1, a, np.int64), out)
    return int(out[0])


def test_trapper_bombs_an_opponent_in_a_dead_end_and_hits_it():
    # player 1 can only leave through its corridor, which the bomb's blast covers and the
    # bomb itself closes; player 0 escapes down the side passage
    rows = ["#######",
            "#1.0..#",
            "####.##"]
    game = new_game(rows)
    assert pick(game, "trapper") == Action.BOMB
    assert pick(game, "safe_bomber") == Action.NOOP        # no block in reach: it waits
    for _ in range(40):
        acts = [pick(game, "trapper", 0), pick(game, "safe_bomber", 1)]
        game.step(np.array([acts], np.int64))
    snap = game.snapshot(0)
    assert hp(snap) == [3, 2] and list(snap["scores"]) == [25, 0]


def test_trapper_leaves_an_opponent_that_could_escape():
    rows = ["#.#####",          # player 1 can step up, out of the blast
            "#1.0..#",
            "####.##"]
    game = new_game(rows)
    assert pick(game, "trapper") == Action.LEFT            # nothing to score: it closes in


def test_trapper_goes_for_the_last_hit_on_ore_over_nearer_wood():
    # the wood is in reach from where player 0 stands; the ore (one hit left: 10 points)
    # is a step away
    rows = ["########",
            "#w.0..o#",
            "###..#1#"]
    game = new_game(rows, ore_hp=1)
    assert pick(game, "safe_bomber") == Action.BOMB
    assert pick(game, "trapper") == Action.RIGHT
    step(game, "r", "")
    assert pick(game, "trapper") == Action.BOMB


def test_trapper_plays_legal_actions_and_touches_no_state():
    game = DungeonGame(Config(), 16)
    game.reset(seed=3)
    out = np.zeros(16, np.int64)
    for t in range(300):
        for a in range(2):
            before = game.state._asdict()
            before = {k: v.copy() for k, v in before.items() if k not in SCRATCH}
            game.bots["trapper"](game.state, game.params, np.arange(16), np.full(16, a), out)
            assert game.masks[np.arange(16), a, out].all()
            for k, v in before.items():
                if k == "rng":
                    assert np.array_equal(v[:, 0], game.state.rng[:, 0])   # GAME stream
                else:
                    assert np.array_equal(v, getattr(game.state, k)), k
            game.actions[:, a] = out
        game.step(autoreset=True)


def test_trapper_is_deterministic_per_seed():
    runs = []
    for _ in range(2):
        game, _ = play_bots("trapper", "safe_bomber", seed=11, ticks=300, num_envs=4)
        runs.append((game.state.positions.copy(), game.state.scores.copy(), game.state.rng.copy()))
    for x, y in zip(*runs):
        assert np.array_equal(x, y)


def test_trapper_outscores_safe_bomber_and_beats_random():
    game, hp_lost = play_bots("trapper", "safe_bomber", seed=0, ticks=600, num_envs=8)
    scores = game.state.scores
    assert (scores[:, 0] > scores[:, 1]).sum() >= 6
    assert scores[:, 0].sum() > 1.3 * scores[:, 1].sum()
    assert hp_lost[:, 1].sum() >= 3 * hp_lost[:, 0].sum()           # it traps, is rarely hit
    game, hp_lost = play_bots("random", "trapper", seed=0, ticks=600, num_envs=8)
    assert (game.state.scores[:, 1] > game.state.scores[:, 0]).all()
    assert hp_lost[:, 1].sum() == 0
