"""The per-cell policy (``botarena.training.cells``) on ants_v0: its batched masked
distribution against per-cell categoricals computed one by one, the mask, the
deterministic action, and a short MaskablePPO run saved, loaded and evaluated."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import botarena  # noqa: E402
from botarena.training.evaluate import evaluate, load_model  # noqa: E402

# the short ants game of tests/conftest.py (SHORT_CONFIGS): 6 x 6, 12 turns, food in store
SHORT = {"board": "random", "width": 6, "height": 6, "map_seed": 0, "max_turns": 12,
         "start_food": 12}
COMMANDS = 5
pytestmark = pytest.mark.usefixtures("torch_one_thread")


def make_model(venv, **kwargs):
    from sb3_contrib import MaskablePPO

    from botarena.training.cells import CellsPolicy
    kwargs.setdefault("policy_kwargs", {"channels": (8, 8), "value_hidden": 16})
    return MaskablePPO(CellsPolicy, venv, seed=0, device="cpu", **kwargs)


def played_batch(num_envs=8, turns=6, seed=3):
    """Observations and masks of ants games a few turns in (several ants per colony), and a
    policy whose logits are far from uniform (its 1x1 head scaled up)."""
    venv = botarena.vector_env("ants_v0", num_envs, opponent="greedy", seed=seed,
                               obs_dtype="float32", **SHORT)
    rng = np.random.default_rng(seed)
    obs = venv.reset()
    for _ in range(turns):
        masks = venv.action_masks()
        legal = masks.reshape(num_envs, -1, COMMANDS)
        actions = np.array([[rng.choice(np.flatnonzero(c)) for c in env] for env in legal])
        obs, _, _, _ = venv.step(actions)
    model = make_model(venv, n_steps=8, batch_size=16)
    with torch.no_grad():
        model.policy.action_net.weight.mul_(200.0)
    return venv, model, obs, venv.action_masks()


def per_cell_log_probs(policy, obs, masks):
    """``[B, cells, n]`` masked log-probabilities, one torch Categorical per cell."""
    with torch.no_grad():
        features = policy.extract_features(torch.as_tensor(obs))     # [B, C, H, W]
        board = policy.global_net(features.mean(dim=(2, 3)))
        hidden = torch.relu(features + board[:, :, None, None])
        head = policy.action_net
        logits = torch.einsum("bchw,nc->bnhw", hidden, head.weight) + head.bias[:, None, None]
        logits = logits.flatten(2)                                     # [B, n, cells]
    b, n, cells = logits.shape
    legal = torch.as_tensor(masks).reshape(b, cells, n).bool()
    out = torch.empty(b, cells, n)
    for i in range(b):
        for c in range(cells):
            row = torch.where(legal[i, c], logits[i, :, c], torch.tensor(-1e8))
            out[i, c] = torch.distributions.Categorical(logits=row).logits
    return out, legal


def test_log_prob_and_entropy_are_per_cell_sums():
    venv, model, obs, masks = played_batch()
    policy = model.policy
    reference, legal = per_cell_log_probs(policy, obs, masks)
    b, cells, n = reference.shape
    free = legal.sum(-1) > 1
    assert free.any(dim=1).all(), "every colony should have an ant with a choice"
    assert (~free).sum() > 0
    rng = np.random.default_rng(0)
    actions = torch.tensor([[rng.choice(np.flatnonzero(legal[i, c])) for c in range(cells)]
                            for i in range(b)])
    with torch.no_grad():
        _, log_prob, entropy = policy.evaluate_actions(torch.as_tensor(obs), actions.float(),
                                                       torch.as_tensor(masks).float())
    expected = reference.gather(2, actions[:, :, None]).squeeze(2)
    # cells with one legal command (no own ant: only 'stay') add exactly 0
    assert (expected[~free] == 0).all()
    np.testing.assert_allclose(log_prob.numpy(), expected.sum(1).numpy(), rtol=1e-5, atol=1e-4)
    assert (log_prob < -1).all()          # sharp but not deterministic logits
    p = reference.exp()
    ref_entropy = -(torch.where(legal, p * reference, torch.zeros(()))).sum((1, 2))
    np.testing.assert_allclose(entropy.numpy(), ref_entropy.numpy(), rtol=1e-4, atol=1e-4)


def test_sampled_actions_keep_the_mask():
    venv, model, obs, masks = played_batch()
    legal = masks.reshape(len(obs), -1, COMMANDS)
    rows = np.arange(len(obs))[:, None]
    cells = np.arange(legal.shape[1])[None, :]
    mode, _ = model.predict(obs, action_masks=masks, deterministic=True)
    differs = 0
    for _ in range(30):
        actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
        assert actions.shape == (len(obs), legal.shape[1])
        assert legal[rows, cells, actions].all()
        differs += (actions != mode).sum()
    assert differs > 0      # sampled, not the argmax
    # forward() (what the rollouts call) samples legal commands as well
    with torch.no_grad():
        actions, values, log_prob = model.policy(torch.as_tensor(obs), action_masks=masks)
    assert legal[rows, cells, actions.numpy()].all()
    assert values.shape == (len(obs), 1) and log_prob.shape == (len(obs),)


def test_deterministic_action_is_masked_argmax():
    venv, model, obs, masks = played_batch()
    reference, _ = per_cell_log_probs(model.policy, obs, masks)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    np.testing.assert_array_equal(actions, reference.argmax(-1).numpy())
    # without the mask the argmax picks moves for cells without an ant as well
    unmasked, _ = model.predict(obs, deterministic=True)
    assert (unmasked != actions).any()


def test_short_training_saves_loads_and_evaluates(tmp_path):
    venv = botarena.vector_env("ants_v0", 4, opponent="random", seed=0, obs_dtype="float32",
                               **SHORT)
    model = make_model(venv, n_steps=32, batch_size=64, n_epochs=2)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(256)
    assert model.num_timesteps >= 256
    assert any((p != q).any() for p, q in zip(model.policy.parameters(), before))
    path = tmp_path / "model.zip"
    model.save(path)
    loaded = load_model(str(path))
    assert type(loaded.policy) is type(model.policy)
    assert loaded.policy.channels == (8, 8) and loaded.policy.value_hidden == 16
    obs = venv.reset()
    masks = venv.action_masks()
    a, _ = model.predict(obs, action_masks=masks, deterministic=True)
    b, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
    np.testing.assert_array_equal(a, b)
    r = evaluate(loaded, "ants_v0", "random", games=6, seed=1, **SHORT)
    assert r["games"] == 6 and r["wins"] + r["draws"] + r["losses"] == 6


def test_bf16_trunk_gives_the_same_log_prob_in_any_batch():
    """PPO's ratio compares the rollout's log-probs (batches of num_envs) with the
    training batches' ones: under bfloat16 autocast they must still agree."""
    venv, _, obs, masks = played_batch(num_envs=16)
    model = make_model(venv, n_steps=8, batch_size=16,
                       policy_kwargs={"channels": (8, 8), "value_hidden": 16, "bf16": True})
    with torch.no_grad():
        actions, _, small = model.policy(torch.as_tensor(obs[:4]), action_masks=masks[:4])
        big_actions = torch.cat([actions, torch.zeros(12, actions.shape[1], dtype=actions.dtype)])
        _, big, _ = model.policy.evaluate_actions(torch.as_tensor(obs), big_actions,
                                                  torch.as_tensor(masks))
    np.testing.assert_allclose(small.numpy(), big[:4].numpy(), rtol=1e-5, atol=1e-5)



def test_pretrain_clones_greedy_commands():
    """The imitation warm start with a command per cell: the clone's most likely command
    is greedy's for most ants it was trained on (cells without an own ant, forced to
    stay, are not counted)."""
    from botarena.training.pretrain import collect, pretrain

    torch.manual_seed(0)
    data = collect("ants_v0", 16, 12, seed=5, **SHORT)
    cells = SHORT["width"] * SHORT["height"]
    assert data["actions"].shape == (16 * 12, cells)
    assert data["masks"].shape == (16 * 12, cells * COMMANDS)
    chosen = data["masks"].reshape(-1, cells, COMMANDS)[
        np.arange(16 * 12)[:, None], np.arange(cells), data["actions"]]
    assert chosen.all()                                      # the teacher's moves are legal
    venv = botarena.vector_env("ants_v0", 2, opponent="greedy", obs_dtype="float32", **SHORT)
    model = make_model(venv)
    stats = pretrain(model, data, epochs=40, learning_rate=3e-3, batch_size=64)
    assert stats["epochs"] == 40 and stats["accuracy"] >= 0.8     # ~0.6 after one epoch


def test_pretrain_class_power_weights_rare_commands():
    """class_power: the cloning loss weighs each cell by its teacher command (rarer
    commands more, mean 1 over the cells with a choice); it still clones, and a policy
    without per-cell distributions is refused."""
    from botarena.training.pretrain import MAX_CLASS_WEIGHT, command_weights, pretrain

    actions = np.array([[0, 1], [1, 1], [1, 2]])          # 3 samples, 2 cells, 3 commands
    masks = np.ones((3, 2 * 3), dtype=bool)
    weights = command_weights({"actions": actions, "masks": masks}, 1.0)
    assert weights[0] == pytest.approx(4 * weights[1]) and weights[2] == pytest.approx(weights[0])
    assert (weights[actions.reshape(-1)].mean()) == pytest.approx(1.0)
    unseen = command_weights({"actions": np.zeros((1, 2), dtype=np.int64), "masks": masks[:1]}, 1.0)
    assert unseen[1] == pytest.approx(MAX_CLASS_WEIGHT * unseen[0])
    from botarena.training.pretrain import collect
    torch.manual_seed(0)
    data = collect("ants_v0", 16, 12, seed=5, **SHORT)
    venv = botarena.vector_env("ants_v0", 2, opponent="greedy", obs_dtype="float32", **SHORT)
    stats = pretrain(make_model(venv), data, epochs=40, learning_rate=3e-3, batch_size=64,
                     class_power=0.5)
    assert stats["accuracy"] >= 0.7     # 0.77: the weights trade common commands for rare


def test_rejects_other_action_spaces():
    from botarena.training.cells import CellsPolicy
    venv = botarena.vector_env("paint_v0", 2, obs_dtype="float32")
    with pytest.raises(ValueError, match="MultiDiscrete"):
        CellsPolicy(venv.observation_space, venv.action_space, lambda _: 1e-3)


def end_cells(actions, units, offsets):
    """The cells the units end in, per sample (a list of arrays)."""
    cells = np.arange(actions.shape[1])
    return [cells[u] + offsets[a[u]] for a, u in zip(actions, units)]


@pytest.mark.parametrize("case", [
    # the units' commands on a 1 x 6 row ('.' no unit, 's' stay, '>' east, '<' west), the
    # commands played
    (">.<...", ">.s..."),   # into one cell: the lowest cell moves
    (">s....", "ss...."),   # onto a unit that stays: stays too
    (">>s...", "sss..."),   # ... and the one behind it as well
    (">>>...", ">>>..."),   # a column flows into a free cell
    ("><....", "><...."),   # a swap: both move
    (">.<<..", ">.ss.."),   # the loser stays, so the one behind it stays too
])
def test_resolve_collisions(case):
    from botarena.training.cells import resolve_collisions
    before, after = case
    code = {".": 0, "s": 0, ">": 2, "<": 4}
    offsets = torch.tensor([0, -6, 1, 6, -1])
    actions = torch.tensor([[code[c] for c in before]])
    units = torch.tensor([[c != "." for c in before]])
    actions[~units] = 3     # cells without a unit keep whatever command they carry
    expected = torch.tensor([[code[c] for c in after]])
    expected[~units] = 3
    assert resolve_collisions(actions, units, offsets).tolist() == expected.tolist()


def test_unit_moves_make_the_played_actions_collision_free(tmp_path):
    """predict orders the units; in training the wrapped vec env does (the rollouts keep
    the sampled commands and their log-probabilities)."""
    from botarena.training.cells import OwnCollisionFree, resolve_collisions
    ants = botarena.env_module("ants_v0")
    venv, plain, obs, masks = played_batch(num_envs=16, turns=8)
    model = make_model(venv, n_steps=8, batch_size=16, policy_kwargs={
        "channels": (8, 8), "value_hidden": 16, "unit_moves": ants.UNIT_MOVES,
        "units_plane": ants.UNITS_PLANE})
    with torch.no_grad():
        model.policy.action_net.weight.mul_(20.0)
    width = SHORT["width"]
    offsets = np.array([dy * width + dx for dy, dx in ants.UNIT_MOVES])
    units = obs[:, ants.UNITS_PLANE].reshape(len(obs), -1) != 0
    legal = masks.reshape(len(obs), -1, COMMANDS)
    rows, cells = np.arange(len(obs))[:, None], np.arange(legal.shape[1])[None, :]
    collided = {"plain": 0, "ordered": 0}
    for _ in range(20):
        for name, m in (("plain", plain), ("ordered", model)):
            actions, _ = m.predict(obs, action_masks=masks, deterministic=False)
            assert legal[rows, cells, actions].all()
            collided[name] += sum(len(c) - len(np.unique(c))
                                  for c in end_cells(actions, units, offsets))
    assert collided["plain"] > 0 and collided["ordered"] == 0
    model.save(tmp_path / "model.zip")
    loaded = load_model(str(tmp_path / "model.zip"))
    assert loaded.policy.unit_moves == ants.UNIT_MOVES
    assert loaded.policy.units_plane == ants.UNITS_PLANE
    # the wrapper plays the ordered commands: the game's own ants move as ordered
    wrapped = OwnCollisionFree(venv, ants.UNIT_MOVES, ants.UNITS_PLANE)
    wrapped.last_obs = obs
    sampled, _ = plain.predict(obs, action_masks=masks, deterministic=False)
    ordered = resolve_collisions(torch.as_tensor(sampled), torch.as_tensor(units),
                                 torch.as_tensor(offsets)).numpy()
    played = []
    venv.step_async = lambda actions: played.append(actions)
    wrapped.step_async(sampled)
    np.testing.assert_array_equal(played[0], ordered)


def test_unit_moves_need_a_move_per_command_and_a_plane():
    from botarena.training.cells import CellsPolicy
    venv = botarena.vector_env("ants_v0", 2, obs_dtype="float32", **SHORT)
    space = (venv.observation_space, venv.action_space, lambda _: 1e-3)
    with pytest.raises(ValueError, match="one \\(dy, dx\\) per command"):
        CellsPolicy(*space, unit_moves=((0, 0), (1, 0)), units_plane=0)
    with pytest.raises(ValueError, match="go together"):
        CellsPolicy(*space, unit_moves=((0, 0),) * COMMANDS)
    with pytest.raises(ValueError, match="not a plane"):
        CellsPolicy(*space, unit_moves=((0, 0),) * COMMANDS, units_plane=99)
