"""The multiclass perceptron: one weight vector per class."""

import numpy as np
from numba.extending import register_jitable

from .._config import jit
from ._online import _log_step
from ._rows import epoch_length, epoch_row, row_axpy, row_dot, row_weight


@jit
def multiclass_epoch(X, y, sw, order, eta, margin, fit_intercept, weights, log, average):
    """One pass of the multiclass perceptron rule over the rows ``order``.

    ``y`` holds class indices. For row ``i`` of class ``c`` the scores are
    ``s_k = W_k·x + b_k``; ``ŷ`` is the best-scoring other class (the first on
    ties). A mistake is ``s_c − s_ŷ <= margin`` (ties count, as ``y a <= 0`` does
    for two classes) and moves ``W_c, b_c`` up and ``W_ŷ, b_ŷ`` down by ``eta sw_i``
    (``sw`` is ``None`` when every row weighs 1).

    weights = (W, b, seen), updated in place; ``log`` = (rows, margins,
    positions, predicted) or ``None``, as in :func:`~._online.online_epoch`, with
    the margin ``s_c − s_ŷ`` and the rival class ``ŷ``; ``average`` = (U, B) or
    ``None``: Daumé Alg. 7's cached weights (:func:`_average_step`). Returns the
    number of mistakes and the epoch's summed loss ``max(0, margin − (s_c − s_ŷ))``.

    The update of the running weights is written in the loop, as in
    :func:`~._online.online_epoch`: a helper shared with the averaging step
    measured 3-10 % slower.
    """
    W, b, seen = weights
    n_classes = W.shape[0]
    count = seen[0]
    n_mistakes = 0
    objective = 0.0
    for t in range(epoch_length(X, order)):
        i = epoch_row(order, t)
        if row_weight(sw, i) == 0.0:
            continue
        count += 1
        c = y[i]
        true_score = row_dot(X, i, W[c]) + b[c]
        rival, rival_score = -1, -np.inf
        for k in range(n_classes):
            if k != c:
                score = row_dot(X, i, W[k]) + b[k]
                if rival < 0 or score > rival_score:
                    rival, rival_score = k, score
        lead = true_score - rival_score
        if lead <= margin:
            objective += margin - lead
            step = eta * row_weight(sw, i)
            row_axpy(X, i, W[c], step)
            row_axpy(X, i, W[rival], -step)
            if fit_intercept:
                b[c] += step
                b[rival] -= step
            if average is not None:
                _average_step(X, i, average, c, rival, float(count) * step, fit_intercept)
            if log is not None:
                _log_step(log, n_mistakes, i, lead, count)
                log[3][n_mistakes] = rival
            n_mistakes += 1
    seen[0] = count
    return n_mistakes, objective


@register_jitable
def _average_step(X, i, average, true, rival, weighted_step, fit_intercept):
    """Daumé Alg. 7's cached weights, per class: the update of the running weights
    scaled by the example number ``c`` (``weighted_step`` is ``c · step``)."""
    U, B = average
    row_axpy(X, i, U[true], weighted_step)
    row_axpy(X, i, U[rival], -weighted_step)
    if fit_intercept:
        B[true] += weighted_step
        B[rival] -= weighted_step
