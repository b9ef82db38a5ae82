"""Where ants_v0's kernel step spends its time, phase by phase.

    python -m benchmarks.ants_phases [--batch 1024] [--policies random greedy]
                                     [--steps 64] [--repeats 5]

Method.  A copy of the serial step driver (``core.loop``'s loop over the envs with ants'
``play_env`` written out) calls the game's own phase functions in the same order, on the
same arrays, and reads the CPU's cycle counter (``llvm.readcyclecounter``) between them,
adding each interval to its phase.  The envs are stepped one after another as in the
real driver, with the same prefetching, so every phase sees the caches it sees there;
removing a phase instead (ablation) would change the game that the other phases play.
Before timing, the copy is checked against the real kernel: from the same state with the
same actions both must leave the same state, observations, masks and rewards.

A cycle counter measures wall time (including time the process waits for a shared core),
so the counts only share out the process's CPU time: each phase gets ``its cycles /
all cycles of the step`` of the step's CPU time (``time.process_time``).  Reading the
counter costs a few dozen cycles a time, ten times per env-step: the instrumented pass's
total is shown beside the uninstrumented kernel's (``kernel``, ``game._step``) and the
benchmark's kernel row (``game.step``: the check of the actions and the Python call
added).  The three run in turn, ``--repeats`` passes each; every step counts with its
fastest pass (CPU time; the other processes of a shared machine slow some passes down by
evicting the caches).

Phases (ns per env-step): ``prefetch`` (for the envs ahead), ``observe`` (erasing the
marks of the ants before the turn and drawing the planes and masks after it), ``moves``,
``combat``, ``hills`` (razing and spawning ants), ``food`` (gathering and spawning food),
``end`` (elimination, rewards and end flags), ``autoreset`` (final observations copied, a
new game reset and observed), ``loop`` (the rest of the driver's loop: the counter's gaps).

Policies: ``random`` (uniformly random commands on every cell, ``ARRAY_ACTION_POOL``
grids replayed in turn from the reset, as the kernel rows of ``benchmarks.steps_per_sec``:
few ants, most of them still) and ``greedy`` (the greedy bot for every colony, recorded
after ``--warmup`` turns and replayed from that position: a real game's many ants).
"""
import argparse
import time

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from botarena.core.jit import copy_into, hot
from botarena.core.journal import journal_of
from botarena.core.loop import player_rows
from botarena.core.rewards import finish_step
from botarena.envs.ants import AntsGame, Config
from botarena.envs.ants.kernel import reset_env
from botarena.envs.ants.memory import prefetch_ahead
from botarena.envs.ants.observe import after_turn, before_turn, observe_env
from botarena.envs.ants.rules import attack, eliminate, gather, move, raze, spawn, spawn_food

from .steps_per_sec import ARRAY_ACTION_POOL, SEED

PHASES = ("prefetch", "observe", "moves", "combat", "hills", "food", "end", "autoreset",
          "loop")
PREFETCH, OBSERVE, MOVES, COMBAT, HILLS, FOOD, END, AUTORESET, LOOP = range(len(PHASES))
TOTAL = len(PHASES)          # ticks[TOTAL]: the whole loop's cycles
NS = 1e9


@intrinsic
def cycles(typingctx):
    """The CPU's cycle counter (``rdtsc`` on x86-64)."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@hot(python=True)
def profiled_step(s, p, actions, autoreset, rewards, terminated, truncated, obs, masks,
                  final_obs, final_scores, final_rank_keys, obs_units, source_units, at, length,
                  value, count, sync, ticks):
    """The serial step driver (``core.loop``, its observations not double-buffered:
    ``sync`` False) over ants' phases, their cycles added to ``ticks[phase]`` and the
    whole loop's to ``ticks[TOTAL]``."""
    views = player_rows(s, p, obs)
    journals = (at, length, value, count)
    hi = s.over.shape[0]
    start = cycles()
    for e in range(hi):
        t0 = cycles()
        prefetch_ahead(s, p, e, hi, actions, masks, rewards, terminated, truncated, views,
                       journals)
        t1 = cycles()
        ticks[PREFETCH] += t1 - t0
        if s.over[e]:
            continue
        planes, env_masks, commands = views[e], masks[e], actions[e]
        journal = journal_of(journals, e)
        shown, razed = before_turn(s, p, e, planes, env_masks, journal)
        t2 = cycles()
        move(s, p, e, commands)
        t3 = cycles()
        attack(s, p, e)
        t4 = cycles()
        raze(s, p, e)
        spawn(s, p, e, None)
        t5 = cycles()
        gather(s, p, e)
        spawn_food(s, p, e, None)
        t6 = cycles()
        game_over = eliminate(s, p, e)
        done = finish_step(p.reward_mode, p.max_steps, s.steps[e], game_over, s.alive[e],
                           s.prev_alive[e], s.scores[e], s.prev_scores[e], s.rank_key[e],
                           rewards[e], terminated[e], truncated[e])
        s.over[e] = done
        t7 = cycles()
        after_turn(s, p, e, planes, env_masks, shown, razed, journal)
        t8 = cycles()
        ticks[OBSERVE] += (t2 - t1) + (t8 - t7)
        ticks[MOVES] += t3 - t2
        ticks[COMBAT] += t4 - t3
        ticks[HILLS] += t5 - t4
        ticks[FOOD] += t6 - t5
        ticks[END] += t7 - t6
        if done and autoreset:
            copy_into(final_obs[e], obs[e])
            for a in range(final_scores.shape[1]):
                final_scores[e, a] = s.scores[e, a]
                final_rank_keys[e, a] = s.rank_key[e, a]
            reset_env(s, p, e)
            observe_env(s, p, e, views, masks, journals)
            ticks[AUTORESET] += cycles() - t8
    ticks[TOTAL] += cycles() - start


class Position:
    """A copy of every buffer a step reads or writes, put back before each pass."""

    def __init__(self, game):
        self.game = game
        self.arrays = [a.copy() for a in self.buffers()]

    def buffers(self):
        g = self.game
        return list(g.state) + [g.obs, g.masks, g.rewards, g.terminated, g.truncated,
                                g.final_obs, g.final_scores, g.final_rank_keys]

    def put_back(self):
        for array, saved in zip(self.buffers(), self.arrays):
            array[...] = saved

    def same_as(self, other):
        return all(np.array_equal(a, b) for a, b in zip(self.arrays, other.arrays))


def record(game, policy, steps, warmup):
    """(the start position, the recorded command grids): ``random``, a pool replayed in
    turn from the reset; ``greedy``, the bot's grids of ``steps`` turns after ``warmup``;
    in the game's action dtype (the kernel reads them where they are)."""
    rng = np.random.default_rng(SEED)
    game.reset(SEED)
    if policy == "random":
        pool = rng.integers(0, game.action_values(), (ARRAY_ACTION_POOL,) + game.actions.shape,
                            dtype=game.actions.dtype)
        return Position(game), [pool[i % ARRAY_ACTION_POOL] for i in range(steps)]
    E, A = game.num_envs, game.num_agents
    out = np.zeros((E * A, game.height * game.width), dtype=np.int64)

    def greedy():
        game.bots["greedy"](game.state, game.params, np.repeat(np.arange(E), A),
                            np.tile(np.arange(A), E), out)
        return out.reshape(game.actions.shape).astype(game.actions.dtype)

    for _ in range(warmup):
        game.step(greedy(), autoreset=True)
    start = Position(game)
    grids = []
    for _ in range(steps):
        grids.append(greedy())
        game.step(grids[-1], autoreset=True)
    return start, grids


def step_times(game, start, grids, call, ticks=None):
    """CPU seconds of each ``call(actions, row)`` over the recorded grids from ``start``
    (``row``: the step's row of ``ticks``, zeroed first, or None)."""
    start.put_back()
    times = np.zeros(len(grids))
    for i, actions in enumerate(grids):
        row = None
        if ticks is not None:
            row = ticks[i]
            row[:] = 0
        cpu = time.process_time()
        call(actions, row)
        times[i] = time.process_time() - cpu
    return times


def profile(policy, batch, steps, warmup, repeats):
    """{row: ns per env-step}: each phase of the instrumented pass, its total, the kernel
    and the benchmark's step; and the mean ants per env.  Each step counts with its
    fastest pass (the other processes of a shared machine slow some passes down)."""
    game = AntsGame(Config(), batch, threads=False)
    start, grids = record(game, policy, steps, warmup)
    buffers = game._step_buffers()

    def instrumented(actions, ticks):
        profiled_step(game.state, game.params, actions, True, *buffers, ticks)

    def kernel(actions, ticks):
        game._advance(actions, True)

    def stepped(actions, ticks):
        game.step(actions, autoreset=True)

    step_times(game, start, grids, kernel)               # the real kernel's end position
    expected = Position(game)
    ticks = np.zeros((steps, len(PHASES) + 1), dtype=np.int64)
    step_times(game, start, grids, instrumented, ticks)
    if not Position(game).same_as(expected):
        raise AssertionError("the instrumented step plays another game than the kernel")
    ants = []
    start.put_back()
    for actions in grids:
        ants.append(game.state.num_ants.mean())
        stepped(actions, None)
    best = {name: np.full(steps, np.inf) for name in ("instrumented", "kernel", "step")}
    phases = np.zeros((steps, len(PHASES)))
    for _ in range(repeats):
        cpu = step_times(game, start, grids, instrumented, ticks)
        faster = cpu < best["instrumented"]
        ticks[:, LOOP] = ticks[:, TOTAL] - ticks[:, :LOOP].sum(axis=1)
        shares = ticks[:, :TOTAL] / ticks[:, TOTAL:]
        phases[faster] = (cpu[:, None] * shares)[faster]
        best["instrumented"] = np.minimum(best["instrumented"], cpu)
        best["kernel"] = np.minimum(best["kernel"], step_times(game, start, grids, kernel))
        best["step"] = np.minimum(best["step"], step_times(game, start, grids, stepped))
    rows = dict(zip(PHASES, phases.sum(axis=0)))
    rows.update({name: times.sum() for name, times in best.items()})
    return {name: total * NS / (batch * steps) for name, total in rows.items()}, np.mean(ants)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ants_phases",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--policies", nargs="+", default=["random", "greedy"],
                        choices=["random", "greedy"])
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--warmup", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    results = {policy: profile(policy, args.batch, args.steps, args.warmup, args.repeats)
               for policy in args.policies}
    print(f"ants_v0 kernel, batch {args.batch}, serial: ns of CPU time per env-step "
          f"({args.steps} steps, each its fastest of {args.repeats} passes)")
    print(f"{'phase':<14}" + "".join(f"{p:>10}" for p in args.policies))
    for name in PHASES + ("instrumented", "kernel", "step"):
        print(f"{name:<14}" + "".join(f"{results[p][0][name]:>10.0f}" for p in args.policies))
    print(f"{'ants per env':<14}" + "".join(f"{results[p][1]:>10.1f}" for p in args.policies))


if __name__ == "__main__":
    main()
