"""The registered games: env ids, their modules, and their Gymnasium ids.

``GAMES`` is the one table a new game joins; ``ENV_IDS`` lists botarena's env ids;
``env_module(env_id)`` imports a game's module (``botarena.envs.<env_id>``) only when
asked, so importing botarena compiles nothing. ``register_gymnasium()`` (called by
``import botarena``) registers each game with Gymnasium as a single-agent env,
``gymnasium.make(GYMNASIUM_IDS[env_id], opponent=..., **config)``
(``wrappers.gymnasium_env``), whose ``gymnasium.make_vec(..., num_envs=N)`` is botarena's
own batched vector env (``wrappers.gymnasium_vector``), not N copies. This module imports
nothing of the package above it.
"""
from importlib import import_module

# every game: its env id (``<game>_v<version>``) and the name of its Gymnasium id
GAMES = {"paint_v0": "Paint", "dungeon_v0": "Dungeon", "ants_v0": "Ants",
         "coderunner_v0": "CodeRunner", "towers_v0": "Towers"}
ENV_IDS = tuple(GAMES)
# e.g. "botarena/Paint-v0" for "paint_v0"
GYMNASIUM_IDS = {env_id: f"botarena/{name}-{env_id.rsplit('_', 1)[1]}"
                 for env_id, name in GAMES.items()}


def env_module(env_id):
    """The module of ``env_id`` (e.g. ``botarena.envs.paint_v0``)."""
    if env_id not in ENV_IDS:
        raise ValueError(f"unknown env id {env_id!r}; known: {', '.join(ENV_IDS)}")
    return import_module(f"botarena.envs.{env_id}")


def register_gymnasium():
    """Register every game's Gymnasium id (once; later calls do nothing)."""
    from gymnasium.envs.registration import register, registry
    for env_id, gym_id in GYMNASIUM_IDS.items():
        if gym_id not in registry:
            register(id=gym_id, entry_point="botarena.wrappers.gymnasium_env:SingleAgentEnv",
                     vector_entry_point="botarena.wrappers.gymnasium_vector:make_vector",
                     kwargs={"env_id": env_id})
