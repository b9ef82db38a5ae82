from .ants import AntsGame, Command, Config, Game, Plane, env, parallel_env, raw_env  # noqa: F401
from .ants import __doc__  # noqa: F401
