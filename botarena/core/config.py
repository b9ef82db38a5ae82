"""The checks every game's ``Config`` shares.

Each Config field declares its type in its annotation (``int``, ``float``, ``bool``,
``str``, ``Optional[...]`` for a field that may be None, ``object`` for a free-form value
such as a map) and, for numbers, its allowed range with ``bounded(default, low, high)``.
``check_common`` checks them all at construction: ints that are not bools, finite floats,
values inside their range; the error names the field, the value and the range.  Ranges
keep every value inside the kernels' dtypes (board sizes in int16 coordinates, points and
turns that a game's int32 scores and timers hold).  ``reward``, ``obs_dtype`` and
``view`` are checked against the modes the core offers.
"""
import math
import typing
from dataclasses import field, fields

from .batched import OBS_DTYPES
from .grid import VIEWS
from .rewards import REWARD_MODES

MAX_SIZE = 1000            # a board side (coordinates are int16; planes grow with its square)
MAX_POINTS = 10_000        # points of one event (scores are int32 over a whole game)
MAX_TURNS = 1_000_000      # a game length or a timer in turns
MAX_PENALTY = 1e6          # a shaping weight


def bounded(default, low=None, high=None):
    """A Config field with its allowed range ``[low, high]`` (either may be None)."""
    return field(default=default, metadata={"low": low, "high": high})


def _range_text(low, high):
    return f"[{'-inf' if low is None else low}, {'inf' if high is None else high}]"


def _check_value(name, kind, value, low, high):
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be a bool, got {value!r}")
        return
    if kind is str:
        if not isinstance(value, str):
            raise ValueError(f"{name} must be a string, got {value!r}")
        return
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{name} must be an int in {_range_text(low, high)}, got {value!r}")
    elif kind is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number in {_range_text(low, high)}, "
                             f"got {value!r}")
    else:
        return
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be in {_range_text(low, high)}, got {value!r}")


def check_common(config):
    """Raise ``ValueError`` naming the first field whose value is not of its declared type
    or outside its declared range, or a bad ``reward``, ``obs_dtype`` or ``view``."""
    hints = typing.get_type_hints(type(config))
    for f in fields(config):
        value, kind = getattr(config, f.name), hints[f.name]
        if typing.get_origin(kind) is typing.Union:       # Optional[X]
            if value is None:
                continue
            kind = next(k for k in typing.get_args(kind) if k is not type(None))
        _check_value(f.name, kind, value, f.metadata.get("low"), f.metadata.get("high"))
    choices = {"reward": sorted(REWARD_MODES), "obs_dtype": sorted(OBS_DTYPES), "view": VIEWS}
    for name, allowed in choices.items():
        if hasattr(config, name) and getattr(config, name) not in allowed:
            raise ValueError(f"{name} must be one of {allowed}, got {getattr(config, name)!r}")

