"""Numba helpers: cached serial/parallel twins of a batch driver, and fast re-calls.

``serial_and_parallel(fn)`` compiles one Python batch driver (whose env loop is a
``prange``) twice: as a plain loop and as a threaded loop.  The threaded twin is given a
name of its own so that numba's on-disk cache keeps the two apart (numba keys its cache
by function name, not by compile flags).

``bind(dispatcher, *args)`` returns the compiled entry point for the argument types of
``args``.  Calling it skips numba's per-call type dispatch, which for a state tuple of a
dozen arrays costs several microseconds: the single-env PettingZoo front-end steps far
faster this way.  The arguments passed later must have exactly those types.

Hot-path functions that allocate nothing (rule phases, observe, rewards, batch drivers)
are compiled with ``njit(cache=True, _nrt=False)``: without numba's runtime, taking a
view such as ``s.colour[e]`` or passing an array to a helper costs no atomic reference
count (those were ~40% of a paint step).  Such a function cannot create arrays, nor
assign one array slice from another (``a[e] = b`` allocates a temporary): use
``copy_into``.  Functions that allocate (e.g. the bots' scratch) keep the default.
"""
import types

from numba import config as numba_config
from numba import njit


def _renamed(fn, suffix):
    twin = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + suffix,
                              fn.__defaults__, fn.__closure__)
    twin.__qualname__ = fn.__qualname__ + suffix
    twin.__module__ = fn.__module__
    twin.__doc__ = fn.__doc__
    return twin


def serial_and_parallel(fn):
    """(serial, parallel) dispatchers of the batch driver ``fn``."""
    serial = njit(cache=True, _nrt=False)(fn)
    parallel = njit(cache=True, parallel=True, _nrt=False)(_renamed(fn, "_parallel"))
    return serial, parallel


@njit(cache=True, _nrt=False)
def copy_into(dst, src):
    """``dst[...] = src`` for C-contiguous arrays of the same size, without the temporary
    numba's slice assignment allocates when the two might overlap."""
    flat_dst, flat_src = dst.reshape(dst.size), src.reshape(src.size)
    for i in range(flat_dst.shape[0]):
        flat_dst[i] = flat_src[i]


@njit(cache=True, _nrt=False)
def first_outside(values, high):
    """Flat index of the first entry of ``values`` (C-contiguous) outside ``[0, high)``, or
    -1 (numpy's min and max would take two passes and a few microseconds of calls).  The
    check is one pass without an early exit (it vectorizes: 4x faster over ants' command
    grids, 1.4 -> 0.34 us per env); only a bad array is searched for the index."""
    flat = values.reshape(values.size)
    bad = False
    for i in range(flat.shape[0]):
        bad |= (flat[i] < 0) | (flat[i] >= high)
    if not bad:
        return -1
    for i in range(flat.shape[0]):
        if flat[i] < 0 or flat[i] >= high:
            return i
    return -1


def bind(dispatcher, *args):
    """The compiled entry point of ``dispatcher`` for the types of ``args`` (compiled if needed)."""
    if numba_config.DISABLE_JIT or not hasattr(dispatcher, "overloads"):
        return dispatcher
    signature = tuple(dispatcher.typeof_pyval(a) for a in args)
    if signature not in dispatcher.overloads:
        dispatcher.compile(signature)
    return dispatcher.overloads[signature].entry_point


@njit(cache=True, _nrt=False, inline='always')
def fill_plane(plane, value, whole):
    """``plane[:] = value`` (a constant observation plane), cast once to the plane's dtype
    outside the loop; left alone unless ``whole`` when it already holds that value (its
    first cell tells: a step redraws only what changed)."""
    old = plane[0]
    plane[0] = value
    cell = plane[0]
    if cell == old and not whole:
        return
    for i in range(plane.shape[0]):
        plane[i] = cell
