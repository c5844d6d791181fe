"""The one engine: a serial fit is the training loop on one shard, parameter mixing
the same loop on several; ``make_estimator`` and ``on_epoch``.

The matrix below is the promise of ``ParameterMixing``'s docstring: for every
estimator, option and shuffle mode, one shard is the serial fit bit for bit,
and no option is dropped on the way to the shards.
"""

import ast
import pathlib
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import (
    AROW,
    IELLIP,
    NAROW,
    NHERD,
    PLA,
    AveragedPerceptron,
    BatchPerceptron,
    ConfidenceWeighted,
    KernelPerceptron,
    LinearUnit,
    MulticlassAROW,
    MulticlassPerceptron,
    MulticlassSCW,
    PassiveAggressiveClassifier,
    Perceptron,
    PocketPerceptron,
    SecondOrderPerceptron,
    SoftConfidenceWeighted,
    VotedPerceptron,
)
from rosenblatt.distributed import ParameterMixing
from rosenblatt.linear_model import (
    ALMA,
    ROMMA,
    BalancedWinnow,
    FTRLProximal,
    MulticlassPassiveAggressive,
    OnlineGradientDescent,
    PNormPerceptron,
    Winnow,
)
from rosenblatt.engine import make_estimator, on_epoch

from ._estimators import ALL
from .conftest import integer_blobs

SHUFFLES = ["none", "once", "every_epoch"]

#: every option of every estimator that changes what training does
OPTIONS = {
    Perceptron: [{}, {"margin": 0.5}, {"h0": 0.5}, {"h0": 0.0}, {"penalty": "l2"},
                 {"penalty": "l1", "tol": 1e-3}, {"penalty": "elasticnet", "alpha": 0.01},
                 {"tol": 1e-3}, {"eta": 0.5, "init": "normal"}, {"weights_dtype": "float32"},
                 {"early_stopping": True, "n_iter_no_change": 2},
                 {"class_weight": "balanced"}, {"class_weight": {1: 2.0}},
                 {"fit_intercept": False}, {"record": True},
                 {"tol": None, "stop_mistake_free": False}],
    AveragedPerceptron: [{}, {"margin": 0.5}, {"h0": 0.5}, {"penalty": "l2", "alpha": 0.01},
                         {"eta": 0.5, "fit_intercept": False}, {"record": True},
                         {"class_weight": "balanced"},
                         {"penalty": "elasticnet", "tol": 1e-3}, {"tol": 1e-3},
                         {"weights_dtype": "float32"},
                         {"early_stopping": True, "n_iter_no_change": 2},
                         {"init": "uniform"}, {"stop_mistake_free": False, "tol": None}],
    PassiveAggressiveClassifier: [{}, {"variant": "pa"}, {"variant": "pa2", "C": 0.1},
                                  {"average": True}, {"tol": None},
                                  {"weights_dtype": "float32"}, {"early_stopping": True},
                                  {"class_weight": {1: 3.0}, "fit_intercept": False},
                                  {"init": "uniform", "n_iter_no_change": 2}],
    MulticlassPerceptron: [{}, {"average": True}, {"margin": 1.0},
                           {"tol": 1e-3, "n_iter_no_change": 2}, {"init": "normal"},
                           {"early_stopping": True}, {"eta": 0.5, "fit_intercept": False},
                           {"class_weight": "balanced", "record": True},
                           {"average": True, "tol": None, "stop_mistake_free": False}],
    LinearUnit: [{}, {"solver": "sgd"}, {"solver": "sgd", "eta": 0.001}, {"tol": None},
                 {"solver": "sgd", "tol": None}, {"early_stopping": True},
                 {"init": "zeros", "fit_intercept": False},
                 {"class_weight": {1: 2.0}, "early_stopping": True, "n_iter_no_change": 2}],
    BatchPerceptron: [{}, {"h0": 0.5}, {"eta": 0.5, "init": "uniform"},
                      {"early_stopping": True, "n_iter_no_change": 2},
                      {"class_weight": "balanced", "fit_intercept": False, "record": True}],
    PocketPerceptron: [{}, {"tol": None}, {"margin": 0.5, "eta": 0.5, "init": "normal"},
                       {"pocket_every": "update", "stop_mistake_free": False},
                       {"early_stopping": True, "n_iter_no_change": 2, "record": True},
                       {"class_weight": "balanced", "fit_intercept": False}],
    VotedPerceptron: [{}, {"margin": 0.5}, {"tol": None, "eta": 0.5, "init": "normal"},
                      {"stop_mistake_free": False},
                      {"early_stopping": True, "n_iter_no_change": 2, "record": True},
                      {"class_weight": "balanced", "fit_intercept": False}],
    KernelPerceptron: [{"kernel": "rbf"}, {"kernel": "linear", "voting": "average"},
                       {"kernel": "poly", "voting": "vote", "fit_intercept": False},
                       {"kernel": "rbf", "budget": 20}, {"tol": 1e-3, "n_iter_no_change": 2},
                       {"kernel": "rbf", "voting": "vote", "tol": None,
                        "stop_mistake_free": False},
                       {"budget": 12, "budget_policy": "forgetron"},
                       {"budget": 12, "budget_policy": "projectron++", "projectron_eta": 0.3,
                        "class_weight": "balanced"},
                       {"early_stopping": True, "class_weight": "balanced"}],
    PLA: [{}, {"eta": 0.5, "init": "uniform", "record": True}, {"pocket": True},
          {"class_weight": "balanced", "fit_intercept": False}],
    SecondOrderPerceptron: [{}, {"covariance": "diagonal", "a": 0.5},
                            {"fit_intercept": False, "class_weight": {1: 2.0}},
                            {"record": True}],
    ConfidenceWeighted: [{}, {"eta": 0.9, "covariance": "diagonal"},
                         {"a": 0.5, "fit_intercept": False, "record": True},
                         {"class_weight": "balanced"}],
    AROW: [{}, {"r": 0.1, "covariance": "diagonal"}, {"a": 2.0, "record": True},
           {"class_weight": {1: 3.0}, "fit_intercept": False}],
    NAROW: [{}, {"b": 5.0, "covariance": "diagonal"}, {"a": 2.0, "record": True},
            {"class_weight": "balanced", "fit_intercept": False}],
    NHERD: [{}, {"C": 0.1, "covariance": "diagonal"}, {"a": 0.5, "record": True},
            {"class_weight": {1: 3.0}, "fit_intercept": False}],
    IELLIP: [{}, {"b": 0.9, "c": 0.5, "covariance": "diagonal"}, {"a": 2.0, "record": True},
             {"class_weight": "balanced", "fit_intercept": False}],
    SoftConfidenceWeighted: [{}, {"variant": "II", "C": 0.5, "covariance": "diagonal"},
                             {"eta": 0.6, "a": 2.0, "record": True},
                             {"class_weight": {1: 3.0}, "fit_intercept": False}],
    MulticlassAROW: [{}, {"r": 0.1, "covariance": "diagonal"}, {"a": 2.0, "record": True},
                     {"class_weight": "balanced", "fit_intercept": False}],
    MulticlassSCW: [{}, {"variant": "II", "C": 0.5, "covariance": "diagonal"},
                    {"eta": 0.9, "a": 0.5, "record": True},
                    {"class_weight": {1: 3.0}, "fit_intercept": False}],
}
#: the first-order online rules
OPTIONS.update({
    ROMMA: [{}, {"aggressive": True}, {"fit_intercept": False, "record": True},
            {"class_weight": "balanced"}, {"average": True}],
    ALMA: [{}, {"p": 3.0, "alpha": 0.5}, {"B": 2.0, "C": 0.5, "fit_intercept": False},
           {"record": True}, {"class_weight": {1: 2.0}}, {"average": True, "p": 3.0}],
    OnlineGradientDescent: [{}, {"loss": "logistic"}, {"loss": "squared", "eta": 0.05},
                            {"loss": "perceptron", "record": True},
                            {"fit_intercept": False, "class_weight": "balanced"},
                            {"learning_rate": "constant", "average": True},
                            {"learning_rate": "invscaling", "power_t": 0.25,
                             "penalty": "l2", "alpha": 0.01},
                            {"learning_rate": "optimal", "penalty": "elasticnet",
                             "alpha": 0.01, "l1_ratio": 0.5},
                            {"learning_rate": "adaptive", "penalty": "l1", "alpha": 0.001}],
    Winnow: [{}, {"alpha": 1.1, "threshold": 2.0, "w0": 0.5}, {"fit_intercept": True},
             {"record": True, "class_weight": {1: 2.0}}, {"average": True}],
    BalancedWinnow: [{}, {"alpha": 1.1, "threshold": 0.5, "w0": 2.0},
                     {"fit_intercept": False, "record": True}, {"class_weight": "balanced"},
                     {"average": True}],
    PNormPerceptron: [{}, {"p": 2.0}, {"p": 4.0, "fit_intercept": False},
                      {"record": True, "class_weight": "balanced"}, {"average": True}],
    MulticlassPassiveAggressive: [{}, {"variant": "pa1", "C": 0.1},
                                  {"variant": "pa2", "fit_intercept": False},
                                  {"record": True, "class_weight": "balanced"}],
    FTRLProximal: [{}, {"alpha": 0.5, "beta": 0.0, "l1": 0.0, "l2": 0.0},
                   {"l1": 3.0, "fit_intercept": False}, {"record": True, "l2": 5.0},
                   {"class_weight": "balanced"}],
})
# the stopping rule's parameters, on every rule of the online family
for _cls in (ROMMA, ALMA, OnlineGradientDescent, Winnow, BalancedWinnow, PNormPerceptron,
             MulticlassPassiveAggressive, FTRLProximal) + tuple(
        cls for cls in OPTIONS if "covariance" in cls().get_params()):
    OPTIONS[_cls] = OPTIONS[_cls] + [{"tol": 0.05, "n_iter_no_change": 2}, {"tol": None}]
assert set(OPTIONS) == set(ALL)


def data(layout, labels):
    X, y = integer_blobs(n=90, d=4, seed=5, separable=False)
    if labels == "three":
        y = np.where(X[:, 0] > 1, 2, np.where(y > 0, 1, 0))
    return (sp.csr_matrix(X) if layout == "csr" else X), y


def fitted_state(model):
    """Everything a fit leaves that a second fit could differ in."""
    state = {name: getattr(model, name) for name in
             ("coef_", "intercept_", "n_iter_", "n_updates_", "converged_", "stop_reason_",
              "n_examples_", "loss_curve_", "eta_", "pocket_errors_") if hasattr(model, name)}
    state["problems"] = [(p.coef.copy(), p.intercept.copy(), int(p.seen[0]), p.n_iter,
                          p.n_updates, p.converged, p.stopped_early, p.stop_reason,
                          p.separable)
                         for p in model._problems]
    return state


def assert_same_fit(a, b):
    left, right = fitted_state(a), fitted_state(b)
    assert left.keys() == right.keys()
    for name in left:
        if name == "problems":
            for one, other in zip(left[name], right[name]):
                for x, y in zip(one, other):
                    assert_array_equal(x, y)
        elif isinstance(left[name], tuple):
            for x, y in zip(left[name], right[name]):
                assert_array_equal(x, y)
        else:
            assert_array_equal(left[name], right[name], err_msg=name)


def cases():
    for cls, options in OPTIONS.items():
        for params in options:
            shuffles = ["none"] if cls in (PLA, BatchPerceptron) or (
                cls is LinearUnit and params.get("solver", "batch") == "batch") else SHUFFLES
            for shuffle in shuffles:
                yield pytest.param(cls, params, shuffle,
                                   id=f"{cls.__name__}-{params}-{shuffle}")


def build(cls, params, shuffle):
    limit = {"max_updates": 60} if cls is PLA else {"max_iter": 6}
    extra = {} if cls in (PLA, BatchPerceptron) or (
        cls is LinearUnit and params.get("solver", "batch") == "batch") else \
        {"shuffle": shuffle}
    return cls(random_state=3, **limit, **extra, **params)


@pytest.mark.parametrize("labels", ["binary", "three"])
@pytest.mark.parametrize("layout", ["dense", "csr"])
@pytest.mark.parametrize("cls,params,shuffle", list(cases()))
def test_one_shard_is_the_serial_fit_bit_for_bit(cls, params, shuffle, layout, labels):
    if layout == "csr" and labels == "three" and shuffle != "every_epoch":
        pytest.skip("the matrix's corners: covered by the other layouts")
    X, y = data(layout, labels)
    estimator = build(cls, params, shuffle)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        serial = clone(estimator).fit(X, y)
        mixed = ParameterMixing(estimator, n_shards=1, client="threads").fit(X, y)
    assert_same_fit(mixed.estimator_, serial)
    if getattr(estimator, "record", False):
        traces = [(t,) if not isinstance(t, tuple) else t
                  for t in (mixed.estimator_.trace_, serial.trace_)]
        for one, other in zip(*traces):
            assert_array_equal(one.coef, other.coef)
            assert_array_equal(one.index, other.index)


def test_the_matrix_covers_every_parameter_that_changes_training():
    """A new parameter must be added to OPTIONS (or to the list of those that do
    not change training), so that the one-shard promise is tested for it."""
    untested = {"random_state", "max_iter", "max_updates", "shuffle", "n_jobs",
                "warm_start", "validation_fraction", "check_rows", "cache_size", "gamma",
                "degree", "coef0", "budget_policy", "l1_ratio"}
    for cls, options in OPTIONS.items():
        covered = set().union(*options)
        missing = set(cls().get_params()) - covered - untested
        assert not missing, (cls.__name__, sorted(missing))


# --------------------------------------------------------------- several shards


def ipm_reference(X, y, estimator, n_shards, epochs):
    """Iterative parameter mixing written from McDonald et al.'s Alg. 2 with the
    serial estimator itself: each epoch, every shard runs one epoch of a fresh
    estimator started (``init``) at the mixed weights, and the weights are mixed
    as ``w + Σ μ (wᵢ − w)`` with ``μ = 1/S``."""
    bounds = np.linspace(0, len(y), n_shards + 1).astype(int)
    coef, intercept = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        parts = []
        for k in range(n_shards):
            rows = slice(bounds[k], bounds[k + 1])
            start = np.r_[intercept, coef] if estimator.fit_intercept else coef
            one = clone(estimator).set_params(max_iter=1, init=start)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                one.fit(X[rows], y[rows])
            parts.append((one.coef_[0], one.intercept_[0]))
        coef = coef + sum((c - coef) / n_shards for c, _ in parts)
        intercept = intercept + sum((b - intercept) / n_shards for _, b in parts)
    return coef, intercept


@pytest.mark.parametrize("params", [
    {}, {"margin": 0.5}, {"h0": 0.5}, {"eta": 0.25}, {"weights_dtype": "float32"},
    {"fit_intercept": False},
], ids=repr)
@pytest.mark.parametrize("cls", [Perceptron, PassiveAggressiveClassifier])
def test_several_shards_equal_mixing_the_serial_estimator_by_hand(cls, params):
    if cls is PassiveAggressiveClassifier and ("margin" in params or "h0" in params
                                               or "eta" in params):
        pytest.skip("not a parameter of PassiveAggressiveClassifier")
    X, y = integer_blobs(n=90, d=4, seed=5, separable=False)
    estimator = cls(shuffle="none", tol=None, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(estimator.set_params(max_iter=4), n_shards=3,
                                shard_rows="contiguous", client="threads").fit(X, y)
    coef, intercept = ipm_reference(X, y, estimator, 3, mixed.n_iter_)
    # float32 running weights are stored rounded after each mix, the reference's
    # at the start of each epoch
    tolerance = 1e-6 if params.get("weights_dtype") == "float32" else 1e-12
    np.testing.assert_allclose(mixed.coef_[0], coef, rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(mixed.intercept_[0], intercept, rtol=tolerance,
                               atol=tolerance)


@pytest.mark.parametrize("cls", [AveragedPerceptron, MulticlassPerceptron])
def test_mixed_averaging_publishes_the_mean_of_the_last_epochs_weights(cls):
    """Written out: each shard, from the mixed weights, visits its rows; the model
    publishes the mean of the weights after every row of every shard in the last
    epoch, and keeps the sums over every epoch for a serial partial_fit."""
    X, y = integer_blobs(n=60, d=3, seed=1, separable=False)
    params = {"average": True} if cls is MulticlassPerceptron else {}
    model = ParameterMixing(cls(shuffle="none", max_iter=3, **params), n_shards=2,
                            shard_rows="contiguous", client="threads")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    labels = np.where(y > 0, 1, 0)
    n_classes = 2
    W, b = np.zeros((n_classes, 3)), np.zeros(n_classes)
    total_W, total_b, count = np.zeros_like(W), np.zeros_like(b), 0
    halves = (slice(0, 30), slice(30, 60))
    for epoch in range(model.n_iter_):
        if epoch == model.n_iter_ - 1:  # the last epoch's mean is published
            last_W, last_b, last_count = total_W.copy(), total_b.copy(), count
        parts = []
        for rows in halves:
            w, c = W.copy(), b.copy()
            for x, label in zip(X[rows], labels[rows]):
                if cls is MulticlassPerceptron:
                    scores = w @ x + c
                    rival = np.argmax(np.where(np.arange(n_classes) == label, -np.inf, scores))
                    if scores[label] <= scores[rival]:
                        w[label] += x
                        c[label] += 1
                        w[rival] -= x
                        c[rival] -= 1
                else:
                    sign = 1 if label else -1
                    if sign * (w[1] @ x + c[1]) <= 0:
                        w[1] += sign * x
                        c[1] += sign
                total_W += w
                total_b += c
                count += 1
            parts.append((w, c))
        W = W + sum((w - W) / 2 for w, _ in parts)
        b = b + sum((c - b) / 2 for _, c in parts)
    expected = ((total_W - last_W) / (count - last_count),
                (total_b - last_b) / (count - last_count))
    history = (total_W / count, total_b / count)
    if cls is AveragedPerceptron:
        expected = (expected[0][1:], expected[1][1:])
        history = (history[0][1:], history[1][1:])
    np.testing.assert_allclose(model.coef_, expected[0], atol=1e-10)
    np.testing.assert_allclose(model.intercept_, expected[1], atol=1e-10)
    state = model.estimator_._problems[0].state  # the sums over every epoch
    np.testing.assert_allclose(state.mean(*(np.asarray(a) for a in (
        model.estimator_._problems[0].coef, model.estimator_._problems[0].intercept)),
        count)[0], history[0].squeeze(), atol=1e-10)


def test_tol_stops_on_the_mistakes_over_every_shard():
    """``tol`` reads the epoch's mistakes summed over every shard: the same rule
    serially and mixed, so it stops both (where the textbook rule would run on),
    without claiming convergence."""
    X, y = integer_blobs(n=200, d=4, seed=2, separable=False)
    for n_shards in (1, 2, 4):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            model = ParameterMixing(Perceptron(tol=1e-3, max_iter=200, random_state=0),
                                    n_shards=n_shards, client="threads").fit(X, y)
        assert not model.converged_ and model.n_iter_ < 200
        assert model.estimator_.stop_reason_ == "tol"
        problem = model.estimator_._problems[0]
        assert problem.n_no_improvement == 5 and problem.certified
        assert problem.separable is False and problem.fewest_mistakes > 0


def test_a_mixed_model_goes_on_learning():
    """With partial_fit (serially, one epoch at a time, the averaging sums kept), or
    with another mixed fit (warm_start: a new run from the published weights, as a
    serial warm start)."""
    X, y = integer_blobs(n=120, d=4, seed=4, separable=False)
    estimator = AveragedPerceptron(max_iter=3, random_state=0, warm_start=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(estimator, n_shards=3, client="threads").fit(X, y)
        fitted = mixed.estimator_
        assert fitted.n_examples_ == 3 * len(y)
        fitted.partial_fit(X, y)
        assert fitted.n_examples_ == 4 * len(y)
        start = np.r_[fitted.intercept_, fitted.coef_[0]]
        again = mixed.fit(X, y)
        assert again.estimator_ is fitted and fitted.n_examples_ == 3 * len(y)
        cold = ParameterMixing(clone(estimator).set_params(warm_start=False, init=start),
                               n_shards=3, client="threads").fit(X, y)
        assert_array_equal(again.coef_, cold.coef_)
        with pytest.raises(ValueError, match="warm_start=True continues the last fit"):
            mixed.fit(X[:, :3], y)


# --------------------------------------------------------------- the kernels' callers

#: the kernels that train (the scoring ones serve prediction and stopping rules too)
TRAINING_KERNELS = {"online_epoch", "multiclass_epoch", "batch_step", "batch_gradient",
                    "dual_scan", "dual_dry_run", "update_row", "second_order_epoch",
                    "multiclass_second_order_epoch"}
TRAINING_KERNELS |= {"romma_epoch", "alma_epoch", "ogd_epoch", "winnow_epoch",
                     "balanced_winnow_epoch", "pnorm_epoch", "multiclass_pa_epoch",
                     "ftrl_epoch"}
TRAINING_KERNELS |= {"alma_unscale", "second_order_unscale"}  # after an epoch's last block
TRAINING_KERNELS |= {"sequence_epoch"}  # the structured perceptron's (structured/_viterbi.py)
TRAINING_KERNELS |= {"parser_epoch"}  # the dependency parser's (structured/_arcs.py)


def test_only_a_rules_epoch_calls_the_training_kernels():
    """The engine's one entry to the kernels is a rule's ``_epoch`` (and, for the
    batch rules, ``_epoch_end``, the step after the last block), which the
    training loop runs on each shard: no second trainer calls them."""
    package = pathlib.Path(__file__).parents[1] / "rosenblatt"
    callers = set()
    for path in package.rglob("*.py"):
        if "_kernels" in path.parts or path.name in ("_viterbi.py", "_arcs.py"):  # the kernels
            continue
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                name = node.attr if isinstance(node, ast.Attribute) else \
                    node.id if isinstance(node, ast.Name) else None
                if name in TRAINING_KERNELS:
                    callers.add((path.relative_to(package).as_posix(), function.name))
    assert {name for _, name in callers} <= {"_epoch", "_epoch_end"}, callers
    assert all(path.startswith(("linear_model/", "structured/")) for path, _ in callers), \
        callers
    assert ("structured/_sequence.py", "_epoch") in callers  # the walk sees direct calls


# --------------------------------------------------------------- make_estimator, on_epoch


def test_make_estimator_by_short_or_class_name():
    assert type(make_estimator("averaged")) is AveragedPerceptron
    assert make_estimator("Perceptron", eta=0.5).eta == 0.5
    with pytest.raises(ValueError, match="unknown model 'adaline'; choose one of"):
        make_estimator("adaline")
    with pytest.raises(ValueError, match="eta"):
        make_estimator("perceptron", eta=-1)
    with pytest.raises(ValueError, match="PLA does not take"):
        make_estimator("pla", max_iter=3)


def test_on_epoch_sees_every_epoch_then_lets_go():
    X, y = integer_blobs(n=70, d=4, seed=2, separable=False)
    model = Perceptron(shuffle="none", max_iter=4)
    seen = []
    with pytest.warns(Warning), on_epoch(model, lambda problem: seen.append(problem.n_iter)):
        model.fit(X, y)
    assert seen == [1, 2, 3, 4]
    with pytest.warns(Warning):
        model.fit(X, y)
    assert seen == [1, 2, 3, 4]


def test_pla_reports_every_update_once():
    X, y = integer_blobs(n=40, d=2, seed=3)
    seen = []
    with on_epoch(PLA(random_state=0), lambda problem: seen.append(problem.n_iter)) as model:
        model.fit(X, y)
    assert seen == list(range(1, model.n_iter_ + 1))


def test_the_command_lines_stopping_rule_does_not_change_with_shards(tmp_path, capsys):
    """``rosenblatt train`` keeps every model's ``tol=1e-3``; with ``--shards 1`` it
    used to drop it (1,000 epochs and a warning instead of 10)."""
    from rosenblatt.cli import main
    from rosenblatt.io import load

    X, y = integer_blobs(n=300, d=4, seed=6, separable=False)
    data = tmp_path / "noisy.csv"
    np.savetxt(data, np.column_stack([X, y]), delimiter=",", header="a,b,c,d,y",
               comments="")
    fitted = {}
    for extra in ([], ["--shards", "1"], ["--shards", "3"]):
        out = tmp_path / f"m{len(extra)}{extra[-1] if extra else ''}.npz"
        assert main(["train", str(data), "--model", "averaged", "--set", "random_state=0",
                     "-o", str(out), "--quiet", *extra]) == 0
        assert "stopped    when the mistakes stopped falling (tol" in capsys.readouterr().out
        fitted[tuple(extra)] = load(out)
    serial, one, three = fitted.values()
    assert serial.tol == one.tol == three.tol == 1e-3
    assert serial.n_iter_ == one.n_iter_ < 100 and three.n_iter_ < 100
    assert_array_equal(serial.coef_, one.coef_)
    assert main(["train", str(data), "--shards", "2", "--epochs", "3", "-o",
                 str(tmp_path / "x.npz")]) == 2
    assert "--epochs counts passes" in capsys.readouterr().err
