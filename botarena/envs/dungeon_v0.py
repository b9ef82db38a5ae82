from .dungeon import Action, Config, DungeonGame, Game, Plane, env, parallel_env, raw_env  # noqa: F401
from .dungeon import __doc__  # noqa: F401
