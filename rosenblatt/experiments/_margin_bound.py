"""Observed mistakes against the bound (R/γ)² as the margin shrinks."""

import numpy as np

from .._validation import check_random_state
from ..datasets import make_target_line
from ..linear_model import Perceptron
from ..theory import mistake_bound
from ._result import ExperimentResult, check_counts, progress


def margin_bound(margins=(0.2, 0.1, 0.05, 0.02, 0.01), n_samples=200, *, random_state=0,
                 show_progress=True):
    """For each margin: points uniform in [-1, 1]² farther than it from a random
    target line, the perceptron's updates from zero, and the bound (R/γ)².

    >>> result = margin_bound((0.2, 0.1), n_samples=50, show_progress=False)
    >>> all(row[2] <= row[3] for row in result.rows)
    True
    """
    check_counts(n_samples=n_samples)
    rng = check_random_state(random_state)
    rows = []
    for gap in progress(margins, show_progress, "margin_bound"):
        X, y, target = make_target_line(20 * n_samples, random_state=rng)
        distance = np.abs(target[0] + X @ target[1:]) / np.linalg.norm(target[1:])
        keep = np.flatnonzero(distance > gap)[:n_samples]
        X, y = X[keep], y[keep]
        # to the first mistake-free epoch, however long: no loss-stall rule (tol)
        model = Perceptron(random_state=rng, max_iter=100_000, tol=None).fit(X, y)
        rows.append([float(gap), len(y), model.n_updates_, float(mistake_bound(X, y))])

    def draw(plt):
        figure, ax = plt.subplots(figsize=(6, 4))
        gaps = [row[0] for row in rows]
        ax.loglog(gaps, [row[2] for row in rows], "o-", label="updates observed")
        ax.loglog(gaps, [row[3] for row in rows], "s--", label="bound (R/γ)²")
        ax.set(xlabel="margin around the target line", ylabel="mistakes")
        ax.legend()
        return figure

    return ExperimentResult(
        "margin_bound", "Perceptron mistakes against the convergence bound",
        ["margin", "points", "updates", "bound (R/gamma)^2"], rows, {}, draw,
    )
