"""core.jit's decorators: what Python may call, and what the compiled callers get."""
import numpy as np
import pytest
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic

from botarena.core.batched import action_dtype
from botarena.core.jit import (FULL_OPT, INNER_OPT, bind, copy_parallel, first_outside, glue,
                               hot, narrow_into, narrow_into_parallel, phase, view)


@hot
def add_one(values):
    for i in range(values.shape[0]):
        values[i] += 1


@phase
def double(values):
    for i in range(values.shape[0]):
        values[i] *= 2


@hot(python=True)
def total(values):
    return values.sum()


@view
def first_row(rows):
    return rows[0]


@njit(cache=True)
def add_one_then_double(values):
    add_one(values)
    double(values)
    first_row(values.reshape(1, values.shape[0]))[0] += 100


@pytest.mark.parametrize("function", [add_one, double])
def test_numba_only_functions_refuse_python_calls(function):
    """Without a Python entry point numba would jump to a null pointer: a clear error
    instead, from a direct call and from ``bind``, and the array is untouched."""
    values = np.arange(3.0)
    with pytest.raises(TypeError, match=f"{function.py_func.__name__} is compiled for numba "
                                        "callers only"):
        function(values)
    with pytest.raises(TypeError, match="compiled for numba callers only"):
        bind(function, values)
    assert values.tolist() == [0.0, 1.0, 2.0]


def test_compiled_callers_reach_hot_phase_and_view_functions():
    values = np.arange(3.0)
    add_one_then_double(values)
    assert values.tolist() == [102.0, 4.0, 6.0]


def test_python_entry_point_kept_on_request():
    values = np.arange(4.0)
    assert total(values) == 6.0
    assert bind(total, values)(values) == 6.0


@phase
def scaled(values, factor, negate):
    for i in range(values.shape[0]):
        values[i] *= -factor if negate else factor


@glue
def scale_twice(values):
    scaled(values, 2, False)
    scaled(values, 3, True)


@njit(cache=True)
def scale_by_constants(values):
    scale_twice(values)


def test_a_phase_is_compiled_once_for_every_constant_passed():
    """Two calls with other constants (int and bool literals to numba) reach one version
    of the phase, and each gets its own values; the glue between is not compiled on its
    own (numba inlines it)."""
    values = np.arange(3.0)
    scale_by_constants._cache.flush()   # compiled again: a cached version loads untyped
    scale_by_constants(values)
    assert values.tolist() == [-0.0, -6.0, -12.0]
    assert len(scaled.signatures) == 1
    assert scale_twice.signatures == []


LEVELS_SEEN = []    # numba's LLVM level while each call of ``level_probe`` was typed


@intrinsic(prefer_literal=True)
def level_probe(typingctx, tag):
    if isinstance(tag, types.StringLiteral):
        LEVELS_SEEN.append((tag.literal_value, int(numba_config.OPT)))
    return types.void(tag), lambda context, builder, signature, args: None


@hot
def inner_level(values):
    level_probe("inner")
    values[0] += 1


@hot(python=True, outermost=True)
def outer_level(values):
    level_probe("outer")
    inner_level(values)


def test_hot_functions_are_compiled_at_the_inner_level_unless_outermost():
    """``outer_level`` (``outermost``) at numba's level, the callee it compiles on the way
    at ``INNER_OPT``, and numba's level as it was afterwards."""
    LEVELS_SEEN.clear()
    values = np.zeros(1)
    for dispatcher in (outer_level, inner_level):
        dispatcher._cache.flush()       # typed again: a cached version loads untyped
    outer_level(values)
    assert values[0] == 1.0
    assert ("outer", int(FULL_OPT)) in LEVELS_SEEN
    assert ("inner", int(INNER_OPT)) in LEVELS_SEEN
    assert numba_config.OPT == FULL_OPT


@pytest.mark.parametrize("chunks", [1, 2, 3])
def test_the_parallel_copy_copies_every_value(chunks):
    """``copy_parallel`` writes every entry, whatever the split (41 values in 1, 2 or 3
    ranges), and nothing past the destination's end."""
    source = np.arange(41, dtype=np.uint8)
    out = np.zeros(42, dtype=np.uint8)
    copy_parallel(out[:41], source, chunks)
    assert np.array_equal(out[:41], source) and out[41] == 0


@pytest.mark.parametrize("chunks", [0, 1, 2, 3])
def test_narrowing_copies_and_finds_the_first_value_outside(chunks):
    """``narrow_into`` (serial, ``chunks == 0``) and ``narrow_into_parallel`` copy every
    value into the narrower array and return the flat index of the first value outside
    ``[0, high)``, whichever range of the threaded split holds it; values that int8
    would wrap into range (256 + 2) count as outside."""
    values = np.arange(40, dtype=np.int64) % 5

    def narrow(values, out):
        if not chunks:
            return narrow_into(values, out, 5)
        return narrow_into_parallel(values, out, 5, np.zeros(chunks, dtype=np.bool_))

    out = np.full(40, -9, dtype=np.int8)
    assert narrow(values, out) == -1 and np.array_equal(out, values)
    for where, bad in (([38], [37]), ([38], [256 + 2]), ([31, 33], [5, -1])):
        wild = values.copy()
        wild[where] = bad
        assert narrow(wild, out) == where[0]
    first = values.copy()
    first[[2, 35]] = 256 + 1, 7
    assert narrow(first, out) == 2


@pytest.mark.parametrize("action_values, dtype", [(5, np.int8), (127, np.int8),
                                                  (128, np.int16), (40_000, np.int32)])
def test_the_action_buffer_holds_the_checks_bound(action_values, dtype):
    """``action_dtype`` holds every action and ``action_values`` itself: the step checks
    the buffer against that bound cast to the buffer's dtype (128 in int8 would be -128,
    and every action would count as outside)."""
    assert action_dtype(action_values) == dtype
    assert dtype(action_values) == action_values


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64])
def test_the_check_at_the_buffers_width_finds_the_first_value_outside(dtype):
    """``first_outside`` with a bound of the array's own dtype (as the step calls it)
    finds the same first value outside ``[0, high)`` as with an int64 bound: the
    bound itself, the type's extremes and -1, wherever they are."""
    high = 5
    grid = (np.arange(3 * 2 * 400) % high).astype(dtype).reshape(3, 2, 400)
    for bound in (dtype(high), high):
        assert first_outside(grid, bound) == -1
    info = np.iinfo(dtype)
    for where, bad in ((2399, high), (0, -1), (1234, info.min), (801, info.max)):
        wild = grid.copy()
        wild.reshape(-1)[where] = bad
        wild.reshape(-1)[2398] = -1      # a later value outside too: the first is found
        expected = min(where, 2398)
        assert first_outside(wild, dtype(high)) == expected
        assert first_outside(wild, high) == expected


@pytest.mark.parametrize("chunks", [0, 2])
@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.uint8])
def test_narrowing_checks_sources_of_every_integer_type(chunks, dtype):
    """The narrowing compares each value as an unsigned 64-bit integer: a negative int32,
    a uint64 above int64's range and a uint8 of 255 all count as outside, and in-range
    values of every source type are copied as they are."""
    values = (np.arange(40) % 5).astype(dtype)
    out = np.full(40, -9, dtype=np.int8)

    def narrow(values):
        if not chunks:
            return narrow_into(values, out, 5)
        return narrow_into_parallel(values, out, 5, np.zeros(chunks, dtype=np.bool_))

    assert narrow(values) == -1 and np.array_equal(out, values)
    big = {np.int32: -7, np.uint64: 2 ** 63 + 1, np.uint8: 255}[dtype]
    wild = values.copy()
    wild[[23, 31]] = big, 5
    assert narrow(wild) == 23
