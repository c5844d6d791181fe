"""Online (one example at a time) epochs: the perceptron, optionally with a pocket."""

from .._config import jit
from ._rows import row_axpy, row_dot
from ._scoring import weighted_errors


@jit
def perceptron_epoch(
    X, y, sw, order, w, b, eta, fit_intercept, rec_index, rec_activation,
    pocket_w, pocket_b, pocket_errors,
):
    """One pass of the perceptron rule over the rows ``order`` (Daumé Alg. 5).

    For each row ``i``: ``a = w·x_i + b``; a mistake is ``y_i a <= 0``, and it
    updates ``w += eta sw_i y_i x_i`` and ``b += eta sw_i y_i``. Rows with zero
    weight are skipped: they can neither update nor count as mistakes.

    ``w`` (float64, n_features) and ``b`` (float64, shape (1,)) are updated in
    place. When ``rec_index`` is non-empty (length >= len(order)), the row and
    the activation of every mistake are written there, in order.

    The pocket (Gallant 1990), when ``pocket_w`` is non-empty: after every
    update the weighted training mistakes of the new weights are counted, and
    if strictly fewer than ``pocket_errors[0]`` the weights are copied into
    ``pocket_w, pocket_b``. The count stops once it reaches the pocket's, since
    such weights cannot replace it.

    Returns the number of mistakes (updates) in the epoch.
    """
    recording = rec_index.shape[0] > 0
    pocketing = pocket_w.shape[0] > 0
    n_mistakes = 0
    for t in range(order.shape[0]):
        i = order[t]
        if sw[i] == 0.0:
            continue
        activation = row_dot(X, i, w) + b[0]
        if y[i] * activation <= 0.0:
            step = eta * sw[i] * y[i]
            row_axpy(X, i, w, step)
            if fit_intercept:
                b[0] += step
            if recording:
                rec_index[n_mistakes] = i
                rec_activation[n_mistakes] = activation
            n_mistakes += 1
            if pocketing:
                errors = weighted_errors(X, y, sw, w, b[0], pocket_errors[0])
                if errors < pocket_errors[0]:
                    pocket_w[:] = w
                    pocket_b[0] = b[0]
                    pocket_errors[0] = errors
    return n_mistakes
