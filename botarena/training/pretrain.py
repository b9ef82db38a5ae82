"""Imitation warm start: clone a scripted bot into a MaskablePPO policy before PPO.

``collect(env_id, num_envs, steps, opponent, ...)`` plays ``botarena.vector_env`` games in
which the learner seat asks the game's ``teacher`` bot (``game.bots["greedy"]``) for its
action every turn and records ``(obs, action mask, teacher action, reward, done)``; the
seat plays the teacher's action, or with probability ``epsilon`` a uniformly random legal
one (so the data also covers states the teacher itself would not reach), or, with
``policy`` given, the policy's own action with probability ``1 - beta`` (DAgger).  The
bots draw their tie-breaks from the per-env agent RNG stream, so asking the teacher
changes the opponents' random choices, not the game's.

``pretrain(model, data, epochs, ...)`` fits the policy to the teacher's actions (their
masked log-likelihood, through the policy's ``evaluate_actions``: the flat MLP, the CNN
and the per-cell policy alike) and its value head to the observed discounted returns
(``gamma``), with Adam on mini-batches; returns the final accuracy (most likely action
equal to the teacher's, over the action entries the mask leaves a choice) and losses.
``dagger(model, env_id, rounds, ...)`` then refines the clone on the states it reaches
itself (DAgger): each round records games in which the learner seat plays the policy's
own sampled action with probability ``1 - beta``, all labelled with the teacher's actions,
and clones the last ``window`` rounds' recordings again: a clone of the teacher's own
games never sees its own mistakes.  On coderunner_v0 (the trapper, from a PPO-refined
clone at 0.18 wins vs greedy) seven rounds went 0.15, 0.18, 0.28, 0.32, then 0.34-0.39.
The value loss is divided by the returns' variance: both losses share one gradient-norm
clip, and dungeon_v0's returns (variance ~150) made the raw squared error drown the
cross-entropy (cloning the safe bomber from 51k samples, 6 epochs: accuracy 0.62 with the
raw squared error, 0.68 scaled, 0.69 with no value loss at all).

``class_power`` > 0 (per-cell policies, ``training.cells``) weights each cell's term of the
cross-entropy by its teacher command's weight ``(n_max / n_c) ** class_power`` (``n_c``:
the command's count over the cells the mask leaves a choice; capped at
``MAX_CLASS_WEIGHT``, then scaled to a mean of 1 over those cells): towers_v0's teachers
walk (one command, SE, ~90% of the choices), and the rare commands that decide a game
(blasts, transforms, the steps between flag tiles, ~1% each) were under-learnt.
"""
import sys
import time

import numpy as np

import botarena

# the value loss is scaled by 1 / var(returns), the variance taken from this floor up
MIN_RETURNS_VAR = 1e-6
DAGGER_BETA = 0.3      # share of the teacher's own actions played in a DAgger round
DAGGER_WINDOW = 3      # rounds of recordings cloned again (memory grows with the window)
DAGGER_EPOCHS = 3      # epochs over the window's recordings, per round
DAGGER_LEARNING_RATE = 3e-4
MAX_CLASS_WEIGHT = 50.0  # the cap on a command's weight (class_power), before the scaling


def _random_legal(masks, rng, action_shape):
    """A uniformly random legal action per row of ``masks`` (each entry of an action of
    ``action_shape``: its own choice among its legal values)."""
    n = masks.shape[0]
    entries = int(np.prod(action_shape))
    u = rng.random(masks.shape) * masks
    return u.reshape(n, entries, -1).argmax(2).reshape((n,) + tuple(action_shape))


def collect(env_id, num_envs, steps, opponent=("random", "greedy"), seed=0, teacher="greedy",
            epsilon=0.0, policy=None, beta=1.0, gamma=0.99, **config):
    """Record ``steps`` turns of ``num_envs`` learner seats; returns a dict of arrays
    ``obs (N, C, H, W) float32, masks (N, mask length) bool, actions (N,) + action shape
    int64, returns (N,) float32`` with ``N = num_envs * steps``, less (``Discrete``) the
    samples whose teacher action the mask clears (returns are discounted to the episode's
    end, or to the end of the recording for episodes still running).  An
    action is one value (``Discrete``) or one per entry (``MultiDiscrete``, e.g. ants' command
    per cell)."""
    config = dict(config)
    config["obs_dtype"] = "float32"
    # threads=False: numba's parallel kernel (256+ envs) thrashes on a few shared cores
    torch = sys.modules.get("torch")
    torch_threads = torch.get_num_threads() if torch is not None else None
    venv = botarena.vector_env(env_id, num_envs, opponent=list(opponent), seed=seed,
                               threads=False, **config)
    if torch is not None:
        # numba's threading layer (started for games of 256+ envs) resets the OpenMP
        # threads torch shares; 2 threads on busy cores ran torch ~10x slower than 1
        torch.set_num_threads(torch_threads)
    slots, game = venv.slots, venv.slots.game
    bot = game.bots[teacher]
    rng = np.random.default_rng(seed)
    n = venv.num_envs
    action_shape = venv.action_space.shape
    obs_buf = np.empty((steps, n) + venv.observation_space.shape, dtype=np.float32)
    mask_buf = np.empty((steps, n, game.masks.shape[-1]), dtype=bool)
    act_buf = np.empty((steps, n) + action_shape, dtype=np.int64)
    rew_buf = np.empty((steps, n), dtype=np.float32)
    done_buf = np.empty((steps, n), dtype=bool)
    out = np.zeros((n,) + action_shape, dtype=np.int64)
    obs = venv.reset()
    for t in range(steps):
        masks = venv.action_masks()
        bot(game.state, game.params, slots.learner_env, slots.learner_agent, out)
        obs_buf[t], mask_buf[t], act_buf[t] = obs, masks, out
        play = out.copy()
        if policy is not None and beta < 1.0:
            own = rng.random(n) >= beta
            if own.any():
                pa, _ = policy.predict(obs[own], action_masks=masks[own], deterministic=False)
                play[own] = pa
        if epsilon > 0:
            explore = rng.random(n) < epsilon
            if explore.any():
                play[explore] = _random_legal(masks[explore], rng, action_shape)
        obs, rew, dones, _ = venv.step(play)
        rew_buf[t], done_buf[t] = rew, dones
    ret = np.zeros((steps, n), dtype=np.float32)
    running = np.zeros(n, dtype=np.float32)
    for t in range(steps - 1, -1, -1):
        running = rew_buf[t] + gamma * running * (~done_buf[t])
        ret[t] = running
    venv.close()
    flat = lambda a: a.reshape((steps * n,) + a.shape[2:])  # noqa: E731
    data = {"obs": flat(obs_buf), "masks": flat(mask_buf), "actions": flat(act_buf),
            "returns": flat(ret)}
    if not action_shape:
        # a teacher's action the mask clears (a mask stricter than the bot, e.g. dungeon's
        # shield) would cost ~1e8 of log-likelihood: such samples are left out
        allowed = np.take_along_axis(data["masks"], data["actions"][:, None], axis=1)[:, 0]
        data = {key: value[allowed] for key, value in data.items()}
    return data


def command_weights(data, class_power):
    """Per-command weights of the cloning loss (module doc): ``(n_max / n_c) **
    class_power`` capped at ``MAX_CLASS_WEIGHT``, scaled to a mean of 1 over the action
    entries the mask leaves a choice; commands never chosen get the cap."""
    n = len(data["actions"])
    actions = data["actions"].reshape(n, -1)
    entries = actions.shape[1]
    choice = data["masks"].reshape(n, entries, -1).sum(2) > 1
    counts = np.bincount(actions[choice], minlength=data["masks"].shape[1] // entries)
    counts = counts.astype(np.float64)
    weights = np.full(len(counts), MAX_CLASS_WEIGHT)
    seen = counts > 0
    weights[seen] = np.minimum((counts.max() / counts[seen]) ** class_power, MAX_CLASS_WEIGHT)
    mean = (weights * counts).sum() / max(counts.sum(), 1.0)
    return (weights / mean).astype(np.float32)


def _weighted_cells_loss(policy, obs, actions, masks, weights):
    """Values and the class-weighted cross-entropy (mean over the batch of the sum over
    the cells with a choice) of a per-cell policy (``training.cells.CellsPolicy``)."""
    features = policy.extract_features(obs)
    dist = policy._distribution(features, masks)
    chosen = actions.reshape(-1)[dist.free]
    log_p = dist.log_p.gather(1, chosen[:, None]).squeeze(1)
    return policy._values(features), -(weights[chosen] * log_p).sum() / len(obs)


def pretrain(model, data, epochs=4, batch_size=1024, learning_rate=1e-3, vf_coef=0.5,
             seed=0, time_budget_s=None, log=None, class_power=0.0):
    """Behaviour cloning of ``data`` (see ``collect``) into ``model.policy``: the masked
    log-likelihood of the teacher's actions (through the policy's own ``evaluate_actions``,
    so any MaskablePPO policy, per-cell ones included; with ``class_power`` > 0 each cell's
    term weighted by its command, per-cell policies only: module doc) and the value head on
    the returns.  Returns ``{"accuracy", "ce", "value_mse", "epochs", "seconds"}`` of the
    last epoch, on the training data as it went by; accuracy: the share of the action
    entries the mask leaves a choice whose most likely value is the teacher's."""
    import torch

    policy = model.policy
    weights = None
    if class_power > 0:
        if not hasattr(policy, "_distribution") or not hasattr(policy.action_dist, "free"):
            raise ValueError("class_power needs a per-cell policy (training.cells)")
        weights = torch.as_tensor(command_weights(data, class_power))
    policy.set_training_mode(True)
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    returns_var = max(float(returns.var()), MIN_RETURNS_VAR) if len(returns) > 1 else 1.0
    n = len(actions)
    entries = actions.reshape(n, -1).shape[1]
    gen = torch.Generator().manual_seed(seed)
    t0 = time.perf_counter()
    stats = {}
    done_epochs = 0
    for epoch in range(epochs):
        perm = torch.randperm(n, generator=gen)
        correct, choices, ce_sum, v_sum, count = 0, 0, 0.0, 0.0, 0
        for start in range(0, n, batch_size):
            idx = perm[start:start + batch_size]
            b = len(idx)
            if weights is None:
                values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx],
                                                              masks[idx])
                ce = -log_prob.mean()
            else:
                values, ce = _weighted_cells_loss(policy, obs[idx], actions[idx], masks[idx],
                                                  weights)
            v_loss = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = ce + vf_coef * v_loss / returns_var
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            if time_budget_s is not None and time.perf_counter() - t0 >= time_budget_s:
                break
            with torch.no_grad():
                mode = policy.get_distribution(obs[idx], masks[idx]).mode().reshape(b, entries)
            choice = masks[idx].reshape(b, entries, -1).sum(2) > 1
            correct += int(((mode == actions[idx].reshape(b, entries)) & choice).sum())
            choices += int(choice.sum())
            ce_sum += float(ce.detach()) * b
            v_sum += float(v_loss.detach()) * b
            count += b
        done_epochs += 1
        count = max(count, 1)
        stats = {"accuracy": correct / max(choices, 1), "ce": ce_sum / count,
                 "value_mse": v_sum / count}
        if log is not None:
            log(f"pretrain epoch {epoch + 1}/{epochs}: accuracy {stats['accuracy']:.3f} "
                f"ce {stats['ce']:.3f} value mse {stats['value_mse']:.2f} "
                f"({time.perf_counter() - t0:.0f}s)")
        if time_budget_s is not None and time.perf_counter() - t0 >= time_budget_s:
            break
    policy.set_training_mode(False)
    stats.update({"epochs": done_epochs, "seconds": time.perf_counter() - t0})
    return stats


def agreement(model, env_id="paint_v0", num_envs=64, steps=50, seed=123, teacher="greedy",
              opponent=("random", "greedy"), **config):
    """Share of states (teacher-played games) where ``model``'s most likely action is the
    teacher's."""
    data = collect(env_id, num_envs, steps, opponent=opponent, seed=seed, teacher=teacher,
                   **config)
    pred, _ = model.predict(data["obs"], action_masks=data["masks"], deterministic=True)
    return float(np.mean(pred == data["actions"]))


def dagger(model, env_id, rounds, num_envs, steps, opponent=("random", "greedy"),
           teacher="greedy", beta=DAGGER_BETA, window=DAGGER_WINDOW, seed=0, gamma=0.99,
           epochs=DAGGER_EPOCHS, learning_rate=DAGGER_LEARNING_RATE, batch_size=1024,
           time_budget_s=None, log=None, class_power=0.0, on_round=None,
           **config):
    """``rounds`` DAgger rounds into ``model`` (see the module's docstring): each records
    ``steps`` turns of ``num_envs`` seats with ``collect(..., policy=model, beta=beta)``
    and runs ``pretrain`` (``class_power``: its weighting) for ``epochs`` over the last
    ``window`` recordings.  Stops early
    once ``time_budget_s`` is spent; ``on_round(r)``, if given, is called after round r
    (1, 2, ...).  Returns the last round's ``pretrain`` stats with
    ``rounds`` (rounds done) and ``samples`` (recorded in all)."""
    if rounds < 0 or not 0.0 <= beta <= 1.0 or window < 1:
        raise ValueError(f"dagger needs rounds >= 0, 0 <= beta <= 1 and window >= 1, got "
                         f"{rounds}, {beta}, {window}")
    t0 = time.perf_counter()

    def left():
        return None if time_budget_s is None else time_budget_s - (time.perf_counter() - t0)

    recordings, stats, done, samples = [], {}, 0, 0
    for r in range(rounds):
        if left() is not None and left() <= 0:
            break
        recordings = recordings[-(window - 1):] if window > 1 else []
        recordings.append(collect(env_id, num_envs, steps, opponent=opponent,
                                  seed=seed + r, teacher=teacher, policy=model, beta=beta,
                                  gamma=gamma, **config))
        samples += num_envs * steps
        data = {k: np.concatenate([rec[k] for rec in recordings]) for k in recordings[0]}
        stats = pretrain(model, data, epochs=epochs, batch_size=batch_size,
                         learning_rate=learning_rate, seed=seed + r, time_budget_s=left(),
                         class_power=class_power)
        del data
        done += 1
        if on_round is not None:
            on_round(done)
        if log is not None:
            log(f"dagger round {done}/{rounds}: {samples} samples recorded, accuracy "
                f"{stats['accuracy']:.3f} ce {stats['ce']:.3f} "
                f"({time.perf_counter() - t0:.0f}s)")
    stats.update({"rounds": done, "samples": samples,
                  "seconds": time.perf_counter() - t0})
    return stats
