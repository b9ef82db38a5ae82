"""What a user waits for before the first steps: import, env creation, reset and
``FIRST_STEPS`` steps of the PettingZoo env, per game, with an empty compile cache (cold)
and again with the cache the cold run wrote (warm).

    python -m benchmarks.cold_start [--envs paint_v0 ...] [--json PATH]

Each measurement is a fresh Python process whose cache folder (``NUMBA_CACHE_DIR``) is a
new temporary one for the cold run and the same one for the warm run.  The process reports
its own CPU time (``time.process_time``: every thread) for ``import botarena`` and for the
rest (creating the env, the reset and the steps, which compile the kernels the env needs),
and the wall time of both.  ``python -m benchmarks.steps_per_sec --cold-start`` prints the
same table after its own.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FIRST_STEPS = 10
SEED = 0

CHILD = """
import json, time
t0, w0 = time.process_time(), time.perf_counter()
import botarena
t1, w1 = time.process_time(), time.perf_counter()
env = botarena.parallel_env({env_id!r})
env.reset(seed={seed})
for i in range({steps}):
    if not env.agents:           # a game that ended (ants: random play loses colonies)
        env.reset(seed={seed} + i)
    actions = {{}}
    for agent in env.agents:
        space = env.action_space(agent)
        space.seed({seed} + i)
        actions[agent] = space.sample()
    env.step(actions)
t2, w2 = time.process_time(), time.perf_counter()
print(json.dumps({{"import_cpu": t1 - t0, "first_steps_cpu": t2 - t1, "wall": w2 - w0}}))
"""


def measure(env_id, cache_dir):
    """``{import_cpu, first_steps_cpu, wall}`` (seconds) of one fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    code = CHILD.format(env_id=env_id, seed=SEED, steps=FIRST_STEPS)
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{env_id}'s first steps failed (exit {result.returncode}):\n"
                           f"{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def cold_and_warm(env_id):
    with tempfile.TemporaryDirectory(prefix="botarena-cold-") as cache_dir:
        return {"env": env_id, "cold": measure(env_id, cache_dir),
                "warm": measure(env_id, cache_dir)}


def format_table(rows):
    lines = [f"{'env':14} {'import CPU-s':>12} {'cold: first steps CPU-s':>24} "
             f"{'cold wall s':>11} {'warm: first steps CPU-s':>24} {'warm wall s':>11}"]
    for row in rows:
        cold, warm = row["cold"], row["warm"]
        lines.append(f"{row['env']:14} {cold['import_cpu']:12.2f} "
                     f"{cold['first_steps_cpu']:24.2f} {cold['wall']:11.1f} "
                     f"{warm['first_steps_cpu']:24.2f} {warm['wall']:11.1f}")
    return "\n".join(lines)


def main(argv=None):
    import botarena
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", nargs="+", metavar="ENV_ID", default=list(botarena.ENV_IDS))
    parser.add_argument("--json", metavar="PATH", help="also write the rows")
    args = parser.parse_args(argv)
    unknown = [e for e in args.envs if e not in botarena.ENV_IDS]
    if unknown:
        parser.error(f"unknown env ids {unknown}; known: {list(botarena.ENV_IDS)}")
    rows = []
    for env_id in args.envs:
        rows.append(cold_and_warm(env_id))
        print(f"{env_id}: done", file=sys.stderr, flush=True)
    print(format_table(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
