"""The kernel perceptron's epoch in dual form, over a cache of kernel columns."""

import numpy as np

from .._config import jit


@jit
def dual_scan(order, start, y, sw, f, intercept, cache, fit_intercept, log, counters):
    """Run the perceptron rule on ``f`` over ``order[start:]`` until a mistake
    falls on a row whose kernel column is not in the cache.

    ``f`` holds the current function on every row; a mistake on row ``i`` (``sw_i
    > 0`` and ``y_i f_i <= 0``) adds ``sw_i y_i (K(X, x_i) + 1)`` to it (the 1 for
    the bias, when ``fit_intercept``, which also adds ``sw_i y_i`` to
    ``intercept[0]``), where ``K(X, x_i)`` is ``columns[column_of[i]]``. Rows of
    zero weight are passed over as absent. ``cache = (columns, column_of,
    last_used)``; a column used at example number ``s`` gets ``last_used = s``.

    log = (rows, steps, positions)
        Filled from ``counters[0]`` on with each mistake: its row, ``sw_i y_i``,
        and its example number (``counters[1]`` counts the examples met, over
        every epoch and call).
    counters = [mistakes logged, examples met]  (int64, updated in place)

    Returns ``(t, loss)``: the position in ``order`` of the row whose column is
    needed (``len(order)`` when the scan reached the end), not yet counted as
    met; and the perceptron loss ``−y_i f_i`` summed over the mistakes made.
    """
    columns, column_of, last_used = cache
    rows, steps, positions = log
    n_logged, seen = counters[0], counters[1]
    bias = 1.0 if fit_intercept else 0.0
    loss = 0.0
    b = intercept[0]
    for t in range(start, order.shape[0]):
        i = order[t]
        if sw[i] <= 0.0:
            continue
        activation = y[i] * f[i]
        if activation <= 0.0:
            slot = column_of[i]
            if slot < 0:
                counters[0], counters[1], intercept[0] = n_logged, seen, b
                return t, loss
            seen += 1
            loss -= activation
            step = sw[i] * y[i]
            last_used[slot] = seen
            column = columns[slot]
            for r in range(f.shape[0]):
                f[r] += step * (column[r] + bias)
            if fit_intercept:
                b += step
            rows[n_logged], steps[n_logged], positions[n_logged] = i, step, seen
            n_logged += 1
        else:
            seen += 1
    counters[0], counters[1], intercept[0] = n_logged, seen, b
    return order.shape[0], loss


@jit
def dual_dry_run(rows, y, sw, f, gram, fit_intercept, mistaken):
    """Which of ``rows`` (consecutive in an epoch's order) the rule will get wrong,
    from ``f`` now and the kernel values among them, ``gram = K(X[rows], X[rows])``:
    the scan of :func:`dual_scan` on these rows alone. Writes the positions of the
    mistakes into ``mistaken`` and returns how many, so that their kernel columns
    can be computed together before the real scan needs them."""
    local = np.empty(rows.shape[0])
    for a in range(rows.shape[0]):
        local[a] = f[rows[a]]
    bias = 1.0 if fit_intercept else 0.0
    count = 0
    for a in range(rows.shape[0]):
        i = rows[a]
        if sw[i] > 0.0 and y[i] * local[a] <= 0.0:
            mistaken[count] = a
            count += 1
            step = sw[i] * y[i]
            for b in range(a + 1, rows.shape[0]):
                local[b] += step * (gram[b, a] + bias)
    return count
