"""botarena on RLlib, Ray's RL library, on its new API stack (``pip install botarena[rllib]``).

``register_envs()`` registers every game with Ray's env registry as ``RLLIB_IDS[env_id]``
(``"botarena/paint_v0"``, ...): a multi-agent env (``rllib.env.GameEnv``) whose
``env_config`` holds the game's config and optionally ``opponent`` and ``learner_seat``::

    import botarena.rllib
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    botarena.rllib.register_envs()
    config = (PPOConfig()
              .environment("botarena/paint_v0", env_config={"opponent": "bot:greedy"})
              .multi_agent(policies={"learner"},
                           policy_mapping_fn=lambda agent, episode, **kw: "learner")
              .rl_module(rl_module_spec=MultiRLModuleSpec(
                  rl_module_specs={"learner": botarena.rllib.module_spec()})))
    algo = config.build_algo()

With ``config.env_runners(env_runner_cls=BatchedEnvRunner, num_envs_per_env_runner=N)``
each env runner steps its N games in one batched core (``BatchedVectorEnv``) rather than
as N env copies (RLlib's own vector env for multi-agent envs, the only one it offers).
Every observation is a dict holding the planes and the action mask, which
``MaskedPPOModule`` (``module_spec()``) applies to its logits; RLlib's own
``ActionMaskingTorchRLModule`` example reads the same keys.  ``load_policy(checkpoint)``
turns a saved algorithm into ``f(obs, masks) -> actions`` for ``training.evaluate``, the
opponents and the arena.  ``python -m botarena.training.rllib`` trains PPO against bots
and a league of its own snapshots.  Importing botarena imports no Ray; this module does.
"""
import functools
import os

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.tune.registry import register_env

from ..registry import ENV_IDS
from .env import (ALL_AGENTS, LEARNER, MASK_KEY, OBS_KEY, OPPONENT_PREFIX, SELF, BatchedEnvRunner,
                  BatchedVectorEnv, GameEnv)
from .module import DEFAULT_HIDDEN, CellsCategorical, MaskedPPOModule

__all__ = ["RLLIB_IDS", "register_envs", "module_spec", "load_policy", "RLlibPolicy",
           "GameEnv", "BatchedVectorEnv", "BatchedEnvRunner", "MaskedPPOModule",
           "CellsCategorical", "LEARNER", "OPPONENT_PREFIX", "SELF", "OBS_KEY", "MASK_KEY",
           "ALL_AGENTS"]

RLLIB_IDS = {env_id: f"botarena/{env_id}" for env_id in ENV_IDS}
# where an algorithm checkpoint keeps a module (Algorithm.save_to_path's layout)
MODULE_PATH = ("learner_group", "learner", "rl_module")


def _make_env(env_id, env_config):
    return GameEnv(env_id, **dict(env_config))


def register_envs():
    """Register every game with Ray's env registry (``RLLIB_IDS``); call it in the driver
    after ``ray.init`` and before building the algorithm (the registry reaches the
    cluster's workers)."""
    for env_id, name in RLLIB_IDS.items():
        register_env(name, functools.partial(_make_env, env_id))


def module_spec(hidden=DEFAULT_HIDDEN):
    """The ``RLModuleSpec`` of a ``MaskedPPOModule`` with MLP layers of ``hidden`` units."""
    return RLModuleSpec(module_class=MaskedPPOModule, model_config={"hidden": list(hidden)})


class RLlibPolicy:
    """A trained RLModule as a policy ``f(obs, masks) -> actions`` over a batch of
    observations and masks (as the batched core holds them): the most likely legal
    action, or a sampled one with ``deterministic=False``.  ``observation_space`` is the
    planes' space (``training.evaluate`` picks the obs dtype from it)."""

    def __init__(self, module, deterministic=True):
        self.module = module
        self.deterministic = deterministic
        self.observation_space = module.observation_space[OBS_KEY]
        self._dist_cls = module.get_inference_action_dist_cls()

    def __call__(self, obs, masks):
        batch = {Columns.OBS: {OBS_KEY: torch.as_tensor(np.asarray(obs)),
                               MASK_KEY: torch.as_tensor(np.asarray(masks))}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
            dist = self._dist_cls.from_logits(logits)
            if self.deterministic:
                dist = dist.to_deterministic()
            return dist.sample().numpy()


def load_policy(checkpoint, module_id=LEARNER, deterministic=True):
    """The module ``module_id`` of an algorithm checkpoint (``Algorithm.save_to_path``, as
    ``training.rllib`` saves it) as an ``RLlibPolicy``; ``FileNotFoundError`` if the
    checkpoint has no such module."""
    path = os.path.join(os.path.abspath(checkpoint), *MODULE_PATH, module_id)
    if not os.path.isdir(path):
        raise FileNotFoundError(f"{checkpoint} holds no RLlib module {module_id!r} ({path})")
    return RLlibPolicy(RLModule.from_checkpoint(path), deterministic)
