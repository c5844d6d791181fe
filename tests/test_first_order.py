"""The first-order online estimators (ROMMA, ALMA, OnlineGradientDescent, Winnow,
BalancedWinnow, PNormPerceptron, MulticlassPassiveAggressive) as the papers write
them: one pass equals the paper loops of ``tests/_papers_first_order.py`` on dense
and CSR data, with and without intercept, one-vs-rest and native multiclass;
``partial_fit``, warm starts and model files go on exactly; shards mix as each
state says; the trace, the renumbered columns; and river's PA and ALMA where
their definitions agree with the papers'."""

import json
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

import rosenblatt
from rosenblatt.base import _columns
from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.linear_model import (
    ALMA,
    ROMMA,
    BalancedWinnow,
    MulticlassPassiveAggressive,
    OnlineGradientDescent,
    PNormPerceptron,
    Winnow,
)

from . import _papers_first_order as papers
from .conftest import integer_blobs

RTOL, ATOL = 1e-7, 1e-10
D = 6


def fit(model, X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y, **kwargs)


def make_data(seed=0, kind="real", n=80, d=D, n_classes=2):
    """Rows with 30 % zeros (and one all-zero row), labels from a planted model with
    noise; ``kind="positive"`` for the Winnow rules (features >= 0)."""
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((n, d)) if kind == "real" else rng.uniform(0.0, 1.5, (n, d))
    X[rng.rand(n, d) < 0.3] = 0.0
    X[7] = 0.0
    scores = X @ rng.standard_normal((d, n_classes)) + 0.3 * rng.standard_normal((n, n_classes))
    if n_classes == 2:
        scores = scores[:, 0] - np.median(scores[:, 0])
        return X, np.where(scores > 0, 1, -1)
    return X, np.argmax(scores, axis=1)


def augmented(X, fit_intercept):
    return np.column_stack([X, np.ones(len(X))]) if fit_intercept else X


# ------------------------------------------------------------------ the rules

class Case:
    """An estimator in one setting, its paper loop, and how the loop's weights
    (over the rows with a 1 appended for the intercept) are published."""

    def __init__(self, cls, params, paper, options, kind="real", threshold=None):
        self.cls, self.params, self.paper, self.options = cls, params, paper, options
        self.kind, self.threshold = kind, threshold

    def __repr__(self):
        return f"{self.cls.__name__}({self.params})"

    def estimator(self, fit_intercept, **extra):
        return self.cls(fit_intercept=fit_intercept, shuffle="none", max_iter=1,
                        **self.params, **extra)

    def reference(self, X, y, fit_intercept, sample_weight=None):
        """``(coef, intercept)`` of one pass of the paper loop, and the run."""
        run = self.paper(augmented(X, fit_intercept), y, sample_weight=sample_weight,
                         **self.options)
        w = run.w
        coef, intercept = (w[:-1], w[-1]) if fit_intercept else (w, 0.0)
        if self.threshold is not None:
            intercept -= self.threshold
        return coef, intercept, run


BINARY = [
    Case(ROMMA, {}, papers.romma, {}),
    Case(ROMMA, {"aggressive": True}, papers.romma, {"aggressive": True}),
    Case(ALMA, {}, papers.alma, {}),
    Case(ALMA, {"p": 3.0, "alpha": 0.5, "B": 2.0, "C": 1.0}, papers.alma,
         {"p": 3.0, "alpha": 0.5, "B": 2.0, "C": 1.0}),
    Case(OnlineGradientDescent, {}, papers.ogd, {}),
    Case(OnlineGradientDescent, {"loss": "logistic"}, papers.ogd, {"loss": "logistic"}),
    Case(OnlineGradientDescent, {"loss": "squared", "eta": 0.1}, papers.ogd,
         {"loss": "squared", "eta": 0.1}),
    Case(OnlineGradientDescent, {"loss": "perceptron", "eta": 0.5}, papers.ogd,
         {"loss": "perceptron", "eta": 0.5}),
    # Winnow's default threshold is n_features/2 of X itself, not of the augmented rows
    Case(Winnow, {}, papers.winnow, {"threshold": D / 2}, kind="positive", threshold=D / 2),
    Case(Winnow, {"alpha": 1.5, "threshold": 2.0, "w0": 0.5}, papers.winnow,
         {"alpha": 1.5, "threshold": 2.0, "w0": 0.5}, kind="positive", threshold=2.0),
    Case(BalancedWinnow, {}, papers.balanced_winnow, {}, kind="positive", threshold=0.0),
    Case(BalancedWinnow, {"alpha": 1.5, "threshold": 0.5, "w0": 2.0}, papers.balanced_winnow,
         {"alpha": 1.5, "threshold": 0.5, "w0": 2.0}, kind="positive", threshold=0.5),
    Case(PNormPerceptron, {}, papers.pnorm, {"p": max(2.0, 2.0 * math.log(D))}),
    Case(PNormPerceptron, {"p": 2.0}, papers.pnorm, {"p": 2.0}),
    Case(PNormPerceptron, {"p": 3.5}, papers.pnorm, {"p": 3.5}),
]

MULTICLASS = [("pa", 1.0), ("pa1", 0.05), ("pa2", 0.5)]


def layout(X, name):
    return sp.csr_matrix(X) if name == "csr" else X


@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-intercept", "intercept"])
@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("case", BINARY, ids=repr)
def test_one_pass_is_the_papers_loop(case, form, fit_intercept):
    X, y = make_data(1, case.kind)
    model = fit(case.estimator(fit_intercept), layout(X, form), y)
    coef, intercept, run = case.reference(X, y.astype(float), fit_intercept)
    assert not run.unstable  # no decision rounding could take the other way
    assert_allclose(model.coef_[0], coef, rtol=RTOL, atol=ATOL)
    assert_allclose(model.intercept_[0], intercept, rtol=RTOL, atol=ATOL)
    assert model.n_mistakes_.tolist() == [run.mistakes]
    assert model.n_updates_ == len(run.updated) and model.n_iter_ == 1


@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-intercept", "intercept"])
@pytest.mark.parametrize("case", BINARY[::2], ids=repr)
def test_sample_weights_follow_the_papers_loop(case, fit_intercept):
    """A weight multiplies the step (ROMMA has none: only 0 counts); 0 is absent."""
    X, y = make_data(2, case.kind)
    sw = np.random.RandomState(0).choice([0.0, 0.5, 1.0, 2.0], size=len(y))
    model = fit(case.estimator(fit_intercept), X, y, sample_weight=sw)
    coef, intercept, run = case.reference(X, y.astype(float), fit_intercept, sw)
    assert_allclose(model.coef_[0], coef, rtol=RTOL, atol=ATOL)
    assert_allclose(model.intercept_[0], intercept, rtol=RTOL, atol=ATOL)
    assert model.n_mistakes_.tolist() == [run.mistakes]


@pytest.mark.parametrize("case", BINARY, ids=repr)
def test_one_vs_rest_is_the_papers_loop_per_class(case):
    X, y = make_data(3, case.kind, n_classes=3)
    labels = np.array(["ant", "bee", "cat"])[y]
    model = fit(case.estimator(True, n_jobs=2), X, labels)
    assert model.coef_.shape == (3, D)
    mistakes = 0
    for k in range(3):
        coef, intercept, run = case.reference(X, np.where(y == k, 1.0, -1.0), True)
        assert_allclose(model.coef_[k], coef, rtol=RTOL, atol=ATOL)
        assert_allclose(model.intercept_[k], intercept, rtol=RTOL, atol=ATOL)
        mistakes += run.mistakes
    assert model.n_mistakes_.tolist() == [mistakes]  # summed over the problems


@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-intercept", "intercept"])
@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("variant, C", MULTICLASS)
def test_multiclass_pa_is_the_papers_loop(variant, C, form, fit_intercept):
    X, y = make_data(4, n_classes=3)
    model = fit(MulticlassPassiveAggressive(variant=variant, C=C, fit_intercept=fit_intercept,
                                            shuffle="none", max_iter=1), layout(X, form), y)
    run = papers.multiclass_pa(augmented(X, fit_intercept), y, 3, C=C, variant=variant)
    assert not run.unstable
    W = run.w
    assert_allclose(model.coef_, W[:, :D], rtol=RTOL, atol=ATOL)
    assert_allclose(model.intercept_, W[:, D] if fit_intercept else np.zeros(3),
                    rtol=RTOL, atol=ATOL)
    assert model.n_mistakes_.tolist() == [run.mistakes]
    assert model.n_updates_ == len(run.updated)


def test_multiclass_pa_with_two_classes_publishes_both_rows():
    X, y = make_data(5)
    model = fit(MulticlassPassiveAggressive(shuffle="none", max_iter=2), X, y)
    assert model.coef_.shape == (2, D) and model.intercept_.shape == (2,)
    scores = X @ model.coef_.T + model.intercept_
    assert_allclose(model.decision_function(X), scores[:, 1] - scores[:, 0])
    assert_array_equal(model.predict(X), np.where(scores[:, 1] > scores[:, 0], 1, -1))


# ---------------------------------------------------------------- going on exactly

ESTIMATORS = [case.estimator(True) for case in BINARY[::2]] + [
    MulticlassPassiveAggressive(shuffle="none", max_iter=1)]


def state_of(model):
    """The running weights and every array of each problem's state."""
    out = []
    for problem in model._problems:
        out.append(problem.coef.copy())
        out.append(problem.intercept.copy())
        out.append(problem.seen.copy())
        for value in vars(problem.state).values():
            if isinstance(value, np.ndarray):
                out.append(value.copy())
    return out


def assert_same_run(a, b, estimator):
    """Bit for bit; ROMMA and ALMA (p = 2) to 1e-12: they keep w = s·v within a call
    and fold s into the weights at the end of one, so a call boundary rounds once more."""
    if isinstance(estimator, ROMMA) or (isinstance(estimator, ALMA) and estimator.p == 2):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
    else:
        assert_array_equal(a, b)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_partial_fit_goes_on_exactly_where_the_pass_was(estimator):
    """Two partial_fit calls on the halves are one pass over the rows, bit for bit
    (ALMA's corrections, OGD's t, the p-norm's θ and Balanced Winnow's v go on),
    and a partial_fit after fit is the fit's next epoch."""
    kind = "positive" if isinstance(estimator, (Winnow, BalancedWinnow)) else "real"
    n_classes = 3 if isinstance(estimator, MulticlassPassiveAggressive) else 2
    X, y = make_data(6, kind, n_classes=n_classes)
    whole = fit(estimator.set_params(max_iter=1), X, y)
    halves = type(estimator)(**estimator.get_params())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        halves.partial_fit(X[:50], y[:50], classes=np.unique(y))
        halves.partial_fit(X[50:], y[50:])
    for a, b in zip(state_of(halves), state_of(whole)):
        assert_same_run(a, b, estimator)
    assert halves.n_mistakes_.sum() == whole.n_mistakes_.sum()
    assert halves.n_mistakes_.shape == (2,) and halves.n_iter_ == 2
    two = fit(type(estimator)(**{**estimator.get_params(), "max_iter": 2}), X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole.partial_fit(X, y)
    if two.n_iter_ == 2:
        assert_array_equal(whole.coef_, two.coef_)
        assert_array_equal(whole.n_mistakes_, two.n_mistakes_)


@pytest.mark.parametrize("cls, kind", [(ROMMA, "real"), (Winnow, "positive"),
                                       (BalancedWinnow, "positive"), (PNormPerceptron, "real")])
def test_warm_start_goes_on_from_the_weights_and_their_state(cls, kind):
    """Rules without counters besides the examples: a warm-start epoch after an epoch
    is the second epoch (Winnow's multiplicative bias, v and θ carried over)."""
    X, y = make_data(7, kind)
    model = fit(cls(shuffle="none", max_iter=1, warm_start=True, fit_intercept=True), X, y)
    fit(model, X, y)
    two = fit(cls(shuffle="none", max_iter=2, fit_intercept=True), X, y)
    assert two.n_iter_ == 2
    assert_array_equal(model.coef_, two.coef_)
    assert_array_equal(model.intercept_, two.intercept_)
    assert model._problems[0].seen[0] == len(y)  # the counters start afresh


def test_warm_start_restarts_alma_and_ogd_steps():
    X, y = make_data(8)
    for cls in (ALMA, OnlineGradientDescent):
        model = fit(cls(shuffle="none", max_iter=1, warm_start=True), X, y)
        start = model.coef_.copy()
        fit(model, X, y)
        assert model._problems[0].seen[0] == len(y) and not np.array_equal(model.coef_, start)
        if cls is ALMA:
            assert model._problems[0].state.corrections[0] == model.n_updates_


# ------------------------------------------------------------------------- mixing

def shards_reference(case, X, y, fit_intercept):
    """One epoch on two contiguous shards from the start, mixed with μ = 1/2, written
    from the paper loops: the weights averaged; the p-norm's θ averaged and linked;
    Balanced Winnow's u and v averaged (so u − v is)."""
    halves = (slice(0, 40), slice(40, 80))
    parts = [case.reference(X[rows], y[rows], fit_intercept) for rows in halves]
    if case.cls is PNormPerceptron:
        p = case.options["p"]
        q = p / (p - 1.0)
        thetas = [papers.link(np.append(c, b) if fit_intercept else c, q) for c, b, _ in parts]
        w = papers.link((thetas[0] + thetas[1]) / 2, p)
        return (w[:-1], w[-1]) if fit_intercept else (w, 0.0), parts
    coef = (parts[0][0] + parts[1][0]) / 2
    intercept = (parts[0][1] + parts[1][1]) / 2
    return (coef, intercept), parts


@pytest.mark.parametrize("fit_intercept", [False, True], ids=["no-intercept", "intercept"])
@pytest.mark.parametrize("case", BINARY, ids=repr)
def test_two_shards_mix_as_the_states_say(case, fit_intercept):
    X, y = make_data(9, case.kind)
    estimator = case.estimator(fit_intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(estimator, n_shards=2, shard_rows="contiguous",
                                client="threads").fit(X, y)
    (coef, intercept), parts = shards_reference(case, X, y.astype(float), fit_intercept)
    assert_allclose(mixed.coef_[0], coef, rtol=RTOL, atol=ATOL)
    assert_allclose(mixed.intercept_[0], intercept, rtol=RTOL, atol=ATOL)
    problem = mixed.estimator_._problems[0]
    # the examples of both shards (ROMMA and ALMA skip the row x = 0 without intercept)
    skipped = case.cls in (ROMMA, ALMA) and not fit_intercept
    assert problem.seen[0] == len(y) - skipped * int((X == 0).all(axis=1).sum())
    # the mistakes of the epoch add up; ALMA's corrections too, as the examples do
    assert mixed.estimator_.n_mistakes_.tolist() == [sum(run.mistakes for *_, run in parts)]
    if case.cls is ALMA:
        assert problem.state.corrections[0] == sum(len(run.updated) for *_, run in parts)


@pytest.mark.parametrize("variant, C", MULTICLASS)
def test_two_shards_mix_multiclass_pa_by_averaging(variant, C):
    X, y = make_data(10, n_classes=3)
    estimator = MulticlassPassiveAggressive(variant=variant, C=C, shuffle="none", max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(estimator, n_shards=2, shard_rows="contiguous",
                                client="threads").fit(X, y)
    runs = [papers.multiclass_pa(augmented(X[rows], True), y[rows], 3, C=C, variant=variant)
            for rows in (slice(0, 40), slice(40, 80))]
    W = (runs[0].w + runs[1].w) / 2
    assert_allclose(mixed.coef_, W[:, :D], rtol=RTOL, atol=ATOL)
    assert_allclose(mixed.intercept_, W[:, D], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_one_shard_is_the_serial_fit_over_several_epochs(estimator):
    kind = "positive" if isinstance(estimator, (Winnow, BalancedWinnow)) else "real"
    X, y = make_data(11, kind, n_classes=3)
    estimator = type(estimator)(**{**estimator.get_params(), "max_iter": 4,
                                   "shuffle": "every_epoch", "random_state": 2})
    serial = fit(type(estimator)(**estimator.get_params()), X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        one = ParameterMixing(estimator, n_shards=1, client="threads").fit(X, y)
    for a, b in zip(state_of(one.estimator_), state_of(serial)):
        assert_array_equal(a, b)
    assert_array_equal(one.estimator_.n_mistakes_, serial.n_mistakes_)


def test_mixed_pnorm_weights_are_the_link_of_the_mixed_theta():
    X, y = make_data(12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(PNormPerceptron(p=4.0, max_iter=3, random_state=0),
                                n_shards=3, client="threads").fit(X, y)
    problem = mixed.estimator_._problems[0]
    theta = np.append(problem.state.theta, problem.state.theta_intercept)
    assert_allclose(np.append(problem.coef, problem.intercept), papers.link(theta, 4.0),
                    rtol=1e-12)


# -------------------------------------------------------------------------- stopping

def test_a_mistake_free_epoch_whose_margin_updates_broke_a_row_does_not_stop():
    """Multiclass PA updates rows it gets right (loss > 0): on these data its second
    epoch is mistake-free, yet its updates leave a training row wrong; training goes
    on until the weights are right on every row."""
    X, y = integer_blobs(n=100, d=3, seed=8)
    model = MulticlassPassiveAggressive(random_state=0, max_iter=20).fit(X, y)
    assert model.n_mistakes_[1] == 0 and model.n_iter_ > 2
    assert model.converged_ and model.score(X, y) == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        two = MulticlassPassiveAggressive(random_state=0, max_iter=2).fit(X, y)
    assert not two.converged_ and two.score(X, y) < 1.0


@pytest.mark.parametrize("cls", [ROMMA, OnlineGradientDescent, PNormPerceptron,
                                 MulticlassPassiveAggressive])
def test_separable_data_converge_by_default_with_mistakes_per_epoch(cls):
    X, y = integer_blobs(n=100, d=3, seed=8)
    model = cls(random_state=0).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    assert model.n_mistakes_.shape == (model.n_iter_,) and model.n_mistakes_[-1] == 0


def test_inseparable_data_stop_by_tol_or_warn_after_max_iter():
    X = np.array([[1.0, 1.0], [1.0, 2.0], [2.0, 1.0], [2.0, 2.0]])
    # the default (tol=1e-3, n_iter_no_change=5): the mistakes reach 1 in epoch 5 and
    # stall for 5 epochs; the linear program finds XOR inseparable, so tol ends the run
    # without a warning (and without converging)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = ALMA(random_state=0).fit(X, [0, 1, 1, 0])
    assert model.n_iter_ == 10 and model.converged_ is False and model.stop_reason_ == "tol"
    assert model._problems[0].separable is False and (model.n_mistakes_ > 0).all()
    # cut at max_iter before the rule is met: a ConvergenceWarning
    with pytest.warns(ConvergenceWarning, match="max_iter=5 epochs without a mistake-free"):
        model = ALMA(random_state=0, max_iter=5).fit(X, [0, 1, 1, 0])
    assert model.n_iter_ == 5 and not model.converged_ and (model.n_mistakes_ > 0).all()
    assert model.stop_reason_ == "max_iter"


@pytest.mark.parametrize("cls, params, message", [
    (Winnow, {"alpha": 1.0}, "alpha"), (BalancedWinnow, {"w0": 0.0}, "w0"),
    (ALMA, {"p": 1.5}, "'p'"), (ALMA, {"alpha": 0.0}, "alpha"), (ALMA, {"B": -1.0}, "'B'"),
    (PNormPerceptron, {"p": 1.0}, "'p'"), (OnlineGradientDescent, {"loss": "hinge2"}, "loss"),
    (MulticlassPassiveAggressive, {"variant": "pa3"}, "variant"), (ROMMA, {"aggressive": 1},
                                                                   "aggressive"),
])
def test_invalid_parameters_are_refused_by_name(cls, params, message):
    X, y = make_data(13)
    with pytest.raises(ValueError, match=message):
        cls(**params).fit(X, y)


def test_winnow_publishes_its_threshold_as_the_bias():
    X, y = make_data(14, "positive")
    model = fit(Winnow(shuffle="none", max_iter=2), X, y)
    assert_array_equal(model.intercept_, [-D / 2])
    assert (model.coef_ > 0).all()
    biased = fit(Winnow(shuffle="none", max_iter=2, fit_intercept=True, w0=0.5), X, y)
    b = biased._problems[0].intercept[0]  # the multiplicative bias, from w0
    assert b > 0 and biased.intercept_[0] == b - D / 2
    # set_params between calls: the threshold is the parameter's
    model.set_params(threshold=1.0).partial_fit(X, y)
    assert_array_equal(model.intercept_, [-1.0])


# ---------------------------------------------------------------------------- trace

@pytest.mark.parametrize("estimator", ESTIMATORS + [
    OnlineGradientDescent(loss="logistic", shuffle="none"),
    ROMMA(aggressive=True), PNormPerceptron(p=2.0)], ids=repr)
def test_the_trace_holds_the_weights_after_every_update(estimator):
    kind = "positive" if isinstance(estimator, (Winnow, BalancedWinnow)) else "real"
    multiclass = isinstance(estimator, MulticlassPassiveAggressive)
    X, y = make_data(15, kind, n_classes=3 if multiclass else 2)
    params = {**estimator.get_params(), "max_iter": 3, "record": True, "random_state": 1,
              "shuffle": "every_epoch"}
    traced = fit(type(estimator)(**params), sp.csr_matrix(X), y)
    plain = fit(type(estimator)(**{**params, "record": False}), sp.csr_matrix(X), y)
    assert_same_run(traced.coef_, plain.coef_, estimator)  # recording runs row by row
    trace = traced.trace_
    assert len(trace) == traced.n_updates_
    last = trace.coef[-1] if multiclass else trace.coef[-1][None, :]
    assert_array_equal(last, traced.coef_)  # bit for bit: the rule's own weights
    assert_array_equal(np.atleast_1d(trace.intercept[-1]), traced.intercept_)
    assert_array_equal(trace.epoch, np.sort(trace.epoch))
    assert (np.diff(trace.t) > 0).all()
    assert np.isnan(trace.update).all()  # snapshots of the weights, not replayed steps


def test_one_vs_rest_records_a_trace_per_class():
    X, y = make_data(16, n_classes=3)
    model = fit(ALMA(record=True, max_iter=2, random_state=0), X, y)
    assert len(model.trace_) == 3
    for k, trace in enumerate(model.trace_):
        assert_array_equal(trace.coef[-1], model.coef_[k])


# --------------------------------------------------------------------- renumbering

@pytest.mark.parametrize("estimator", [
    OnlineGradientDescent(max_iter=3, random_state=0),
    Winnow(max_iter=3, random_state=0, alpha=1.1),
    BalancedWinnow(max_iter=3, random_state=0, alpha=1.1, fit_intercept=False),
    MulticlassPassiveAggressive(max_iter=3, random_state=0),
], ids=repr)
def test_renumbered_columns_change_no_result(estimator, monkeypatch):
    from .test_renumbering import fit_both, scattered

    X, y, y3 = scattered()
    if isinstance(estimator, MulticlassPassiveAggressive):
        y = y3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        (plain, renumbered), calls = fit_both(estimator, X, y, monkeypatch)
    assert calls == [X.shape]
    assert_array_equal(plain.coef_, renumbered.coef_)
    assert_array_equal(plain.intercept_, renumbered.intercept_)
    assert all(problem.columns is None for problem in renumbered._problems)


@pytest.mark.parametrize("cls", [ROMMA, ALMA, PNormPerceptron])
def test_whole_vector_rules_are_not_renumbered(cls, monkeypatch):
    """Their norms and links sum over every weight: another order of the columns
    would round differently, and there is no row-local work to speed up."""
    calls = []
    original = _columns.frequency_order
    monkeypatch.setattr(_columns, "frequency_order",
                        lambda X: calls.append(X.shape) or original(X))
    from .test_renumbering import scattered

    X, y, _ = scattered(n=200)
    with rosenblatt.config_context(renumber_columns=True):
        fit(cls(max_iter=2, random_state=0), X, y)
    assert calls == []


# ---------------------------------------------------------------------- model files

@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_a_model_file_predicts_and_goes_on(estimator, tmp_path):
    kind = "positive" if isinstance(estimator, (Winnow, BalancedWinnow)) else "real"
    X, y = make_data(17, kind, n_classes=3)
    model = fit(type(estimator)(**{**estimator.get_params(), "max_iter": 2,
                                   "shuffle": "every_epoch", "random_state": 3}), X, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert_array_equal(loaded.predict(X), model.predict(X))
    assert_array_equal(loaded.n_mistakes_, model.n_mistakes_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for part in (slice(0, 40), slice(40, 80)):
            model.partial_fit(X[part], y[part])
            loaded.partial_fit(X[part], y[part])
    for a, b in zip(state_of(loaded), state_of(model)):
        assert_array_equal(a, b)
    assert_array_equal(loaded.n_mistakes_, model.n_mistakes_)


def rewrite(path, change):
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    change(meta, arrays)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def state_field(name, value):
    def change(meta, arrays):
        meta["training"][0]["state"]["fields"][name] = value
    return change


def state_array(name, value):
    def change(meta, arrays):
        key = f"training0.state.{name}"
        arrays[key] = value(arrays[key])
    return change


@pytest.mark.parametrize("estimator, change, message", [
    (Winnow(), state_field("threshold", 1.0), "does not give the stored intercept_"),
    (Winnow(), state_field("threshold", "big"), "threshold must be a number"),
    (BalancedWinnow(), state_array("v", lambda v: v * 2), "does not give the stored coef_"),
    (BalancedWinnow(), state_array("v", lambda v: v[:-1]), r"state.v must be an array of shape"),
    (ALMA(), state_array("corrections", lambda k: -k), "holds a negative count"),
    (PNormPerceptron(), state_array("theta", lambda t: t * np.nan), "holds NaN"),
    (PNormPerceptron(), state_field("fit_intercept", 1), "must be true or false"),
    (ROMMA(), state_field("mistakes", {"numbers": "__meta__"}), "mistakes holds <U"),
], ids=lambda value: type(value).__name__ if hasattr(value, "fit") else None)
def test_forged_states_are_refused(estimator, change, message, tmp_path):
    kind = "positive" if isinstance(estimator, (Winnow, BalancedWinnow)) else "real"
    X, y = make_data(18, kind)
    path = tmp_path / "m.npz"
    save(fit(estimator.set_params(max_iter=2, random_state=0), X, y), path)
    rewrite(path, change)
    with pytest.raises(ModelFileError, match=message):
        load(path)


# -------------------------------------------------------------------------- river

def river_rows(X):
    return [dict(enumerate(row)) for row in X.tolist()]


def test_alma_equals_rivers_where_the_definitions_agree():
    """river's ``ALMAClassifier`` steps along ``x`` itself (not ``x/‖x‖_p``), rescales
    only the row's weights, by their p-norm (the paper: all of them, by the dual
    q-norm), and corrects on ``<`` (the paper: ``<=``). On rows of unit 2-norm
    without zeros, with p = 2 and no intercept, these are the paper's rule."""
    river = pytest.importorskip("river.linear_model")
    rng = np.random.RandomState(19)
    X = rng.standard_normal((120, 5))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = np.where(X @ rng.standard_normal(5) + 0.2 * rng.standard_normal(120) > 0, 1, -1)
    theirs = river.ALMAClassifier(p=2, alpha=0.9, B=1 / 0.9, C=2 ** 0.5)
    for x, label in zip(river_rows(X), y):
        theirs.learn_one(x, bool(label > 0))
    ours = fit(ALMA(fit_intercept=False, shuffle="none", max_iter=1), X, y)
    assert_allclose(ours.coef_[0], [theirs.w[i] for i in range(5)], rtol=1e-12)
    assert ours.n_updates_ == theirs.k - 1


@pytest.mark.parametrize("variant, mode", [("pa", 0), ("pa1", 1), ("pa2", 2)])
def test_two_class_multiclass_pa_equals_rivers_binary_pa(variant, mode):
    """With two classes the multiclass rule moves ``w_1 − w_0`` by ``2τ y x``: binary PA
    with river's ``C`` twice ours (PA-I caps ``2τ`` at ``2C``; PA-II's ``1/(2C)``
    becomes ``1/(4C)``). river's intercept is not in ``‖x‖²``, so none here."""
    river = pytest.importorskip("river.linear_model")
    X, y = make_data(20)
    C = 0.3
    theirs = river.PAClassifier(C=2 * C, mode=mode, learn_intercept=False)
    for x, label in zip(river_rows(X), y):
        theirs.learn_one(x, bool(label > 0))
    ours = fit(MulticlassPassiveAggressive(variant=variant, C=C, fit_intercept=False,
                                           shuffle="none", max_iter=1), X, y)
    assert_allclose(ours.coef_[1] - ours.coef_[0], [theirs.weights[i] for i in range(D)],
                    rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------------ clusters

SHARDED = [ALMA(max_iter=4, random_state=3), PNormPerceptron(p=3.0, max_iter=4, random_state=3),
           BalancedWinnow(alpha=1.5, max_iter=4, random_state=3),
           OnlineGradientDescent(loss="logistic", max_iter=4, random_state=3),
           MulticlassPassiveAggressive(max_iter=4, random_state=3)]


@pytest.mark.parametrize("mixing", ["uniform", "errors"])
@pytest.mark.parametrize("estimator", SHARDED, ids=repr)
def test_several_shards_train_every_rule(estimator, mixing):
    kind = "positive" if isinstance(estimator, BalancedWinnow) else "real"
    X, y = make_data(21, kind, n=150, n_classes=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(estimator, n_shards=3, mixing=mixing, client="threads").fit(X, y)
    assert mixed.score(X, y) > 0.6
    assert mixed.estimator_.n_mistakes_.shape == (mixed.n_iter_,)
    assert all(problem.seen[0] == problem.n_iter * len(y)  # the shards' rows, every epoch
               for problem in mixed.estimator_._problems)


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    X, y = make_data(22, "positive", n_classes=3)
    for estimator in SHARDED:  # compiled here first: the workers load the disk cache
        fit(type(estimator)(**{**estimator.get_params(), "max_iter": 1}), X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  env={"NUMBA_NUM_THREADS": "1"}) as cluster, \
            distributed.Client(cluster) as dask_client:
        yield dask_client


@pytest.mark.parametrize("estimator", SHARDED, ids=repr)
def test_dask_workers_train_the_states_as_threads_do(client, estimator):
    """The states (ALMA's corrections, θ, v) travel to the workers and back."""
    kind = "positive" if isinstance(estimator, BalancedWinnow) else "real"
    X, y = make_data(23, kind, n=150, n_classes=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        local = ParameterMixing(estimator, n_shards=3, client="threads").fit(X, y)
        remote = ParameterMixing(estimator, n_shards=3, client=client).fit(X, y)
    assert remote.backend_ == "dask"
    for a, b in zip(state_of(remote.estimator_), state_of(local.estimator_)):
        assert_array_equal(a, b)


# ------------------------------------------------------------------ average=True

AVERAGED = [case for case in BINARY if case.cls is not OnlineGradientDescent]


@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("case", AVERAGED, ids=repr)
def test_the_averaged_weights_are_the_mean_of_the_papers_iterates(case, form):
    """average=True publishes the mean of the weights after every example over two
    epochs: the paper loop run on every prefix of the rows (twice over), averaged."""
    X, y = make_data(21, case.kind, n=40)
    X = X[np.any(X != 0, axis=1)]  # (rows x = 0 are skipped by some rules: not examples)
    y = y[:len(X)]
    model = fit(case.cls(shuffle="none", max_iter=2, tol=None, average=True, fit_intercept=True,
                         **case.params), layout(X, form), y)
    rows, labels = np.vstack([X, X]), np.concatenate([y, y]).astype(float)
    iterates = [case.reference(rows[:t], labels[:t], True)[:2] for t in range(1, len(rows) + 1)]
    assert model.n_examples_ == len(rows)
    assert_allclose(model.coef_[0], np.mean([coef for coef, _ in iterates], axis=0),
                    rtol=RTOL, atol=ATOL)
    assert_allclose(model.intercept_[0], np.mean([b for _, b in iterates]), rtol=RTOL,
                    atol=ATOL)
    plain = fit(case.cls(shuffle="none", max_iter=2, tol=None, fit_intercept=True,
                         **case.params), layout(X, form), y)  # the running weights: the same
    assert_array_equal(model._problems[0].coef, plain._problems[0].coef)


@pytest.mark.parametrize("case", AVERAGED[::2], ids=repr)
def test_averaging_goes_on_across_calls_files_and_model_files(case, tmp_path):
    from rosenblatt.datasets import ChunkedFile
    from rosenblatt.streaming import fit_chunks

    X, y = make_data(22, case.kind, n=60)
    params = {"shuffle": "none", "tol": None, "max_iter": 3, "average": True, **case.params}
    whole = fit(case.cls(**params), X, y)
    calls = case.cls(**params)
    for _ in range(2):
        calls.partial_fit(X, y, classes=[-1, 1])
    save(calls, tmp_path / "m.npz")
    resumed = load(tmp_path / "m.npz").partial_fit(X, y)
    assert_array_equal(resumed.coef_, whole.coef_)  # calls, and a model file between them
    assert_array_equal(resumed.intercept_, whole.intercept_)
    path = tmp_path / "d.npy"
    np.save(path, np.column_stack([X, y]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        blocks = fit_chunks(case.cls(**params), ChunkedFile(path, 13))
    assert_array_equal(blocks.coef_, whole.coef_)  # a file in blocks, bit for bit
    assert_array_equal(blocks.intercept_, whole.intercept_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        one = ParameterMixing(case.cls(**params), n_shards=1, client="threads").fit(X, y)
        two = ParameterMixing(case.cls(**params), n_shards=2, client="threads").fit(X, y)
    assert_array_equal(one.coef_, whole.coef_)
    state = two.estimator_._problems[0].state  # two shards: the sums of both add up
    assert state.summed[0] == two.estimator_._problems[0].seen[0] == 3 * len(y)
    with pytest.raises(ValueError, match="average was changed to False between partial_fit"):
        calls.set_params(average=False).partial_fit(X, y)
