"""The second-order estimators (SOP, CW, AROW, NAROW, NHERD, IELLIP, SCW, multiclass
AROW and SCW): one pass equals the papers' loops (``_papers_second_order``) through
the estimators, with and without intercept, dense and CSR, full and diagonal Σ;
one-vs-rest, partial_fit and warm_start go on exactly; the covariance and the
mistakes are published, mixed across shards, renumbered, traced and saved."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

import rosenblatt
from rosenblatt import (
    AROW,
    IELLIP,
    NAROW,
    NHERD,
    ConfidenceWeighted,
    MulticlassAROW,
    MulticlassSCW,
    Perceptron,
    SecondOrderPerceptron,
    SoftConfidenceWeighted,
)
from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.linear_model import _second_order

from . import _papers_second_order as papers

RTOL = 1e-7

#: (estimator, its parameters away from the defaults, the reference's rule and parameters)
BINARY = [
    (SecondOrderPerceptron, {"a": 0.5}, "sop", {}),
    (ConfidenceWeighted, {"eta": 0.8, "a": 2.0}, "cw", {"eta": 0.8}),
    (AROW, {"r": 0.7, "a": 1.5}, "arow", {"r": 0.7}),
    (NAROW, {"b": 0.6}, "narow", {"b": 0.6}),
    (NHERD, {"C": 0.4}, "nherd", {"C": 0.4}),
    (IELLIP, {"b": 0.9, "c": 0.3}, "iellip", {"b": 0.9}),
    (SoftConfidenceWeighted, {"C": 0.2, "eta": 0.75}, "scw1", {"C": 0.2, "eta": 0.75}),
    (SoftConfidenceWeighted, {"C": 0.5, "variant": "II"}, "scw2", {"C": 0.5, "eta": 0.9}),
]
MULTICLASS = [
    (MulticlassAROW, {"r": 0.8}, "multiclass_arow", {"r": 0.8}),
    (MulticlassSCW, {"C": 0.3}, "multiclass_scw1", {"C": 0.3, "eta": 0.75}),
    (MulticlassSCW, {"C": 0.6, "eta": 0.8, "variant": "II"}, "multiclass_scw2",
     {"C": 0.6, "eta": 0.8}),
]
CASES = BINARY + MULTICLASS
CLASSES = [AROW, IELLIP, NAROW, NHERD, ConfidenceWeighted, MulticlassAROW, MulticlassSCW,
           SecondOrderPerceptron, SoftConfidenceWeighted]
FORMS = ["full", "diagonal"]
N_CLASSES = 3


def case_id(case):
    cls, params, rule, _ = case
    return f"{cls.__name__}-{rule}"


def data(seed=0, n=60, d=6, multiclass=False):
    """Random rows, a third of the values 0; labels from a planted model with noise."""
    rng = np.random.RandomState(seed)
    X = rng.randn(n, d) * rng.uniform(0.5, 2.0, size=d)
    X[rng.rand(n, d) < 0.3] = 0.0
    if multiclass:
        y = np.argmax(X @ rng.randn(d, N_CLASSES) + 0.5 * rng.randn(n, N_CLASSES), axis=1)
        return X, y
    return X, np.where(X @ rng.randn(d) + 0.5 * rng.randn(n) > 0, 1, -1)


def reference(case, X, y, *, form, fit_intercept, passes=1, sw=None):
    cls, params, rule, ref_params = case
    options = dict(a=params.get("a", 1.0), fit_intercept=fit_intercept,
                   diagonal=form == "diagonal", passes=passes, sw=sw)
    if cls in (MulticlassAROW, MulticlassSCW):
        return papers.multiclass(rule, X, y, N_CLASSES, **options, **ref_params)
    return papers.binary(rule, X, y, c=params.get("c", 0.1) if rule == "iellip" else None,
                         **options, **ref_params)


def one_pass(case, **extra):
    cls, params, _, _ = case
    return cls(**{"shuffle": "none", "max_iter": 1, **params, **extra})


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return function(*args, **kwargs)


def assert_equals_reference(model, ref, fit_intercept, rows=slice(None)):
    coef = model.coef_[rows]
    scale = max(1.0, np.abs(ref.coef).max())
    assert_allclose(coef, np.atleast_2d(ref.coef), rtol=RTOL, atol=1e-12 * scale)
    intercept = model.intercept_[rows]
    assert_allclose(intercept, np.atleast_1d(ref.intercept), rtol=RTOL, atol=1e-12 * scale)
    d = ref.coef.shape[-1]
    cov = ref.cov[:d, :d] if ref.cov.ndim == 2 else ref.cov[:d]
    assert_allclose(model.covariance_, cov, rtol=RTOL, atol=1e-12 * np.abs(cov).max())


# ------------------------------------------------------------------ the papers' updates


@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_one_pass_without_intercept_equals_the_paper(case, form, layout):
    multiclass = case[0] in (MulticlassAROW, MulticlassSCW)
    for seed in (0, 1):
        X, y = data(seed, multiclass=multiclass)
        model = quietly(one_pass(case, covariance=form, fit_intercept=False).fit,
                        sp.csr_matrix(X) if layout == "csr" else X, y)
        ref = reference(case, X, y, form=form, fit_intercept=False)
        assert_equals_reference(model, ref, False)
        assert_array_equal(model.intercept_, 0.0)
        assert model.n_mistakes_.tolist() == [ref.mistakes]
        assert model.n_updates_ == len(ref.updates) > 0
        assert model.n_iter_ == 1 and model.n_mistakes_.dtype == np.int64


@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_intercept_is_the_weight_of_a_column_of_ones(case, form, layout):
    multiclass = case[0] in (MulticlassAROW, MulticlassSCW)
    X, y = data(2, multiclass=multiclass)
    model = quietly(one_pass(case, covariance=form).fit,
                    sp.csr_matrix(X) if layout == "csr" else X, y)
    ref = reference(case, X, y, form=form, fit_intercept=True)
    assert_equals_reference(model, ref, True)
    assert model.n_mistakes_.tolist() == [ref.mistakes]
    # covariance_ leaves the bias's entry out
    shape = (6, 6) if form == "full" else (6,)
    assert model.covariance_.shape == shape


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", BINARY, ids=case_id)
def test_one_vs_rest_is_one_reference_per_class(case, form):
    X, y = data(3, multiclass=True)
    model = quietly(one_pass(case, covariance=form).fit, X, y)
    shape = (N_CLASSES, 6, 6) if form == "full" else (N_CLASSES, 6)
    assert model.coef_.shape == (N_CLASSES, 6) and model.covariance_.shape == shape
    mistakes = 0
    for k in range(N_CLASSES):
        ref = reference(case, X, np.where(y == k, 1, -1), form=form, fit_intercept=True)
        assert_allclose(model.coef_[k], ref.coef, rtol=RTOL, atol=1e-12)
        assert_allclose(model.intercept_[k], ref.intercept, rtol=RTOL, atol=1e-12)
        d = 6
        cov = ref.cov[:d, :d] if form == "full" else ref.cov[:d]
        assert_allclose(model.covariance_[k], cov, rtol=RTOL, atol=1e-12)
        mistakes += ref.mistakes
    assert model.n_mistakes_.tolist() == [mistakes]  # summed over the problems
    threaded = quietly(one_pass(case, covariance=form, n_jobs=3).fit, X, y)
    assert_array_equal(threaded.coef_, model.coef_)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_row_weights_are_the_kernels(case, form):
    """0 drops a row; other weights as the papers' oracles weigh them."""
    multiclass = case[0] in (MulticlassAROW, MulticlassSCW)
    X, y = data(4, multiclass=multiclass)
    sw = np.random.RandomState(4).choice([0.0, 0.5, 1.0, 2.0, 3.0], size=len(y))
    model = quietly(one_pass(case, covariance=form).fit, X, y, sample_weight=sw)
    ref = reference(case, X, y, form=form, fit_intercept=True, sw=sw)
    assert_equals_reference(model, ref, True)
    kept = quietly(one_pass(case, covariance=form).fit, X[sw > 0], y[sw > 0],
                   sample_weight=sw[sw > 0])
    assert_allclose(kept.coef_, model.coef_, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------ going on


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_partial_fit_and_warm_start_go_on_exactly(case, form):
    multiclass = case[0] in (MulticlassAROW, MulticlassSCW)
    X, y = data(5, multiclass=multiclass)
    classes = np.unique(y)
    two = reference(case, X, y, form=form, fit_intercept=True, passes=2)
    # fit, then one partial_fit epoch: the second pass of the papers' loop
    model = quietly(one_pass(case, covariance=form).fit, X, y)
    quietly(model.partial_fit, X, y)
    assert_equals_reference(model, two, True)
    assert model.n_iter_ == 2 and model.n_mistakes_.sum() == two.mistakes
    # partial_fit in chunks: the chunks' rows in turn are one pass
    chunked = one_pass(case, covariance=form)
    for rows in (slice(0, 25), slice(25, None)):
        quietly(chunked.partial_fit, X[rows], y[rows], classes=classes)
    once = reference(case, X, y, form=form, fit_intercept=True)
    assert_equals_reference(chunked, once, True)
    assert chunked.n_mistakes_.sum() == once.mistakes and len(chunked.n_mistakes_) == 2
    # warm_start keeps the covariance (and SOP's u, IELLIP's c_t): a new run from both
    warm = quietly(one_pass(case, covariance=form).fit, X, y)
    quietly(warm.set_params(warm_start=True).fit, X, y)
    assert_equals_reference(warm, two, True)
    assert warm.n_iter_ == 1  # a new fit counts its own epochs


def test_what_goes_on_must_keep_its_form():
    X, y = data(6)
    model = quietly(AROW(max_iter=1).fit, X, y)
    model.set_params(covariance="diagonal")
    with pytest.raises(ValueError, match="covariance is full over 6 features and the "
                                         "intercept; got 6 features with "
                                         "covariance='diagonal'"):
        model.partial_fit(X, y)
    model.set_params(covariance="full", fit_intercept=False, warm_start=True)
    with pytest.raises(ValueError, match="warm_start=False to start afresh"):
        model.fit(X, y)
    # another width: refused for every estimator before the learner starts
    with pytest.raises(ValueError, match="on 6 features; X has 4"):
        quietly(AROW(warm_start=True).fit, X, y).fit(X[:, :4], y)


# ------------------------------------------------------------------ the full matrix


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_a_full_covariance_over_5000_dimensions_is_refused(cls):
    X = sp.csr_matrix((np.ones(2), [0, 1], [0, 1, 2, 2, 2]), shape=(4, 5000))
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match=r"keeps a 5001 x 5001 float64 covariance matrix "
                                         r"per problem: 200 MB.*covariance='diagonal'"):
        cls(covariance="full").fit(X, y)
    quietly(cls(covariance="full", fit_intercept=False).fit, X, y)  # 5000 dimensions are kept
    quietly(cls(covariance="diagonal").fit, X, y)
    assert quietly(cls().fit, X, y).covariance_form_ == "diagonal"  # "auto" at 5000 features
    if cls not in (MulticlassAROW, MulticlassSCW):
        with pytest.raises(ValueError, match="600 MB for 3 one-vs-rest problems"):
            cls(covariance="full").fit(X, [0, 1, 2, 0])


# ------------------------------------------------------------------ mixing


def fitted(model):
    state = {name: getattr(model, name) for name in
             ("coef_", "intercept_", "covariance_", "n_mistakes_", "n_iter_", "n_updates_",
              "converged_")}
    state["states"] = [(p.state.cov, p.state.u, p.state.c, p.state.mistakes, int(p.seen[0]))
                       for p in model._problems]
    return state


@pytest.mark.parametrize("shuffle", ["none", "once", "every_epoch"])
@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_one_shard_is_the_serial_fit_bit_for_bit(cls, shuffle):
    for labels in (2, 3):
        X, y = data(7, multiclass=True)
        y = y % labels
        for form in FORMS:
            estimator = cls(covariance=form, shuffle=shuffle, max_iter=4, random_state=2)
            serial = quietly(clone(estimator).fit, X, y)
            mixed = quietly(ParameterMixing(estimator, n_shards=1, client="threads").fit, X, y)
            one, other = fitted(serial), fitted(mixed.estimator_)
            for name in one:
                if name == "states":
                    for a, b in zip(one[name], other[name]):
                        for x, z in zip(a, b):
                            assert_array_equal(x, z)
                else:
                    assert_array_equal(one[name], other[name], err_msg=name)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_two_shards_average_the_weights_and_the_covariance(case, form):
    """One epoch on two contiguous shards: each shard's fit from the start, then the
    weights and Σ averaged, the mistakes added; SOP's weights are Σu of the means,
    IELLIP's c_t decays once per row of both shards."""
    multiclass = case[0] in (MulticlassAROW, MulticlassSCW)
    X, y = data(8, n=80, multiclass=multiclass)
    estimator = one_pass(case, covariance=form)
    mixed = quietly(ParameterMixing(estimator, n_shards=2, shard_rows="contiguous",
                                    client="threads").fit, X, y)
    halves = [quietly(clone(estimator).fit, X[rows], y[rows])
              for rows in (slice(0, 40), slice(40, 80))]
    states = [half._problems[0].state for half in halves]
    cov = (states[0].cov + states[1].cov) / 2
    problem = mixed.estimator_._problems[0]
    assert_allclose(problem.state.cov, cov, rtol=1e-12, atol=1e-15)
    if case[2] == "sop":
        u = (states[0].u + states[1].u) / 2
        w = cov @ u if form == "full" else cov * u
        assert_allclose(mixed.coef_[0], w[:-1], rtol=1e-12, atol=1e-15)
        assert_allclose(mixed.intercept_[0], w[-1], rtol=1e-12, atol=1e-15)
    else:
        assert_allclose(mixed.coef_, (halves[0].coef_ + halves[1].coef_) / 2, rtol=1e-12,
                        atol=1e-15)
        assert_allclose(mixed.intercept_, (halves[0].intercept_ + halves[1].intercept_) / 2,
                        rtol=1e-12, atol=1e-15)
    if case[2] == "iellip":
        assert_allclose(problem.state.c[0], 0.3 * 0.9 ** 80, rtol=1e-12)
    assert mixed.estimator_.n_mistakes_.tolist() == [halves[0].n_mistakes_[0]
                                                     + halves[1].n_mistakes_[0]]
    assert int(problem.seen[0]) == 80


def test_both_covariance_mixes_average_by_mu():
    start, parts, mu = np.array([1.0, 2.0]), [np.array([0.5, 1.0]), np.array([1.0, 0.5])], \
        np.array([0.5, 0.5])
    assert_allclose(_second_order.mix_covariance(start, parts, mu, "covariance"), [0.75, 0.75])
    assert_allclose(_second_order.mix_covariance(start, parts, mu, "precision"),
                    [2 / 3, 2 / 3])
    full = [np.diag(p) for p in parts]
    assert_allclose(_second_order.mix_covariance(np.diag(start), full, mu, "precision"),
                    np.diag([2 / 3, 2 / 3]))


# ------------------------------------------------------------------ renumbering, trace, files


def scattered(n=300, d=2000, per_row=8, seed=0):
    rng = np.random.RandomState(seed)
    indices = (rng.zipf(1.3, size=n * per_row) * 7919) % d
    X = sp.csr_matrix((rng.randint(1, 5, size=n * per_row).astype(float), indices,
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, d))
    X.sum_duplicates()
    score = X @ rng.randn(d)
    return X, np.where(score > np.median(score), 1, -1)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("cls", [SecondOrderPerceptron, AROW, IELLIP, MulticlassSCW],
                         ids=lambda cls: cls.__name__)
def test_renumbered_columns_change_nothing(cls, form, monkeypatch):
    """The diagonal state moves with the columns; a full Σ is not renumbered."""
    from rosenblatt.base import _columns

    X, y = scattered(d=2000 if form == "diagonal" else 400)
    calls = []
    original = _columns.frequency_order
    monkeypatch.setattr(_columns, "frequency_order",
                        lambda X: calls.append(X.shape) or original(X))
    fits = []
    for setting in (False, True):
        with rosenblatt.config_context(renumber_columns=setting):
            fits.append(quietly(cls(covariance=form, max_iter=3, random_state=0).fit, X, y))
    plain, renumbered = fits
    for name in ("coef_", "intercept_", "covariance_", "n_mistakes_"):
        assert_array_equal(getattr(plain, name), getattr(renumbered, name))
    assert all(p.columns is None for p in renumbered._problems)
    assert calls == ([X.shape] if form == "diagonal" else [])


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_trace_holds_the_weights_after_each_update(case, form):
    """record=True: a snapshot per update, the weights the epoch had right after it
    (bit for bit those of a pass over the rows up to it), and the same fit."""
    multiclass = case[0] in (MulticlassAROW, MulticlassSCW)
    X, y = data(9, n=40, multiclass=multiclass)
    traced = quietly(one_pass(case, covariance=form, max_iter=2, record=True).fit, X, y)
    plain = quietly(one_pass(case, covariance=form, max_iter=2).fit, X, y)
    assert_array_equal(traced.coef_, plain.coef_)
    assert_array_equal(traced.covariance_, plain.covariance_)
    trace = traced.trace_
    assert len(trace) == traced.n_updates_ and np.isnan(trace.update).all()
    first = trace.epoch == 1
    for k in np.flatnonzero(first)[::5]:
        row = trace.index[k]
        prefix = quietly(one_pass(case, covariance=form).fit, X[:row + 1], y[:row + 1]) \
            if len(np.unique(y[:row + 1])) == len(np.unique(y)) else None
        if prefix is None:
            continue
        assert_array_equal(np.atleast_2d(trace.coef[k]).reshape(prefix.coef_.shape),
                           prefix.coef_)
    last = trace.coef[-1] if multiclass else trace.coef[-1][None, :]
    assert_array_equal(last, plain.coef_)


@pytest.mark.parametrize("cls", [AROW, SecondOrderPerceptron, IELLIP, MulticlassAROW],
                         ids=lambda cls: cls.__name__)
def test_recording_is_refused_on_several_shards(cls):
    X, y = data(10)
    with pytest.raises(ValueError, match="record=True"):
        ParameterMixing(cls(record=True), n_shards=2, client="threads").fit(X, y)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_a_model_file_predicts_and_goes_on(cls, form, tmp_path):
    X, y = data(11, multiclass=True)
    model = quietly(cls(covariance=form, max_iter=2, random_state=1).fit, X, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert_array_equal(loaded.predict(X), model.predict(X))
    assert_array_equal(loaded.covariance_, model.covariance_)
    assert_array_equal(loaded.n_mistakes_, model.n_mistakes_)
    for one in (model, loaded):
        quietly(one.partial_fit, X, y)
    for name in ("coef_", "intercept_", "covariance_", "n_mistakes_"):
        assert_array_equal(getattr(loaded, name), getattr(model, name))


def _forge(path, change):
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    change(arrays)
    np.savez(path, **arrays)


@pytest.mark.parametrize("training_state", [True, False])
@pytest.mark.parametrize("form", FORMS)
def test_a_forged_covariance_is_refused(form, training_state, tmp_path):
    X, y = data(12, multiclass=True)
    model = quietly(AROW(covariance=form, max_iter=2, random_state=1).fit, X, y)
    path = tmp_path / "m.npz"
    spoils = {
        "covariance_": [lambda a: a[..., :-1], lambda a: np.where(a == a.max(), np.nan, a),
                        lambda a: a.astype(np.float32)],
        "n_mistakes_": [lambda a: a.astype(np.float64), lambda a: -a],
    }
    if training_state:
        spoils["training0.state.cov"] = [lambda a: a[:-1], lambda a: a * np.nan]
    for key, changes in spoils.items():
        for change in changes:
            save(model, path, training_state=training_state)
            _forge(path, lambda arrays: arrays.update({key: change(arrays[key])}))
            expected = "training state problem0.state.cov" if key.startswith("training") \
                else key
            with pytest.raises(ModelFileError, match=expected):
                load(path)
    if training_state:  # a covariance_ that the state does not give
        save(model, path)
        _forge(path, lambda arrays: arrays.update(covariance_=arrays["covariance_"] * 2))
        with pytest.raises(ModelFileError, match="does not give the stored covariance_"):
            load(path)


# ------------------------------------------------------------------ a9a


@pytest.fixture(scope="module")
def a9a_pair(shared_data):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(shared_data / "a9a"), n_features=123)
    Xt, yt = load_svmlight_file(str(shared_data / "a9a.t"), n_features=123)
    return X.tocsr(), y.astype(int), Xt.tocsr(), yt.astype(int)


def test_a9a_one_pass_mistake_rates(a9a_pair):
    """LIBOL's online mistake rate of one pass (n_mistakes_[0] / n): about 16 % for
    AROW and 22 % for the perceptron in the literature (Hoi et al. 2014, a9a)."""
    X, y, _, _ = a9a_pair
    rates = {}
    for form in FORMS:
        model = quietly(AROW(covariance=form, max_iter=1, random_state=0).fit, X, y)
        rates[f"AROW {form}"] = model.n_mistakes_[0] / len(y)
    perceptron = quietly(Perceptron(max_iter=1, tol=None, random_state=0).fit, X, y)
    rates["Perceptron"] = perceptron.n_updates_ / len(y)
    print(rates)
    assert 0.14 < rates["AROW full"] < 0.18 and 0.14 < rates["AROW diagonal"] < 0.18
    assert 0.19 < rates["Perceptron"] < 0.25


def test_a9a_mixing_on_four_shards_keeps_the_accuracy(a9a_pair):
    X, y, Xt, yt = a9a_pair
    estimator = AROW(covariance="diagonal", max_iter=3, random_state=0)
    serial = quietly(clone(estimator).fit, X, y).score(Xt, yt)
    mixed = quietly(ParameterMixing(estimator, n_shards=4, client="threads").fit, X, y)
    print(f"AROW diagonal, 3 epochs: serial {serial:.4f}, 4 shards {mixed.score(Xt, yt):.4f}")
    assert abs(mixed.score(Xt, yt) - serial) < 0.005 and serial > 0.84


# ------------------------------------------------------------------ covariance="auto"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_auto_covariance_is_full_up_to_200_features_and_diagonal_above(cls, tmp_path):
    from rosenblatt.io import load, save
    from rosenblatt.linear_model._second_order import AUTO_FULL_MAX_FEATURES

    assert cls().covariance == "auto" and AUTO_FULL_MAX_FEATURES == 200
    rng = np.random.RandomState(0)
    for d, form in ((200, "full"), (201, "diagonal")):
        X = rng.standard_normal((12, d))
        y = np.arange(12) % 3  # one-vs-rest (stacked Σ) or one shared Σ
        model = quietly(cls(max_iter=2, random_state=0).fit, X, y)
        assert model.covariance_form_ == form
        explicit = quietly(cls(max_iter=2, covariance=form, random_state=0).fit, X, y)
        np.testing.assert_array_equal(model.covariance_, explicit.covariance_)
        np.testing.assert_array_equal(model.coef_, explicit.coef_)
        save(model, tmp_path / "m.npz")  # the file keeps "auto"; loading resolves it again
        loaded = load(tmp_path / "m.npz")
        assert loaded.covariance == "auto" and loaded.covariance_form_ == form
        np.testing.assert_array_equal(loaded.partial_fit(X, y).coef_,
                                      model.partial_fit(X, y).coef_)
    binary = quietly(cls(max_iter=1).fit, X[:, :3], np.arange(12) % 2)
    assert binary.covariance_form_ == "full" and binary.covariance_.shape == (3, 3)
    with pytest.raises(ValueError, match=r"covariance='diagonal' \(here 'diagonal'\)"):
        # a run keeps its form: covariance='diagonal' cannot go on from the full Σ
        binary.set_params(covariance="diagonal").partial_fit(X[:, :3], np.arange(12) % 2)
