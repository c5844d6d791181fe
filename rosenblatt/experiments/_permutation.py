"""Daumé Fig. 4.4: does the order of the examples matter? Fixed, one permutation, or new."""

import numpy as np

from .._validation import check_random_state
from ..linear_model import Perceptron
from ._result import ExperimentResult, check_counts, progress, two_class_target_line

MODES = ("none", "once", "every_epoch")


def permutation(n_samples=100, n_runs=50, *, random_state=0, show_progress=True):
    """Epochs and updates to converge for each ``shuffle`` mode, on separable data
    presented in the worst order (all negatives, then all positives).

    >>> result = permutation(n_samples=30, n_runs=3, show_progress=False)
    >>> [row[0] for row in result.rows]
    ['none', 'once', 'every_epoch']
    """
    check_counts(n_samples=n_samples, n_runs=n_runs)
    rng = check_random_state(random_state)
    epochs = {mode: [] for mode in MODES}
    updates = {mode: [] for mode in MODES}
    for _ in progress(range(n_runs), show_progress, "permutation"):
        X, y, _ = two_class_target_line(n_samples, rng)
        order = np.argsort(y, kind="stable")  # negatives first: the ordering Daumé warns of
        X, y = X[order], y[order]
        seed = int(rng.randint(2**31 - 1))
        for mode in MODES:
            model = Perceptron(shuffle=mode, max_iter=10_000, random_state=seed).fit(X, y)
            epochs[mode].append(model.n_iter_)
            updates[mode].append(model.n_updates_)
    rows = [[mode, float(np.mean(epochs[mode])), float(np.median(epochs[mode])),
             float(np.mean(updates[mode])), int(np.max(updates[mode]))] for mode in MODES]

    def draw(plt):
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        left.boxplot([epochs[m] for m in MODES], tick_labels=MODES)
        left.set(ylabel="epochs to converge")
        right.boxplot([updates[m] for m in MODES], tick_labels=MODES)
        right.set(ylabel="updates to converge")
        return figure

    return ExperimentResult(
        "permutation", f"Ordering of {n_samples} sorted examples, {n_runs} runs",
        ["shuffle", "mean epochs", "median epochs", "mean updates", "max updates"], rows,
        {"epochs": epochs, "updates": updates}, draw,
    )
