"""``prefetch(array, index)``: ask the CPU to bring the cache line of ``array[index]`` in
(LLVM's ``llvm.prefetch``, a hint for a later write: it never faults and changes nothing).

The serial step drivers (coderunner, dungeon, ants) step env e while the lines a later
env will touch come in: at batch 1024-4096 a step's few dozen scattered lines (cells,
observation planes at the characters) are far from the core, and waiting for them one by
one was most of the time.
``index`` is an integer or a tuple of integers (any integer types).  Without the JIT
(``NUMBA_DISABLE_JIT=1``) it does nothing.
"""
from llvmlite import ir
from numba import config as numba_config
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

LINE = 64          # bytes of a cache line (x86-64, arm64)
_WRITE = 1         # llvm.prefetch arguments: rw (1: for a write),
_KEEP = 3          # locality (3: keep in every cache level),
_DATA = 1          # cache type (1: data)


def _prefetch_python(array, index):
    """No-op twin for ``NUMBA_DISABLE_JIT`` (an intrinsic has no Python body)."""


@intrinsic
def _prefetch_jit(typingctx, array, index):
    if not isinstance(array, types.Array):
        return None
    index_types = list(index) if isinstance(index, types.BaseTuple) else [index]
    if len(index_types) != array.ndim or not all(isinstance(t, types.Integer)
                                                 for t in index_types):
        return None

    def codegen(context, builder, signature, args):
        array_type, index_type = signature.args
        data = context.make_array(array_type)(context, builder, args[0])
        if isinstance(index_type, types.BaseTuple):
            raw = cgutils.unpack_tuple(builder, args[1], len(index_type))
        else:
            raw = [args[1]]
        indices = [context.cast(builder, v, t, types.intp) for v, t in zip(raw, index_types)]
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, indices,
                                           wraparound=False)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(pointer, cgutils.voidptr_t), i32(_WRITE),
                          i32(_KEEP), i32(_DATA)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


prefetch = _prefetch_python if numba_config.DISABLE_JIT else _prefetch_jit
