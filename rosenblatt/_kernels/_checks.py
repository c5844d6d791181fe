"""Checks of untrusted input that must be cheap next to an epoch."""

from .._config import jit


@jit
def csr_structure(indptr, indices, n_columns):
    """One pass over a CSR matrix's ``indptr`` and used ``indices``: 0 when every
    row pointer is in order and every column index in ``[0, n_columns)``, 1 for a
    bad row pointer, 2 for a bad column index (then with the offending index)."""
    if indptr[0] != 0 or indptr[indptr.shape[0] - 1] > indices.shape[0]:
        return 1, 0
    for r in range(indptr.shape[0] - 1):
        if indptr[r + 1] < indptr[r]:
            return 1, 0
    for k in range(indptr[indptr.shape[0] - 1]):
        if indices[k] < 0 or indices[k] >= n_columns:
            return 2, indices[k]
    return 0, 0
