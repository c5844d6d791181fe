"""Our own contracts, applied to every estimator (on top of scikit-learn's checks)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import (
    PLA,
    BatchPerceptron,
    KernelPerceptron,
    LinearUnit,
    Perceptron,
    VotedPerceptron,
)

from ._estimators import (
    ALL,
    LINEAR,
    MISTAKE_DRIVEN,
    NATIVE_MULTICLASS,
    RECORDING,
    SEPARATES_BY_DEFAULT,
    STOPS_BY_TOL_WHEN_SEPARATED,
    limits,
    make,
)
from .conftest import integer_blobs


def fit(model, X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kwargs)


def three_classes(seed=0):
    rng = np.random.RandomState(seed)
    centres = np.array([[0, 6], [6, 0], [-6, -6]])
    labels = rng.randint(0, 3, size=150)
    X = np.round(centres[labels] + rng.randn(150, 2) * 2)
    return X, np.array(["ant", "bee", "cat"])[labels]


def by_name(classes):
    return pytest.mark.parametrize("cls", classes, ids=lambda cls: cls.__name__)


def weights(model):
    """What a fitted model learned, comparable across fits."""
    if isinstance(model, KernelPerceptron):
        return model.decision_function(np.eye(model.n_features_in_))
    return np.c_[model.intercept_, model.coef_]


@by_name(ALL)
def test_dense_equals_csr(cls):
    X, y = integer_blobs(n=80, d=4, seed=1, separable=False)
    dense = fit(make(cls, random_state=3, **limits(cls)), X, y)
    for index_dtype in (np.int32, np.int64):
        csr = sp.csr_matrix(X)
        csr.indices, csr.indptr = csr.indices.astype(index_dtype), csr.indptr.astype(index_dtype)
        sparse = fit(make(cls, random_state=3, **limits(cls)), csr, y)
        assert_allclose(weights(sparse), weights(dense), rtol=1e-12, atol=1e-12)
        assert_allclose(sparse.decision_function(csr), dense.decision_function(X),
                        rtol=1e-12, atol=1e-12)


@by_name(ALL)
def test_float32_close_to_float64(cls):
    rng = np.random.RandomState(0)
    X = rng.randn(120, 5)
    y = np.where(X @ rng.randn(5) > 0.2, 1, -1)
    X32 = X.astype(np.float32)
    a = fit(make(cls, random_state=1, **limits(cls)), X32.astype(np.float64), y)
    b = fit(make(cls, random_state=1, **limits(cls)), X32, y)
    assert_allclose(weights(b), weights(a), rtol=1e-6, atol=1e-9)
    assert_array_equal(b.predict(X32), a.predict(X32.astype(np.float64)))


@by_name(LINEAR)
def test_linear_models_keep_float64_weights(cls):
    X, y = integer_blobs(n=40, seed=1)
    model = fit(make(cls, random_state=0, **limits(cls)), X.astype(np.float32), y)
    assert model.coef_.dtype == np.float64 and model.intercept_.dtype == np.float64


@by_name([cls for cls in ALL if cls is not KernelPerceptron])
def test_same_random_state_same_weights(cls):
    X, y = integer_blobs(n=80, seed=2, separable=False)
    a = fit(make(cls, init="normal", random_state=5, **limits(cls)), X, y)
    b = fit(make(cls, init="normal", random_state=5, **limits(cls)), X, y)
    c = fit(make(cls, init="normal", random_state=6, **limits(cls)), X, y)
    assert_array_equal(weights(a), weights(b))
    assert not np.array_equal(weights(a), weights(c))


@by_name([cls for cls in ALL if cls not in NATIVE_MULTICLASS])
def test_one_vs_rest_is_binary_fits_and_independent_of_threads(cls):
    X, y = three_classes()
    serial = fit(make(cls, random_state=0, n_jobs=None, **limits(cls)), X, y)
    threaded = fit(make(cls, random_state=0, n_jobs=3, **limits(cls)), X, y)
    assert_array_equal(weights(serial), weights(threaded))
    assert serial.intercept_.shape == (3,)
    assert serial.classes_.tolist() == ["ant", "bee", "cat"]
    assert serial.decision_function(X).shape == (150, 3)
    assert serial.score(X, y) > 0.8
    # each problem is the binary problem "class k against the rest"
    seeds = np.random.RandomState(0).randint(2**31 - 1, size=3)
    for k, label in enumerate(serial.classes_):
        binary = fit(make(cls, random_state=np.random.RandomState(seeds[k]), **limits(cls)),
                     X, np.where(y == label, 1, -1))
        assert_allclose(binary.decision_function(X), serial.decision_function(X)[:, k],
                        rtol=1e-12, atol=1e-12)


@by_name(RECORDING)
def test_recording_does_not_change_the_result(cls):
    X, y = integer_blobs(n=60, seed=4, separable=False)
    plain = fit(make(cls, random_state=2, **limits(cls)), X, y)
    traced = fit(make(cls, random_state=2, record=True, **limits(cls)), X, y)
    if cls.__name__ in ("ALMA", "ROMMA"):
        # ALMA (p = 2) and ROMMA keep w = s·v within a kernel call and fold s in at its
        # end; recording calls the kernel row by row, so each row rounds once more
        assert_allclose(weights(plain), weights(traced), rtol=1e-12, atol=1e-15)
    else:
        assert_array_equal(weights(plain), weights(traced))
    assert not hasattr(plain, "trace_")
    trace = traced.trace_
    assert len(trace) == traced.n_updates_
    if cls in (Perceptron, PLA, BatchPerceptron, VotedPerceptron):  # they publish the last
        assert_array_equal(trace.coef[-1], traced.coef_[0])


@by_name([cls for cls in RECORDING if cls not in NATIVE_MULTICLASS])
def test_trace_per_class_for_one_vs_rest(cls):
    X, y = three_classes(1)
    model = fit(make(cls, random_state=0, record=True, **limits(cls)), X, y)
    assert isinstance(model.trace_, tuple) and len(model.trace_) == 3
    assert [t.classes[1] for t in model.trace_] == ["ant", "bee", "cat"]
    assert sum(len(t) for t in model.trace_) == model.n_updates_


@by_name(SEPARATES_BY_DEFAULT)
def test_separable_data_reaches_zero_training_error(cls):
    X, y = integer_blobs(n=100, d=3, seed=8)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = make(cls, random_state=0).fit(X, y)
    assert model.score(X, y) == 1.0
    if cls in STOPS_BY_TOL_WHEN_SEPARATED:
        assert model.converged_ is False and model.stop_reason_ == "tol"
    else:
        assert model.converged_ and model.stop_reason_ == "mistake_free"


@by_name(MISTAKE_DRIVEN)
def test_inseparable_data_stops_with_a_warning(cls):
    # XOR away from the origin: passive-aggressive skips a row x = 0, which would
    # leave three separable points
    X = np.array([[1.0, 1.0], [1.0, 2.0], [2.0, 1.0], [2.0, 2.0]])
    # the texts' rule alone: the mistakes' stall (tol) would end the run without a word
    texts = {**limits(cls), **({"tol": None} if "tol" in cls().get_params() else {})}
    with pytest.warns(ConvergenceWarning, match="may not be linearly separable"):
        model = make(cls, random_state=0, **texts).fit(X, [0, 1, 1, 0])
    assert not model.converged_
    if cls is not PLA:  # PLA stops by its own count of updates
        assert model.stop_reason_ == "max_iter"


def test_linear_unit_stops_at_max_iter_with_a_warning():
    X, y = integer_blobs(n=100, d=3, seed=8)
    with pytest.warns(ConvergenceWarning, match="max_iter=3 epochs without the loss settling"):
        model = LinearUnit(max_iter=3, tol=0, random_state=0).fit(X, y)
    assert model.n_iter_ == 3 and not model.converged_


@by_name(ALL)
def test_string_labels_map_in_sorted_order(cls):
    X, y = integer_blobs(n=50, seed=3)
    named = np.where(y > 0, "yes", "no")
    a = fit(make(cls, random_state=0, **limits(cls)), X, y)
    b = fit(make(cls, random_state=0, **limits(cls)), X, named)
    assert_array_equal(weights(a), weights(b))
    assert_array_equal(b.predict(X), np.where(a.predict(X) > 0, "yes", "no"))


@by_name([cls for cls in ALL if hasattr(cls, "partial_fit")])
def test_fit_one_epoch_equals_one_partial_fit(cls):
    X, y = integer_blobs(n=60, seed=5, separable=False)
    fitted = fit(make(cls, max_iter=1, random_state=4), X, y)
    online = make(cls, random_state=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        online.partial_fit(X, y, classes=[-1, 1])
    assert_array_equal(weights(online), weights(fitted))
