"""Where the SB3 vector env's time goes beyond the threaded kernel, one layer at a time.

    python -m benchmarks.vector_layers [--envs paint_v0 ...] [--batch 4096] [--steps 40]
                                       [--repeats 7] [--json PATH]

``benchmarks.steps_per_sec`` compares ``vector_env`` with ``kernel-threads``; this splits
the difference.  Each row adds one thing the vector env does to the threaded kernel
(``game.step`` with autoreset on the game's int8 action buffer and its one observation
buffer), all on the same recorded actions, their timed passes taking turns (one pass of
each a round) in one process, so that their ratios compare passes of the same minute:

``kernel-threads``       the kernel row of ``steps_per_sec``;
``int64 actions``        the same actions as int64 (what a torch policy's samples are when
                         they reach SB3's VecEnv): checked as they are copied into the
                         int8 buffer (``BatchedGame.narrow``);
``buffers alternate``    the observations written into two buffers in turn
                         (``BatchedGame.point_obs``) with nothing replayed or recorded:
                         wrong observations, timing only (the cost of touching two
                         buffers' memory);
``journal recorded``     one buffer, every observation write recorded in the journal
                         (``core.journal``) and nothing replayed: timing only;
``double-buffered``      both, and the replay: what the vector env's kernel call does
                         (``wrappers.slots``), with int8 actions, then with int64;
``vector_env``           ``botarena.vector_env`` (every agent a learner) stepped with int64
                         (left out where stable-baselines3 is not installed);
``gym_vector_views``     ``botarena.gymnasium_vector_env(copy=False)``, int64: the game's
                         own buffers handed out, no second buffer.

Each row shows the median microseconds per batch step and the kernel's time over it
(1.0: as fast as the kernel).  ``paint_v0`` redraws its observations whole every step,
so it records nothing: its journal row is the kernel's.
"""
import argparse
import json
import statistics
import sys
import time
from importlib.util import find_spec

import numpy as np

from botarena.core.journal import WHOLE

from .steps_per_sec import SEED, record_actions

LAYERS = ("kernel-threads", "int64 actions", "buffers alternate", "journal recorded",
          "double-buffered", "double-buffered, int64", "vector_env", "gym_vector_views")


def _alternating(game):
    """``game`` with a second observation buffer: ``point(i)`` points it at buffer
    ``i % 2`` (``point_obs``), as the vector env does before each step."""
    buffers = [game.obs, game.new_obs_buffer()]

    def point(i):
        game.point_obs(buffers[i % 2])
    return point


def layer_passes(env_id, batch, steps):
    """``[(layer, run, prepare)]``, each ``run()`` stepping ``steps`` batch steps, its
    kernels compiled and warmed up (no ``vector_env`` without stable-baselines3)."""
    import botarena
    module = botarena.env_module(env_id)

    def new_game():
        return module.Game(module.Config(), batch, threads=True)

    kernel = new_game()
    actions = record_actions(kernel, steps, SEED)   # compiles and warms up too
    count = len(actions)
    wide = actions.astype(np.int64)
    flat = wide.reshape((count, -1) + actions.shape[3:])     # one row per slot
    alternate, recorded, double, double_wide = (new_game() for _ in range(4))
    point_alternate, point_double, point_double_wide = (
        _alternating(g) for g in (alternate, double, double_wide))
    vec = None
    if find_spec("stable_baselines3"):
        vec = botarena.vector_env(env_id, batch, seed=SEED)
    views = botarena.gymnasium_vector_env(env_id, batch, copy=False)
    journal_count = recorded.obs_journal[-1]

    def stepper(game, given, before=None):
        def run():
            for i in range(steps):
                if before is not None:
                    before(i)
                game.step(given[i % count], autoreset=True)
        return run

    def only_alternate(i):
        point_alternate(i)
        # timing only: no replay (the kernel's ``sync`` argument off) and no recording
        # (every row's journal marked as written whole, so ``record`` returns at once)
        alternate._sync_args = alternate._sync_args[:-1] + (False,)
        alternate.obs_journal[-1][...] = WHOLE

    def only_record(i):
        journal_count[...] = 0      # timing only: recorded, never replayed

    def run_vec():
        for i in range(steps):
            vec.step(flat[i % count])

    def run_views():
        for i in range(steps):
            views.step(flat[i % count])

    def reset(game):
        return lambda: game.reset(SEED)

    def reset_vec():
        vec.seed(SEED)
        vec.reset()

    passes = [(stepper(kernel, actions), reset(kernel)),
              (stepper(kernel, wide), reset(kernel)),
              (stepper(alternate, actions, only_alternate), reset(alternate)),
              (stepper(recorded, actions, only_record), reset(recorded)),
              (stepper(double, actions, point_double), reset(double)),
              (stepper(double_wide, wide, point_double_wide), reset(double_wide)),
              (run_vec, reset_vec),
              (run_views, lambda: views.reset(seed=SEED))]
    layers = [(layer, run, prepare) for layer, (run, prepare) in zip(LAYERS, passes)
              if vec is not None or layer != "vector_env"]
    for _, run, prepare in layers:     # compile and warm up
        prepare()
        run()
    return layers


def bench_layers(env_id, batch, steps, repeats):
    """``[{"env", "layer", "us_per_step", "kernel_ratio"}]``, one per layer."""
    passes = layer_passes(env_id, batch, steps)
    times = {layer: [] for layer, _, _ in passes}
    for _ in range(repeats):
        for layer, run, prepare in passes:
            prepare()
            start = time.perf_counter()
            run()
            times[layer].append((time.perf_counter() - start) / steps)
    medians = {layer: statistics.median(t) for layer, t in times.items()}
    base = medians[LAYERS[0]]
    return [{"env": env_id, "layer": layer, "us_per_step": 1e6 * medians[layer],
             "kernel_ratio": base / medians[layer]} for layer in medians]


def format_table(rows, batch):
    lines = [f"| env | layer | us per step at batch {batch} | kernel-threads / this |",
             "|---|---|---|---|"]
    lines += [f"| {r['env']} | {r['layer']} | {r['us_per_step']:,.0f} | "
              f"{r['kernel_ratio']:.2f} |" for r in rows]
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vector_layers",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", nargs="+", metavar="ENV_ID",
                        help="env ids (default: every registered env)")
    parser.add_argument("--batch", type=int, default=4096, help="envs per batch")
    parser.add_argument("--steps", type=int, default=40, help="batch steps per timed pass")
    parser.add_argument("--repeats", type=int, default=7, help="timed passes per layer (>= 3)")
    parser.add_argument("--json", metavar="PATH", help="also write the rows")
    args = parser.parse_args(argv)
    if args.repeats < 3:
        parser.error("--repeats must be at least 3 (the median of >= 3 passes is reported)")
    if args.batch < 1 or args.steps < 1:
        parser.error("--batch and --steps must be positive")
    return args


def main(argv=None):
    args = parse_args(argv)
    import botarena
    import numba
    if numba.get_num_threads() < 2:
        print("numba has 1 thread: the threaded kernel is the serial one", file=sys.stderr)
    env_ids = args.envs or list(botarena.ENV_IDS)
    for env_id in env_ids:
        botarena.env_module(env_id)  # unknown ids fail before any timing
    rows = []
    for env_id in env_ids:
        rows.extend(bench_layers(env_id, args.batch, args.steps, args.repeats))
    print(format_table(rows, args.batch))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"batch": args.batch, "steps": args.steps, "repeats": args.repeats,
                       "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
