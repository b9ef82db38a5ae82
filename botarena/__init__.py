"""botarena: bot-programming contest games as batched multi-agent RL environments.

``botarena.parallel_env(env_id, **config)`` (PettingZoo ParallelEnv),
``botarena.env(env_id, **config)`` (AEC), ``botarena.vector_env(env_id, num_games, ...)``
(a Stable-Baselines3 VecEnv over the learner slots of that many games; needs
``botarena[train]``),
``botarena.gymnasium_vector_env(...)`` (a Gymnasium VectorEnv), and each game as a
single-agent Gymnasium env against scripted opponents, ``gymnasium.make("botarena/Paint-v0",
opponent="bot:greedy")`` (ids in ``GYMNASIUM_IDS``; ``gymnasium.make_vec`` gives the
batched vector env).  Importing botarena imports
neither torch, SB3 nor pygame.
"""
import warnings
from importlib import import_module

from .core import cache

cache.configure()  # before any kernel is defined: see botarena.core.cache
# the core's kernels are defined now, so that numba caches them in the core's folder (a game
# imported first would get them in its own folder, and every game compile them again)
for _core_module in ("grid", "jit", "loop", "rewards", "rng"):
    import_module(f"botarena.core.{_core_module}")

from .registry import ENV_IDS, GYMNASIUM_IDS, env_module, register_gymnasium  # noqa: E402

__version__ = "0.1.0"
register_gymnasium()    # gymnasium.make("botarena/Paint-v0", ...): see botarena.registry


def parallel_env(env_id, render_mode=None, **config):
    return env_module(env_id).parallel_env(render_mode=render_mode, **config)


def env(env_id, render_mode=None, **config):
    return env_module(env_id).env(render_mode=render_mode, **config)


def game(env_id, num_envs=1, **config):
    """The raw batched game (``BatchedGame``) of ``num_envs`` envs."""
    module = env_module(env_id)
    return module.Game(module.Config(**config), num_envs)


def _games(num_games, kwargs, function):
    """``num_games``, or the old keyword ``num_envs`` (with a ``DeprecationWarning``)."""
    if "num_envs" in kwargs:
        if num_games is not None:
            raise TypeError(f"{function}() got both num_games and num_envs")
        warnings.warn(f"{function}(num_envs=...) is now num_games= (it counts games; the "
                      "vector env's own num_envs counts learner slots)", DeprecationWarning,
                      stacklevel=3)
        num_games = kwargs.pop("num_envs")
    if num_games is None:
        raise TypeError(f"{function}() missing the number of games (num_games)")
    return num_games


def vector_env(env_id, num_games=None, **kwargs):
    """An SB3 ``VecEnv`` over the learner slots of ``num_games`` games (see wrappers.sb3):
    its ``num_envs`` is the number of slots, ``num_games`` times the learner seats of a
    game (every seat, or one with an ``opponent``)."""
    from .wrappers.sb3 import make_vec_env
    return make_vec_env(env_id, _games(num_games, kwargs, "vector_env"), **kwargs)


def gymnasium_vector_env(env_id, num_games=None, **kwargs):
    """A Gymnasium ``VectorEnv`` over the learner slots of ``num_games`` games (its
    ``num_envs`` is the number of slots, as for ``vector_env``)."""
    from .wrappers.gymnasium_vector import SlotVectorEnv
    return SlotVectorEnv(env_id, _games(num_games, kwargs, "gymnasium_vector_env"), **kwargs)
