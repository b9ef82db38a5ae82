"""``core.params``: a game's kernel params are its Config's number fields, written once,
plus what the game derives."""
from dataclasses import dataclass
from typing import Optional

import pytest

from botarena.core.config import bounded
from botarena.core.params import make_params, number_fields, params_type


@dataclass(frozen=True)
class Toy:
    board: object = "x"
    width: int = bounded(4, 1, 10)
    rate: float = 0.5
    wrap: bool = True
    max_steps: Optional[int] = None
    reward: str = "score"


Params = params_type(Toy, ["lut", "reward_mode"], __name__)


def test_the_number_fields_in_order_then_the_derived_ones():
    assert number_fields(Toy) == {"width": int, "rate": float, "wrap": bool, "max_steps": int}
    assert Params._fields == ("width", "rate", "wrap", "max_steps", "lut", "reward_mode")


def test_make_params_casts_the_config_and_takes_the_derived():
    p = make_params(Params, Toy(width=7), lut=(1, 2), reward_mode=3)
    assert p == Params(7, 0.5, True, 0, (1, 2), 3)
    assert type(p.width) is int and type(p.rate) is float and type(p.wrap) is bool


def test_a_value_the_game_resolves_overrides_the_config():
    p = make_params(Params, Toy(max_steps=None), max_steps=9, lut=(), reward_mode=0)
    assert p.max_steps == 9


def test_missing_or_unknown_derived_params_are_refused():
    with pytest.raises(TypeError, match=r"derived \['reward_mode'\] missing"):
        make_params(Params, Toy(), lut=())
    with pytest.raises(TypeError, match=r"\['colour'\] unknown"):
        make_params(Params, Toy(), lut=(), reward_mode=0, colour=1)


def test_a_derived_name_that_is_a_config_field_is_refused():
    with pytest.raises(ValueError, match="already Config fields"):
        params_type(Toy, ["width"], __name__)


def test_every_game_builds_its_params_from_its_config():
    import botarena
    for env_id in botarena.ENV_IDS:
        module = botarena.env_module(env_id)
        game = module.Game(module.Config(), 1)
        for name in number_fields(module.Config):
            assert name in game.params._fields, (env_id, name)
