"""First-order online rules of the online family: one compiled epoch per rule.

Each rule keeps a weight vector (a matrix for the multiclass rule) and changes it
one row at a time, from ``f = w·x`` (``design/online-family.md`` gives the exact
updates; the papers win where LIBOL differs):

- ROMMA (Li & Long, *Machine Learning* 2002): on a mistake (aggressive: on
  ``y f < 1``) the shortest ``w`` with ``w·w_t >= ‖w_t‖²`` and ``y w·x >= 1``:
  ``y x/‖x‖²`` when ``w_t = 0`` or ``‖x‖²‖w_t‖² <= y f``, else, with
  ``A = ‖x‖²‖w_t‖²`` and ``D = A − f²``, ``((A − y f) w_t + ‖w_t‖² (y − f) x)/D``.
- ALMA_p (Gentile, *JMLR* 2001): ``x̂ = x/‖x‖_p``, ``γ_k = B √(p−1)/√k``; when
  ``y w·x̂ <= (1 − α) γ_k``, a step ``C/(√(p−1) √k) y x̂`` in the dual space
  (``w' = g_p(g_q(w) + step)``), then back into the unit q-ball
  (``w = w'/max(1, ‖w'‖_q)``) and ``k += 1``.
- Online gradient descent (Zinkevich, ICML 2003; LIBOL ``OGD.m``):
  ``w += η_t · g x`` with ``g = −∂loss/∂f`` for the hinge, logistic, squared or
  perceptron loss; ``t`` counts every row met and ``η_t`` is one of scikit-learn's
  schedules (``η/√t`` by default); optionally with scikit-learn's penalty
  (:mod:`._penalty`) and the mean of the weights (Daumé's cached sums).
- Winnow2 (Littlestone, *Machine Learning* 1988): on ``y (w·x − θ) <= 0``,
  ``w_i *= α^(y x_i)``. Balanced Winnow (ibid.; Grove, Littlestone & Schuurmans,
  *Machine Learning* 2001): ``w = u − v``, ``u_i *= α^(y x_i)``, ``v_i *= α^(−y x_i)``.
- The p-norm perceptron (Grove et al. 2001; Gentile, *Machine Learning* 2003):
  ``θ`` sums ``y x`` over the mistakes, ``w = g_p(θ)`` (``p = 2``: the perceptron).
- Multiclass passive-aggressive (Crammer et al., *JMLR* 2006, §7): with ``s`` the
  best-scoring wrong class and ``m = F_y − F_s``, ``τ = ℓ/(2‖x‖²)`` (PA),
  ``min(C, ℓ/(2‖x‖²))`` (PA-I) or ``ℓ/(2‖x‖² + 1/(2C))`` (PA-II) for the hinge loss
  ``ℓ = max(0, 1 − m)``; ``W_y += τ x``, ``W_s −= τ x``.

Here ``g_r(t)_i = sign(t_i) |t_i|^(r−1) / ‖t‖_r^(r−2)`` (0 at ``t = 0``) is the
gradient of ``‖t‖_r²/2``; ``g_p`` and ``g_q`` (``1/p + 1/q = 1``) are each other's
inverse, and ``g_2`` is the identity.

Conventions shared with :func:`~._online.online_epoch`: ``X`` is a dense
C-contiguous array or a CSR triplet (see :mod:`._rows`); ``order`` an intp
array, empty for the natural order; ``y`` float64 ±1 (class indices for the
multiclass rule). The state is a tuple of arrays updated in place, so that the
next call resumes exactly where this one stopped (``partial_fit``); ``seen`` is
an int64 ``(1,)`` counter of the examples met over every epoch and call.

- **A mistake** is ``y f <= 0`` (``m <= 0`` for the multiclass rule), counted
  before the update; an **update** is a row whose step was applied (its step
  coefficient non-zero, as :func:`~._online.online_epoch` counts them), even when
  ``x = 0`` makes it change nothing. Each kernel returns
  ``(n_mistakes, n_updates)`` for the epoch.
- **The intercept** is the weight of a constant feature 1 appended to every row
  (the note's definition): it enters ``f``, every norm (``‖x‖² + 1``,
  ``‖(w, b)‖_q``, ...), the links ``g_r`` and the updates, exactly as a column of
  ones would. It lives in a ``(1,)`` array ``b``, untouched when
  ``fit_intercept`` is False.
- **Sample weights** ``sw`` (``None``: every row weighs 1). A row of weight 0 is
  skipped as if absent: no update, no mistake, not counted in ``seen`` (nor in
  OGD's ``t``, nor in ALMA's ``k``). Otherwise the weight multiplies the step
  where the rule has one: OGD's ``η_t g``, ALMA's ``η_k`` (the ``C`` term),
  the p-norm perceptron's ``θ += sw y x``, Winnow's exponent ``α^(sw y x_i)``
  (both vectors of Balanced Winnow), the multiclass ``τ``. ROMMA has no step
  (its update is a projection), so it uses only whether a weight is 0.
- **Rows with nothing to move along**: ROMMA, ALMA and multiclass PA/PA-I skip
  a row with ``x = 0`` (the appended 1 included) as if absent, as
  :mod:`._residuals` does for PA; PA-II, OGD, Winnow and the p-norm perceptron
  apply their (null) update to it like to any row.
- **log** = ``(rows, activations, positions)`` or ``None`` (multiclass:
  ``(rows, margins, positions, rivals)``): the ``k``-th update of the epoch, its
  row, the decision value ``f`` before the update (Winnow: ``w·x + b − θ``;
  multiclass: ``m`` and the rival class ``s``) and its example number (1-based,
  from ``seen``); see :func:`~._online._log_step`. Arrays at least as long as the
  epoch.

ALMA and the p-norm perceptron work on the whole weight vector at each update
(their ``g_r`` renormalises every component); the others touch only the row's
stored values (ROMMA rescales ``w`` too, by a scale it keeps apart).
"""

import math

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from .._config import jit
from ._online import _average_step, _log_step
from ._penalty import (
    DECAY,
    L1_STEP,
    decay,
    end_example,
    fold,
    scaled_axpy,
    scaled_dot,
    truncate,
)
from ._rows import (
    epoch_length,
    epoch_row,
    prefetch_ahead,
    check_underflow,
    row_axpy,
    row_dot,
    row_weight,
)

#: OnlineGradientDescent's ``loss``, as the integer the kernel takes
OGD_LOSSES = {"hinge": 0, "logistic": 1, "squared": 2, "perceptron": 3}
HINGE, LOGISTIC, SQUARED, PERCEPTRON_LOSS = 0, 1, 2, 3

#: OnlineGradientDescent's ``learning_rate`` (scikit-learn's names), as the kernel's integer
OGD_SCHEDULES = {"constant": 0, "optimal": 1, "invscaling": 2, "adaptive": 3}
CONSTANT, OPTIMAL, INVSCALING, ADAPTIVE = 0, 1, 2, 3
#: positions after :mod:`._penalty`'s own in OGD's ``Penalty.params``: the L2 shrink
#: and the L1 step per unit of step size, ``(1 − ρ) α`` and ``ρ α``
L2_RATE, L1_RATE = 5, 6

#: MulticlassPassiveAggressive's ``variant``, as the integer the kernel takes
PA_VARIANTS = {"pa": 0, "pa1": 1, "pa2": 2}
PA, PA1, PA2 = 0, 1, 2

#: ROMMA leaves ``w`` alone when ``D = A − f² <= ROMMA_TOLERANCE · A``: ``x`` is then
#: (numerically) parallel to ``w`` and the two constraints have no common point.
ROMMA_TOLERANCE = 1e-12
#: ROMMA recomputes ``‖w‖²`` from the weights when the rescalings since the last time
#: have multiplied its rounding error by this much (see :func:`romma_epoch`)
ROMMA_REFRESH = 100.0


# ---------------------------------------------------------------------------------------------
# Row primitives this file needs besides those of ._rows, written the same way: a
# plain-Python body (what NUMBA_DISABLE_JIT=1 runs) and an overload choosing the dense,
# CSR or binary-CSR twin at compile time. Stored values are read as np.float64: float32
# data would otherwise be squared, divided or raised to a power in float32 (numba's
# float() keeps float32, and so does NumPy's arithmetic with Python floats).

@register_jitable
def _dense_sqnorm64(X, i):
    total = 0.0
    for j in range(X.shape[1]):
        value = np.float64(X[i, j])
        total += value * value
    return total


@register_jitable
def _csr_sqnorm64(X, i):
    data, indptr = X[0], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        value = np.float64(data[k])
        total += value * value
    return total


@register_jitable
def _binary_csr_sqnorm64(X, i):
    indptr = X[2]
    return float(indptr[i + 1] - indptr[i])


def row_sqnorm64(X, i):
    """``‖x_i‖²`` with every square taken in float64. (``._rows.row_sqnorm`` squares
    float32 values in float32, a relative error of ~1e-7 that ROMMA's ``D = A − f²``
    can amplify.)"""
    if isinstance(X, tuple):
        return (_binary_csr_sqnorm64 if X[0] is None else _csr_sqnorm64)(X, i)
    return _dense_sqnorm64(X, i)


# The CSR sums are compiled without reassociation, as ._rows compiles its CSR dot:
# the binary twins then give the very bits of the twins that read the ones.

@overload(row_sqnorm64, jit_options={"fastmath": False})
def _row_sqnorm64_csr_overload(X, i):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_sqnorm64 if isinstance(X[0], types.NoneType) else _csr_sqnorm64
    return None


@overload(row_sqnorm64)
def _row_sqnorm64_dense_overload(X, i):
    if not isinstance(X, types.BaseTuple):
        return _dense_sqnorm64
    return None


@register_jitable
def _dense_pnorm(X, i, p, extra):
    if p == 2.0:
        return math.sqrt(row_sqnorm64(X, i) + extra * extra)
    largest = abs(extra)
    for j in range(X.shape[1]):
        largest = max(largest, abs(np.float64(X[i, j])))
    if largest == 0.0:
        return 0.0
    total = (abs(extra) / largest) ** p
    for j in range(X.shape[1]):
        if X[i, j] != 0.0:
            total += (abs(np.float64(X[i, j])) / largest) ** p
    return largest * total ** (1.0 / p)


@register_jitable
def _csr_pnorm(X, i, p, extra):
    if p == 2.0:
        return math.sqrt(row_sqnorm64(X, i) + extra * extra)
    data, indptr = X[0], X[2]
    largest = abs(extra)
    for k in range(indptr[i], indptr[i + 1]):
        largest = max(largest, abs(np.float64(data[k])))
    if largest == 0.0:
        return 0.0
    total = (abs(extra) / largest) ** p
    for k in range(indptr[i], indptr[i + 1]):
        if data[k] != 0.0:
            total += (abs(np.float64(data[k])) / largest) ** p
    return largest * total ** (1.0 / p)


@register_jitable
def _binary_csr_pnorm(X, i, p, extra):
    # every stored value is 1, and extra is 0 or 1: no scaling needed
    indptr = X[2]
    return (float(indptr[i + 1] - indptr[i]) + abs(extra) ** p) ** (1.0 / p)


def row_pnorm(X, i, p, extra):
    """``‖(x_i, extra)‖_p``: the p-norm of row ``i`` with one more component
    (``extra`` = 1 for the intercept's constant feature, else 0), scaled by its
    largest component so that ``|x|^p`` neither overflows nor underflows."""
    if isinstance(X, tuple):
        return (_binary_csr_pnorm if X[0] is None else _csr_pnorm)(X, i, p, extra)
    return _dense_pnorm(X, i, p, extra)


@overload(row_pnorm, jit_options={"fastmath": False})
def _row_pnorm_csr_overload(X, i, p, extra):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_pnorm if isinstance(X[0], types.NoneType) else _csr_pnorm
    return None


@overload(row_pnorm)
def _row_pnorm_dense_overload(X, i, p, extra):
    if not isinstance(X, types.BaseTuple):
        return _dense_pnorm
    return None


#: The smallest positive float64. Winnow's weights start positive and the rule
#: only multiplies them, so they stay positive; a demotion that underflows would
#: make a weight 0, from which no promotion brings it back (the feature dead for
#: good, silently). The floor keeps the invariant: a weight this small adds nothing
#: a float64 score can show, and the next promotion moves it again.
SMALLEST_WEIGHT = 5e-324


@register_jitable
def _dense_scale_pow(X, i, w, base, exponent):
    for j in range(X.shape[1]):
        if X[i, j] != 0.0:  # base ** 0 is 1: only the row's non-zeros move
            w[j] = max(w[j] * base ** (exponent * np.float64(X[i, j])), SMALLEST_WEIGHT)


@register_jitable
def _csr_scale_pow(X, i, w, base, exponent):
    data, indices, indptr = X[0], X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        w[j] = max(w[j] * base ** (exponent * np.float64(data[k])), SMALLEST_WEIGHT)


@register_jitable
def _binary_csr_scale_pow(X, i, w, base, exponent):
    indices, indptr = X[1], X[2]
    factor = base ** exponent  # the same for every stored 1
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        w[j] = max(w[j] * factor, SMALLEST_WEIGHT)


def row_scale_pow(X, i, w, base, exponent):
    """``w_j *= base ** (exponent · x_ij)`` in place (Winnow's multiplicative update)."""
    if isinstance(X, tuple):
        (_binary_csr_scale_pow if X[0] is None else _csr_scale_pow)(X, i, w, base, exponent)
    else:
        _dense_scale_pow(X, i, w, base, exponent)


@overload(row_scale_pow)
def _row_scale_pow_overload(X, i, w, base, exponent):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_scale_pow if isinstance(X[0], types.NoneType) else _csr_scale_pow
    return _dense_scale_pow


@register_jitable
def _dense_dot_diff(X, i, u, v):
    total = 0.0
    for j in range(X.shape[1]):
        total += X[i, j] * (u[j] - v[j])
    return total


@register_jitable
def _csr_dot_diff(X, i, u, v):
    data, indices, indptr = X[0], X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        total += data[k] * (u[indices[k]] - v[indices[k]])
    return total


@register_jitable
def _binary_csr_dot_diff(X, i, u, v):
    indices, indptr = X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        total += u[indices[k]] - v[indices[k]]
    return total


def row_dot_diff(X, i, u, v):
    """``x_i · (u − v)``, differencing each component first: ``u`` and ``v`` start
    equal and grow apart, and ``x·u − x·v`` would cancel catastrophically."""
    if isinstance(X, tuple):
        return (_binary_csr_dot_diff if X[0] is None else _csr_dot_diff)(X, i, u, v)
    return _dense_dot_diff(X, i, u, v)


@overload(row_dot_diff, jit_options={"fastmath": False})
def _row_dot_diff_csr_overload(X, i, u, v):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_dot_diff if isinstance(X[0], types.NoneType) else _csr_dot_diff
    return None


@overload(row_dot_diff)
def _row_dot_diff_dense_overload(X, i, u, v):
    if not isinstance(X, types.BaseTuple):
        return _dense_dot_diff
    return None


# ---------------------------------------------------------------------------------------------
# The whole weight vector (w, b): b is the intercept's component when fit_intercept.

@register_jitable
def _state_sqnorm(w, b, fit_intercept):
    total = b[0] * b[0] if fit_intercept else 0.0
    for j in range(w.shape[0]):
        total += w[j] * w[j]
    return total


@register_jitable
def _state_norm(w, b, fit_intercept, r):
    """``‖(w, b)‖_r``, scaled by the largest component (no overflow for large ``r``)."""
    largest = abs(b[0]) if fit_intercept else 0.0
    for j in range(w.shape[0]):
        largest = max(largest, abs(w[j]))
    if largest == 0.0:
        return 0.0
    total = (abs(b[0]) / largest) ** r if fit_intercept else 0.0
    for j in range(w.shape[0]):
        if w[j] != 0.0:
            total += (abs(w[j]) / largest) ** r
    return largest * total ** (1.0 / r)


@register_jitable
def _link_component(t, size, r):
    # |t|^(r−1) / N^(r−2), written N (|t|/N)^(r−1) so that large r cannot overflow
    if t == 0.0:
        return 0.0
    magnitude = size * (abs(t) / size) ** (r - 1.0)
    return magnitude if t > 0.0 else -magnitude


@register_jitable
def _link(w, b, fit_intercept, r, out_w, out_b):
    """``out = g_r((w, b))``; ``out`` may be ``(w, b)`` itself. ``g_2`` is the
    identity, copied as it is; ``g_r(0) = 0``."""
    if r == 2.0:
        for j in range(w.shape[0]):
            out_w[j] = w[j]
        if fit_intercept:
            out_b[0] = b[0]
        return
    size = _state_norm(w, b, fit_intercept, r)
    for j in range(w.shape[0]):
        out_w[j] = _link_component(w[j], size, r)
    if fit_intercept:
        out_b[0] = _link_component(b[0], size, r)


# ---------------------------------------------------------------------------------------------
# ALMA_2 in O(nnz) per correction: with p = q = 2 both links are the identity, so a
# correction is w' = w + η y x̂ then w = w'/max(1, ‖w'‖). The kernel keeps w = s·v (v in
# the array w, the intercept's component in b) and ‖v‖² (the intercept's included), so that
# the step touches only the row's entries, ‖v‖² changes by 2c (v·x + v_b) + c²‖x‖² with
# c = step/s, and the projection rescales s alone. s only shrinks; below ALMA_SCALE_MIN
# (or above 1/ALMA_SCALE_MIN) it is folded into v, and at the end of the call, so that the
# state between calls is plain w.

#: The scale is folded into ``v`` below this (scikit-learn's WSCALE_MIN, as ._penalty)
ALMA_SCALE_MIN = 1e-9
#: ``‖v‖²`` is recomputed from ``v`` when the update cancels it below this fraction of
#: the magnitudes that made it (the incremental sum would then keep too few digits)
ALMA_CANCELLATION = 1e-4


@register_jitable
def _alma_fold(w, b, fit_intercept, s):
    """``v ← s v`` (``w`` and ``b``); returns the exact ``‖v‖²`` after it."""
    if s != 1.0:
        for j in range(w.shape[0]):
            w[j] *= s
        if fit_intercept:
            b[0] *= s
    return _state_sqnorm(w, b, fit_intercept)


@register_jitable
def _alma2_epoch(X, y, sw, order, alpha, B, C, fit_intercept, weights, log, carry, average):
    """:func:`alma_epoch` for ``p = 2``: the same arithmetic on ``w = s·v``.

    ``carry`` (or ``None``: ``w`` is folded at the end) keeps ``(s, ‖v‖², 1)``
    from one call to the next, ``w`` holding ``v`` between them, so that the
    blocks of a file, each a call, do the arithmetic of one call over all their
    rows; :func:`alma_unscale` folds it after the last."""
    w, b, seen, corrections = weights
    count = seen[0]
    extra = 1.0 if fit_intercept else 0.0
    if carry is not None and carry[2] != 0.0:
        s, vv = carry[0], carry[1]
    else:
        s = 1.0
        vv = _state_sqnorm(w, b, fit_intercept)  # ‖v‖², the intercept's component included
    n_mistakes = 0
    n_updates = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        xx = row_sqnorm64(X, i) + extra
        if xx == 0.0:
            check_underflow(X, i)  # x = 0 only: skipped, x̂ is undefined
            continue
        size = math.sqrt(xx)
        count += 1
        vx = row_dot(X, i, w)
        if fit_intercept:
            vx += b[0]
        f = s * vx
        yf = y[i] * f
        if yf <= 0.0:
            n_mistakes += 1
        k = corrections[0] + 1
        gamma = B / math.sqrt(k)
        if yf / size <= (1.0 - alpha) * gamma:
            eta = row_weight(sw, i) * C / math.sqrt(k)
            step = eta * y[i] / size  # η_k y x̂ = (η_k y/‖x‖) x
            _add_iterates(average, w, b, s, count - 1)
            c = step / s  # the step on v
            row_axpy(X, i, w, c)
            if fit_intercept:
                b[0] += c
            cross = 2.0 * c * vx
            square = c * c * xx
            updated = vv + cross + square
            if updated <= ALMA_CANCELLATION * (vv + abs(cross) + square):
                updated = _state_sqnorm(w, b, fit_intercept)
            vv = updated
            # back into the unit ball: ‖w'‖ = s ‖v‖
            length = s * math.sqrt(vv)
            if length > 1.0:
                s /= length
            if s < ALMA_SCALE_MIN or s > 1.0 / ALMA_SCALE_MIN:
                vv = _alma_fold(w, b, fit_intercept, s)
                s = 1.0
            corrections[0] = k
            if log is not None:
                _log_step(log, n_updates, i, f, count)
            n_updates += 1
    if carry is None:
        _alma_fold(w, b, fit_intercept, s)
    else:
        carry[0], carry[1], carry[2] = s, vv, 1.0
    seen[0] = count
    return n_mistakes, n_updates


@jit
def alma_unscale(w, b, fit_intercept, carry):
    """Fold the scale ``s`` that :func:`alma_epoch` or :func:`romma_epoch` carried
    over its calls into ``w``."""
    if carry[2] != 0.0:
        _alma_fold(w, b, fit_intercept, carry[0])
        carry[2] = 0.0


# ---------------------------------------------------------------------------------------------
# Averaging (``average=True``): the sums of the weights after every example, kept lazily.
# Between two updates the weights do not change, so before an update at example ``c`` the
# weights held since the last sum are added ``c − 1 − summed`` times; what the last ones add
# after it is left to the reader of the sums (``FirstOrderState.completed``), so that a
# file's blocks, each a call, add the same numbers as one call. An update of these rules
# rewrites many weights (ROMMA and ALMA rescale the vector, g_p renormalises it), so the
# sums are O(n_features) per update.
# average = (sum_w, sum_b, summed): float64 (d,) and (1,), int64 (1,) (the example count the
# sums are complete to), or None.

@register_jitable
def _add_iterates(average, w, b, scale, upto):
    """Add ``scale · (w, b)``, the weights held since example ``summed``, up to ``upto``."""
    if average is None:
        return
    sum_w, sum_b, summed = average
    times = upto - summed[0]
    if times > 0:
        factor = times * scale
        for j in range(w.shape[0]):
            sum_w[j] += factor * w[j]
        sum_b[0] += factor * b[0]
        summed[0] = upto


@register_jitable
def _add_iterate_differences(average, u, v, b_u, b_v, upto):
    """:func:`_add_iterates` for Balanced Winnow's weights ``u − v`` (and bias)."""
    if average is None:
        return
    sum_w, sum_b, summed = average
    times = upto - summed[0]
    if times > 0:
        for j in range(u.shape[0]):
            sum_w[j] += times * (u[j] - v[j])
        sum_b[0] += times * (b_u[0] - b_v[0])
        summed[0] = upto


# ---------------------------------------------------------------------------------------------
# The epochs

# ---------------------------------------------------------------------------------------------
# ROMMA in O(nnz) per update: the update w ← c w + a x (c = (A − y f)/D, a = ‖w‖²(y − f)/D)
# is kept, as ALMA_2's, on w = s·v: s ← c s and v += (a/s) x, and ‖w‖² (the intercept's
# component included) follows ‖c w + a x‖² = c²‖w‖² + 2 c a f + a²‖x‖², f = w·x the
# prediction's, which both constraints (met with equality) turn into the sum of positive
# terms c ‖w‖² + a y. An error in that ‖w‖² grows with c from one update to the next (the
# next update meets it as its first constraint), so ‖w‖² is recomputed from v once the
# product of the c > 1 since the last time passes ROMMA_REFRESH: on wide data, where x is
# nearly orthogonal to w and c ≈ 1 + |f|/A, that is rare. s is folded into v when it
# leaves [ALMA_SCALE_MIN, 1/ALMA_SCALE_MIN], and at the end of the call unless ``carry``
# takes (s, ‖w‖², 1, that product) to the next call (a file's blocks): :func:`alma_unscale`
# folds it after the last. Only the slack case (w = a x) rewrites v
# whole (to 0, s = 1): it needs ‖x‖²‖w‖² <= y f, which happens while ‖w‖ is small.


@jit
def romma_epoch(X, y, sw, order, aggressive, fit_intercept, weights, log, carry=None,
                average=None):
    """One pass of ROMMA (Li & Long 2002) over the rows ``order``.

    Updates on ``y f <= 0`` (``aggressive``: on ``y f < 1``) to the shortest ``w``
    with ``w·w_t >= ‖w_t‖²`` and ``y w·x >= 1`` (see the module docstring). A row
    where ``D <= 1e-12 A`` is a mistake left without update; a row with ``x = 0``
    is skipped as if absent. Sample weights: only whether a row's weight is 0.

    weights = (w, b, seen): float64 ``(d,)`` and ``(1,)`` from 0, int64 ``(1,)``
    from 0. ``carry``: a float64 ``(4,)`` from 0 that keeps the scale of ``w``
    from one call to the next (see above), or ``None``. Returns
    ``(n_mistakes, n_updates)``.
    """
    w, b, seen = weights
    count = seen[0]
    extra = 1.0 if fit_intercept else 0.0  # the constant feature, 1² = 1 in ‖x‖²
    if carry is not None and carry[2] != 0.0:
        s, ww, drift = carry[0], carry[1], carry[3]
    else:
        s = 1.0
        ww = _state_sqnorm(w, b, fit_intercept)  # ‖w‖², the intercept's component included
        drift = 1.0
    n_mistakes = 0
    n_updates = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        xx = row_sqnorm64(X, i) + extra
        if xx == 0.0:
            check_underflow(X, i)  # x = 0 only: skipped, no direction to move in
            continue
        count += 1
        vx = row_dot(X, i, w)
        if fit_intercept:
            vx += b[0]
        f = s * vx
        yf = y[i] * f
        if yf <= 0.0:
            n_mistakes += 1
        if not (yf < 1.0 if aggressive else yf <= 0.0):
            continue
        A = xx * ww
        if ww == 0.0 or A <= yf:
            # the first constraint is slack: the shortest w with y w·x >= 1
            _add_iterates(average, w, b, s, count - 1)
            w[:] = 0.0
            if fit_intercept:
                b[0] = 0.0
            s = 1.0
            step = y[i] / xx
            row_axpy(X, i, w, step)
            if fit_intercept:
                b[0] += step
            ww = step * step * xx
            drift = 1.0
        else:
            D = A - f * f
            if D <= ROMMA_TOLERANCE * A:
                continue  # x parallel to w_t: the constraints do not meet
            _add_iterates(average, w, b, s, count - 1)
            scale = (A - yf) / D  # > 0: A > y f here
            step = ww * (y[i] - f) / D
            s *= scale
            c = step / s  # the step on v
            row_axpy(X, i, w, c)
            if fit_intercept:
                b[0] += c
            # ‖w‖² = w·(c w_t + a x) = c ‖w_t‖² + a y (both constraints hold with
            # equality): ‖w_t‖² (A + 1 − 2 y f)/D, a sum of positive terms
            ww = ww * ((A - yf) + (1.0 - yf)) / D
            drift *= max(scale, 1.0)
            if drift > ROMMA_REFRESH:
                ww = s * s * _state_sqnorm(w, b, fit_intercept)
                drift = 1.0
            if s < ALMA_SCALE_MIN or s > 1.0 / ALMA_SCALE_MIN:
                _alma_fold(w, b, fit_intercept, s)
                s = 1.0
        if log is not None:
            _log_step(log, n_updates, i, f, count)
        n_updates += 1
    if carry is None:
        _alma_fold(w, b, fit_intercept, s)
    else:
        carry[0], carry[1], carry[2], carry[3] = s, ww, 1.0, drift
    seen[0] = count
    return n_mistakes, n_updates


@jit
def alma_epoch(X, y, sw, order, p, alpha, B, C, fit_intercept, weights, log, carry=None,
               average=None):
    """One pass of ALMA_p(α; B, C) (Gentile 2001, Fig. 1) over the rows ``order``.

    ``p >= 2`` (float), ``q = p/(p − 1)``; the caller resolves ``B = None`` to
    ``1/alpha``. ``x̂ = x/‖x‖_p`` (rows with ``x = 0`` skipped as if absent),
    ``k`` = ``corrections + 1``, ``γ_k = B √(p−1)/√k``; on
    ``y w·x̂ <= (1 − α) γ_k``: ``η_k = sw C/(√(p−1) √k)``,
    ``w' = g_p(g_q(w) + η_k y x̂)``, ``w = w'/max(1, ‖w'‖_q)``, ``k += 1``.

    weights = (w, b, seen, corrections): float64 ``(d,)`` and ``(1,)`` from 0,
    int64 ``(1,)`` and int64 ``(1,)`` from 0 (``corrections[0]``, the updates
    made so far, is the paper's ``k − 1``). Returns ``(n_mistakes, n_updates)``.
    """
    if p == 2.0:
        return _alma2_epoch(X, y, sw, order, alpha, B, C, fit_intercept, weights, log, carry,
                            average)
    w, b, seen, corrections = weights
    count = seen[0]
    extra = 1.0 if fit_intercept else 0.0
    q = p / (p - 1.0)
    root = math.sqrt(p - 1.0)
    dual_w = np.empty_like(w)  # g_q(w), the dual (mirror) weights
    dual_b = np.zeros(1)
    n_mistakes = 0
    n_updates = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        size = row_pnorm(X, i, p, extra)
        if size == 0.0:
            continue  # x̂ undefined
        count += 1
        f = row_dot(X, i, w)
        if fit_intercept:
            f += b[0]
        yf = y[i] * f
        if yf <= 0.0:
            n_mistakes += 1
        k = corrections[0] + 1
        gamma = B * root / math.sqrt(k)
        if yf / size <= (1.0 - alpha) * gamma:
            eta = row_weight(sw, i) * C / (root * math.sqrt(k))
            step = eta * y[i] / size  # η_k y x̂ = (η_k y/‖x‖_p) x
            _add_iterates(average, w, b, 1.0, count - 1)
            _link(w, b, fit_intercept, q, dual_w, dual_b)
            row_axpy(X, i, dual_w, step)
            if fit_intercept:
                dual_b[0] += step
            _link(dual_w, dual_b, fit_intercept, p, w, b)
            # back into the unit ball of the dual norm
            length = _state_norm(w, b, fit_intercept, q)
            if length > 1.0:
                for j in range(w.shape[0]):
                    w[j] /= length
                if fit_intercept:
                    b[0] /= length
            corrections[0] = k
            if log is not None:
                _log_step(log, n_updates, i, f, count)
            n_updates += 1
    seen[0] = count
    return n_mistakes, n_updates


@register_jitable
def _ogd_gradient(loss, y, f):
    """``g = −∂loss/∂f`` at ``f`` for label ``y``: the coefficient of ``x`` in the step."""
    z = y * f
    if loss == HINGE:
        return y if z < 1.0 else 0.0  # max(0, 1 − y f)
    if loss == LOGISTIC:
        # y/(1 + exp(y f)), with no exp of a large positive number
        if z > 0.0:
            e = math.exp(-z)
            return y * e / (1.0 + e)
        return y / (1.0 + math.exp(z))
    if loss == SQUARED:
        return y - f  # (f − y)²/2
    return y if z <= 0.0 else 0.0  # perceptron: max(0, −y f)


@register_jitable
def logistic_loss(m):
    """``log(1 + exp(−m))`` for the margin ``m = y f``, without overflow either way."""
    if m > 0.0:
        return math.log1p(math.exp(-m))
    return -m + math.log1p(math.exp(m))


@register_jitable
def _ogd_loss(loss, y, f):
    """The loss whose gradient :func:`_ogd_gradient` follows, at ``f`` for label ``y``."""
    z = y * f
    if loss == HINGE:
        return max(0.0, 1.0 - z)
    if loss == LOGISTIC:
        return logistic_loss(z)
    if loss == SQUARED:
        return 0.5 * (f - y) * (f - y)
    return max(0.0, -z)


@register_jitable
def ogd_rate(schedule, eta, power_t, t0, t):
    """The step size ``η_t`` of the ``t``-th example (from 1), scikit-learn's
    ``SGDClassifier`` schedules (``_plain_sgd``):

    - ``CONSTANT`` and ``ADAPTIVE``: ``eta`` (the adaptive rate is divided by the
      learner between epochs);
    - ``INVSCALING``: ``eta/t^power_t`` (``eta/√t``, Zinkevich's, with
      ``power_t = 0.5``, computed by ``sqrt`` as it always was);
    - ``OPTIMAL``: ``eta/(t0 + t − 1)``, the caller passing ``eta = 1/α`` and
      Bottou's ``t0`` (see ``OnlineGradientDescentLearner``).
    """
    if schedule == INVSCALING:
        if power_t == 0.5:
            return eta / math.sqrt(t)
        return eta / math.pow(t, power_t)
    if schedule == OPTIMAL:
        return eta / (t0 + t - 1.0)
    return eta


@jit
def ogd_epoch(X, y, sw, order, eta, loss, fit_intercept, weights, log, schedule=INVSCALING,
              power_t=0.5, t0=0.0, average=None, penalty=None, losses=None):
    """One pass of online gradient descent (Zinkevich 2003) over the rows ``order``.

    ``t = seen + 1`` for each row met (over every epoch and call),
    ``η_t`` = :func:`ogd_rate` (default ``eta/√t``), ``w += η_t sw g x`` with ``g``
    = :func:`_ogd_gradient` for ``loss`` = an :data:`OGD_LOSSES` code (hinge 0,
    logistic 1, squared 2, perceptron 3).

    weights = (w, b, seen): float64 ``(d,)``, ``(1,)`` and int64 ``(1,)``, all
    from 0.
    average = (u, beta) or None
        Daumé's cached sums (:func:`~._online._average_step`): on an update
        ``step x`` at example ``c``, ``u += c step x`` and ``β += c step``, so that
        the mean of the weights after every example costs nothing on the others
        (with a penalty ``u`` is kept by :mod:`._penalty` instead).
    penalty = Penalty(params, scalars, q) or None
        scikit-learn's L2/L1 regularisation, :mod:`._penalty`'s arrays, ``w``
        kept as ``s · v``. The step varies with ``t``, so the shrink and the L1
        step of each example are set here from ``params[L2_RATE] = (1 − ρ) α``
        and ``params[L1_RATE] = ρ α``: ``decay = max(0, 1 − (1 − ρ) α η_t)``, the L1
        penalty adds ``ρ α η_t`` (scikit-learn's order: shrink, step, truncate).
    losses = float64 ``(2,)`` or None
        The epoch adds each row's weighted loss before its update, and the row's
        weight: the progressive validation loss, as Vowpal Wabbit reports it.

    Returns ``(n_mistakes, n_updates)``.
    """
    w, b, seen = weights
    count = seen[0]
    n_mistakes = 0
    n_updates = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        count += 1
        rate = ogd_rate(schedule, eta, power_t, t0, count)
        f = row_dot(X, i, w)
        if penalty is not None:
            f = scaled_dot(f, penalty)
        if fit_intercept:
            f += b[0]
        if y[i] * f <= 0.0:
            n_mistakes += 1
        if losses is not None:
            losses[0] += row_weight(sw, i) * _ogd_loss(loss, y[i], f)
            losses[1] += row_weight(sw, i)
        if penalty is not None:
            params = penalty.params
            params[DECAY] = max(0.0, 1.0 - params[L2_RATE] * rate)
            params[L1_STEP] = params[L1_RATE] * rate
            decay(w, average, penalty)
        g = _ogd_gradient(loss, y[i], f)
        if g != 0.0:
            step = rate * row_weight(sw, i) * g
            if penalty is None:
                row_axpy(X, i, w, step)
            else:
                scaled_axpy(X, i, w, step, average, penalty)
            if fit_intercept:
                b[0] += step
            if average is not None:
                _average_step(X, i, average, float(count) * step, fit_intercept, penalty)
            if log is not None:
                _log_step(log, n_updates, i, f, count)
            n_updates += 1
        if penalty is not None:
            if penalty.params[L1_STEP] > 0.0:
                truncate(X, i, w, average, penalty)
            end_example(penalty)
    if penalty is not None:
        fold(w, average, penalty)
    seen[0] = count
    return n_mistakes, n_updates


@jit
def winnow_epoch(X, y, sw, order, alpha, threshold, fit_intercept, weights, log,
                 average=None):
    """One pass of Winnow2 (Littlestone 1988) over the rows ``order``.

    ``f = w·x + b − threshold``; on ``y f <= 0``: ``w_i *= alpha^(sw y x_i)`` (and
    ``b *= alpha^(sw y)``). The caller resolves ``threshold = None`` to its
    default (``n_features/2``).

    weights = (w, b, seen): float64 ``(d,)`` and ``(1,)`` both filled with ``w0``
    (``b`` unused without intercept), int64 ``(1,)`` from 0. Returns
    ``(n_mistakes, n_updates)`` (equal: the rule is mistake-driven).
    """
    w, b, seen = weights
    count = seen[0]
    n_mistakes = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        count += 1
        f = row_dot(X, i, w) - threshold
        if fit_intercept:
            f += b[0]
        if y[i] * f <= 0.0:
            exponent = row_weight(sw, i) * y[i]  # promotion (y = +1) or demotion
            _add_iterates(average, w, b, 1.0, count - 1)
            row_scale_pow(X, i, w, alpha, exponent)
            if fit_intercept:
                b[0] = max(b[0] * alpha ** exponent, SMALLEST_WEIGHT)
            if log is not None:
                _log_step(log, n_mistakes, i, f, count)
            n_mistakes += 1
    seen[0] = count
    return n_mistakes, n_mistakes


@jit
def balanced_winnow_epoch(X, y, sw, order, alpha, threshold, fit_intercept, weights, log,
                          average=None):
    """One pass of Balanced Winnow (Littlestone 1988; Grove et al. 2001) over the
    rows ``order``.

    ``f = (u − v)·x + (b_u − b_v) − threshold``; on ``y f <= 0``:
    ``u_i *= alpha^(sw y x_i)``, ``v_i *= alpha^(−sw y x_i)`` (and the bias
    components alike). The model's weights are ``u − v``.

    weights = (u, v, b_u, b_v, seen): float64 ``(d,)``, ``(d,)``, ``(1,)``,
    ``(1,)`` all filled with ``w0``, int64 ``(1,)`` from 0. Returns
    ``(n_mistakes, n_updates)`` (equal).
    """
    u, v, b_u, b_v, seen = weights
    count = seen[0]
    n_mistakes = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, u)
        prefetch_ahead(X, order, t, n, v)
        if row_weight(sw, i) == 0.0:
            continue
        count += 1
        f = row_dot_diff(X, i, u, v) - threshold
        if fit_intercept:
            f += b_u[0] - b_v[0]
        if y[i] * f <= 0.0:
            exponent = row_weight(sw, i) * y[i]
            _add_iterate_differences(average, u, v, b_u, b_v, count - 1)
            row_scale_pow(X, i, u, alpha, exponent)
            row_scale_pow(X, i, v, alpha, -exponent)
            if fit_intercept:
                b_u[0] = max(b_u[0] * alpha ** exponent, SMALLEST_WEIGHT)
                b_v[0] = max(b_v[0] * alpha ** (-exponent), SMALLEST_WEIGHT)
            if log is not None:
                _log_step(log, n_mistakes, i, f, count)
            n_mistakes += 1
    seen[0] = count
    return n_mistakes, n_mistakes


@jit
def pnorm_epoch(X, y, sw, order, p, fit_intercept, weights, log, average=None):
    """One pass of the p-norm perceptron (Grove et al. 2001; Gentile 2003) over the
    rows ``order``.

    ``w = g_p(θ)``; on ``y (w·x + b) <= 0``: ``θ += sw y x`` and ``w = g_p(θ)``
    again. ``p`` (float, > 1) is resolved by the caller (the note's default
    ``max(2, 2 ln d)``); ``p = 2`` is the perceptron with unit step.

    weights = (theta, theta_b, w, b, seen): float64 ``(d,)``, ``(1,)`` from 0 (the
    state), float64 ``(d,)``, ``(1,)`` (outputs: recomputed as ``g_p(θ)`` at the
    start, so any content will do), int64 ``(1,)`` from 0. Returns
    ``(n_mistakes, n_updates)`` (equal).
    """
    theta, theta_b, w, b, seen = weights
    _link(theta, theta_b, fit_intercept, p, w, b)
    count = seen[0]
    n_mistakes = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        prefetch_ahead(X, order, t, n, w)
        if row_weight(sw, i) == 0.0:
            continue
        count += 1
        f = row_dot(X, i, w)
        if fit_intercept:
            f += b[0]
        if y[i] * f <= 0.0:
            step = row_weight(sw, i) * y[i]
            _add_iterates(average, w, b, 1.0, count - 1)
            row_axpy(X, i, theta, step)
            if fit_intercept:
                theta_b[0] += step
            if p == 2.0:  # g_2 is the identity: the row's values are all that move
                row_axpy(X, i, w, step)
                if fit_intercept:
                    b[0] += step
            else:
                _link(theta, theta_b, fit_intercept, p, w, b)
            if log is not None:
                _log_step(log, n_mistakes, i, f, count)
            n_mistakes += 1
    seen[0] = count
    return n_mistakes, n_mistakes


@jit
def multiclass_pa_epoch(X, y, sw, order, C, variant, fit_intercept, weights, log):
    """One pass of multiclass passive-aggressive (Crammer et al. 2006, §7; LIBOL
    ``M_PA*.m``) over the rows ``order``.

    ``y`` holds class indices; ``F_k = W_k·x + b_k``, ``s`` the best-scoring wrong
    class (the lowest index on ties), ``m = F_y − F_s`` (a mistake when
    ``m <= 0``), ``ℓ = 1 − m``; when ``ℓ > 0``: ``τ`` by ``variant`` (a
    :data:`PA_VARIANTS` code: pa 0, pa1 1, pa2 2; see the module docstring),
    ``W_y += sw τ x``, ``W_s −= sw τ x`` (and ``b`` alike). PA and PA-I skip
    rows with ``x = 0`` as if absent.

    weights = (W, b, seen): float64 ``(K, d)`` and ``(K,)`` from 0, int64 ``(1,)``
    from 0. log = (rows, margins, positions, rivals) or None. Returns
    ``(n_mistakes, n_updates)``.
    """
    W, b, seen = weights
    # PA-I's τ may be C itself: a NumPy float, so that the plain-Python row_axpy
    # multiplies float32 rows in float64 as the compiled one does
    C = np.float64(C)
    n_classes = W.shape[0]
    count = seen[0]
    extra = 1.0 if fit_intercept else 0.0
    n_mistakes = 0
    n_updates = 0
    for t in range(epoch_length(X, order)):
        i = epoch_row(order, t)
        if row_weight(sw, i) == 0.0:
            continue
        xx = row_sqnorm64(X, i) + extra
        if xx == 0.0 and variant != PA2:
            check_underflow(X, i)  # x = 0 only: skipped, τ = ℓ/0 has no direction
            continue
        count += 1
        c = y[i]
        true_score = row_dot(X, i, W[c])
        if fit_intercept:
            true_score += b[c]
        rival, rival_score = -1, -np.inf
        for k in range(n_classes):
            if k != c:
                score = row_dot(X, i, W[k])
                if fit_intercept:
                    score += b[k]
                if rival < 0 or score > rival_score:
                    rival, rival_score = k, score
        margin = true_score - rival_score
        if margin <= 0.0:
            n_mistakes += 1
        loss = 1.0 - margin
        if loss > 0.0:
            # ‖Φ(x, y) − Φ(x, s)‖² = 2‖x‖² in the multiclass feature map
            if variant == PA:
                tau = loss / (2.0 * xx)
            elif variant == PA1:
                tau = min(C, loss / (2.0 * xx))
            else:
                tau = loss / (2.0 * xx + 0.5 / C)
            step = row_weight(sw, i) * tau
            row_axpy(X, i, W[c], step)
            row_axpy(X, i, W[rival], -step)
            if fit_intercept:
                b[c] += step
                b[rival] -= step
            if log is not None:
                _log_step(log, n_updates, i, margin, count)
                log[3][n_updates] = rival
            n_updates += 1
    seen[0] = count
    return n_mistakes, n_updates
