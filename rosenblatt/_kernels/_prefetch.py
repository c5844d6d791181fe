"""Software prefetch: ask the CPU to start loading a cache line before a loop needs it.

A hint only: it changes no value, and a prefetch of any address is harmless
(it never faults). Compiled to LLVM's ``llvm.prefetch`` intrinsic (a ``prefetcht0``
on x86); in plain Python (``NUMBA_DISABLE_JIT=1``) it does nothing.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def prefetch(array, index):
    """Start loading ``array[index]`` into the caches, for reading."""


@intrinsic
def _llvm_prefetch(typingctx, array, index):
    def codegen(context, builder, signature, args):
        array_type, index_type = signature.args
        view = context.make_array(array_type)(context, builder, args[0])
        position = context.cast(builder, args[1], index_type, types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [position],
                                           wraparound=False, boundscheck=False)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        signature_ir = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, signature_ir,
                                                  "llvm.prefetch.p0")
        # read (0), keep in every cache level (3), data rather than instructions (1)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


@overload(prefetch)
def _prefetch_overload(array, index):
    return lambda array, index: _llvm_prefetch(array, index)
