"""The rest of the family: passive-aggressive, margin, penalty and the stopping rule's tol.

Each rule is checked against scikit-learn on the same stream (``shuffle``
off) and against the plain loop of ``_reference.sgd_family``.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.linear_model import SGDClassifier

from rosenblatt import (
    AveragedPerceptron,
    MulticlassPerceptron,
    PassiveAggressiveClassifier,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from rosenblatt.engine import on_epoch
from rosenblatt.theory import check_mistake_bound, mistake_bound

from . import _reference as ref

TIGHT = {"rtol": 0, "atol": 1e-10}


def noisy_data(seed=0, n=200, d=5):
    """Data that no line separates, so every rule keeps updating."""
    rng = np.random.RandomState(seed)
    X = rng.randn(n, d)
    y = np.where(X @ rng.randn(d) + 0.5 * rng.randn(n) > 0, 1, -1)
    X[3] = 0.0  # a zero row: PA and PA-I skip it, PA-II does not
    return X, y


def sk_pa(variant, C, **params):
    return SGDClassifier(loss="hinge", penalty=None, learning_rate=variant, eta0=C,
                         shuffle=False, **params)


def quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit()


def epoch_mistakes(model, X, y, epochs):
    """The mistakes (updates) of each of the first ``epochs`` epochs of ``model``'s
    rule, run without ``tol``: ``tol`` only decides when the same epochs end."""
    totals = []
    run = clone(model).set_params(tol=None, max_iter=epochs)
    with on_epoch(run, lambda problem: totals.append(problem.n_updates)):
        quiet(lambda: run.fit(X, y))
    return np.diff([0] + totals).tolist()


def tol_stop_epoch(mistakes, tol, n_rows, n_iter_no_change):
    """The epoch the stopping rule ends at, written from its definition: the first
    mistake-free epoch, or the epoch completing ``n_iter_no_change`` epochs in a row
    whose mistakes were not below the fewest so far by ``tol × n_rows`` (data the
    linear program finds inseparable)."""
    fewest, stale = np.inf, 0
    for epoch, count in enumerate(mistakes, start=1):
        if count == 0:
            return epoch
        stale = 0 if count < fewest - tol * n_rows else stale + 1
        fewest = min(fewest, count)
        if stale >= n_iter_no_change:
            return epoch
    raise AssertionError("the rule did not stop within the epochs given")


# ----------------------------------------------------------- passive-aggressive

@pytest.mark.parametrize("variant", ["pa1", "pa2"])
@pytest.mark.parametrize("average", [False, True])
def test_passive_aggressive_equals_scikit_learn_sgd(variant, average):
    X, y = noisy_data()
    ours = quiet(lambda: PassiveAggressiveClassifier(
        variant=variant, C=0.3, average=average, shuffle="none", tol=None, max_iter=15,
    ).fit(X, y))
    theirs = quiet(lambda: sk_pa(variant, 0.3, average=average, tol=None, max_iter=15).fit(X, y))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, **TIGHT)


@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_passive_aggressive_equals_the_papers_pseudocode(variant):
    X, y = noisy_data(1)
    w, b, mean_w, mean_b = ref.sgd_family(X, y, rule=variant, C=0.5, epochs=7)
    plain = quiet(lambda: PassiveAggressiveClassifier(
        variant=variant, C=0.5, shuffle="none", tol=None, max_iter=7).fit(X, y))
    averaged = quiet(lambda: PassiveAggressiveClassifier(
        variant=variant, C=0.5, average=True, shuffle="none", tol=None, max_iter=7).fit(X, y))
    np.testing.assert_allclose(plain.coef_[0], w, **TIGHT)
    np.testing.assert_allclose(plain.intercept_[0], b, **TIGHT)
    np.testing.assert_allclose(averaged.coef_[0], mean_w, **TIGHT)
    np.testing.assert_allclose(averaged.intercept_[0], mean_b, **TIGHT)


@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_passive_aggressive_csr_equals_dense_and_scikit_learn_csr(variant):
    X, y = noisy_data(2)
    Xs = sp.csr_matrix(X)
    params = {"variant": variant, "C": 0.7, "shuffle": "none", "tol": None, "max_iter": 9}
    dense = quiet(lambda: PassiveAggressiveClassifier(**params).fit(X, y))
    sparse = quiet(lambda: PassiveAggressiveClassifier(**params).fit(Xs, y))
    np.testing.assert_allclose(sparse.coef_, dense.coef_, **TIGHT)
    np.testing.assert_allclose(sparse.intercept_, dense.intercept_, **TIGHT)
    if variant != "pa":  # scikit-learn's sparse path shrinks the intercept: compare without
        ours = quiet(lambda: PassiveAggressiveClassifier(**params, fit_intercept=False).fit(Xs, y))
        theirs = quiet(lambda: sk_pa(variant, 0.7, tol=None, max_iter=9,
                                     fit_intercept=False).fit(Xs, y))
        np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)


def test_passive_aggressive_one_vs_rest_and_partial_fit_equal_scikit_learn():
    rng = np.random.RandomState(4)
    X = rng.randn(150, 4)
    y = np.argmax(X @ rng.randn(4, 3), axis=1)
    ours = quiet(lambda: PassiveAggressiveClassifier(shuffle="none", tol=None, max_iter=6)
                 .fit(X, y))
    theirs = quiet(lambda: sk_pa("pa1", 1.0, tol=None, max_iter=6).fit(X, y))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, **TIGHT)
    stream = PassiveAggressiveClassifier(variant="pa2", C=0.1, shuffle="none")
    reference = sk_pa("pa2", 0.1)
    for chunk in np.array_split(np.arange(150), 5):
        stream.partial_fit(X[chunk], y[chunk], classes=[0, 1, 2])
        reference.partial_fit(X[chunk], y[chunk], classes=[0, 1, 2])
    np.testing.assert_allclose(stream.coef_, reference.coef_, **TIGHT)


def test_passive_aggressive_reaches_margin_one_on_separable_data():
    X = np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 0.0], [3.0, 1.0]])
    y = np.array([-1, -1, 1, 1])
    model = PassiveAggressiveClassifier(variant="pa", tol=None, shuffle="none").fit(X, y)
    assert model.converged_
    assert np.min(model.decision_function(X) * y) >= 1.0 - 1e-12


def test_passive_aggressive_refuses_a_bad_aggressiveness_and_variant():
    X, y = noisy_data()
    with pytest.raises(ValueError, match="'C' parameter"):
        PassiveAggressiveClassifier(C=0.0).fit(X, y)
    with pytest.raises(ValueError, match="'variant' parameter"):
        PassiveAggressiveClassifier(variant="pa3").fit(X, y)


def test_passive_aggressive_warns_about_its_own_stopping_rule():
    # PA is on the mistake-driven rules' one rule: its "mistake" is its update
    # condition (a margin below 1), and the warning is the common one
    X, y = noisy_data()
    with pytest.warns(ConvergenceWarning, match="max_iter=3 epochs without a mistake-free pass"):
        model = PassiveAggressiveClassifier(tol=None, max_iter=3).fit(X, y)
    assert model.stop_reason_ == "max_iter" and not model.converged_
    with pytest.warns(ConvergenceWarning,
                      match=r"still falling by more than tol=1e-09 × the rows within 50 epochs"):
        model = PassiveAggressiveClassifier(tol=1e-9, n_iter_no_change=50, max_iter=3).fit(X, y)
    assert model.stop_reason_ == "max_iter" and not model.converged_


# ----------------------------------------------------------------------- margin

@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
def test_margin_updates_until_every_example_clears_it(cls):
    X, y = noisy_data(5)
    w, b, mean_w, mean_b = ref.sgd_family(X, y, margin=2.5, epochs=4)
    model = quiet(lambda: cls(margin=2.5, shuffle="none", max_iter=4).fit(X, y))
    expected = (mean_w, mean_b) if cls is AveragedPerceptron else (w, b)
    np.testing.assert_allclose(model.coef_[0], expected[0], **TIGHT)
    np.testing.assert_allclose(model.intercept_[0], expected[1], **TIGHT)


def test_margin_zero_is_the_textbook_rule_for_every_online_estimator():
    X, y = noisy_data(6)
    for cls in (Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron,
                MulticlassPerceptron):
        plain = quiet(lambda cls=cls: cls(shuffle="none", max_iter=5).fit(X, y))
        zero = quiet(lambda cls=cls: cls(margin=0.0, shuffle="none", max_iter=5).fit(X, y))
        np.testing.assert_array_equal(zero.coef_, plain.coef_)
        assert zero.n_updates_ == plain.n_updates_


def test_a_margin_pushes_separable_data_past_it():
    X = np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]])
    y = np.array([-1, -1, -1, 1])
    for cls in (Perceptron, VotedPerceptron, PocketPerceptron):
        model = cls(margin=1.5, shuffle="none").fit(X, y)
        assert model.converged_
        if cls is Perceptron:
            assert np.min(model.decision_function(X) * y) > 1.5


def test_multiclass_margin_leads_by_more_than_the_margin():
    X = np.array([[0.0, 0], [4, 0], [0, 4], [1, 0], [4, 1], [1, 4]])
    y = np.array([0, 1, 2, 0, 1, 2])
    model = MulticlassPerceptron(margin=2.0, shuffle="none").fit(X, y)
    scores = model.decision_function(X)
    rivals = np.where(np.eye(3, dtype=bool)[y], -np.inf, scores).max(axis=1)
    assert model.converged_
    assert np.all(scores[np.arange(6), y] - rivals > 2.0)


@st.composite
def separable_problems(draw):
    """Points at least ``gap`` from a random line through a random offset."""
    seed = draw(st.integers(0, 2**31 - 1))
    n = draw(st.integers(2, 40))
    rng = np.random.RandomState(seed)
    direction = rng.randn(3)
    X = rng.uniform(-3, 3, size=(n, 2))
    scores = direction[0] + X @ direction[1:]
    keep = np.abs(scores) > 0.3
    if keep.sum() < 2 or len(np.unique(np.sign(scores[keep]))) < 2:
        X = np.array([[0.0, 0.0], [1.0, 1.0]])
        scores = np.array([-1.0, 1.0])
        keep = np.ones(2, dtype=bool)
    margin = draw(st.floats(0, 5))
    eta = draw(st.floats(0.1, 3))
    return X[keep], np.sign(scores[keep]), margin, eta


@settings(max_examples=30, deadline=None, derandomize=True)
@given(separable_problems())
def test_mistake_bound_with_margin_holds_on_random_separable_data(problem):
    X, y, margin, eta = problem
    model = Perceptron(margin=margin, eta=eta, shuffle="none", max_iter=100_000).fit(X, y)
    updates, bound, within = check_mistake_bound(model, X, y)
    assert model.converged_
    assert within, (updates, bound)
    assert bound == pytest.approx(mistake_bound(X, y, margin=margin, eta=eta))


def test_mistake_bound_refuses_a_negative_margin():
    with pytest.raises(ValueError, match="margin must be a finite number >= 0"):
        mistake_bound([[0.0], [1.0]], [0, 1], margin=-1)


# ---------------------------------------------------------------------- penalty

@pytest.mark.parametrize("penalty", ["l2", "l1", "elasticnet"])
def test_penalty_equals_scikit_learn_perceptron(penalty):
    X, y = noisy_data(7)
    params = {"penalty": penalty, "alpha": 0.01, "l1_ratio": 0.3, "max_iter": 20, "tol": None}
    ours = quiet(lambda: Perceptron(shuffle="none", **params).fit(X, y))
    theirs = quiet(lambda: SkPerceptron(shuffle=False, **params).fit(X, y))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, **TIGHT)
    w, b, _, _ = ref.sgd_family(X, y, penalty=penalty, alpha=0.01, l1_ratio=0.3, epochs=20)
    np.testing.assert_allclose(ours.coef_[0], w, **TIGHT)


@pytest.mark.parametrize("penalty", ["l2", "l1", "elasticnet"])
def test_penalty_on_csr_equals_scikit_learn_csr(penalty):
    X, y = noisy_data(8)
    X[np.abs(X) < 0.7] = 0.0  # truly sparse: the L1 part touches the stored features only
    Xs = sp.csr_matrix(X)
    params = {"penalty": penalty, "alpha": 0.003, "max_iter": 10, "fit_intercept": False,
              "tol": None}
    ours = quiet(lambda: Perceptron(shuffle="none", **params).fit(Xs, y))
    theirs = quiet(lambda: SkPerceptron(shuffle=False, **params).fit(Xs, y))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)


@pytest.mark.parametrize("penalty", ["l2", "l1", "elasticnet"])
def test_averaged_penalty_is_the_exact_mean_of_the_weights(penalty):
    X, y = noisy_data(9)
    _, _, mean_w, mean_b = ref.sgd_family(X, y, penalty=penalty, alpha=0.01, epochs=12)
    ours = quiet(lambda: AveragedPerceptron(penalty=penalty, alpha=0.01, shuffle="none",
                                            max_iter=12, tol=None).fit(X, y))
    np.testing.assert_allclose(ours.coef_[0], mean_w, **TIGHT)
    np.testing.assert_allclose(ours.intercept_[0], mean_b, **TIGHT)
    if penalty == "l2":
        # scikit-learn's running mean agrees to its rounding (its L1 average does
        # not follow the truncations, so only L2 is compared)
        theirs = quiet(lambda: SGDClassifier(
            loss="perceptron", learning_rate="constant", eta0=1.0, penalty="l2", alpha=0.01,
            average=True, shuffle=False, tol=None, max_iter=12).fit(X, y))
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-6)


def test_a_decay_to_zero_and_partial_fit_follow_scikit_learn():
    X, y = noisy_data(10)
    ours = quiet(lambda: Perceptron(penalty="l2", alpha=2.0, shuffle="none", max_iter=3)
                 .fit(X, y))
    theirs = quiet(lambda: SkPerceptron(penalty="l2", alpha=2.0, shuffle=False, tol=None,
                                        max_iter=3).fit(X, y))
    np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)
    stream = Perceptron(penalty="elasticnet", alpha=0.02, shuffle="none")
    reference = SkPerceptron(penalty="elasticnet", alpha=0.02, shuffle=False)
    for chunk in np.array_split(np.arange(len(y)), 4):
        stream.partial_fit(X[chunk], y[chunk], classes=[-1, 1])
        reference.partial_fit(X[chunk], y[chunk], classes=[-1, 1])
    np.testing.assert_allclose(stream.coef_, reference.coef_, **TIGHT)


def test_penalty_refuses_what_it_cannot_honour():
    X, y = noisy_data()
    with pytest.raises(ValueError, match="record=True traces the textbook updates"):
        Perceptron(penalty="l2", record=True).fit(X, y)
    model = AveragedPerceptron(penalty="l2").partial_fit(X, y, classes=[-1, 1])
    with pytest.raises(ValueError, match="penalty was changed between partial_fit calls"):
        model.set_params(penalty=None).partial_fit(X, y)
    with pytest.raises(ValueError, match="'l1_ratio' parameter"):
        Perceptron(penalty="elasticnet", l1_ratio=1.5).fit(X, y)


# -------------------------------------------------------------------------- tol

@pytest.mark.parametrize("penalty, tol, epochs", [
    (None, 1e-3, 9), (None, 1e-1, 6), ("l2", 1e-3, 15), ("l2", 1e-1, 6),
    ("l1", 1e-3, 13), ("l1", 1e-1, 6), ("elasticnet", 1e-3, 15), ("elasticnet", 1e-1, 6)])
def test_tol_stops_when_the_mistakes_stall_with_scikit_learns_weights(penalty, tol, epochs):
    # our tol watches the epoch's mistakes, scikit-learn's the perceptron loss: the
    # epochs differ, so the update arithmetic is compared with scikit-learn run
    # tol=None for the epochs ours ran, and the stop with the rule's definition
    X, y = noisy_data(11)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ours = Perceptron(penalty=penalty, tol=tol, shuffle="none").fit(X, y)
    theirs = quiet(lambda: SkPerceptron(penalty=penalty, tol=None, max_iter=ours.n_iter_,
                                        shuffle=False).fit(X, y))
    assert ours.n_iter_ == epochs == tol_stop_epoch(
        epoch_mistakes(ours, X, y, 60), tol, len(y), ours.n_iter_no_change)
    assert ours.converged_ is False and ours.stop_reason_ == "tol"
    # the separability program runs without a penalty only (no mistake bound with one)
    assert ours._problems[0].separable is (False if penalty is None else None)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=0, atol=1e-9)


@pytest.mark.parametrize("n_iter_no_change, averaged_epochs, pa_epochs",
                         [(1, 3, 6), (3, 10, 15), (5, 12, 17)])
def test_tol_with_averaging_and_passive_aggressive_stops_with_scikit_learns_weights(
        n_iter_no_change, averaged_epochs, pa_epochs):
    # the stop is our rule's (the epoch's mistakes, not scikit-learn's loss); the weights
    # are scikit-learn's, run tol=None for the epochs ours ran
    X, y = noisy_data(12)
    ours = AveragedPerceptron(tol=1e-3, n_iter_no_change=n_iter_no_change,
                              shuffle="none").fit(X, y)
    theirs = quiet(lambda: SGDClassifier(
        loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None, average=True,
        tol=None, max_iter=ours.n_iter_, shuffle=False).fit(X, y))
    assert ours.n_iter_ == averaged_epochs == tol_stop_epoch(
        epoch_mistakes(ours, X, y, 60), 1e-3, len(y), n_iter_no_change)
    assert ours.converged_ is False and ours.stop_reason_ == "tol"
    np.testing.assert_allclose(ours.coef_, theirs.coef_, **TIGHT)
    pa = PassiveAggressiveClassifier(n_iter_no_change=n_iter_no_change, shuffle="none").fit(X, y)
    sk = quiet(lambda: sk_pa("pa1", 1.0, tol=None, max_iter=pa.n_iter_).fit(X, y))
    assert pa.n_iter_ == pa_epochs == tol_stop_epoch(
        epoch_mistakes(pa, X, y, 60), 1e-3, len(y), n_iter_no_change)
    assert pa.converged_ is False and pa.stop_reason_ == "tol"
    np.testing.assert_allclose(pa.coef_, sk.coef_, **TIGHT)


def test_tol_keeps_going_past_a_mistake_free_epoch_as_scikit_learn_does():
    # scikit-learn's loss-based tol and ours end at different epochs: the weights after
    # the mistake-free epoch are compared with scikit-learn run tol=None as long as ours
    X = np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]])
    y = np.array([-1, -1, -1, 1])
    textbook = Perceptron(shuffle="none").fit(X, y)
    with warnings.catch_warnings():  # it met its rule and ran on, as asked: no warning
        warnings.simplefilter("error", ConvergenceWarning)
        ours = Perceptron(tol=1e-3, stop_mistake_free=False, shuffle="none",
                          max_iter=20).fit(X, y)
    theirs = quiet(lambda: SkPerceptron(tol=None, shuffle=False, max_iter=ours.n_iter_)
                   .fit(X, y))
    assert textbook.n_iter_ == 9 and textbook.stop_reason_ == "mistake_free"
    # mistake-free epochs are no stall: they run on to max_iter
    assert ours.n_iter_ == 20 and ours.converged_ and ours.stop_reason_ == "mistake_free"
    np.testing.assert_array_equal(ours.coef_, textbook.coef_)
    np.testing.assert_array_equal(ours.coef_, theirs.coef_)
    np.testing.assert_array_equal(ours.intercept_, theirs.intercept_)


def test_tol_on_the_other_epoch_rules_ends_the_run_early():
    X, y = noisy_data(13)
    for cls in (VotedPerceptron, PocketPerceptron, MulticlassPerceptron):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            model = cls(tol=1e-3, shuffle="none").fit(X, y)
        assert model.n_iter_ == 14 == tol_stop_epoch(
            epoch_mistakes(model, X, y, 60), 1e-3, len(y), model.n_iter_no_change)
        assert model.converged_ is False and model.stop_reason_ == "tol"
        with pytest.warns(ConvergenceWarning, match="without a mistake-free pass"):
            cls(tol=None, shuffle="none", max_iter=100).fit(X, y)


# ------------------------------------------------------------------ budget


def budget_oracle(X, y, kernel, budget, policy, epochs, seed):
    """The randomized (or oldest-first) budget perceptron, written plainly."""
    rng = np.random.RandomState(seed)
    rows, alphas, born, b, t = [], [], [], 0.0, 0
    for _ in range(epochs):
        for i in range(len(y)):
            t += 1
            f = b + sum(a * kernel(X[r], X[i]) for r, a in zip(rows, alphas))
            if y[i] * f > 0:
                continue
            b += y[i]
            if i in rows:
                alphas[rows.index(i)] += y[i]
                continue
            if len(rows) == budget:
                slot = int(np.argmin(born)) if policy == "oldest" else rng.randint(budget)
                rows[slot], alphas[slot], born[slot] = i, y[i], t
            else:
                rows.append(i)
                alphas.append(y[i])
                born.append(t)
    return rows, np.array(alphas, dtype=float), b


def ring(seed=0, n=120):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 2)
    return X, np.where((X**2).sum(axis=1) > 1.2, 1, -1)


@pytest.mark.parametrize("policy", ["random", "oldest"])
def test_budget_perceptron_equals_a_plain_loop(policy):
    from rosenblatt import KernelPerceptron

    X, y = ring()
    rbf = lambda a, b: np.exp(-0.5 * np.sum((a - b) ** 2))  # noqa: E731
    rows, alphas, b = budget_oracle(X, y, rbf, budget=8, policy=policy, epochs=3, seed=5)
    model = quiet(lambda: KernelPerceptron(
        kernel="rbf", gamma=0.5, budget=8, budget_policy=policy, shuffle="none", max_iter=3,
        random_state=5).fit(X, y))
    np.testing.assert_allclose(model.support_vectors_, X[rows], **TIGHT)
    np.testing.assert_allclose(model.dual_coef_, alphas, **TIGHT)
    np.testing.assert_allclose(model.intercept_, [b], **TIGHT)


def test_budget_is_respected_at_every_step(monkeypatch):
    from rosenblatt import KernelPerceptron
    from rosenblatt.linear_model._kernel_perceptron import BudgetState

    sizes = []
    mistake = BudgetState.mistake

    def counted(self, *args):
        slot = mistake(self, *args)
        sizes.append(len(self.dual))
        assert len(self.rows) == len(self.dual) == len(self.born) <= self.budget
        return slot

    monkeypatch.setattr(BudgetState, "mistake", counted)
    X, y = ring(1, 300)
    quiet(lambda: KernelPerceptron(budget=10, max_iter=5, random_state=0).fit(X, y))
    assert max(sizes) == 10 and len(sizes) > 50
    stream = KernelPerceptron(budget=4, budget_policy="oldest", random_state=0)
    for i in range(len(y)):
        stream.partial_fit(X[i:i + 1], y[i:i + 1], classes=[-1, 1])
        assert stream.support_vectors_.shape[0] == len(stream.dual_coef_) <= 4
    assert stream.n_updates_ > 4


def test_budget_refuses_voting_which_needs_every_mistake():
    from rosenblatt import KernelPerceptron

    X, y = ring()
    with pytest.raises(ValueError, match="needs every mistake, which a budget does not keep"):
        KernelPerceptron(budget=5, voting="vote").fit(X, y)
    model = quiet(lambda: KernelPerceptron(budget=5, max_iter=2).fit(X, y))
    with pytest.raises(ValueError, match="needs every mistake"):
        model.set_params(voting="average").predict(X)


def test_budget_on_csr_equals_dense():
    from rosenblatt import KernelPerceptron

    X, y = ring(2)
    params = {"budget": 6, "max_iter": 4, "random_state": 1, "kernel": "poly", "degree": 2}
    dense = quiet(lambda: KernelPerceptron(**params).fit(X, y))
    sparse = quiet(lambda: KernelPerceptron(**params).fit(sp.csr_matrix(X), y))
    np.testing.assert_allclose(sparse.support_vectors_.toarray(), dense.support_vectors_)
    np.testing.assert_allclose(sparse.dual_coef_, dense.dual_coef_, **TIGHT)


# ------------------------------------------------------------- command line, mixing


def test_cli_train_uses_the_default_tol_unless_told(capsys, tmp_path):
    from rosenblatt.cli import main
    from rosenblatt.io import load

    X, y = noisy_data(14)
    data = tmp_path / "noisy.csv"
    np.savetxt(data, np.column_stack([X, (y > 0).astype(int)]), delimiter=",",
               header="a,b,c,d,e,y", comments="")
    runs = {}
    for name, extra in {"default": [], "none": ["--tol", "none"], "set": ["--set", "tol=0.1"],
                        "pa": ["--model", "passive_aggressive"]}.items():
        out = tmp_path / f"{name}.npz"
        assert quiet(lambda out=out, extra=extra: main(
            ["train", str(data), "-o", str(out), "--quiet", "--set", "max_iter=200",
             "--set", "shuffle=none", *extra])) == 0
        runs[name] = load(out)
    capsys.readouterr()
    # the default tol (1e-3) of the stopping rule: the epoch its definition gives
    stop = tol_stop_epoch(epoch_mistakes(Perceptron(shuffle="none"), X, y, 60), 1e-3, len(y), 5)
    assert runs["default"].tol == 1e-3 and runs["default"].n_iter_ == stop == 12
    assert runs["default"].stop_reason_ == "tol" and runs["default"].converged_ is False
    assert runs["none"].tol is None and runs["none"].n_iter_ == 200
    assert runs["set"].tol == 0.1
    assert type(runs["pa"]).__name__ == "PassiveAggressiveClassifier" and runs["pa"].tol == 1e-3
    assert main(["train", str(data), "-o", str(tmp_path / "x.npz"), "--tol", "-1"]) == 2
    assert "expected a number >= 0 or 'none'" in capsys.readouterr().err
    assert main(["train", str(data), "-o", str(tmp_path / "x.npz"), "--model", "pla",
                 "--tol", "0.1"]) == 2
    assert "--tol applies to perceptron" in capsys.readouterr().err
    # the linear unit's own rule: its default kept, or every epoch without the loss
    for extra, tol, epochs in (([], 1e-6, None), (["--tol", "none"], None, 7)):
        out = tmp_path / "lu.npz"
        assert main(["train", str(data), "-o", str(out), "--quiet", "--model", "linear_unit",
                     "--set", "solver=sgd", "--set", "max_iter=7", "--set", "eta=0.001",
                     *extra]) == 0
        model = load(out)
        assert model.tol == tol and (epochs is None or model.n_iter_ == epochs)
        assert (model.loss_curve_.size == 0) == (tol is None)


@pytest.mark.parametrize("params", [
    {"margin": 1.0}, {"penalty": "l2"}, {"penalty": "elasticnet", "average": True},
    {"tol": None}, {"h0": 0.5}, {"weights_dtype": "float32"}, {"early_stopping": True},
], ids=lambda params: ",".join(f"{k}={v}" for k, v in params.items()))
def test_parameter_mixing_carries_every_option_to_the_shards(params):
    """Formerly refused or dropped: each option now trains the shards, so one shard
    equals the serial fit and two shards differ from the default's mixing."""
    from rosenblatt import AveragedPerceptron
    from rosenblatt.distributed import ParameterMixing

    X, y = noisy_data(15)
    params = dict(params)
    cls = AveragedPerceptron if params.pop("average", False) else Perceptron
    estimator = cls(max_iter=30, random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        serial = clone(estimator).fit(X, y)
        one = ParameterMixing(estimator, n_shards=1, client="threads").fit(X, y)
        two = ParameterMixing(estimator, n_shards=2, client="threads").fit(X, y)
        plain = ParameterMixing(cls(max_iter=30, random_state=0), n_shards=2,
                                client="threads").fit(X, y)
    assert_array_equal(one.coef_, serial.coef_)
    assert (one.n_iter_, one.n_updates_) == (serial.n_iter_, serial.n_updates_)
    assert not np.array_equal(two.coef_, plain.coef_) or two.n_iter_ != plain.n_iter_
    assert two.estimator_.get_params() == estimator.get_params()


def test_model_files_keep_the_new_parameters(tmp_path):
    from rosenblatt import KernelPerceptron
    from rosenblatt.io import load, save

    X, y = noisy_data(16)
    for model in (PassiveAggressiveClassifier(variant="pa2", C=0.2, average=True, tol=None,
                                              max_iter=4),
                  Perceptron(penalty="elasticnet", margin=0.5, tol=1e-3),
                  KernelPerceptron(budget=7, budget_policy="oldest", max_iter=2)):
        quiet(lambda model=model: model.fit(X, y))
        save(model, tmp_path / "m.npz")
        loaded = load(tmp_path / "m.npz")
        assert loaded.get_params() == model.get_params()
        np.testing.assert_array_equal(loaded.decision_function(X), model.decision_function(X))


def test_kernel_perceptron_tol_stops_where_the_linear_perceptron_does():
    from rosenblatt import KernelPerceptron

    X, y = noisy_data(17)
    primal = Perceptron(tol=1e-3, shuffle="none").fit(X, y)
    dual = KernelPerceptron(kernel="linear", tol=1e-3, shuffle="none").fit(X, y)
    assert dual.n_iter_ == primal.n_iter_ == 11
    assert dual.stop_reason_ == primal.stop_reason_ == "tol" and dual.converged_ is False
    np.testing.assert_array_equal(dual.predict(X), primal.predict(X))


def test_budget_mnist_example_keeps_its_budget_and_learns(shared_data):
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / "budget_mnist.py"
    spec = importlib.util.spec_from_file_location("budget_mnist", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    X, y = example.load_mnist(shared_data)
    assert X.shape == (10_000, 784) and set(np.unique(y)) == {-1, 1}
    results = quiet(lambda: example.accuracy_by_budget(X[:1200], y[:1200], 1000, budgets=(30,),
                                                       epochs=1, seeds=(0,)))
    assert results["random", 30][1] == results["oldest", 30][1] == 30
    accuracy, n_support, _ = results["random", None]
    assert n_support > 30 and accuracy[0] > 0.75
