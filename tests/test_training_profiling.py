"""The trainer's profiler (``training.profiling``) and the bfloat16 MLP (``training.mlp``)."""
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

import numpy as np  # noqa: E402

import botarena  # noqa: E402
from botarena.training.ppo import make_env, make_model, parse_args, prepare  # noqa: E402

ENVS, STEPS, BATCH, EPOCHS, ITERATIONS = 4, 16, 32, 2, 2
SMALL = ["--env", "paint_v0", "--num-envs", str(ENVS), "--net-arch", "16", "--ppo",
         f"n_steps={STEPS}", f"batch_size={BATCH}", f"n_epochs={EPOCHS}", "--no-progress"]


def test_profile_times_every_part_of_the_iterations():
    """Each part is timed at each of its calls (env steps per rollout step, backward passes
    per minibatch), the parts' own times add up to the wall clock, and the patched torch
    and sb3-contrib functions are back after."""
    import torch
    from sb3_contrib.ppo_mask import ppo_mask

    from botarena.training.profiling import PARTS, format_table, profile
    backward, masks = torch.Tensor.backward, ppo_mask.get_action_masks
    parts = profile(parse_args(SMALL), ITERATIONS)
    minibatches = ITERATIONS * EPOCHS * STEPS * ENVS // BATCH
    assert parts["steps"] == ITERATIONS * STEPS * ENVS
    assert parts["calls"]["env step"] == parts["calls"]["action masks"] == ITERATIONS * STEPS
    assert parts["calls"]["callback"] == ITERATIONS * STEPS
    assert parts["calls"]["learner backward"] == parts["calls"]["learner forward"] \
        == minibatches
    assert parts["calls"]["learner bookkeeping"] == ITERATIONS
    assert all(parts[p] >= 0 for p in PARTS)
    assert 0.9 * parts["wall"] <= sum(parts[p] for p in PARTS) <= parts["wall"]
    assert torch.Tensor.backward is backward and ppo_mask.get_action_masks is masks
    assert "env-steps/s" in format_table(parts)


def test_bf16_mlp_keeps_the_stock_layers_and_ratios(tmp_path):
    """``--bf16`` on the MLP: the heads' first layers run under bfloat16 autocast, the
    rollouts' log-probabilities are the learner's (PPO's ratios start at 1), and the saved
    model loads and plays legal moves."""
    import torch

    from botarena.training.evaluate import load_model
    from botarena.training.mlp import Bf16Linear, Bf16MlpPolicy
    run = prepare(parse_args(SMALL + ["--bf16", "--timesteps", "1"]))
    make_env(run)
    make_model(run)
    policy = run.model.policy
    assert isinstance(policy, Bf16MlpPolicy)
    assert isinstance(policy.mlp_extractor.policy_net[0], Bf16Linear)
    assert isinstance(policy.mlp_extractor.value_net[0], Bf16Linear)
    obs = torch.as_tensor(run.venv.reset())
    masks = run.venv.action_masks()
    with torch.no_grad():
        actions, values, log_p = policy(obs, action_masks=masks)
        again, new_log_p, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
    assert values.dtype == log_p.dtype == torch.float32
    assert torch.equal(log_p, new_log_p) and torch.equal(values, again)
    stock = policy.mlp_extractor.policy_net[0]
    plain = torch.nn.functional.linear(obs.flatten(1), stock.weight, stock.bias)
    assert not torch.equal(stock(obs.flatten(1)), plain)                 # bfloat16 ...
    assert torch.allclose(stock(obs.flatten(1)), plain, atol=0.05, rtol=0.02)  # ... close
    path = tmp_path / "model.zip"
    run.model.save(path)
    model = load_model(str(path))
    venv = botarena.vector_env("paint_v0", 2, opponent="random", view="ego",
                               obs_dtype="float32")
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
    assert all(venv.action_masks()[i, a] for i, a in enumerate(np.asarray(actions)))
