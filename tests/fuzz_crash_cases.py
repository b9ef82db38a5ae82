"""The fuzz cases that reach compiled code with drawn values, run in a child process.

``tests/test_fuzz.py`` starts ``python tests/fuzz_crash_cases.py ENV_ID PROFILE`` and checks
that it exits normally: a segfault, an abort or a hang in a kernel ends the child, not the
test run, and is reported with its signal.  Each family draws values with Hypothesis and
asserts a clear ``ValueError``/``TypeError`` or a game that then plays on (random legal
actions, finite rewards, observations in their space):

- ``configs``: any field of the game's Config, any value (huge, negative, float, NaN...);
- ``restores``: a snapshot with one key replaced by a drawn value (the restored env must be
  unchanged after an error, and play on after a success);
- ``opponents``: a ``vector_env`` whose opponent is a function returning a drawn value;
- ``bots``: every scripted bot called with drawn env and agent indices.

The last line printed is a JSON object of counts: cases, clear errors, accepted cases and
the steps played after them, per family.
"""
import json
import sys
from collections import Counter
from dataclasses import fields

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import botarena
from conftest import SHORT_CONFIGS

EXAMPLES = {"ci": 15, "long": 400}
PLAY_STEPS = 6               # random legal steps after an accepted case
ERRORS = (ValueError, TypeError)

scalars = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.integers(-3, 300),
                    st.floats(allow_nan=True), st.booleans(), st.none(), st.text(max_size=3))
plausible = st.one_of(st.integers(0, 12), st.floats(0, 2), st.booleans())   # often in range
int_arrays = hnp.arrays(dtype=st.sampled_from([np.int8, np.int32, np.int64, np.float64]),
                        shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
                        elements={"allow_nan": True, "allow_infinity": True})
counts = Counter()


def play(game, rng, steps=PLAY_STEPS):
    """Random legal actions (uniform commands for array-action games), auto-resetting;
    every reward finite and every observation inside its space."""
    for _ in range(steps):
        if game.masks.shape[:-1] == game.actions.shape:
            weights = rng.random(game.masks.shape) * game.masks
            actions = weights.argmax(-1)
        else:
            actions = rng.integers(0, game.action_values(), game.actions.shape)
        game.step(actions, autoreset=True)
        assert np.isfinite(game.rewards).all(), "non-finite reward"
    space = game.observation_space
    assert ((game.obs >= space.low) & (game.obs <= space.high)).all(), "observation outside its space"
    counts["steps"] += steps


def build(env_id, num_envs=2, **config):
    module = botarena.env_module(env_id)
    return module.Game(module.Config(**dict(SHORT_CONFIGS[env_id], **config)), num_envs)


def family(env_id, profile, name):
    examples = settings(max_examples=EXAMPLES[profile], deadline=None, derandomize=True,
                        database=None, suppress_health_check=list(HealthCheck))

    def outcome(run):
        counts[f"{name}.cases"] += 1
        try:
            run()
        except ERRORS:
            counts[f"{name}.clear_errors"] += 1
            return
        counts[f"{name}.accepted"] += 1
    return examples, outcome


def fuzz_configs(env_id, profile):
    examples, outcome = family(env_id, profile, "configs")
    names = [f.name for f in fields(botarena.env_module(env_id).Config)]

    @examples
    @given(name=st.sampled_from(names), value=st.one_of(plausible, scalars))
    def case(name, value):
        def run():
            game = build(env_id, **{name: value})
            game.reset(seed=0)
            play(game, np.random.default_rng(0))
        outcome(run)
    case()


def fuzz_restores(env_id, profile):
    examples, outcome = family(env_id, profile, "restores")
    game = build(env_id)
    game.reset(seed=5)
    play(game, np.random.default_rng(5), 3)
    snapshot = game.snapshot(0)
    keys = sorted(snapshot)

    @examples
    @given(key=st.sampled_from(keys), data=st.data())
    def case(key, data):
        original = np.asarray(snapshot[key])
        same_shape = hnp.arrays(dtype=np.int64, shape=original.shape,
                                elements=st.integers(-2 ** 40, 2 ** 40)) if original.ndim else scalars
        small = hnp.arrays(dtype=np.int64, shape=original.shape,
                           elements=st.integers(-2, 40)) if original.ndim else st.integers(-2, 40)
        value = data.draw(st.one_of(scalars, int_arrays, same_shape, small))
        target = build(env_id)
        target.reset(seed=9)
        before = [field.copy() for field in target.state]

        def run():
            try:
                target.restore(dict(snapshot, **{key: value}), env=1)
            except ERRORS:
                assert all(np.array_equal(a, b) for a, b in zip(before, target.state)), \
                    f"a rejected restore of {key!r} changed the state"
                raise
            play(target, np.random.default_rng(1))
        outcome(run)
    case()


def fuzz_opponents(env_id, profile):
    examples, outcome = family(env_id, profile, "opponents")

    @examples
    @given(value=st.one_of(scalars, int_arrays))
    def case(value):
        def run():
            vec = botarena.vector_env(env_id, 2, opponent=lambda obs, masks: value, seed=0,
                                      **SHORT_CONFIGS[env_id])
            vec.reset()
            action = np.zeros((vec.num_envs,) + vec.action_space.shape, dtype=np.int64)
            for _ in range(PLAY_STEPS):
                vec.step(action)
            counts["steps"] += PLAY_STEPS
            vec.close()
        outcome(run)
    case()


def fuzz_bots(env_id, profile):
    examples, outcome = family(env_id, profile, "bots")
    game = build(env_id, 3)
    game.reset(seed=2)
    bots = sorted(game.bots)
    index_arrays = hnp.arrays(dtype=st.sampled_from([np.int64, np.int32, np.float64, np.uint8]),
                              shape=st.integers(0, 4), elements={"allow_nan": True})

    @examples
    @given(bot=st.sampled_from(bots), env_ids=index_arrays, agent_ids=index_arrays,
           out_size=st.integers(0, 5), action_shaped=st.booleans())
    def case(bot, env_ids, agent_ids, out_size, action_shaped):
        def run():
            out = np.zeros((out_size,) + (game.action_shape() if action_shaped else ()),
                           dtype=np.int64)
            game.bots[bot](game.state, game.params, env_ids, agent_ids, out)
        outcome(run)
    case()
    play(game, np.random.default_rng(2))


FAMILIES = (fuzz_configs, fuzz_restores, fuzz_opponents, fuzz_bots)


def main(env_id, profile):
    for run_family in FAMILIES:
        run_family(env_id, profile)
    print(json.dumps(dict(sorted(counts.items()))))


if __name__ == "__main__":
    main(*sys.argv[1:3])
