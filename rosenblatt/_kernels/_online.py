"""Online (one example at a time) epochs of the binary perceptron and its variants.

One loop serves the vanilla, pocket, averaged and voted perceptrons: they differ
only in what they keep besides the running weights, passed as optional arrays
(empty arrays switch a feature off, at the cost of one predictable branch per
mistake).
"""

from .._config import jit
from ._rows import epoch_length, epoch_row, row_axpy, row_dot
from ._scoring import weighted_errors


@jit
def perceptron_epoch(X, y, sw, order, eta, fit_intercept, state, record, cache, pocket):
    """One pass of the perceptron rule over the rows ``order`` (Daumé Alg. 5).

    For each row ``i``: ``a = w·x_i + b``; a mistake is ``y_i a <= 0``, and it
    updates ``w += eta sw_i y_i x_i`` and ``b += eta sw_i y_i``. Rows with zero
    weight are skipped as if absent: they neither update nor count as examples.

    state = (w, b, seen)
        float64 weights (n_features,), bias (1,), and int64 ``seen[0]``, the
        number of examples processed so far (over every epoch and call).
    record = (rows, activations, positions)
        When non-empty (length >= len(order)): for each mistake in order, the
        row, its activation, and its example number ``seen`` (1-based).
    cache = (u, beta)
        When non-empty: Daumé Alg. 7's cached weights, ``u += c step x`` and
        ``beta += c step`` on each mistake, ``c`` the example number (1-based).
    pocket = (w, b, errors)
        When non-empty: after every update the weighted training mistakes of the
        new weights are counted, and if strictly fewer than ``errors[0]`` the
        weights are copied there (Gallant 1990). The count stops once it reaches
        the pocket's, since such weights cannot replace it.

    Returns the number of mistakes (updates) in the epoch.
    """
    w, b, seen = state
    rows, activations, positions = record
    u, beta = cache
    pocket_w, pocket_b, pocket_errors = pocket
    recording = rows.shape[0] > 0
    caching = u.shape[0] > 0
    pocketing = pocket_w.shape[0] > 0
    # the bias and the example count live in registers during the loop
    bias, count = b[0], seen[0]
    n_mistakes = 0
    for t in range(epoch_length(X, order)):
        i = epoch_row(order, t)
        if sw[i] == 0.0:
            continue
        count += 1
        activation = row_dot(X, i, w) + bias
        if y[i] * activation <= 0.0:
            step = eta * sw[i] * y[i]
            row_axpy(X, i, w, step)
            if fit_intercept:
                bias += step
            if caching:
                c = float(count)
                row_axpy(X, i, u, c * step)
                if fit_intercept:
                    beta[0] += c * step
            if recording:
                rows[n_mistakes] = i
                activations[n_mistakes] = activation
                positions[n_mistakes] = count
            n_mistakes += 1
            if pocketing:
                errors = weighted_errors(X, y, sw, w, bias, pocket_errors[0])
                if errors < pocket_errors[0]:
                    pocket_w[:] = w
                    pocket_b[0] = bias
                    pocket_errors[0] = errors
    b[0], seen[0] = bias, count
    return n_mistakes
