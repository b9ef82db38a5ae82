from .paint import Action, Config, Game, PaintGame, Plane, env, parallel_env, raw_env  # noqa: F401
from .paint import __doc__  # noqa: F401
