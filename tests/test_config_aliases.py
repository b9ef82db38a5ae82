"""One config vocabulary across games (issue 24): ``board``, ``max_turns``, ``num_players``,
``reward``, ``obs_dtype``, ``view``, ``max_steps`` name the same things in every game that
has them; the names a game used before (coderunner ``map``, dungeon ``max_ticks``, towers
``num_turns``) keep working with a ``DeprecationWarning`` that names the caller's line."""
import dataclasses
import warnings

import pytest

import botarena
from botarena.core.config import VOCABULARY, renamed

# (env id, old name, new name, a value other than the default)
ALIASES = [
    ("coderunner_v0", "map", "board", "beta"),
    ("dungeon_v0", "max_ticks", "max_turns", 77),
    ("towers_v0", "num_turns", "max_turns", 55),
]
# every game names its board and its length, its reward, dtype and truncation alike
EVERY_GAME = ("board", "max_turns", "reward", "obs_dtype", "max_steps")


def field_names(env_id):
    return {f.name for f in dataclasses.fields(botarena.env_module(env_id).Config)}


@pytest.mark.parametrize("env_id", botarena.ENV_IDS)
def test_every_game_speaks_the_vocabulary(env_id):
    names = field_names(env_id)
    assert set(EVERY_GAME) <= names
    config_cls = botarena.env_module(env_id).Config
    old_names = set(getattr(config_cls, "renamed", {}))
    assert not old_names & names
    assert set(getattr(config_cls, "renamed", {}).values()) <= set(VOCABULARY)


@pytest.mark.parametrize("env_id, old, new, value", ALIASES)
def test_the_old_name_builds_the_same_config_with_a_warning(env_id, old, new, value):
    Config = botarena.env_module(env_id).Config
    assert Config.renamed[old] == new
    with pytest.warns(DeprecationWarning, match=f"'{old}' is deprecated, use '{new}'") as record:
        config = Config(**{old: value})
    assert config == Config(**{new: value})
    assert record[0].filename == __file__          # the warning names the caller's line
    with pytest.warns(DeprecationWarning, match=f"'{old}' is deprecated"):
        assert getattr(config, old) == value


@pytest.mark.parametrize("env_id, old, new, value", ALIASES)
def test_the_new_name_does_not_warn(env_id, old, new, value):
    Config = botarena.env_module(env_id).Config
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(Config(**{new: value}), new) == value


@pytest.mark.parametrize("env_id, old, new, value", ALIASES)
def test_both_names_at_once_are_refused(env_id, old, new, value):
    Config = botarena.env_module(env_id).Config
    with pytest.raises(TypeError, match=f"both '{old}' and '{new}'"):
        Config(**{old: value, new: value})


@pytest.mark.parametrize("env_id, old, new, value", ALIASES)
def test_the_old_name_reaches_the_game_through_every_front_end(env_id, old, new, value):
    with pytest.warns(DeprecationWarning) as record:
        env = botarena.parallel_env(env_id, **{old: value})
    assert getattr(env.unwrapped.game.config, new) == value
    assert record[0].filename == __file__          # not the env's own line
    with pytest.warns(DeprecationWarning):
        gym_env = botarena.gymnasium_vector_env(env_id, 2, **{old: value})
    assert getattr(gym_env.slots.game.config, new) == value


def test_the_old_names_play_the_same_game():
    """``max_ticks`` ends a dungeon game when ``max_turns`` does."""
    lengths = []
    for name in ("max_ticks", "max_turns"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            game = botarena.game("dungeon_v0", **{name: 9})
        game.reset(seed=3)
        turns = 0
        while not game.over[0]:
            game.step(game.actions)
            turns += 1
        lengths.append(turns)
    assert lengths == [9, 9]


def test_renamed_refuses_a_rename_to_an_unknown_field():
    @dataclasses.dataclass(frozen=True)
    class Config:
        board: object = "x"

    with pytest.raises(TypeError, match="cannot rename 'map' to 'boards'"):
        renamed(map="boards")(Config)
    with pytest.raises(TypeError, match="cannot rename 'board' to 'board'"):
        renamed(board="board")(Config)
