"""Batch epochs: one step from all rows at once (CISC 271 §30.2; Ahmed & Pavlu §3)."""

from .._config import jit
from ._online import _log_step
from ._rows import n_rows, row_axpy, row_dot


@jit
def batch_gradient(X, y, sw, rule, w, b, log, gradient, sums):
    """Add ``Σ_i sw_i e_i x_i`` to ``gradient`` and ``Σ_i sw_i e_i`` to
    ``sums[0]``, with every residual ``e_i = rule.residual(y_i, a_i)`` taken at
    the weights ``w, b`` (unchanged); returns the number of rows with a
    non-zero residual.

    ``log`` (or ``None``) receives those rows and their activations, as in
    :func:`~._online.online_epoch` (example numbers are 0: a step has no order).
    The rows are added one after the other into the same sums, so the blocks of
    a file, each added in turn, give the sums of all their rows in memory, bit
    for bit.
    """
    bias_gradient = sums[0]
    n_nonzero = 0
    for i in range(n_rows(X)):
        if sw[i] == 0.0:
            continue
        activation = row_dot(X, i, w) + b[0]
        e = rule.residual(y[i], activation, 0.0)
        if e != 0.0:
            row_axpy(X, i, gradient, sw[i] * e)
            bias_gradient += sw[i] * e
            if log is not None:
                _log_step(log, n_nonzero, i, activation, 0)
            n_nonzero += 1
    sums[0] = bias_gradient
    return n_nonzero


@jit
def batch_step(eta, fit_intercept, w, b, gradient, sums):
    """One step ``w += eta Σ_i sw_i e_i x_i`` and ``b += eta Σ_i sw_i e_i`` from the
    sums of :func:`batch_gradient`.

    The batch perceptron (CISC 271 eq. 30.4, ``e = y − q``) and the linear unit's
    gradient descent (``e = y − o``) are this same step with another residual
    (see :mod:`._residuals`).
    """
    for j in range(w.shape[0]):
        w[j] += eta * gradient[j]
    if fit_intercept:
        b[0] += eta * sums[0]
