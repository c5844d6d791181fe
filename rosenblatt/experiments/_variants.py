"""Vanilla, averaged, voted and pocket perceptrons on real data sets."""

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..linear_model import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron
from ._real_data import DATASETS, split
from ._result import ExperimentResult, check_counts, progress

VARIANTS = {
    "vanilla": Perceptron,
    "averaged": AveragedPerceptron,
    "voted": VotedPerceptron,
    "pocket": PocketPerceptron,
}


def variants(datasets=tuple(DATASETS), n_epochs=10, *, random_state=0, show_progress=True):
    """Test error of each variant after ``n_epochs`` on each data set.

    >>> result = variants(("iris_versicolor_virginica",), n_epochs=2, show_progress=False)
    >>> result.columns
    ['data set', 'vanilla', 'averaged', 'voted', 'pocket']
    """
    check_counts(n_epochs=n_epochs)
    rows, errors = [], {}
    for name in progress(datasets, show_progress, "variants"):
        X_train, X_test, y_train, y_test = split(name, random_state)
        errors[name] = {}
        for variant, cls in VARIANTS.items():
            # n_epochs epochs, unless one makes no mistake: no loss-stall rule (tol);
            # the pocket judged after every update, as Gallant's is
            extra = {"pocket_every": "update"} if cls is PocketPerceptron else {}
            model = cls(max_iter=n_epochs, tol=None, random_state=random_state, **extra)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                model.fit(X_train, y_train)
            errors[name][variant] = 1 - model.score(X_test, y_test)
        rows.append([name] + [float(errors[name][v]) for v in VARIANTS])

    def draw(plt):
        figure, ax = plt.subplots(figsize=(8, 4))
        width = 0.8 / len(VARIANTS)
        positions = np.arange(len(errors))
        for k, variant in enumerate(VARIANTS):
            ax.bar(positions + k * width, [errors[d][variant] for d in errors], width,
                   label=variant)
        ax.set_xticks(positions + 0.4 - width / 2, list(errors))
        ax.set(ylabel="test error")
        ax.legend()
        return figure

    return ExperimentResult(
        "variants", f"Test error after {n_epochs} epochs",
        ["data set", *VARIANTS], rows, {"errors": errors}, draw,
    )
