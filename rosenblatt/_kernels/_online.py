"""Online (one example at a time) epochs: the perceptron, its variants, the linear unit.

One loop serves the vanilla, pocket, averaged and voted perceptrons and the
linear unit's stochastic gradient descent. The textbook rule is the six lines in
the middle; what a variant keeps besides the running weights is a named optional
step, switched off by passing ``None`` (numba then compiles the loop without it).
"""

from numba.extending import register_jitable

from .._config import jit
from ._penalty import (
    L1_STEP,
    TRACKS,
    decay,
    end_example,
    fold,
    regularisation,
    scaled_axpy,
    scaled_dot,
    truncate,
)
from ._rows import (
    check_underflow,
    epoch_length,
    epoch_row,
    prefetch_ahead,
    row_axpy,
    row_dot,
    row_weight,
)
from ._scoring import weighted_errors


@jit
def online_epoch(X, y, sw, order, eta, fit_intercept, rule, weights, log, average, pocket,
                 penalty):
    """One pass of an online rule over the rows ``order`` (Daumé Alg. 5).

    For each row ``i``: ``a = w·x_i + b`` and the residual
    ``e = rule.residual(y_i, a, ‖x_i‖²)`` (see :mod:`._residuals`); when
    ``e != 0``, ``w += eta sw_i e x_i`` and ``b += eta sw_i e``. For the
    perceptron ``e`` is ``y_i`` on a mistake (``y_i a <= margin``) and 0
    otherwise. Rows with zero weight (and rows the rule skips) are passed over
    as if absent: they neither update nor count as examples. ``sw`` is ``None``
    when every row weighs 1 (see :func:`~._rows.row_weight`).

    weights = (w, b, seen)
        float64 weights (n_features,), bias (1,), and int64 ``seen[0]``, the
        number of examples processed so far (over every epoch and call); all
        updated in place.
    log = (rows, activations, positions) or None
        See :func:`_log_step`.
    average = (u, beta) or None
        See :func:`_average_step`.
    pocket = (w, b, errors, check) or None
        See :func:`_pocket_step`.
    penalty = Penalty(params, scalars, q) or None
        scikit-learn's L2/L1 regularisation; ``w`` is then kept as ``s · v``
        (see :mod:`._penalty`).

    Returns ``(updates, objective)``: the number of rows with a non-zero
    residual, and the sum over the epoch's examples of ``rule.loss`` (plus the
    regularisation term, with a penalty) at the time each was met, which is
    scikit-learn's stopping criterion (unweighted, as there).
    """
    w, b, seen = weights
    # the bias and the example count live in registers during the loop
    bias, count = b[0], seen[0]
    n_updates = 0
    objective = 0.0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        sqnorm = rule.sqnorm(X, i)
        if rule.skips(sqnorm):
            check_underflow(X, i)  # x = 0 only: skipped, τ = ℓ/0 has no direction
            continue
        count += 1
        dot = row_dot(X, i, w)
        activation = (dot if penalty is None else scaled_dot(dot, penalty)) + bias
        objective += rule.loss(y[i], activation)
        if penalty is not None:
            if penalty.params[TRACKS] != 0.0:  # the norms are kept only when tol needs them
                objective += regularisation(penalty)
            decay(w, average, penalty)
        e = rule.residual(y[i], activation, sqnorm)
        if e != 0.0:
            step = eta * row_weight(sw, i) * e
            if penalty is None:
                row_axpy(X, i, w, step)
            else:
                scaled_axpy(X, i, w, step, average, penalty)
            if fit_intercept:
                bias += step
            if average is not None:
                _average_step(X, i, average, float(count) * step, fit_intercept, penalty)
            if log is not None:
                _log_step(log, n_updates, i, activation, count)
            n_updates += 1
            if pocket is not None:
                _pocket_step(w, bias, pocket)
        if penalty is not None:
            if penalty.params[L1_STEP] > 0.0:
                truncate(X, i, w, average, penalty)
            end_example(penalty)
    if penalty is not None:
        fold(w, average, penalty)
    b[0], seen[0] = bias, count
    return n_updates, objective


@register_jitable
def _average_step(X, i, average, weighted_step, fit_intercept, penalty):
    """Daumé Alg. 7's cached weights: on an update at example number ``c``,
    ``u += c · step · x`` and ``β += c · step``; ``weighted_step`` is ``c · step``.
    The mean of the weights then costs nothing on correct examples. (With a
    penalty, ``u`` is kept by the update itself: see :mod:`._penalty`.)"""
    u, beta = average
    if penalty is None:
        row_axpy(X, i, u, weighted_step)
    if fit_intercept:
        beta[0] += weighted_step


@register_jitable
def _log_step(log, k, i, value, position):
    """The ``k``-th update of the epoch: its row, activation (or margin), and
    example number (1-based, over every epoch). Read by the trace and the vote."""
    rows, values, positions = log[0], log[1], log[2]
    rows[k] = i
    values[k] = value
    positions[k] = position


@register_jitable
def _pocket_step(w, bias, pocket):
    """Gallant 1990: count the weighted training mistakes of the new weights on the
    rows ``check = (X, y, sw)`` (the training rows, or a fixed sample of them) and
    pocket them if strictly fewer than the pocket's. The count stops once it
    reaches the pocket's, since such weights cannot replace it."""
    pocket_w, pocket_b, pocket_errors, check = pocket
    errors = weighted_errors(check[0], check[1], check[2], w, bias, pocket_errors[0])
    if errors < pocket_errors[0]:
        pocket_w[:] = w
        pocket_b[0] = bias
        pocket_errors[0] = errors
