"""predict_proba where the model defines it (issue 32): the logistic model of
OnlineGradientDescent(loss="logistic") and the Gaussian over weight vectors of the
confidence-weighted family, each against an oracle written from its formula."""

import json

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import expit, log_ndtr
from scipy.stats import norm

from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import load, save
from rosenblatt.linear_model import (
    AROW,
    NAROW,
    NHERD,
    ConfidenceWeighted,
    FTRLProximal,
    OnlineGradientDescent,
    Perceptron,
    SoftConfidenceWeighted,
)
from rosenblatt.linear_model._probabilities import CALIBRATE, standardised

from ._estimators import ALL

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

#: the rules whose model is a Gaussian over weight vectors
GAUSSIAN = [ConfidenceWeighted, AROW, NAROW, NHERD, SoftConfidenceWeighted]
WITH_PROBABILITIES = set(GAUSSIAN) | {OnlineGradientDescent, FTRLProximal}
TOLERANCE = {"rtol": 1e-9, "atol": 1e-12}


def data(n_classes, seed=0, n=60, d=6):
    """Rows with about half their values 0 (so CSR rows differ from dense ones), a
    row of zeros, and labels a noisy linear function of them."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    X[7] = 0.0
    scores = X @ rng.normal(size=(d, n_classes)) + 0.5 * rng.normal(size=(n, n_classes))
    y = np.argmax(scores, axis=1) if n_classes > 2 else (scores[:, 0] > 0).astype(int)
    return X, y


def full_sigma(problem):
    """The problem's whole Σ, bias entry last, as a (D, D) matrix (from the training
    state, not from the published attributes predict_proba reads)."""
    cov = problem.state.cov
    return cov if cov.ndim == 2 else np.diag(cov)


def gaussian_oracle(model, X):
    """Φ(M/√V) from the formula: x̃ = (x, 1) with an intercept, M = μ·x̃, V = x̃ᵀΣx̃."""
    X = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
    tilde = np.hstack([X, np.ones((len(X), 1))]) if model.fit_intercept else X
    z = []
    for problem in model._problems:
        mu = np.append(problem.coef, problem.intercept[0]) if model.fit_intercept \
            else problem.coef
        margin = tilde @ mu
        variance = np.einsum("ij,jk,ik->i", tilde, full_sigma(problem), tilde)
        with np.errstate(divide="ignore", invalid="ignore"):
            z.append(np.where(variance > 0, margin / np.sqrt(variance),
                              np.sign(margin) * np.inf))
    z = np.column_stack(z)
    z[np.isnan(z)] = 0.0
    if z.shape[1] == 1:
        return np.column_stack([norm.cdf(-z[:, 0]), norm.cdf(z[:, 0])])
    p = norm.cdf(z)
    return p / p.sum(axis=1, keepdims=True)


def logistic_oracle(model, X):
    X = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
    f = X @ model.coef_.T + model.intercept_
    if f.shape[1] == 1:
        return np.column_stack([expit(-f[:, 0]), expit(f[:, 0])])
    p = expit(f)
    return p / p.sum(axis=1, keepdims=True)


def both_layouts(X):
    return [X, sp.csr_matrix(X)]


# ------------------------------------------------------------------ the Gaussian family


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("covariance", ["full", "diagonal"])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("cls", GAUSSIAN, ids=lambda cls: cls.__name__)
def test_gaussian_probabilities_equal_the_formula(cls, n_classes, covariance, fit_intercept):
    X, y = data(n_classes)
    for Xfit in both_layouts(X):
        model = cls(covariance=covariance, fit_intercept=fit_intercept, max_iter=3,
                    random_state=0).fit(Xfit, y)
        expected = gaussian_oracle(model, X)
        assert len(np.unique(expected.round(3))) > 10  # not all 0, ½ or 1
        for Xp in both_layouts(X):
            proba = model.predict_proba(Xp)
            assert proba.shape == (len(X), n_classes)
            assert_allclose(proba, expected, **TOLERANCE)
            assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
            log_proba = model.predict_log_proba(Xp)
            assert_allclose(log_proba, np.log(proba), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("covariance", ["full", "diagonal"])
def test_the_intercept_is_a_coordinate_of_the_gaussian(covariance):
    """Σ's bias row enters V: the published intercept_covariance_ is the state's."""
    X, y = data(2)
    model = AROW(covariance=covariance, max_iter=3, random_state=0).fit(X, y)
    cov = model._problems[0].state.cov
    d = X.shape[1]
    expected = cov[d][np.newaxis] if covariance == "full" else cov[d:]
    assert_array_equal(model.intercept_covariance_, expected)
    assert model.intercept_covariance_.shape == ((1, d + 1) if covariance == "full" else (1,))
    # with a zero bias row V would be smaller: the probabilities change
    changed = AROW(covariance=covariance).set_params()
    vars(changed).update({k: v for k, v in vars(model).items() if k.endswith("_")})
    changed.intercept_covariance_ = np.zeros_like(model.intercept_covariance_)
    assert not np.allclose(changed.predict_proba(X), model.predict_proba(X))
    unfit = AROW(covariance=covariance, fit_intercept=False, max_iter=3).fit(X, y)
    assert not unfit.intercept_covariance_.any()


def test_a_certain_score_gives_0_half_or_1():
    """V = 0: a row of zeros without intercept (M = 0 too: ½), or a Σ shrunk to 0."""
    X, y = data(2)
    model = AROW(fit_intercept=False, max_iter=3, random_state=0).fit(X, y)
    assert_array_equal(model.predict_proba(np.zeros((1, X.shape[1]))), [[0.5, 0.5]])
    assert_array_equal(model.predict_log_proba(np.zeros((1, X.shape[1]))),
                       np.log([[0.5, 0.5]]))
    model.covariance_ = np.zeros_like(model.covariance_)
    margins = model.decision_function(X)
    proba = model.predict_proba(X)
    assert_array_equal(proba[:, 1], np.where(margins > 0, 1.0, np.where(margins < 0, 0.0, 0.5)))
    assert_array_equal(standardised(np.array([2.0, -2.0, 0.0]), np.zeros(3)), [np.inf, -np.inf, 0])


def test_log_probabilities_stay_finite_where_probabilities_round_to_0():
    X, y = data(2)
    model = AROW(covariance="diagonal", max_iter=3, random_state=0).fit(X, y)
    # a model 10^6 times surer (Σ / 10^6): z = M/√V grows 1000-fold
    model.covariance_ = model.covariance_ * 1e-6
    model.intercept_covariance_ = model.intercept_covariance_ * 1e-6
    far = X[:8]
    z = model.decision_function(far) / np.sqrt(
        (far**2) @ model.covariance_ + model.intercept_covariance_[0])
    assert np.abs(z).max() > 40  # Φ(−40) underflows to 0; its logarithm is exact
    log_proba = model.predict_log_proba(far)
    assert np.all(np.isfinite(log_proba))
    assert_allclose(log_proba, np.column_stack([log_ndtr(-z), log_ndtr(z)]), rtol=1e-9)
    assert np.any(model.predict_proba(far) == 0.0)


@pytest.mark.parametrize("cls", GAUSSIAN, ids=lambda cls: cls.__name__)
def test_two_classes_the_most_probable_class_is_the_prediction(cls):
    X, y = data(2)
    model = cls(max_iter=3, random_state=0).fit(X, y)
    assert_array_equal(model.classes_[np.argmax(model.predict_proba(X), axis=1)],
                       model.predict(X))


def test_one_vs_rest_ranks_classes_by_standardised_score_not_score():
    """Documented: predict takes the largest M_k, the probabilities the largest
    M_k/√V_k; on these blobs the two differ on some rows."""
    from sklearn.datasets import make_blobs

    X, y = make_blobs(n_samples=300, random_state=0, cluster_std=2.0)
    model = AROW(random_state=0, max_iter=5).fit(X, y)
    proba = model.predict_proba(X)
    margins = model.decision_function(X)
    tilde = np.hstack([X, np.ones((len(X), 1))])
    variances = np.column_stack([np.einsum("ij,jk,ik->i", tilde, p.state.cov, tilde)
                                 for p in model._problems])
    assert_array_equal(np.argmax(proba, axis=1), np.argmax(margins / np.sqrt(variances), 1))
    disagree = np.argmax(proba, axis=1) != np.argmax(margins, axis=1)
    assert 0 < disagree.sum() < 0.05 * len(X)


def test_float32_rows_give_the_float64_probabilities():
    X, y = data(3)
    for covariance in ("full", "diagonal"):
        model = SoftConfidenceWeighted(covariance=covariance, max_iter=3).fit(X, y)
        for Xp in both_layouts(X.astype(np.float32)):
            assert_allclose(model.predict_proba(Xp),
                            gaussian_oracle(model, X.astype(np.float32)), **TOLERANCE)


def test_wide_sparse_rows_read_only_their_values():
    """2^20 features, diagonal Σ: V from the row's stored values only (the oracle is
    scipy's product of the squared rows with Σ's diagonal)."""
    rng = np.random.default_rng(1)
    n, d = 3000, 2**20
    indptr = np.arange(0, 20 * n + 1, 20)
    X = sp.csr_matrix((rng.normal(size=20 * n), rng.integers(0, d, 20 * n), indptr), (n, d))
    X.sum_duplicates()
    y = rng.integers(0, 2, n)
    model = AROW(covariance="diagonal", max_iter=1, shuffle="none").fit(X, y)
    z = model.decision_function(X) / np.sqrt(
        X.multiply(X) @ model.covariance_ + model.intercept_covariance_[0])
    assert_allclose(model.predict_proba(X)[:, 1], norm.cdf(z), **TOLERANCE)


def test_the_parallel_variance_kernel_equals_the_serial_one():
    from rosenblatt._kernels._variance import row_variances, row_variances_parallel
    from rosenblatt._validation import kernel_view

    X, y = data(3, n=200)
    model = AROW(covariance="full", max_iter=2).fit(sp.csr_matrix(X), y)
    from rosenblatt.linear_model._probabilities import gaussian_parts

    parts = gaussian_parts(model)
    for layout in (sp.csr_matrix(X),):
        assert_array_equal(row_variances(kernel_view(layout), *parts),
                           row_variances_parallel(kernel_view(layout), *parts))
    diagonal = AROW(covariance="diagonal", max_iter=2).fit(X, y)
    parts = gaussian_parts(diagonal)
    for layout in both_layouts(X):
        assert_array_equal(row_variances(kernel_view(layout), *parts),
                           row_variances_parallel(kernel_view(layout), *parts))


# ------------------------------------------------------------------ the logistic model


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_logistic_probabilities_equal_the_formula(n_classes, fit_intercept):
    X, y = data(n_classes)
    model = OnlineGradientDescent(loss="logistic", fit_intercept=fit_intercept, max_iter=3,
                                  random_state=0).fit(X, y)
    for Xp in both_layouts(X):
        proba = model.predict_proba(Xp)
        assert_allclose(proba, logistic_oracle(model, X), **TOLERANCE)
        assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
        assert_allclose(model.predict_log_proba(Xp), np.log(proba), rtol=1e-9, atol=1e-12)
        assert_array_equal(model.classes_[np.argmax(proba, axis=1)], model.predict(Xp))
    far = 1e3 * X[:5]
    f = model.decision_function(far)
    log_proba = model.predict_log_proba(far)
    assert np.all(np.isfinite(log_proba))
    if n_classes == 2:
        assert_allclose(log_proba[:, 1], -np.logaddexp(0, -f), rtol=1e-9)


@pytest.mark.parametrize("loss", ["hinge", "squared", "perceptron"])
def test_other_losses_have_no_probabilities_and_say_why(loss):
    model = OnlineGradientDescent(loss=loss)
    assert not hasattr(model, "predict_proba") and not hasattr(model, "predict_log_proba")
    X, y = data(2)
    model.fit(X, y)
    with pytest.raises(AttributeError, match="has no attribute 'predict_proba'") as error:
        model.predict_proba(X)
    why = str(error.value.__cause__)
    assert f"loss={loss!r}" in why and "loss='logistic'" in why
    assert "CalibratedClassifierCV" in why
    assert hasattr(model.set_params(loss="logistic"), "predict_proba")


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_every_estimator_without_probabilities_says_why(cls):
    doc = " ".join(cls.__doc__.split())
    assert "Probabilities:" in doc
    if cls in WITH_PROBABILITIES:
        assert hasattr(cls, "predict_proba")
        return
    assert not hasattr(cls(), "predict_proba") and not hasattr(cls(), "predict_log_proba")
    assert "Probabilities: none;" in doc and "sklearn.calibration.CalibratedClassifierCV" in doc
    assert "CalibratedClassifierCV" in CALIBRATE


# ------------------------------------------------------------------ files and mixing


@pytest.mark.parametrize("training_state", [True, False])
@pytest.mark.parametrize("model", [
    AROW(max_iter=2, random_state=0), AROW(covariance="diagonal", max_iter=2, random_state=0),
    ConfidenceWeighted(fit_intercept=False, max_iter=2, random_state=0),
    SoftConfidenceWeighted(variant="II", covariance="diagonal", max_iter=2, random_state=0),
    OnlineGradientDescent(loss="logistic", max_iter=2, random_state=0),
], ids=repr)
def test_probabilities_survive_save_and_load_bit_for_bit(model, training_state, tmp_path):
    for n_classes in (2, 3):
        X, y = data(n_classes)
        model.fit(X, y)
        path = tmp_path / f"m{n_classes}.npz"
        save(model, path, training_state=training_state)
        loaded = load(path)
        for Xp in both_layouts(X):
            assert_array_equal(loaded.predict_proba(Xp), model.predict_proba(Xp))
            assert_array_equal(loaded.predict_log_proba(Xp), model.predict_log_proba(Xp))


def _without_bias_covariance(path):
    """The file as rosenblatt wrote it before it stored intercept_covariance_."""
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    del meta["attributes"]["intercept_covariance_"]
    del arrays["intercept_covariance_"]
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def test_an_older_file_without_the_bias_covariance_says_what_to_do(tmp_path):
    X, y = data(2)
    path = tmp_path / "old.npz"
    save(AROW(max_iter=2).fit(X, y), path, training_state=False)
    _without_bias_covariance(path)
    old = load(path)
    old.predict(X)
    with pytest.raises(ValueError, match="has no intercept_covariance_.*Fit the model again"):
        old.predict_proba(X)
    model = AROW(fit_intercept=False, max_iter=2).fit(X, y)
    save(model, path, training_state=False)
    _without_bias_covariance(path)
    assert_array_equal(load(path).predict_proba(X), model.predict_proba(X))


def test_a_forged_bias_covariance_is_refused(tmp_path):
    from rosenblatt.io import ModelFileError

    X, y = data(3)
    path = tmp_path / "m.npz"
    save(AROW(covariance="diagonal", max_iter=2).fit(X, y), path, training_state=False)
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    arrays["intercept_covariance_"] = arrays["intercept_covariance_"][:2]
    np.savez(path, **arrays)
    with pytest.raises(ModelFileError, match="intercept_covariance_"):
        load(path)


@pytest.mark.parametrize("covariance", ["full", "diagonal"])
def test_parameter_mixing_publishes_the_mixed_gaussian(covariance):
    X, y = data(3, n=120)
    mixing = ParameterMixing(AROW(covariance=covariance, max_iter=2, random_state=0),
                             n_shards=3).fit(X, y)
    fitted = mixing.estimator_
    assert_allclose(mixing.predict_proba(X), gaussian_oracle(fitted, X), **TOLERANCE)
    assert_array_equal(mixing.predict_log_proba(X), fitted.predict_log_proba(X))
    assert not hasattr(ParameterMixing(Perceptron()), "predict_proba")
    assert hasattr(ParameterMixing(OnlineGradientDescent(loss="logistic")), "predict_proba")


def test_one_vs_rest_normalises_on_the_logarithms():
    """Rows where every class's probability underflows keep their ratios; a row of
    −inf scores (no class possible) gets 1/K each, as scikit-learn's uniform rows."""
    from rosenblatt.linear_model._probabilities import log_probabilities

    z = np.array([[-40.0, -40.0 - np.log(3.0) / 40.0, -60.0], [-np.inf, -np.inf, -np.inf]])
    proba = np.exp(log_probabilities(z, log_ndtr))
    assert norm.cdf(-40.0) == 0.0  # Φ(−40) ≈ 4e-350 underflows: p_k / Σ p_j would be 0/0
    assert_allclose(proba[0, 0] / proba[0, 1], np.exp(log_ndtr(z[0, 0]) - log_ndtr(z[0, 1])),
                    rtol=1e-9)
    assert_allclose(proba.sum(axis=1), 1.0)
    assert_allclose(proba[1], 1.0 / 3.0)


@pytest.mark.parametrize("model", [AROW(max_iter=2), OnlineGradientDescent(loss="logistic")],
                         ids=repr)
def test_probabilities_refuse_rows_of_another_width(model):
    X, y = data(3)
    model.fit(X, y)
    for method in (model.predict_proba, model.predict_log_proba):
        with pytest.raises(ValueError, match="features"):
            method(X[:, :-1])
