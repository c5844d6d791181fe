import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import AveragedPerceptron, KernelPerceptron, Perceptron, VotedPerceptron
from rosenblatt.datasets import make_boolean

from . import _reference as ref
from .conftest import integer_blobs


def fit(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


@pytest.mark.parametrize("kernel, params", [("poly", {"degree": 2}), ("rbf", {"gamma": 2.0})])
@pytest.mark.parametrize("voting", [None, "average"])
def test_xor_is_separated(kernel, params, voting):
    X, y = make_boolean("xor")
    model = KernelPerceptron(kernel=kernel, voting=voting, shuffle="none", **params).fit(X, y)
    assert model.converged_
    assert_array_equal(model.predict(X), y)


@pytest.mark.parametrize("shuffle", ["none", "every_epoch"])
@pytest.mark.parametrize("sparse", [False, True])
def test_linear_kernel_is_the_primal_perceptron(shuffle, sparse):
    X, y = integer_blobs(n=60, d=3, seed=3, separable=False)
    data = sp.csr_matrix(X) if sparse else X
    dual = fit(KernelPerceptron(kernel="linear", shuffle=shuffle, max_iter=6, random_state=2),
               data, y)
    primal = fit(Perceptron(shuffle=shuffle, max_iter=6, random_state=2), X, y)
    assert_array_equal(dual.decision_function(data), primal.decision_function(X))
    assert dual.n_updates_ == primal.n_updates_
    w = dual.dual_coef_ @ (dual.support_vectors_.toarray() if sparse else
                           dual.support_vectors_)
    assert_array_equal(w, primal.coef_[0])


def test_linear_kernel_vote_and_average_equal_the_primal_ones():
    X, y = integer_blobs(n=60, d=3, seed=4, separable=False)
    X_test = np.random.RandomState(0).randint(-5, 6, size=(30, 3)).astype(float)
    kwargs = dict(shuffle="none", max_iter=4)
    voted = fit(KernelPerceptron(kernel="linear", voting="vote", **kwargs), X, y)
    assert_array_equal(voted.decision_function(X_test),
                       fit(VotedPerceptron(**kwargs), X, y).decision_function(X_test))
    averaged = fit(KernelPerceptron(kernel="linear", voting="average", **kwargs), X, y)
    assert_allclose(averaged.decision_function(X_test),
                    fit(AveragedPerceptron(**kwargs), X, y).decision_function(X_test),
                    atol=1e-10)


def test_rbf_kernel_equals_the_naive_dual_oracle():
    rng = np.random.RandomState(1)
    X = rng.randn(40, 2)
    y = np.where(np.hypot(X[:, 0], X[:, 1]) < 1.0, 1, -1)
    model = fit(KernelPerceptron(kernel="rbf", gamma=1.0, shuffle="none", max_iter=5), X, y)
    alpha = ref.kernel_perceptron(X, y, lambda a, b: np.exp(-np.sum((a - b) ** 2)),
                                  epochs=model.n_iter_)
    support = alpha > 0
    by_row = np.lexsort(model.support_vectors_.T)
    assert_allclose(model.support_vectors_[by_row], X[support][np.lexsort(X[support].T)])
    assert_allclose(model.dual_coef_[by_row], (alpha * y)[support][np.lexsort(X[support].T)])
    assert model.intercept_[0] == pytest.approx(np.sum(alpha * y))


def test_callable_kernel_equals_the_named_one():
    X, y = integer_blobs(n=50, d=2, seed=5, separable=False)

    def quadratic(A, B):
        return (0.5 * np.asarray(A) @ np.asarray(B).T + 1.0) ** 2

    named = fit(KernelPerceptron(kernel="poly", degree=2, gamma=0.5, coef0=1.0,
                                 random_state=0, max_iter=5), X, y)
    given = fit(KernelPerceptron(kernel=quadratic, random_state=0, max_iter=5), X, y)
    assert_allclose(given.decision_function(X), named.decision_function(X))


def test_bad_callable_kernel_shape():
    X, y = make_boolean("and")
    with pytest.raises(ValueError, match="must return the Gram matrix of shape"):
        KernelPerceptron(kernel=lambda A, B: np.ones(3)).fit(X, y)


def test_memory_is_proportional_to_mistakes():
    X, y = integer_blobs(n=200, d=3, seed=8)
    model = KernelPerceptron(kernel="linear", shuffle="none").fit(X, y)
    assert model.support_vectors_.shape[0] <= model.n_updates_ < 200
    assert len(model.dual_coef_) == model.support_vectors_.shape[0]


def test_partial_fit_continues_the_dual_state():
    X, y = integer_blobs(n=60, d=3, seed=9, separable=False)
    whole = fit(KernelPerceptron(kernel="linear", shuffle="none", max_iter=1), X, y)
    chunked = KernelPerceptron(kernel="linear", shuffle="none")
    for rows in np.array_split(np.arange(60), 3):
        chunked.partial_fit(X[rows], y[rows], classes=[-1, 1])
    assert_allclose(chunked.decision_function(X), whole.decision_function(X))


@pytest.mark.parametrize("cache_size", [0, 0.01, 200])
@pytest.mark.parametrize("voting", [None, "average"])
def test_column_cache_size_changes_no_result(cache_size, voting):
    """The epoch computes kernel columns in batches and keeps what fits: with no
    room (one column at a time, recomputed at every mistake), room for a few
    (least recently used ones replaced) or for all, the model is the same, and
    equals the naive dual oracle. Integer data: every kernel value is exact."""
    X, y = integer_blobs(n=150, d=4, seed=11, separable=False)
    kwargs = dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0, shuffle="every_epoch",
                  max_iter=4, random_state=3, voting=voting)
    small = fit(KernelPerceptron(cache_size=cache_size, **kwargs), X, y)
    whole = fit(KernelPerceptron(cache_size=1e6, **kwargs), X, y)
    assert small.n_updates_ > 100  # not separable: rows are mistaken again and again
    assert_array_equal(small.support_vectors_, whole.support_vectors_)
    assert_array_equal(small.dual_coef_, whole.dual_coef_)
    assert_array_equal(small.intercept_, whole.intercept_)
    assert_array_equal(small.decision_function(X), whole.decision_function(X))


def test_compiled_epoch_equals_the_oracle_on_a_shuffled_non_separable_set():
    X, y = integer_blobs(n=80, d=3, seed=12, separable=False)
    model = fit(KernelPerceptron(kernel="poly", degree=2, gamma=1.0, coef0=0.0,
                                 shuffle="none", max_iter=3, cache_size=0.002), X, y)
    alpha = ref.kernel_perceptron(X, np.where(y > 0, 1, -1),
                                  lambda a, b: float(a @ b) ** 2, epochs=3)
    order = np.lexsort(model.support_vectors_.T)
    support = alpha > 0
    expected = np.lexsort(X[support].T)
    assert_array_equal(model.support_vectors_[order], X[support][expected])
    labels = np.where(y > 0, 1, -1)
    assert_array_equal(model.dual_coef_[order], (alpha * labels)[support][expected])
    assert model.n_updates_ == alpha.sum()
