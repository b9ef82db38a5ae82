"""How towers_v0's speed scales with the number of units (bots and towers).

    python -m benchmarks.towers_scaling [--batch 1024] [--turns 0 25 50 100 300]
                                        [--steps 20] [--repeats 3]

Both players of every env are the greedy bot (the default map): a game starts with 20
bots a side, spawns a bot a side each turn up to the caps and builds towers on the flag:
~110 units per env at turn 25, ~200 at turn 100, ~300 from turn ~200.  One row per position: the batch played greedy vs greedy from one seed up to
``turn`` (untimed), then ``--steps`` greedy steps timed from there.  Columns: the mean
number of units (living or dead-this-turn, both players) per env while timed,
env-steps/s of ``game.step(actions, autoreset=True)`` (the core's check of the actions,
in the game's int8 buffer layout, included) and of the kernel alone (step + observe), each as wall time and
as CPU time (``time.process_time``, steadier on a shared machine).  Serial kernels (one
core).  The actions of each step are made before it, untimed (the greedy bot reads the
state, so the state is warm in cache).  Each pass starts from the same position (state,
observations and masks copied back), so every pass plays the same steps; every number
is the median of ``--repeats`` passes.
"""
import argparse
import statistics
import sys
import time

import numpy as np

SEED = 12345


class Greedy:
    """The greedy bot's commands for both players of every env, laid out as
    ``game.actions`` (``int8[E, 2, N * N]``; the bot writes int64)."""

    def __init__(self, game):
        E, A = game.num_envs, game.num_agents
        self.game = game
        self.env_ids, self.agent_ids = np.repeat(np.arange(E), A), np.tile(np.arange(A), E)
        self.out = np.zeros((E * A,) + game.action_shape(), dtype=np.int64)
        self.actions = np.zeros_like(game.actions)

    def __call__(self):
        game = self.game
        game.bots["greedy"](game.state, game.params, self.env_ids, self.agent_ids, self.out)
        self.actions[...] = self.out.reshape(game.actions.shape)   # the bot's are legal
        return self.actions


def units_per_env(game):
    s = game.state
    return float((s.num_bots.sum(1) + s.num_towers.sum(1)).mean())


def time_pass(game, greedy, call, steps):
    """(wall, cpu) env-steps/s of ``steps`` calls of ``call(actions)``, and the mean
    number of units per env."""
    wall = cpu = 0.0
    units = []
    for _ in range(steps):
        actions = greedy()
        units.append(units_per_env(game))
        w, c = time.perf_counter(), time.process_time()
        call(actions)
        wall += time.perf_counter() - w
        cpu += time.process_time() - c
    n = game.num_envs * steps
    return (n / wall, n / cpu), statistics.mean(units)


def measure(game, greedy, steps, repeats):
    """(units per env, {"step": (wall, cpu), "kernel": (wall, cpu)} env-steps/s) of
    ``steps`` steps from the game's current position (left as it was)."""
    def kernel(actions):
        game._advance(actions, True)

    calls = {"step": lambda actions: game.step(actions, autoreset=True), "kernel": kernel}
    state, obs, masks = game.copy_state(), game.obs.copy(), game.masks.copy()

    def back_to_start():
        for field, saved in zip(game.state, state):
            field[...] = saved
        game.obs[...] = obs
        game.masks[...] = masks

    rates = {name: [] for name in calls}
    units = 0.0
    for _ in range(repeats):
        for name, call in calls.items():
            rate, units = time_pass(game, greedy, call, steps)
            rates[name].append(rate)
            back_to_start()
    return units, {name: (statistics.median(r[0] for r in rs),
                          statistics.median(r[1] for r in rs)) for name, rs in rates.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.towers_scaling",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--turns", type=int, nargs="+", default=[0, 25, 50, 100, 300])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    from botarena.envs.towers import Config, TowersGame
    game = TowersGame(Config(), args.batch, threads=False)
    greedy = Greedy(game)
    game.reset(SEED)
    print(f"towers_v0, batch {args.batch}, greedy vs greedy, env-steps/s (wall / cpu)")
    print(f"{'turn':>5} {'units/env':>10} {'step wall':>10} {'step cpu':>9} "
          f"{'kernel wall':>12} {'kernel cpu':>11}")
    turn = 0
    for target in sorted(args.turns):
        for _ in range(turn, target):
            game.step(greedy(), autoreset=True)
        turn = max(turn, target)
        units, r = measure(game, greedy, args.steps, args.repeats)
        print(f"{target:>5} {units:>10.1f} {r['step'][0]:>10,.0f} {r['step'][1]:>9,.0f} "
              f"{r['kernel'][0]:>12,.0f} {r['kernel'][1]:>11,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
