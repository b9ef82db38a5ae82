"""Smoke test of ``python -m benchmarks.steps_per_sec``: it runs and writes every row.

Tiny step counts in a subprocess; no speed is asserted (speed lives in benchmarks)."""
import json
import os
import subprocess
import sys

import botarena

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _installed(name):
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def test_benchmark_quick_json(tmp_path):
    out = tmp_path / "bench.json"
    cmd = [sys.executable, "-m", "benchmarks.steps_per_sec", "--quick", "--steps", "3",
           "--json", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "agent-steps/s" in done.stdout
    report = json.loads(out.read_text())
    for key in ("cpu", "numba", "numba_threading_layer", "numba_threads"):
        assert key in report["machine"]
    rows = report["rows"]
    for row in rows:
        assert row["agent_steps_per_s"] > 0 and row["ratio"] > 0
    for env_id in botarena.ENV_IDS:
        got = {(r["frontend"], r["batch"]) for r in rows if r["env"] == env_id}
        expected = {("kernel", b) for b in (1, 64, 1024, 4096)}
        expected |= {("parallel_env", 1), ("kernel-nojit", 1), ("kernel-nojit", 16)}
        if report["machine"]["numba_threads"] > 1:
            expected.add(("kernel-threads", 4096))
        if _installed("stable_baselines3"):
            expected.add(("vector_env", 4096))
            if _installed("supersuit"):
                expected.add(("supersuit", 8))
        assert expected <= got, f"{env_id}: missing rows {sorted(expected - got)}"
