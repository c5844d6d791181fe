"""Decision regions of any classifier on 2-D data, with the perceptron's extras."""

import numpy as np
from sklearn.inspection import DecisionBoundaryDisplay

from ._boundary import BoundaryDisplay


class RegionsDisplay:
    """The regions a fitted classifier predicts over 2-D data, the points on them,
    and for a binary linear model its line, weight vector and margin band.

    Behaves like scikit-learn's ``DecisionBoundaryDisplay`` (which draws the
    regions, on a grid of the model's predictions): :meth:`from_estimator` draws
    at once on ``ax`` (a new figure if None) and keeps ``ax_``, ``figure_`` and
    ``regions_`` (the scikit-learn display). It takes any fitted classifier — a
    ``Pipeline``, a :class:`~rosenblatt.KernelPerceptron`, a multiclass model —
    and adds the perceptron's geometry (:class:`BoundaryDisplay`) when the model
    is linear and binary on the two features as given.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rosenblatt import KernelPerceptron, Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0]
    >>> kernel = KernelPerceptron(kernel="poly", degree=2, shuffle="none").fit(X, y)
    >>> display = RegionsDisplay.from_estimator(kernel, X, y)
    >>> display.boundary_ is None, len(display.ax_.collections) > 0
    (True, True)
    >>> AND = [0, 0, 0, 1]
    >>> RegionsDisplay.from_estimator(Perceptron(shuffle="none").fit(X, AND), X, AND
    ...                               ).boundary_.segment.round(2).tolist()
    [[0.6, 1.1], [1.1, 0.35]]
    """

    def __init__(self, regions, boundary, ax):
        self.regions_ = regions
        self.boundary_ = boundary
        self.ax_, self.figure_ = ax, ax.figure

    @classmethod
    def from_estimator(cls, estimator, X, y=None, *, ax=None, grid_resolution=200, alpha=0.25,
                       title=None, **kwargs):
        """Draw ``estimator``'s regions over ``X`` (two columns) and the points.

        Parameters
        ----------
        estimator : fitted classifier
        X : array-like of shape (n_samples, 2)
        y : array-like of shape (n_samples,), default=None
            Labels to colour the points by (the regions only, if None).
        ax : matplotlib Axes, default=None
        grid_resolution : int, default=200
            Grid points per axis where the regions are evaluated.
        alpha : float, default=0.25
            Opacity of the regions.
        title : str, default=None
        **kwargs
            Passed to ``DecisionBoundaryDisplay.from_estimator`` (its ``cmap``, ...).

        Returns
        -------
        RegionsDisplay
        """
        import matplotlib.pyplot as plt

        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != 2:
            raise ValueError(f"RegionsDisplay draws 2-D data; X has shape {X.shape}.")
        if ax is None:
            _, ax = plt.subplots(figsize=(5, 5))
        regions = DecisionBoundaryDisplay.from_estimator(
            estimator, X, response_method="predict", grid_resolution=grid_resolution,
            alpha=alpha, ax=ax, **kwargs)
        boundary = None
        coef = getattr(estimator, "coef_", None)
        if y is not None and coef is not None and np.shape(coef) == (1, 2):
            boundary = BoundaryDisplay.from_estimator(estimator, X, y, title=title).plot(ax=ax)
        elif y is not None:
            for label in np.unique(y):
                ax.scatter(*X[np.asarray(y) == label].T, label=str(label), edgecolors="k",
                           zorder=3)
            ax.legend(loc="best", fontsize=7, framealpha=0.8)  # where it covers fewest points
        if title and boundary is None:
            ax.set_title(title)
        return cls(regions, boundary, ax)
