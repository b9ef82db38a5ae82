"""A game's kernel parameters built from its ``Config``: each rule number written once.

``params_type(Config, derived, module)`` is the kernel's ``Params`` named tuple: every
number field of the Config (``int``, ``float``, ``bool``, ``Optional`` of one), under its
Config name and in the Config's order, then the ``derived`` fields the game computes (the
map template, look-up tables, the reward mode as a code, ...).
``make_params(Params, config, **values)`` fills it: the number fields from the config,
cast to their type (a ``None`` of an ``Optional`` field becomes 0, the kernels' "no
limit"), unless ``values`` gives one (a value the game resolves, e.g. a game length that
defaults from the map); the derived ones as given.  A derived field missing or an
unknown name raises ``TypeError``.
"""
import typing
from collections import namedtuple
from dataclasses import fields

NUMBERS = (bool, int, float)


def _number_kind(kind):
    """The number type of a Config annotation (``Optional[int]`` -> int), or None."""
    if typing.get_origin(kind) is typing.Union:
        kinds = [k for k in typing.get_args(kind) if k is not type(None)]
        kind = kinds[0] if len(kinds) == 1 else None
    return kind if kind in NUMBERS else None


def number_fields(config_cls):
    """``{name: type}`` of the Config's number fields, in declaration order."""
    hints = typing.get_type_hints(config_cls)
    return {f.name: _number_kind(hints[f.name]) for f in fields(config_cls)
            if _number_kind(hints[f.name]) is not None}


def params_type(config_cls, derived, module):
    """The ``Params`` named tuple of a game's kernels (see above), defined in ``module``
    (the kernel's ``__name__``, so that it pickles)."""
    own = list(number_fields(config_cls))
    clash = sorted(set(own) & set(derived))
    if clash:
        raise ValueError(f"derived params {clash} are already Config fields")
    return namedtuple("Params", own + list(derived), module=module)


def make_params(params_cls, config, **values):
    """``params_cls`` filled from ``config``'s number fields and ``values`` (see above)."""
    kinds = number_fields(type(config))
    derived = set(params_cls._fields) - set(kinds)
    missing, unknown = derived - set(values), set(values) - set(params_cls._fields)
    if missing or unknown:
        raise TypeError(f"params: derived {sorted(missing)} missing, {sorted(unknown)} unknown")
    numbers = {name: kind(values.pop(name, getattr(config, name)) or 0)
               for name, kind in kinds.items()}
    return params_cls(**numbers, **values)
