"""FTRLProximal (McMahan et al., KDD 2013, Algorithm 1) as the paper writes it: one pass
equals the plain loop of ``tests/_papers_ftrl.py`` on dense and CSR data, with and
without intercept, with sample weights, one-vs-rest; its probabilities; exact zeros; the
state ``z, n`` goes on exactly through ``partial_fit``, warm starts and model files, and
mixes by averaging; hashed (wide) rows; bad parameters and overflow refused."""

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

import rosenblatt
from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.linear_model import FTRLProximal, OnlineGradientDescent

from . import _papers_ftrl as papers

TOL = {"rtol": 1e-9, "atol": 1e-12}
D = 8


def fit(model, X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kwargs)


def make_data(seed=0, n=120, d=D, n_classes=2):
    """Rows with 40 % zeros (one row all zero), two columns never set, labels from a
    planted model with noise."""
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((n, d))
    X[rng.rand(n, d) < 0.4] = 0.0
    X[5] = 0.0
    X[:, 3] = 0.0  # a feature no row has: FTRL never touches its coordinate
    scores = X @ rng.standard_normal((d, n_classes)) + 0.5 * rng.standard_normal((n, n_classes))
    if n_classes == 2:
        return X, (scores[:, 0] > np.median(scores[:, 0])).astype(int)
    return X, np.argmax(scores, axis=1)


def layout(X, name):
    return sp.csr_matrix(X) if name == "csr" else X


def one_pass(**params):
    return FTRLProximal(shuffle="none", max_iter=1, **params)


#: rates with no regularisation, the paper's defaults, and a strong L1 (many exact zeros)
RATES = [{"alpha": 0.5, "beta": 0.0, "l1": 0.0, "l2": 0.0},
         {"alpha": 0.1, "beta": 1.0, "l1": 1.0, "l2": 1.0},
         {"alpha": 1.0, "beta": 0.5, "l1": 8.0, "l2": 0.1}]


# ---------------------------------------------------------------- the paper's loop

@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-intercept", "intercept"])
@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("rates", RATES, ids=lambda r: "-".join(f"{k}{v}" for k, v in r.items()))
def test_one_pass_is_the_papers_algorithm(rates, form, fit_intercept):
    X, y = make_data(1)
    model = fit(one_pass(fit_intercept=fit_intercept, **rates), layout(X, form), y)
    run = papers.ftrl(X, y, fit_intercept=fit_intercept, **rates)
    assert_allclose(model.coef_[0], run.w, **TOL)
    assert_allclose(model.intercept_[0], run.b, **TOL)
    assert_array_equal(model.coef_[0] == 0, run.w == 0)  # the same exact zeros
    assert_allclose(model.predict_proba(layout(X, form))[:, 1],
                    papers.probabilities(X, run.w, run.b), **TOL)
    assert model.n_mistakes_.tolist() == [run.mistakes]
    assert model.n_updates_ == run.updates and model.n_iter_ == 1
    problem = model._problems[0]
    assert_allclose(problem.coef, run.z, **TOL)  # the state is z and n
    assert_allclose(problem.state.n, run.n, **TOL)
    assert problem.coef[3] == 0.0 and problem.state.n[3] == 0.0  # never touched


def test_strong_l1_gives_exact_zeros():
    X, y = make_data(2)
    rates = RATES[2]
    model = fit(one_pass(**rates), X, y)
    run = papers.ftrl(X, y, **rates)
    share = float(np.mean(model.coef_ == 0))
    assert share == float(np.mean(run.w == 0)) and 0.2 < share < 1.0
    assert_array_equal(model.coef_[0] == 0, np.abs(run.z) <= rates["l1"])


@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-intercept", "intercept"])
@pytest.mark.parametrize("form", ["dense", "csr"])
def test_sample_weights_scale_the_gradient(form, fit_intercept):
    """A row's weight multiplies its gradient (``n`` adds its square); 0 is absent."""
    X, y = make_data(3)
    sw = np.random.RandomState(0).choice([0.0, 0.5, 1.0, 3.0], size=len(y))
    model = fit(one_pass(fit_intercept=fit_intercept), layout(X, form), y, sample_weight=sw)
    run = papers.ftrl(X, y, fit_intercept=fit_intercept, sample_weight=sw)
    assert_allclose(model.coef_[0], run.w, **TOL)
    assert_allclose(model.intercept_[0], run.b, **TOL)
    assert model.n_mistakes_.tolist() == [run.mistakes]
    assert model._problems[0].seen[0] == np.count_nonzero(sw)
    weighted = fit(one_pass(class_weight={0: 0.5, 1: 3.0}), X, y)
    run = papers.ftrl(X, y, sample_weight=np.where(y == 1, 3.0, 0.5))
    assert_allclose(weighted.coef_[0], run.w, **TOL)


def test_float32_rows_are_read_as_float64():
    X, y = make_data(4)
    X32 = X.astype(np.float32)
    model = fit(one_pass(), X32, y)
    run = papers.ftrl(X32.astype(np.float64), y)
    assert_allclose(model.coef_[0], run.w, **TOL)
    csr = fit(one_pass(), sp.csr_matrix(X32), y)
    assert_allclose(csr.coef_, model.coef_, **TOL)


def test_one_vs_rest_is_the_papers_loop_per_class_and_probabilities_normalise():
    X, y = make_data(5, n_classes=3)
    labels = np.array(["ant", "bee", "cat"])[y]
    model = fit(one_pass(n_jobs=2), X, labels)
    assert model.coef_.shape == (3, D)
    sigmas, mistakes = [], 0
    for k in range(3):
        run = papers.ftrl(X, (y == k).astype(int))
        assert_allclose(model.coef_[k], run.w, **TOL)
        assert_allclose(model.intercept_[k], run.b, **TOL)
        sigmas.append(papers.probabilities(X, run.w, run.b))
        mistakes += run.mistakes
    assert model.n_mistakes_.tolist() == [mistakes]
    sigmas = np.column_stack(sigmas)
    expected = sigmas / sigmas.sum(axis=1, keepdims=True)  # scikit-learn's _predict_proba_lr
    assert_allclose(model.predict_proba(X), expected, **TOL)
    assert_allclose(model.predict_log_proba(X), np.log(expected), **TOL)
    assert_array_equal(model.classes_[np.argmax(model.predict_proba(X), axis=1)],
                       model.predict(X))


def test_binary_probabilities_are_the_logistic_of_the_score():
    X, y = make_data(6)
    model = fit(FTRLProximal(alpha=0.5, random_state=0, max_iter=5), X, y)
    scores = model.decision_function(X)
    proba = model.predict_proba(X)
    assert proba.shape == (len(y), 2)
    assert_allclose(proba[:, 1], 1.0 / (1.0 + np.exp(-scores)), rtol=1e-12)
    assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    assert_array_equal(model.classes_[np.argmax(proba, axis=1)], model.predict(X))
    # far scores keep their logarithms (no log of a probability rounded to 0 or 1)
    model.coef_ = model.coef_ * 1e4
    far_scores = model.decision_function(X)
    far = model.predict_log_proba(X)
    assert np.all(np.isfinite(far)) and far.min() < -1000  # exp of it rounds to 0
    assert_allclose(far[:, 1], -np.logaddexp(0.0, -far_scores), rtol=1e-12)
    assert_allclose(far[:, 0], -np.logaddexp(0.0, far_scores), rtol=1e-12)


def test_probabilities_are_calibrated_on_logistic_data():
    """Rows drawn from a logistic model: a few passes give probabilities close to the
    true ones (a check of the loss, not of the arithmetic)."""
    rng = np.random.RandomState(7)
    X = rng.standard_normal((4000, 3))
    truth = 1.0 / (1.0 + np.exp(-(X @ [1.5, -1.0, 0.5] - 0.5)))
    y = (rng.rand(4000) < truth).astype(int)
    model = fit(FTRLProximal(alpha=0.3, l1=0.0, l2=0.0, max_iter=5, tol=None,
                             random_state=0), X, y)
    assert np.mean(np.abs(model.predict_proba(X)[:, 1] - truth)) < 0.03


# --------------------------------------------------------------- going on exactly

def state_of(model):
    out = []
    for problem in model._problems:
        out += [problem.coef.copy(), problem.intercept.copy(), problem.seen.copy(),
                problem.state.n.copy(), problem.state.n_intercept.copy()]
    return out


def test_partial_fit_goes_on_exactly_where_the_pass_was():
    X, y = make_data(8)
    whole = fit(one_pass(), X, y)
    halves = one_pass()
    halves.partial_fit(X[:50], y[:50], classes=[0, 1]).partial_fit(X[50:], y[50:])
    for a, b in zip(state_of(halves), state_of(whole)):
        assert_array_equal(a, b)
    assert halves.n_mistakes_.sum() == whole.n_mistakes_.sum()
    two = fit(FTRLProximal(shuffle="none", max_iter=2, tol=None), X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole.partial_fit(X, y)
    assert two.n_iter_ == 2
    assert_array_equal(whole.coef_, two.coef_)
    assert_array_equal(whole.n_mistakes_, two.n_mistakes_)
    # and the second epoch is the paper's loop from the first's z and n
    first = papers.ftrl(X, y)
    second = papers.ftrl(X, y, state=(first.z, first.n, first.z_b, first.n_b))
    assert_allclose(two.coef_[0], second.w, **TOL)


def test_set_params_between_partial_fit_calls_changes_the_rates():
    X, y = make_data(9)
    model = one_pass().partial_fit(X[:60], y[:60], classes=[0, 1])
    model.set_params(alpha=0.7, l1=0.0)
    model.partial_fit(X[60:], y[60:])
    first = papers.ftrl(X[:60], y[:60])
    run = papers.ftrl(X[60:], y[60:], alpha=0.7, l1=0.0,
                      state=(first.z, first.n, first.z_b, first.n_b))
    assert_allclose(model.coef_[0], run.w, **TOL)


def test_warm_start_goes_on_from_z_and_n():
    X, y = make_data(10)
    model = fit(FTRLProximal(shuffle="none", max_iter=1, warm_start=True), X, y)
    fit(model, X, y)
    two = fit(FTRLProximal(shuffle="none", max_iter=2, tol=None), X, y)
    assert_array_equal(model.coef_, two.coef_)
    assert_array_equal(model.intercept_, two.intercept_)
    assert model._problems[0].seen[0] == len(y)  # the counters start afresh


def test_stopping_follows_online_gradient_descents_logistic_rule():
    """The loss-driven sibling's rule: a mistake-free epoch confirmed on the weights
    (separable rows), else a stall of the mistakes by tol; never a claim of convergence
    on data no line separates."""
    rng = np.random.RandomState(11)
    X = rng.standard_normal((200, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    X[y == 1] += 1.0
    X[y == 0] -= 1.0  # separated by a margin
    model = FTRLProximal(alpha=1.0, l1=0.0, l2=0.0, random_state=0).fit(X, y)
    assert model.converged_ and model.stop_reason_ == "mistake_free"
    assert model.score(X, y) == 1.0
    noisy = rng.standard_normal((300, 3))
    labels = rng.randint(2, size=300)
    for cls in (FTRLProximal, OnlineGradientDescent):
        params = {"loss": "logistic"} if cls is OnlineGradientDescent else {}
        stalled = cls(random_state=0, **params).fit(noisy, labels)
        assert not stalled.converged_ and stalled.stop_reason_ == "tol"
    with pytest.warns(ConvergenceWarning, match="FTRLProximal ran max_iter=2 epochs"):
        FTRLProximal(random_state=0, max_iter=2).fit(noisy, labels)


# -------------------------------------------------------------------- wide rows

def hashed(n=400, width=2**20, per_row=12, seed=12, index_dtype=np.int32):
    """Binary hashed rows: ``per_row`` columns out of 2²⁰ drawn from a few hundred."""
    rng = np.random.RandomState(seed)
    vocabulary = rng.choice(width, size=300, replace=False)
    weights = rng.standard_normal(300)
    picks = np.array([np.sort(rng.choice(300, size=per_row, replace=False)) for _ in range(n)])
    indices = vocabulary[picks].astype(index_dtype)
    order = np.argsort(indices, axis=1)
    X = sp.csr_matrix((np.ones(n * per_row), np.take_along_axis(indices, order, 1).ravel(),
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, width))
    X.indices, X.indptr = X.indices.astype(index_dtype), X.indptr.astype(index_dtype)
    y = (weights[picks].sum(axis=1) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_hashed_rows_train_as_their_used_columns(index_dtype):
    """2²⁰ columns (the prefetching kernel, binary rows) give, bit for bit, the model of
    the same rows on their used columns only: the untouched coordinates stay 0."""
    X, y = hashed(index_dtype=index_dtype)
    assert X.indices.dtype == index_dtype
    used = np.unique(X.indices)
    wide = fit(FTRLProximal(max_iter=3, random_state=0), X, y)
    narrow = fit(FTRLProximal(max_iter=3, random_state=0), X[:, used], y)
    assert_array_equal(wide.coef_[:, used], narrow.coef_)
    assert_array_equal(wide.intercept_, narrow.intercept_)
    mask = np.ones(X.shape[1], dtype=bool)
    mask[used] = False
    assert not wide.coef_[:, mask].any() and not wide._problems[0].state.n[mask].any()
    scaled = X.copy()
    scaled.data = scaled.data * 2.0  # not binary: the kernel that reads the values
    doubled = fit(FTRLProximal(max_iter=3, random_state=0), scaled, y)
    run = fit(FTRLProximal(max_iter=3, random_state=0), scaled[:, used], y)
    assert_array_equal(doubled.coef_[:, used], run.coef_)


def test_renumbered_columns_change_no_result(monkeypatch):
    from .test_renumbering import fit_both, scattered

    X, y, _ = scattered()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        (plain, renumbered), calls = fit_both(FTRLProximal(max_iter=3, random_state=0), X, y,
                                              monkeypatch)
    assert calls == [X.shape]
    assert_array_equal(plain.coef_, renumbered.coef_)
    assert_array_equal(plain._problems[0].state.n, renumbered._problems[0].state.n)


def test_the_trace_holds_the_published_weights_after_every_update():
    X, y = make_data(13, n=30)
    model = fit(one_pass(record=True), X, y)
    trace = model.trace_
    assert len(trace.coef) == model.n_updates_
    assert_array_equal(trace.coef[-1], model.coef_[0])
    assert trace.intercept[-1] == model.intercept_[0]


# ---------------------------------------------------------------------- mixing

def test_two_shards_average_z_and_n():
    X, y = make_data(14)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(one_pass(), n_shards=2, shard_rows="contiguous",
                                client="threads").fit(X, y)
    runs = [papers.ftrl(X[rows], y[rows]) for rows in (slice(0, 60), slice(60, 120))]
    z, n = (runs[0].z + runs[1].z) / 2, (runs[0].n + runs[1].n) / 2
    z_b, n_b = (runs[0].z_b + runs[1].z_b) / 2, (runs[0].n_b + runs[1].n_b) / 2
    problem = mixed.estimator_._problems[0]
    assert_allclose(problem.coef, z, **TOL)
    assert_allclose(problem.state.n, n, **TOL)
    expected = [papers.weight(a, b, 0.2, 1.0, 1.0, 1.0) for a, b in zip(z, n)]
    assert_allclose(mixed.coef_[0], expected, **TOL)
    assert_allclose(mixed.intercept_[0], papers.weight(z_b, n_b, 0.2, 1.0, 0.0, 0.0), **TOL)
    assert problem.seen[0] == len(y)
    assert mixed.estimator_.n_mistakes_.tolist() == [runs[0].mistakes + runs[1].mistakes]


def test_shards_that_saw_the_same_rows_mix_into_their_own_state():
    X, y = make_data(15)
    serial = fit(one_pass(), X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(one_pass(), n_shards=2, shard_rows="contiguous",
                                client="threads").fit(np.vstack([X, X]), np.r_[y, y])
    assert_array_equal(mixed.coef_, serial.coef_)
    assert_array_equal(mixed.estimator_._problems[0].state.n, serial._problems[0].state.n)


def test_one_shard_is_the_serial_fit_over_several_epochs():
    X, y = make_data(16, n_classes=3)
    params = {"max_iter": 4, "random_state": 2}
    serial = fit(FTRLProximal(**params), X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        one = ParameterMixing(FTRLProximal(**params), n_shards=1, client="threads").fit(X, y)
    for a, b in zip(state_of(one.estimator_), state_of(serial)):
        assert_array_equal(a, b)


@pytest.mark.parametrize("mixing", ["uniform", "errors"])
def test_several_shards_learn(mixing):
    X, y = make_data(17, n=300, n_classes=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(FTRLProximal(alpha=0.5, max_iter=5, random_state=3),
                                n_shards=3, mixing=mixing, client="threads").fit(X, y)
    assert mixed.score(X, y) > 0.7
    assert all(problem.seen[0] == problem.n_iter * len(y)
               for problem in mixed.estimator_._problems)


# ------------------------------------------------------------------ model files

def test_a_model_file_predicts_and_goes_on_bit_for_bit(tmp_path):
    X, y = make_data(18, n_classes=3)
    model = fit(FTRLProximal(max_iter=2, random_state=3), X, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    for part in (slice(0, 50), slice(50, 120)):
        model.partial_fit(X[part], y[part])
        loaded.partial_fit(X[part], y[part])
    for a, b in zip(state_of(loaded), state_of(model)):
        assert_array_equal(a, b)
    assert_array_equal(loaded.coef_, model.coef_)
    assert_array_equal(loaded.n_mistakes_, model.n_mistakes_)


def rewrite(path, change):
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    change(meta, arrays)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def state_array(name, value):
    def change(meta, arrays):
        arrays[name] = value(arrays[name])
    return change


def state_field(name, value):
    def change(meta, arrays):
        meta["training"][0]["state"]["fields"][name] = value
    return change


def first_negative(n):
    n = n.copy()
    n[0] = -1.0
    return n


@pytest.mark.parametrize("change, message", [
    (state_array("training0.state.n", first_negative), r"state.n holds -1.0, below 0"),
    (state_array("training0.state.n", lambda n: n * np.nan), r"state.n holds NaN"),
    (state_array("training0.state.n", lambda n: n[:-1]), r"state.n has shape \(7,\), expected"),
    (state_array("training0.state.n_intercept", lambda n: -n), r"n_intercept holds -\d"),
    (state_array("training0.state.n", lambda n: n * 4), "does not give the stored coef_"),
    (state_array("training0.coef", lambda z: z + np.inf), "coef holds NaN or infinity"),
    (state_field("alpha", -0.1), r"state.alpha must be a finite number > 0"),
    (state_field("l1", "big"), r"state.l1 must be a finite number >= 0"),
])
def test_forged_states_are_refused(change, message, tmp_path):
    X, y = make_data(19)
    path = tmp_path / "m.npz"
    save(fit(FTRLProximal(max_iter=2, random_state=0, l1=0.1), X, y), path)
    rewrite(path, change)
    with pytest.raises(ModelFileError, match=message):
        load(path)


# ------------------------------------------------------------------- bad input

@pytest.mark.parametrize("params, name", [
    ({"alpha": 0.0}, "alpha"), ({"alpha": -1.0}, "alpha"), ({"alpha": np.inf}, "alpha"),
    ({"beta": -0.5}, "beta"), ({"l1": -1.0}, "l1"), ({"l2": np.nan}, "l2"),
    ({"l1": True}, "l1"), ({"beta": "1"}, "beta"),
])
def test_invalid_rates_are_refused_by_name(params, name):
    X, y = make_data(20)
    with pytest.raises(InvalidParameterError, match=f"The '{name}' parameter of FTRLProximal"):
        FTRLProximal(**params).fit(X, y)
    with pytest.raises(InvalidParameterError, match=f"'{name}'"):
        FTRLProximal(**params).partial_fit(X, y, classes=[0, 1])


def test_overflowing_state_is_refused():
    X, y = make_data(21)
    # the gradients are bounded by the rows' values times their weights, and X whose
    # squares overflow is refused by validation: huge weights make n = Σ g² overflow
    with pytest.raises(ValueError, match="FTRLProximal ran into infinite or NaN weights"):
        FTRLProximal(max_iter=2).fit(X, y, sample_weight=np.full(len(y), 1e200))


def test_beta_zero_steps_by_alpha_at_first():
    """β = 0: a coordinate's first weight after one gradient g is
    −(g − sgn(g) λ1)/(|g|/α + λ2); with λ1 = λ2 = 0, −α sgn(g)."""
    model = FTRLProximal(alpha=0.25, beta=0.0, l1=0.0, l2=0.0, shuffle="none", max_iter=1,
                         fit_intercept=False)
    model.partial_fit([[2.0, 0.0, -3.0]], [1], classes=[0, 1])
    assert model.coef_.tolist() == [[0.25, 0.0, -0.25]]


def test_exported_and_registered():
    from rosenblatt.engine import make_estimator

    assert rosenblatt.FTRLProximal is FTRLProximal
    assert "FTRLProximal" in rosenblatt.linear_model.__all__
    assert type(make_estimator("ftrl")) is FTRLProximal


def test_dask_workers_mix_the_state_as_threads_do():
    """z, n and the rates travel to the workers and back: the same bits as threads."""
    distributed = pytest.importorskip("distributed")
    X, y = make_data(22, n=150, n_classes=3)
    estimator = FTRLProximal(alpha=0.5, max_iter=3, random_state=3)
    fit(FTRLProximal(max_iter=1), X, y)  # compiled here first: the workers load the disk cache
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = ParameterMixing(estimator, n_shards=2, client="threads").fit(X, y)
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None,
                                      env={"NUMBA_NUM_THREADS": "1"}) as cluster, \
                distributed.Client(cluster) as client:
            remote = ParameterMixing(estimator, n_shards=2, client=client).fit(X, y)
    assert remote.backend_ == "dask"
    for a, b in zip(state_of(remote.estimator_), state_of(local.estimator_)):
        assert_array_equal(a, b)


PYTHON_KERNEL = """
import json, warnings
import numpy as np, scipy.sparse as sp
from rosenblatt.linear_model import FTRLProximal
warnings.simplefilter("ignore")
rng = np.random.RandomState(0)
X = rng.standard_normal((40, 4))
X[rng.rand(40, 4) < 0.3] = 0.0
y = (X @ [1.0, -2.0, 0.5, 0.0] > 0).astype(int)
wide = sp.csr_matrix((np.ones(120), rng.randint(0, 2**18, size=120), np.arange(0, 121, 3)),
                     shape=(40, 2**18))
out = {}
for name, data in (("dense", X), ("float32", X.astype(np.float32)), ("csr", sp.csr_matrix(X)),
                   ("wide", wide)):
    model = FTRLProximal(alpha=0.5, l1=0.2, random_state=1, max_iter=4,
                         record=name != "wide")  # a trace copies every weight per update
    model.fit(data, y)
    out[name] = [model.intercept_.tolist(), model.coef_[0, :4].tolist(),
                 model.predict_proba(data)[:, 1].tolist()]
print(json.dumps(out))
"""


def test_the_plain_python_kernel_equals_the_compiled_one():
    """What runs under NUMBA_DISABLE_JIT=1 (and what coverage sees) is the same rule."""
    import os
    import subprocess
    import sys

    results = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        done = subprocess.run([sys.executable, "-c", PYTHON_KERNEL], env=env,
                              capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout))
    python, compiled = results
    assert python.keys() == compiled.keys() == {"dense", "float32", "csr", "wide"}
    for key in python:
        for a, b in zip(python[key], compiled[key]):
            assert_allclose(a, b, rtol=1e-12, atol=1e-14, err_msg=key)


# ------------------------------------------------------------------- files

def test_a_hashed_libsvm_file_in_blocks_trains_as_in_memory(tmp_path):
    """The click-log case: a LIBSVM file of wide binary rows, read in blocks of 37
    rows, gives the model of the same rows in memory, bit for bit."""
    from sklearn.datasets import dump_svmlight_file

    from rosenblatt.datasets import ChunkedFile
    from rosenblatt.streaming import fit_chunks

    X, y = hashed(n=300, width=2**18, per_row=8)
    path = tmp_path / "clicks.svm"
    dump_svmlight_file(X, y, str(path), zero_based=True)
    params = {"shuffle": "none", "max_iter": 3, "tol": None, "alpha": 0.5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        streamed = fit_chunks(FTRLProximal(**params),
                              ChunkedFile(path, 37, n_features=2**18, zero_based=True))
        in_memory = FTRLProximal(**params).fit(X, y)
    for a, b in zip(state_of(streamed), state_of(in_memory)):
        assert_array_equal(a, b)
    assert_array_equal(streamed.n_mistakes_, in_memory.n_mistakes_)


def test_a_shuffled_file_resumes_exactly(tmp_path):
    from rosenblatt.datasets import ChunkedFile
    from rosenblatt.streaming import fit_chunks

    X, y = make_data(23)
    path = tmp_path / "d.npy"
    np.save(path, np.column_stack([X, y]))
    params = {"random_state": 0, "tol": None}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole = fit_chunks(FTRLProximal(max_iter=5, **params), ChunkedFile(path, 16))
        first = fit_chunks(FTRLProximal(max_iter=2, **params), ChunkedFile(path, 16))
        save(first, tmp_path / "m.npz")
        resumed = fit_chunks(load(tmp_path / "m.npz").set_params(max_iter=5),
                             ChunkedFile(path, 16), n_epochs=3, resume=True)
    for a, b in zip(state_of(resumed), state_of(whole)):
        assert_array_equal(a, b)
    assert resumed.n_iter_ == whole.n_iter_ == 5


@pytest.mark.parametrize("chunk_size", [None, 7])
def test_the_epoch_loss_is_the_progressive_log_loss_of_the_paper(chunk_size, tmp_path):
    # each row's log-loss before its update, weighted, over every block of the epoch:
    # what the command line's pass line prints, as Vowpal Wabbit does
    from rosenblatt.datasets import ChunkedFile
    from rosenblatt.engine import on_epoch
    from rosenblatt.streaming import fit_chunks
    rng = np.random.RandomState(3)
    X = rng.randn(40, 4) * (rng.rand(40, 4) < 0.6)
    y = (X @ rng.randn(4) + 0.3 * rng.randn(40) > 0).astype(int)
    sw = rng.uniform(0.5, 2.0, size=40) if chunk_size is None else None
    expected = papers.ftrl(X, y, sample_weight=sw).loss
    model = FTRLProximal(shuffle="none", max_iter=1)
    if chunk_size is None:
        model.partial_fit(X, y, classes=[0, 1], sample_weight=sw)
    else:
        np.save(tmp_path / "rows.npy", np.column_stack([X, y]))
        losses = []
        with warnings.catch_warnings(), on_epoch(model, lambda p: losses.append(p.epoch_loss)):
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit_chunks(model, ChunkedFile(tmp_path / "rows.npy", chunk_size))
        assert len(losses) == 1 and abs(losses[0] - expected) < 1e-12
    assert abs(model._problems[0].epoch_loss - expected) < 1e-12
