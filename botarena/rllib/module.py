"""The RLModule that PPO trains on botarena's dict observations, masks applied.

``MaskedPPOModule`` reads ``{"observations": planes, "action_mask": mask}``: the planes
(uint8 ones scaled to [0, 1]) flattened into two tanh MLPs (``model_config["hidden"]``,
default ``DEFAULT_HIDDEN``): the policy, whose logits of illegal actions are set to
``MASKED_LOGIT`` (so they are never sampled and carry no gradient), and the value.  ``Discrete`` actions use RLlib's categorical; a command per cell
(``MultiDiscrete`` with one size for every cell, ants_v0 and towers_v0) uses
``CellsCategorical``: one categorical per cell computed as a single tensor, where RLlib's
``TorchMultiCategorical`` builds a distribution object per cell.
"""
import numpy as np
import torch
from gymnasium import spaces
from ray.rllib.core.columns import Columns
from ray.rllib.core.distribution.torch.torch_distribution import (
    TorchDeterministic, TorchDistribution)
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule
from torch import nn

from .env import MASK_KEY, OBS_KEY

DEFAULT_HIDDEN = (128, 128)      # the SB3 trainer's default MLP (training.ppo)
MASKED_LOGIT = -1e9              # finite: exp() is 0 and no NaN reaches the gradients
UINT8_SCALE = 1.0 / 255.0        # uint8 planes hold 0..255


class CellsCategorical(TorchDistribution):
    """A categorical of ``values`` choices for each cell of a command per cell: logits
    ``[..., cells * values]``, actions ``[..., cells]``; the log-probability and entropy
    are the sums over the cells.  ``CellsCategorical.get_partial_dist_cls(values=V)``
    gives the class RLlib builds from logits alone."""

    def __init__(self, logits, values):
        self.values = values
        super().__init__(logits=logits.reshape(logits.shape[:-1] + (-1, values)))

    def _get_torch_distribution(self, logits):
        return torch.distributions.Independent(
            torch.distributions.Categorical(logits=logits, validate_args=False), 1)

    @staticmethod
    def required_input_dim(space, **kwargs):
        return int(np.sum(space.nvec))

    def rsample(self, *, sample_shape=None):
        raise NotImplementedError("a categorical has no reparametrised sample")

    def to_deterministic(self):
        return TorchDeterministic(loc=self._dist.base_dist.logits.argmax(dim=-1))


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """An MLP actor-critic over the masked dict observations of ``rllib.env.GameEnv``:
    the policy and the value function each have their own MLP (as SB3's default), so the
    value loss, large with score rewards, does not steer the policy's features."""

    def setup(self):
        planes = self.observation_space[OBS_KEY]
        self._scale = UINT8_SCALE if planes.dtype == np.uint8 else 1.0
        hidden = self.model_config.get("hidden", DEFAULT_HIDDEN)
        inputs = int(np.prod(planes.shape))
        self._pi = _mlp(inputs, hidden, self.observation_space[MASK_KEY].shape[0])
        self._vf = _mlp(inputs, hidden, 1)
        space = self.action_space
        if isinstance(space, spaces.MultiDiscrete):
            if len(set(space.nvec.tolist())) != 1:
                raise ValueError(f"a command per cell needs one size for every cell, got {space}")
            self.action_dist_cls = CellsCategorical.get_partial_dist_cls(
                values=int(space.nvec.flat[0]))
        elif not isinstance(space, spaces.Discrete):
            raise ValueError(f"MaskedPPOModule takes Discrete or MultiDiscrete actions, "
                             f"got {space}")

    def _planes(self, obs):
        return obs[OBS_KEY].float() * self._scale

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        logits = self._pi(self._planes(obs)).masked_fill(obs[MASK_KEY] == 0, MASKED_LOGIT)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def compute_values(self, batch, embeddings=None):
        return self._vf(self._planes(batch[Columns.OBS])).squeeze(-1)


def _mlp(inputs, hidden, outputs):
    """Flatten, tanh layers of ``hidden`` units, a linear output layer."""
    layers, width = [nn.Flatten()], inputs
    for units in hidden:
        layers += [nn.Linear(width, units), nn.Tanh()]
        width = units
    return nn.Sequential(*layers, nn.Linear(width, outputs))
