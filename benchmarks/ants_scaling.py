"""How ants_v0's speed scales with the map size and the number of ants.

    python -m benchmarks.ants_scaling [--batch 1024] [--sizes 10 20 30 50] [--players 2]
                                      [--steps 40] [--repeats 3]

One row per map (the seeded generator, ``board="random"``, square, ``map_seed`` 0) and
policy: ``random`` (uniformly random commands on every cell, as the kernel rows of
``steps_per_sec``: few ants, ~2-5 per env) or ``greedy`` (the greedy bot for every
colony: many ants, ~10-30 per env).  Columns: the mean number of ants per env while
timed, env-steps/s of ``game.step(actions, autoreset=True)`` (the core's check and copy
of the int64 actions included, as the benchmark's kernel rows) and of the kernel alone
(step + observe), each as wall time and as CPU time (``time.process_time``, steadier on
a shared machine).  Serial kernels (one core).  The actions of each step are made before
it, untimed (the greedy bot reads the state, so its rows' state is warmer in cache).
Every number is the median of ``--repeats`` passes of ``--steps`` steps after a warm-up.
"""
import argparse
import statistics
import sys
import time

import numpy as np

SEED = 12345


def _actions(game, policy, rng, out):
    """This step's commands (``int64[E, A, H*W]``) of every colony under ``policy``."""
    if policy == "random":
        return rng.integers(0, game.action_values(), game.actions.shape)
    E, A = game.num_envs, game.num_agents
    game.bots["greedy"](game.state, game.params, np.repeat(np.arange(E), A),
                        np.tile(np.arange(A), E), out)
    return out.reshape(game.actions.shape)


def measure(size, players, policy, batch, steps, repeats):
    """(ants per env, {"step": (wall, cpu), "kernel": (wall, cpu)} env-steps/s)."""
    from botarena.envs.ants import AntsGame, Config
    game = AntsGame(Config(board="random", width=size, height=size, num_players=players),
                    batch, threads=False)
    rng = np.random.default_rng(SEED)
    out = np.zeros((batch * players, size * size), dtype=np.int64)
    game.reset(SEED)

    def kernel(actions):
        game._step(game.state, game.params, 1, (actions, True) + game._step_buffers())

    calls = {"step": lambda actions: game.step(actions, autoreset=True), "kernel": kernel}
    for _ in range(steps):                                   # warm-up: ants spread out
        game.step(_actions(game, policy, rng, out), autoreset=True)
    rates = {name: [] for name in calls}
    ants = []
    for _ in range(repeats):
        for name, call in calls.items():
            wall = cpu = 0.0
            for _ in range(steps):
                actions = np.ascontiguousarray(_actions(game, policy, rng, out), dtype=np.int64)
                ants.append(float(game.state.num_ants.mean()))
                w, c = time.perf_counter(), time.process_time()
                call(actions)
                wall += time.perf_counter() - w
                cpu += time.process_time() - c
            rates[name].append((batch * steps / wall, batch * steps / cpu))
    return statistics.mean(ants), {name: (statistics.median(r[0] for r in rs),
                                          statistics.median(r[1] for r in rs))
                                   for name, rs in rates.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ants_scaling",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 30, 50])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--policies", nargs="+", default=["random", "greedy"],
                        choices=["random", "greedy"])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"ants_v0, batch {args.batch}, {args.players} colonies, env-steps/s (wall / cpu)")
    print(f"{'map':>7} {'policy':>7} {'ants/env':>9} {'step wall':>10} {'step cpu':>9} "
          f"{'kernel wall':>12} {'kernel cpu':>11}")
    for size in args.sizes:
        for policy in args.policies:
            ants, r = measure(size, args.players, policy, args.batch, args.steps, args.repeats)
            print(f"{size:>3}x{size:<3} {policy:>7} {ants:>9.1f} {r['step'][0]:>10,.0f} "
                  f"{r['step'][1]:>9,.0f} {r['kernel'][0]:>12,.0f} {r['kernel'][1]:>11,.0f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
