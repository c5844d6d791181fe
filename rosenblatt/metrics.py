"""How well a learned line does: in-sample and out-of-sample error."""

import numpy as np

from ._validation import check_random_state
from .datasets._generators import label_by


def in_sample_error(model, X, y):
    """E_in: the fraction of the training points the model misclassifies.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [1, 1], [2, 2]], [0, 1, 1]
    >>> in_sample_error(Perceptron(shuffle="none").fit(X, y), X, y)
    0.0
    """
    return float(np.mean(model.predict(X) != np.asarray(y)))


def out_of_sample_error(model, target, n_samples=100_000, *, random_state=None):
    """E_out by Monte Carlo: the error on fresh points uniform in [-1, 1]^d,
    labelled by the hyperplane ``target`` (bias first), as in the blog.

    >>> import numpy as np
    >>> from rosenblatt import PLA
    >>> from rosenblatt.datasets import make_target_line
    >>> X, y, target = make_target_line(100, random_state=1)
    >>> model = PLA().fit(X, y)
    >>> bool(out_of_sample_error(model, target, random_state=2) < 0.05)
    True
    """
    target = np.asarray(target, dtype=np.float64)
    rng = check_random_state(random_state)
    X = rng.uniform(-1, 1, size=(int(n_samples), len(target) - 1))
    labels = label_by(target, X)
    predictions = model.predict(X)
    positive = model.classes_[1]
    return float(np.mean((predictions == positive) != (labels == 1)))
