"""Agent-steps per second of every registered env, through every front-end, in one run.

    python -m benchmarks.steps_per_sec [--quick] [--json PATH] [--envs paint_v0 ...]
                                       [--repeats N] [--steps N]

Rows (one table per run, ratios against the ``parallel_env`` row of the same env):

``kernel``         the raw batched kernel (step + observe, auto-reset), serial, at batch
                   1, 64, 1024 and 4096; random legal actions, pre-generated (a first pass
                   with the same seeds records them, so the timed pass replays a trajectory
                   whose every action is legal); games with array actions (a command per
                   cell) get uniformly random entries instead (illegal ones are legal to
                   send: the game plays them as it says);
``kernel-threads`` the threaded twin at 4096 (only where numba has more than one thread);
``vector_env``     ``botarena.vector_env`` (SB3 VecEnv, every agent a learner slot) at
                   4096, replaying the kernel's recorded actions (needs stable-baselines3);
``gym_vector_views`` ``botarena.gymnasium_vector_env(..., copy=False)`` at 4096, the same
                   actions: the Gymnasium VectorEnv handing out the game's own buffers
                   (observations and masks valid until the next step, no copy);
                   these three rows' timed passes take turns (one pass of each a round),
                   so that their ratios compare passes of the same minute: this VM's
                   speed drifts by up to 2x within an hour, and rows timed a minute apart
                   moved their ratios by 0.1-0.3;
``parallel_env``   the PettingZoo ParallelEnv, one env, dict API (actions recorded the same
                   way, one seed per episode);
``kernel-nojit``   the same kernel in plain Python (``NUMBA_DISABLE_JIT=1``, batch 1 and 16,
                   a subprocess, few steps);
``supersuit``      SuperSuit's ``pettingzoo_env_to_vec_env_v1`` + ``concat_vec_envs_v1(...,
                   8, num_cpus=0, base_class="stable_baselines3")`` over our ParallelEnv,
                   with uniformly random actions (SuperSuit auto-resets without seeds, so
                   no recording can be replayed; illegal actions are legal to send).

``--cold-start`` adds a second table: the CPU time of ``import botarena`` and of a first
env's creation, reset and steps, with an empty compile cache and a warm one
(``benchmarks.cold_start``).

An agent-step is one agent acting once.  Every row is compiled and warmed up before it is
timed; each number is the median of ``--repeats`` (>= 3) timed passes.  ``--quick`` takes
smaller step counts (under a minute after compiling); ``--steps N`` fixes every row's
step count (the smoke test uses it).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

KERNEL_BATCHES = (1, 64, 1024, 4096)
NOJIT_BATCHES = (1, 16)
BIG_BATCH = 4096
SUPERSUIT_ENVS = 8
SEED = 12345

# agent-steps per timed pass: (full, quick)
KERNEL_BUDGET = (1_000_000, 150_000)
VECTOR_BUDGET = (1_000_000, 150_000)
PARALLEL_STEPS = (10_000, 1_500)
SUPERSUIT_STEPS = (2_000, 300)
NOJIT_STEPS = (40, 8)
MIN_STEPS, MAX_STEPS = 10, 20_000
ARRAY_ACTION_POOL = 16     # random command grids recorded for array-action games


# -- helpers ---------------------------------------------------------------------------
def _median_rate(run, agent_steps, repeats, prepare=None):
    """Median agent-steps/s of ``repeats`` timed calls of ``run`` (``prepare`` untimed)."""
    return _median_rates([(run, agent_steps, prepare)], repeats)[0]


def _median_rates(passes, repeats):
    """Median agent-steps/s of each ``(run, agent_steps, prepare)`` of ``passes``, timed
    ``repeats`` times in turn (one call of each a round)."""
    rates = [[] for _ in passes]
    for _ in range(repeats):
        for (run, agent_steps, prepare), out in zip(passes, rates):
            if prepare is not None:
                prepare()
            start = time.perf_counter()
            run()
            out.append(agent_steps / (time.perf_counter() - start))
    return [statistics.median(r) for r in rates]


def _steps_for(budget, agents_per_step, quick, fixed):
    if fixed:
        return fixed
    steps = budget[1 if quick else 0] // max(1, agents_per_step)
    return int(min(MAX_STEPS, max(MIN_STEPS, steps)))


def random_legal(masks, rng):
    """One uniformly random legal action per mask row (``masks[..., n]``); 0 where none."""
    counts = masks.sum(-1)
    pick = np.floor(rng.random(counts.shape) * counts).astype(np.int64)
    chosen = (np.cumsum(masks, -1) > pick[..., None]).argmax(-1)
    return np.where(counts > 0, chosen, 0)


def record_actions(game, steps, seed):
    """Play ``steps`` auto-resetting steps of random actions from ``seed``; return them
    (``[steps, *actions.shape]`` in the game's action dtype, int8: the kernel rows step
    them where they are, as a caller that writes ``game.actions`` does).  ``Discrete`` games get random legal actions:
    replaying them from the same seed gives the same trajectory, so every replayed action
    is legal.  Array-action games get uniformly random entries in ``[0, action_values)``
    (``actions.shape == (batch, agents) + action_shape``), ``ARRAY_ACTION_POOL`` arrays at
    most, replayed in turn (``actions[i % len(actions)]``): a command per tile for 200 steps
    at batch 4096 would take ~1.5 GB for towers_v0.  Also compiles the kernels."""
    rng = np.random.default_rng(seed)
    legal_layout = game.masks.shape[:-1] == game.actions.shape
    if not legal_layout:
        steps = min(steps, ARRAY_ACTION_POOL)
    out = np.zeros((steps,) + game.actions.shape, dtype=game.actions.dtype)
    game.reset(seed)
    for i in range(steps):
        if legal_layout:
            out[i] = random_legal(game.masks, rng)
        else:
            out[i] = rng.integers(0, game.action_values(), game.actions.shape)
        game.step(out[i], autoreset=True)
    return out


def _row(env_id, frontend, batch, rate, steps, note=""):
    return {"env": env_id, "frontend": frontend, "batch": batch,
            "agent_steps_per_s": float(rate), "steps": int(steps), "note": note}


# -- the rows ----------------------------------------------------------------------------
def kernel_pass(env_id, batch, threads, args, actions=None):
    """The kernel's timed pass: ``((run, agent_steps, prepare), steps, actions)``, the
    actions recorded (and the kernels compiled) unless given."""
    import botarena
    module = botarena.env_module(env_id)
    game = module.Game(module.Config(), batch, threads=threads)
    steps = _steps_for(KERNEL_BUDGET, batch * game.num_agents, args.quick, args.steps)
    given = actions is not None     # the same batch's (so the same steps'), recorded
    if not given:
        actions = record_actions(game, steps, SEED)     # compiles and warms up too

    def run():
        for i in range(steps):
            game.step(actions[i % len(actions)], autoreset=True)

    def prepare():
        game.reset(SEED)

    if given:
        prepare()
        run()  # warm up
    return (run, steps * batch * game.num_agents, prepare), steps, actions


def bench_kernel(env_id, batch, threads, args):
    timed, steps, actions = kernel_pass(env_id, batch, threads, args)
    return _median_rate(*timed[:2], args.repeats, prepare=timed[2]), steps, actions


def vector_pass(env_id, batch, actions, args, views=False):
    """The timed pass of the SB3 VecEnv, or with ``views`` of the Gymnasium VectorEnv
    without copies, warmed up: ``((run, agent_steps, prepare), steps)``."""
    import botarena
    if views:
        vec = botarena.gymnasium_vector_env(env_id, batch, copy=False)
    else:
        vec = botarena.vector_env(env_id, batch, seed=SEED)
    # one action per slot, int64 as a torch policy's samples reach SB3's VecEnv; replayed
    # in turn for as many steps as the kernel rows (array-action games record fewer)
    flat = actions.reshape((actions.shape[0], -1) + actions.shape[3:]).astype(np.int64)
    steps = _steps_for(VECTOR_BUDGET, flat.shape[1], args.quick, args.steps)

    def prepare():
        if views:
            vec.reset(seed=SEED)
        else:
            vec.seed(SEED)
            vec.reset()

    def run():
        for i in range(steps):
            vec.step(flat[i % len(flat)])

    prepare()
    run()  # warm up
    return (run, steps * flat.shape[1], prepare), steps


def bench_threaded_group(env_id, actions, args, notes):
    """The rows ``kernel-threads``, ``vector_env`` and ``gym_vector_views`` at
    ``BIG_BATCH`` on the recorded ``actions``, their passes timed in turn (see above)."""
    import numba
    group = []      # (frontend, note, timed pass, steps)
    if numba.get_num_threads() > 1:
        timed, steps, _ = kernel_pass(env_id, BIG_BATCH, True, args, actions)
        group.append(("kernel-threads", f"{numba.get_num_threads()} threads", timed, steps))
    else:
        notes.append(f"{env_id}: numba has 1 thread: no kernel-threads row")
    try:
        import stable_baselines3  # noqa: F401
    except ImportError:
        notes.append(f"{env_id}: stable-baselines3 is not installed: no vector_env row")
    else:
        timed, steps = vector_pass(env_id, BIG_BATCH, actions, args)
        group.append(("vector_env", "SB3 VecEnv, all learners", timed, steps))
    timed, steps = vector_pass(env_id, BIG_BATCH, actions, args, views=True)
    group.append(("gym_vector_views", "Gymnasium VectorEnv, copy=False", timed, steps))
    rates = _median_rates([timed for _, _, timed, _ in group], args.repeats)
    return [_row(env_id, frontend, BIG_BATCH, rate, steps, note)
            for (frontend, note, _, steps), rate in zip(group, rates)]


def bench_parallel_env(env_id, args):
    """The ParallelEnv with recorded random actions (legal ones for ``Discrete`` games, as
    ``record_actions``; one seed per episode)."""
    import botarena
    env = botarena.parallel_env(env_id)
    shape, values = env.game.action_shape(), env.game.action_values()
    steps = _steps_for(PARALLEL_STEPS, 1, args.quick, args.steps)
    rng = np.random.default_rng(SEED)
    plan, episode = [], 0        # list of action dicts; None = reset with the next seed
    agent_steps = 0
    _, infos = env.reset(seed=SEED)
    while len(plan) < steps:
        if not env.agents:
            episode += 1
            plan.append(None)
            _, infos = env.reset(seed=SEED + episode)
            continue
        if shape:
            actions = {a: rng.integers(0, values, size=shape) for a in env.agents}
        else:
            masks = np.stack([infos[a]["action_mask"] for a in env.agents])
            picks = random_legal(masks, rng)
            actions = {a: int(k) for a, k in zip(env.agents, picks)}
        agent_steps += len(actions)
        plan.append(actions)
        _, _, _, _, infos = env.step(actions)

    def run():
        env.reset(seed=SEED)
        episode = 0
        for actions in plan:
            if actions is None:
                episode += 1
                env.reset(seed=SEED + episode)
            else:
                env.step(actions)

    run()  # warm up
    return _median_rate(run, agent_steps, args.repeats), len(plan)


def bench_supersuit(env_id, args):
    import supersuit as ss
    import botarena
    vec = ss.pettingzoo_env_to_vec_env_v1(botarena.parallel_env(env_id))
    vec = ss.concat_vec_envs_v1(vec, SUPERSUIT_ENVS, num_cpus=0, base_class="stable_baselines3")
    steps = _steps_for(SUPERSUIT_STEPS, 1, args.quick, args.steps)
    vec.action_space.seed(SEED)
    actions = np.stack([np.stack([vec.action_space.sample() for _ in range(vec.num_envs)])
                        for _ in range(min(steps, 64))])
    vec.reset()

    def run():
        for i in range(steps):
            vec.step(actions[i % len(actions)])

    run()  # warm up
    return _median_rate(run, steps * vec.num_envs, args.repeats), steps, vec.num_envs


def bench_nojit(env_id, args):
    """Rows of the pure-Python kernel, measured in a subprocess with NUMBA_DISABLE_JIT=1."""
    cmd = [sys.executable, "-m", "benchmarks.steps_per_sec", "--_nojit-worker", env_id,
           "--repeats", str(args.repeats)]
    if args.quick:
        cmd.append("--quick")
    if args.steps:
        cmd += ["--steps", str(args.steps)]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _nojit_worker(env_id, args):
    import botarena
    module = botarena.env_module(env_id)
    rows = []
    for batch in NOJIT_BATCHES:
        game = module.Game(module.Config(), batch, threads=False)
        steps = args.steps or NOJIT_STEPS[1 if args.quick else 0]
        actions = record_actions(game, steps, SEED)

        def run():
            for i in range(steps):
                game.step(actions[i % len(actions)], autoreset=True)

        rate = _median_rate(run, steps * batch * game.num_agents, args.repeats,
                            prepare=lambda: game.reset(SEED))
        rows.append(_row(env_id, "kernel-nojit", batch, rate, steps, "NUMBA_DISABLE_JIT=1"))
    print(json.dumps(rows))


# -- the run -----------------------------------------------------------------------------
def machine_info():
    import numba
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        layer = None
    return {"cpu": cpu, "cpu_count": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__,
            "numba_threading_layer": layer, "numba_threads": numba.get_num_threads(),
            "platform": platform.platform()}


def bench_env(env_id, args, notes):
    rows = []
    big_actions = None
    for batch in KERNEL_BATCHES:
        rate, steps, actions = bench_kernel(env_id, batch, False, args)
        rows.append(_row(env_id, "kernel", batch, rate, steps, "serial"))
        if batch == BIG_BATCH:
            big_actions = actions
    rows.extend(bench_threaded_group(env_id, big_actions, args, notes))
    rate, steps = bench_parallel_env(env_id, args)
    rows.append(_row(env_id, "parallel_env", 1, rate, steps, "PettingZoo dict API"))
    rows.extend(bench_nojit(env_id, args))
    try:
        import stable_baselines3  # noqa: F401
        import supersuit  # noqa: F401
    except ImportError:
        notes.append(f"{env_id}: supersuit or stable-baselines3 is not installed: no supersuit row")
    else:
        rate, steps, slots = bench_supersuit(env_id, args)
        rows.append(_row(env_id, "supersuit", SUPERSUIT_ENVS, rate, steps,
                         f"concat_vec_envs_v1 x{SUPERSUIT_ENVS}, {slots} slots"))
    reference = next(r["agent_steps_per_s"] for r in rows if r["frontend"] == "parallel_env")
    for r in rows:
        r["ratio"] = r["agent_steps_per_s"] / reference
    return rows


def format_table(rows):
    header = f"{'env':<14} {'front-end':<16} {'batch':>6} {'agent-steps/s':>15} {'ratio':>9}"
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(f"{r['env']:<14} {r['frontend']:<16} {r['batch']:>6} "
                     f"{r['agent_steps_per_s']:>15,.0f} {r['ratio']:>9.3g}")
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.steps_per_sec",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps per row")
    parser.add_argument("--json", metavar="PATH", help="also write the rows and machine info")
    parser.add_argument("--envs", nargs="+", metavar="ENV_ID",
                        help="env ids (default: every registered env)")
    parser.add_argument("--repeats", type=int, default=3, help="timed passes per row (>= 3)")
    parser.add_argument("--steps", type=int, default=0, help="fix every row's step count")
    parser.add_argument("--cold-start", action="store_true",
                        help="also time import and the first steps with an empty compile cache "
                             "and a warm one (benchmarks.cold_start; minutes per game)")
    parser.add_argument("--_nojit-worker", dest="nojit_worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.repeats < 3:
        parser.error("--repeats must be at least 3 (the median of >= 3 passes is reported)")
    if args.steps < 0:
        parser.error("--steps must be positive")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.nojit_worker:
        _nojit_worker(args.nojit_worker, args)
        return 0
    import botarena
    env_ids = args.envs or list(botarena.ENV_IDS)
    for env_id in env_ids:
        botarena.env_module(env_id)  # unknown ids fail before any timing
    rows, notes = [], []
    start = time.perf_counter()
    for env_id in env_ids:
        rows.extend(bench_env(env_id, args, notes))
    info = machine_info()
    print(format_table(rows))
    for note in notes:
        print("note:", note)
    print(f"cpu: {info['cpu']} ({info['cpu_count']} cores); numba {info['numba']}, "
          f"threading layer {info['numba_threading_layer']}, {info['numba_threads']} threads; "
          f"{time.perf_counter() - start:.0f} s")
    cold = []
    if args.cold_start:
        from . import cold_start
        cold = [cold_start.cold_and_warm(env_id) for env_id in env_ids]
        print(cold_start.format_table(cold))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "quick": args.quick, "repeats": args.repeats,
                       "rows": rows, "notes": notes, "cold_start": cold}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
