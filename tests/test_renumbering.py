"""Columns renumbered by frequency during ``fit`` (``renumber_columns=True``): the
same model bit for bit, for every rule that supports it, and the weights always
back in the columns' own numbering afterwards."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

import rosenblatt
from rosenblatt import (
    PLA,
    AveragedPerceptron,
    BatchPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    PassiveAggressiveClassifier,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    _kernels,
)
from rosenblatt.base import _columns
from rosenblatt.linear_model._perceptron import PerceptronLearner


def scattered(n=600, d=3000, per_row=10, seed=0):
    """Zipf-frequent columns hashed over ``d``: the case renumbering is for."""
    rng = np.random.RandomState(seed)
    indices = (rng.zipf(1.3, size=n * per_row) * 7919) % d
    X = sp.csr_matrix((rng.randint(1, 5, size=n * per_row).astype(float), indices,
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, d))
    X.sum_duplicates()
    score = X @ rng.randn(d)
    return X, np.where(score > np.median(score), 1, -1), np.digitize(
        score, np.quantile(score, [0.33, 0.66]))


RENUMBERED = [
    Perceptron(max_iter=4, random_state=0),
    Perceptron(max_iter=4, shuffle="none", init="uniform", random_state=0),
    Perceptron(max_iter=4, penalty="elasticnet", alpha=1e-3, tol=1e-3, random_state=0),
    AveragedPerceptron(max_iter=4, random_state=0),
    AveragedPerceptron(max_iter=8, early_stopping=True, n_iter_no_change=2, random_state=0),
    AveragedPerceptron(max_iter=4, penalty="l1", alpha=1e-3, random_state=0),
    PocketPerceptron(max_iter=3, random_state=0),
    PassiveAggressiveClassifier(max_iter=4, average=True, random_state=0),
    LinearUnit(solver="sgd", eta=1e-3, max_iter=4, random_state=0),
    LinearUnit(max_iter=4, random_state=0),
    BatchPerceptron(max_iter=4, random_state=0),
    MulticlassPerceptron(max_iter=4, average=True, random_state=0),
    Perceptron(max_iter=4, random_state=0, n_jobs=2),  # one-vs-rest on threads
]


def fit_both(estimator, X, y, monkeypatch):
    """The fit with and without renumbering, and how often the order was computed."""
    calls = []
    original = _columns.frequency_order
    monkeypatch.setattr(_columns, "frequency_order",
                        lambda X: calls.append(X.shape) or original(X))
    fits = []
    for setting in (False, True):
        with rosenblatt.config_context(renumber_columns=setting):
            fits.append(type(estimator)(**estimator.get_params()).fit(X, y))
    return fits, calls


@pytest.mark.parametrize("estimator", RENUMBERED, ids=repr)
def test_renumbered_columns_change_no_result(estimator, monkeypatch, recwarn):
    X, y, y3 = scattered()
    if isinstance(estimator, MulticlassPerceptron) or estimator.n_jobs == 2:
        y = y3
    (plain, renumbered), calls = fit_both(estimator, X, y, monkeypatch)
    assert calls == [X.shape]  # computed once, in the renumbered fit only
    assert_array_equal(plain.coef_, renumbered.coef_)
    assert_array_equal(plain.intercept_, renumbered.intercept_)
    assert plain.n_iter_ == renumbered.n_iter_
    assert all(problem.columns is None for problem in renumbered._problems)
    # the fit's copy of X is not kept
    assert not any(isinstance(value, _columns.Renumbering) for value in vars(renumbered).values())


def test_training_continues_in_the_columns_own_numbering(monkeypatch, recwarn):
    """partial_fit and warm_start after a renumbered fit go on from the same state."""
    X, y, _ = scattered()
    (plain, renumbered), _ = fit_both(AveragedPerceptron(max_iter=3, random_state=0), X, y,
                                      monkeypatch)
    for model in (plain, renumbered):
        model.partial_fit(X[:200], y[:200])
    assert_array_equal(plain.coef_, renumbered.coef_)
    (plain, renumbered), _ = fit_both(
        Perceptron(max_iter=2, warm_start=True, random_state=0), X, y, monkeypatch)
    with rosenblatt.config_context(renumber_columns=True):
        renumbered.fit(X, y)
    plain.fit(X, y)
    assert_array_equal(plain.coef_, renumbered.coef_)


def test_watched_training_is_not_renumbered(monkeypatch, recwarn):
    """A trace, a vote (rows of X) and PLA (no epochs) train in the own numbering."""
    X, y, _ = scattered(n=200)
    for estimator in (Perceptron(max_iter=2, record=True, random_state=0),
                      VotedPerceptron(max_iter=2, random_state=0),
                      PLA(max_updates=50, random_state=0)):
        (plain, renumbered), calls = fit_both(estimator, X, y, monkeypatch)
        assert calls == []
        assert_array_equal(plain.coef_, renumbered.coef_)


def test_an_error_during_training_leaves_the_own_numbering(monkeypatch):
    X, y, _ = scattered(n=200)
    model = Perceptron(max_iter=3, random_state=0)
    start = np.arange(X.shape[1], dtype=float)
    model.set_params(init=np.r_[0.0, start])

    def fail(learner, problem, data, order):
        assert problem.columns is not None
        raise KeyboardInterrupt

    monkeypatch.setattr(PerceptronLearner, "_epoch", fail)
    with rosenblatt.config_context(renumber_columns=True), pytest.raises(KeyboardInterrupt):
        model.fit(X, y)
    assert model._problems[0].columns is None
    assert_array_equal(model._problems[0].coef, start)


def test_column_kernels_equal_numpy():
    rng = np.random.RandomState(0)
    indices = rng.randint(0, 50, size=300).astype(np.int32)
    counts = _kernels.column_counts(indices, 250, 60)
    assert_array_equal(counts, np.bincount(indices[:250], minlength=60))
    order = _kernels.columns_by_frequency(counts)
    assert_array_equal(order, np.argsort(-counts, kind="stable"))
    new = np.empty(60, dtype=np.int32)
    new[order] = np.arange(60)
    renumbered = _kernels.renumbered_indices(indices, 250, new)
    assert renumbered.dtype == np.int32
    assert_array_equal(renumbered, new[indices[:250]])


def test_renumbered_matrix_keeps_each_rows_values_in_order():
    X, _, _ = scattered(n=50)
    order = _columns.frequency_order(X)
    Y = order.renumber(X)
    assert Y.data.base is X.data or np.shares_memory(Y.data, X.data)
    assert_array_equal(Y.indptr, X.indptr)
    assert_array_equal(order.old[Y.indices], X.indices)
    w = np.random.RandomState(1).randn(X.shape[1])
    moved = w.copy()
    order.to_new(moved)
    assert_array_equal(Y @ moved, X @ w)


def test_settings_refuse_unknown_values_and_restore():
    assert rosenblatt.get_config() == {"renumber_columns": False}
    with pytest.raises(ValueError, match="renumber_columns must be one of"):
        rosenblatt.set_config(renumber_columns="yes")
    with pytest.raises(ValueError, match="renumber_columns must be one of"):
        with rosenblatt.config_context(renumber_columns=1):
            pass
    with rosenblatt.config_context(renumber_columns=True):
        assert rosenblatt.get_config()["renumber_columns"] is True
    assert rosenblatt.get_config() == {"renumber_columns": False}
