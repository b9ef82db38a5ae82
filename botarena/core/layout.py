"""``alloc_block(shapes)``: the zeroed arrays of a batched state, laid out for the step loop.

A serial step driver touches each env's fields once per step, env after env.  At batch
1024-4096 the fields are far from the core and the layout decides how many cache lines
(and TLB entries) a step waits for:

- Small fields (an env's share at most ``RECORD_MAX`` bytes: positions, flags, counters,
  scores, turns) lie side by side in one record per env (``records``, ``[E, R]`` bytes),
  as strided views of it.  As one array each, a step read a few dozen of them, each from
  its own stream of lines that the hardware prefetcher did not follow; one record is a
  few lines a driver can prefetch ahead (``prefetch_record``).  coderunner: 1.17x at 4096.
- The large fields follow, each from a cache line's start, C-contiguous.
- All of it is one private anonymous map that the kernel is asked to back with huge pages:
  at 4096 most fields are a few MiB, below numpy's own threshold for huge pages, and with
  4 KiB pages each scattered line also missed the TLB (coderunner's step: ~9% longer).

The views are plain numpy arrays (the small ones not C-contiguous: numba compiles them
with layout ``A``, and ``copy_into`` of one env's entry needs a loop over them).
"""
import mmap

import numpy as np
from .jit import phase
from .prefetch import LINE, prefetch

HUGE_PAGE = 2 * 2**20   # bytes of a huge page (x86-64, arm64 with 4 KiB base pages)
RECORD_MAX = 64         # bytes an env: a field at most this large lives in the env's record
RECORD_ALIGN = 8        # a record's size is a multiple of the largest itemsize (8 bytes)


def _round_up(n, multiple):
    return -(-n // multiple) * multiple


def record_layout(shapes, in_record=None):
    """Offset of each small field in an env's record (None for a large field, or one that
    ``in_record`` keeps out) and the record's size; ``shapes``: ``(shape, dtype)`` pairs
    with the env axis first.  A field starts at a multiple of its itemsize."""
    if in_record is None:
        in_record = [True] * len(shapes)
    offsets, size = [], 0
    for (shape, dtype), wanted in zip(shapes, in_record):
        nbytes = int(np.prod(shape[1:])) * dtype.itemsize
        if nbytes > RECORD_MAX or not wanted:
            offsets.append(None)
            continue
        size = _round_up(size, dtype.itemsize)
        offsets.append(size)
        size += nbytes
    return offsets, _round_up(size, RECORD_ALIGN)


def _huge_page_block(size):
    """``size`` zeroed bytes from a private anonymous map, eligible for huge pages (Windows
    has no such flags: its anonymous maps are zeroed and page-aligned too)."""
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    block = mmap.mmap(-1, size, flags=flags) if flags else mmap.mmap(-1, size)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        block.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(block, dtype=np.uint8)


def alloc_block(shapes, in_record=None):
    """Zeroed arrays of the given ``(shape, dtype)`` pairs (env axis first, the same E in
    each) in one block: returns ``(arrays, records)``, ``records`` the ``[E, R]`` bytes of
    which the small arrays are views.  ``in_record[i]`` False keeps field i its own
    C-contiguous array whatever its size: one a kernel reshapes (numba reshapes contiguous
    arrays only), or one written outside the kernels (the records alias their fields)."""
    shapes = [(tuple(shape), np.dtype(dtype)) for shape, dtype in shapes]
    num_envs = shapes[0][0][0]
    offsets, record = record_layout(shapes, in_record)
    nbytes = [int(np.prod(shape)) * dtype.itemsize for shape, dtype in shapes]
    spans = [0 if offset is not None else _round_up(n, LINE)
             for n, offset in zip(nbytes, offsets)]
    records_span = _round_up(num_envs * record, LINE)
    memory = _huge_page_block(records_span + sum(spans) + HUGE_PAGE)
    records_start = -memory.ctypes.data % HUGE_PAGE
    records = memory[records_start:records_start + num_envs * record].reshape(num_envs, record)
    start = records_start + records_span
    arrays = []
    for (shape, dtype), n, span, offset in zip(shapes, nbytes, spans, offsets):
        if offset is None:
            arrays.append(memory[start:start + n].view(dtype).reshape(shape))
            start += span
        else:
            inner = [int(np.prod(shape[i + 1:])) * dtype.itemsize
                     for i in range(1, len(shape))]
            arrays.append(np.ndarray(shape, dtype, buffer=memory,
                                     offset=records_start + offset, strides=[record] + inner))
    return arrays, records


@phase
def prefetch_record(records, e):
    """Prefetch env e's record (every line of it)."""
    size = records.shape[1]
    for k in range(0, size, LINE):
        prefetch(records, (e, k))
    prefetch(records, (e, size - 1))
