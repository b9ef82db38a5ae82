"""The flat MLP policy with its heads' first layers under bfloat16 autocast
(``--arch mlp --bf16``).

    python -m botarena.training.ppo --env paint_v0 --bf16

The trainer's MLP policy (``lean.LeanMaskablePolicy``: the planes flattened into the
``--net-arch`` tanh heads), except that the first linear layer of the policy head and of
the value head, which read every input (paint_v0's ego view: 2,166 per sample) and hold
nearly all the network's arithmetic, run under bfloat16 autocast: on a CPU with
AVX512-BF16 (or AMX) their forward and backward take about half the float32 time.  The
weights stay float32 (the optimizer's), the layers' outputs are cast back to float32, and
the rollouts and the learner compute the same log-probabilities, so PPO's ratios start at
exactly 1.  The learner's minibatches come in bfloat16 (the trainer's rollout buffer keeps
the observations in ``observation_dtype``): the values the first layers would round
float32 ones to, read as they are, at half the bytes and with no cast.  The saved model's
weights are those of the stock layers: export and evaluation read it as the plain MLP.

torch and SB3 are imported here at module level: ``training.policies`` imports this module
only when ``--bf16`` asks for it (or when a saved model of it is loaded).
"""
import torch as th
from torch import nn

from .lean import LeanMaskablePolicy


class Bf16Linear(nn.Linear):
    """A linear layer computed under bfloat16 autocast, its output float32."""

    def forward(self, x):
        with th.autocast(x.device.type, dtype=th.bfloat16):
            out = super().forward(x)
        return out.float()


class Bf16MlpPolicy(LeanMaskablePolicy):
    """MaskablePPO's MLP policy (with ``lean``'s masked categorical) with ``Bf16Linear``
    first layers in both heads, which read bfloat16 observations as they are: its rollout
    buffer keeps them in bfloat16 (the values the first layers would round them to)."""

    observation_dtype = th.bfloat16

    def extract_features(self, obs, features_extractor=None):
        """SB3's features (the observations flattened, as float32), but bfloat16
        observations stay bfloat16."""
        if obs.dtype != self.observation_dtype:
            return super().extract_features(obs, features_extractor)
        return (features_extractor or self.features_extractor)(obs)

    def _build_mlp_extractor(self):
        super()._build_mlp_extractor()
        for net in (self.mlp_extractor.policy_net, self.mlp_extractor.value_net):
            first = net[0]
            net[0] = Bf16Linear(first.in_features, first.out_features)
