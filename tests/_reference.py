"""Slow, obvious oracles written straight from the texts, for the kernels to equal.

Plain NumPy loops over dense float64 data and labels in {-1, +1}; the random
draws (initial weights, permutations, PLA picks) are made from the generator in
the same order as the estimators make them.
"""

import numpy as np


def start_weights(init, n_features, fit_intercept, rng):
    """Initial (w, b): bias first in the drawn vector, as Kowalczyk's ``rand(d + 1)``."""
    width = n_features + int(fit_intercept)
    if isinstance(init, str):
        vector = {
            "zeros": lambda: np.zeros(width),
            "uniform": lambda: rng.random(width),
            "normal": lambda: rng.standard_normal(width),
        }[init]()
    else:
        vector = np.array(init, dtype=float)
    if fit_intercept:
        return vector[1:].copy(), float(vector[0])
    return vector.copy(), 0.0


def perceptron(X, y, *, eta=1.0, fit_intercept=True, max_iter=100, shuffle="none",
               init="zeros", rng=None, sample_weight=None):
    """Daumé Alg. 5: for each example, a = w·x + b; if y a <= 0, w += ηyx, b += ηy."""
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    w, b = start_weights(init, d, fit_intercept, rng)
    order, epochs, updates = np.arange(n), 0, 0
    for epoch in range(max_iter):
        if shuffle == "every_epoch" or (shuffle == "once" and epoch == 0):
            order = rng.permutation(n)
        mistakes = 0
        for i in order:
            if s[i] == 0:
                continue
            a = w @ X[i] + b
            if y[i] * a <= 0:
                w = w + eta * s[i] * y[i] * X[i]
                if fit_intercept:
                    b = b + eta * s[i] * y[i]
                mistakes += 1
        epochs, updates = epochs + 1, updates + mistakes
        if mistakes == 0:
            break
    return w, b, epochs, updates


def batch_perceptron(X, y01, *, eta=1.0, fit_intercept=True, max_iter=100, init="zeros",
                     rng=None):
    """CISC 271 eq. 30.4 with {0,1} labels: w ← w + η Xᵀ(y − q), q = heaviside(Xw + b).

    Returns the weights after every iteration. At a = 0 the point counts as a
    mistake whatever its label (Daumé's ≤), i.e. q = 1 − y there.
    """
    X = np.asarray(X, dtype=float)
    y01 = np.asarray(y01)
    w, b = start_weights(init, X.shape[1], fit_intercept, rng)
    history = []
    for _ in range(max_iter):
        a = X @ w + b
        q = np.where(a > 0, 1, np.where(a < 0, 0, 1 - y01))
        e = y01 - q
        if not np.any(e):
            break
        w = w + eta * X.T @ e
        if fit_intercept:
            b = b + eta * e.sum()
        history.append((w.copy(), b))
    return history


def pla(X, y, *, eta=1.0, fit_intercept=True, init="zeros", rng=None, max_updates=10_000):
    """Kowalczyk Code Listings 11-13: shuffle the misclassified, fix the first."""
    X = np.asarray(X, dtype=float)
    w, b = start_weights(init, X.shape[1], fit_intercept, rng)
    updates = 0
    while updates < max_updates:
        wrong = np.flatnonzero(y * (X @ w + b) <= 0)
        if len(wrong) == 0:
            break
        rng.shuffle(wrong)
        i = wrong[0]
        w = w + eta * y[i] * X[i]
        if fit_intercept:
            b = b + eta * y[i]
        updates += 1
    return w, b, updates


def training_errors(X, y, w, b):
    """Number of rows with y (w·x + b) <= 0."""
    return int(np.sum(y * (np.asarray(X, dtype=float) @ w + b) <= 0))
