import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import PLA
from rosenblatt.datasets import load_svm_succinctly, make_boolean, make_target_line

from . import _reference as ref

KOWALCZYK_W = [-44.35244895, 1.50714969, 5.52834138]  # Code Listing 14, bias first


def test_kowalczyk_listing_14_bias_form():
    X, y = load_svm_succinctly()
    model = PLA(init="uniform", random_state=np.random.RandomState(88)).fit(X, y)
    assert_allclose([model.intercept_[0], *model.coef_[0]], KOWALCZYK_W, atol=5e-9)
    assert model.n_updates_ == 175 and model.converged_


def test_kowalczyk_listing_14_augmented_form():
    X, y = load_svm_succinctly()
    X_augmented = np.c_[np.ones(len(X)), X]
    model = PLA(init="uniform", fit_intercept=False,
                random_state=np.random.RandomState(88)).fit(X_augmented, y)
    assert_allclose(model.coef_[0], KOWALCZYK_W, atol=5e-9)
    assert model.intercept_[0] == 0.0 and model.n_updates_ == 175


def test_succinctly_training_set_is_the_books_order():
    X, y = load_svm_succinctly()
    assert X[0].tolist() == [8, 7] and X[7].tolist() == [2, 7]
    assert y.tolist() == [1] * 7 + [-1] * 7
    X_test, y_test = load_svm_succinctly("test")
    assert X_test.shape == (32, 2) and set(y_test.tolist()) == {-1, 1}


def test_different_seeds_find_different_separators():
    # Kowalczyk Fig. 19: each run a different hyperplane, all with zero training error
    X, y = load_svm_succinctly()
    found = []
    for seed in range(4):
        model = PLA(init="uniform", random_state=seed).fit(X, y)
        assert model.score(X, y) == 1.0
        found.append(np.r_[model.intercept_, model.coef_[0]])
    directions = [w / np.linalg.norm(w) for w in found]
    for i in range(4):
        for j in range(i):
            assert not np.allclose(directions[i], directions[j])


@pytest.mark.parametrize("init", ["zeros", "uniform", "normal"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_pla_equals_oracle(init, fit_intercept, sparse):
    import scipy.sparse as sp

    X, y, _ = make_target_line(60, 3, random_state=5)
    X = np.round(X * 8) / 8  # dyadic values: exact arithmetic
    y = np.where(X @ [1.0, -2.0, 0.5] + 0.25 > 0, 1, -1)
    model = PLA(init=init, fit_intercept=fit_intercept, random_state=3, eta=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(sp.csr_matrix(X) if sparse else X, y)
    w, b, updates = ref.pla(X, y, eta=0.5, fit_intercept=fit_intercept, init=init,
                            rng=np.random.RandomState(3))
    assert_allclose(model.coef_[0], w, rtol=0, atol=1e-12)
    assert_allclose(model.intercept_[0], b, rtol=0, atol=1e-12)
    assert model.n_updates_ == updates


def test_generator_random_state_is_accepted_and_deterministic():
    X, y = load_svm_succinctly()
    a = PLA(init="normal", random_state=np.random.default_rng(1)).fit(X, y)
    b = PLA(init="normal", random_state=np.random.default_rng(1)).fit(X, y)
    assert_array_equal(a.coef_, b.coef_)
    assert a.score(X, y) == 1.0


def test_inseparable_data_stops_at_max_updates_with_advice():
    X, y = make_boolean("xor")
    model = PLA(max_updates=50, random_state=0)
    with pytest.warns(ConvergenceWarning, match=r"max_updates=50.*PocketPerceptron"):
        model.fit(X, y)
    assert model.n_updates_ == 50 and not model.converged_


def test_trace_records_each_pla_iteration():
    X, y = load_svm_succinctly()
    model = PLA(random_state=0, record=True).fit(X, y)
    trace = model.trace_
    assert len(trace) == model.n_updates_
    assert trace.epoch.tolist() == list(range(1, model.n_updates_ + 1))
    assert np.all(trace.y * trace.activation <= 0)
    assert_array_equal(trace.coef[-1], model.coef_[0])
    assert trace.intercept[-1] == model.intercept_[0]
