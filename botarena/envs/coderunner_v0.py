from .coderunner import Action, CodeRunnerGame, Config, Game, Plane, env, parallel_env, raw_env  # noqa: F401
from .coderunner import __doc__  # noqa: F401
