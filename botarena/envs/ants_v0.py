from .ants import (AntsGame, Command, Config, Game, Plane, UNIT_MOVES, UNITS_PLANE,  # noqa: F401
                   env, parallel_env, raw_env)
from .ants import __doc__  # noqa: F401
