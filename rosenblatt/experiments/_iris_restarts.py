"""CISC 271: random initial weights on Iris find different separators; η slows them."""

import numpy as np

from .._validation import check_random_state
from ..datasets import load_iris_binary
from ..linear_model import Perceptron
from ._result import ExperimentResult, check_counts, progress

FEATURES = ["petal length (cm)", "petal width (cm)"]


def iris_restarts(n_restarts=4, etas=(1.0, 0.1), *, shuffle="none", random_state=0,
                  show_progress=True):
    """Setosa against the rest on the petal features, from ``n_restarts`` random
    starting weights (U[0, 1), bias first) and each learning rate in ``etas``.

    The rows are visited in the data's fixed order, as the lecture's loop ("for
    each training sample i") does, until a pass without a mistake (its
    "missed" flag); ``shuffle`` is the estimator's, for the other orders. A
    smaller η makes each update small next to the random start, so more epochs
    pass before the data are separated.

    >>> result = iris_restarts(n_restarts=2, etas=(1.0,), show_progress=False)
    >>> [row[:2] for row in result.rows], all(row[4] == 1.0 for row in result.rows)
    ([[1, 1.0], [2, 1.0]], True)
    """
    check_counts(n_restarts=n_restarts)
    X, y = load_iris_binary("setosa-vs-rest", features=FEATURES)
    rng = check_random_state(random_state)
    seeds = rng.randint(2**31 - 1, size=n_restarts)
    rows, boundaries = [], []
    for restart, seed in enumerate(progress(seeds, show_progress, "iris_restarts"), start=1):
        for eta in etas:
            model = Perceptron(init="uniform", eta=eta, shuffle=shuffle, tol=None,
                               random_state=int(seed)).fit(X, y)
            vector = np.r_[model.intercept_, model.coef_[0]]
            rows.append([restart, float(eta), model.n_iter_, model.n_updates_,
                         float(model.score(X, y))])
            boundaries.append((restart, eta, vector))

    def draw(plt):
        figure, axes = plt.subplots(1, len(etas), figsize=(5 * len(etas), 4), squeeze=False)
        grid = np.linspace(X[:, 0].min() - 0.5, X[:, 0].max() + 0.5, 2)
        for ax, eta in zip(axes[0], etas):
            ax.scatter(X[:, 0], X[:, 1], c=np.where(y == "setosa", "tab:red", "tab:blue"), s=12)
            for restart, rate, vector in boundaries:
                if rate == eta and vector[2] != 0:
                    ax.plot(grid, -(vector[0] + vector[1] * grid) / vector[2],
                            label=f"restart {restart}")
            ax.set(xlabel=FEATURES[0], ylabel=FEATURES[1], title=f"eta = {eta}",
                   ylim=(X[:, 1].min() - 0.5, X[:, 1].max() + 0.5))
            ax.legend(fontsize=7)
        return figure

    return ExperimentResult(
        "iris_restarts", "Perceptron on Iris (setosa vs rest) from random starts",
        ["restart", "eta", "epochs", "updates", "train accuracy"], rows,
        {"boundaries": boundaries}, draw,
    )
