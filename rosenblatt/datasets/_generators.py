"""Generated data: Boolean truth tables and the blog's random target line."""

import numpy as np

from .._validation import check_random_state

_TRUTH_TABLES = {
    "and": [0, 0, 0, 1],
    "or": [0, 1, 1, 1],
    "nand": [1, 1, 1, 0],
    "xor": [0, 1, 1, 0],
}


def make_boolean(name):
    """Truth table of a Boolean function of two inputs, labels -1 (false) / +1 (true).

    Rows in the order of Ahmed & Pavlu's table: (0,0), (0,1), (1,0), (1,1).

    >>> X, y = make_boolean("and")
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, -1, -1, 1])
    """
    key = str(name).lower()
    if key not in _TRUTH_TABLES:
        raise ValueError(
            f"Unknown Boolean function {name!r}; choose one of {sorted(_TRUTH_TABLES)}."
        )
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.float64)
    y = np.where(np.array(_TRUTH_TABLES[key]) == 1, 1, -1)
    return X, y


def make_target_line(n_samples=20, n_features=2, *, random_state=None):
    """Points uniform in [-1, 1]^d labelled by a random hyperplane (the blog's target).

    As in the Data Science Lab post, ``n_features`` points drawn uniformly in
    the cube define the target: for d = 2, the line through two points
    ``A, B`` with ``V = (x_B y_A - x_A y_B, y_B - y_A, x_A - x_B)``; in general
    the hyperplane through the d points, ``V`` their generalised cross product.
    A point ``x`` gets label ``sign(V · (1, x))`` (-1 on the hyperplane itself).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of int in {-1, +1}
    target : ndarray of shape (n_features + 1,)
        ``V``, the bias first.

    >>> X, y, target = make_target_line(5, random_state=0)
    >>> X.shape, y.tolist(), target.round(3).tolist()
    ((5, 2), [1, 1, -1, -1, -1], [0.08, -0.341, -0.108])
    """
    if int(n_samples) < 1 or int(n_features) < 1:
        raise ValueError(
            f"n_samples and n_features must be at least 1; got {n_samples} and {n_features}."
        )
    rng = check_random_state(random_state)
    anchors = rng.uniform(-1, 1, size=(n_features, n_features))
    target = _hyperplane_through(anchors)
    X = rng.uniform(-1, 1, size=(n_samples, n_features))
    return X, label_by(target, X), target


def label_by(target, X):
    """Labels ±1 of the points ``X`` under the hyperplane ``target`` (bias first).

    Parameters
    ----------
    target : array-like of shape (n_features + 1,)
        The hyperplane ``target[0] + target[1:]·x = 0``; points where it is
        positive get +1.
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_samples,) with values -1 and +1

    Examples
    --------
    The line ``x₂ = x₁`` (``0 − x₁ + x₂``): above it +1, below it -1.

    >>> import numpy as np
    >>> label_by(np.array([0.0, -1.0, 1.0]), np.array([[0.0, 1.0], [1.0, 0.0]])).tolist()
    [1, -1]
    """
    return np.where(target[0] + X @ target[1:] > 0, 1, -1)


def _hyperplane_through(points):
    """``V`` with ``V · (1, p) = 0`` for each of the d points: cofactors of [1 | P]."""
    d = points.shape[0]
    augmented = np.hstack([np.ones((d, 1)), points])
    return np.array([
        (-1) ** (j + 1) * np.linalg.det(np.delete(augmented, j, axis=1))
        for j in range(d + 1)
    ])
