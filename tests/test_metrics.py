import numpy as np
import pytest

from rosenblatt import Perceptron
from rosenblatt.datasets import label_by
from rosenblatt.metrics import exact_out_of_sample_error, top_features


def random_line(rng, miss=False):
    """A random line; with ``miss``, one that does not cross the square."""
    if miss:
        w = rng.randn(2)
        return np.r_[np.sign(rng.randn()) * (np.abs(w).sum() + rng.uniform(0.1, 2)), w]
    return np.r_[rng.uniform(-1, 1), rng.randn(2)]


def test_exact_error_agrees_with_a_million_point_monte_carlo():
    rng = np.random.RandomState(0)
    points = rng.uniform(-1, 1, size=(1_000_000, 2))
    for k in range(50):
        target = random_line(rng, miss=(k % 10 == 0))
        hypothesis = random_line(rng, miss=(k % 10 == 5))
        estimate = np.mean(label_by(target, points) != label_by(hypothesis, points))
        standard_error = np.sqrt(max(estimate * (1 - estimate), 1e-12) / len(points))
        exact = exact_out_of_sample_error(target, hypothesis)
        assert abs(exact - estimate) <= 4 * standard_error + 1e-12, (k, exact, estimate)


def test_exact_error_on_known_areas():
    assert exact_out_of_sample_error([0, 1, 0], [0, -1, 0]) == 1.0
    assert exact_out_of_sample_error([0, 1, 0], [0, 1, 1]) == pytest.approx(0.25)
    # a line missing the square against the diagonal split: half the square
    assert exact_out_of_sample_error([5, 1, 1], [0, 1, 1]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="3 finite numbers"):
        exact_out_of_sample_error([0, 1], [0, 1, 1])


def test_top_features_are_the_extreme_weights():
    model = Perceptron(shuffle="none").fit(
        [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0]], [1, 0, 1, 0]
    )
    positive, negative = top_features(model, ["a", "b", "c", "d"], k=2)
    weights = dict(zip("abcd", model.coef_[0]))
    assert [name for name, _ in positive] == sorted(
        [n for n in weights if weights[n] > 0], key=lambda n: -weights[n])[:2]
    assert all(weight < 0 for _, weight in negative)
    with pytest.raises(ValueError, match="3 names for 4 weights"):
        top_features(model, ["a", "b", "c"])
