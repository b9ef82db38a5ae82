"""The checks every game's ``Config`` shares.

Each Config field declares its type in its annotation (``int``, ``float``, ``bool``,
``str``, ``Optional[...]`` for a field that may be None, ``object`` for a free-form value
such as a map) and, for numbers, its allowed range with ``bounded(default, low, high)``.
``check_common`` checks them all at construction: ints that are not bools, finite floats,
values inside their range; the error names the field, the value and the range.  Ranges
keep every value inside the kernels' dtypes (board sizes in int16 coordinates, points and
turns that a game's int32 scores and timers hold).  ``reward``, ``obs_dtype`` and
``view`` are checked against the modes the core offers.

One vocabulary across games: the same thing has the same field name in every game that
has it (``VOCABULARY``).  A game that renamed a field into it declares the old name with
``@renamed(old="new")``: the old keyword keeps working with a ``DeprecationWarning``.
"""
import functools
import math
import os
import sys
import typing
import warnings
from dataclasses import field, fields

from .batched import OBS_DTYPES
from .grid import VIEWS
from .rewards import REWARD_MODES

MAX_SIZE = 1000            # a board side (coordinates are int16; planes grow with its square)
MAX_POINTS = 10_000        # points of one event (scores are int32 over a whole game)
MAX_TURNS = 1_000_000      # a game length or a timer in turns
MAX_PENALTY = 1e6          # a shaping weight


# The fields every game names the same way where it has them: the board or map it plays on
# (a bundled name, a path, the text, or "random"), the game length in turns, the players
# per game, the reward mode, the observation dtype, the view, and the truncation length.
VOCABULARY = ("board", "max_turns", "num_players", "reward", "obs_dtype", "view", "max_steps")

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


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



def _caller_stacklevel():
    """The ``stacklevel`` that makes a warning name the first caller outside botarena (the
    user's line, not the env or wrapper that built the Config for it)."""
    frame, level = sys._getframe(2), 2      # 1: _warn_renamed, 2: the function calling it
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def _warn_renamed(cls, old, new):
    warnings.warn(f"{cls.__module__}.{cls.__name__}: {old!r} is deprecated, use {new!r}",
                  DeprecationWarning, stacklevel=_caller_stacklevel())


def renamed(**old_names):
    """Class decorator of a Config whose fields ``old_names`` (``old="new"``) renamed.

    ``Config(old=value)`` builds ``Config(new=value)`` with a ``DeprecationWarning`` (as
    do ``parallel_env(env_id, old=value)`` and every front-end that passes its keywords
    on); ``config.old`` reads ``config.new``, warning too.  Giving both names raises
    ``TypeError``.  ``Config.renamed`` maps each old name to its new one."""
    def decorate(cls):
        known = {f.name for f in fields(cls)}
        for old, new in old_names.items():
            if new not in known or old in known:
                raise TypeError(f"{cls.__name__}: cannot rename {old!r} to {new!r} "
                                f"(the fields are {sorted(known)})")
        init = cls.__init__

        @functools.wraps(init)
        def __init__(self, *args, **kwargs):
            for old, new in old_names.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{cls.__name__} got both {old!r} and {new!r} "
                                        f"({old!r} is the deprecated name of {new!r})")
                    _warn_renamed(cls, old, new)
                    kwargs[new] = kwargs.pop(old)
            init(self, *args, **kwargs)

        cls.__init__ = __init__
        for old, new in old_names.items():
            setattr(cls, old, _renamed_property(cls, old, new))
        cls.renamed = dict(old_names)
        return cls
    return decorate


def _renamed_property(cls, old, new):
    def read(self):
        _warn_renamed(cls, old, new)
        return getattr(self, new)
    return property(read, doc=f"Deprecated name of ``{new}``.")
