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
    orders = ref.orders(np.random.RandomState(9), len(y), "every_epoch", 5)
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


@pytest.mark.parametrize("decayed", [None, True])
def test_finiteness_check_without_the_mean_agrees_with_building_it(decayed):
    """Averaging.is_finite (a compiled pass, after every epoch) answers as the
    generic check that builds the mean with NumPy, also where only the mean
    overflows."""
    from rosenblatt.base import Problem, RuleState
    from rosenblatt.linear_model._averaged import Averaging

    rng = np.random.RandomState(0)
    big = np.finfo(np.float64).max
    cases = []
    for where, value in [(None, None), ("coef", np.inf), ("coef", np.nan), ("u", -np.inf),
                         ("u", np.nan), ("start", big), ("intercept", np.inf), ("beta", np.nan)]:
        coef, start = rng.randn(2, 7), rng.randn(2, 7)
        state = Averaging.start(start, np.zeros(2), decayed)
        state.u[:] = rng.randn(2, 7)
        intercept = rng.randn(2)
        if where == "coef":
            coef[1, 3] = value
        elif where == "u":
            state.u[0, 6] = value
        elif where == "start":  # finite arrays whose mean overflows: w − (u − (w − w₀))
            coef[0, 2], state.coef_start[0, 2], state.u[0, 2] = big, -big, -big
        elif where == "intercept":
            intercept[0] = value
        elif where == "beta":
            state.beta[1] = value
        cases.append((coef, intercept, state))
    answers = []
    for seen in (0, 3):
        for coef, intercept, state in cases:
            problem = Problem(coef=coef, intercept=intercept, rng=None, classes=(0, 1),
                              state=state)
            problem.seen[0] = seen
            answers.append(state.is_finite(problem))
            assert answers[-1] == RuleState.is_finite(state, problem)
    # before any example only w and b count; after, u, beta (and the overflow) too
    assert answers[:8] == [True, False, False, True, True, True, False, True]
    assert answers[8:] == [True, False, False, False, False, bool(decayed), False, False]
