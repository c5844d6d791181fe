"""CISC 271's rule with each choice of H(0): equal to the text's loop with numpy.heaviside."""

import numpy as np
import pytest

from rosenblatt import AveragedPerceptron, BatchPerceptron, Perceptron
from rosenblatt.datasets import load_iris_binary

AND_X = np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]])
AND_Y = np.array([0, 0, 0, 1])


def cisc_online(X, y01, h0, eta=1.0, max_iter=100):
    """CISC 271 eq. 30.1 as written: q = H(w·x + b), e = y − q, w += η e x."""
    w, b, history = np.zeros(X.shape[1]), 0.0, []
    for epoch in range(1, max_iter + 1):
        missed = False
        for x, target in zip(X, y01):
            e = target - np.heaviside(w @ x + b, h0)
            if e != 0:
                w, b, missed = w + eta * e * x, b + eta * e, True
                history.append(e)
        if not missed:
            return w, b, epoch, history
    return w, b, max_iter, history


def cisc_batch(X, y01, h0, eta=1.0, max_iter=100):
    """CISC 271 eq. 30.4: w ← w + η Xᵀ(y − q) over all rows."""
    w, b = np.zeros(X.shape[1]), 0.0
    for step in range(1, max_iter + 1):
        e = y01 - np.heaviside(X @ w + b, h0)
        if not e.any():
            return w, b, step
        w, b = w + eta * X.T @ e, b + eta * e.sum()
    return w, b, max_iter


@pytest.mark.parametrize("h0", [0.0, 0.5, 1.0])
def test_the_online_rule_equals_the_text_for_every_h0(h0):
    w, b, epochs, residuals = cisc_online(AND_X, AND_Y, h0)
    model = Perceptron(h0=h0, shuffle="none", record=True).fit(AND_X, AND_Y)
    np.testing.assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b and model.n_iter_ == epochs
    np.testing.assert_array_equal(model.trace_.e, residuals)  # Table 30.2's e column
    assert model.trace_.h0 == h0


@pytest.mark.parametrize("h0", [0.0, 0.5, 1.0])
def test_the_batch_rule_equals_the_text_for_every_h0(h0):
    w, b, steps = cisc_batch(AND_X, AND_Y, h0)
    model = BatchPerceptron(h0=h0).fit(AND_X, AND_Y)
    np.testing.assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b and model.n_iter_ == steps


@pytest.mark.parametrize("h0", [0.0, 0.5, 1.0])
def test_iris_under_each_h0_equals_the_text(h0):
    X, y = load_iris_binary("setosa-vs-rest")
    y01 = (y == np.unique(y)[1]).astype(float)
    w, b, epochs, _ = cisc_online(X, y01, h0, eta=0.1, max_iter=50)
    model = Perceptron(h0=h0, eta=0.1, shuffle="none", max_iter=50).fit(X, y)
    np.testing.assert_allclose(model.coef_[0], w, rtol=0, atol=1e-12)
    assert model.n_iter_ == epochs


def test_h0_none_keeps_daumes_rule_and_h0_with_margin_is_refused():
    plain = Perceptron(shuffle="none").fit(AND_X, AND_Y)
    assert plain.intercept_.tolist() == [-4.0] and plain.n_iter_ == 9
    averaged = AveragedPerceptron(h0=0.5, shuffle="none").fit(AND_X, AND_Y)
    assert averaged.n_iter_ == Perceptron(h0=0.5, shuffle="none").fit(AND_X, AND_Y).n_iter_
    with pytest.raises(ValueError, match="set one of them, not both"):
        Perceptron(h0=1, margin=0.5).fit(AND_X, AND_Y)
    with pytest.raises(ValueError, match="'h0' parameter"):
        Perceptron(h0=2).fit(AND_X, AND_Y)
