import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import BatchPerceptron
from rosenblatt.datasets import make_boolean

from . import _reference as ref
from .conftest import integer_blobs


def by_hand(X, y01, eta, iterations, w, b):
    """w ← w + η Xᵀ(y − q) in NumPy, one line per iteration (CISC 271 eq. 30.4)."""
    history = []
    for _ in range(iterations):
        a = X @ w + b
        q = np.where(a > 0, 1, np.where(a < 0, 0, 1 - y01))
        w, b = w + eta * X.T @ (y01 - q), b + eta * np.sum(y01 - q)
        history.append((w, b))
    return history


@pytest.mark.parametrize("eta", [1.0, 0.5, 0.1])
@pytest.mark.parametrize("sparse", [False, True])
def test_each_iteration_equals_the_numpy_formula(eta, sparse):
    X, y = integer_blobs(n=70, d=3, seed=9, separable=False)
    y01 = (y > 0).astype(int)
    expected = ref.batch_perceptron(X, y01, eta=eta, max_iter=25)
    assert len(expected) == 25
    for k, (w_ref, b_ref) in enumerate(expected, start=1):
        model = BatchPerceptron(eta=eta, max_iter=k)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(sp.csr_matrix(X) if sparse else X, y01)
        assert_allclose(model.coef_[0], w_ref, rtol=1e-12, atol=1e-12)
        assert_allclose(model.intercept_[0], b_ref, rtol=1e-12, atol=1e-12)
    [(w_hand, b_hand)] = by_hand(X, y01, eta, 1, np.zeros(3), 0.0)
    assert_allclose(expected[0][0], w_hand)


def test_and_batch_rule_and_its_trace():
    X, y = make_boolean("and")
    y01 = (y > 0).astype(int)
    model = BatchPerceptron(record=True).fit(X, y01)
    history = ref.batch_perceptron(X, y01, max_iter=100)
    assert model.n_iter_ == len(history) + 1  # the last iteration finds no mistake
    assert_array_equal(model.coef_[0], history[-1][0])
    assert model.intercept_[0] == history[-1][1]
    trace = model.trace_
    first = trace.epoch == 1
    # iteration 1 from zeros: every row has a = 0, so all four are mistakes
    assert trace.index[first].tolist() == [0, 1, 2, 3]
    assert_array_equal(trace.coef[first][0], history[0][0])
    assert_array_equal(trace.x[first].T @ trace.e[first], history[0][0])


def test_batch_on_inseparable_data_warns():
    X, y = make_boolean("xor")
    with pytest.warns(ConvergenceWarning, match="max_iter=20"):
        BatchPerceptron(max_iter=20).fit(X, y)


def test_batch_has_no_shuffle_parameter():
    assert "shuffle" not in BatchPerceptron().get_params()
