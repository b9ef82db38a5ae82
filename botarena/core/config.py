"""Checks of the settings every game's ``Config`` shares: reward, obs_dtype, max_steps;
and the view of the games that offer one."""
from .batched import OBS_DTYPES
from .grid import VIEWS
from .rewards import REWARD_MODES


def check_common(config):
    """Raise ``ValueError`` for a bad ``reward``, ``obs_dtype`` or ``max_steps``."""
    if config.reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {sorted(REWARD_MODES)}, got {config.reward!r}")
    if config.obs_dtype not in OBS_DTYPES:
        raise ValueError(f"obs_dtype must be one of {sorted(OBS_DTYPES)}, got {config.obs_dtype!r}")
    steps = config.max_steps
    if steps is not None and (not isinstance(steps, int) or isinstance(steps, bool) or steps < 1):
        raise ValueError(f"max_steps must be a positive int or None, got {steps!r}")


def check_view(config):
    """Raise ``ValueError`` for a bad ``view`` (the games that offer an ego view)."""
    if config.view not in VIEWS:
        raise ValueError(f"view must be one of {VIEWS}, got {config.view!r}")
