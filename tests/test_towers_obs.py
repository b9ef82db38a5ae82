"""towers_v0 observations: a step updates the planes and masks in place (erasing the units
of the state it starts from, drawing those of the state it ends on, rewriting the
constant planes that changed); they must equal the planes and masks written whole from
the state (``observe.observe_env``), through moves, blasts, towers built and destroyed,
autoresets (random maps too), both obs dtypes, and after ``copy_env`` and
``set_position``."""
import numpy as np
import pytest

from botarena.core.journal import new_journal
from botarena.envs.towers import observe
from botarena.envs.towers.bots import BOTS
from botarena.envs.towers_v0 import Config, TowersGame


def written_whole(game):
    """(obs, masks) that ``observe_env`` writes from a copy of the state into buffers
    filled with junk."""
    state = game.copy_state()
    obs, masks = np.full_like(game.obs, 7), np.full_like(game.masks, 3)
    for e in range(game.num_envs):
        observe.observe_env(state, game.params, e, obs.reshape(game.num_envs, game.num_agents,
                                                                -1), masks,
                            new_journal(game.num_envs, game.obs.dtype))
    return obs, masks


def assert_up_to_date(game):
    obs, masks = written_whole(game)
    assert np.array_equal(obs, game.obs)
    assert np.array_equal(masks, game.masks)


def bot_actions(game, policy, rng, noise=0.1):
    """The bot ``policy``'s commands for both players of every env, a fraction
    ``noise`` of the tiles replaced by uniformly random commands."""
    E, A = game.num_envs, game.num_agents
    out = np.zeros((E * A,) + game.action_shape(), dtype=np.int64)
    BOTS[policy](game.state, game.params, np.repeat(np.arange(E), A), np.tile(np.arange(A), E),
                 out)
    actions = out.reshape(game.actions.shape)
    flip = rng.random(actions.shape) < noise
    actions[flip] = rng.integers(0, game.action_values(), int(flip.sum()))
    return actions


class UnitEvents:
    """Counts, over a run, the towers built and destroyed and the bots that died."""

    def __init__(self):
        self.towers_built = self.towers_lost = self.bots_lost = 0

    def see(self, game, before):
        s = game.state
        towers_now = s.num_towers.sum(1) - s.tower_dead.sum((1, 2))
        self.towers_built += int(np.maximum(towers_now - before, 0).sum())
        self.towers_lost += int(s.tower_dead.sum())
        self.bots_lost += int(s.bot_dead.sum())
        return towers_now


@pytest.mark.parametrize("obs_dtype", ["uint8", "float32"])
@pytest.mark.parametrize("policy, config", [
    ("greedy", {"max_turns": 150}),
    ("random", {"max_turns": 100}),
    ("greedy", {"board": "random", "max_turns": 120, "turn_score_weight": 0.5}),
])
def test_step_update_equals_planes_written_whole(obs_dtype, policy, config):
    game = TowersGame(Config(obs_dtype=obs_dtype, **config), 4)
    game.reset(5)
    assert_up_to_date(game)
    rng = np.random.default_rng(0)
    events = UnitEvents()
    towers = np.zeros(game.num_envs, dtype=np.int64)
    ends = 0
    for _ in range(300):
        game.step(bot_actions(game, policy, rng), autoreset=True)
        ends += int(game.terminated[:, 0].sum() + game.truncated[:, 0].sum())
        towers = events.see(game, towers)
        assert_up_to_date(game)
    assert ends >= 2 * game.num_envs              # every env crossed autoresets
    assert events.towers_built > 0 and events.towers_lost > 0 and events.bots_lost > 0


def test_copy_env_and_set_position_write_the_planes_shown():
    game = TowersGame(Config(), 2)
    game.reset(0)
    rng = np.random.default_rng(1)
    for _ in range(30):
        game.step(bot_actions(game, "greedy", rng))
    game.copy_env(0, 1)
    for _ in range(30):
        game.step(bot_actions(game, "greedy", rng))
        assert_up_to_date(game)
    game.set_position(game.snapshot(0)["board"], e=1)
    assert_up_to_date(game)
    for _ in range(30):
        game.step(bot_actions(game, "greedy", rng))
        assert_up_to_date(game)


def test_a_stale_plane_is_caught():
    """The check sees a unit drawn where none stands (so the tests above can fail)."""
    game = TowersGame(Config(), 1)
    game.reset(0)
    game.step(bot_actions(game, "greedy", np.random.default_rng(2)))
    game.obs[0, 0, 0, Config().map_size // 2, 3] = 1   # player 0, own bots
    with pytest.raises(AssertionError):
        assert_up_to_date(game)
