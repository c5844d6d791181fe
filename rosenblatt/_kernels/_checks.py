"""Checks of untrusted input that must be cheap next to an epoch."""

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


@jit
def all_ones(values):
    """Whether every value is exactly 1 (a branch-free reduction)."""
    others = 0
    for k in range(values.shape[0]):
        others += values[k] != 1.0
    return others == 0
