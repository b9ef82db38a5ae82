"""Smoke test of ``python -m benchmarks.steps_per_sec``: it runs and writes every row.

Tiny step counts in a subprocess, for one env: the rows' code is the same for every env,
and the subprocess compiles what it runs (all four envs, threaded kernels included, took
10 of the suite's 15 minutes on 2 cores).  Every env's action recording (the one
env-dependent part: legal Discrete actions, or random entries of array actions) is
checked in-process.  No speed is asserted (speed lives in benchmarks)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import botarena
from conftest import SHORT_CONFIGS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHED = "paint_v0"


def _installed(name):
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def test_benchmark_quick_json(tmp_path):
    out = tmp_path / "bench.json"
    cmd = [sys.executable, "-m", "benchmarks.steps_per_sec", "--quick", "--steps", "3",
           "--envs", BENCHED, "--json", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "agent-steps/s" in done.stdout
    report = json.loads(out.read_text())
    for key in ("cpu", "numba", "numba_threading_layer", "numba_threads"):
        assert key in report["machine"]
    rows = report["rows"]
    for row in rows:
        assert row["agent_steps_per_s"] > 0 and row["ratio"] > 0
    assert {r["env"] for r in rows} == {BENCHED}
    for env_id in (BENCHED,):
        got = {(r["frontend"], r["batch"]) for r in rows if r["env"] == env_id}
        expected = {("kernel", b) for b in (1, 64, 1024, 4096)}
        expected |= {("parallel_env", 1), ("kernel-nojit", 1), ("kernel-nojit", 16),
                     ("gym_vector_views", 4096)}
        if report["machine"]["numba_threads"] > 1:
            expected.add(("kernel-threads", 4096))
        if _installed("stable_baselines3"):
            expected.add(("vector_env", 4096))
            if _installed("supersuit"):
                expected.add(("supersuit", 8))
        assert expected <= got, f"{env_id}: missing rows {sorted(expected - got)}"


@pytest.mark.parametrize("env_id", botarena.ENV_IDS)
def test_recorded_actions_replay_legally(env_id):
    """``record_actions``: the recorded actions, replayed from the same seed, are legal
    (Discrete games) or in range (array actions), and the replay is the same game."""
    from benchmarks.steps_per_sec import record_actions

    game = botarena.game(env_id, num_envs=3, **SHORT_CONFIGS[env_id])
    actions = record_actions(game, 12, seed=4)
    assert actions.shape == (12,) + game.actions.shape and actions.dtype == game.actions.dtype
    assert actions.min() >= 0 and actions.max() < game.action_values()
    replay = botarena.game(env_id, num_envs=3, **SHORT_CONFIGS[env_id])
    replay.reset(4)
    legal_layout = replay.masks.shape[:-1] == replay.actions.shape
    for step in actions:
        if legal_layout:
            chosen = np.take_along_axis(replay.masks, step[..., None], -1)
            assert chosen.all()
        replay.step(step, autoreset=True)
    assert np.array_equal(replay.obs, game.obs)


def test_cold_start_table_runs(tmp_path):
    """``benchmarks.cold_start`` times import and the first steps, cold and warm, in fresh
    processes (structure only: no speed is asserted)."""
    out = tmp_path / "cold.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.cold_start", "--envs", BENCHED,
                             "--json", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].split()[0] == BENCHED
    (row,) = json.loads(out.read_text())
    assert row["env"] == BENCHED
    for run in ("cold", "warm"):
        assert set(row[run]) == {"import_cpu", "first_steps_cpu", "wall"}
        assert all(value > 0 for value in row[run].values())


def test_cold_start_refuses_unknown_envs():
    result = subprocess.run([sys.executable, "-m", "benchmarks.cold_start", "--envs", "nope_v0"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2 and "unknown env ids ['nope_v0']" in result.stderr


@pytest.mark.slow
def test_vector_layers_table(tmp_path):
    """``benchmarks.vector_layers`` times every layer of the vector env on a game that
    records its observation writes (coderunner_v0).  Slow: it compiles coderunner_v0's
    threaded kernels (~1 CPU-minute cold), which no fast test needs."""
    from benchmarks import vector_layers
    out = tmp_path / "layers.json"
    assert vector_layers.main(["--envs", "coderunner_v0", "--batch", "4", "--steps", "3",
                               "--repeats", "3", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    expected = [layer for layer in vector_layers.LAYERS
                if layer != "vector_env" or _installed("stable_baselines3")]
    assert [r["layer"] for r in rows] == expected
    assert rows[0]["kernel_ratio"] == 1.0
    assert all(r["us_per_step"] > 0 and r["kernel_ratio"] > 0 for r in rows)


def test_vector_layers_refuses_unknown_envs():
    from benchmarks import vector_layers
    with pytest.raises(ValueError, match="nope_v0"):
        vector_layers.main(["--envs", "nope_v0", "--steps", "1", "--repeats", "3"])
