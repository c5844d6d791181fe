"""The 2-D decision boundary, drawn the way the texts draw it."""

import numpy as np

NEGATIVE, POSITIVE, LEARNED, TARGET = "tab:blue", "tab:red", "tab:green", "black"


def boundary_segment(w, b, xlim, ylim):
    """The part of the line ``w·x + b = 0`` inside the box ``xlim × ylim``.

    Returns a (2, 2) array of its end points, or ``None`` when the line misses
    the box (or ``w = 0``).

    >>> boundary_segment([1.0, 1.0], 0.0, (-1, 1), (-1, 1)).tolist()
    [[-1.0, 1.0], [1.0, -1.0]]
    """
    w = np.asarray(w, dtype=np.float64)
    (x0, x1), (y0, y1) = xlim, ylim
    points = []
    if w[1] != 0:  # crossings with the vertical sides
        for x in (x0, x1):
            y = -(b + w[0] * x) / w[1]
            if y0 <= y <= y1:
                points.append((x, y))
    if w[0] != 0:  # crossings with the horizontal sides
        for y in (y0, y1):
            x = -(b + w[1] * y) / w[0]
            if x0 <= x <= x1:
                points.append((x, y))
    unique = []
    for point in points:
        if not any(np.allclose(point, other) for other in unique):
            unique.append(point)
    if len(unique) < 2:
        return None
    return np.array(sorted(unique)[:1] + sorted(unique)[-1:], dtype=np.float64)


class BoundaryDisplay:
    """Points coloured by class, the learned boundary, its weight vector, margin band.

    Build it with :meth:`from_estimator` (or directly from weights), then call
    :meth:`plot`, which draws on ``ax`` (a new figure if None) and keeps
    ``ax_``, ``figure_`` and the drawn ``line_``/``arrow_``.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rosenblatt import Perceptron
    >>> from rosenblatt.datasets import make_boolean
    >>> X, y = make_boolean("and")
    >>> model = Perceptron(shuffle="none").fit(X, y)
    >>> display = BoundaryDisplay.from_estimator(model, X, y)
    >>> display.segment.round(3).tolist()
    [[0.6, 1.1], [1.1, 0.35]]
    >>> display.misclassified.tolist()
    []
    """

    def __init__(self, X, y, coef, intercept, *, classes=None, target=None, title=None,
                 feature_names=None, highlight=None, previous=None):
        self.X = np.asarray(X, dtype=np.float64)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"BoundaryDisplay draws 2-D data; X has shape {self.X.shape}.")
        self.y = np.asarray(y)
        self.classes = np.unique(self.y) if classes is None else np.asarray(classes)
        self.coef = np.asarray(coef, dtype=np.float64).ravel()
        self.intercept = float(intercept)
        self.target = None if target is None else np.asarray(target, dtype=np.float64)
        self.title = title
        #: axis labels (default "x1", "x2")
        self.feature_names = ["x1", "x2"] if feature_names is None else \
            [str(name) for name in feature_names]
        #: the row being updated, drawn ringed (animation frames)
        self.highlight = highlight
        #: ``(coef, intercept)`` before the update, drawn faded
        self.previous = previous
        pad = 0.1 * max(np.ptp(self.X[:, 0]), np.ptp(self.X[:, 1]), 1e-9)
        self.xlim = (self.X[:, 0].min() - pad, self.X[:, 0].max() + pad)
        self.ylim = (self.X[:, 1].min() - pad, self.X[:, 1].max() + pad)
        self.segment = boundary_segment(self.coef, self.intercept, self.xlim, self.ylim)
        positive = self.y == self.classes[-1]
        activation = self.X @ self.coef + self.intercept
        #: rows on the wrong side (an activation of 0 counts as the negative class)
        self.misclassified = np.flatnonzero((activation > 0) != positive)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, target=None, title=None):
        """From a fitted binary linear estimator (``coef_`` of one row); its
        ``feature_names_in_`` (fitted on a DataFrame) label the axes."""
        coef = np.asarray(estimator.coef_)
        if coef.shape != (1, 2):
            raise ValueError(
                f"from_estimator needs a binary model fitted on 2 features; coef_ has shape "
                f"{coef.shape}."
            )
        return cls(X, y, coef[0], estimator.intercept_[0], classes=estimator.classes_,
                   target=target, title=title,
                   feature_names=getattr(estimator, "feature_names_in_", None))

    def arrow(self):
        """Start and end of the weight vector drawn from the middle of the boundary,
        scaled to a fifth of the picture: the normal pointing to the positive side."""
        if self.segment is None:
            return None
        start = self.segment.mean(axis=0)
        size = 0.2 * max(self.xlim[1] - self.xlim[0], self.ylim[1] - self.ylim[0])
        return start, start + size * self.coef / np.linalg.norm(self.coef)

    def margin_lines(self):
        """The two lines ``w·x + b = ±γ`` through the closest points (γ > 0 only
        when the data are separated)."""
        positive = np.where(self.y == self.classes[-1], 1.0, -1.0)
        gamma = float(np.min(positive * (self.X @ self.coef + self.intercept)))
        if gamma <= 0:
            return []
        return [boundary_segment(self.coef, self.intercept + sign * gamma, self.xlim, self.ylim)
                for sign in (-1, 1)]

    def plot(self, ax=None, *, legend_loc="best"):
        """Draw on ``ax`` (a new figure if None). ``legend_loc`` is matplotlib's
        ``loc`` (``"best"``, the default, is the place that covers the fewest points
        and lines, decided when the figure is drawn), or ``"outside"``: to the right
        of the axes, in room the figure leaves there (the frames of
        :func:`~rosenblatt.inspection.animate`, where one that moved would jump)."""
        import matplotlib.pyplot as plt

        if ax is None:  # wider with the legend outside, laid out to hold it
            _, ax = plt.subplots(figsize=(6.4, 5), layout="constrained") \
                if legend_loc == "outside" else plt.subplots(figsize=(5, 5))
        positive = self.y == self.classes[-1]
        ax.scatter(*self.X[~positive].T, c=NEGATIVE, label=str(self.classes[0]), zorder=3)
        ax.scatter(*self.X[positive].T, c=POSITIVE, label=str(self.classes[-1]), zorder=3)
        if len(self.misclassified):
            ax.scatter(*self.X[self.misclassified].T, s=160, facecolors="none",
                       edgecolors="k", label="misclassified", zorder=4)
        if self.highlight is not None:
            ax.scatter(*self.X[self.highlight], s=320, facecolors="none", edgecolors="orange",
                       linewidths=2.5, label="updated point", zorder=5)
        if self.target is not None:
            target = boundary_segment(self.target[1:], self.target[0], self.xlim, self.ylim)
            if target is not None:
                ax.plot(*target.T, color=TARGET, lw=1.5, label="target")
        if self.previous is not None:
            before = boundary_segment(self.previous[0], self.previous[1], self.xlim, self.ylim)
            if before is not None:
                ax.plot(*before.T, color=LEARNED, lw=2, alpha=0.3, label="before the update")
        self.line_ = self.arrow_ = None
        if self.segment is not None:
            (self.line_,) = ax.plot(*self.segment.T, color=LEARNED, lw=2, label="learned")
            bands = [band for band in self.margin_lines() if band is not None]
            for k, band in enumerate(bands):
                ax.plot(*band.T, color=LEARNED, lw=1, ls="--",
                        label="margin band" if k == 0 else None)
            start, end = self.arrow()
            self.arrow_ = ax.annotate("", xy=end, xytext=start,
                                      arrowprops={"arrowstyle": "->", "color": LEARNED,
                                                  "lw": 1.5})
        else:  # say so, rather than draw nothing: an entry in the legend, off the points
            why = "w = 0: no line" if not np.any(self.coef) else "outside the view"
            ax.plot([], [], color=LEARNED, lw=2, label=f"learned ({why})")
        ax.set(xlim=self.xlim, ylim=self.ylim, aspect="equal",
               xlabel=self.feature_names[0], ylabel=self.feature_names[1])
        if self.title:
            ax.set_title(self.title)
        style = {"fontsize": 7, "framealpha": 0.6, "markerscale": 0.6}
        if legend_loc == "outside":
            ax.legend(loc="upper left", bbox_to_anchor=(1.03, 1), borderaxespad=0, **style)
        else:
            ax.legend(loc=legend_loc, **style)
        self.ax_, self.figure_ = ax, ax.figure
        return self
