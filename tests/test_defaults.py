"""A practitioner's first hour (issue 26, the estimators' part): defaults that keep the
texts' numbers and stop on real data, a vote that is affordable, the linear unit's
advice on unscaled features, and refusals that name the fix."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from rosenblatt import (
    AveragedPerceptron,
    KernelPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    io,
)
from rosenblatt.engine import on_epoch
from rosenblatt.linear_model import _voted

from . import _reference as ref
from .conftest import integer_blobs

#: the estimators whose default stops when the epoch's mistakes stall (tol) as well as by a
#: mistake-free epoch
STOPPING = [Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron,
            MulticlassPerceptron, KernelPerceptron]


def noisy(n=400, seed=0):
    """Two overlapping clouds: no epoch is ever free of mistakes."""
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 4)
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.8 * rng.randn(n) > 0, 1, -1)
    return X, y


# ----------------------------------------------------------------- 1. defaults


@pytest.mark.parametrize("cls", STOPPING, ids=lambda cls: cls.__name__)
def test_the_default_stops_on_inseparable_data_without_a_warning(cls):
    """Before: 1,000 epochs (100 for the kernel perceptron) and a ConvergenceWarning.
    A stop by tol is not convergence: converged_ is False, stop_reason_ says "tol"."""
    X, y = noisy()
    extra = {"kernel": "linear"} if cls is KernelPerceptron else {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = cls(random_state=0, **extra).fit(X, y)
    assert model.n_iter_ < 50 and model.converged_ is False and model.stop_reason_ == "tol"
    assert model.get_params()["tol"] == 1e-3 and model.get_params()["stop_mistake_free"]


@pytest.mark.parametrize("cls", STOPPING, ids=lambda cls: cls.__name__)
def test_the_default_keeps_the_texts_run_on_separable_data(cls):
    """A mistake-free epoch comes first on the texts' data: the default fit is the
    texts' fit (tol=None), bit for bit."""
    X, y = integer_blobs(n=100, d=3, seed=8)
    extra = {"kernel": "linear"} if cls is KernelPerceptron else {}
    default = cls(random_state=0, **extra).fit(X, y)
    texts = cls(random_state=0, tol=None, **extra).fit(X, y)
    assert default.converged_ and default.n_iter_ == texts.n_iter_
    assert_array_equal(default.decision_function(X), texts.decision_function(X))


def test_and_keeps_every_number_of_the_texts_with_the_defaults():
    X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    model = Perceptron(shuffle="none").fit(X, y)
    assert (model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_) == \
        ([-4.0], [[3.0, 2.0]], 9)


def test_without_the_mistake_free_stop_the_run_is_scikit_learns():
    # the update arithmetic is scikit-learn's; the stopping rules differ (our tol watches
    # the epoch's mistakes, scikit-learn's the perceptron loss), so both run tol=None to
    # the same max_iter
    X, y = noisy(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = Perceptron(shuffle="none", stop_mistake_free=False, tol=None,
                          max_iter=6).fit(X, y)
        theirs = SkPerceptron(shuffle=False, tol=None, max_iter=6).fit(X, y)
    assert ours.n_iter_ == theirs.n_iter_
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-10)


def test_the_texts_rule_alone_still_runs_to_max_iter_and_warns():
    X, y = noisy()
    with pytest.warns(ConvergenceWarning, match="max_iter=30 epochs without a mistake-free"):
        model = Perceptron(tol=None, max_iter=30, random_state=0).fit(X, y)
    assert model.n_iter_ == 30 and not model.converged_


def test_a9a_stops_about_when_scikit_learn_does(a9a):
    X, y = a9a
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ours = [Perceptron(random_state=seed).fit(X, y).n_iter_ for seed in range(3)]
        pocket = PocketPerceptron(random_state=0).fit(X, y)
    X32 = sp.csr_matrix((X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32)),
                        shape=X.shape)  # scikit-learn's sparse loop takes int32 indices only
    theirs = [SkPerceptron(random_state=seed).fit(X32, y).n_iter_ for seed in range(3)]
    assert max(ours) <= 20 and max(theirs) <= 20
    assert pocket.n_iter_ <= 20 and pocket.score(X, y) > 0.8


def test_the_default_pocket_is_judged_once_an_epoch():
    """The best of the weights at the ends of the epochs, on every row: one count
    an epoch, not one per update."""
    X, y = noisy(seed=2)
    ends = []
    model = PocketPerceptron(random_state=0, max_iter=8, tol=None)
    with on_epoch(model, lambda p: ends.append((p.coef.copy(), p.intercept[0]))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X, y)
    errors = [ref.training_errors(X, y, np.zeros(4), 0.0)]
    errors += [ref.training_errors(X, y, w, b) for w, b in ends]
    assert model.pocket_errors_[0] == min(errors)
    assert ref.training_errors(X, y, model.coef_[0], model.intercept_[0]) == min(errors)
    assert not model._problems[0].state.per_update
    assert PocketPerceptron(pocket_every="update").fit(X, y)._problems[0].state.per_update


# ------------------------------------------------------------------- 2. the vote


def many_vectors():
    """A vote of more than one block of vectors on more than one block of rows."""
    X, y = noisy(n=600, seed=3)
    X = np.round(4 * X)  # integers: every activation exact, whichever way it is summed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = VotedPerceptron(shuffle="none", tol=None, max_iter=10).fit(X, y)
    assert model.n_updates_ > 1024  # vectors in a block
    rng = np.random.RandomState(4)
    return model, np.round(4 * rng.randn(700, 4))


def oracle_vote(model, X):
    """Daumé eq. 4.17 with every vector written out."""
    activations = X @ model.vectors_.T + model.vector_intercepts_
    return np.where(activations > 0, 1.0, -1.0) @ model.counts_


@pytest.mark.parametrize("layout", ["dense", "csr", "wide csr"])
def test_the_vote_over_many_blocks_equals_every_vector_voting(layout, monkeypatch):
    model, X = many_vectors()
    if layout == "wide csr":  # the sparse path: one sparse product per update row
        monkeypatch.setattr(_voted, "_DENSE_WIDTH", 2, raising=False)
    Xin = X if layout == "dense" else sp.csr_matrix(X)
    assert_array_equal(model.decision_function(Xin), oracle_vote(model, X))


def test_the_vote_works_in_blocks_of_bounded_memory():
    """Before: a block of rows times every vector (32 MB here, more with more vectors)."""
    model, X = many_vectors()
    X = np.tile(X, (3, 1))
    model.decision_function(X[:10])
    tracemalloc.start()
    try:
        model.decision_function(X)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20


def test_the_vote_refuses_overflowed_activations():
    model, X = many_vectors()
    with pytest.raises(ValueError, match="overflowed to inf or NaN"):
        model.decision_function(np.full((3, 4), 1e308))


# ------------------------------------------------------- 3. badly scaled features


def unscaled(n=500, seed=0):
    """Digits-like features: values 0 to 100, far from 0."""
    rng = np.random.RandomState(seed)
    X = rng.uniform(0, 100, size=(n, 6))
    y = np.where(X[:, 0] - X[:, 1] + 10 * rng.randn(n) > 0, 1, -1)
    return X, y


def test_the_linear_unit_says_to_scale_badly_scaled_features():
    X, y = unscaled()
    with pytest.warns(ConvergenceWarning, match=r"badly scaled .* from 1 to 5\d\.\d.*"
                                                r"StandardScaler"):
        LinearUnit(max_iter=20, random_state=0).fit(X, y)


def test_scaled_features_get_no_such_advice():
    X, y = unscaled()
    X = StandardScaler().fit_transform(X)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        LinearUnit(max_iter=2, random_state=0).fit(X, y)
    assert caught and not any("StandardScaler" in str(w.message) for w in caught)


def test_the_column_scales_add_up_over_blocks_and_skip_empty_columns():
    from rosenblatt.linear_model._linear_unit import column_scales

    X = np.array([[0.0, 3.0, 0.0], [0.0, 4.0, 10.0]])
    parts = [((X[:1] ** 2).sum(axis=0), 1.0), ((X[1:] ** 2).sum(axis=0), 1.0)]
    assert column_scales(parts, fit_intercept=False) == (np.sqrt(12.5), np.sqrt(50.0))
    assert column_scales(parts, fit_intercept=True)[0] == 1.0


@pytest.mark.parametrize("sparse", [False, True])
def test_pendigits_unscaled_is_called_badly_scaled(shared_data, sparse):
    from rosenblatt.datasets import load_libsvm

    X, y = load_libsvm(shared_data / "pendigits", n_features=16)
    with pytest.warns(ConvergenceWarning, match="badly scaled.*StandardScaler"):
        LinearUnit(max_iter=10, random_state=0).fit(X if sparse else X.toarray(), y)


# ------------------------------------------------------------- 6. the refusals


def test_an_unknown_parameter_names_the_estimator_and_the_one_meant():
    """Before: PenalizedRuleParameters.__init__() got an unexpected keyword argument."""
    with pytest.raises(TypeError, match=r"^Perceptron got an unexpected keyword argument "
                                        r"'eta0': did you mean eta \(scikit-learn's eta0\)"):
        Perceptron(eta0=1)
    with pytest.raises(TypeError, match="^VotedPerceptron .* 'max_iters': did you mean "
                                        "max_iter"):
        VotedPerceptron(max_iters=3)
    with pytest.raises(TypeError, match="AveragedPerceptron takes its parameters by keyword"):
        AveragedPerceptron(1.0)


def test_saving_a_pipeline_points_to_joblib_and_skops(tmp_path):
    X, y = noisy()
    pipeline = make_pipeline(StandardScaler(), Perceptron(random_state=0)).fit(X, y)
    with pytest.raises(ValueError, match=r"got a Pipeline.*joblib\.dump.*skops\.io\.dump.*"
                                         r"save\(pipeline\[-1\], path\)"):
        io.save(pipeline, tmp_path / "model.npz")
