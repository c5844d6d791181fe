"""Error per epoch, and the loss functions of the texts."""

import copy
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from .. import theory
from ..base import on_epoch


class EpochCurveDisplay:
    """Training (and test) error after each epoch of an online estimator.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rosenblatt import Perceptron
    >>> from rosenblatt.datasets import make_boolean
    >>> X, y = make_boolean("and")
    >>> curve = EpochCurveDisplay.from_estimator(Perceptron(shuffle="none"), X, y, n_epochs=10)
    >>> [round(e, 2) for e in curve.train_errors]
    [0.5, 0.25, 0.0, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0]
    """

    def __init__(self, train_errors, test_errors=None, name=None):
        self.train_errors = list(train_errors)
        self.test_errors = None if test_errors is None else list(test_errors)
        self.name = name

    @classmethod
    def from_estimator(cls, estimator, X, y, X_test=None, y_test=None, *, n_epochs=20):
        """Fit a clone of ``estimator`` for ``n_epochs`` epochs and score the model
        after each (see :func:`models_per_epoch`)."""
        if not hasattr(estimator, "partial_fit"):
            raise ValueError(f"{type(estimator).__name__} has no partial_fit: the curve needs "
                             "an online estimator (Perceptron, AveragedPerceptron, ...).")
        train, test = [], []
        for model in models_per_epoch(estimator, X, y, n_epochs):
            train.append(1 - model.score(X, y))
            if X_test is not None:
                test.append(1 - model.score(X_test, y_test))
        return cls(train, test if X_test is not None else None, type(estimator).__name__)

    def plot(self, ax=None):
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 4))
        epochs = np.arange(1, len(self.train_errors) + 1)
        ax.plot(epochs, self.train_errors, "o-", label="train")
        if self.test_errors is not None:
            ax.plot(epochs, self.test_errors, "s-", label="test")
        ax.set(xlabel="epoch", ylabel="error", title=self.name or "")
        ax.legend()
        self.ax_, self.figure_ = ax, ax.figure
        return self


def models_per_epoch(estimator, X, y, n_epochs):
    """The model after each of ``n_epochs`` epochs of one fit of a clone of
    ``estimator`` (the training loop's ``on_epoch`` keeps each epoch's problems):
    every epoch is run (``tol=None``, ``stop_mistake_free=False`` where the
    estimator has them); a rule that stops by itself at a mistake-free epoch
    keeps that model for the epochs after it. Yields the same model object,
    its fitted attributes those of each epoch in turn.

    >>> from rosenblatt import Perceptron
    >>> from rosenblatt.datasets import make_boolean
    >>> X, y = make_boolean("and")
    >>> [m.n_iter_ for m in models_per_epoch(Perceptron(shuffle="none"), X, y, 3)]
    [1, 2, 3]
    """
    model = clone(estimator)
    settings = {"max_iter": n_epochs, "tol": None, "stop_mistake_free": False}
    model.set_params(**{name: value for name, value in settings.items()
                        if name in model.get_params()})
    snapshots = []

    def keep(problem):
        if not snapshots or snapshots[-1][0] != problem.n_iter:
            snapshots.append((problem.n_iter, {}))
        snapshots[-1][1][problem.classes] = copy.deepcopy(problem)

    with warnings.catch_warnings(), on_epoch(model, keep):
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    learner, latest = model._learner(), {}
    for epoch in range(1, n_epochs + 1):
        if snapshots and snapshots[0][0] == epoch:
            latest.update(snapshots.pop(0)[1])
        vars(model).update(learner.publish([latest[p.classes] for p in model._problems]))
        yield model


class LossDisplay:
    """The perceptron, hinge, squared and zero-one losses against the margin ``y·s``.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> display = LossDisplay().plot()
    >>> sorted(display.losses)
    ['hinge', 'perceptron', 'squared', 'zero-one']
    """

    FUNCTIONS = {
        "perceptron": theory.perceptron_loss,
        "hinge": theory.hinge_loss,
        "squared": theory.squared_loss,
        "zero-one": theory.zero_one_loss,
    }

    def __init__(self, margins=None):
        self.margins = np.linspace(-2, 2, 401) if margins is None else np.asarray(margins)
        ones = np.ones_like(self.margins)
        # with y = +1 the score is the margin itself
        self.losses = {name: f(ones, self.margins) for name, f in self.FUNCTIONS.items()}

    def plot(self, ax=None):
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 4))
        for name, values in self.losses.items():
            ax.plot(self.margins, values, label=name)
        ax.set(xlabel="margin y·(w·x + b)", ylabel="loss", ylim=(-0.1, 3))
        ax.legend()
        self.ax_, self.figure_ = ax, ax.figure
        return self
