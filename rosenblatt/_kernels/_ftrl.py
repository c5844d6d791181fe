"""FTRL-Proximal (McMahan et al., KDD 2013, Algorithm 1): one compiled epoch, and the lazy weights.

Per coordinate ``i`` the state is ``z_i`` and ``n_i`` (both from 0); the weight is not
stored but computed from them when a row needs it:

    w_i = 0                                           if |z_i| <= λ1,
    w_i = −(z_i − sgn(z_i) λ1) / ((β + √n_i)/α + λ2)  otherwise.

For a row ``x`` with label ``y`` in {0, 1} (the kernel takes ±1 and reads +1 as 1):
``p = σ(w·x)``, and for each ``i`` with ``x_i ≠ 0``: ``g_i = (p − y) x_i``,
``σ_i = (√(n_i + g_i²) − √n_i)/α``, ``z_i += g_i − σ_i w_i``, ``n_i += g_i²``. Only
the row's non-zero coordinates are read or written, so an epoch costs the stored values,
whatever the width (2²⁰ hashed features, 40 per row).

Conventions of :mod:`._first_order` (``X`` dense or a CSR triplet, ``order``, ``sw``,
``log``, ``seen``, the returned ``(n_mistakes, n_updates)``), and:

- **The intercept** is the coordinate of a constant feature 1 with its own ``z_b`` and
  ``n_b`` (``(1,)`` arrays, untouched when ``fit_intercept`` is False); λ1 and λ2 do not
  apply to it (as scikit-learn leaves intercepts unpenalised).
- **Sample weights** multiply the gradient: ``g_i = sw (p − y) x_i`` (so ``n_i`` adds
  ``sw² (p − y)² x_i²``: the gradient of the weighted loss). A row of weight 0 is absent.
- ``p − y`` is computed as ``σ(f)`` for ``y = 0`` and ``−σ(−f)`` for ``y = 1``, each
  without the exponential of a large positive number: the same value as the paper's
  ``p − y``, without the cancellation of ``p − 1`` when ``p`` is close to 1.
- A **mistake** is ``y f <= 0`` with ``y`` in ±1 and ``f = w·x + b``, before the update;
  an **update** a row whose gradient ``p − y`` is not 0 (every row but those where
  ``σ`` rounds to the label exactly).
- ``σ_i w_i`` is 0 where ``w_i = 0`` (``|z_i| <= λ1``), and the kernel skips computing
  ``σ_i`` there: ``z_i + g_i − 0`` is ``z_i + g_i``.
"""

import math

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .._config import jit
from ._first_order import logistic_loss
from ._online import _log_step
from ._rows import (
    _prefetch_row_weights,
    epoch_length,
    epoch_row,
    prefetch_ahead,
    row_weight,
)

# ---------------------------------------------------------------------------------------------
# A walk over a row's stored values, written once for dense, CSR and binary CSR rows (the
# plain-Python bodies are what NUMBA_DISABLE_JIT=1 runs): positions start..stop, and at
# each the column and the value (as float64: float32 data is not squared in float32).


def row_span(X, i):
    """``(start, stop)``: the positions of row ``i``'s values (every column when dense)."""
    if isinstance(X, tuple):
        return X[2][i], X[2][i + 1]
    return 0, X.shape[1]


def row_entry(X, i, k):
    """``(column, value)`` at position ``k`` of row ``i`` (see :func:`row_span`)."""
    if isinstance(X, tuple):
        return X[1][k], (1.0 if X[0] is None else float(X[0][k]))
    return k, float(X[i, k])


@overload(row_span)
def _row_span_overload(X, i):
    if isinstance(X, types.BaseTuple):
        return lambda X, i: (X[2][i], X[2][i + 1])
    return lambda X, i: (0, X.shape[1])


@overload(row_entry)
def _row_entry_overload(X, i, k):
    if isinstance(X, types.BaseTuple):
        if isinstance(X[0], types.NoneType):
            return lambda X, i, k: (X[1][k], 1.0)
        return lambda X, i, k: (X[1][k], np.float64(X[0][k]))
    return lambda X, i, k: (k, np.float64(X[i, k]))


def prefetch_second(X, order, t, n, v):
    """:func:`._rows.prefetch_ahead`'s last stage for a second per-column array ``v``
    (FTRL reads ``z`` and ``n`` at every column of a row). Compiled away unless ``X``
    is a CSR triplet carrying a look-ahead."""


@overload(prefetch_second)
def _prefetch_second_overload(X, order, t, n, v):
    if isinstance(X, types.BaseTuple) and len(X) == 4:
        def ahead(X, order, t, n, v):
            _prefetch_row_weights(X, epoch_row(order, min(t + X[3], n - 1)), v)
        return ahead
    return lambda X, order, t, n, v: None


# ---------------------------------------------------------------------------------------------
# The rule


@register_jitable
def lazy_weight(z, n, alpha, beta, l1, l2):
    """``w_i`` from ``z_i`` and ``n_i`` (Algorithm 1's first line): 0 when
    ``|z_i| <= λ1``, else ``−(z_i − sgn(z_i) λ1) / ((β + √n_i)/α + λ2)``."""
    if abs(z) <= l1:
        return 0.0
    shrunk = z - l1 if z > 0.0 else z + l1
    return -shrunk / ((beta + math.sqrt(n)) / alpha + l2)


@register_jitable
def logistic_residual(y, f):
    """``p − y01`` with ``p = σ(f)`` and ``y01 = 1`` for ``y = +1``, ``0`` for ``y = −1``:
    the coefficient of ``x`` in the logistic loss's gradient."""
    if y > 0.0:  # p − 1 = −σ(−f)
        if f < 0.0:
            return -1.0 / (1.0 + math.exp(f))
        e = math.exp(-f)
        return -e / (1.0 + e)
    if f > 0.0:  # p = σ(f)
        return 1.0 / (1.0 + math.exp(-f))
    e = math.exp(f)
    return e / (1.0 + e)


@register_jitable
def _coordinate_step(z, n, j, g, w, alpha):
    """``σ = (√(n_j + g²) − √n_j)/α``, ``z_j += g − σ w_j``, ``n_j += g²``."""
    g2 = g * g
    if w != 0.0:
        sigma = (math.sqrt(n[j] + g2) - math.sqrt(n[j])) / alpha
        z[j] += g - sigma * w
    else:
        z[j] += g
    n[j] += g2


@jit
def ftrl_epoch(X, y, sw, order, alpha, beta, l1, l2, fit_intercept, weights, log, losses):
    """One pass of FTRL-Proximal with the logistic loss over the rows ``order``.

    weights = (z, n, z_b, n_b, seen): float64 ``(d,)``, ``(d,)``, ``(1,)``, ``(1,)`` and
    int64 ``(1,)``, all from 0, updated in place. ``alpha > 0``, ``beta, l1, l2 >= 0``.
    losses: float64 ``(2,)``, to which the epoch adds each row's weighted log-loss
    before its update and the row's weight (the progressive validation loss that
    Vowpal Wabbit reports, summed over the blocks of an epoch).
    Returns ``(n_mistakes, n_updates)``.
    """
    z, n, z_b, n_b, seen = weights
    count = seen[0]
    n_mistakes = 0
    n_updates = 0
    row_w = np.empty(64)  # the weights of the row's stored values, computed once per row
    rows = epoch_length(X, order)
    for t in range(rows):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, rows, z)
        prefetch_second(X, order, t, rows, n)
        s = row_weight(sw, i)
        if s == 0.0:
            continue
        count += 1
        start, stop = row_span(X, i)
        length = np.intp(stop - start)  # unsigned CSR positions: no mixed-sign arithmetic
        if length > row_w.shape[0]:
            row_w = np.empty(2 * length)
        f = 0.0
        for k in range(start, stop):
            j, x = row_entry(X, i, k)
            w = 0.0
            if x != 0.0:
                w = lazy_weight(z[j], n[j], alpha, beta, l1, l2)
                f += w * x
            row_w[k - start] = w
        w_b = 0.0
        if fit_intercept:
            w_b = lazy_weight(z_b[0], n_b[0], alpha, beta, 0.0, 0.0)
            f += w_b
        if y[i] * f <= 0.0:
            n_mistakes += 1
        losses[0] += s * logistic_loss(y[i] * f)  # progressive: before the update
        losses[1] += s
        g = s * logistic_residual(y[i], f)
        if g != 0.0:
            for k in range(start, stop):
                j, x = row_entry(X, i, k)
                if x != 0.0:
                    _coordinate_step(z, n, j, g * x, row_w[k - start], alpha)
            if fit_intercept:
                _coordinate_step(z_b, n_b, 0, g, w_b, alpha)
            if log is not None:
                _log_step(log, n_updates, i, f, count)
            n_updates += 1
    seen[0] = count
    return n_mistakes, n_updates


@jit
def ftrl_weights(z, n, alpha, beta, l1, l2):
    """The lazy weights of every coordinate (what the model publishes): the
    :func:`lazy_weight` the epoch computes for a row's coordinates, for all of them."""
    w = np.zeros(z.shape[0])
    for j in range(z.shape[0]):
        w[j] = lazy_weight(z[j], n[j], alpha, beta, l1, l2)
    return w
