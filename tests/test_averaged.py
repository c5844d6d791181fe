import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.linear_model
from numpy.testing import assert_allclose
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import AveragedPerceptron, Perceptron

from . import _reference as ref
from .conftest import integer_blobs


def quietly(model, method, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return getattr(model, method)(*args, **kwargs)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 3, 8])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_equals_the_naive_running_mean(sparse, epochs, fit_intercept):
    X, y = integer_blobs(n=70, d=4, seed=2, separable=False)
    model = AveragedPerceptron(shuffle="none", max_iter=epochs, fit_intercept=fit_intercept)
    quietly(model, "fit", sp.csr_matrix(X) if sparse else X, y)
    w, b, seen = ref.averaged_perceptron(X, y, epochs=model.n_iter_,
                                         fit_intercept=fit_intercept)
    assert model.n_examples_ == seen
    assert_allclose(model.coef_[0], w, rtol=0, atol=1e-10)
    assert_allclose(model.intercept_[0], b, rtol=0, atol=1e-10)


def test_equals_the_running_mean_with_shuffling():
    X, y = integer_blobs(n=50, d=3, seed=4, separable=False)
    model = quietly(AveragedPerceptron(max_iter=5, random_state=9), "fit", X, y)
    rng = np.random.RandomState(9)
    orders = [rng.permutation(len(y)) for _ in range(5)]
    w, b, _ = ref.averaged_perceptron(X, y, epochs=5, orders=orders)
    assert_allclose(model.coef_[0], w, atol=1e-10)
    assert_allclose(model.intercept_[0], b, atol=1e-10)


def test_partial_fit_calls_average_over_the_whole_stream():
    X, y = integer_blobs(n=80, d=3, seed=6, separable=False)
    model = AveragedPerceptron(shuffle="none")
    for _ in range(3):
        for rows in np.array_split(np.arange(80), 4):
            model.partial_fit(X[rows], y[rows], classes=[-1, 1])
    w, b, seen = ref.averaged_perceptron(X, y, epochs=3)
    assert model.n_examples_ == seen == 240
    assert_allclose(model.coef_[0], w, atol=1e-10)
    assert_allclose(model.intercept_[0], b, atol=1e-10)


@pytest.mark.parametrize("epochs", [1, 4])
def test_equals_sklearn_averaged_sgd(epochs):
    rng = np.random.RandomState(0)
    X = rng.randn(300, 6)
    y = np.where(X @ rng.randn(6) + 0.5 * rng.randn(300) > 0, 1, -1)
    ours = quietly(AveragedPerceptron(shuffle="none", max_iter=epochs), "fit", X, y)
    theirs = quietly(sklearn.linear_model.SGDClassifier(
        loss="perceptron", learning_rate="constant", eta0=1, penalty=None, average=True,
        shuffle=False, tol=None, max_iter=epochs), "fit", X, y)
    assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-10)
    assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-10)


def test_algorithm_7_as_printed_is_t_over_t_plus_one_of_ours():
    X, y = integer_blobs(n=40, d=3, seed=1)
    model = AveragedPerceptron(shuffle="none", max_iter=6)
    quietly(model, "fit", X, y)
    w7, b7 = ref.averaged_perceptron_as_printed(X, y, max_iter=model.n_iter_)
    T = model.n_examples_
    assert_allclose(w7, T / (T + 1) * model.coef_[0], atol=1e-12)
    assert_allclose(b7, T / (T + 1) * model.intercept_[0], atol=1e-12)
    assert np.array_equal(np.sign(X @ w7 + b7), np.sign(model.decision_function(X)))


def test_running_weights_are_the_plain_perceptrons():
    X, y = integer_blobs(n=60, d=3, seed=3, separable=False)
    averaged = quietly(AveragedPerceptron(shuffle="none", max_iter=4, record=True), "fit", X, y)
    plain = quietly(Perceptron(shuffle="none", max_iter=4), "fit", X, y)
    assert_allclose(averaged.trace_.coef[-1], plain.coef_[0])
    assert averaged.n_updates_ == plain.n_updates_
