"""The trainer's lean SB3 pieces (``training.lean``) compute what sb3-contrib's compute:
the masked categorical's log-probabilities, entropies, samples and modes, the rollout
buffer's minibatches for the same seed, and so the trained weights, bit for bit."""
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer  # noqa: E402
from sb3_contrib.common.maskable.distributions import \
    MaskableCategoricalDistribution  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402

import botarena  # noqa: E402
from botarena.training.lean import (LeanMaskableCategorical, LeanMaskablePolicy,  # noqa: E402
                                    LeanRolloutBuffer)
from botarena.training.mlp import Bf16MlpPolicy  # noqa: E402

ACTIONS, ROWS = 17, 300
STEPS, ENVS, BATCH = 6, 5, 7          # 30 samples: 4 full minibatches and one of 2
OBS_SHAPE = (2, 3, 3)


def random_masks(rng, rows, actions):
    masks = rng.random((rows, actions)) < 0.4
    masks[np.arange(rows), rng.integers(0, actions, rows)] = True   # one legal at least
    return masks


@pytest.mark.parametrize("masked", [True, False])
def test_lean_categorical_equals_sb3_contribs(masked):
    """For the same logits (some large, some equal) and masks: the same log-probabilities,
    entropies, modes and, from the same torch seed, the same samples."""
    rng = np.random.default_rng(0)
    logits = torch.as_tensor(rng.normal(0, 5, (ROWS, ACTIONS)), dtype=torch.float32)
    logits[0] = 0.0
    logits[1, :3] = 80.0
    masks = random_masks(rng, ROWS, ACTIONS) if masked else None
    stock = MaskableCategoricalDistribution(ACTIONS).proba_distribution(logits)
    lean = LeanMaskableCategorical(ACTIONS).proba_distribution(logits)
    if masked:
        stock.apply_masking(masks)
        lean.apply_masking(masks)
    actions = torch.as_tensor(rng.integers(0, ACTIONS, ROWS))
    assert torch.equal(lean.log_prob(actions), stock.log_prob(actions))
    assert torch.equal(lean.entropy(), stock.entropy())
    assert torch.equal(lean.mode(), stock.mode())
    torch.manual_seed(1)
    expected = stock.sample()
    torch.manual_seed(1)
    assert torch.equal(lean.sample(), expected)
    if masked:
        assert masks[np.arange(ROWS), lean.sample().numpy()].all()


def fill(buffer, rng, data):
    """Add ``data``'s steps to ``buffer`` and compute its returns."""
    buffer.reset()
    for step in range(STEPS):
        buffer.add(data["obs"][step], data["actions"][step], data["rewards"][step],
                   data["starts"][step], torch.as_tensor(data["values"][step]),
                   torch.as_tensor(data["log_probs"][step]),
                   action_masks=data["masks"][step])
    buffer.compute_returns_and_advantage(torch.zeros(ENVS), np.zeros(ENVS, dtype=bool))


@pytest.mark.parametrize("dtype,action_space", [
    (None, spaces.Discrete(ACTIONS)), (torch.bfloat16, spaces.Discrete(ACTIONS)),
    (None, spaces.MultiDiscrete([3, ACTIONS, 2]))])
def test_lean_buffer_serves_sb3_contribs_minibatches(dtype, action_space):
    """Filled alike and drawn from the same numpy seed, two epochs of two rollouts give the
    same minibatches, the observations in ``dtype``."""
    rng = np.random.default_rng(2)
    obs_space = spaces.Box(0.0, 1.0, OBS_SHAPE, np.float32)
    args = (STEPS, obs_space, action_space, "cpu", 0.95, 0.99, ENVS)
    stock, lean = MaskableRolloutBuffer(*args), LeanRolloutBuffer(*args, observation_dtype=dtype)
    nvec = action_space.nvec if isinstance(action_space, spaces.MultiDiscrete) \
        else np.array([action_space.n])
    for rollout in range(2):
        data = {"obs": rng.random((STEPS, ENVS) + OBS_SHAPE, dtype=np.float32),
                "actions": rng.integers(0, nvec, (STEPS, ENVS, len(nvec))),
                "rewards": rng.normal(size=(STEPS, ENVS)).astype(np.float32),
                "starts": rng.random((STEPS, ENVS)) < 0.2,
                "values": rng.normal(size=(STEPS, ENVS, 1)).astype(np.float32),
                "log_probs": -rng.random((STEPS, ENVS)).astype(np.float32),
                "masks": random_masks(rng, STEPS * ENVS, nvec.sum()).reshape(STEPS, ENVS, -1)}
        fill(stock, rng, data)
        fill(lean, rng, data)
        for epoch in range(2):
            np.random.seed(10 * rollout + epoch)
            expected = list(stock.get(BATCH))
            np.random.seed(10 * rollout + epoch)
            batches = list(lean.get(BATCH))
            assert [len(b.actions) for b in batches] == [BATCH] * 4 + [2]
            for got, want in zip(batches, expected):
                assert got.observations.dtype == (dtype or torch.float32)
                assert torch.equal(got.observations, want.observations.to(got.observations))
                for name in got._fields[1:]:
                    assert torch.equal(getattr(got, name), getattr(want, name)), name


class StockBf16MlpPolicy(Bf16MlpPolicy):
    """``Bf16MlpPolicy`` with sb3-contrib's distribution and float32 minibatches."""

    observation_dtype = None

    def _build(self, lr_schedule):
        MaskableActorCriticPolicy._build(self, lr_schedule)


@pytest.mark.parametrize("stock_policy,lean_policy", [
    ("MlpPolicy", LeanMaskablePolicy), (StockBf16MlpPolicy, Bf16MlpPolicy)])
def test_lean_pieces_train_the_same_weights(stock_policy, lean_policy):
    """Three PPO iterations from one seed, with sb3-contrib's pieces and with the lean ones
    (as the trainer builds them: ``ppo.make_model``), end at the same weights."""
    def trained(policy, lean):
        venv = botarena.vector_env("paint_v0", 4, opponent="greedy", seed=0, view="ego",
                                   obs_dtype="float32")
        buffer = {"rollout_buffer_class": LeanRolloutBuffer, "rollout_buffer_kwargs": {
            "observation_dtype": policy.observation_dtype}} if lean else {}
        model = MaskablePPO(policy, venv, n_steps=16, batch_size=24, n_epochs=2, seed=0,
                            device="cpu", policy_kwargs={"net_arch": [16]}, **buffer)
        model.learn(3 * 16 * 4)
        return model.policy.state_dict()

    torch.set_num_threads(1)
    stock, lean = trained(stock_policy, False), trained(lean_policy, True)
    assert stock.keys() == lean.keys()
    assert all(torch.equal(stock[k], lean[k]) for k in stock)
