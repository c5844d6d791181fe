"""Slow, obvious oracles written straight from the texts, for the kernels to equal.

Plain NumPy loops over dense float64 data and labels in {-1, +1}; the random
draws (initial weights, the row-order seed, PLA picks) are made from the
generator in the same order as the estimators make them, and the row orders
follow the documented stream (:func:`orders`).
"""

import numpy as np


def orders(rng, n, shuffle, epochs):
    """The row order of each epoch as the estimators document it: with shuffling,
    one seed drawn from ``rng`` after the starting weights; epoch ``e`` (from 1)
    visits ``default_rng([seed, e]).permutation(n)``, and ``shuffle="once"``
    keeps the first epoch's for every epoch."""
    if shuffle == "none":
        return [np.arange(n)] * epochs
    seed = rng.randint(2**31 - 1)
    if shuffle == "once":
        return [np.random.default_rng([seed, 1]).permutation(n)] * epochs
    return [np.random.default_rng([seed, e]).permutation(n) for e in range(1, epochs + 1)]


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
    epochs, updates = 0, 0
    for order in orders(rng, n, shuffle, max_iter):
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


def averaged_perceptron(X, y, *, eta=1.0, fit_intercept=True, epochs=1, orders=None):
    """The naive average: run the perceptron and add up w after every example.

    ``orders`` gives the row order of each epoch (default: as given).
    Returns (mean w, mean b, T).
    """
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    total_w, total_b, seen = np.zeros(d), 0.0, 0
    for epoch in range(epochs):
        for i in (np.arange(n) if orders is None else orders[epoch]):
            if y[i] * (w @ X[i] + b) <= 0:
                w = w + eta * y[i] * X[i]
                if fit_intercept:
                    b = b + eta * y[i]
            total_w, total_b, seen = total_w + w, total_b + b, seen + 1
    return total_w / seen, total_b / seen, seen


def averaged_perceptron_as_printed(X, y, *, max_iter):
    """Daumé Alg. 7 line by line: returns w − u/c, b − β/c."""
    X = np.asarray(X, dtype=float)
    w, b, u, beta, c = np.zeros(X.shape[1]), 0.0, np.zeros(X.shape[1]), 0.0, 1
    for _ in range(max_iter):
        for x, label in zip(X, y):
            if label * (w @ x + b) <= 0:
                w, b = w + label * x, b + label
                u, beta = u + label * c * x, beta + label * c
            c += 1
    return w - u / c, b - beta / c


def voted_perceptron(X, y, *, epochs=1):
    """Freund & Schapire's training: the list of (w, b, c) with survival counts."""
    X = np.asarray(X, dtype=float)
    w, b, c = np.zeros(X.shape[1]), 0.0, 0
    committee = []
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * (w @ x + b) <= 0:
                committee.append((w, b, c))
                w, b, c = w + label * x, b + label, 1
            else:
                c += 1
    committee.append((w, b, c))
    return committee


def vote(committee, X):
    """Daumé eq. 4.17 with sign(0) = −1, one vector at a time."""
    scores = np.zeros(len(X))
    for w, b, c in committee:
        scores += c * np.where(np.asarray(X, dtype=float) @ w + b > 0, 1.0, -1.0)
    return scores


def multiclass_perceptron(X, codes, n_classes, *, eta=1.0, epochs=1):
    """One vector per class; on s_y <= max_{k≠y} s_k, w_y += ηx and w_ŷ −= ηx."""
    X = np.asarray(X, dtype=float)
    W, b = np.zeros((n_classes, X.shape[1])), np.zeros(n_classes)
    for _ in range(epochs):
        for x, c in zip(X, codes):
            scores = W @ x + b
            others = [k for k in range(n_classes) if k != c]
            rival = others[int(np.argmax(scores[others]))]
            if scores[c] <= scores[rival]:
                W[c] += eta * x
                W[rival] -= eta * x
                b[c] += eta
                b[rival] -= eta
    return W, b


def kernel_perceptron(X, y, kernel, *, epochs=1):
    """The dual perceptron, recomputing f(x) = Σ α_i y_i (K(x_i, x) + 1) each time."""
    X = np.asarray(X, dtype=float)
    alpha = np.zeros(len(X))
    for _ in range(epochs):
        mistakes = 0
        for t in range(len(X)):
            f = sum(alpha[i] * y[i] * (kernel(X[i], X[t]) + 1.0) for i in range(len(X)))
            if y[t] * f <= 0:
                alpha[t] += 1
                mistakes += 1
        if mistakes == 0:
            break
    return alpha


def linear_unit(X, y, w, b, *, eta, solver, epochs):
    """Ahmed & Pavlu's Algorithms: batch w ← w + η Σ(y − o)x, or one row at a time."""
    X = np.asarray(X, dtype=float)
    for _ in range(epochs):
        if solver == "batch":
            residual = y - (X @ w + b)
            w, b = w + eta * X.T @ residual, b + eta * residual.sum()
        else:
            for x, label in zip(X, y):
                residual = label - (w @ x + b)
                w, b = w + eta * residual * x, b + eta * residual
    return w, b


def sgd_family(X, y, *, rule="perceptron", eta=1.0, margin=0.0, C=1.0, penalty=None,
               alpha=0.0001, l1_ratio=0.15, fit_intercept=True, epochs=1):
    """scikit-learn's SGD loop for the perceptron and passive-aggressive rules, naively:
    dense weights shrunk by ``1 − (1−ρ)ηα`` at every example, the L1 truncation of
    Tsuruoka et al. applied to every feature, and the mean of the weights after
    every example summed directly. Returns (w, b, mean w, mean b)."""
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    w, b, total_w, total_b, t = np.zeros(d), 0.0, np.zeros(d), 0.0, 0
    rho = {"l2": 0.0, "l1": 1.0, None: 0.0}.get(penalty, l1_ratio)
    u, q = 0.0, np.zeros(d)
    for _ in range(epochs):
        for i in range(n):
            x = X[i]
            a = w @ x + b
            if rule == "perceptron":
                step = eta * y[i] if y[i] * a <= margin else 0.0
            else:  # Crammer et al. 2006, Fig. 1
                loss, sqnorm = max(0.0, 1.0 - y[i] * a), x @ x
                if rule != "pa2" and sqnorm == 0:
                    continue
                tau = {"pa": lambda: loss / sqnorm, "pa1": lambda: min(C, loss / sqnorm),
                       "pa2": lambda: loss / (sqnorm + 0.5 / C)}[rule]()
                step = tau * y[i]
            if penalty in ("l2", "elasticnet"):
                w = w * max(0.0, 1.0 - (1.0 - rho) * eta * alpha)
            w = w + step * x
            if fit_intercept:
                b += step
            if penalty in ("l1", "elasticnet"):
                u += rho * eta * alpha
                for j in range(d):
                    z = w[j]
                    if z > 0:
                        w[j] = max(0.0, z - (u + q[j]))
                    elif z < 0:
                        w[j] = min(0.0, z + (u - q[j]))
                    q[j] += w[j] - z
            t += 1
            total_w += w
            total_b += b
    return w, b, total_w / t, total_b / t
