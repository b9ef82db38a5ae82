"""core.jit's decorators: what Python may call, and what the compiled callers get."""
import numpy as np
import pytest
from numba import njit

from botarena.core.jit import bind, glue, hot, phase, view


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
    scale_by_constants(values)
    assert values.tolist() == [-0.0, -6.0, -12.0]
    assert len(scaled.signatures) == 1
    assert scale_twice.signatures == []
