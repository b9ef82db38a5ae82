"""core.layout: the block a batched state lives in (records for the small fields)."""
import numpy as np
import pytest
from numba import njit

from botarena.core.layout import RECORD_MAX, alloc_block, prefetch_record, record_layout
from botarena.core.prefetch import LINE

E = 5
SHAPES = [((E, 2), np.int32), ((E, 100), np.uint8), ((E, 3, 2), np.int16), ((E,), np.float64),
          ((E, 7), np.bool_), ((E, 4, 4, 4), np.int16)]


def test_small_fields_share_one_record_and_large_ones_are_contiguous():
    arrays, records = alloc_block(SHAPES)
    assert [a.shape for a in arrays] == [s for s, _ in SHAPES]
    assert [a.dtype for a in arrays] == [np.dtype(d) for _, d in SHAPES]
    for a in arrays:
        assert not a.any()                              # zeroed
        assert a.ctypes.data % a.dtype.itemsize == 0    # aligned to the itemsize
        per_env = a[0].nbytes
        if per_env <= RECORD_MAX:
            assert a.strides[0] == records.shape[1]
            assert records.ctypes.data <= a.ctypes.data < records.ctypes.data + records.shape[1]
        else:
            assert a.flags.c_contiguous and a.ctypes.data % LINE == 0
    assert records.shape[0] == E and records.shape[1] % 8 == 0


def test_fields_do_not_overlap():
    arrays, records = alloc_block(SHAPES)
    for i, a in enumerate(arrays):
        a[...] = 1
        for j, b in enumerate(arrays):
            assert b.all() if j <= i else not b.any(), (i, j)
    # the small fields are in the records: every env's record now equals env 0's
    assert records.any()
    assert (records == records[0]).all()


def test_record_layout_aligns_each_field_to_its_itemsize():
    shapes = [((E, 1), np.dtype(np.uint8)), ((E, 1), np.dtype(np.int64)),
              ((E, 65), np.dtype(np.uint8)), ((E, 3), np.dtype(np.int16))]
    offsets, size = record_layout(shapes)
    assert offsets == [0, 8, None, 16]
    assert size == 24


@pytest.mark.parametrize("e", [0, E - 1])
def test_prefetch_record_changes_nothing(e):
    arrays, records = alloc_block(SHAPES)
    records[...] = np.arange(records.size, dtype=np.uint8).reshape(records.shape)
    before = records.copy()
    njit(lambda r, i: prefetch_record(r, i))(records, e)
    assert (records == before).all()


@pytest.mark.parametrize("num_envs", [1, E])
def test_batch_type_is_the_same_at_every_batch_size(num_envs):
    """core.jit.batch_type types a state as at every batch size: record fields with layout
    A (with one env numpy flags them contiguous), a field of its own C, and so is a field
    without elements (a scratch a config leaves unused), whatever strides numpy gives it;
    a tuple member by member."""
    from numba import typeof

    from botarena.core.jit import batch_type

    shapes = [((num_envs, 2), np.int32), ((num_envs,), np.float64),
              ((num_envs, 100), np.uint8), ((num_envs, 3, 0), np.uint8)]
    arrays, _ = alloc_block(shapes, [True, True, False, False])
    types = [batch_type(a, typeof(a)) for a in arrays]
    assert [t.layout for t in types] == ["A", "A", "C", "C"]
    assert list(batch_type(tuple(arrays), typeof(tuple(arrays)))) == types
