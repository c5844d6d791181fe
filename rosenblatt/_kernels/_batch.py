"""Batch epochs: one step from all rows at once (CISC 271 §30.2; Ahmed & Pavlu §3)."""

import numpy as np

from .._config import jit
from ._online import _log_step
from ._rows import n_rows, row_axpy, row_dot


@jit
def batch_gradient(X, y, sw, rule, w, b, log):
    """``(Σ_i sw_i e_i x_i, Σ_i sw_i e_i, n)`` with every residual
    ``e_i = rule.residual(y_i, a_i)`` taken at the weights ``w, b`` (unchanged).

    ``n`` counts the rows with a non-zero residual; ``log`` (or ``None``) receives
    those rows and their activations, as in :func:`~._online.online_epoch`
    (example numbers are 0: a step has no order). A sum over a block of rows:
    the sums of several blocks add up to the sum over all of them.
    """
    gradient = np.zeros(w.shape[0])
    bias_gradient = 0.0
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
    return gradient, bias_gradient, n_nonzero


@jit
def batch_epoch(X, y, sw, eta, fit_intercept, rule, w, b, log):
    """One step ``w += eta Σ_i sw_i e_i x_i`` and ``b += eta Σ_i sw_i e_i`` (see
    :func:`batch_gradient`); returns the number of rows with a non-zero residual.

    The batch perceptron (CISC 271 eq. 30.4, ``e = y − q``) and the linear unit's
    gradient descent (``e = y − o``) are this same loop with another residual
    (see :mod:`._residuals`).
    """
    gradient, bias_gradient, n_nonzero = batch_gradient(X, y, sw, rule, w, b, log)
    for j in range(w.shape[0]):
        w[j] += eta * gradient[j]
    if fit_intercept:
        b[0] += eta * bias_gradient
    return n_nonzero
