"""Daumé Fig. 4.3: training and test error against epochs, vanilla and averaged."""

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..linear_model import AveragedPerceptron, Perceptron
from ._real_data import split
from ._result import ExperimentResult, check_counts, progress


def epochs_curve(dataset="breast_cancer", n_epochs=30, *, random_state=0, show_progress=True):
    """Train and test error after each epoch for the perceptron and the averaged
    perceptron (one ``partial_fit`` per epoch, rows re-permuted each time).
    Early stopping would stop at the epoch of least test error — in practice
    measured on held-out data; the table marks it.

    >>> result = epochs_curve(n_epochs=3, show_progress=False)
    >>> len(result.rows), result.columns[1:3]
    (3, ['train (vanilla)', 'test (vanilla)'])
    """
    check_counts(n_epochs=n_epochs)
    X_train, X_test, y_train, y_test = split(dataset, random_state)
    models = {"vanilla": Perceptron(random_state=random_state),
              "averaged": AveragedPerceptron(random_state=random_state)}
    errors = {name: ([], []) for name in models}
    classes = np.unique(y_train)
    for _ in progress(range(n_epochs), show_progress, "epochs_curve"):
        for name, model in models.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                model.partial_fit(X_train, y_train, classes=classes)
            errors[name][0].append(1 - model.score(X_train, y_train))
            errors[name][1].append(1 - model.score(X_test, y_test))
    best = {name: int(np.argmin(test)) + 1 for name, (_, test) in errors.items()}
    rows = [
        [epoch] + [float(errors[name][part][epoch - 1]) for name in models for part in (0, 1)]
        + [" ".join(name for name in models if best[name] == epoch)]
        for epoch in range(1, n_epochs + 1)
    ]

    def draw(plt):
        figure, ax = plt.subplots(figsize=(7, 4))
        epochs = np.arange(1, n_epochs + 1)
        for (name, (train, test)), colour in zip(errors.items(), ["tab:blue", "tab:orange"]):
            ax.plot(epochs, train, "--", color=colour, label=f"train ({name})")
            ax.plot(epochs, test, "-", color=colour, label=f"test ({name})")
            ax.axvline(best[name], color=colour, lw=0.8, ls=":")
        ax.set(xlabel="epoch", ylabel="error")
        ax.legend()
        return figure

    return ExperimentResult(
        "epochs_curve", f"Error against epochs on {dataset}",
        ["epoch", "train (vanilla)", "test (vanilla)", "train (averaged)", "test (averaged)",
         "least test error"],
        rows, {"errors": errors, "best_epoch": best}, draw,
    )
