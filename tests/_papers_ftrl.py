"""FTRL-Proximal written straight from McMahan et al., KDD 2013, Algorithm 1.

Plain Python over dense rows in the given order, one coordinate at a time, labels
in {0, 1}. The intercept is one more coordinate, of a constant feature 1, to which
λ1 and λ2 do not apply (the estimator's documented choice). A sample weight
multiplies the gradient; a row of weight 0 is absent.

>>> run = ftrl([[1.0, 0.0], [0.0, 2.0]], [1, 0], alpha=1.0, beta=1.0, l1=0.0, l2=0.0)
>>> [round(float(v), 6) for v in run.w], round(float(run.b), 6), run.mistakes
([0.333333, -0.538136], 0.003772, 2)
"""

import math
from collections import namedtuple

import numpy as np

Run = namedtuple("Run", "w b z n z_b n_b mistakes updates loss")


def weight(z, n, alpha, beta, l1, l2):
    """Algorithm 1, "compute w_i": 0 if |z_i| <= λ1, else the closed form."""
    if abs(z) <= l1:
        return 0.0
    return -(z - math.copysign(1.0, z) * l1) / ((beta + math.sqrt(n)) / alpha + l2)


def ftrl(X, y, alpha=0.2, beta=1.0, l1=1.0, l2=1.0, fit_intercept=True,
         sample_weight=None, state=None):
    """One pass; ``state`` = ``(z, n, z_b, n_b)`` to go on from (default: zeros).
    Mistakes: rows with ``(2y − 1) f <= 0`` before their update."""
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    if state is None:
        z, n, z_b, n_b = [0.0] * d, [0.0] * d, 0.0, 0.0
    else:
        z, n, z_b, n_b = [list(map(float, a)) if np.ndim(a) else float(a) for a in state]
    sw = [1.0] * len(X) if sample_weight is None else list(map(float, sample_weight))
    mistakes = updates = 0
    loss = total = 0.0  # progressive validation: each row's log-loss before its update
    for x, label, s in zip(X, y, sw):
        if s == 0.0:
            continue
        I = [i for i in range(d) if x[i] != 0.0]  # the features of x with nonzero value
        w = {i: weight(z[i], n[i], alpha, beta, l1, l2) for i in I}
        w_b = weight(z_b, n_b, alpha, beta, 0.0, 0.0) if fit_intercept else 0.0
        f = sum(x[i] * w[i] for i in I) + w_b
        p = 1.0 / (1.0 + math.exp(-f))  # predict p_t = σ(x_t · w) using the w_i
        if (2 * label - 1) * f <= 0:
            mistakes += 1
        loss += s * -math.log(p if label == 1 else 1.0 - p)
        total += s
        if p - label != 0.0:
            updates += 1
        for i in I:  # observe label y_t; for all i in I:
            g = s * (p - label) * x[i]  # g_i = (p_t − y_t) x_i, times the row's weight
            sigma = (math.sqrt(n[i] + g * g) - math.sqrt(n[i])) / alpha
            z[i] += g - sigma * w[i]
            n[i] += g * g
        if fit_intercept:
            g = s * (p - label)
            sigma = (math.sqrt(n_b + g * g) - math.sqrt(n_b)) / alpha
            z_b += g - sigma * w_b
            n_b += g * g
    w = np.array([weight(z[i], n[i], alpha, beta, l1, l2) for i in range(d)])
    b = weight(z_b, n_b, alpha, beta, 0.0, 0.0)
    return Run(w, b, np.array(z), np.array(n), z_b, n_b, mistakes, updates,
               loss / total if total else None)


def probabilities(X, w, b):
    """``P(y = 1 | x) = σ(w·x + b)``."""
    return np.array([1.0 / (1.0 + math.exp(-(float(np.dot(x, w)) + b)))
                     for x in np.asarray(X, dtype=float)])
