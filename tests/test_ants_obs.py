"""ants_v0 observations: a step updates the planes and masks in place (erasing the marks of
the state it starts from, drawing those of the state it ends on); they must equal the
planes written whole from the state, through fights, razing, autoresets, 2 to 4 colonies
and float32, and after ``copy_env`` and ``set_position``."""
import numpy as np
import pytest

from botarena.envs.ants import observe
from botarena.envs.ants.bots import BOTS
from botarena.core.journal import new_journal
from botarena.envs.ants_v0 import AntsGame, Config


def written_whole(game):
    """(obs, masks) that ``observe_env`` writes from a copy of the state into buffers
    filled with junk."""
    state = game.copy_state()
    obs, masks = np.full_like(game.obs, 7), np.full_like(game.masks, 3)
    planes = obs.reshape(game.num_envs, game.num_agents, -1)
    for e in range(game.num_envs):
        observe.observe_env(state, game.params, e, planes, masks, new_journal(game.num_envs, game.obs.dtype))
    return obs, masks


def assert_up_to_date(game):
    obs, masks = written_whole(game)
    assert np.array_equal(obs, game.obs)
    assert np.array_equal(masks, game.masks)


def greedy_with_noise(game, rng, noise=0.2):
    """The greedy bot's commands for every colony, a fraction replaced by random ones
    (so that colonies meet, fight and raze)."""
    E, A = game.num_envs, game.num_agents
    out = np.zeros((E * A, game.height * game.width), dtype=np.int64)
    BOTS["greedy"](game.state, game.params, np.repeat(np.arange(E), A), np.tile(np.arange(A), E),
                   out)
    actions = out.reshape(game.actions.shape)
    flip = rng.random(actions.shape) < noise
    actions[flip] = rng.integers(0, game.action_values(), int(flip.sum()))
    return actions


@pytest.mark.parametrize("config, razes", [
    ({"max_turns": 60}, False),
    ({"board": "quad", "num_players": 4, "start_food": 2, "max_turns": 80}, True),
    ({"board": "random", "width": 12, "height": 10, "num_players": 3, "obs_dtype": "float32",
      "max_turns": 50}, True),
])
def test_step_update_equals_planes_written_whole(config, razes):
    game = AntsGame(Config(**config), 6)
    game.reset(3)
    rng = np.random.default_rng(0)
    ends = razed = 0
    for _ in range(180):
        game.step(greedy_with_noise(game, rng), autoreset=True)
        ends += int(game.terminated[:, 0].sum() + game.truncated[:, 0].sum())
        razed += int(game.state.hill_razed.sum())
        assert_up_to_date(game)
    assert ends >= 2 * game.num_envs          # every env crossed autoresets
    assert (razed > 0) == razes               # where colonies meet, hill planes change too


def test_copy_env_and_set_position_write_the_planes_shown():
    game = AntsGame(Config(), 2)
    game.reset(0)
    rng = np.random.default_rng(1)
    for _ in range(20):
        game.step(greedy_with_noise(game, rng))
    game.copy_env(0, 1)
    for _ in range(20):
        game.step(greedy_with_noise(game, rng))
        assert_up_to_date(game)
    game.set_position(1, game.snapshot(0)["board"])
    assert_up_to_date(game)
    for _ in range(20):
        game.step(greedy_with_noise(game, rng))
        assert_up_to_date(game)
