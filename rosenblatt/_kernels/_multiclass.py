"""The multiclass perceptron: one weight vector per class."""

import numpy as np

from .._config import jit
from ._rows import epoch_length, epoch_row, row_axpy, row_dot


@jit
def multiclass_epoch(X, y, sw, order, eta, fit_intercept, state, record, cache):
    """One pass of the multiclass perceptron rule over the rows ``order``.

    ``y`` holds class indices. For row ``i`` of class ``c`` the scores are
    ``s_k = W_k·x + b_k``; ``ŷ`` is the best-scoring other class (the first on
    ties). A mistake is ``s_c <= s_ŷ`` (ties count, as ``y a <= 0`` does for two
    classes) and updates ``W_c += eta sw_i x``, ``W_ŷ -= eta sw_i x`` (and the
    biases by ``± eta sw_i``).

    state = (W, b, seen), record = (rows, margins, positions, predicted) and
    cache = (U, B) as in :func:`perceptron_epoch` (``margins`` are
    ``s_c - s_ŷ``, ``predicted`` the ``ŷ``); empty arrays switch recording and
    caching off. Returns the number of mistakes.
    """
    W, b, seen = state
    rows, margins, positions, predicted = record
    U, B = cache
    recording = rows.shape[0] > 0
    caching = U.shape[0] > 0
    n_classes = W.shape[0]
    n_mistakes = 0
    for t in range(epoch_length(X, order)):
        i = epoch_row(order, t)
        if sw[i] == 0.0:
            continue
        seen[0] += 1
        c = y[i]
        true_score = row_dot(X, i, W[c]) + b[c]
        rival, rival_score = -1, -np.inf
        for k in range(n_classes):
            if k != c:
                score = row_dot(X, i, W[k]) + b[k]
                if rival < 0 or score > rival_score:
                    rival, rival_score = k, score
        if true_score <= rival_score:
            step = eta * sw[i]
            row_axpy(X, i, W[c], step)
            row_axpy(X, i, W[rival], -step)
            if fit_intercept:
                b[c] += step
                b[rival] -= step
            if caching:
                weight = float(seen[0]) * step
                row_axpy(X, i, U[c], weight)
                row_axpy(X, i, U[rival], -weight)
                if fit_intercept:
                    B[c] += weight
                    B[rival] -= weight
            if recording:
                rows[n_mistakes] = i
                margins[n_mistakes] = true_score - rival_score
                positions[n_mistakes] = seen[0]
                predicted[n_mistakes] = rival
            n_mistakes += 1
    return n_mistakes
