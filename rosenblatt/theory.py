"""What the texts prove about the perceptron, computed exactly.

Margins (Daumé eqs. 4.8 and 4.9), linear separability, the mistake bound of the
convergence proof (Ahmed & Pavlu), and the loss functions of the texts. The
optimisation problems go to real solvers: HiGHS (through SciPy) for the linear
programs, Clarabel for the maximum-margin quadratic program.
"""

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from ._validation import real_matrix

__all__ = [
    "dataset_margin",
    "geometric_margin",
    "hinge_loss",
    "is_linearly_separable",
    "margin",
    "mistake_bound",
    "check_mistake_bound",
    "perceptron_loss",
    "squared_loss",
    "zero_one_loss",
]


def _as_dense(X):
    X = real_matrix(X)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array; got shape {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinity; remove or impute those values first.")
    return X


def _centred(X, per_feature):
    """``(X − μ) / s`` and ``(μ, s)``: the solvers' tolerances are absolute, so data
    at 1e-9 or 1e6 are brought near 1 first. ``s`` per feature (separability does not
    change under any invertible affine map) or one number (margins scale with it)."""
    mean = X.mean(axis=0)
    centred = X - mean
    if per_feature:
        scale = np.abs(centred).max(axis=0)
        scale[scale == 0] = 1.0
    else:
        scale = float(np.abs(centred).max()) or 1.0
    return centred / scale, mean, scale


def _signed_labels(y, n_rows):
    y = np.asarray(y)
    if y.shape != (n_rows,):
        raise ValueError(f"y must hold one label per row of X ({n_rows}); got shape {y.shape}.")
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(
            f"y must hold exactly two classes to speak of a separating hyperplane; got "
            f"{classes.tolist()!r}."
        )
    return np.where(y == classes[1], 1.0, -1.0)


def margin(X, y, w, b=0.0):
    """Daumé eq. 4.8: ``min_n y_n (w·x_n + b)`` if ``(w, b)`` separates the data, else −∞.

    Labels are any two values (the larger one is +1).

    >>> margin([[0, 0], [2, 2]], [-1, 1], w=[1, 1], b=-2)
    2.0
    >>> margin([[0, 0], [2, 2]], [-1, 1], w=[-1, 0], b=0)
    -inf
    """
    X = _as_dense(X)
    signed = _signed_labels(y, X.shape[0])
    values = signed * (X @ np.asarray(w, dtype=np.float64).ravel() + float(b))
    smallest = float(values.min())
    return smallest if smallest > 0 else -np.inf


def geometric_margin(X, y, w, b=0.0):
    """:func:`margin` divided by ``‖w‖``: the distance of the closest point to the
    hyperplane (−∞ if ``(w, b)`` does not separate).

    >>> round(geometric_margin([[0, 0], [2, 2]], [-1, 1], w=[1, 1], b=-2), 6)
    1.414214
    """
    norm = float(np.linalg.norm(np.asarray(w, dtype=np.float64)))
    value = margin(X, y, w, b)
    if norm == 0.0 or not np.isfinite(value):
        return -np.inf
    return value / norm


def is_linearly_separable(X, y):
    """Whether a hyperplane ``w·x + b`` puts every point strictly on its side.

    Decided exactly as the feasibility of the linear program
    ``y_n (w·x_n + b) >= 1`` (scaling any strict separator makes it feasible),
    solved by HiGHS on the data centred and scaled per feature (which changes
    no answer, and keeps HiGHS's tolerances meaningful for data at 1e-9 or 1e9).

    >>> is_linearly_separable([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    True
    >>> is_linearly_separable([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0])
    False
    """
    X = _as_dense(X)
    signed = _signed_labels(y, X.shape[0])
    X = _centred(X, per_feature=True)[0]
    A = -signed[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    result = linprog(
        np.zeros(X.shape[1] + 1), A_ub=A, b_ub=-np.ones(X.shape[0]),
        bounds=[(None, None)] * (X.shape[1] + 1), method="highs",
    )
    if result.status not in (0, 2):
        raise ValueError(f"HiGHS could not decide separability ({result.message}); check "
                         "X for extreme values.")
    return result.status == 0


def _max_margin(Z, signed, free_bias, objective=None):
    """Solve ``min ½‖w‖² s.t. y_n (w·z_n + b) >= 1`` (``b`` = 0 unless ``free_bias``),
    or ``min ½ (w, b)ᵀ objective (w, b)`` under the same constraints.

    A convex quadratic program, solved by the Clarabel interior-point solver
    with tight tolerances. Returns ``(w, b)``, or ``None`` when infeasible
    (the data are not separable).
    """
    import clarabel

    n, d = Z.shape
    rows = signed[:, None] * (np.hstack([Z, np.ones((n, 1))]) if free_bias else Z)
    size = rows.shape[1]
    if objective is None:
        penalised = np.ones(size)
        if free_bias:
            penalised[-1] = 0.0  # the bias is free: it does not count in ‖w‖
        objective = sp.diags(penalised)
    # Clarabel's form: min ½ vᵀPv + qᵀv subject to A v + s = b, s >= 0 (P: upper triangle)
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = 1e-12
    settings.max_iter = 500
    solver = clarabel.DefaultSolver(
        sp.csc_matrix(sp.triu(sp.csc_matrix(objective))), np.zeros(size),
        sp.csc_matrix(-rows), -np.ones(n), [clarabel.NonnegativeConeT(n)], settings,
    )
    solution = solver.solve()
    status = str(solution.status)
    if "Infeasible" in status:
        return None
    if "Solved" not in status:
        raise ValueError(f"Clarabel did not solve the max-margin problem ({status}); the "
                         "data may be badly scaled or nearly inseparable.")
    v = np.asarray(solution.x)
    return (v[:-1], float(v[-1])) if free_bias else (v, 0.0)


def dataset_margin(X, y):
    """Daumé eq. 4.9: the largest margin of any separating hyperplane, with ``‖w‖ = 1``.

    Solved exactly as the hard-margin problem ``min ½‖w‖²`` subject to
    ``y_n (w·x_n + b) >= 1``: then ``γ = 1/‖w*‖`` and the optimal unit-norm
    hyperplane is ``(w*, b*)/‖w*‖``. Returns ``(γ, w, b)``, or ``(−∞, None,
    None)`` when the data are not linearly separable.

    >>> gamma, w, b = dataset_margin([[0, 0], [2, 0]], [-1, 1])
    >>> round(gamma, 6), w.round(6).tolist(), round(b, 6)
    (1.0, [1.0, 0.0], -1.0)
    """
    X = _as_dense(X)
    signed = _signed_labels(y, X.shape[0])
    # solved on (X − μ)/s: with unit w, w·x + b = s (w·x' + b') when b = s b' − w·μ
    scaled, mean, scale = _centred(X, per_feature=False)
    solution = _max_margin(scaled, signed, free_bias=True)
    if solution is None:
        return -np.inf, None, None
    w, b = solution
    norm = float(np.linalg.norm(w))
    w, b = w / norm, b / norm
    return scale / norm, w, scale * b - float(w @ mean)


def mistake_bound(X, y, margin=0.0, eta=1.0):
    """The perceptron convergence bound ``(R² + 2 margin/eta)/γ²`` (``(R/γ)²`` at margin 0).

    On the augmented data ``x̃ = (1, x)`` that a perceptron with a bias really
    learns from: ``R = max ‖x̃‖`` and ``γ`` the largest ``min y w̃·x̃`` over unit
    ``w̃`` — the bias counts in the norm. (The free-bias margin of
    :func:`dataset_margin` would give a smaller number that the perceptron can
    exceed.) Returns ``inf`` for data that are not separable.

    The proof (Ahmed & Pavlu; Novikoff 1962), with a mistake at ``y w̃·x̃ <= τ``
    (``τ = margin``) and the update ``w̃ += η y x̃`` from ``w̃ = 0``. Let ``u`` be
    the unit vector of margin γ. After ``k`` updates:

    - each update adds ``η y u·x̃ >= η γ`` to ``u·w̃``, so ``u·w̃_k >= k η γ``;
    - each update adds ``2 η y w̃·x̃ + η² ‖x̃‖² <= 2 η τ + η² R²`` to ``‖w̃‖²``
      (the first term is at most ``2ητ`` because the update was a mistake), so
      ``‖w̃_k‖² <= k (2 η τ + η² R²)``.

    Cauchy–Schwarz, ``u·w̃_k <= ‖w̃_k‖``, gives ``k² η² γ² <= k (2 η τ + η² R²)``,
    that is ``k <= (R² + 2 τ/η) / γ²``. At ``τ = 0`` the learning rate cancels
    and the bound is ``(R/γ)²`` for every η and order; a margin makes the
    bound, like the updates, depend on how ``τ`` compares with ``η R²``.

    >>> round(mistake_bound([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]), 4)
    51.0
    >>> round(mistake_bound([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1], margin=1.5), 4)
    102.0
    """
    if not (np.isfinite(margin) and margin >= 0):
        raise ValueError(f"margin must be a finite number >= 0; got {margin!r}.")
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a finite number > 0; got {eta!r}.")
    X = _as_dense(X)
    signed = _signed_labels(y, X.shape[0])
    solution = _augmented_max_margin(X, signed)
    if solution is None:
        return np.inf
    w, b = solution
    # γ is the margin this unit vector reaches (at most the best one's: the bound
    # can only come out larger, never below the truth); R/γ without overflow
    big = max(float(np.abs(X).max()), 1.0)
    norm = float(np.hypot(np.linalg.norm(w), b))
    gamma = float(np.min(signed * (X @ w + b))) / norm
    if not gamma > 0:
        if not is_linearly_separable(X, signed):
            return np.inf
        raise ValueError(
            "mistake_bound could not compute the margin of the augmented data (1, x) "
            "accurately: X's spread is tiny beside its distance from the origin (or beside "
            "the constant 1 of the bias). The bound is that of a perceptron on X as given; "
            "centre or scale X before training and compute the bound on the same X."
        )
    radius = big * float(np.max(np.hypot(np.linalg.norm(X / big, axis=1), 1.0 / big)))
    return (radius / gamma) ** 2 + 2.0 * margin / eta / gamma**2


def _augmented_max_margin(X, signed):
    """``(w, b)`` of ``min ‖w‖² + b² s.t. y_n (w·x_n + b) >= 1`` (the bias counts in
    the norm), or ``None`` when the data are not separable.

    Solved on ``z = (x − μ)/s`` with ``c = b + w·μ``: the constraints
    ``y (w'·z + c) >= 1`` (``w' = s w``) are then well conditioned for any shift μ,
    and the objective keeps its exact value ``‖w'‖²/s² + (c − w'·μ/s)²``. On the raw
    ``(1, x)`` a shift of 1,000 made the columns (1 and ~1000) so unbalanced that
    the solver stopped without a solution."""
    scaled, mean, scale = _centred(X, per_feature=False)
    shift = mean / scale
    d = X.shape[1]
    # ‖w‖² + b² = ‖L (w', c)‖²
    L = np.zeros((d + 1, d + 1))
    L[:d, :d] = np.eye(d) / scale
    L[d, :d] = -shift
    L[d, d] = 1.0
    solution = _max_margin(scaled, signed, free_bias=True, objective=L.T @ L)
    if solution is None:
        return None
    w_scaled, c = solution
    return w_scaled / scale, c - float(shift @ w_scaled)


def check_mistake_bound(model, X, y):
    """Compare a fitted binary perceptron's ``n_updates_`` with :func:`mistake_bound`
    (at the model's ``margin`` and ``eta``).

    Returns ``(n_updates, bound, within)``. The bound holds for a zero start,
    and for training with a bias (``fit_intercept=True``) without a penalty.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> updates, bound, within = check_mistake_bound(Perceptron(shuffle="none").fit(X, y), X, y)
    >>> updates, round(bound, 2), within
    (18, 51.0, True)
    >>> model = Perceptron(margin=1.5, shuffle="none").fit(X, y)
    >>> updates, bound, within = check_mistake_bound(model, X, y)
    >>> updates, round(bound, 2), within
    (35, 102.0, True)
    """
    init = getattr(model, "init", "zeros")
    if not (isinstance(init, str) and init == "zeros") or not getattr(model, "fit_intercept"):
        raise ValueError(
            "The mistake bound is proved for a zero start with a bias: fit with "
            "init='zeros' and fit_intercept=True."
        )
    if getattr(model, "penalty", None) is not None:
        raise ValueError("The mistake bound is proved without a penalty: fit with penalty=None.")
    margin, eta = getattr(model, "margin", 0.0), getattr(model, "eta", 1.0)
    bound = mistake_bound(X, y, margin=margin, eta=eta)
    return int(model.n_updates_), bound, bool(model.n_updates_ <= bound)


def _pair(y, scores):
    y, scores = np.asarray(y, dtype=np.float64), np.asarray(scores, dtype=np.float64)
    if y.shape != scores.shape:
        raise ValueError(f"y and scores must have the same shape; got {y.shape} and "
                         f"{scores.shape}.")
    return y, scores


def perceptron_loss(y, scores):
    """``max(0, −y s)`` per example, labels ±1 (Ahmed & Pavlu §2.3).

    >>> perceptron_loss([1, -1, 1], [2.0, 0.5, -3.0]).tolist()
    [0.0, 0.5, 3.0]
    """
    y, scores = _pair(y, scores)
    return np.maximum(0.0, -y * scores)


def hinge_loss(y, scores):
    """``max(0, 1 − y s)`` per example, labels ±1.

    >>> hinge_loss([1, -1], [2.0, 0.5]).tolist()
    [0.0, 1.5]
    """
    y, scores = _pair(y, scores)
    return np.maximum(0.0, 1.0 - y * scores)


def squared_loss(y, scores):
    """``½ (y − s)²`` per example: the linear unit's loss (Ahmed & Pavlu §3).

    >>> squared_loss([1, -1], [0.0, 1.0]).tolist()
    [0.5, 2.0]
    """
    y, scores = _pair(y, scores)
    return 0.5 * (y - scores) ** 2


def zero_one_loss(y, scores):
    """1 where the sign of ``s`` (−1 at 0) is not ``y``, else 0.

    >>> zero_one_loss([1, -1, 1], [2.0, 0.0, 0.0]).tolist()
    [0.0, 0.0, 1.0]
    """
    y, scores = _pair(y, scores)
    return (np.where(scores > 0, 1.0, -1.0) != y).astype(np.float64)
