"""How well a learned hyperplane does: in-sample and out-of-sample error, top features."""

import numpy as np

from ._validation import check_random_state
from .datasets._generators import label_by
from .structured._metrics import attachment_scores, relation_scores

__all__ = ["attachment_scores", "exact_out_of_sample_error", "in_sample_error",
           "out_of_sample_error", "relation_scores", "top_features"]

_SQUARE = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])


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


def exact_out_of_sample_error(target, hypothesis):
    """E_out of the blog's setting, exactly: the area of [-1, 1]² where the target
    line and the learned line disagree, divided by the square's area 4.

    Both are 2-D hyperplanes ``(bias, w1, w2)``; a point is positive where
    ``bias + w·x > 0``. The disagreement region is the square clipped by two
    half-planes (Sutherland–Hodgman), in two pieces; their areas come from the
    shoelace formula. Lines that miss the square are handled like any other.

    >>> exact_out_of_sample_error([0, 1, 0], [0, 0, 1])  # x1 > 0 against x2 > 0
    0.5
    >>> exact_out_of_sample_error([0, 1, 0], [0, 1, 0])
    0.0
    """
    target = _line(target, "target")
    hypothesis = _line(hypothesis, "hypothesis")
    area = 0.0
    for positive, negative in ((target, hypothesis), (hypothesis, target)):
        piece = _clip(_clip(_SQUARE, positive), -negative)
        area += _area(piece)
    return area / 4.0


def _line(vector, name):
    vector = np.asarray(vector, dtype=np.float64).ravel()
    if vector.shape != (3,) or not np.all(np.isfinite(vector)):
        raise ValueError(f"{name} must be 3 finite numbers (bias, w1, w2); got {vector!r}.")
    return vector


def _clip(polygon, line):
    """The part of ``polygon`` where ``line[0] + line[1:]·p >= 0`` (its closure)."""
    if len(polygon) == 0:
        return polygon
    values = line[0] + polygon @ line[1:]
    kept = []
    for k in range(len(polygon)):
        j = (k + 1) % len(polygon)
        inside_k, inside_j = values[k] >= 0, values[j] >= 0
        if inside_k:
            kept.append(polygon[k])
        if inside_k != inside_j:
            fraction = values[k] / (values[k] - values[j])
            kept.append(polygon[k] + fraction * (polygon[j] - polygon[k]))
    return np.array(kept).reshape(-1, 2)


def _area(polygon):
    if len(polygon) < 3:
        return 0.0
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def top_features(model, feature_names=None, k=10):
    """Daumé §4.4: the ``k`` largest positive and ``k`` most negative weights.

    Returns ``(positive, negative)``: lists of ``(name, weight)``, strongest
    first. Works on a fitted binary linear model (``coef_`` of one row).

    >>> from rosenblatt import Perceptron
    >>> model = Perceptron(shuffle="none").fit([[1, 0, 0], [0, 1, 1]], [1, -1])
    >>> top_features(model, ["good", "bad", "awful"], k=1)
    ([('good', 1.0)], [('bad', -1.0)])
    """
    coef = np.asarray(getattr(model, "coef_", None) if hasattr(model, "coef_") else [])
    if coef.ndim != 2 or coef.shape[0] != 1:
        raise ValueError(
            "top_features needs a fitted binary linear model (coef_ of shape (1, n_features))"
            f"; got coef_ of shape {coef.shape}. For one-vs-rest, pass one class's weights."
        )
    weights = coef[0]
    if feature_names is None:
        feature_names = [f"x{j}" for j in range(len(weights))]
    if len(feature_names) != len(weights):
        raise ValueError(
            f"feature_names has {len(feature_names)} names for {len(weights)} weights."
        )
    # stable sorts: equal weights keep the order of the features
    descending, ascending = np.argsort(-weights, kind="stable"), np.argsort(weights, kind="stable")
    positive = [(feature_names[j], float(weights[j])) for j in descending[:k] if weights[j] > 0]
    negative = [(feature_names[j], float(weights[j])) for j in ascending[:k] if weights[j] < 0]
    return positive, negative
