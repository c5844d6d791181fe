"""Daumé Fig. 4.3: training and test error against epochs, vanilla and averaged."""

import numpy as np

from ..inspection import models_per_epoch
from ..linear_model import AveragedPerceptron, Perceptron
from ._real_data import split
from ._result import ExperimentResult, check_counts, progress


def epochs_curve(dataset="breast_cancer", n_epochs=30, *, n_splits=1, random_state=0,
                 show_progress=True):
    """Train and test error after each epoch for the perceptron and the averaged
    perceptron (one fit of ``n_epochs`` epochs, rows re-permuted each time, scored
    after each: :func:`~rosenblatt.inspection.models_per_epoch`), averaged
    over ``n_splits`` random 70/30 splits (split ``k`` and its models seeded by
    ``random_state + k``). Early stopping would stop at the epoch of least test
    error — in practice measured on held-out data; the table marks it.

    >>> result = epochs_curve(n_epochs=3, show_progress=False)
    >>> len(result.rows), result.columns[1:3]
    (3, ['train (vanilla)', 'test (vanilla)'])
    >>> two = epochs_curve(n_epochs=2, n_splits=2, show_progress=False)
    >>> len(two.data["per_split"]["vanilla"])
    2
    """
    check_counts(n_epochs=n_epochs, n_splits=n_splits)
    if n_splits > 1 and not isinstance(random_state, (int, np.integer)):
        raise ValueError("n_splits > 1 seeds split k by random_state + k: give random_state "
                         f"as a whole number; got {random_state!r}.")
    names = ("vanilla", "averaged")
    per_split = {name: [] for name in names}
    for k in progress(range(n_splits), show_progress and n_splits > 1, "epochs_curve"):
        seed = random_state + k if n_splits > 1 else random_state
        curves = _one_split(dataset, n_epochs, seed, show_progress and n_splits == 1)
        for name in names:
            per_split[name].append(curves[name])
    # (train, test) per model, each the mean over the splits, epoch by epoch
    errors = {name: tuple(np.mean([curves[part] for curves in per_split[name]], axis=0).tolist()
                          for part in (0, 1)) for name in names}
    best = {name: int(np.argmin(test)) + 1 for name, (_, test) in errors.items()}
    rows = [
        [epoch] + [float(errors[name][part][epoch - 1]) for name in names for part in (0, 1)]
        + [" ".join(name for name in names if best[name] == epoch)]
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

    splits = f", mean of {n_splits} splits" if n_splits > 1 else ""
    return ExperimentResult(
        "epochs_curve", f"Error against epochs on {dataset}{splits}",
        ["epoch", "train (vanilla)", "test (vanilla)", "train (averaged)", "test (averaged)",
         "least test error"],
        rows, {"errors": errors, "best_epoch": best, "per_split": per_split}, draw,
    )


def _one_split(dataset, n_epochs, random_state, show_progress):
    """``{model: (train errors, test errors)}`` after each epoch on one split."""
    X_train, X_test, y_train, y_test = split(dataset, random_state)
    models = {"vanilla": Perceptron(random_state=random_state),
              "averaged": AveragedPerceptron(random_state=random_state)}
    errors = {name: ([], []) for name in models}
    for name, model in progress(models.items(), show_progress, "epochs_curve"):
        for fitted in models_per_epoch(model, X_train, y_train, n_epochs):
            errors[name][0].append(1 - fitted.score(X_train, y_train))
            errors[name][1].append(1 - fitted.score(X_test, y_test))
    return errors
