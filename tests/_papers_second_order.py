"""Slow, obvious oracles of the second-order online rules, for the kernels of
``rosenblatt._kernels._second_order`` to equal.

Written from the papers' updates as ``shared/design/online-family.md`` states
them (the multiclass SCW from LIBOL's ``M_SCW1.m``/``M_SCW2.m``): plain NumPy
over dense float64 rows, one pass per ``passes`` in the given row order, from
``w = 0`` and ``Σ = aI`` (SOP: ``A = aI``). ``fit_intercept`` appends a column
of ones to ``X``: the bias is the last weight. ``diagonal=True`` keeps only the
diagonal ``s`` of ``Σ`` with the note's "drop" rule: where the full rule does
``Σ -= k (Σx)(Σx)ᵀ``, it does ``s -= k (s*x)**2``, and ``Σx`` is ``s*x``.

Row weights ``sw``: a row of weight 0 is skipped (IELLIP's ``c`` does not decay
either); a weight ``ω > 0`` counts the row ``ω`` times in the loss: ``r/ω``
(AROW, NAROW), ``Cω`` (NHERD, SCW), ``A += ω x xᵀ`` and ``u += ω y x`` (SOP);
CW and IELLIP have no loss and ignore it.
"""

from typing import NamedTuple

import numpy as np
from scipy.stats import norm


class Fit(NamedTuple):
    coef: np.ndarray       # (d,) or (K, d)
    intercept: np.ndarray  # () or (K,)
    cov: np.ndarray        # Σ (D, D) or its diagonal (D,), the bias last
    mistakes: int
    updates: list          # (row, margin) of every update, in order
    c: float = 0.0         # IELLIP's c_t for the next row


class Gaussian:
    """The mean ``w`` and the covariance ``Σ`` (or its diagonal)."""

    def __init__(self, dimension, a, diagonal):
        self.w = np.zeros(dimension)
        self.diagonal = diagonal
        self.Sigma = np.full(dimension, float(a)) if diagonal else a * np.eye(dimension)

    def weights(self):
        return self.w

    def times(self, x):
        """Σx."""
        return self.Sigma * x if self.diagonal else self.Sigma @ x

    def shrink(self, k, Sx):
        """Σ -= k (Σx)(Σx)ᵀ, or its diagonal."""
        self.Sigma = self.Sigma - k * (Sx ** 2 if self.diagonal else np.outer(Sx, Sx))


class SecondOrderPerceptron(Gaussian):
    """Cesa-Bianchi et al. 2005: ``A = aI + Σ ω x xᵀ`` and ``u = Σ ω y x`` over past
    mistakes, ``w = A⁻¹ u``. Full: ``A`` itself, solved at every row; diagonal: the
    drop rule applied to ``A⁻¹``'s Sherman-Morrison update, ``w = s*u``."""

    def __init__(self, dimension, a, diagonal):
        super().__init__(dimension, 1.0 / a, diagonal)  # the diagonal of A⁻¹
        self.A = a * np.eye(dimension)
        self.u = np.zeros(dimension)

    def weights(self):
        return self.Sigma * self.u if self.diagonal else np.linalg.solve(self.A, self.u)

    @property
    def covariance(self):
        return self.Sigma if self.diagonal else np.linalg.inv(self.A)


def sop(model, x, y, omega):
    if y * (model.weights() @ x) <= 0:
        model.u = model.u + omega * y * x
        if model.diagonal:
            Sx = model.times(x)
            model.shrink(omega / (1 + omega * (x @ Sx)), Sx)
        else:
            model.A = model.A + omega * np.outer(x, x)
        return True
    return False


def _cw_alpha(m, v, phi):
    psi, xi = 1 + phi ** 2 / 2, 1 + phi ** 2
    return max(0.0, (-m * psi + np.sqrt(m ** 2 * phi ** 4 / 4 + v * phi ** 2 * xi)) / (v * xi))


def _cw_update(model, x, y, alpha, v, phi, Sx):
    u = (-alpha * v * phi + np.sqrt(alpha ** 2 * v ** 2 * phi ** 2 + 4 * v)) ** 2 / 4
    beta = alpha * phi / (np.sqrt(u) + v * alpha * phi)
    model.w = model.w + alpha * y * Sx
    model.shrink(beta, Sx)


def cw(model, x, y, omega, eta):
    """Crammer, Dredze & Pereira 2008, the exact KL projection."""
    phi = norm.ppf(eta)
    m, Sx = y * (model.w @ x), model.times(x)
    v = x @ Sx
    if phi * np.sqrt(v) - m > 0:
        _cw_update(model, x, y, _cw_alpha(m, v, phi), v, phi, Sx)
        return True
    return False


def scw(model, x, y, omega, C, eta, variant):
    """Wang, Zhao & Hoi 2012, SCW-I and SCW-II."""
    phi, C = norm.ppf(eta), C * omega
    m, Sx = y * (model.w @ x), model.times(x)
    v = x @ Sx
    if phi * np.sqrt(v) - m > 0:
        if variant == "I":
            alpha = min(C, _cw_alpha(m, v, phi))
        else:
            n = v + 1 / (2 * C)
            gamma = phi * np.sqrt(phi ** 2 * m ** 2 * v ** 2 + 4 * n * v * (n + v * phi ** 2))
            alpha = max(0.0, (-(2 * m * n + phi ** 2 * m * v) + gamma)
                        / (2 * (n ** 2 + n * v * phi ** 2)))
        _cw_update(model, x, y, alpha, v, phi, Sx)
        return True
    return False


def arow(model, x, y, omega, r):
    """Crammer, Kulesza & Dredze 2009."""
    m, Sx = y * (model.w @ x), model.times(x)
    v = x @ Sx
    if m < 1:
        beta = 1 / (v + r / omega)
        model.w = model.w + (1 - m) * beta * y * Sx
        model.shrink(beta, Sx)
        return True
    return False


def narow(model, x, y, omega, b):
    """Orabona & Crammer 2010: AROW with r_t = v/(bv - 1), only when v > 1/b."""
    v = x @ model.times(x)
    if y * (model.w @ x) < 1 and v > 1 / b:
        return arow(model, x, y, omega, v / (b * v - 1))
    return False


def nherd(model, x, y, omega, C):
    """Crammer & Lee 2010, the full-matrix update."""
    gamma = 1 / (C * omega)
    m, Sx = y * (model.w @ x), model.times(x)
    v = x @ Sx
    if m < 1:
        model.w = model.w + (1 - m) / (v + gamma) * y * Sx
        model.shrink((v + 2 * gamma) / (v + gamma) ** 2, Sx)
        return True
    return False


def iellip(model, x, y, omega, b):
    """Yang, Jin & Ye 2009 (LIBOL IELLIP.m); c_t lives in ``model.c``."""
    m, v = y * (model.w @ x), x @ model.times(x)
    updated = False
    if m <= 0 and v > 0:
        g = y * x / np.sqrt(v)
        Sg = model.times(g)
        model.w = model.w + (1 - m) / np.sqrt(v) * Sg
        Sigma = model.Sigma - model.c * (Sg ** 2 if model.diagonal else np.outer(Sg, Sg))
        model.Sigma = Sigma / (1 - model.c)
        updated = True
    model.c *= b  # after every row
    return updated


BINARY = {
    "sop": sop,
    "cw": cw,
    "arow": arow,
    "narow": narow,
    "nherd": nherd,
    "iellip": iellip,
    "scw1": lambda model, x, y, omega, C, eta: scw(model, x, y, omega, C, eta, "I"),
    "scw2": lambda model, x, y, omega, C, eta: scw(model, x, y, omega, C, eta, "II"),
}


def _augmented(X, fit_intercept):
    X = np.asarray(X, dtype=float)
    return np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X


def binary(rule, X, y, *, a=1.0, fit_intercept=False, diagonal=False, sw=None, passes=1,
           c=None, **params):
    """One-pass (``passes``) fit of a two-class rule; ``c`` is IELLIP's ``c_1``."""
    Z = _augmented(X, fit_intercept)
    n, dimension = Z.shape
    sw = np.ones(n) if sw is None else sw
    model = (SecondOrderPerceptron if rule == "sop" else Gaussian)(dimension, a, diagonal)
    model.c = c
    mistakes, updates = 0, []
    for _ in range(passes):
        for i in range(n):
            if sw[i] == 0:
                continue
            margin = y[i] * (model.weights() @ Z[i])
            mistakes += margin <= 0
            if BINARY[rule](model, Z[i], y[i], sw[i], **params):
                updates.append((i, margin))
    w = model.weights()
    d = X.shape[1]
    cov = model.covariance if rule == "sop" else model.Sigma
    return Fit(w[:d], w[d] if fit_intercept else 0.0, cov, mistakes, updates, model.c or 0.0)


def m_scw_step(m, v, phi, C, variant):
    """LIBOL M_SCW1.m / M_SCW2.m, as written there: (alpha, beta) or None."""
    if not m < phi * np.sqrt(v):
        return None
    psi = 1 + phi ** 2 / 2
    if variant == "I":
        alpha = max(0.0, (-m * psi + np.sqrt(m ** 2 * psi ** 2 - m ** 2 * psi
                                             + 2 * v * phi ** 2 * psi)) / (2 * v * psi))
        alpha = min(alpha, C)
    else:
        n = 2 * v + 1 / (2 * C)
        alpha = max(0.0, (-(2 * m * n + phi ** 2 * m * v)
                          + np.sqrt(phi ** 4 * m ** 2 * v ** 2
                                    + 8 * n * v * phi ** 2 * (n + v * phi ** 2)))
                    / (2 * (n ** 2 + n * v * phi ** 2)))
    u = (1 / 8) * (-alpha * v * phi + np.sqrt(alpha ** 2 * v ** 2 * phi ** 2 + 8 * v)) ** 2
    beta = alpha * phi / (np.sqrt(2 * u) + alpha * phi * v)
    return alpha, beta


def multiclass(rule, X, y, n_classes, *, a=1.0, fit_intercept=False, diagonal=False, sw=None,
               passes=1, **params):
    """Multiclass AROW (LIBOL M_AROW.m) and SCW (M_SCW1.m, M_SCW2.m): one shared Σ;
    rows ``W_y`` and ``W_s`` (``s`` the best wrong class, the first on ties) move."""
    Z = _augmented(X, fit_intercept)
    n, dimension = Z.shape
    sw = np.ones(n) if sw is None else sw
    model = Gaussian(dimension, a, diagonal)
    W = np.zeros((n_classes, dimension))
    mistakes, updates = 0, []
    for _ in range(passes):
        for i in range(n):
            if sw[i] == 0:
                continue
            x, label = Z[i], y[i]
            F = W @ x
            others = F.copy()
            others[label] = -np.inf
            s = int(np.argmax(others))  # the first of equal maxima
            m = F[label] - F[s]
            mistakes += m <= 0
            Sx = model.times(x)
            v = x @ Sx
            if rule == "multiclass_arow":
                step = None
                if m < 1:
                    beta = 1 / (v + params["r"] / sw[i])
                    step = (1 - m) * beta, beta
            else:
                variant = "I" if rule == "multiclass_scw1" else "II"
                step = m_scw_step(m, v, norm.ppf(params["eta"]), params["C"] * sw[i], variant)
            if step is not None:
                alpha, beta = step
                W[label] = W[label] + alpha * Sx
                W[s] = W[s] - alpha * Sx
                model.shrink(beta, Sx)
                updates.append((i, m, s))
    d = X.shape[1]
    intercept = W[:, d] if fit_intercept else np.zeros(n_classes)
    return Fit(W[:, :d], intercept, model.Sigma, mistakes, updates)
