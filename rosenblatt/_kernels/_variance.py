"""The variance ``V = x̃ᵀΣx̃`` of a row's score under a Gaussian over weight vectors.

For the probabilities of the confidence-weighted family
(:mod:`rosenblatt.linear_model._probabilities`): ``x̃`` is the row with the
constant 1 of the intercept appended, and ``Σ`` comes in three parts, as the
estimators publish it: the features' block ``cov`` (``(K, d)``, the diagonal, or
``(K, d, d)``, full), the bias's covariances with the features ``cross``
(``(K, d)``; zeros for the diagonal form) and the bias's variance ``bias``
(``(K,)``), one of each per problem ``k``::

    V_ik = Σ_jl x_ij x_il cov[k, j, l] + 2 Σ_j x_ij cross[k, j] + bias[k]

Only a CSR row's stored values are read: ``O(nnz)`` per row and problem for
the diagonal, ``O(nnz²)`` for the full form (``x_nzᵀ Σ[nz, nz] x_nz``). Dense
rows take the diagonal here (``O(d)`` per row); the full form on dense rows is a
matrix product, left to BLAS by the caller. The sums run in float64 whatever the
dtype of ``X``.
"""

import numba
import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .._config import jit
from ._rows import n_rows


@register_jitable
def _stored_value(data, k):
    return np.float64(data[k])


def _value(data, k):
    """The ``k``-th stored value as float64; 1 for the binary twin (``data`` is ``None``)."""
    return 1.0 if data is None else float(data[k])


@overload(_value)
def _value_overload(data, k):
    if isinstance(data, types.NoneType):
        return lambda data, k: 1.0
    return _stored_value


@register_jitable
def _dense_diagonal(X, i, s, bias):
    total = 0.0
    for j in range(X.shape[1]):
        x = np.float64(X[i, j])
        total += s[j] * (x * x)
    return total + bias


@register_jitable
def _csr_diagonal(X, i, s, bias):
    data, indices, indptr = X[0], X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        x = _value(data, k)
        total += s[indices[k]] * (x * x)
    return total + bias


@register_jitable
def _csr_full(X, i, cov, cross, bias):
    data, indices, indptr = X[0], X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        x, row = _value(data, k), indices[k]
        inner = 0.0
        for q in range(indptr[i], indptr[i + 1]):
            inner += cov[row, indices[q]] * _value(data, q)
        total += x * (inner + 2.0 * cross[row])
    return total + bias


def row_variance(X, i, cov, cross, bias):
    """``V`` of row ``i`` for one problem: ``cov`` is ``(d,)``, or ``(d, d)`` for
    CSR rows only."""
    if cov.ndim == 2:
        return _csr_full(X, i, cov, cross, bias)
    return (_csr_diagonal if isinstance(X, tuple) else _dense_diagonal)(X, i, cov, bias)


# compiled without reassociation, as row_dot's CSR sums (see _rows.py): a row's V is
# then the same bit for bit in the serial and the parallel kernel, whatever the batch
@overload(row_variance, jit_options={"fastmath": False})
def _row_variance_overload(X, i, cov, cross, bias):
    csr = isinstance(X, types.BaseTuple)
    if cov.ndim == 2:
        return _csr_full if csr else None  # dense rows: a matrix product (see above)
    kernel = _csr_diagonal if csr else _dense_diagonal
    return lambda X, i, cov, cross, bias: kernel(X, i, cov, bias)


@jit
def row_variances(X, cov, cross, bias):
    """``V`` (n_samples, n_problems) of every row of ``X`` (dense or a CSR triplet,
    see :func:`~rosenblatt._validation.kernel_view`) for every problem."""
    n = n_rows(X)
    out = np.empty((n, bias.shape[0]))
    for k in range(bias.shape[0]):
        s, c, b = cov[k], cross[k], bias[k]
        for i in range(n):
            out[i, k] = row_variance(X, i, s, c, b)
    return out


@jit(parallel=True)
def row_variances_parallel(X, cov, cross, bias):
    """:func:`row_variances` with the rows shared among numba's threads (only from
    the main thread, as :func:`~._scoring.decision_function_parallel`)."""
    n = n_rows(X)
    out = np.empty((n, bias.shape[0]))
    for k in range(bias.shape[0]):
        s, c, b = cov[k], cross[k], bias[k]
        for i in numba.prange(n):
            out[i, k] = row_variance(X, i, s, c, b)
    return out
