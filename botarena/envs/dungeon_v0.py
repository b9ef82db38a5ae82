from .dungeon import (PATH_PLANES, Action, Config, DungeonGame, Game, Plane, env,  # noqa: F401
                      parallel_env, raw_env)
from .dungeon import __doc__  # noqa: F401
