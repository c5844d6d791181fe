import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from rosenblatt import Perceptron
from rosenblatt.datasets import load_svm_succinctly, make_boolean
from rosenblatt.theory import (
    check_mistake_bound,
    dataset_margin,
    geometric_margin,
    hinge_loss,
    is_linearly_separable,
    margin,
    mistake_bound,
    perceptron_loss,
    squared_loss,
    zero_one_loss,
)


def test_margin_of_a_given_hyperplane():
    X, y = [[0, 0], [2, 2], [3, 0]], [-1, 1, 1]
    assert margin(X, y, [1, 1], -1) == 1.0
    assert margin(X, y, [1, 1], -3) == -np.inf  # (2, 2)... (3,0) gives 0: not separated
    assert geometric_margin(X, y, [2, 2], -2) == pytest.approx(1 / np.sqrt(2))


def test_two_points_margin_is_half_their_distance():
    gamma, w, b = dataset_margin([[1, 1], [4, 5]], [0, 1])
    assert gamma == pytest.approx(2.5, abs=1e-6)
    assert_allclose(w, [0.6, 0.8], atol=1e-6)
    assert b == pytest.approx(-(0.6 * 2.5 + 0.8 * 3.0), abs=1e-6)


def test_symmetric_set_margin():
    X = [[-2, 1], [-2, -1], [-3, 0], [2, 1], [2, -1], [3, 0]]
    gamma, w, b = dataset_margin(X, [0, 0, 0, 1, 1, 1])
    assert gamma == pytest.approx(2.0, abs=1e-6)
    assert_allclose(w, [1, 0], atol=1e-6)
    assert b == pytest.approx(0, abs=1e-6)


def test_and_margin_and_bound():
    X, y = make_boolean("and")
    gamma, w, b = dataset_margin(X, y)
    # the best line is x1 + x2 = 1.5, at distance 0.5/√2 from (1, 0), (0, 1), (1, 1)
    assert gamma == pytest.approx(0.5 / np.sqrt(2), abs=1e-6)
    assert_allclose(w, [1 / np.sqrt(2)] * 2, atol=1e-6)
    # with the bias in the norm: w̃ = (-3, 2, 2), ‖w̃‖² = 17, R² = 3
    assert mistake_bound(X, y) == pytest.approx(51.0, abs=1e-6)


def test_not_separable_gives_minus_infinity():
    X, y = make_boolean("xor")
    assert dataset_margin(X, y) == (-np.inf, None, None)
    assert mistake_bound(X, y) == np.inf


@pytest.mark.parametrize("name, expected", [("and", True), ("or", True), ("nand", True),
                                            ("xor", False)])
def test_separability_of_the_boolean_functions(name, expected):
    assert is_linearly_separable(*make_boolean(name)) is expected


def test_succinctly_set_is_separable():
    assert is_linearly_separable(*load_svm_succinctly())
    assert is_linearly_separable(*load_svm_succinctly("test"))


def test_bad_input():
    with pytest.raises(ValueError, match="exactly two classes"):
        is_linearly_separable([[0.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match="NaN or infinity"):
        dataset_margin([[np.nan], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="one label per row"):
        margin([[0.0], [1.0]], [0, 1, 1], [1.0])
    with pytest.raises(ValueError, match="zero start with a bias"):
        X, y = make_boolean("and")
        check_mistake_bound(Perceptron(init="uniform").fit(X, y), X, y)


def test_losses():
    y = np.array([1, 1, -1, -1, 1])
    s = np.array([2.0, -0.5, 0.5, -3.0, 0.0])
    assert perceptron_loss(y, s).tolist() == [0.0, 0.5, 0.5, 0.0, 0.0]
    assert hinge_loss(y, s).tolist() == [0.0, 1.5, 1.5, 0.0, 1.0]
    assert squared_loss(y, s).tolist() == [0.5, 1.125, 1.125, 2.0, 0.5]
    assert zero_one_loss(y, s).tolist() == [0.0, 1.0, 1.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="same shape"):
        hinge_loss([1, -1], [0.0])


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n=st.integers(4, 40),
    d=st.integers(1, 4),
    shuffle=st.sampled_from(["none", "once", "every_epoch"]),
    eta=st.floats(0.01, 10.0),
)
def test_updates_never_exceed_the_mistake_bound(seed, n, d, shuffle, eta):
    rng = np.random.RandomState(seed)
    X = rng.uniform(-1, 1, size=(n, d))
    w, b = rng.randn(d), rng.uniform(-0.5, 0.5)
    score = X @ w + b
    y = np.where(score > 0, 1, -1)
    if len(np.unique(y)) < 2 or np.min(np.abs(score)) < 1e-3:
        return  # one class, or a margin too thin for the solver's tolerance
    model = Perceptron(shuffle=shuffle, eta=eta, max_iter=100_000, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(X, y)
    updates, bound, within = check_mistake_bound(model, X, y)
    assert within, (updates, bound)
