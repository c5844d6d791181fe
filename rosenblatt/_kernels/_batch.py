"""The batch perceptron rule of CISC 271 §30.2."""

import numpy as np

from .._config import jit
from ._rows import n_rows, row_axpy, row_dot


@jit
def batch_step(X, y, sw, w, b, eta, fit_intercept, rec_index, rec_activation):
    """One iteration of ``w <- w + eta X^T (y - q)`` over all rows at once.

    With {0,1} labels the residual ``e = y - q`` is 0 on a correct row and equals
    the ±1 label on a mistake, so the step is ``eta Σ_{mistakes} sw_i y_i x_i``
    (and ``eta Σ sw_i y_i`` for the bias), all computed with the weights at the
    start of the iteration. Returns the number of misclassified rows.
    """
    recording = rec_index.shape[0] > 0
    gradient = np.zeros(w.shape[0])
    bias_gradient = 0.0
    n_mistakes = 0
    for i in range(n_rows(X)):
        if sw[i] == 0.0:
            continue
        activation = row_dot(X, i, w) + b[0]
        if y[i] * activation <= 0.0:
            row_axpy(X, i, gradient, sw[i] * y[i])
            bias_gradient += sw[i] * y[i]
            if recording:
                rec_index[n_mistakes] = i
                rec_activation[n_mistakes] = activation
            n_mistakes += 1
    for j in range(w.shape[0]):
        w[j] += eta * gradient[j]
    if fit_intercept:
        b[0] += eta * bias_gradient
    return n_mistakes
