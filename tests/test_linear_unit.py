import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import LinearUnit

from . import _reference as ref


@pytest.fixture
def regression_like():
    rng = np.random.RandomState(0)
    X = rng.randn(200, 4)
    y = np.where(X @ [1.0, 2.0, -1.0, 0.5] + rng.randn(200) > 0, 1, -1)
    return X, y


def least_squares(X, y):
    augmented = np.c_[np.ones(len(X)), X]
    solution = np.linalg.lstsq(augmented, y, rcond=None)[0]
    return solution, 0.5 * np.sum((y - augmented @ solution) ** 2)


@pytest.mark.parametrize("sparse", [False, True])
def test_batch_converges_to_least_squares(regression_like, sparse):
    X, y = regression_like
    solution, _ = least_squares(X, y)
    model = LinearUnit(tol=1e-16, max_iter=20000, random_state=0)
    model.fit(sp.csr_matrix(X) if sparse else X, y)
    assert model.converged_
    assert_allclose(np.r_[model.intercept_, model.coef_[0]], solution, atol=1e-6)


def test_sgd_reaches_a_loss_within_one_percent(regression_like):
    X, y = regression_like
    _, best = least_squares(X, y)
    model = LinearUnit(solver="sgd", eta=0.001, max_iter=200, tol=1e-9, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    assert model.loss_curve_[-1] <= 1.01 * best


@pytest.mark.parametrize("solver", ["batch", "sgd"])
def test_epochs_equal_the_textbook_loops(regression_like, solver):
    X, y = regression_like
    X, y = X[:50], y[:50]
    model = LinearUnit(solver=solver, eta=0.004, max_iter=7, tol=0, shuffle="none",
                       init=[0.1, 0.2, -0.3, 0.4, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    w, b = ref.linear_unit(X, y.astype(float), np.array([0.2, -0.3, 0.4, 0.5]), 0.1,
                           eta=0.004, solver=solver, epochs=7)
    assert_allclose(model.coef_[0], w, rtol=1e-10)
    assert_allclose(model.intercept_[0], b, rtol=1e-10)
    losses = [0.5 * np.sum((y - ref.linear_unit(X, y.astype(float),
                                                np.array([0.2, -0.3, 0.4, 0.5]), 0.1,
                                                eta=0.004, solver=solver, epochs=k)[0] @ X.T
                            - ref.linear_unit(X, y.astype(float),
                                              np.array([0.2, -0.3, 0.4, 0.5]), 0.1,
                                              eta=0.004, solver=solver, epochs=k)[1]) ** 2)
              for k in range(1, 8)]
    assert_allclose(model.loss_curve_, losses, rtol=1e-10)


@pytest.mark.parametrize("solver", ["batch", "sgd"])
def test_a_step_too_large_warns_stops_and_keeps_finite_weights(regression_like, solver):
    X, y = regression_like
    model = LinearUnit(solver=solver, eta=5.0, max_iter=1000, random_state=0)
    with pytest.warns(ConvergenceWarning, match="diverged.*eta=5 is too large.*smaller eta"):
        model.fit(X, y)
    assert model.n_iter_ < 10 and not model.converged_
    assert np.all(np.isfinite(model.coef_)) and np.isfinite(model.intercept_).all()
    kept = 0.5 * np.sum((y - model.decision_function(X)) ** 2)
    assert not model.loss_curve_[-1] <= kept  # the loss grew (or overflowed): not kept


@pytest.mark.parametrize("solver", ["batch", "sgd"])
def test_auto_step_never_diverges(solver):
    rng = np.random.RandomState(3)
    X = rng.randn(300, 5) * [1, 10, 100, 0.1, 1000]  # badly scaled on purpose
    y = np.where(rng.randn(300) > 0, 1, -1)
    model = LinearUnit(solver=solver, max_iter=50, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    losses = np.r_[model.loss_curve_]
    assert np.all(np.isfinite(losses))
    if solver == "batch":
        assert np.all(np.diff(losses) <= 1e-9 * losses[:-1])


def test_predicts_the_sign_of_the_output():
    X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    model = LinearUnit(tol=1e-15, random_state=0).fit(X, y)
    assert model.predict(X).tolist() == [0, 0, 0, 1]
    assert_allclose(model.decision_function(X), [-1.5, -0.5, -0.5, 0.5], atol=1e-6)


@pytest.mark.parametrize("solver", ["batch", "sgd"])
def test_without_tol_every_epoch_runs_with_no_loss_pass_and_no_warning(regression_like, solver,
                                                                       monkeypatch, recwarn):
    """tol=None is scikit-learn's: max_iter epochs, the same weights as with a rule
    that never stops them, and E(w) never computed (the pass it would cost)."""
    from rosenblatt.linear_model import _linear_unit

    X, y = regression_like
    kwargs = dict(solver=solver, eta=0.001, max_iter=6, shuffle="none", random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ruled = LinearUnit(tol=0, **kwargs).fit(X, y)
    monkeypatch.setattr(_linear_unit, "_loss", lambda problem, data: pytest.fail("loss"))
    free = LinearUnit(tol=None, **kwargs).fit(X, y)
    assert ruled.n_iter_ == free.n_iter_ == 6 and not free.converged_
    np.testing.assert_array_equal(free.coef_, ruled.coef_)
    np.testing.assert_array_equal(free.intercept_, ruled.intercept_)
    assert free.loss_curve_.shape == (0,) and ruled.loss_curve_.shape == (6,)
    assert not [w for w in recwarn if issubclass(w.category, ConvergenceWarning)]


def test_without_tol_a_diverging_step_is_an_overflow_error(regression_like):
    X, y = regression_like
    model = LinearUnit(solver="sgd", eta=50.0, max_iter=200, tol=None, random_state=0)
    with pytest.raises(ValueError, match="infinite or NaN|overflowed"):
        model.fit(X, y)
