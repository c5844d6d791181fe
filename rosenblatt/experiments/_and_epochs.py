"""Ahmed & Pavlu's AND example: the weights and the boundary after each epoch."""

import numpy as np

from ..datasets import make_boolean
from ..linear_model import Perceptron
from ._result import ExperimentResult


def and_epochs(eta=1.0):
    """The perceptron on AND (rows in the table's order, zero start, no shuffling),
    with the weights (bias first) at the end of every epoch.

    >>> result = and_epochs()
    >>> result.rows[0], result.rows[-1]
    ([1, 2, 0.0, 1.0, 1.0], [9, 0, -4.0, 3.0, 2.0])
    """
    X, y = make_boolean("and")
    model = Perceptron(shuffle="none", eta=eta, record=True).fit(X, y)
    trace = model.trace_
    rows, weights = [], []
    w, b = np.zeros(2), 0.0
    for epoch in range(1, model.n_iter_ + 1):
        in_epoch = trace.epoch == epoch
        if in_epoch.any():
            w, b = trace.coef[in_epoch][-1], float(trace.intercept[in_epoch][-1])
        rows.append([epoch, int(in_epoch.sum()), float(b), float(w[0]), float(w[1])])
        weights.append(np.r_[b, w])

    def draw(plt):
        n = len(weights)
        columns = min(n, 5)
        figure, axes = plt.subplots((n + columns - 1) // columns, columns,
                                    figsize=(2.6 * columns, 2.6 * ((n + columns - 1) // columns)),
                                    squeeze=False)
        grid = np.linspace(-0.5, 1.5, 2)
        for ax, (epoch, vector) in zip(axes.ravel(), enumerate(weights, start=1)):
            ax.scatter(X[:, 0], X[:, 1], c=np.where(y > 0, "tab:red", "tab:blue"))
            if vector[2] != 0:
                ax.plot(grid, -(vector[0] + vector[1] * grid) / vector[2], "g-")
            elif vector[1] != 0:
                ax.axvline(-vector[0] / vector[1], color="g")
            ax.set(xlim=(-0.5, 1.5), ylim=(-0.5, 1.5), title=f"epoch {epoch}")
        for ax in axes.ravel()[n:]:
            ax.axis("off")
        return figure

    return ExperimentResult(
        "and_epochs", f"Perceptron on AND, eta = {eta}",
        ["epoch", "updates", "w0 (bias)", "w1", "w2"], rows, {"weights": np.array(weights)}, draw,
    )
