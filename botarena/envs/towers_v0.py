from .towers import (BotCommand, Command, Config, Game, Plane, TowersGame, UNITS_PLANE,  # noqa: F401
                     env, parallel_env, raw_env)
from .towers import __doc__  # noqa: F401
