"""Numerical choices in one place: numba flags and the disk cache.

Every compiled kernel in :mod:`rosenblatt._kernels` is built with :func:`jit`, so a
change of policy here reaches all of them.

Fast-math: we allow only ``reassoc`` (sums may be reordered, which lets LLVM
vectorise dot products) and ``nsz`` (the sign of a zero may be ignored). We never
allow ``nnan``/``ninf`` (they would let the compiler assume away the NaN/inf that
validation is there to catch) nor ``contract`` (fused multiply-add would make a
kernel's ``w += step * x`` round differently from the replayed trace and the NumPy
oracles).
"""

import numba

FASTMATH = frozenset({"reassoc", "nsz"})

#: Options shared by every kernel: compiled once and cached on disk next to the
#: module (``NUMBA_CACHE_DIR`` moves the cache), and free of the GIL so that
#: one-vs-rest can train its binary problems on several threads.
JIT_OPTIONS = dict(nopython=True, nogil=True, cache=True, fastmath=set(FASTMATH))


def jit(function=None, **overrides):
    """``numba.njit`` with the project's options; usable bare or with overrides."""
    options = {**JIT_OPTIONS, **overrides}
    if function is None:
        return lambda f: numba.jit(**options)(f)
    return numba.jit(**options)(function)
