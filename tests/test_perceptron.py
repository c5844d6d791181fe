import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.linear_model
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import Perceptron
from rosenblatt.datasets import make_boolean

from . import _reference as ref
from .conftest import integer_blobs

AND_X, AND_Y = make_boolean("and")


def augmented(model):
    """Weights bias first, as the texts print them."""
    return [float(model.intercept_[0]), *model.coef_[0].tolist()]


# --------------------------------------------------------------- SPEC §7: the AND example

def test_and_epoch_one_weights():
    model = Perceptron(shuffle="none", max_iter=1)
    with pytest.warns(ConvergenceWarning, match="PocketPerceptron"):
        model.fit(AND_X, AND_Y)
    assert augmented(model) == [0.0, 1.0, 1.0]


def test_and_converged_weights_and_epoch():
    model = Perceptron(shuffle="none").fit(AND_X, AND_Y)
    assert augmented(model) == [-4.0, 3.0, 2.0]
    assert model.n_iter_ == 9  # epoch 9 is the first without a mistake
    assert model.converged_


def test_and_with_zero_one_labels_gives_the_same_weights():
    y01 = (AND_Y > 0).astype(int)
    model = Perceptron(shuffle="none", record=True).fit(AND_X, y01)
    assert augmented(model) == [-4.0, 3.0, 2.0]
    trace = model.trace_
    # CISC 271 Table 30.2: every record is a false positive (e=-1) or negative (e=+1)
    assert set(trace.e.tolist()) <= {-1, 1}
    assert_array_equal(trace.e, np.asarray(y01)[trace.index] - trace.q)
    assert_array_equal(trace.e, trace.y)  # e x is the update made
    assert trace.labels.tolist() == np.asarray(y01)[trace.index].tolist()


def test_and_trace_replays_the_updates():
    trace = Perceptron(shuffle="none", record=True).fit(AND_X, AND_Y).trace_
    w, b = np.zeros(2), 0.0
    for k in range(len(trace)):
        assert trace.y[k] * (w @ trace.x[k] + b) <= 0
        assert trace.activation[k] == w @ trace.x[k] + b
        w, b = w + trace.update[k] * trace.x[k], b + trace.update[k]
        assert_array_equal(trace.coef[k], w)
        assert trace.intercept[k] == b
    assert trace.epoch[0] == 1 and trace.epoch[-1] == 8
    assert_array_equal(trace.coef[trace.epoch == 1][-1], [1.0, 1.0])


# ----------------------------------------------------------------- coherence with sklearn

@pytest.mark.parametrize("epochs", [1, 2, 5])
def test_equals_sklearn_perceptron(epochs):
    X, y = integer_blobs(n=80, d=4, seed=3, separable=False)
    ours = Perceptron(shuffle="none", max_iter=epochs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X, y)
        theirs = sklearn.linear_model.Perceptron(
            shuffle=False, tol=None, max_iter=epochs
        ).fit(X, y)
    assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-12)
    assert_allclose(ours.intercept_, theirs.intercept_, rtol=0, atol=1e-12)


# ------------------------------------------------------------- kernel equals the oracle

def _fit_quietly(model, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kw)


@pytest.mark.parametrize("shuffle", ["none", "once", "every_epoch"])
@pytest.mark.parametrize("init", ["zeros", "uniform", "normal"])
@pytest.mark.parametrize("eta", [1.0, 0.5])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("layout", ["dense64", "dense32", "csr32", "csr64"])
def test_kernel_equals_oracle(shuffle, init, eta, fit_intercept, layout):
    X, y = integer_blobs(n=50, d=3, seed=7, separable=False)
    Xin = _layout(X, layout)
    model = Perceptron(shuffle=shuffle, init=init, eta=eta, fit_intercept=fit_intercept,
                       max_iter=7, tol=None, random_state=11)
    _fit_quietly(model, Xin, y)
    w, b, epochs, updates = ref.perceptron(
        X, y, eta=eta, fit_intercept=fit_intercept, max_iter=7, shuffle=shuffle,
        init=init, rng=np.random.RandomState(11),
    )
    # integer data, eta a power of two: exact whenever the start is
    exact = init == "zeros"
    assert_allclose(model.coef_[0], w, rtol=0, atol=0 if exact else 1e-12)
    assert_allclose(model.intercept_[0], b, rtol=0, atol=0 if exact else 1e-12)
    assert (model.n_iter_, model.n_updates_) == (epochs, updates)


def _layout(X, layout):
    if layout == "dense64":
        return np.ascontiguousarray(X, dtype=np.float64)
    if layout == "dense32":
        return np.ascontiguousarray(X, dtype=np.float32)
    matrix = sp.csr_matrix(X)
    if layout == "csr64":
        matrix.indices = matrix.indices.astype(np.int64)
        matrix.indptr = matrix.indptr.astype(np.int64)
    return matrix


dyadic = st.integers(-64, 64).map(lambda k: k / 8)  # exact in binary floating point


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    n=st.integers(2, 25),
    d=st.integers(1, 5),
    shuffle=st.sampled_from(["none", "once", "every_epoch"]),
    eta=st.sampled_from([0.25, 1.0, 2.0]),
    fit_intercept=st.booleans(),
    sparse=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_kernel_equals_oracle_on_random_data(data, n, d, shuffle, eta, fit_intercept,
                                             sparse, seed):
    X = np.array(data.draw(st.lists(st.lists(dyadic, min_size=d, max_size=d),
                                    min_size=n, max_size=n)))
    y = np.array(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    if len(np.unique(y)) < 2:
        y[0] = -y[0] if n > 1 and y[0] == y[1] else y[0]
        y[-1] = -y[0]
    model = Perceptron(shuffle=shuffle, eta=eta, fit_intercept=fit_intercept, max_iter=6,
                       random_state=seed)
    _fit_quietly(model, sp.csr_matrix(X) if sparse else X, y)
    w, b, epochs, updates = ref.perceptron(
        X, y, eta=eta, fit_intercept=fit_intercept, max_iter=6, shuffle=shuffle,
        rng=np.random.RandomState(seed),
    )
    assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b
    assert (model.n_iter_, model.n_updates_) == (epochs, updates)


def test_float_data_close_to_oracle():
    rng = np.random.RandomState(0)
    X = rng.randn(200, 6)
    y = np.where(X @ rng.randn(6) + 0.3 > 0, 1, -1)
    model = _fit_quietly(Perceptron(random_state=4, eta=0.1, max_iter=30, tol=None), X, y)
    w, b, epochs, _ = ref.perceptron(X, y, eta=0.1, max_iter=30, shuffle="every_epoch",
                                     rng=np.random.RandomState(4))
    assert_allclose(model.coef_[0], w, rtol=1e-10)
    assert_allclose(model.intercept_[0], b, rtol=1e-10)
    assert model.n_iter_ == epochs


def test_sample_weight_scales_the_update():
    X, y = integer_blobs(n=40, seed=2)
    sw = np.random.RandomState(0).randint(0, 4, size=len(y)).astype(float)
    model = _fit_quietly(Perceptron(shuffle="none", max_iter=5), X, y, sample_weight=sw)
    w, b, _, _ = ref.perceptron(X, y, max_iter=5, sample_weight=sw)
    assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b


def test_class_weight_multiplies_sample_weight():
    X, y = integer_blobs(n=40, seed=2)
    a = _fit_quietly(Perceptron(shuffle="none", max_iter=5, class_weight={1: 3.0}), X, y)
    b = _fit_quietly(Perceptron(shuffle="none", max_iter=5), X, y,
                     sample_weight=np.where(y == 1, 3.0, 1.0))
    assert_array_equal(a.coef_, b.coef_)


# -------------------------------------------------------------------- online behaviour

def test_partial_fit_epochs_equal_fit():
    X, y = integer_blobs(n=60, seed=5, separable=False)
    fitted = _fit_quietly(Perceptron(max_iter=3, random_state=1), X, y)
    online = Perceptron(random_state=1)
    for _ in range(3):
        online.partial_fit(X, y, classes=[-1, 1])
    assert_array_equal(online.coef_, fitted.coef_)
    assert_array_equal(online.intercept_, fitted.intercept_)
    assert online.n_iter_ == 3


def test_partial_fit_chunks_equal_one_pass():
    X, y = integer_blobs(n=60, seed=5, separable=False)
    whole = Perceptron(shuffle="none").partial_fit(X, y, classes=[-1, 1])
    chunked = Perceptron(shuffle="none")
    for rows in np.array_split(np.arange(60), 4):
        chunked.partial_fit(X[rows], y[rows], classes=[-1, 1])
    assert_array_equal(whole.coef_, chunked.coef_)
    assert_array_equal(whole.intercept_, chunked.intercept_)


def test_partial_fit_needs_classes_and_known_labels():
    with pytest.raises(ValueError, match="classes must be passed"):
        Perceptron().partial_fit(AND_X, AND_Y)
    model = Perceptron().partial_fit(AND_X, AND_Y, classes=[-1, 1])
    with pytest.raises(ValueError, match=r"labels \[7\] that are not among"):
        model.partial_fit(AND_X, [-1, 7, 1, 1])


def test_warm_start_continues_from_the_fitted_weights():
    X, y = integer_blobs(n=60, seed=5, separable=False)
    two = _fit_quietly(Perceptron(shuffle="none", max_iter=2), X, y)
    step = Perceptron(shuffle="none", max_iter=1, warm_start=True)
    _fit_quietly(step, X, y)
    _fit_quietly(step, X, y)
    assert_array_equal(step.coef_, two.coef_)


def test_early_stopping_stops_before_max_iter_on_noisy_data():
    X, y = integer_blobs(n=400, d=4, seed=1, separable=False)
    model = Perceptron(early_stopping=True, n_iter_no_change=3, max_iter=500,
                       random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # stopping early is not a failure
        model.fit(X, y)
    assert model.n_iter_ < 500 and not model.converged_


def test_init_array_is_bias_first():
    model = Perceptron(shuffle="none", init=[-4, 3, 2]).fit(AND_X, AND_Y)
    assert model.n_iter_ == 1 and model.n_updates_ == 0
    assert augmented(model) == [-4.0, 3.0, 2.0]


# one epoch only, to have a fitted model whose weights are then set
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_zero_prediction_is_the_negative_class():
    model = Perceptron(init=[0, 0], max_iter=1, shuffle="none")
    model.fit([[1.0], [-1.0]], ["b", "a"])
    model.coef_[:] = 0.0
    model.intercept_[:] = 0.0
    assert model.predict([[5.0]]).tolist() == ["a"]
