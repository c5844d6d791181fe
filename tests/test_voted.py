import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import AveragedPerceptron, VotedPerceptron

from . import _reference as ref
from .conftest import integer_blobs


def fit(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


@pytest.mark.parametrize("sparse", [False, True])
def test_vectors_counts_and_vote_equal_the_oracle(sparse):
    X, y = integer_blobs(n=60, d=3, seed=5, separable=False)
    model = fit(VotedPerceptron(shuffle="none", max_iter=4), sp.csr_matrix(X) if sparse else X, y)
    committee = ref.voted_perceptron(X, y, epochs=4)
    assert_array_equal(model.counts_, [c for _, _, c in committee])
    assert_array_equal(model.vectors_, [w for w, _, _ in committee])
    assert_array_equal(model.vector_intercepts_, [b for _, b, _ in committee])
    X_test = np.random.RandomState(1).randint(-5, 6, size=(40, 3)).astype(float)
    assert_array_equal(model.decision_function(X_test), ref.vote(committee, X_test))
    assert_array_equal(model.predict(X_test),
                       np.where(ref.vote(committee, X_test) > 0, 1, -1))


def test_counts_sum_to_the_examples_processed():
    X, y = integer_blobs(n=45, d=3, seed=2, separable=False)
    model = VotedPerceptron(random_state=0)
    for _ in range(3):
        model.partial_fit(X, y, classes=[-1, 1])
    assert model.counts_.sum() == 3 * 45
    assert len(model.counts_) == model.n_updates_ + 1


def test_averaging_the_stored_vectors_gives_the_averaged_perceptron():
    X, y = integer_blobs(n=80, d=4, seed=7, separable=False)
    voted = fit(VotedPerceptron(max_iter=5, random_state=3), X, y)
    averaged = fit(AveragedPerceptron(max_iter=5, random_state=3), X, y)
    counts = voted.counts_
    mean = counts @ voted.vectors_ / counts.sum()
    assert_allclose(mean, averaged.coef_[0], atol=1e-10)
    assert_allclose(counts @ voted.vector_intercepts_ / counts.sum(), averaged.intercept_[0],
                    atol=1e-10)


def test_trace_survival_equals_the_counts():
    X, y = integer_blobs(n=30, d=2, seed=3, separable=False)
    model = fit(VotedPerceptron(shuffle="none", max_iter=3, record=True), X, y)
    assert_array_equal(model.trace_.survival, model.counts_[:-1])


def test_one_vs_rest_has_a_committee_per_class():
    rng = np.random.RandomState(0)
    X = rng.randn(90, 2) + np.repeat([[0, 4], [4, 0], [-4, -4]], 30, axis=0)
    y = np.repeat(["a", "b", "c"], 30)
    model = fit(VotedPerceptron(random_state=0, max_iter=10), X, y)
    assert len(model.counts_) == 3 and all(c.sum() > 0 and c.sum() % 90 == 0
                                           for c in model.counts_)
    assert model.decision_function(X).shape == (90, 3)
    assert model.score(X, y) > 0.9
