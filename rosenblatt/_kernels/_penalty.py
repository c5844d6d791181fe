"""scikit-learn's regularisation inside the online loop, at sparse cost.

With ``penalty`` the weights are kept as ``w = s · v``: the L2 shrink
``w ← decay · w`` that every example applies is one multiplication of the
scalar ``s`` (scikit-learn's ``WeightVector``), and an update ``w += c x``
touches only the row's features, ``v += (c/s) x``. When ``s`` falls below
1e-9 it is folded into ``v``, as scikit-learn does, and at the end of every
epoch, so that the running weights between epochs are ``v`` itself.

The L1 part is the cumulative truncated gradient of Tsuruoka, Tsujii &
Ananiadou (2009), scikit-learn's ``l1penalty``: after each example every
weight of the row's features moves towards 0 by what the penalty has added up
to so far (``u``) less what it already took from that weight (``q_j``), and
never past 0. For dense rows that is every feature, for a CSR row its stored
ones, as in scikit-learn.

The averaged weights are kept exactly under the shrink: with ``P`` the sum of
the scales so far, ``Σ_t w_t = v P − U`` where ``U`` adds ``P · Δv`` on every
change ``Δv`` of ``v`` (an update or a truncation); Daumé's Alg. 7 is the case
``s = 1``. For the stopping rule the kernel also keeps ``‖w‖²`` and ``‖v‖₁``
up to date, for scikit-learn's objective ``loss + α((1−ρ)‖w‖²/2 + ρ‖w‖₁)``.

penalty = Penalty(params, scalars, q), arrays named field by field:
    params: float64, read only: ``params[DECAY]`` the L2 shrink per example,
    ``params[L1_STEP]`` what the L1 penalty adds per example (ρ η α),
    ``params[L2_WEIGHT]`` α(1−ρ)/2 and ``params[L1_WEIGHT]`` αρ (the objective's
    terms), ``params[TRACKS]`` 1 when the norms are needed (for ``tol``), else 0
    and the update is a plain loop;
    scalars: float64, updated in place: ``scalars[SCALE]`` s, ``scalars[SCALE_SUM]``
    P, ``scalars[L1_TOTAL]`` u, ``scalars[SQUARED_NORM]`` ‖w‖², ``scalars[L1_NORM]``
    ‖v‖₁;
    q: float64 (n_features,), what the L1 penalty took from each weight.
"""

from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

#: positions in ``Penalty.params`` (numba reads these globals as constants)
DECAY, L1_STEP, L2_WEIGHT, L1_WEIGHT, TRACKS = range(5)
#: positions in ``Penalty.scalars``
SCALE, SCALE_SUM, L1_TOTAL, SQUARED_NORM, L1_NORM = range(5)


class Penalty(NamedTuple):
    """The regularisation's state during one ``fit``/``partial_fit`` call (see the
    module docstring): a named tuple, which the kernels take as it is."""

    params: np.ndarray
    scalars: np.ndarray
    q: np.ndarray

#: scikit-learn's WSCALE_MIN: below it the scale is folded into the weights
SCALE_MIN = 1e-9


@register_jitable
def scaled_dot(dot, penalty):
    """``w·x`` from ``v·x``."""
    return dot * penalty.scalars[SCALE]


@register_jitable
def regularisation(penalty):
    """``α((1−ρ)‖w‖²/2 + ρ‖w‖₁)`` at the current weights."""
    params, scalars = penalty.params, penalty.scalars
    return params[L2_WEIGHT] * scalars[SQUARED_NORM] + params[L1_WEIGHT] * abs(scalars[SCALE]) * scalars[L1_NORM]


@register_jitable
def decay(v, average, penalty):
    """The L2 shrink of one example: ``s ← decay · s`` (folded below 1e-9)."""
    params, scalars = penalty.params, penalty.scalars
    scalars[SCALE] *= params[DECAY]
    scalars[SQUARED_NORM] *= params[DECAY] * params[DECAY]
    if scalars[SCALE] < SCALE_MIN:
        fold(v, average, penalty)


@register_jitable
def fold(v, average, penalty):
    """``v ← s v``, ``s ← 1``, keeping ``Σ w_t`` (``U ← U − v P``, ``P ← 0``)."""
    scalars = penalty.scalars
    s = scalars[SCALE]
    if average is not None:
        U = average[0]
        for j in range(v.shape[0]):
            U[j] -= v[j] * scalars[SCALE_SUM]
        scalars[SCALE_SUM] = 0.0
    l1 = 0.0
    for j in range(v.shape[0]):
        v[j] *= s
        l1 += abs(v[j])
    scalars[SCALE] = 1.0
    scalars[L1_NORM] = l1


@register_jitable
def end_example(penalty):
    """``P += s``: the weights after this example enter the average."""
    scalars = penalty.scalars
    scalars[SCALE_SUM] += scalars[SCALE]


@register_jitable
def _change(v, j, new, average, scalars):
    """Set ``v_j`` and keep ``U``, ``‖v‖₁`` and ``‖w‖²`` in step."""
    old = v[j]
    v[j] = new
    if average is not None:
        average[0][j] += scalars[SCALE_SUM] * (new - old)
    scalars[L1_NORM] += abs(new) - abs(old)
    s = scalars[SCALE]
    scalars[SQUARED_NORM] += s * s * (new * new - old * old)


def scaled_axpy(X, i, v, step, average, penalty):
    """``w += step x_i`` as ``v += (step/s) x_i``."""
    if isinstance(X, tuple):
        _csr_scaled_axpy(X, i, v, step, average, penalty)
    else:
        _dense_scaled_axpy(X, i, v, step, average, penalty)


def truncate(X, i, v, average, penalty):
    """The cumulative L1 truncation of the row's weights (see the module docstring)."""
    if isinstance(X, tuple):
        _csr_truncate(X, i, v, average, penalty)
    else:
        _dense_truncate(X, i, v, average, penalty)


def stored_value(data, k):
    """``data[k]``, or 1 for a binary CSR matrix (``data`` is ``None``)."""
    return 1.0 if data is None else data[k]


@overload(stored_value)
def _stored_value_overload(data, k):
    if isinstance(data, types.NoneType):
        return lambda data, k: 1.0
    return lambda data, k: data[k]


@register_jitable
def _truncate_one(v, j, q, u, average, scalars):
    s = scalars[SCALE]
    z = v[j]
    if s * z > 0.0:
        new = max(0.0, z - (u + q[j]) / s)
    elif s * z < 0.0:
        new = min(0.0, z + (u - q[j]) / s)
    else:
        return
    _change(v, j, new, average, scalars)
    q[j] += s * (new - z)


@register_jitable
def _dense_scaled_axpy(X, i, v, step, average, penalty):
    scalars = penalty.scalars
    c = step / scalars[SCALE]
    if average is None and penalty.params[TRACKS] == 0.0:  # nothing to keep in step: w += c x
        for j in range(X.shape[1]):
            v[j] += c * X[i, j]
        return
    for j in range(X.shape[1]):
        if X[i, j] != 0.0:
            _change(v, j, v[j] + c * X[i, j], average, scalars)


@register_jitable
def _csr_scaled_axpy(X, i, v, step, average, penalty):
    data, indices, indptr = X[0], X[1], X[2]
    scalars = penalty.scalars
    c = step / scalars[SCALE]
    if average is None and penalty.params[TRACKS] == 0.0:
        for k in range(indptr[i], indptr[i + 1]):
            v[indices[k]] += c * stored_value(data, k)
        return
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        _change(v, j, v[j] + c * stored_value(data, k), average, scalars)


@register_jitable
def _dense_truncate(X, i, v, average, penalty):
    params, scalars, q = penalty
    scalars[L1_TOTAL] += params[L1_STEP]
    for j in range(X.shape[1]):
        _truncate_one(v, j, q, scalars[L1_TOTAL], average, scalars)


@register_jitable
def _csr_truncate(X, i, v, average, penalty):
    params, scalars, q = penalty
    scalars[L1_TOTAL] += params[L1_STEP]
    indices, indptr = X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        _truncate_one(v, indices[k], q, scalars[L1_TOTAL], average, scalars)


@overload(scaled_axpy)
def _scaled_axpy_overload(X, i, v, step, average, penalty):
    return _csr_scaled_axpy if isinstance(X, types.BaseTuple) else _dense_scaled_axpy


@overload(truncate)
def _truncate_overload(X, i, v, average, penalty):
    return _csr_truncate if isinstance(X, types.BaseTuple) else _dense_truncate
