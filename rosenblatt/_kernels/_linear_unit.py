"""The linear unit (Adaline): squared loss on the unthresholded output."""

import numpy as np

from .._config import jit
from ._rows import epoch_length, epoch_row, n_rows, row_axpy, row_dot


@jit
def linear_unit_sgd_epoch(X, y, sw, order, eta, fit_intercept, w, b):
    """One pass of stochastic gradient descent on ``½ Σ sw (y − o)²``, ``o = w·x + b``.

    Each row: ``w += eta sw_i (y_i − o_i) x_i`` and ``b += eta sw_i (y_i − o_i)``
    (Ahmed & Pavlu's stochastic algorithm). Returns the number of updates (rows
    with a non-zero residual).
    """
    updates = 0
    for t in range(epoch_length(X, order)):
        i = epoch_row(order, t)
        if sw[i] == 0.0:
            continue
        residual = y[i] - (row_dot(X, i, w) + b[0])
        if residual != 0.0:
            step = eta * sw[i] * residual
            row_axpy(X, i, w, step)
            if fit_intercept:
                b[0] += step
            updates += 1
    return updates


@jit
def linear_unit_batch_step(X, y, sw, eta, fit_intercept, w, b):
    """One step of batch gradient descent: ``w += eta Σ sw_i (y_i − o_i) x_i``."""
    gradient = np.zeros(w.shape[0])
    bias_gradient = 0.0
    for i in range(n_rows(X)):
        if sw[i] == 0.0:
            continue
        residual = sw[i] * (y[i] - (row_dot(X, i, w) + b[0]))
        row_axpy(X, i, gradient, residual)
        bias_gradient += residual
    for j in range(w.shape[0]):
        w[j] += eta * gradient[j]
    if fit_intercept:
        b[0] += eta * bias_gradient


@jit
def squared_loss(X, y, sw, w, b):
    """``E(w) = ½ Σ sw_i (y_i − w·x_i − b)²``."""
    total = 0.0
    for i in range(n_rows(X)):
        if sw[i] != 0.0:
            residual = y[i] - (row_dot(X, i, w) + b)
            total += sw[i] * residual * residual
    return 0.5 * total
