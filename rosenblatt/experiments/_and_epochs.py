"""Ahmed & Pavlu's AND example: the weights and the boundary after each epoch."""

import numpy as np

from ..datasets import make_boolean
from ..inspection import boundary_segment
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
    model = Perceptron(shuffle="none", eta=eta, tol=None, record=True).fit(X, y)
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
        box = (-0.5, 1.5)
        for ax, (epoch, vector) in zip(axes.ravel(), enumerate(weights, start=1)):
            negative = y < 0
            ax.scatter(*X[negative].T, c="tab:blue", label="y = -1", zorder=3)
            ax.scatter(*X[~negative].T, c="tab:red", label="y = +1", zorder=3)
            segment = boundary_segment(vector[1:], vector[0], box, box)
            if segment is not None:
                ax.plot(*segment.T, color="tab:green", label="w·x + b = 0")
                middle = segment.mean(axis=0)  # the weight vector: the normal to the line
                tip = middle + 0.4 * vector[1:] / np.linalg.norm(vector[1:])
                ax.annotate("", xy=tip, xytext=middle,
                            arrowprops={"arrowstyle": "->", "color": "tab:green"})
            ax.set(xlim=box, ylim=box, aspect="equal", title=f"epoch {epoch}",
                   xlabel="x1", ylabel="x2")
        axes.ravel()[0].legend(loc="upper left", fontsize=7, framealpha=0.8)
        for ax in axes.ravel()[n:]:
            ax.axis("off")
        figure.tight_layout()
        return figure

    return ExperimentResult(
        "and_epochs", f"Perceptron on AND, eta = {eta}",
        ["epoch", "updates", "w0 (bias)", "w1", "w2"], rows, {"weights": np.array(weights)}, draw,
    )
