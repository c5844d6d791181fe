"""Second-order online rules: a weight vector ``w`` and a covariance ``Σ`` over it.

Each rule keeps ``w`` (the mean of a Gaussian over weight vectors, or the
second-order perceptron's weights) and ``Σ``. For a row ``x`` with label ``y``
it computes the margin ``m = y w·x`` and the variance ``v = xᵀ Σ x``, decides
from ``(m, v)`` whether to update, and if so moves along ``Σ x``::

    w ← w + α y Σx
    Σ ← γ (Σ − β (Σx)(Σx)ᵀ)

The rules differ only in the condition and the scalars ``(α, β, γ)``
(:func:`binary_step`, :func:`multiclass_step`; ``φ = Φ⁻¹(η)``, ``ψ = 1 + φ²/2``,
``ξ = 1 + φ²``):

- ``SOP``, second-order perceptron (Cesa-Bianchi, Conconi & Gentile, SIAM J.
  Comput. 2005): ``A = aI + Σ_mistakes x xᵀ``, ``u = Σ_mistakes y x``,
  ``w = A⁻¹ u``. The kernel keeps ``Σ = A⁻¹`` by Sherman–Morrison
  (``β = 1/(1 + v)``, so the initial ``Σ`` is ``I/a``) and ``u``, and after each
  update sets ``w = Σ u``: the prediction ``sign(w·x)`` is the paper's
  ``sign(uᵀ(A + x xᵀ)⁻¹ x)``. Updates on ``m <= 0`` only.
- ``CW``, confidence-weighted (Crammer, Dredze & Pereira, NIPS 2008), the exact
  KL projection: if ``φ√v − m > 0``,
  ``α = max(0, (−mψ + √(m²φ⁴/4 + vφ²ξ))/(vξ))``,
  ``u = (−αvφ + √(α²v²φ² + 4v))²/4``, ``β = αφ/(√u + vαφ)``.
- ``AROW`` (Crammer, Kulesza & Dredze, NIPS 2009): if ``m < 1``,
  ``β = 1/(v + r)``, ``α = (1 − m)β``.
- ``NAROW`` (Orabona & Crammer, NIPS 2010): AROW with ``r = v/(bv − 1)``, only
  when ``m < 1`` and ``v > 1/b``.
- ``NHERD`` (Crammer & Lee, NIPS 2010), full-matrix form: ``γ_C = 1/C``; if
  ``m < 1``, ``α = (1 − m)/(v + γ_C)``, ``β = (v + 2γ_C)/(v + γ_C)²``.
- ``IELLIP``, improved ellipsoid (Yang, Jin & Ye, ICML 2009; LIBOL ``IELLIP.m``):
  on ``m <= 0`` with ``v > 0``, ``α = (1 − m)/v``, ``β = c_t/v``,
  ``γ = 1/(1 − c_t)``; ``c_{t+1} = b c_t`` after every row.
- ``SCW1``/``SCW2``, soft confidence-weighted (Wang, Zhao & Hoi, ICML 2012): CW's
  condition, ``u`` and ``β``, with ``α = min(C, CW's α)`` (I) or, with
  ``n = v + 1/(2C)`` and ``Γ = φ√(φ²m²v² + 4nv(n + vφ²))``,
  ``α = max(0, (−(2mn + φ²mv) + Γ)/(2(n² + nvφ²)))`` (II).
- ``MULTICLASS_AROW`` and ``MULTICLASS_SCW1``/``2`` (LIBOL ``M_AROW.m``,
  ``M_SCW1.m``, ``M_SCW2.m``): one row ``W_k`` per class and one shared ``Σ``;
  ``m = F_y − F_s`` with ``s`` the best-scoring wrong class, ``W_y += αΣx``,
  ``W_s −= αΣx``, ``Σ −= β(Σx)(Σx)ᵀ``. AROW's scalars as above; the SCW ones are
  LIBOL's, transcribed as they are (see :func:`multiclass_step`): they are
  *not* the binary formulas with ``v`` replaced by ``2v``.

Two forms of ``Σ``, chosen by the array passed (``cov.ndim``), with one loop for
both: ``covariance="full"`` keeps the ``D × D`` matrix (``Σx`` as a sum of the
rows of ``Σ`` for the row's non-zero values, ``O(D·nnz)``, and ``O(D²)``
rank-one updates); ``covariance="diagonal"`` keeps its diagonal ``s`` and applies the diagonal of
the full update (the "drop" rule of ``online-family.md``): ``Σx`` is ``s∘x``,
``v = Σ s x²`` and ``s ← γ(s − β (s∘x)²)`` with the same scalars. On CSR rows the
diagonal form touches only the row's stored entries, ``O(nnz)`` per row
whatever the number of features: IELLIP's factor ``γ``, which would scale every
entry, is kept aside as a scalar during the epoch and folded into ``Σ`` at its
end (``O(D)`` once per call), so that between calls ``cov`` is ``Σ`` itself.
The diagonal form on CSR rows (every rule but SOP) runs its own loop with the row
passes written in it, and on wide data may keep ``w`` and ``s`` as pairs
``(w_j, s_j)`` in one array (:func:`as_pairs`, :func:`interleaved_epoch`): one
cache miss a stored value instead of two. Both change no result, bit for bit.

**Intercept.** ``fit_intercept`` appends a constant feature 1 to every row: ``Σ``
is ``(d+1) × (d+1)`` (``s`` has ``d + 1`` entries) with the bias last, exactly
as a column of ones appended to ``X``; the bias itself is ``b[0]``.

**Row weights** (``sw``; ``None`` when every row weighs 1). A row of weight 0 is
absent: no update, not counted, and IELLIP's ``c_t`` does not decay. A weight
``ω > 0`` counts the row ``ω`` times in the rule's loss, that is its trade-off
parameter is scaled: AROW, NAROW and multiclass AROW use ``r/ω`` (for two-class
AROW with full ``Σ`` exactly the updates of ``ω`` consecutive copies of the row,
for whole ``ω``), NHERD, SCW-I/II and multiclass SCW use ``Cω``, SOP adds
``ω x xᵀ`` to ``A`` and ``ω y x`` to ``u`` (``β = ω/(1 + ωv)``). CW and IELLIP
have no loss to weigh: a positive weight acts as 1 (CW projects onto the row's
constraint, which a copy of the row already satisfies; IELLIP's update gives the
row ``y w·x = 1``, so a copy is no mistake).

The kernels are :func:`second_order_epoch` (two classes) and
:func:`multiclass_second_order_epoch`. :func:`second_order_rule` builds the
``rule`` argument (computing ``φ`` with ``scipy.special.ndtri``), and
:func:`new_state` / :func:`new_multiclass_state` the starting state.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload, register_jitable
from scipy.special import ndtri

from .._config import FASTMATH, jit
from ._online import _log_step
from ._prefetch import prefetch
from ._rows import (
    _prefetch_row_weights,
    epoch_length,
    epoch_row,
    prefetch_ahead,
    row_axpy,
    row_dot,
    row_weight,
)

#: rule codes (numba reads these globals as constants)
SOP, CW, AROW, NAROW, NHERD, IELLIP, SCW1, SCW2 = range(8)
MULTICLASS_AROW, MULTICLASS_SCW1, MULTICLASS_SCW2 = range(8, 11)

#: name -> (code, the parameters it takes); ``eta`` becomes ``phi``
RULES = {
    "sop": (SOP, ()),
    "cw": (CW, ("eta",)),
    "arow": (AROW, ("r",)),
    "narow": (NAROW, ("b",)),
    "nherd": (NHERD, ("C",)),
    "iellip": (IELLIP, ("b",)),
    "scw1": (SCW1, ("C", "eta")),
    "scw2": (SCW2, ("C", "eta")),
    "multiclass_arow": (MULTICLASS_AROW, ("r",)),
    "multiclass_scw1": (MULTICLASS_SCW1, ("C", "eta")),
    "multiclass_scw2": (MULTICLASS_SCW2, ("C", "eta")),
}
#: the codes of multiclass_second_order_epoch; the others are second_order_epoch's
MULTICLASS_CODES = (MULTICLASS_AROW, MULTICLASS_SCW1, MULTICLASS_SCW2)


class SecondOrderRule(NamedTuple):
    """A rule and its parameters, as the kernels take it (parameters a rule does not
    use are 0): ``phi = Φ⁻¹(eta)`` for CW and SCW, ``C`` for NHERD and SCW, ``r``
    for AROW, ``b`` for NAROW (its ``b``) and IELLIP (the decay of ``c_t``)."""

    code: int
    phi: float = 0.0
    C: float = 0.0
    r: float = 0.0
    b: float = 0.0


def second_order_rule(name, **params):
    """The ``rule`` argument of the kernels, from a rule's name (a key of :data:`RULES`)
    and its parameters, every one given: ``eta`` is turned into
    ``phi = scipy.special.ndtri(eta)``, the standard normal quantile.

    >>> rule = second_order_rule("scw1", C=1.0, eta=0.75)
    >>> rule.code == SCW1, round(rule.phi, 6)
    (True, 0.67449)
    """
    if name not in RULES:
        raise ValueError(f"Unknown second-order rule {name!r}; expected one of {sorted(RULES)}.")
    code, expected = RULES[name]
    if set(params) != set(expected):
        raise TypeError(f"The rule {name!r} takes exactly the parameters {expected}, "
                        f"got {tuple(sorted(params))}.")
    values = {key: float(value) for key, value in params.items()}
    for key, value in values.items():
        if not (math.isfinite(value) and value > 0.0):
            raise ValueError(f"The parameter {key} of {name!r} must be a positive number, "
                             f"got {value}.")
    if code == IELLIP and values["b"] > 1.0:
        raise ValueError(f"IELLIP's b, the decay of c_t, must be at most 1, got {values['b']}.")
    if "eta" in values:
        eta = values.pop("eta")
        if not 0.5 <= eta < 1.0:
            # eta = 1 gives phi = inf, for which the closed forms are NaN
            raise ValueError(f"eta must be in [0.5, 1), got {eta}.")
        values["phi"] = float(ndtri(eta))
    return SecondOrderRule(code, **values)


class SecondOrderState(NamedTuple):
    """The state of a two-class rule, float64 arrays updated in place (``D`` is
    ``n_features + fit_intercept``).

    w: (n_features,) the weights; b: (1,) the bias (0 without intercept);
    cov: (D, D) ``Σ`` (full) or (D,) its diagonal, the bias last;
    u: SOP's ``u`` (D,) (length 0 for the other rules);
    c: (1,) IELLIP's ``c_t``, the next row's (unused by the other rules);
    seen: int64 (1,), the rows of positive weight met over every epoch.
    """

    w: np.ndarray
    b: np.ndarray
    cov: np.ndarray
    u: np.ndarray
    c: np.ndarray
    seen: np.ndarray


class MulticlassSecondOrderState(NamedTuple):
    """W: (n_classes, n_features); b: (n_classes,); cov and seen as in
    :class:`SecondOrderState`."""

    W: np.ndarray
    b: np.ndarray
    cov: np.ndarray
    seen: np.ndarray


def _start_covariance(dimension, variance, covariance):
    if covariance == "full":
        return np.eye(dimension) * variance
    if covariance == "diagonal":
        return np.full(dimension, float(variance))
    raise ValueError(f"covariance must be 'full' or 'diagonal', got {covariance!r}.")


def new_state(rule, n_features, *, a, covariance, fit_intercept, c=None):
    """The starting state: ``w = 0``, ``Σ = aI`` (SOP: ``Σ = A⁻¹ = I/a``), IELLIP's
    ``c_1 = c`` (required for IELLIP only).

    >>> state = new_state(second_order_rule("arow", r=1.0), 3, a=2.0,
    ...                   covariance="diagonal", fit_intercept=True)
    >>> state.cov.tolist(), state.w.tolist()
    ([2.0, 2.0, 2.0, 2.0], [0.0, 0.0, 0.0])
    """
    if rule.code in MULTICLASS_CODES:
        raise ValueError("A multiclass rule's state comes from new_multiclass_state.")
    if (c is None) != (rule.code != IELLIP):
        raise TypeError("c, IELLIP's starting c_t, is given for IELLIP and for no other rule.")
    if c is not None and not 0.0 < c < 1.0:
        raise ValueError(f"IELLIP's c must be in (0, 1), got {c}.")
    dimension = n_features + int(bool(fit_intercept))
    return SecondOrderState(
        w=np.zeros(n_features),
        b=np.zeros(1),
        cov=_start_covariance(dimension, 1.0 / a if rule.code == SOP else a, covariance),
        u=np.zeros(dimension if rule.code == SOP else 0),
        c=np.array([0.0 if c is None else float(c)]),
        seen=np.zeros(1, dtype=np.int64),
    )


def new_multiclass_state(rule, n_classes, n_features, *, a, covariance, fit_intercept):
    """The starting state of a multiclass rule: ``W = 0``, ``Σ = aI``."""
    if rule.code not in MULTICLASS_CODES:
        raise ValueError("A two-class rule's state comes from new_state.")
    dimension = n_features + int(bool(fit_intercept))
    return MulticlassSecondOrderState(
        W=np.zeros((n_classes, n_features)),
        b=np.zeros(n_classes),
        cov=_start_covariance(dimension, a, covariance),
        seen=np.zeros(1, dtype=np.int64),
    )


# ---------------------------------------------------------------------------
# The rules: the condition and the scalars (α, β, γ) from m and v
# ---------------------------------------------------------------------------

@register_jitable
def could_update(rule, m):
    """Whether the row can update, from the margin alone: rules whose condition
    needs no ``v`` are spared computing ``Σx`` (``O(D²)`` in the full form) on the
    rows they pass over."""
    code = rule.code
    if code == SOP or code == IELLIP:
        return m <= 0.0
    if code == AROW or code == NAROW or code == NHERD or code == MULTICLASS_AROW:
        return m < 1.0
    return True


@register_jitable
def _cw_alpha(m, v, phi):
    psi, xi = 1.0 + phi * phi / 2.0, 1.0 + phi * phi
    return max(0.0, (-m * psi + math.sqrt(m * m * phi ** 4 / 4.0 + v * phi * phi * xi))
               / (v * xi))


@register_jitable
def _cw_beta(alpha, v, phi):
    root = -alpha * v * phi + math.sqrt(alpha * alpha * v * v * phi * phi + 4.0 * v)
    u = root * root / 4.0
    return alpha * phi / (math.sqrt(u) + v * alpha * phi)


@register_jitable
def _scw2_alpha(m, v, phi, C):
    n = v + 1.0 / (2.0 * C)
    gamma = phi * math.sqrt(phi * phi * m * m * v * v + 4.0 * n * v * (n + v * phi * phi))
    return max(0.0, (-(2.0 * m * n + phi * phi * m * v) + gamma)
               / (2.0 * (n * n + n * v * phi * phi)))


@register_jitable
def binary_step(rule, m, v, weight, c_t):
    """``(fires, α, β, γ)`` for a two-class row of margin ``m``, variance ``v`` and
    weight ``weight`` (see the module docstring); ``c_t`` is IELLIP's."""
    code = rule.code
    if code == SOP:
        # Sherman-Morrison for A += ω x xᵀ; α is unused: w = Σu is recomputed
        beta = weight / (1.0 + weight * v)
        return m <= 0.0, (1.0 - m) * beta, beta, 1.0
    if code == AROW:
        beta = 1.0 / (v + rule.r / weight)
        return m < 1.0, (1.0 - m) * beta, beta, 1.0
    if code == NAROW:
        # v > 1/b written without the division (b > 0)
        if m < 1.0 and rule.b * v > 1.0:
            beta = 1.0 / (v + v / (rule.b * v - 1.0) / weight)
            return True, (1.0 - m) * beta, beta, 1.0
        return False, 0.0, 0.0, 1.0
    if code == NHERD:
        gamma = 1.0 / (rule.C * weight)
        return (m < 1.0, (1.0 - m) / (v + gamma),
                (v + 2.0 * gamma) / ((v + gamma) * (v + gamma)), 1.0)
    if code == IELLIP:
        if m <= 0.0 and v > 0.0:
            return True, (1.0 - m) / v, c_t / v, 1.0 / (1.0 - c_t)
        return False, 0.0, 0.0, 1.0
    # CW, SCW-I, SCW-II. v = 0 means x (with its 1) is 0, hence m = 0 and no update
    # in exact arithmetic; the test keeps a rounding from dividing by 0.
    phi = rule.phi
    if not (v > 0.0 and phi * math.sqrt(v) - m > 0.0):
        return False, 0.0, 0.0, 1.0
    if code == CW:
        alpha = _cw_alpha(m, v, phi)
    elif code == SCW1:
        alpha = min(rule.C * weight, _cw_alpha(m, v, phi))
    else:
        alpha = _scw2_alpha(m, v, phi, rule.C * weight)
    return True, alpha, _cw_beta(alpha, v, phi), 1.0


@register_jitable
def multiclass_step(rule, m, v, weight):
    """``(fires, α, β)`` for a multiclass row: ``m = F_y − F_s``, ``v = xᵀΣx``.

    AROW as for two classes. SCW: LIBOL's ``M_SCW1.m``/``M_SCW2.m`` (LIBOL v0.3.0,
    github.com/LIBOL/LIBOL, ``algorithms/``), as written there: if ``m < φ√v``,
    I: ``α = min(C, max(0, (−mψ + √(m²ψ² − m²ψ + 2vφ²ψ))/(2vψ)))``;
    II: ``n = 2v + 1/(2C)``,
    ``α = max(0, (−(2mn + φ²mv) + √(φ⁴m²v² + 8nvφ²(n + vφ²)))/(2(n² + nvφ²)))``;
    both: ``u = (−αvφ + √(α²v²φ² + 8v))²/8``, ``β = αφ/(√(2u) + αφv)``.
    """
    code = rule.code
    if code == MULTICLASS_AROW:
        beta = 1.0 / (v + rule.r / weight)
        return m < 1.0, (1.0 - m) * beta, beta
    phi = rule.phi
    if not (v > 0.0 and m < phi * math.sqrt(v)):
        return False, 0.0, 0.0
    C = rule.C * weight
    if code == MULTICLASS_SCW1:
        psi = 1.0 + phi * phi / 2.0
        alpha = max(0.0, (-m * psi + math.sqrt(m * m * psi * psi - m * m * psi
                                               + 2.0 * v * phi * phi * psi)) / (2.0 * v * psi))
        alpha = min(alpha, C)
    else:
        n = 2.0 * v + 1.0 / (2.0 * C)
        alpha = max(0.0, (-(2.0 * m * n + phi * phi * m * v)
                          + math.sqrt(phi ** 4 * m * m * v * v
                                      + 8.0 * n * v * phi * phi * (n + v * phi * phi)))
                    / (2.0 * (n * n + n * v * phi * phi)))
    root = -alpha * v * phi + math.sqrt(alpha * alpha * v * v * phi * phi + 8.0 * v)
    u = root * root / 8.0
    return True, alpha, alpha * phi / (math.sqrt(2.0 * u) + alpha * phi * v)


# ---------------------------------------------------------------------------
# Row primitives with Σ, for dense rows and CSR triplets, full and diagonal Σ.
# ``x̃`` is the row with its constant 1 when fit_intercept; the bias entry of Σ is last.
# The full form keeps ``g = Σx̃`` of the current row in a scratch vector.
# ---------------------------------------------------------------------------

def _stored(data, k):
    """The ``k``-th stored value as float64; 1 for a binary triplet (``data`` None)."""
    return 1.0 if data is None else float(data[k])


@overload(_stored)
def _stored_overload(data, k):
    if isinstance(data, types.NoneType):
        return lambda data, k: 1.0
    return lambda data, k: np.float64(data[k])  # numba's float() would keep float32


@register_jitable
def workspace(cov):
    """The full form's scratch vector for ``Σx̃`` (empty for the diagonal form)."""
    return np.empty(cov.shape[0] if cov.ndim == 2 else 0)


# In the helpers below ``cov`` is Σ (D × D) in the full form and its diagonal (D,)
# in the diagonal one.

# v = x̃ᵀ Σ x̃ (the full form also leaves Σx̃ in g)

@register_jitable
def _dense_diagonal_variance(X, i, cov, g, fit_intercept):
    total = 0.0
    for j in range(X.shape[1]):
        x = np.float64(X[i, j])  # x² in float64 for float32 data (numba's float() keeps float32)
        total += cov[j] * (x * x)
    if fit_intercept:
        total += cov[cov.shape[0] - 1]
    return total


@register_jitable
def _csr_diagonal_variance(X, i, cov, g, fit_intercept):
    data, indices, indptr = X[0], X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        x = _stored(data, k)
        total += cov[indices[k]] * (x * x)
    if fit_intercept:
        total += cov[cov.shape[0] - 1]
    return total


@register_jitable
def _dense_full_variance(X, i, cov, g, fit_intercept):
    # the same sum of rows of Σ as on CSR rows, over the non-zero values: no BLAS
    # gemv per row (a threaded BLAS spends more on waking its threads than on a
    # small product), and dense and CSR rows give the same numbers
    dimension, last = cov.shape[0], cov.shape[0] - 1
    g[:] = 0.0
    for j in range(X.shape[1]):
        x = np.float64(X[i, j])
        if x != 0.0:
            for q in range(dimension):
                g[q] += x * cov[j, q]
    if fit_intercept:
        for q in range(dimension):
            g[q] += cov[last, q]
    total = g[last] if fit_intercept else 0.0
    for j in range(X.shape[1]):
        total += X[i, j] * g[j]
    return total


@register_jitable
def _csr_full_variance(X, i, cov, g, fit_intercept):
    # g = Σx̃ as a sum of rows of Σ (Σ is symmetric): contiguous reads, O(D·nnz)
    data, indices, indptr = X[0], X[1], X[2]
    dimension, last = cov.shape[0], cov.shape[0] - 1
    g[:] = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        x, row = _stored(data, k), indices[k]
        for q in range(dimension):
            g[q] += x * cov[row, q]
    if fit_intercept:
        for q in range(dimension):
            g[q] += cov[last, q]
    total = g[last] if fit_intercept else 0.0
    for k in range(indptr[i], indptr[i + 1]):
        total += _stored(data, k) * g[indices[k]]
    return total


def row_variance(X, i, cov, g, fit_intercept):
    """``v = x̃ᵀ Σ x̃`` for row ``i``; the full form leaves ``Σx̃`` in ``g``."""
    if cov.ndim == 2:
        kernel = _csr_full_variance if isinstance(X, tuple) else _dense_full_variance
    else:
        kernel = _csr_diagonal_variance if isinstance(X, tuple) else _dense_diagonal_variance
    return kernel(X, i, cov, g, fit_intercept)


# The CSR sums are compiled without reassociation, as row_dot's (see _rows.py), and
# so is the dense full form's, to stay equal to theirs; the dense diagonal sum may
# be vectorised.
@overload(row_variance, jit_options={"fastmath": False})
def _row_variance_strict_overload(X, i, cov, g, fit_intercept):
    if isinstance(X, types.BaseTuple):
        return _csr_full_variance if cov.ndim == 2 else _csr_diagonal_variance
    if cov.ndim == 2:
        return _dense_full_variance
    return None


@overload(row_variance)
def _row_variance_dense_diagonal_overload(X, i, cov, g, fit_intercept):
    if not isinstance(X, types.BaseTuple) and cov.ndim == 1:
        return _dense_diagonal_variance
    return None


# w += step Σx̃ on the features; returns step (Σx̃)_bias, the bias's move (0 without)

@register_jitable
def _full_move(X, i, w, cov, g, step, fit_intercept):
    for j in range(w.shape[0]):
        w[j] += step * g[j]
    return step * g[cov.shape[0] - 1] if fit_intercept else 0.0


@register_jitable
def _dense_diagonal_move(X, i, w, cov, g, step, fit_intercept):
    for j in range(X.shape[1]):
        w[j] += step * (cov[j] * X[i, j])
    return step * cov[cov.shape[0] - 1] if fit_intercept else 0.0


@register_jitable
def _csr_diagonal_move(X, i, w, cov, g, step, fit_intercept):
    data, indices, indptr = X[0], X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        w[j] += step * (cov[j] * _stored(data, k))
    return step * cov[cov.shape[0] - 1] if fit_intercept else 0.0


def row_move(X, i, w, cov, g, step, fit_intercept):
    """``w += step · Σx̃`` (the features' part; the full form reads ``Σx̃`` from
    ``g``). Returns ``step · (Σx̃)_bias``, what the bias moves by."""
    if cov.ndim == 2:
        kernel = _full_move
    else:
        kernel = _csr_diagonal_move if isinstance(X, tuple) else _dense_diagonal_move
    return kernel(X, i, w, cov, g, step, fit_intercept)


@overload(row_move, jit_options={"fastmath": False})
def _row_move_overload(X, i, w, cov, g, step, fit_intercept):
    if cov.ndim == 2:
        return _full_move
    return _csr_diagonal_move if isinstance(X, types.BaseTuple) else _dense_diagonal_move


# Σ −= factor (Σx̃)(Σx̃)ᵀ, or its diagonal s −= factor (s∘x̃)²

@register_jitable
def _full_shrink(X, i, cov, g, factor, fit_intercept):
    # factor (g_p g_q) is the same number as factor (g_q g_p): Σ stays exactly
    # symmetric (the overload is compiled without reassociation, which could regroup it)
    dimension = cov.shape[0]
    for p in range(dimension):
        gp = g[p]
        for q in range(dimension):
            cov[p, q] -= factor * (gp * g[q])


@register_jitable
def _dense_diagonal_shrink(X, i, cov, g, factor, fit_intercept):
    for j in range(X.shape[1]):
        sx = cov[j] * X[i, j]
        cov[j] -= factor * (sx * sx)
    if fit_intercept:
        last = cov.shape[0] - 1
        cov[last] -= factor * (cov[last] * cov[last])


@register_jitable
def _csr_diagonal_shrink(X, i, cov, g, factor, fit_intercept):
    data, indices, indptr = X[0], X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        sx = cov[j] * _stored(data, k)
        cov[j] -= factor * (sx * sx)
    if fit_intercept:
        last = cov.shape[0] - 1
        cov[last] -= factor * (cov[last] * cov[last])


def row_shrink(X, i, cov, g, factor, fit_intercept):
    """``Σ −= factor (Σx̃)(Σx̃)ᵀ`` (full, ``Σx̃`` from ``g``) or
    ``s −= factor (s∘x̃)²`` on the row's entries (diagonal)."""
    if cov.ndim == 2:
        kernel = _full_shrink
    else:
        kernel = _csr_diagonal_shrink if isinstance(X, tuple) else _dense_diagonal_shrink
    kernel(X, i, cov, g, factor, fit_intercept)


@overload(row_shrink, jit_options={"fastmath": False})
def _row_shrink_overload(X, i, cov, g, factor, fit_intercept):
    if cov.ndim == 2:
        return _full_shrink
    return _csr_diagonal_shrink if isinstance(X, types.BaseTuple) else _dense_diagonal_shrink


# The diagonal form on CSR rows, fused: one pass over the row's entries for
# ``f = w·x`` and ``v``, one for the move of ``w`` and the shrink of ``s``. Each
# pass reads ``w_j`` and ``s_j`` together, where the separate helpers above read
# ``s`` again (a cache miss per entry on wide data); every element sees the same
# operations in the same order as in those helpers, so the results are the same
# bit for bit (the sums run over ``k`` in the same order, without reassociation).

@register_jitable
def _csr_diagonal_dot_variance(X, i, w, cov, g, fit_intercept):
    data, indices, indptr = X[0], X[1], X[2]
    dot, total = 0.0, 0.0
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        x = _stored(data, k)
        dot += x * w[j]
        total += cov[j] * (x * x)
    if fit_intercept:
        total += cov[cov.shape[0] - 1]
    return dot, total


@register_jitable
def _binary_csr_diagonal_dot_variance(X, i, w, cov, g, fit_intercept):
    # stored values all 1: 1 · w_j is w_j and s_j (1 · 1) is s_j, exactly
    indices, indptr = X[1], X[2]
    dot, total = 0.0, 0.0
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        dot += w[j]
        total += cov[j]
    if fit_intercept:
        total += cov[cov.shape[0] - 1]
    return dot, total


@register_jitable
def _unfused_dot_variance(X, i, w, cov, g, fit_intercept):
    return row_dot(X, i, w), 0.0


def row_dot_variance(X, i, w, cov, g, fit_intercept):
    """``(x·w, v)`` in one pass for CSR rows and a diagonal ``Σ``; ``(x·w, 0)``
    otherwise, ``v`` left to :func:`row_variance_after` (computed only on rows
    that may update)."""
    if isinstance(X, tuple) and cov.ndim == 1:
        kernel = (_binary_csr_diagonal_dot_variance if X[0] is None
                  else _csr_diagonal_dot_variance)
    else:
        kernel = _unfused_dot_variance
    return kernel(X, i, w, cov, g, fit_intercept)


@overload(row_dot_variance, jit_options={"fastmath": False})
def _row_dot_variance_overload(X, i, w, cov, g, fit_intercept):
    if isinstance(X, types.BaseTuple) and cov.ndim == 1:
        return (_binary_csr_diagonal_dot_variance if isinstance(X[0], types.NoneType)
                else _csr_diagonal_dot_variance)
    return _unfused_dot_variance


def row_variance_after(X, i, cov, g, fit_intercept, fused):
    """``v`` for row ``i``: ``fused`` (from :func:`row_dot_variance`) for CSR rows and
    a diagonal ``Σ``, else :func:`row_variance`."""
    if isinstance(X, tuple) and cov.ndim == 1:
        return fused
    return row_variance(X, i, cov, g, fit_intercept)


@overload(row_variance_after)
def _row_variance_after_overload(X, i, cov, g, fit_intercept, fused):
    if isinstance(X, types.BaseTuple) and cov.ndim == 1:
        return lambda X, i, cov, g, fit_intercept, fused: fused
    return lambda X, i, cov, g, fit_intercept, fused: row_variance(X, i, cov, g, fit_intercept)


@register_jitable
def _csr_diagonal_move_shrink(X, i, w, cov, g, step, factor, fit_intercept):
    # row_move then row_shrink, fused: the move reads s before any shrink, and the
    # entries of a row are distinct columns (validation sums duplicates), so each
    # s_j is read once, then w_j and s_j written
    data, indices, indptr = X[0], X[1], X[2]
    last = cov.shape[0] - 1
    bias_move = step * cov[last] if fit_intercept else 0.0
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        sx = cov[j] * _stored(data, k)
        w[j] += step * sx
        cov[j] -= factor * (sx * sx)
    if fit_intercept:
        cov[last] -= factor * (cov[last] * cov[last])
    return bias_move


@register_jitable
def _unfused_move_shrink(X, i, w, cov, g, step, factor, fit_intercept):
    bias_move = row_move(X, i, w, cov, g, step, fit_intercept)
    row_shrink(X, i, cov, g, factor, fit_intercept)
    return bias_move


def row_move_shrink(X, i, w, cov, g, step, factor, fit_intercept):
    """:func:`row_move` then :func:`row_shrink` (in one pass for CSR rows and a
    diagonal ``Σ``); returns the bias's move."""
    if isinstance(X, tuple) and cov.ndim == 1:
        kernel = _csr_diagonal_move_shrink
    else:
        kernel = _unfused_move_shrink
    return kernel(X, i, w, cov, g, step, factor, fit_intercept)


@overload(row_move_shrink, jit_options={"fastmath": False})
def _row_move_shrink_overload(X, i, w, cov, g, step, factor, fit_intercept):
    if isinstance(X, types.BaseTuple) and cov.ndim == 1:
        return _csr_diagonal_move_shrink
    return _unfused_move_shrink


# SOP: w̃ = Σu after an update

@register_jitable
def _full_sop_weights(X, i, w, cov, u, g, fit_intercept):
    # g = Σu as a sum of rows of Σ, as in _dense_full_variance
    dimension = cov.shape[0]
    g[:] = 0.0
    for j in range(dimension):
        uj = u[j]
        if uj != 0.0:
            for q in range(dimension):
                g[q] += uj * cov[j, q]
    for j in range(w.shape[0]):
        w[j] = g[j]
    return g[cov.shape[0] - 1] if fit_intercept else 0.0


@register_jitable
def _dense_diagonal_sop_weights(X, i, w, cov, u, g, fit_intercept):
    for j in range(X.shape[1]):
        w[j] = cov[j] * u[j]
    last = cov.shape[0] - 1
    return cov[last] * u[last] if fit_intercept else 0.0


@register_jitable
def _csr_diagonal_sop_weights(X, i, w, cov, u, g, fit_intercept):
    # only the row's entries of s and u changed
    indices, indptr = X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        w[j] = cov[j] * u[j]
    last = cov.shape[0] - 1
    return cov[last] * u[last] if fit_intercept else 0.0


def row_sop_weights(X, i, w, cov, u, g, fit_intercept):
    """SOP's ``w̃ = Σu`` after an update on row ``i``: ``w`` is set, the bias returned."""
    if cov.ndim == 2:
        kernel = _full_sop_weights
    else:
        kernel = (_csr_diagonal_sop_weights if isinstance(X, tuple)
                  else _dense_diagonal_sop_weights)
    return kernel(X, i, w, cov, u, g, fit_intercept)


@overload(row_sop_weights, jit_options={"fastmath": False})
def _row_sop_weights_overload(X, i, w, cov, u, g, fit_intercept):
    if cov.ndim == 2:
        return _full_sop_weights
    if isinstance(X, types.BaseTuple):
        return _csr_diagonal_sop_weights
    return _dense_diagonal_sop_weights


def _prefetch_state(X, order, t, n, w, cov):
    """Prefetch ``w`` and the diagonal ``s`` of the rows ahead, for CSR triplets that
    carry a look-ahead (see :func:`~._rows.prefetch_ahead`); nothing otherwise. When
    ``w`` and ``s`` are strided views of pairs (:func:`interleaved_epoch`), ``s_j``
    shares ``w_j``'s cache line: only ``w`` is requested."""


@register_jitable(inline="always")
def _prefetch_pairs(X, order, t, n, w, cov):
    # prefetch_ahead's pipeline (_rows.py) written out: called from here with the
    # strided w of the pairs, its stages stayed calls, with four reference counts
    # taken and dropped around them every row (read in the generated code)
    # (the stored values, read in order, are left to the hardware's prefetcher)
    indices, indptr = X[1], X[2]
    rows_ahead, last = X[3], n - 1
    prefetch(indptr, epoch_row(order, min(t + 3 * rows_ahead, last)))
    i = epoch_row(order, min(t + 2 * rows_ahead, last))
    for k in range(indptr[i], indptr[i + 1], 8):  # 8 indices a line or more
        prefetch(indices, k)
    i = epoch_row(order, min(t + rows_ahead, last))
    for k in range(indptr[i], indptr[i + 1]):
        prefetch(w, indices[k])  # s_j is on w_j's line


# Inlined: as a call it passed 36 values on the stack for every row (read in the
# generated code of the diagonal loop).
@overload(_prefetch_state, inline="always")
def _prefetch_state_overload(X, order, t, n, w, cov):
    if isinstance(X, types.BaseTuple) and len(X) == 4 and cov.ndim == 1 \
            and cov.layout != "C":
        return _prefetch_pairs
    if isinstance(X, types.BaseTuple) and len(X) == 4 and cov.ndim == 1:
        def prefetch_both(X, order, t, n, w, cov):
            prefetch_ahead(X, order, t, n, w)
            _prefetch_row_weights(X, epoch_row(order, min(t + X[3], n - 1)), cov)
        return prefetch_both
    return lambda X, order, t, n, w, cov: None


def _log_rival(log, k, rival):
    """The rival class of the ``k``-th update, when the log has a fourth array."""
    if len(log) == 4:
        log[3][k] = rival


@overload(_log_rival)
def _log_rival_overload(log, k, rival):
    if len(log) == 4:
        def write(log, k, rival):
            rivals = log[3]
            rivals[k] = rival
        return write
    return lambda log, k, rival: None


# ---------------------------------------------------------------------------
# The epochs
# ---------------------------------------------------------------------------

# The diagonal form on CSR rows has its own loop. In the general loop below the
# row helpers (row_dot_variance, binary_step, row_move_shrink) stayed calls in the
# generated code: each spilled the CSR triplet and the state (about 30 values) to
# the stack and reloaded them, three times a row, for rows of 14 values (a9a) —
# AROW's epoch cost 3.5x the perceptron's. Here the two passes over the row are
# written in the loop itself, so that LLVM keeps the arrays in registers. Each
# value sees the same operations in the same order as in those helpers
# (_csr_diagonal_dot_variance, _csr_diagonal_move_shrink): bit for bit the same
# results. SOP (which also keeps u and recomputes w = Σu) stays on the general loop.

def _csr_diagonal(X, cov):
    """Whether ``X`` is a CSR triplet and ``cov`` a diagonal (a constant per compiled type)."""
    return isinstance(X, tuple) and cov.ndim == 1


@overload(_csr_diagonal)
def _csr_diagonal_overload(X, cov):
    answer = isinstance(X, types.BaseTuple) and cov.ndim == 1
    return lambda X, cov: answer


def _csr_diagonal_epoch(X, y, sw, order, rule, fit_intercept, state, log, carry):
    """The loop of :func:`second_order_epoch` for CSR rows, a diagonal ``Σ`` and any
    rule but SOP; a stub for other types (never called with them)."""


@overload(_csr_diagonal_epoch, jit_options={"fastmath": False})
def _csr_diagonal_epoch_overload(X, y, sw, order, rule, fit_intercept, state, log, carry):
    if not (isinstance(X, types.BaseTuple) and state[2].ndim == 1):
        return lambda X, y, sw, order, rule, fit_intercept, state, log, carry: (0, 0)
    return _csr_diagonal_loop


def _reassociated_binary_step(rule, m, v, weight, c_t):
    """:func:`binary_step` compiled with the package's fast-math flags, as the
    general loop compiles it: from the strict loop below a plain call would compile
    it without them, and CW's and SCW's α would round differently (~1e-15)."""
    return binary_step(rule, m, v, weight, c_t)


@overload(_reassociated_binary_step, jit_options={"fastmath": set(FASTMATH)})
def _reassociated_binary_step_overload(rule, m, v, weight, c_t):
    return lambda rule, m, v, weight, c_t: binary_step(rule, m, v, weight, c_t)


@register_jitable(inline="always")
def _diagonal_step(rule, m, v, weight, c_t):
    # AROW's step written here (the same two operations as binary_step's, which no
    # flag can regroup): a call would save and restore every value the loop keeps in
    # registers, on most rows (AROW updates whenever m < 1)
    if rule.code == AROW:
        beta = 1.0 / (v + rule.r / weight)
        return m < 1.0, (1.0 - m) * beta, beta, 1.0
    return _reassociated_binary_step(rule, m, v, weight, c_t)


@register_jitable
def _csr_diagonal_loop(X, y, sw, order, rule, fit_intercept, state, log, carry):
    w, cov = state.w, state.cov
    data, indices, indptr = X[0], X[1], X[2]
    last = cov.shape[0] - 1
    bias, count, c_t, scale = _epoch_start(state, carry)
    n_mistakes = 0
    n_updates = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        _prefetch_state(X, order, t, n, w, cov)
        weight = row_weight(sw, i)
        if weight == 0.0:
            continue
        count += 1
        start, stop = indptr[i], indptr[i + 1]
        # f = w·x and v = Σ s x² in one pass (_csr_diagonal_dot_variance)
        dot, total = 0.0, 0.0
        for k in range(start, stop):
            j = indices[k]
            x = _stored(data, k)
            dot += x * w[j]
            total += cov[j] * (x * x)
        if fit_intercept:
            total += cov[last]
        activation = dot + bias
        margin = y[i] * activation
        if margin <= 0.0:
            n_mistakes += 1
        if could_update(rule, margin):
            fires, alpha, beta, gamma = _diagonal_step(rule, margin, max(0.0, scale * total),
                                                       weight, c_t)
            if fires:
                # w += step s∘x and s -= factor (s∘x)², one pass (_csr_diagonal_move_shrink)
                step, factor = alpha * y[i] * scale, beta * scale
                bias_move = step * cov[last] if fit_intercept else 0.0
                for k in range(start, stop):
                    j = indices[k]
                    sx = cov[j] * _stored(data, k)
                    w[j] += step * sx
                    cov[j] -= factor * (sx * sx)
                if fit_intercept:
                    cov[last] -= factor * (cov[last] * cov[last])
                bias += bias_move
                scale *= gamma
                if log is not None:
                    _log_step(log, n_updates, i, activation, count)
                n_updates += 1
        if rule.code == IELLIP:
            c_t *= rule.b
    _end_epoch(state, carry, scale, bias, count, c_t)
    return n_mistakes, n_updates


@register_jitable
def _epoch_start(state, carry):
    """The bias, the rows seen, IELLIP's ``c_t``, and the factor ``γ`` carried from the
    last call (IELLIP's, folded into ``cov`` at the end; 1 for every other rule)."""
    scale = 1.0
    if carry is not None and carry[1] != 0.0:
        scale = carry[0]
    return state.b[0], state.seen[0], state.c[0], scale


@register_jitable
def _end_epoch(state, carry, scale, bias, count, c_t):
    """IELLIP's factor folded into ``cov`` (or carried), the scalars stored."""
    if carry is None:
        if scale != 1.0:
            state.cov[:] *= scale
    else:
        carry[0], carry[1] = scale, 1.0
    state.b[0], state.seen[0], state.c[0] = bias, count, c_t


@jit
def second_order_epoch(X, y, sw, order, rule, fit_intercept, state, log, carry=None):
    """One pass of a two-class second-order rule over the rows ``order``.

    X: a dense C-contiguous array or a CSR triplet (:func:`~rosenblatt._validation.kernel_view`);
    y: float64 labels in {-1, +1}; sw: float64 row weights or ``None`` (all 1;
    see the module docstring for what a weight means); order: intp row indices,
    empty for the natural order; rule: a :class:`SecondOrderRule`
    (:func:`second_order_rule`); fit_intercept: whether ``x`` carries a constant 1
    (then ``cov`` has ``d + 1`` rows, the bias last);
    state: a :class:`SecondOrderState` (:func:`new_state`), updated in place, so
    that consecutive calls continue exactly where the last stopped;
    log: ``(rows, activations, positions)`` or ``None``: the ``k``-th update's row,
    its decision value ``f = w·x + b`` before the update (as
    :func:`~._online.online_epoch` logs it; the margin is ``y f``) and its example
    number (1-based, over every epoch; see :func:`~._online._log_step`); arrays of
    the epoch's length suffice; carry: ``None`` (IELLIP's factor is folded into
    ``cov`` at the end) or ``[factor, 1]`` kept from one call to the next, ``cov``
    holding ``Σ / factor`` between them, so that the blocks of a file, each a
    call, do the arithmetic of one call over all their rows
    (:func:`second_order_unscale` folds it after the last).

    The form of ``Σ`` is that of ``state.cov``: (D, D) full, (D,) diagonal.
    Returns ``(mistakes, updates)``: the rows of positive weight with
    ``y f <= 0``, and those on which the rule's condition held (a row of zeros
    without intercept can "update" AROW by nothing, as it does the perceptron).
    """
    if _csr_diagonal(X, state[2]) and rule.code != SOP:
        return _csr_diagonal_epoch(X, y, sw, order, rule, fit_intercept, state, log, carry)
    w, cov, u = state.w, state.cov, state.u
    g = workspace(cov)
    bias, count, c_t, scale = _epoch_start(state, carry)
    n_mistakes = 0
    n_updates = 0
    n = epoch_length(X, order)
    for t in range(n):
        i = epoch_row(order, t)
        _prefetch_state(X, order, t, n, w, cov)
        weight = row_weight(sw, i)
        if weight == 0.0:
            continue
        count += 1
        dot, fused_variance = row_dot_variance(X, i, w, cov, g, fit_intercept)
        activation = dot + bias
        margin = y[i] * activation
        if margin <= 0.0:
            n_mistakes += 1
        if could_update(rule, margin):
            variance = max(0.0, scale * row_variance_after(X, i, cov, g, fit_intercept,
                                                           fused_variance))
            fires, alpha, beta, gamma = binary_step(rule, margin, variance, weight, c_t)
            if fires:
                if rule.code == SOP:
                    step = weight * y[i]
                    row_axpy(X, i, u, step)
                    if fit_intercept:
                        u[u.shape[0] - 1] += step
                    row_shrink(X, i, cov, g, beta, fit_intercept)
                    bias = row_sop_weights(X, i, w, cov, u, g, fit_intercept)
                else:
                    # the true Σ is scale · cov: Σx̃ = scale · (cov x̃)
                    bias += row_move_shrink(X, i, w, cov, g, alpha * y[i] * scale,
                                            beta * scale, fit_intercept)
                    scale *= gamma
                if log is not None:
                    _log_step(log, n_updates, i, activation, count)
                n_updates += 1
        if rule.code == IELLIP:
            c_t *= rule.b
    _end_epoch(state, carry, scale, bias, count, c_t)
    return n_mistakes, n_updates


#: Stored values per entry of ``Σ`` from which :func:`interleaved_epoch` pays its copies
#: (for a state not kept as pairs already): on the 2**20 click log the copies in and out
#: took 3.3 ms and the pairs saved 1.3 ns a stored value (AROW, 200,000 rows of 40: 37.0
#: -> 26.7 ms), so they repay themselves from about 2.5 stored values per feature.
INTERLEAVE_VALUES_PER_FEATURE = 2.5


def interleaves(X, order, rule, state):
    """Whether :func:`interleaved_epoch` is worth its copies for this call: CSR rows
    wide enough to carry a look-ahead (``w`` and ``s`` beyond the caches, see
    :func:`~rosenblatt._validation.kernel_view`), a diagonal ``Σ``, a rule other than
    SOP, and enough stored values in the epoch to repay two copies of ``w`` and ``s``."""
    if not (isinstance(X, tuple) and len(X) == 4 and state.cov.ndim == 1
            and rule.code != SOP):
        return False
    indptr = X[2]
    stored = int(indptr[-1])
    if len(order):
        stored = stored * len(order) // max(1, len(indptr) - 1)
    return stored >= INTERLEAVE_VALUES_PER_FEATURE * state.cov.shape[0]


def interleaved_epoch(X, y, sw, order, rule, fit_intercept, state, log, carry=None):
    """:func:`second_order_epoch` with ``w`` and the diagonal ``s`` stored as pairs
    ``(w_j, s_j)`` in one array for the epoch, and copied back after it.

    On wide data every ``w_j`` and every ``s_j`` of a row is a cache miss; stored
    apart they are two misses (two cache lines, two pages) per stored value, stored
    as pairs one: the epoch on a 2**20-feature click log ran 2.4x faster (21.6 ->
    8.9 ms a 100,000-row epoch, a scratch kernel). The kernel is the same code on
    strided views of the pairs, and every value sees the same operations: the
    state after the call is the same bit for bit. A state already kept as pairs
    (:func:`as_pairs`, what the learner does on wide CSR) is used as it is; any
    other is copied into pairs for the call and back after it. Model files store
    ``w`` and ``s`` apart either way.
    """
    if paired(state):  # already pairs (as_pairs): no copy
        return second_order_epoch(X, y, sw, order, rule, fit_intercept, state, log, carry)
    w, cov = state.w, state.cov
    view = as_pairs(state)
    try:
        return second_order_epoch(X, y, sw, order, rule, fit_intercept, view, log, carry)
    finally:  # also after a division by zero: the rows before it have updated the state
        _deinterleave(view.w.base, w, cov)


def as_pairs(state):
    """``state`` with ``w`` and the diagonal ``s`` copied into one ``(D, 2)`` array
    of pairs ``(w_j, s_j)``, as strided views of it (the bias's slot unused: the
    bias is ``b[0]``). A learner on wide CSR keeps its state so from the start, and
    :func:`interleaved_epoch` then copies nothing (the copies cost 11 % of AROW's
    epoch on the 2**20 click log); whatever reads ``w`` and ``s`` between epochs
    reads the views."""
    pairs = np.empty((state.cov.shape[0], 2))
    _interleave(state.w, state.cov, pairs)
    return state._replace(w=pairs[:state.w.shape[0], 0], cov=pairs[:, 1])


def paired(state):
    """Whether ``w`` and ``s`` are the two columns of one array of pairs (:func:`as_pairs`)."""
    w, cov = state.w, state.cov
    base = w.base
    return (cov.ndim == 1 and base is not None and cov.base is base and base.ndim == 2
            and base.shape == (cov.shape[0], 2) and w.strides == cov.strides == (16,)
            and w.ctypes.data == base.ctypes.data
            and cov.ctypes.data == base.ctypes.data + 8)


# One pass each way (NumPy's strided assignments take two, each writing every line)

@jit
def _interleave(w, cov, pairs):
    for j in range(w.shape[0]):
        pairs[j, 0] = w[j]
        pairs[j, 1] = cov[j]
    for j in range(w.shape[0], cov.shape[0]):  # the bias's slot: unused (the bias is b[0])
        pairs[j, 0] = 0.0
        pairs[j, 1] = cov[j]


@jit
def _deinterleave(pairs, w, cov):
    for j in range(w.shape[0]):
        w[j] = pairs[j, 0]
        cov[j] = pairs[j, 1]
    for j in range(w.shape[0], cov.shape[0]):
        cov[j] = pairs[j, 1]


@jit
def second_order_unscale(cov, carry):
    """Fold the factor :func:`second_order_epoch` carried over its calls into ``cov``."""
    if carry[1] != 0.0:
        if carry[0] != 1.0:
            cov *= carry[0]
        carry[1] = 0.0


@jit
def multiclass_second_order_epoch(X, y, sw, order, rule, fit_intercept, state, log):
    """One pass of a native multiclass second-order rule (``MULTICLASS_AROW``,
    ``MULTICLASS_SCW1``, ``MULTICLASS_SCW2``) over the rows ``order``.

    ``y`` holds class indices. For row ``i`` of class ``c``, ``F_k = W_k·x + b_k``,
    the rival ``s`` is the best-scoring other class (the first on ties),
    ``m = F_c − F_s``; a mistake is ``m <= 0``. On an update ``W_c`` and ``b_c``
    move by ``+αΣx̃``, ``W_s`` and ``b_s`` by ``−αΣx̃`` and the shared ``Σ`` shrinks
    (:func:`multiclass_step`). ``state`` is a :class:`MulticlassSecondOrderState`
    (:func:`new_multiclass_state`); ``log`` is ``(rows, margins, positions)`` or
    ``(rows, margins, positions, rivals)`` (the margin ``m`` before the update and
    the rival ``s``, as :func:`~._multiclass.multiclass_epoch` logs them), or
    ``None``; the other arguments and the result are as in
    :func:`second_order_epoch`.
    """
    W, b, cov, seen = state
    g = workspace(cov)
    n_classes = W.shape[0]
    count = seen[0]
    n_mistakes = 0
    n_updates = 0
    for t in range(epoch_length(X, order)):
        i = epoch_row(order, t)
        weight = row_weight(sw, i)
        if weight == 0.0:
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
        margin = true_score - rival_score
        if margin <= 0.0:
            n_mistakes += 1
        if could_update(rule, margin):
            variance = max(0.0, row_variance(X, i, cov, g, fit_intercept))
            fires, alpha, beta = multiclass_step(rule, margin, variance, weight)
            if fires:
                b[c] += row_move(X, i, W[c], cov, g, alpha, fit_intercept)
                b[rival] += row_move(X, i, W[rival], cov, g, -alpha, fit_intercept)
                row_shrink(X, i, cov, g, beta, fit_intercept)
                if log is not None:
                    _log_step(log, n_updates, i, margin, count)
                    _log_rival(log, n_updates, rival)
                n_updates += 1
    seen[0] = count
    return n_mistakes, n_updates
