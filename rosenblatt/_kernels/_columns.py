"""Column frequencies of a CSR matrix, and its columns renumbered by them.

Single compiled passes: NumPy's ``bincount`` and fancy indexing would first
copy int32 indices into int64 ones, which on 10**8 stored values costs more
than an epoch.
"""

import numpy as np

from .._config import jit


@jit
def column_counts(indices, n_used, n_columns):
    """How many of the first ``n_used`` stored values each column holds."""
    counts = np.zeros(n_columns, dtype=np.int64)
    for k in range(n_used):
        counts[indices[k]] += 1
    return counts


@jit
def columns_by_frequency(counts):
    """Column numbers sorted by decreasing ``counts``, ties in column order.

    A counting sort: two passes over the columns and one over the distinct counts,
    where ``np.argsort`` would take seconds on 2**24 columns.
    """
    top = counts.max()
    # starts[top - c]: where the columns of count c begin in the result
    starts = np.zeros(top + 2, dtype=np.int64)
    for j in range(counts.shape[0]):
        starts[top - counts[j] + 1] += 1
    for c in range(1, top + 2):
        starts[c] += starts[c - 1]
    order = np.empty(counts.shape[0], dtype=np.int64)
    for j in range(counts.shape[0]):
        bucket = top - counts[j]
        order[starts[bucket]] = j
        starts[bucket] += 1
    return order


@jit
def renumbered_indices(indices, n_used, new):
    """``new[indices[k]]`` for the first ``n_used`` stored values, in the indices' dtype."""
    result = np.empty(n_used, dtype=indices.dtype)
    for k in range(n_used):
        result[k] = new[indices[k]]
    return result
