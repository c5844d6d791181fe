"""Our own contracts, applied to every estimator (on top of scikit-learn's checks)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import PLA, BatchPerceptron, Perceptron, PocketPerceptron

from .conftest import integer_blobs

ALL = [Perceptron, PLA, BatchPerceptron, PocketPerceptron]


def fit(model, X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kwargs)


def limits(cls):
    return {"max_updates": 300} if cls is PLA else {"max_iter": 15}


def three_classes(seed=0):
    rng = np.random.RandomState(seed)
    centres = np.array([[0, 6], [6, 0], [-6, -6]])
    labels = rng.randint(0, 3, size=150)
    X = np.round(centres[labels] + rng.randn(150, 2) * 2)
    return X, np.array(["ant", "bee", "cat"])[labels]


@pytest.fixture(params=ALL, ids=lambda cls: cls.__name__)
def cls(request):
    return request.param


def test_dense_equals_csr(cls):
    X, y = integer_blobs(n=80, d=4, seed=1, separable=False)
    dense = fit(cls(random_state=3, **limits(cls)), X, y)
    for index_dtype in (np.int32, np.int64):
        csr = sp.csr_matrix(X)
        csr.indices, csr.indptr = csr.indices.astype(index_dtype), csr.indptr.astype(index_dtype)
        sparse = fit(cls(random_state=3, **limits(cls)), csr, y)
        assert_array_equal(sparse.coef_, dense.coef_)
        assert_array_equal(sparse.intercept_, dense.intercept_)
        assert_array_equal(sparse.decision_function(csr), dense.decision_function(X))


def test_float32_close_to_float64(cls):
    rng = np.random.RandomState(0)
    X = rng.randn(120, 5)
    y = np.where(X @ rng.randn(5) > 0.2, 1, -1)
    X32 = X.astype(np.float32)
    a = fit(cls(random_state=1, **limits(cls)), X32.astype(np.float64), y)
    b = fit(cls(random_state=1, **limits(cls)), X32, y)
    assert b.coef_.dtype == np.float64
    assert_allclose(b.coef_, a.coef_, rtol=1e-6)
    assert_array_equal(b.predict(X32), a.predict(X32.astype(np.float64)))


def test_same_random_state_same_weights(cls):
    X, y = integer_blobs(n=80, seed=2, separable=False)
    a = fit(cls(init="normal", random_state=5, **limits(cls)), X, y)
    b = fit(cls(init="normal", random_state=5, **limits(cls)), X, y)
    c = fit(cls(init="normal", random_state=6, **limits(cls)), X, y)
    assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)


def test_one_vs_rest_is_binary_fits_and_independent_of_threads(cls):
    X, y = three_classes()
    serial = fit(cls(random_state=0, n_jobs=None, **limits(cls)), X, y)
    threaded = fit(cls(random_state=0, n_jobs=3, **limits(cls)), X, y)
    assert_array_equal(serial.coef_, threaded.coef_)
    assert serial.coef_.shape == (3, 2) and serial.intercept_.shape == (3,)
    assert serial.classes_.tolist() == ["ant", "bee", "cat"]
    assert serial.decision_function(X).shape == (150, 3)
    assert serial.score(X, y) > 0.8
    # each row of coef_ is the binary problem "class k against the rest"
    seeds = np.random.RandomState(0).randint(2**31 - 1, size=3)
    for k, label in enumerate(serial.classes_):
        binary = fit(cls(random_state=np.random.RandomState(seeds[k]), **limits(cls)),
                     X, np.where(y == label, 1, -1))
        assert_array_equal(binary.coef_[0], serial.coef_[k])


def test_recording_does_not_change_the_result(cls):
    X, y = integer_blobs(n=60, seed=4, separable=False)
    plain = fit(cls(random_state=2, **limits(cls)), X, y)
    traced = fit(cls(random_state=2, record=True, **limits(cls)), X, y)
    assert_array_equal(plain.coef_, traced.coef_)
    assert not hasattr(plain, "trace_")
    trace = traced.trace_
    assert len(trace) == traced.n_updates_
    if cls is not PocketPerceptron:  # the pocket publishes its best, not its last, weights
        assert_array_equal(trace.coef[-1], traced.coef_[0])


def test_trace_per_class_for_one_vs_rest(cls):
    X, y = three_classes(1)
    model = fit(cls(random_state=0, record=True, **limits(cls)), X, y)
    assert isinstance(model.trace_, tuple) and len(model.trace_) == 3
    assert [t.classes[1] for t in model.trace_] == ["ant", "bee", "cat"]
    assert sum(len(t) for t in model.trace_) == model.n_updates_


def test_separable_data_reaches_zero_training_error(cls):
    X, y = integer_blobs(n=100, d=3, seed=8)
    model = cls(random_state=0).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0


def test_inseparable_data_stops_with_a_warning(cls):
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    with pytest.warns(ConvergenceWarning, match="may not be linearly separable"):
        model = cls(random_state=0, **limits(cls)).fit(X, [0, 1, 1, 0])
    assert not model.converged_


def test_string_labels_map_in_sorted_order(cls):
    X, y = integer_blobs(n=50, seed=3)
    named = np.where(y > 0, "yes", "no")
    a = cls(random_state=0).fit(X, y)
    b = cls(random_state=0).fit(X, named)
    assert_array_equal(a.coef_, b.coef_)
    assert_array_equal(b.predict(X), np.where(a.predict(X) > 0, "yes", "no"))
