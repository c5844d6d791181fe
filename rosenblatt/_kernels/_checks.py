"""Checks of untrusted input that must be cheap next to an epoch."""

import numpy as np

from .._config import jit


@jit
def csr_structure(indptr, indices, n_columns):
    """One pass over a CSR matrix's ``indptr`` and used ``indices``: 0 when every
    row pointer is in order and every column index in ``[0, n_columns)``, 1 for a
    bad row pointer, 2 for a bad column index (then with the offending index).

    Written as branch-free reductions (a count of decreasing pointers, the least
    and greatest index) so that LLVM vectorises them: the check costs less than
    the scoring pass it protects.
    """
    n_used = indptr[indptr.shape[0] - 1]
    if indptr[0] != 0 or n_used > indices.shape[0]:
        return 1, 0
    decreasing = 0
    for r in range(indptr.shape[0] - 1):
        decreasing += indptr[r + 1] < indptr[r]
    if decreasing:
        return 1, 0
    if n_used == 0:
        return 0, 0
    low = high = indices[0]
    for k in range(n_used):
        low = min(low, indices[k])
        high = max(high, indices[k])
    if low < 0:
        return 2, low
    if high >= n_columns:
        return 2, high
    return 0, 0


#: Values per block of :func:`all_ones`: a block is a branch-free reduction that LLVM
#: vectorises; the test between blocks stops a scan of real-valued data at its first
#: block instead of reading all of it (3.3 ms on 10M values, a fifth of a scoring pass).
_BLOCK = 4096


@jit
def all_ones(values):
    """Whether every value is exactly 1: branch-free reductions over blocks,
    stopping at the first block that holds another value."""
    for start in range(0, values.shape[0], _BLOCK):
        # a slice, indexed from 0: a loop from ``start`` is not vectorised (5x slower)
        block = values[start:start + _BLOCK]
        others = 0
        for k in range(block.shape[0]):
            others += block[k] != 1.0
        if others:
            return False
    return True


@jit(fastmath=False)
def averaged_weights_finite(coef, u, coef_start, seen, decayed):
    """Whether the running weights and every mean weight are finite, the mean
    computed as ``Averaging.mean`` does, one weight at a time: the answer of
    building the mean with NumPy, without its temporary arrays (6 ms a check on
    2**20 weights, after every epoch). Without fast-math, so that the mean rounds,
    and overflows, exactly as NumPy's. ``decayed``: with a penalty the mean is
    ``-u / seen``, finite with ``u``; before any example it is ``coef`` itself.
    """
    for j in range(coef.shape[0]):
        c = coef[j]
        # x - x is 0 for a finite x, NaN for inf or NaN (and NaN == 0 is false)
        if not c - c == 0.0:
            return False
        if seen > 0:
            mean = -u[j] / seen if decayed else c - (u[j] - (c - coef_start[j])) / seen
            if not mean - mean == 0.0:
                return False
    return True


@jit
def csr_has_duplicates(indptr, indices, n_columns):
    """Whether some row stores a column more than once, in one read of ``indptr``
    and the used ``indices``: a row whose indices strictly increase has none; only
    the other rows go through a seen-marker over the columns (allocated at the
    first such row, cleared after each row, so one row's marks never reach the
    next). An index outside ``[0, n_columns)`` answers True, the safe answer
    (the caller then takes its general path); validation refuses such an index
    first anyway.
    """
    n = indptr.shape[0] - 1
    seen = np.zeros(0, dtype=np.bool_)
    for i in range(n):
        start, stop = indptr[i], indptr[i + 1]
        increasing = True
        for k in range(start + 1, stop):
            if indices[k] <= indices[k - 1]:
                increasing = False
                break
        if increasing:
            continue
        if seen.shape[0] == 0:
            seen = np.zeros(n_columns, dtype=np.bool_)
        duplicate = False
        for k in range(start, stop):
            j = indices[k]
            if j >= n_columns:
                duplicate = True
                break
            if seen[j]:
                duplicate = True
                break
            seen[j] = True
        for k in range(start, stop):  # clear this row's marks
            j = indices[k]
            if j < n_columns:
                seen[j] = False
        if duplicate:
            return True
    return False
