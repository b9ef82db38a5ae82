"""botarena: bot-programming contest games as batched multi-agent RL environments.

``botarena.parallel_env(env_id, **config)`` (PettingZoo ParallelEnv),
``botarena.env(env_id, **config)`` (AEC), ``botarena.vector_env(env_id, num_envs, ...)``
(a Stable-Baselines3 VecEnv over every agent slot; needs ``botarena[train]``),
``botarena.gymnasium_vector_env(...)`` (a Gymnasium VectorEnv), and each game as a
single-agent Gymnasium env against scripted opponents, ``gymnasium.make("botarena/Paint-v0",
opponent="bot:greedy")`` (ids in ``GYMNASIUM_IDS``; ``gymnasium.make_vec`` gives the
batched vector env).  Importing botarena imports
neither torch, SB3 nor pygame.
"""
from importlib import import_module

from .core import cache

cache.configure()  # before any kernel is defined: see botarena.core.cache
# the core's kernels are defined now, so that numba caches them in the core's folder (a game
# imported first would get them in its own folder, and every game compile them again)
for _core_module in ("grid", "jit", "rewards", "rng"):
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


def vector_env(env_id, num_envs, **kwargs):
    """An SB3 ``VecEnv`` over the agent slots of ``num_envs`` envs (see wrappers.sb3)."""
    from .wrappers.sb3 import make_vec_env
    return make_vec_env(env_id, num_envs, **kwargs)


def gymnasium_vector_env(env_id, num_envs, **kwargs):
    """A Gymnasium ``VectorEnv`` over the agent slots of ``num_envs`` envs."""
    from .wrappers.gymnasium_vector import SlotVectorEnv
    return SlotVectorEnv(env_id, num_envs, **kwargs)
