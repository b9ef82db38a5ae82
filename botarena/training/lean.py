"""SB3's rollout buffer and masked categorical with fewer copies and less Python per call.

The trainer's MaskablePPO keeps its loop; these two pieces replace sb3-contrib's own and
compute exactly what those compute (the same minibatches for the same seed, the same
log-probabilities, entropies and samples, bit for bit), so a run trains the same model,
only faster (``docs/results.md``, 2026-11-26, session 14):

- ``LeanRolloutBuffer`` (``MaskablePPO(rollout_buffer_class=...)``): the observations
  live in one tensor allocated once, in the dtype the policy reads
  (``observation_dtype``: ``mlp.Bf16MlpPolicy``'s first layers read bfloat16), written
  once per step; a minibatch's are gathered straight from the rollout's step-major rows
  with one ``torch.index_select``, at the samples sb3-contrib's shuffle picks.
  sb3-contrib's buffer allocates a fresh array every rollout, copies each step's
  observations twice, the whole rollout into env-major order before the first
  minibatch, then each minibatch twice (numpy's fancy indexing, then ``torch.tensor``);
- ``LeanMaskableCategorical`` (``LeanMaskablePolicy``'s action distribution, for
  ``Discrete`` actions): the masked log-probabilities computed as
  ``MaskableCategorical`` computes them, without building a torch ``Categorical``
  (argument checks, broadcasting) two times a call.

torch and SB3 are imported here at module level: the trainer imports this module only
when it builds a model.
"""
import numpy as np
import torch as th
import torch.nn.functional as F
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples
from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

# sb3-contrib's logit of a masked action (``MaskableCategorical.apply_masking``)
MASKED_LOGIT = -1e8
# the buffer's arrays that sb3-contrib's ``get`` flattens to env-major order (all but the
# observations)
FLATTENED = ("actions", "values", "log_probs", "advantages", "returns", "action_masks")


class LeanRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` whose observations are allocated once, in
    ``observation_dtype`` (a torch dtype; None: the observation space's), and never
    reordered: a minibatch's are one ``torch.index_select`` of the rollout's rows."""

    def __init__(self, buffer_size, observation_space, action_space, device="auto",
                 gae_lambda=1, gamma=0.99, n_envs=1, observation_dtype=None):
        self.observation_dtype = observation_dtype
        self.rollout_observations = None
        super().__init__(buffer_size, observation_space, action_space, device, gae_lambda,
                         gamma, n_envs)

    def reset(self):
        """sb3-contrib's reset, the observations kept in the tensor allocated at the first
        one (every row is written again before the minibatches read it)."""
        super().reset()
        if self.rollout_observations is None:
            stock = th.from_numpy(self.observations)
            self.rollout_observations = th.empty(stock.shape,
                                                 dtype=self.observation_dtype or stock.dtype)
        self.observations = self.rollout_observations

    def add(self, obs, action, reward, episode_start, value, log_prob, action_masks=None):
        """SB3's add (a ``Box`` observation space, the values and log-probabilities as
        the policy returns them), the observations copied once into their row."""
        self.observations[self.pos].copy_(th.as_tensor(obs))
        if action_masks is not None:
            self.action_masks[self.pos] = action_masks.reshape((self.n_envs, self.mask_dims))
        self.actions[self.pos] = action.reshape((self.n_envs, self.action_dim))
        self.rewards[self.pos] = reward
        self.episode_starts[self.pos] = episode_start
        self.values[self.pos] = value.cpu().numpy().flatten()
        self.log_probs[self.pos] = log_prob.cpu().numpy()
        self.pos += 1
        self.full = self.pos == self.buffer_size

    def get(self, batch_size=None):
        """sb3-contrib's minibatches: the same shuffle (one ``np.random.permutation`` of
        the env-major sample order), the observations gathered from step-major rows."""
        assert self.full, "the rollout buffer is not full"
        samples = self.buffer_size * self.n_envs
        indices = np.random.permutation(samples)
        if not self.generator_ready:
            for name in FLATTENED:
                setattr(self, name, self.swap_and_flatten(getattr(self, name)))
            self.generator_ready = True
        if batch_size is None:
            batch_size = samples
        for start in range(0, samples, batch_size):
            yield self._get_samples(indices[start:start + batch_size])

    def _get_samples(self, batch_inds, env=None):
        # sample i of the env-major order is step i % buffer_size of env i // buffer_size
        rows = batch_inds % self.buffer_size * self.n_envs + batch_inds // self.buffer_size
        data = (
            self.actions[batch_inds],
            self.values[batch_inds].flatten(),
            self.log_probs[batch_inds].flatten(),
            self.advantages[batch_inds].flatten(),
            self.returns[batch_inds].flatten(),
            self.action_masks[batch_inds].reshape(-1, self.mask_dims),
        )
        observations = th.index_select(self.observations.flatten(0, 1), 0, th.from_numpy(rows))
        return MaskableRolloutBufferSamples(observations.to(self.device),
                                            *map(self.to_torch, data))


def normalized(logits):
    """Logits less their log-sum-exp, as torch's ``Categorical`` normalizes them."""
    return logits - logits.logsumexp(dim=-1, keepdim=True)


class LeanMaskableCategorical(MaskableCategoricalDistribution):
    """sb3-contrib's ``MaskableCategoricalDistribution`` on plain tensors.

    ``MaskableCategorical`` normalizes the logits, puts ``MASKED_LOGIT`` in the masked
    entries (or leaves them as they are without masks) and normalizes again; the
    log-probabilities, entropy, samples (``torch.multinomial`` of the softmax) and mode
    here follow it step by step, so they are equal to its, bit for bit."""

    def proba_distribution(self, action_logits):
        self.unmasked = normalized(action_logits.view(-1, self.action_dim))
        self.apply_masking(None)
        return self

    def apply_masking(self, masks):
        self.masks = None if masks is None else th.as_tensor(
            masks, dtype=th.bool, device=self.unmasked.device).reshape(self.unmasked.shape)
        self._logits = self._probs = None

    @property
    def logits(self):
        """The log-probabilities (computed at the first use after the masks)."""
        if self._logits is None:
            masked = self.unmasked if self.masks is None \
                else th.where(self.masks, self.unmasked, MASKED_LOGIT)
            self._logits = normalized(masked)
        return self._logits

    @property
    def probs(self):
        """The probabilities (their softmax, computed at the first use)."""
        if self._probs is None:
            self._probs = F.softmax(self.logits, dim=-1)
        return self._probs

    def log_prob(self, actions):
        return self.logits.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)

    def entropy(self):
        if self.masks is None:
            p_log_p = self.logits.clamp(min=th.finfo(self.logits.dtype).min) * self.probs
        else:
            # the masked actions' ~-1e8 logits times their 0 probabilities are left out
            p_log_p = th.where(self.masks, self.logits * self.probs, 0.0)
        return -p_log_p.sum(-1)

    def sample(self):
        return th.multinomial(self.probs, 1, True).squeeze(-1)

    def mode(self):
        return th.argmax(self.probs, dim=1)


class LeanMaskablePolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` with ``LeanMaskableCategorical`` actions (its
    ``Discrete`` action space's; other spaces keep sb3-contrib's distributions)."""

    # the dtype of the observations its rollout buffer keeps (None: the observation
    # space's), LeanRolloutBuffer's ``observation_dtype``
    observation_dtype = None

    def _build(self, lr_schedule):
        if isinstance(self.action_dist, MaskableCategoricalDistribution):
            self.action_dist = LeanMaskableCategorical(self.action_dist.action_dim)
        super()._build(lr_schedule)
