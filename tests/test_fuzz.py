"""Fuzzing every game's front-ends with Hypothesis: drawn actions (any dtype, shape and
value: floats, NaN, bools, huge and negative ints, strings), configs (any field, any value)
and call sequences.  Each case must end in a clear ``ValueError``/``TypeError`` or play as
documented, and a rejected call must change nothing: the env then steps exactly like a
twin of the same seed that was never sent the bad input.

The cases that hand drawn values to compiled code (configs, restored snapshots, opponents'
actions, bots' indices: ``fuzz_crash_cases.py``) run in a child process per game, so that
a segfault, an abort or a hang is reported with its signal instead of ending the run.

Profiles: the default (CI) draws few examples per test; ``BOTARENA_FUZZ=long`` many more
(``BOTARENA_FUZZ=long python -m pytest tests/test_fuzz.py -n 2``).
"""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import botarena
from conftest import SHORT_CONFIGS

settings.register_profile("ci", max_examples=20, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                 HealthCheck.too_slow])
settings.register_profile("long", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                 HealthCheck.too_slow])
PROFILE = "long" if os.environ.get("BOTARENA_FUZZ") == "long" else "ci"
ERRORS = (ValueError, TypeError)

scalars = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True),
                    st.booleans(), st.none(), st.text(max_size=3), st.just(np.int64(2 ** 40)),
                    st.just(np.float32("nan")))
arrays = hnp.arrays(dtype=st.sampled_from([np.int8, np.int64, np.uint64, np.float64, np.bool_]),
                    shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=5),
                    elements={"allow_nan": True})


def state_of(game):
    return [field.copy() for field in game.state]


def same_state(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def twin_envs(env_id):
    envs = [botarena.parallel_env(env_id, **SHORT_CONFIGS[env_id]) for _ in range(2)]
    for env in envs:
        env.reset(seed=7)
    return envs


def valid_actions(env):
    shape = env.game.action_shape()
    return {a: (np.zeros(shape, dtype=np.int64) if shape else 0) for a in env.agents}


@settings.get_profile(PROFILE)
@given(value=st.one_of(scalars, arrays))
def test_parallel_env_bad_action_changes_nothing(env_id, value):
    env, twin = twin_envs(env_id)
    agent = env.agents[-1]
    actions = dict(valid_actions(env), **{agent: value})
    try:
        env.check_action(agent, value)
        valid = True
    except ERRORS:
        valid = False
    if valid:
        env.step(actions)
        twin.step(actions)
    else:
        before = state_of(env.game)
        with pytest.raises(ERRORS):
            env.step(actions)
        assert same_state(before, env.game.state)
        env.step(valid_actions(env))
        twin.step(valid_actions(twin))
    assert same_state(env.game.state, twin.game.state)


@settings.get_profile(PROFILE)
@given(value=arrays, envs=st.integers(1, 3))
def test_batched_step_bad_array_changes_nothing(env_id, value, envs):
    module = botarena.env_module(env_id)
    game = module.Game(module.Config(**SHORT_CONFIGS[env_id]), envs)
    game.reset(seed=3)
    before = state_of(game)
    expected = (envs, game.num_agents) + game.action_shape()
    fits = (value.dtype.kind in "iu" and value.shape == expected and value.size
            and value.min() >= 0 and value.max() < game.action_values())
    if fits:
        game.step(value)
        assert (game.state.steps >= 1).all()
    else:
        with pytest.raises(ERRORS):
            game.step(value)
        assert same_state(before, game.state)


CHILD_TIMEOUT_S = {"ci": 300, "long": 3600}
FAMILIES = ("configs", "restores", "opponents", "bots")


def test_crash_prone_cases_in_a_child_process(env_id):
    """Configs, restores, opponents and bots fuzzed in a child (see the module docstring):
    it exits normally, having run every family, with clear errors and accepted cases."""
    here = Path(__file__).parent
    try:
        child = subprocess.run([sys.executable, str(here / "fuzz_crash_cases.py"), env_id, PROFILE],
                               cwd=here, capture_output=True, text=True,
                               timeout=CHILD_TIMEOUT_S[PROFILE])
    except subprocess.TimeoutExpired:
        pytest.fail(f"the fuzz child of {env_id} hung for {CHILD_TIMEOUT_S[PROFILE]} s")
    if child.returncode < 0:
        pytest.fail(f"the fuzz child of {env_id} died of {signal.Signals(-child.returncode).name}:\n"
                    f"{child.stderr[-3000:]}")
    assert child.returncode == 0, child.stderr[-3000:]
    counts = json.loads(child.stdout.strip().splitlines()[-1])
    print(env_id, counts)
    for name in FAMILIES:
        assert counts[f"{name}.cases"] > 0
        assert counts.get(f"{name}.clear_errors", 0) > 0, name
    assert sum(counts.get(f"{name}.accepted", 0) for name in FAMILIES) > 0
    assert counts["steps"] > 0


@settings.get_profile(PROFILE)
@given(calls=st.lists(st.sampled_from(["reset", "step", "step_bad", "restore", "seedless"]),
                      max_size=8))
def test_call_sequences(env_id, calls):
    env, twin = twin_envs(env_id)
    snapshot = env.snapshot()
    for call in calls:
        if not env.agents and call in ("step", "step_bad"):
            with pytest.raises(RuntimeError):
                env.step(valid_actions(twin))
            continue
        if call == "reset":
            for e in (env, twin):
                e.reset(seed=11)
        elif call == "seedless":
            for e in (env, twin):
                e.reset()
        elif call == "step":
            actions = valid_actions(env)
            for e in (env, twin):
                e.step(actions)
        elif call == "step_bad":
            with pytest.raises(ERRORS):
                env.step({"nobody": 0})
        else:
            for e in (env, twin):
                e.restore(snapshot)
        assert same_state(env.game.state, twin.game.state), call
