"""Kernels that score rows against fixed weights."""

import numba
import numpy as np

from .._config import jit
from ._rows import n_rows, prefetch_ahead, row_axpy, row_dot

#: the largest finite float64: ``abs(s) <= _LARGEST`` is false for inf and NaN alone
_LARGEST = float(np.finfo(np.float64).max)


@jit
def weighted_errors(X, y, sw, w, b, limit):
    """Sum of ``sw_i`` over rows with ``y_i (w·x_i + b) <= 0``, stopping at ``limit``."""
    errors = 0.0
    n, natural_order = n_rows(X), np.empty(0, dtype=np.intp)
    for i in range(n):
        prefetch_ahead(X, natural_order, i, n, w)
        if sw[i] != 0.0 and y[i] * (row_dot(X, i, w) + b) <= 0.0:
            errors += sw[i]
            if errors >= limit:
                break
    return errors


@jit
def misclassified_rows(X, y, sw, w, b, out):
    """Write the indices of rows with ``y_i (w·x_i + b) <= 0`` into ``out``, in order.

    Rows with zero weight are left out. Returns how many were written.
    """
    count = 0
    n, natural_order = n_rows(X), np.empty(0, dtype=np.intp)
    for i in range(n):
        prefetch_ahead(X, natural_order, i, n, w)
        if sw[i] != 0.0 and y[i] * (row_dot(X, i, w) + b) <= 0.0:
            out[count] = i
            count += 1
    return count


@jit
def update_row(X, i, w, step):
    """``w += step * x_i`` (the single update of PLA, driven from Python)."""
    row_axpy(X, i, w, step)


@jit
def decision_function(X, coef, intercept):
    """``X @ coef.T + intercept`` accumulated in float64, one row after another,
    and how many of the scores are not finite (inf or NaN): counted as each is
    written, while it is in a register, instead of a second pass over the output.

    ``coef`` is (n_problems, n_features) float64; float32 ``X`` is read as is,
    never copied to float64.
    """
    n = n_rows(X)
    out = np.empty((n, coef.shape[0]))
    natural_order = np.empty(0, dtype=np.intp)
    not_finite = 0
    for k in range(coef.shape[0]):
        # one weight vector at a time, taken out of the row loop (measured faster than
        # a view made per row: a9a 0.24 -> 0.17 ms)
        w, b = coef[k], intercept[k]
        for i in range(n):
            prefetch_ahead(X, natural_order, i, n, w)
            score = row_dot(X, i, w) + b
            out[i, k] = score
            # not math.isfinite(score): that one is folded to False under reassoc
            not_finite += not abs(score) <= _LARGEST
    return out, not_finite


@jit(parallel=True)
def decision_function_parallel(X, coef, intercept):
    """:func:`decision_function` with the rows shared among numba's threads.

    Only call it from the main thread: numba's default (workqueue) threading
    layer aborts the process when two threads run parallel kernels at once.
    """
    n = n_rows(X)
    out = np.empty((n, coef.shape[0]))
    natural_order = np.empty(0, dtype=np.intp)
    not_finite = 0
    for k in range(coef.shape[0]):
        w, b = coef[k], intercept[k]
        for i in numba.prange(n):
            prefetch_ahead(X, natural_order, i, n, w)
            score = row_dot(X, i, w) + b
            out[i, k] = score
            not_finite += not abs(score) <= _LARGEST  # a reduction across the threads
    return out, not_finite


@jit
def activation(X, i, w, b):
    """``w·x_i + b`` for one row, summed as the training kernels sum it."""
    return row_dot(X, i, w) + b


@jit
def squared_loss(X, y, sw, w, b, start=0.0):
    """``E(w) = ½ Σ sw_i (y_i − w·x_i − b)²`` (the linear unit's loss), added to
    ``start``, the loss of the rows before (the blocks of a file, each added in
    turn, give the loss of all their rows in memory, bit for bit: halving and
    doubling are exact)."""
    total = 2.0 * start
    n, natural_order = n_rows(X), np.empty(0, dtype=np.intp)
    for i in range(n):
        prefetch_ahead(X, natural_order, i, n, w)
        if sw[i] != 0.0:
            residual = y[i] - (row_dot(X, i, w) + b)
            total += sw[i] * residual * residual
    return 0.5 * total


@jit
def add_weighted_rows(X, c, out, fit_intercept):
    """``out[:d] += Σ_i c_i x_i`` and, with ``fit_intercept``, ``out[d] += Σ_i c_i``,
    the rows added one after the other: the blocks of a file, each added in turn
    into the same ``out``, give the sum over all their rows in memory, bit for bit."""
    d = out.shape[0] - (1 if fit_intercept else 0)
    for i in range(n_rows(X)):
        row_axpy(X, i, out, c[i])
        if fit_intercept:
            out[d] += c[i]
