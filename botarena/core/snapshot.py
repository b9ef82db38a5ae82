"""Reading a ``snapshot()`` dict back: the checks every game's ``restore`` shares.

A snapshot is a plain dict of one env's state (each game documents its keys in its
``game.py`` and module docstring: that list is a stable format, read by replays, the
fidelity tests and users' own tools).  ``restore`` reads it through these helpers, so a
missing key, a value of the wrong shape or one out of range raises ``ValueError`` naming
the key, before anything of the env is written.
"""
from collections.abc import Mapping

import numpy as np

from .rng import NUM_STREAMS


def require(snapshot, keys, game):
    """Raise unless ``snapshot`` is a mapping holding every key of ``keys``."""
    if not isinstance(snapshot, Mapping):
        raise TypeError(f"a {game} snapshot must be a dict, got {type(snapshot).__name__}")
    missing = [key for key in keys if key not in snapshot]
    if missing:
        raise ValueError(f"{game} snapshot is missing key {missing[0]!r}"
                         + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))


STATE_INT = np.iinfo(np.int32)   # the widest integer of the games' states (counters, scores)


def array(snapshot, key, shape, low=STATE_INT.min, high=STATE_INT.max, dtype=np.int64):
    """``snapshot[key]`` as an array of ``shape`` (``None`` entries: any length) with every
    value in ``[low, high]`` (by default: what an int32 field holds; ``None``: no bound)."""
    try:
        value = np.asarray(snapshot[key], dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"snapshot key {key!r}: not an array of {np.dtype(dtype).name}") from None
    if value.ndim != len(shape) or any(n is not None and n != m for n, m in zip(shape, value.shape)):
        want = "x".join("N" if n is None else str(n) for n in shape) or "a scalar"
        raise ValueError(f"snapshot key {key!r}: shape {value.shape}, want {want}")
    if value.size and low is not None and value.min() < low:
        raise ValueError(f"snapshot key {key!r}: value {value.min()} below {low}")
    if value.size and high is not None and value.max() > high:
        raise ValueError(f"snapshot key {key!r}: value {value.max()} above {high}")
    return value


def integer(snapshot, key, low=STATE_INT.min, high=STATE_INT.max):
    """``snapshot[key]`` as a Python int in ``[low, high]`` (defaults as ``array``'s)."""
    return int(array(snapshot, key, (), low, high))


def flag(snapshot, key):
    """``snapshot[key]`` as a bool (a bool or 0/1)."""
    value = snapshot[key]
    if isinstance(value, (bool, np.bool_)) or value in (0, 1):
        return bool(value)
    raise ValueError(f"snapshot key {key!r}: want a bool, got {value!r}")


def rng(snapshot, kept=None):
    """``snapshot["rng"]`` (every stream's uint64 state) as an array, or ``kept`` when the
    snapshot has none (the env's RNG then carries on)."""
    if "rng" not in snapshot:
        return kept
    return array(snapshot, "rng", (NUM_STREAMS,), None, None, dtype=np.uint64)


def fail(key, why):
    """The error for a value that is well-formed but inconsistent with the rest."""
    return ValueError(f"snapshot key {key!r}: {why}")
