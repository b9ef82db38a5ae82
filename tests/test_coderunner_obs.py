"""coderunner_v0 observations: what the planes show, and that a step's in-place update
equals the planes written whole from the state (through autoresets, with mirror and
float32, and when the removed-brick queue wraps around)."""
import numpy as np
import pytest

from botarena.core.journal import new_journal
from botarena.envs.coderunner import observe
from botarena.envs.coderunner.constants import (DIG_RIGHT, NONE, NUM_CELL_CODES, OPP_SPAWN,
                                                OWN_SPAWN, QUEUE, REMOVED, RIGHT, Plane)
from botarena.envs.coderunner_v0 import CodeRunnerGame, Config

from test_coderunner_rules import play, scenario


def written_whole(game):
    """(obs, masks) that ``observe_all`` writes from a copy of the state."""
    state = game.copy_state()
    obs, masks = np.zeros_like(game.obs), np.zeros_like(game.masks)
    journal = new_journal(1, game.obs.dtype)
    for e in range(game.num_envs):
        observe.observe_all(state, game.params, e,
                           obs[e].reshape(2, len(Plane), observe.N), masks[e],
                           tuple(part[0] if part.ndim > 1 else part for part in journal))
    return obs, masks


def assert_up_to_date(game):
    obs, masks = written_whole(game)
    assert np.array_equal(obs, game.obs)
    assert np.array_equal(masks, game.masks)


def level(fraction):
    """A fraction of full in uint8 (rounded half up)."""
    return int(fraction * 255 + 0.5)


def random_legal(game, rng):
    masks = game.masks.astype(np.int64)
    pick = np.floor(rng.random(masks.shape[:2]) * masks.sum(-1)).astype(np.int64)
    return (np.cumsum(masks, -1) > pick[..., None]).argmax(-1)


@pytest.mark.parametrize("config", [
    {"max_turns": 120},
    {"board": "random", "mirror": True, "obs_dtype": "float32", "max_turns": 150},
    # short delays: holes, gold and respawns come and go within a few turns
    {"board": "random", "mirror": True, "gold_respawn": 2, "brick_restore": 3, "dig_delay": 1,
     "enemy_respawn": 2, "runner_respawn": 3, "max_turns": 90},
])
def test_step_update_equals_planes_written_whole(config):
    game = CodeRunnerGame(Config(**config), 8)
    game.reset(3)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(400):
        game.step(random_legal(game, rng), autoreset=True)
        ends += int(game.terminated[:, 0].sum())
        assert_up_to_date(game)
    assert ends >= 2 * game.num_envs          # every env crossed autoresets


def test_queue_wraps_around():
    # red digs the brick below-right every other turn: more holes than the queue holds
    g = scenario(["R...B", "====="], brick_restore=1, dig_delay=1, max_turns=2 * QUEUE + 20)
    for _ in range(2 * QUEUE + 11):                         # turns 0 .. 2 * QUEUE + 10
        play(g, DIG_RIGHT)
    assert int(g.state.hole_head[0]) == 5                 # QUEUE + 5 restored: wrapped
    assert g.snapshot(0)["board"][1][:5] == "=-==="       # dug again on the last turn
    assert_up_to_date(g)


def test_planes_show_cells_runners_timers_and_bars():
    g = scenario(["R...B", "====="], brick_restore=4, dig_delay=4, max_turns=8)
    full = 255
    cell = g.obs[0, 0, Plane.CELL]
    assert cell[0, 0] == level(OWN_SPAWN / (NUM_CELL_CODES - 1))
    assert cell[0, 4] == level(OPP_SPAWN / (NUM_CELL_CODES - 1))
    assert g.obs[0, 1, Plane.CELL][0, 0] == cell[0, 4]            # blue's own is red's other
    play(g, DIG_RIGHT)                                             # turn 0: dig (1, 1)
    red, blue = g.obs[0, 0], g.obs[0, 1]
    assert red[Plane.CELL][1, 1] == level(REMOVED / (NUM_CELL_CODES - 1))
    assert red[Plane.TIMER][1, 1] == full                          # restored in 4 turns
    assert red[Plane.OWN][0, 0] == full and red[Plane.OPPONENT][0, 4] == full
    # bars: dig delay 3 turns of 4 -> 300 cells; turn 1 of 8 -> 50 cells
    assert np.count_nonzero(red[Plane.DIG_DELAY]) == 300 == np.count_nonzero(blue[Plane.OPP_DIG_DELAY])
    assert red[Plane.DIG_DELAY].reshape(-1)[:300].min() == full
    assert np.count_nonzero(red[Plane.OPP_DIG_DELAY]) == 0
    assert np.count_nonzero(red[Plane.TURN]) == 50 == np.count_nonzero(blue[Plane.TURN])
    play(g, NONE)
    assert g.obs[0, 0, Plane.TIMER][1, 1] == level(3 / 4)
    play(g, RIGHT)                                                 # into the hole: falls later
    assert g.obs[0, 0, Plane.VISITED][0, 1] == full
    assert g.obs[0, 0, Plane.OWN][0, 1] == full and g.obs[0, 0, Plane.OWN][0, 0] == 0
    assert_up_to_date(g)


def test_copy_env_copies_the_planes_shown():
    game = CodeRunnerGame(Config(), 2)
    game.reset(0)
    rng = np.random.default_rng(1)
    for _ in range(30):
        game.step(random_legal(game, rng))
    game.copy_env(0, 1)
    for _ in range(30):
        game.step(random_legal(game, rng))
        assert_up_to_date(game)
