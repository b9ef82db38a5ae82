"""Where the trainer's wall clock goes: a few PPO iterations of a recipe, timed by part.

    python -m botarena.training.profiling --env paint_v0 --iterations 5 [trainer options]

Builds the run as the trainer does (``ppo.prepare``, ``make_env``, ``make_model``: the
recipe and any trainer option given), plays one PPO iteration to warm up (numba's and
torch's first calls), then ``--iterations`` more with timers around the parts of an
iteration, and prints each part's own time (the time of the parts called inside it left
out), its share of the wall clock and the env-steps/s:

- ``env step``: the vec env's step (the game and its opponents' bots);
- ``action masks``: fetching the masks for MaskablePPO (``get_action_masks``);
- ``policy forward``: the policy's forward in the rollouts (and the last values);
- ``callback``: the trainer's callback, called every env step;
- ``rollout bookkeeping``: the rest of the rollouts (tensors from the observations, the
  buffer's adds, the returns and advantages);
- ``learner forward``, ``learner backward``, ``optimizer`` (the gradient clipping and
  the step): PPO's update;
- ``learner bookkeeping``: the rest of the update (minibatches, losses, logging);
- ``other``: the rest of ``learn``.

The timers wrap the callables on the model, its policy and env (and, while it runs,
``torch.Tensor.backward`` and ``clip_grad_norm_``); each costs ~1 microsecond a call.
``--cprofile FILE`` also writes cProfile's stats of the timed iterations (cProfile's own
overhead inflates Python-heavy parts there).
"""
import argparse
import cProfile
import time
from contextlib import contextmanager

from .ppo import make_env, make_model, parse_args, prepare

DEFAULT_ITERATIONS = 5
WARMUP_ITERATIONS = 1
# the parts of the network's own arithmetic; the others are what the issue asks to cut
NETWORK_PARTS = ("policy forward", "learner forward", "learner backward", "optimizer")
PARTS = ("env step", "action masks", "policy forward", "callback", "rollout bookkeeping",
         "learner forward", "learner backward", "optimizer", "learner bookkeeping", "other")


class Timers:
    """Own time per part: a timed call's time less that of the timed calls inside it."""

    def __init__(self):
        self.own = dict.fromkeys(PARTS, 0.0)
        self.calls = dict.fromkeys(PARTS, 0)
        self.inner = [0.0]        # per open timed call: the time of the calls inside it

    def reset(self):
        self.own = dict.fromkeys(PARTS, 0.0)
        self.calls = dict.fromkeys(PARTS, 0)

    def timed(self, part, function):
        """``function`` wrapped: its own time goes to ``part``."""
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            self.inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                inner = self.inner.pop()
                self.own[part] += elapsed - inner
                self.calls[part] += 1
                self.inner[-1] += elapsed
        return wrapper

    def wrap(self, owner, name, part):
        """Time ``owner.name`` (an instance's or a module's attribute) as ``part``."""
        setattr(owner, name, self.timed(part, getattr(owner, name)))


@contextmanager
def patched(owner, name, replacement):
    """``owner.name`` is ``replacement`` within the block (class and module attributes)."""
    original = getattr(owner, name)
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        setattr(owner, name, original)


def time_parts(model, timers):
    """Wrap the parts of ``model``'s iterations (see the module docstring) on the model,
    its env and policy in ``timers``."""
    timers.wrap(model, "learn", "other")
    timers.wrap(model, "collect_rollouts", "rollout bookkeeping")
    timers.wrap(model.env, "step", "env step")
    timers.wrap(model.policy, "forward", "policy forward")
    timers.wrap(model.policy, "predict_values", "policy forward")
    timers.wrap(model, "train", "learner bookkeeping")
    timers.wrap(model.policy, "evaluate_actions", "learner forward")
    timers.wrap(model.policy.optimizer, "step", "optimizer")


def profile(args, iterations, cprofile_path=None):
    """The parts' own seconds over ``iterations`` PPO iterations of the run of ``args``,
    with the wall clock (``"wall"``), the env steps (``"steps"``) and the timed calls
    (``"calls"``)."""
    import torch
    from sb3_contrib.ppo_mask import ppo_mask

    from .callbacks import training_callback
    run = prepare(args)
    make_env(run)
    make_model(run)
    model = run.model
    per_iteration = model.n_steps * model.env.num_envs
    timers = Timers()
    time_parts(model, timers)
    callback = training_callback(None, 1, run.opponents, 0, float("inf"), progress=False)
    timers.wrap(callback, "on_step", "callback")
    masks = timers.timed("action masks", ppo_mask.get_action_masks)
    clip = timers.timed("optimizer", torch.nn.utils.clip_grad_norm_)
    backward = timers.timed("learner backward", torch.Tensor.backward)
    profiler = cProfile.Profile() if cprofile_path else None
    with patched(ppo_mask, "get_action_masks", masks), \
            patched(torch.nn.utils, "clip_grad_norm_", clip), \
            patched(torch.Tensor, "backward", backward):
        run.reset_threads()
        model.learn(WARMUP_ITERATIONS * per_iteration, callback=callback)
        timers.reset()
        steps = model.num_timesteps
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        model.learn(iterations * per_iteration, callback=callback, reset_num_timesteps=False)
        if profiler:
            profiler.disable()
            profiler.dump_stats(cprofile_path)
        wall = time.perf_counter() - start
    return dict(timers.own, wall=wall, steps=model.num_timesteps - steps,
                calls=dict(timers.calls))


def format_table(parts):
    """A markdown table of ``profile``'s parts: seconds, share of the wall clock, ms per
    iteration; then the network's and the rest's shares and the env-steps/s."""
    wall = parts["wall"]
    lines = ["| part | seconds | share |", "|---|---|---|"]
    for part in PARTS:
        lines.append(f"| {part} | {parts[part]:.2f} | {parts[part] / wall:.1%} |")
    network = sum(parts[p] for p in NETWORK_PARTS)
    lines.append(f"| wall clock | {wall:.2f} | network {network / wall:.1%}, the rest "
                 f"{1 - network / wall:.1%} |")
    lines.append(f"\n{parts['steps']} env steps, {parts['steps'] / wall:.0f} env-steps/s")
    return "\n".join(lines)


def main(argv=None):
    """Profile as the command line says; prints the table and returns ``profile``'s parts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS,
                        help=f"timed PPO iterations (default {DEFAULT_ITERATIONS})")
    parser.add_argument("--cprofile", default=None, metavar="FILE",
                        help="also write cProfile's stats of the timed iterations to FILE")
    own, rest = parser.parse_known_args(argv)
    parts = profile(parse_args(rest), own.iterations, own.cprofile)
    print(format_table(parts))
    return parts


if __name__ == "__main__":
    main()
