"""Reference loops for the first-order online rules, written from the papers.

Plain NumPy, one pass over dense float64 rows in the given order, weights from
their start (0; ``w0`` for the Winnow family), labels ±1 (class indices for the
multiclass rule). There is no intercept here: the tests append a column of ones
to ``X``, the note's definition of the bias. ``sample_weight`` follows the
kernels' documented meaning: a row of weight 0 is absent, other weights
multiply the rule's step (ROMMA has none).

Each returns ``Run(w, mistakes, updated, scores, ties, unstable)``: the final
weights, the number of rows with ``y f <= 0`` (``m <= 0``), for each update its
row and the decision value (multiclass: the margin) before it, and the rows
where a decision was a tie up to rounding (:class:`Ties`), which another
summation order may take the other way.

>>> X = np.array([[1.0, 0.0], [0.0, 1.0]])
>>> romma(X, np.array([1.0, -1.0])).w
array([ 1., -1.])
"""

import math
from collections import namedtuple

import numpy as np

Run = namedtuple("Run", "w mistakes updated scores ties unstable")


class Ties:
    """The rows where ``value`` (a sum of ``terms``) met ``boundary`` to within
    1e-9 of the size of the terms: rounding decides those.

    ``tolerated``: the update tests whose step vanishes at the boundary (the
    projections onto ``y w·x = 1`` of aggressive ROMMA and PA, which leave exact
    ties on repeated rows); whichever way they go, the weights agree.
    ``unstable``: every other tie (a mistake at ``y f = 0``, ALMA's and the hinge's
    full steps, the multiclass rival); past one, runs may part. Ties on integer
    terms (the perceptron's on 0/1 data) are exact in any summation order, and
    so are Winnow's (sums of powers of ``alpha``), not looked for.
    """

    def __init__(self):
        self.tolerated, self.unstable = [], []

    def check(self, i, value, boundary, terms, tolerated=False):
        size = max(float(np.abs(terms).sum()), abs(boundary))
        if size > 0 and abs(value - boundary) <= 1e-9 * size:
            if tolerated:
                self.tolerated.append(i)
            elif not np.array_equal(terms, np.rint(terms)):
                self.unstable.append(i)

    def run(self, w, mistakes, updated, scores):
        return Run(w, mistakes, updated, scores, self.tolerated, self.unstable)


def _weights(sample_weight, n):
    return np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)


def link(t, r):
    """``g_r(t)_i = sign(t_i) |t_i|^(r-1) / ||t||_r^(r-2)``, the gradient of
    ``||t||_r^2 / 2`` (Gentile 2001, §2; 0 at ``t = 0``)."""
    norm = np.linalg.norm(t, r)
    if norm == 0:
        return np.zeros_like(t)
    return np.sign(t) * np.abs(t) ** (r - 1) / norm ** (r - 2)


def romma(X, y, aggressive=False, sample_weight=None):
    """Li & Long 2002, ROMMA and aggressive ROMMA: on a mistake (aggressive: on
    y f < 1) the shortest w with w.w_t >= ||w_t||^2 and y w.x >= 1."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    w, mistakes, updated, scores, ties = np.zeros(d), 0, [], [], Ties()
    for i in range(n):
        x = X[i]
        if s[i] == 0 or x @ x == 0:
            continue
        f = w @ x
        ties.check(i, y[i] * f, 0.0, w * x)
        mistakes += y[i] * f <= 0
        if aggressive:
            ties.check(i, y[i] * f, 1.0, w * x, tolerated=True)
        if not (y[i] * f < 1 if aggressive else y[i] * f <= 0):
            continue
        A = (x @ x) * (w @ w)
        if w @ w == 0 or A <= y[i] * f:
            w = y[i] * x / (x @ x)
        else:
            D = A - f ** 2
            if D <= 1e-12 * A:
                continue
            c = (A - y[i] * f) / D
            dd = (w @ w) * (y[i] - f) / D
            w = c * w + dd * x
        updated.append(i)
        scores.append(f)
    return ties.run(w, mistakes, updated, scores)


def alma(X, y, p=2.0, alpha=0.9, B=None, C=math.sqrt(2), sample_weight=None):
    """Gentile 2001, Fig. 1: ALMA_p(alpha; B, C) on instances normalised in p-norm."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    B = 1 / alpha if B is None else B
    q = p / (p - 1)
    w, k, mistakes, updated, scores, ties = np.zeros(d), 1, 0, [], [], Ties()
    for i in range(n):
        x = X[i]
        if s[i] == 0 or not x.any():
            continue
        ties.check(i, y[i] * (w @ x), 0.0, w * x)
        mistakes += y[i] * (w @ x) <= 0
        xh = x / np.linalg.norm(x, p)
        gamma = B * math.sqrt(p - 1) / math.sqrt(k)
        ties.check(i, y[i] * (w @ xh), (1 - alpha) * gamma, w * xh)
        if y[i] * (w @ xh) <= (1 - alpha) * gamma:
            eta = s[i] * C / (math.sqrt(p - 1) * math.sqrt(k))
            w1 = link(link(w, q) + eta * y[i] * xh, p)
            updated.append(i)
            scores.append(w @ x)
            w = w1 / max(1.0, np.linalg.norm(w1, q))
            k += 1
    return ties.run(w, mistakes, updated, scores)


def ogd(X, y, eta=1.0, loss="hinge", sample_weight=None):
    """Zinkevich 2003 with eta_t = eta/sqrt(t), t = 1, 2, ... over every row."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    w, t, mistakes, updated, scores, ties = np.zeros(d), 0, 0, [], [], Ties()
    for i in range(n):
        if s[i] == 0:
            continue
        x = X[i]
        t += 1
        eta_t = s[i] * eta / math.sqrt(t)
        f = w @ x
        ties.check(i, y[i] * f, 0.0, w * x)
        mistakes += y[i] * f <= 0
        if loss == "hinge":
            ties.check(i, y[i] * f, 1.0, w * x)
            moved = 1 - y[i] * f > 0
            if moved:
                w = w + eta_t * y[i] * x
        elif loss == "logistic":
            moved = True
            w = w + eta_t * y[i] * x / (1 + math.exp(y[i] * f))
        elif loss == "squared":
            moved = f != y[i]
            w = w - eta_t * (f - y[i]) * x
        elif loss == "perceptron":
            moved = y[i] * f <= 0
            if moved:
                w = w + eta_t * y[i] * x
        if moved:  # an update is a non-zero step coefficient (x itself may be 0)
            updated.append(i)
            scores.append(f)
    return ties.run(w, mistakes, updated, scores)


def winnow(X, y, alpha=2.0, threshold=None, w0=1.0, sample_weight=None):
    """Littlestone 1988, Winnow2 for real-valued x: w_i *= alpha^(y x_i) on a mistake."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    threshold = d / 2 if threshold is None else threshold
    w, mistakes, updated, scores = np.full(d, float(w0)), 0, [], []
    for i in range(n):
        if s[i] == 0:
            continue
        f = w @ X[i] - threshold
        if y[i] * f <= 0:
            mistakes += 1
            w = w * alpha ** (s[i] * y[i] * X[i])
            updated.append(i)
            scores.append(f)
    return Ties().run(w, mistakes, updated, scores)


def balanced_winnow(X, y, alpha=2.0, threshold=0.0, w0=1.0, sample_weight=None):
    """Littlestone 1988 / Grove et al. 2001: w = u - v, u promoted where v is demoted."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    u, v = np.full(d, float(w0)), np.full(d, float(w0))
    mistakes, updated, scores = 0, [], []
    for i in range(n):
        if s[i] == 0:
            continue
        f = (u - v) @ X[i] - threshold
        if y[i] * f <= 0:
            mistakes += 1
            u = u * alpha ** (s[i] * y[i] * X[i])
            v = v * alpha ** (-s[i] * y[i] * X[i])
            updated.append(i)
            scores.append(f)
    return Ties().run(u - v, mistakes, updated, scores)


def pnorm(X, y, p=2.0, sample_weight=None):
    """Grove et al. 2001, Gentile 2003: theta sums y x over the mistakes, w = g_p(theta)."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    theta, mistakes, updated, scores, ties = np.zeros(d), 0, [], [], Ties()
    for i in range(n):
        if s[i] == 0:
            continue
        w = link(theta, p)
        f = w @ X[i]
        ties.check(i, y[i] * f, 0.0, w * X[i])
        if y[i] * f <= 0:
            mistakes += 1
            theta = theta + s[i] * y[i] * X[i]
            updated.append(i)
            scores.append(f)
    return ties.run(link(theta, p), mistakes, updated, scores)


def multiclass_pa(X, y, n_classes, C=1.0, variant="pa", sample_weight=None):
    """Crammer et al. 2006, §7, the max-score multiclass rule: W_y += tau x, W_s -= tau x."""
    n, d = X.shape
    s = _weights(sample_weight, n)
    W, mistakes, updated, scores, ties = np.zeros((n_classes, d)), 0, [], [], Ties()
    for i in range(n):
        x = X[i]
        if s[i] == 0 or (x @ x == 0 and variant != "pa2"):
            continue
        F = W @ x
        wrong = F.copy()
        wrong[y[i]] = -np.inf
        r = int(np.argmax(wrong))  # the first of the best wrong classes
        m = F[y[i]] - F[r]
        for k in range(n_classes):
            if k not in (y[i], r):
                ties.check(i, F[k], F[r], np.append(W[k] * x, W[r] * x))
        ties.check(i, m, 0.0, np.append(W[y[i]] * x, W[r] * x))
        ties.check(i, m, 1.0, np.append(W[y[i]] * x, W[r] * x), tolerated=True)
        mistakes += m <= 0
        loss = max(0.0, 1 - m)
        if loss > 0:
            if variant == "pa":
                tau = loss / (2 * (x @ x))
            elif variant == "pa1":
                tau = min(C, loss / (2 * (x @ x)))
            else:
                tau = loss / (2 * (x @ x) + 1 / (2 * C))
            W[y[i]] += s[i] * tau * x
            W[r] -= s[i] * tau * x
            updated.append((i, r))
            scores.append(m)
    return ties.run(W, mistakes, updated, scores)
