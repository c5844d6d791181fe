"""The Forgetron and Projectron++ budgets of KernelPerceptron, against plain loops
written from the papers (Dekel, Shalev-Shwartz & Singer, SIAM J. Comput. 2008;
Orabona, Keshet & Caputo, JMLR 2009), cases worked by hand, the budget kept at
every step, and model files."""

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from rosenblatt import KernelPerceptron
from rosenblatt.io import ModelFileError, load, save
from rosenblatt.linear_model._kernel_perceptron import (
    BudgetRuleState,
    ForgetronState,
    ProjectronState,
)

CLOSE = {"rtol": 1e-9, "atol": 1e-9}


def quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit()


def ring(seed=0, n=80):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 2)
    return X, np.where((X ** 2).sum(axis=1) > 1.2, 1, -1)


def rbf(gamma):
    return lambda a, b: float(np.exp(-gamma * np.sum((a - b) ** 2)))


def with_bias(kernel, fit_intercept):
    """The kernel the rules run on: a constant feature adds 1 to every value."""
    return (lambda a, b: kernel(a, b) + 1.0) if fit_intercept else kernel


# ------------------------------------------------------------------ the Forgetron


def psi(lam, mu):
    """Ψ(λ, μ) = λ² + 2λ − 2λμ (the paper's damage of a removal)."""
    return lam * lam + 2 * lam - 2 * lam * mu


def forgetron_reference(X, y, kernel, budget, epochs):
    """The self-tuned Forgetron, written plainly from the paper: every mistake adds
    its example (I'_t = I_{t-1} ∪ {t}, σ_t = 1); over the budget, φ_t is the
    largest φ in (0, 1] with Ψ(φ σ_r, y_r φ f'_t(x_r)) + Q_{t-1} ≤ 15/32 M_t —
    found here by bisection, not by the estimator's closed form — every σ is
    multiplied by φ_t, Q_t = Q_{t-1} + Ψ(σ_{r,t+1}, y_r f''_t(x_r)), and the
    oldest term r_t = min I'_t is removed. Returns the terms (example, round,
    σ) oldest first, Q, M and every φ."""
    terms, Q, M, phis, t = [], 0.0, 0, [], 0

    def f(x):
        return sum(s * y[j] * kernel(X[j], x) for j, _, s in terms)

    for _ in range(epochs):
        for i in range(len(y)):
            t += 1
            if y[i] * f(X[i]) > 0:
                continue
            M += 1
            terms.append([i, t, 1.0])
            if len(terms) <= budget:
                continue
            r, _, sigma = terms[0]
            mu = y[r] * f(X[r])  # on f'_t, the function after the perceptron step

            def excess(phi, sigma=sigma, mu=mu):
                return psi(phi * sigma, phi * mu) + Q - 15 / 32 * M

            if excess(1.0) <= 0:
                phi = 1.0
            else:
                low, high = 0.0, 1.0  # excess(0) = Q − 15/32 M < 0 < excess(1)
                for _ in range(200):
                    middle = (low + high) / 2
                    low, high = (middle, high) if excess(middle) <= 0 else (low, middle)
                phi = low
            phis.append(phi)
            for term in terms:
                term[2] *= phi
            Q += psi(terms[0][2], y[r] * f(X[r]))  # f''_t: the shrunk function
            terms.pop(0)
    return terms, Q, M, phis


def by_age(model):
    state = model._problems[0].state
    order = np.argsort(state.born)
    return model.support_vectors_[order], model.dual_coef_[order], np.asarray(state.born)[order]


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
def test_forgetron_equals_the_papers_procedure(fit_intercept, epochs):
    X, y = ring(0)
    kernel = with_bias(rbf(0.5), fit_intercept)
    terms, Q, M, phis = forgetron_reference(X, y, kernel, budget=6, epochs=epochs)
    model = quiet(lambda: KernelPerceptron(
        kernel="rbf", gamma=0.5, budget=6, budget_policy="forgetron", shuffle="none",
        max_iter=epochs, tol=None, stop_mistake_free=False,
        fit_intercept=fit_intercept).fit(X, y))
    assert len(phis) > 10 and min(phis) < 1  # the shrinking was at work
    support, dual, born = by_age(model)
    assert_array_equal(born, [t for _, t, _ in terms])  # a repeated example is a new term
    assert_array_equal(support, X[[i for i, _, _ in terms]])
    assert_allclose(dual, [s * y[i] for i, _, s in terms], **CLOSE)
    state = model._problems[0].state
    assert state.mistakes == M == model.n_updates_
    assert state.damage == pytest.approx(Q, rel=1e-9)
    assert state.damage <= 15 / 32 * state.mistakes * (1 + 1e-12)
    # the bias is the constant feature's weight: the sum of the coefficients
    assert model.intercept_[0] == pytest.approx(float(fit_intercept) * dual.sum(), abs=1e-12)


def test_forgetron_on_a_case_worked_by_hand():
    """x1 = (1, 0), y = +1, then x2 = (0, 1), y = −1, budget 1, linear kernel: both are
    mistakes (f = 0). At the second, I' = {1, 2}, σ_r = 1, f'(x1) = 1 − 0 = 1, so
    μ' = 1, a = σ² − 2σμ' = −1, b = 2σ = 2, c = Q − 15/32 M = −15/16: a + b + c =
    1/16 > 0, so φ solves −φ² + 2φ − 15/16 = 0 in (0, 1): φ = 1 − √(1/16) = 3/4.
    Q = Ψ(3/4, 3/4) = 9/16 + 3/2 − 9/8 = 15/16, and x2 stays with −3/4."""
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, -1])
    model = quiet(lambda: KernelPerceptron(
        kernel="linear", budget=1, budget_policy="forgetron", fit_intercept=False,
        shuffle="none", max_iter=1).fit(X, y))
    assert_array_equal(model.support_vectors_, [[0.0, 1.0]])
    assert_array_equal(model.dual_coef_, [-0.75])
    state = model._problems[0].state
    assert (state.mistakes, state.damage) == (2, 15 / 16)
    assert model.intercept_[0] == 0.0


@pytest.mark.parametrize("sigma, margin, damage, mistakes, phi", [
    (1.0, 1.0, 0.0, 2, 0.75),         # the case above: a < 0, one root in (0, 1)
    (1.0, 0.75, 0.0, 1, 0.25),        # a = −1/2: −φ²/2 + 2φ − 15/32 = 0 at φ = 1/4
    (1.0, 0.0, 0.0, 1, np.sqrt(47 / 32) - 1),  # a = 1: φ² + 2φ − 15/32 = 0
    (1.0, 2.0, 0.0, 1, 1.0),          # removing a term the function still holds: free
    (0.5, 0.0, 0.0, 10, 1.0),         # room left in the damage: no shrinking
    (2.0, -1.0, 4.0, 9, None),        # c = 4 − 135/32 < 0, tight
])
def test_forgetron_shrink_factor_is_the_largest_phi_within_the_damage(
        sigma, margin, damage, mistakes, phi):
    found = ForgetronState.shrink_factor(sigma, margin, damage, mistakes)
    if phi is not None:
        assert found == pytest.approx(phi, rel=1e-12)
    assert 0 < found <= 1
    excess = psi(found * sigma, found * margin) + damage - 15 / 32 * mistakes
    assert excess <= 1e-12
    if found < 1:  # the largest: the damage is spent exactly, any larger φ exceeds it
        assert excess == pytest.approx(0, abs=1e-12)
        assert psi(found * 1.001 * sigma, found * 1.001 * margin) + damage > \
            15 / 32 * mistakes


# --------------------------------------------------------------- Projectron++


def projectron_reference(X, y, kernel, budget, eta, epochs):
    """Projectron++, written plainly from the paper with a budget added: the
    projection of k(x_t, ·) on the span of the support solves K d = k (no kept
    inverse); δ_t = √(k(x_t, x_t) − kᵀd). A mistake projects (β += y d) when
    δ_t ≤ η or the budget is full, else adds x_t with y_t. A margin error
    (0 < y f < 1, ℓ = 1 − y f) with ℓ − δ_t/η > 0 adds τ y d with
    τ = min(ℓ/‖Pk‖², 2(ℓ − δ_t/η)/‖Pk‖², 1), ‖Pk‖² = kᵀd."""
    support, beta, updates = [], [], 0
    for _ in range(epochs):
        for i in range(len(y)):
            k = np.array([kernel(X[j], X[i]) for j in support])
            margin = y[i] * float(k @ beta) if support else 0.0
            if margin >= 1:
                continue
            if support:
                gram = np.array([[kernel(X[a], X[b]) for b in support] for a in support])
                d = np.linalg.solve(gram, k)
                norm = float(k @ d)
            else:
                d, norm = np.zeros(0), 0.0
            delta = np.sqrt(max(kernel(X[i], X[i]) - norm, 0.0))
            if margin <= 0:
                updates += 1
                if delta <= eta or len(support) == budget:
                    beta = list(np.asarray(beta) + y[i] * d)
                else:
                    support.append(i)
                    beta.append(float(y[i]))
            elif support and (1 - margin) - delta / eta > 0 and norm > 0:
                loss = 1 - margin
                tau = min(loss / norm, 2 * (loss - delta / eta) / norm, 1.0)
                beta = list(np.asarray(beta) + tau * y[i] * d)
                updates += 1
    return support, np.array(beta), updates


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("budget, eta", [(100, 0.4), (7, 0.4), (12, 0.05)])
def test_projectron_equals_the_papers_procedure(fit_intercept, budget, eta):
    X, y = ring(1)
    kernel = with_bias(rbf(0.5), fit_intercept)
    support, beta, updates = projectron_reference(X, y, kernel, budget, eta, epochs=2)
    model = quiet(lambda: KernelPerceptron(
        kernel="rbf", gamma=0.5, budget=budget, budget_policy="projectron++",
        projectron_eta=eta, shuffle="none", max_iter=2, tol=None, stop_mistake_free=False,
        fit_intercept=fit_intercept).fit(X, y))
    assert_array_equal(model.support_vectors_, X[support])
    assert_allclose(model.dual_coef_, beta, rtol=1e-8, atol=1e-8)
    assert model.n_updates_ == updates
    assert len(support) <= budget
    assert model.intercept_[0] == pytest.approx(float(fit_intercept) * beta.sum(), abs=1e-8)
    if budget == 100:  # η alone bounds the support: below the budget, and projections
        assert len(support) < budget and len(support) < updates


def test_projectron_projects_a_point_in_the_span_by_hand():
    """Linear kernel, no bias: x1 = (1, 0), y = +1 and x2 = (0, 1), y = −1 are
    mistakes at f = 0, each at distance 1 > η from the span so far: added. x3 =
    (1, 1), y = −1: f(x3) = 1 − 1 = 0, a mistake, but x3 = x1 + x2 lies in the
    span (d = (1, 1), δ = 0 ≤ η): no new support vector, β = (1, −1) − (1, 1)."""
    X, y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([1, -1, -1])
    model = quiet(lambda: KernelPerceptron(
        kernel="linear", budget=10, budget_policy="projectron++", fit_intercept=False,
        shuffle="none", max_iter=1).fit(X, y))
    assert_array_equal(model.support_vectors_, X[:2])
    assert_allclose(model.dual_coef_, [0.0, -2.0], atol=1e-15)
    assert model.n_updates_ == 3


def test_projectron_with_a_linear_kernel_never_holds_more_than_the_dimension():
    rng = np.random.RandomState(4)
    X = rng.randn(200, 3)
    y = np.where(X @ [1.0, -1.0, 0.5] + 0.3 * rng.randn(200) > 0, 1, -1)
    for fit_intercept, dimension in ((False, 3), (True, 4)):  # K + 1: a fourth feature
        model = quiet(lambda fit_intercept=fit_intercept: KernelPerceptron(
            kernel="linear", budget=50, budget_policy="projectron++",
            fit_intercept=fit_intercept, max_iter=5, random_state=0).fit(X, y))
        assert model.support_vectors_.shape[0] == dimension
        assert model.n_updates_ > 50


def test_a_support_row_mistaken_again_is_its_own_projection():
    """A row already in the support projects on itself (δ = 0): its coefficient
    moves, and η = 0 (add whatever is not in the span) adds no duplicate."""
    X, y = ring(2, 60)
    model = quiet(lambda: KernelPerceptron(
        kernel="rbf", gamma=2.0, budget=60, budget_policy="projectron++", projectron_eta=0.0,
        max_iter=6, random_state=0).fit(X, y))
    support = model.support_vectors_
    assert len(np.unique(support, axis=0)) == len(support)
    assert np.all(np.isfinite(model.dual_coef_))


# ------------------------------------------------------------------ both policies

POLICIES = ["forgetron", "projectron++"]


@pytest.mark.parametrize("policy", POLICIES)
def test_the_budget_is_never_exceeded(policy, monkeypatch):
    sizes = []
    put = BudgetRuleState.put

    def counted(self, *args):
        put(self, *args)
        sizes.append(len(self.dual))
        assert len(self.rows) == len(self.dual) == len(self.born) <= self.budget
        if isinstance(self, ForgetronState):
            assert self.damage <= 15 / 32 * self.mistakes * (1 + 1e-12)

    monkeypatch.setattr(BudgetRuleState, "put", counted)
    X, y = ring(3, 300)
    quiet(lambda: KernelPerceptron(budget=10, budget_policy=policy, projectron_eta=0.01,
                                   max_iter=5, random_state=0).fit(X, y))
    assert max(sizes) == 10 and len(sizes) >= 10
    stream = KernelPerceptron(budget=4, budget_policy=policy, random_state=0)
    for i in range(len(y)):
        stream.partial_fit(X[i:i + 1], y[i:i + 1], classes=[-1, 1])
        assert stream.support_vectors_.shape[0] == len(stream.dual_coef_) <= 4
    assert stream.n_updates_ > 4


@pytest.mark.parametrize("policy", POLICIES)
def test_sparse_rows_equal_dense_ones_and_three_classes_train(policy):
    X, y = ring(5, 150)
    y3 = np.where(X[:, 0] > 1, 2, y)
    params = dict(kernel="poly", degree=2, budget=8, budget_policy=policy, max_iter=3,
                  random_state=1)
    dense = quiet(lambda: KernelPerceptron(**params).fit(X, y3))
    sparse = quiet(lambda: KernelPerceptron(**params).fit(sp.csr_matrix(X), y3))
    for a, b in zip(dense.dual_coef_, sparse.dual_coef_):
        assert_allclose(a, b, rtol=1e-9, atol=1e-9)
    for a, b in zip(dense.support_vectors_, sparse.support_vectors_):
        assert_array_equal(a, b.toarray())
    assert all(len(d) <= 8 for d in dense.dual_coef_) and len(dense.dual_coef_) == 3
    assert_array_equal(dense.predict(X), sparse.predict(sp.csr_matrix(X)))


@pytest.mark.parametrize("policy", POLICIES)
def test_the_decision_is_the_support_and_its_coefficients(policy):
    X, y = ring(6, 120)
    model = quiet(lambda: KernelPerceptron(kernel="rbf", gamma=0.7, budget=9,
                                           budget_policy=policy, max_iter=4,
                                           random_state=2).fit(X, y))
    gram = np.exp(-0.7 * ((X[:, None, :] - model.support_vectors_[None]) ** 2).sum(-1))
    assert_allclose(model.decision_function(X), gram @ model.dual_coef_ + model.intercept_[0],
                    rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("policy", POLICIES)
def test_save_load_predict_and_continue(policy, tmp_path):
    X, y = ring(7, 150)
    model = quiet(lambda: KernelPerceptron(kernel="rbf", gamma=0.5, budget=7,
                                           budget_policy=policy, projectron_eta=0.2,
                                           max_iter=3, random_state=0).fit(X, y))
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert loaded.get_params() == model.get_params()
    assert type(loaded._problems[0].state) is type(model._problems[0].state)
    assert_array_equal(loaded.decision_function(X), model.decision_function(X))
    if policy == "forgetron":
        assert (loaded._problems[0].state.mistakes, loaded._problems[0].state.damage) == \
            (model._problems[0].state.mistakes, model._problems[0].state.damage)
    for rows in np.array_split(np.arange(len(y)), 3):  # the saved run goes on, bit for bit
        model.partial_fit(X[rows], y[rows])
        loaded.partial_fit(X[rows], y[rows])
    assert_array_equal(loaded.dual_coef_, model.dual_coef_)
    assert_array_equal(loaded.support_vectors_, model.support_vectors_)
    assert_array_equal(loaded.intercept_, model.intercept_)
    # a file that only predicts
    save(model, tmp_path / "p.npz", training_state=False)
    assert_array_equal(load(tmp_path / "p.npz").decision_function(X), model.decision_function(X))


def rewrite(path, change):
    """Edit the metadata of a model file (as a forger would)."""
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    change(meta)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


# a negative damage is reachable (large row weights: see test_hardening_round4), so allowed
@pytest.mark.parametrize("damage", [1e6, float("inf")])
def test_a_forged_forgetron_damage_is_refused(damage, tmp_path):
    X, y = ring(8, 100)
    model = quiet(lambda: KernelPerceptron(budget=5, budget_policy="forgetron", max_iter=2,
                                           random_state=0).fit(X, y))
    path = tmp_path / "m.npz"
    save(model, path)

    def change(meta):
        fields = meta["training"][0]["state"]["fields"]
        assert meta["training"][0]["state"]["type"] == "ForgetronState"
        assert {"damage", "mistakes"} <= set(fields)
        fields["damage"] = damage

    rewrite(path, change)
    with pytest.raises(ModelFileError, match="damage"):
        load(path)


@pytest.mark.parametrize("policy", POLICIES)
def test_an_example_number_per_support_vector_is_checked_on_load(policy, tmp_path):
    X, y = ring(8, 100)
    model = quiet(lambda: KernelPerceptron(budget=5, budget_policy=policy, max_iter=2,
                                           random_state=0).fit(X, y))
    path = tmp_path / "m.npz"
    save(model, path)

    def change(meta):
        meta["training"][0]["state"]["fields"]["born"] = {"list": [1, 2]}

    rewrite(path, change)
    with pytest.raises(ModelFileError, match="born"):
        load(path)


def test_projectron_eta_is_validated_and_changes_nothing_else():
    X, y = ring(9, 60)
    with pytest.raises(ValueError, match="projectron_eta"):
        KernelPerceptron(budget=5, budget_policy="projectron++", projectron_eta=-1).fit(X, y)
    with pytest.raises(ValueError, match="budget_policy"):
        KernelPerceptron(budget=5, budget_policy="projectron").fit(X, y)
    # η is Projectron's alone: the other policies ignore it
    a = quiet(lambda: KernelPerceptron(budget=5, budget_policy="forgetron", max_iter=2,
                                       random_state=0).fit(X, y))
    b = quiet(lambda: KernelPerceptron(budget=5, budget_policy="forgetron", max_iter=2,
                                       projectron_eta=3.0, random_state=0).fit(X, y))
    assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert isinstance(a._problems[0].state, ForgetronState)
    assert isinstance(quiet(lambda: KernelPerceptron(budget=5, budget_policy="projectron++",
                                                     max_iter=1).fit(X, y))._problems[0].state,
                      ProjectronState)


# ------------------------------------------------------- scikit-learn's own checks

_ORDER_MATTERS = (
    "a weight of k is one update of k times the step, while k copies of a row are k "
    "updates at different points of the epoch (the online rule depends on order)"
)


_FORGETRON_SWINGS = (
    "the stopping rule ends the run on these noisy blobs after n_iter_no_change=20 epochs "
    "without fewer weighted training errors, and the Forgetron's function of that epoch "
    "(it shrinks every coefficient and drops the oldest vector at each mistake over its "
    "budget of 8) predicts the light class on the two-blob set; with tol=None, 1,000 "
    "epochs, it predicts the heavy class everywhere. Projectron++, random and oldest "
    "removal pass"
)


@parametrize_with_checks(
    [KernelPerceptron(budget=8, budget_policy="forgetron", max_iter=20, random_state=0),
     KernelPerceptron(budget=8, budget_policy="projectron++", max_iter=20, random_state=0)],
    expected_failed_checks=lambda estimator: {
        "check_sample_weight_equivalence_on_dense_data": _ORDER_MATTERS,
        "check_sample_weight_equivalence_on_sparse_data": _ORDER_MATTERS,
        **({"check_class_weight_classifiers": _FORGETRON_SWINGS}
           if estimator.budget_policy == "forgetron" else {}),
    },
)
def test_scikit_learn_checks(estimator, check):
    check(estimator)
