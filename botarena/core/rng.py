"""Per-env random numbers kept inside the state arrays.

Every env owns a row ``rng[e, :]`` of ``uint64`` generator states, one per *stream*:
the rules draw from ``GAME`` and scripted opponents from ``AGENT``, so that swapping an
opponent never changes the game's own random events.  Each draw advances the row in
place (SplitMix64: a Weyl counter passed through a 64-bit finaliser), inside the jitted
kernels.  Nothing depends on a global generator, on the batch size or on the number
of threads, which is what makes "same seed, same trajectory" hold everywhere.
"""
import numpy as np
from numba import njit

GAME = 0
AGENT = 1
NUM_STREAMS = 2

_WEYL = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SHIFT_FLOAT = np.uint64(11)
_FLOAT_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_MASK64 = (1 << 64) - 1


@njit(cache=True)
def _finalise(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def next_u64(rng, e, stream):
    """Advance stream ``stream`` of env ``e`` and return 64 random bits."""
    x = rng[e, stream] + _WEYL
    rng[e, stream] = x
    return _finalise(x)


@njit(cache=True)
def randint(rng, e, stream, n):
    """A uniform integer in ``[0, n)`` (``n >= 1``), by Lemire's multiply-shift."""
    hi = (next_u64(rng, e, stream) >> np.uint64(32)) * np.uint64(n)
    return np.int64(hi >> np.uint64(32))


@njit(cache=True)
def uniform(rng, e, stream):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(rng, e, stream) >> _SHIFT_FLOAT) * _FLOAT_UNIT


@njit(cache=True)
def shuffle(rng, e, stream, values):
    """Fisher-Yates shuffle of the 1-d array ``values`` in place."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = randint(rng, e, stream, i + 1)
        values[i], values[j] = values[j], values[i]


def seed_rows(rng, env_ids, seeds):
    """Seed the rows ``env_ids`` of ``rng`` from the integers ``seeds`` (any size)."""
    for e, seed in zip(np.asarray(env_ids).tolist(), list(seeds)):
        for stream in range(rng.shape[1]):
            start = (int(seed) + (stream + 1) * int(_WEYL)) & _MASK64
            rng[e, stream] = _finalise(np.uint64(start))


def fresh_seed():
    """A seed from the operating system, for resets that were given none."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
