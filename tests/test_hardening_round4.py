"""Hardening, round four (issue 35), items 8-16: the online family, model files, inputs.

Each test failed on main before its fix: a traceback that is not a ValueError, a
silently wrong model, or a file the library cannot read back.
"""

import json
import warnings

import numpy as np
import pytest

from rosenblatt import Perceptron
from rosenblatt.io import ModelFileError, load, save

X4 = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
Y4 = np.array([0, 1, 1, 0])


def _edit_meta(path, edit):
    arrays = dict(np.load(path))
    meta = json.loads(str(arrays["__meta__"]))
    edit(meta)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


# ---------------------------------------------------------------- 15: format version

@pytest.mark.parametrize("version", [-5, 0, True, False, 1.0, "2", None, [2]])
def test_a_format_version_that_is_not_one_this_writes_is_refused(tmp_path, version):
    path = tmp_path / "m.npz"
    save(Perceptron().fit(X4, Y4), path)
    _edit_meta(path, lambda meta: meta.update(format_version=version))
    with pytest.raises(ModelFileError, match=r"m\.npz: format_version: must be a whole number "
                                             r"from 1 to 3"):
        load(path)


def test_a_training_state_in_a_format_1_file_is_refused(tmp_path):
    path = tmp_path / "m.npz"
    save(Perceptron().fit(X4, Y4), path, training_state=True)
    _edit_meta(path, lambda meta: meta.update(format_version=1))
    with pytest.raises(ModelFileError, match=r"m\.npz: training: holds a training state"):
        load(path)


@pytest.mark.parametrize("name", [["Perceptron"], {"a": 1}, 3, None])
def test_an_estimator_name_that_is_not_a_string_is_refused(tmp_path, name):
    path = tmp_path / "m.npz"
    save(Perceptron().fit(X4, Y4), path)
    _edit_meta(path, lambda meta: meta.update(estimator=name))
    with pytest.raises(ModelFileError, match="unknown estimator"):
        load(path)


# ---------------------------------------------------------------- 11: parameters

def _all_estimators():
    from ._estimators import ALL
    return ALL


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
@pytest.mark.parametrize("name", ["eta", "C", "margin", "tol", "alpha", "gamma", "coef0", "a",
                                  "r", "random_state", "n_jobs", "validation_fraction",
                                  "projectron_eta", "w0", "p"])
def test_a_bool_is_not_a_number_for_any_parameter(name, value):
    from sklearn.utils._param_validation import InvalidParameterError
    checked = 0
    for cls in _all_estimators():
        constraint = cls._parameter_constraints.get(name)
        if constraint is None:
            continue
        checked += 1
        with pytest.raises(InvalidParameterError, match=name):
            cls(**{name: value}).fit(X4, Y4)
    assert checked


@pytest.mark.parametrize("gram", [
    lambda A, B: (A @ B.T).astype(str),
    lambda A, B: (A @ B.T).astype(str).astype(object),
    lambda A, B: (A @ B.T) + 1j,
    lambda A, B: (A @ B.T).astype(complex),
])
def test_a_callable_kernel_must_return_real_numbers(gram):
    from rosenblatt import KernelPerceptron
    with pytest.raises(ValueError, match=r"kernel\(A, B\) must return the Gram matrix as real "
                                         r"numbers.*dtype"):
        KernelPerceptron(kernel=gram).fit(X4, Y4)


def test_a_callable_kernel_may_return_a_sparse_matrix():
    import scipy.sparse as sp

    from rosenblatt import KernelPerceptron
    dense = KernelPerceptron(kernel=lambda A, B: A @ B.T, random_state=0).fit(X4, Y4)
    sparse = KernelPerceptron(kernel=lambda A, B: sp.csr_matrix(A @ B.T),
                              random_state=0).fit(X4, Y4)
    assert np.array_equal(dense.decision_function(X4), sparse.decision_function(X4))


# ---------------------------------------------------------------- 16: inputs

COMPLEX_X = [[[0, 1j], [1, 0]], np.array([[0, 1j], [1, 0]]),
             np.array([[0, 1j], [1, 0]], dtype=object)]


@pytest.mark.parametrize("X", COMPLEX_X)
def test_theory_refuses_complex_coordinates_as_the_estimators_do(X):
    from rosenblatt import theory
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's ComplexWarning: the imaginary part dropped
        for function in (theory.is_linearly_separable, theory.mistake_bound,
                         lambda X, y: Perceptron().fit(X, y)):
            with pytest.raises(ValueError, match="Complex data not supported: X holds"):
                function(X, [0, 1])


@pytest.mark.parametrize("X", [[[0, 1], [1]], [[0, 1], [1, 0, 2]]])
def test_a_ragged_list_as_X_says_what_to_pass(X):
    from rosenblatt import theory
    for function in (theory.is_linearly_separable, lambda X, y: Perceptron().fit(X, y),
                     lambda X, y: Perceptron().fit(X4[:2], y).predict(X)):
        with pytest.raises(ValueError, match="X must be a matrix: a list of rows that are all "
                                             "of the same length"):
            function(X, [0, 1])


def test_a_ragged_y_is_named_as_y():
    with pytest.raises(ValueError, match="y must be one class label per row of X"):
        Perceptron().fit(X4[:2], [[0], [1, 2]])


@pytest.mark.parametrize("solver", ["batch", "sgd"])
@pytest.mark.parametrize("X, fit_intercept", [
    (np.full((400, 3), 1e153), True),   # ‖x‖² summed over the rows: inf (ArpackError)
    (np.full((400, 3), 1e153), False),
    (np.random.RandomState(0).randn(40, 3) * 1e-160, False),  # the step: 1/0 = inf
])
def test_linear_unit_cannot_choose_a_step_says_so(X, fit_intercept, solver):
    from rosenblatt import LinearUnit
    if solver == "sgd" and X[0, 0] > 1:
        return  # one row's ‖x‖² is finite: SGD's step is
    with pytest.raises(ValueError, match="LinearUnit cannot choose eta='auto': the rows' "
                                         "squared norms"):
        LinearUnit(fit_intercept=fit_intercept, solver=solver, max_iter=2).fit(
            X, np.arange(len(X)) % 2)


# ------------------------------------------------------- 12-14: budget training states

def _budget_model(policy, **fit):
    from rosenblatt import KernelPerceptron
    rng = np.random.RandomState(0)
    X = rng.randn(60, 2)
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = KernelPerceptron(budget=4, budget_policy=policy, max_iter=3, random_state=0)
        return model.fit(X, y, **fit), X, y


def _edit_state(path, name, value):
    _edit_meta(path, lambda meta: meta["training"][0]["state"]["fields"].update({name: value}))


POLICIES = ["random", "oldest", "forgetron", "projectron++"]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("budget", [2, 100])
def test_a_budget_state_of_another_budget_is_refused(tmp_path, policy, budget):
    model, _, _ = _budget_model(policy)
    path = tmp_path / "m.npz"
    save(model, path)
    _edit_state(path, "budget", budget)
    with pytest.raises(ModelFileError, match=rf"m\.npz: training state problem0\.state\.budget "
                                             rf"is {budget}, but the model's parameter budget "
                                             "is 4"):
        load(path)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("value", ["abc", 3, [1, 2], {"list": [1, 2]}])
def test_a_budget_state_support_that_is_not_a_matrix_is_refused(tmp_path, policy, value):
    model, _, _ = _budget_model(policy)
    path = tmp_path / "m.npz"
    save(model, path)
    _edit_state(path, "support", value)
    with pytest.raises(ModelFileError, match=r"m\.npz: training state problem0\.state\.support"):
        load(path)


@pytest.mark.parametrize("seed", range(3))
def test_a_forgetron_trained_with_row_weights_reads_its_own_file(tmp_path, seed):
    weights = np.random.RandomState(seed).exponential(size=60) * 100
    model, X, y = _budget_model("forgetron", sample_weight=weights)
    assert model._problems[0].state.damage < 0  # what the file check refused
    path = tmp_path / "m.npz"
    save(model, path)
    loaded = load(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.partial_fit(X, y, sample_weight=weights)
        loaded.partial_fit(X, y, sample_weight=weights)
    assert np.array_equal(model.decision_function(X), loaded.decision_function(X))


@pytest.mark.parametrize("damage", [1e9, "x", float("inf")])
def test_a_forgetron_damage_over_its_share_is_refused(tmp_path, damage):
    model, _, _ = _budget_model("forgetron")
    path = tmp_path / "m.npz"
    save(model, path)
    _edit_state(path, "damage", damage)
    with pytest.raises(ModelFileError, match=r"m\.npz: training state problem0\.state\.damage"):
        load(path)


# ---------------------------------------------- 10: full covariances, Projectron++ η = 0

@pytest.mark.parametrize("name", ["AROW", "SecondOrderPerceptron", "SoftConfidenceWeighted"])
def test_full_covariances_of_many_classes_are_refused_by_their_total_size(name):
    import rosenblatt
    X = np.zeros((1000, 3000))  # 1,000 classes × 3,001² float64: 72 GB ("auto" is diagonal)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"3001 x 3001 float64 covariance matrix per problem"
                                             r": 72 GB for 1000 one-vs-rest problems, over the "
                                             r"2 GB it allows in all. Use covariance='diagonal'"):
            getattr(rosenblatt, name)(covariance="full").fit(X, np.arange(1000))


@pytest.mark.parametrize("eta", [0.0, 1e-12])
def test_projectron_with_eta_0_goes_on_training(eta):
    from rosenblatt import KernelPerceptron
    rng = np.random.RandomState(0)
    X = rng.randn(60, 2)
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    model = KernelPerceptron(budget=10, budget_policy="projectron++", projectron_eta=eta,
                             kernel="linear", max_iter=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y).partial_fit(X, y)  # was numpy's "Singular matrix"
    # a linear kernel with its bias spans 3 dimensions: no more support vectors than that
    assert model.support_vectors_.shape[0] == 3


def test_projectron_refuses_a_singular_support_in_words(tmp_path):
    from rosenblatt import KernelPerceptron
    rng = np.random.RandomState(0)
    X = rng.randn(60, 2)
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    model = KernelPerceptron(budget=10, budget_policy="projectron++", kernel="linear",
                             max_iter=3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    state = model._problems[0].state
    state.support = np.vstack([state.support, state.support[:1]])  # a vector twice
    state.dual = state.dual + [0.0]
    state.born = state.born + [0]
    state.loaded()
    with pytest.raises(ValueError, match="Projectron\\+\\+ cannot go on: the Gram matrix of "
                                         "its 4 support vectors is singular"):
        model.partial_fit(X, y)


# ------------------------------------------------ 8: second-order steps dividing by 0

@pytest.mark.parametrize("name, params, weight", [
    ("NHERD", {"C": 1e300, "fit_intercept": False}, 1.0),
    ("AROW", {"r": 1e-300, "fit_intercept": False}, 1e300),
    ("SoftConfidenceWeighted", {"variant": "II", "C": 1e-300}, 1e-300),
    ("MulticlassSCW", {"variant": "II", "C": 1e-300}, 1e-300),
])
def test_a_second_order_step_dividing_by_zero_is_a_value_error(name, params, weight):
    import rosenblatt
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=rf"{name} divided by zero in a step: its "
                                             r"parameters \(C, r\) times the row weights"):
            getattr(rosenblatt, name)(**params).fit(X4, [0, 0, 1, 1],
                                                    sample_weight=np.full(4, weight))


# ---------------------------------------------------------------- 9: ALMA's C

@pytest.mark.parametrize("C", [1.4e154, 1e200, float("inf")])
def test_alma_refuses_a_C_whose_step_overflows(C):
    from sklearn.utils._param_validation import InvalidParameterError

    from rosenblatt import ALMA
    with pytest.raises(InvalidParameterError, match="'C' parameter of ALMA must be a float "
                                                    "in the range"):
        ALMA(C=C).fit(X4, Y4)


# -------------------------------------------- 9: Winnow's underflow, ‖x‖² underflowing

_TINY = np.array([[1e-170, 0.0], [0.0, -1e-170], [2e-170, 1e-170], [-1e-170, -3e-170]])
_TINY_Y = np.array([1, 0, 1, 0])


@pytest.mark.parametrize("name, params", [
    ("ROMMA", {"fit_intercept": False}),
    ("ROMMA", {"fit_intercept": False, "aggressive": True}),
    ("ALMA", {"fit_intercept": False}),
    ("PassiveAggressiveClassifier", {"fit_intercept": False}),
    ("MulticlassPassiveAggressive", {"fit_intercept": False}),
])
@pytest.mark.parametrize("sparse", [False, True])
def test_rows_whose_squared_norm_underflows_are_refused_not_skipped(name, params, sparse):
    # they used to be skipped as x = 0 rows: converged_ = True with zero weights
    import scipy.sparse as sp

    import rosenblatt
    X = sp.csr_matrix(_TINY) if sparse else _TINY
    with pytest.raises(ValueError, match=r"not zero but its squared norm ‖x‖² underflows"):
        getattr(rosenblatt, name)(**params).fit(X, _TINY_Y)


@pytest.mark.parametrize("name", ["ROMMA", "PassiveAggressiveClassifier"])
def test_rows_that_are_zero_are_still_skipped(name):
    import rosenblatt
    X = np.vstack([X4, np.zeros((2, 2))])
    model = getattr(rosenblatt, name)(fit_intercept=False).fit(X, np.r_[Y4, 0, 1])
    assert np.all(np.isfinite(model.coef_))


@pytest.mark.parametrize("sparse", [False, True])
def test_winnow_weights_stay_positive_where_a_demotion_underflows(sparse):
    # a demotion by alpha ** 1100 = 2^1100 is below the smallest float64: the weight
    # became exactly 0, from which no promotion brings it back (the feature dead for
    # good, without a word); it now stays at the smallest positive float64. (Balanced
    # Winnow promotes v as it demotes u: there the same step overflows, and is refused.)
    import scipy.sparse as sp

    from rosenblatt import Winnow
    X = np.array([[1100.0, 1.0], [-1100.0, 1.0], [-1100.0, 0.0], [1100.0, 1.0]])
    model = Winnow(max_iter=20, shuffle="none", fit_intercept=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(sp.csr_matrix(X) if sparse else X, Y4)
    assert np.all(model.coef_ > 0) and model._problems[0].intercept[0] > 0


def test_a_winnow_weight_at_the_floor_is_promoted_again():
    from rosenblatt._kernels._first_order import SMALLEST_WEIGHT, winnow_epoch
    w, b, seen = np.array([SMALLEST_WEIGHT]), np.array([1.0]), np.zeros(1, dtype=np.int64)
    X, y = np.array([[1.0]]), np.array([1.0])
    winnow_epoch(X, y, None, np.zeros(0, dtype=np.int64), 2.0, 1.0, False, (w, b, seen), None)
    assert w[0] == 2 * SMALLEST_WEIGHT


# ---------------------------------------------------------------- 11: SCW's eta=None

@pytest.mark.parametrize("variant, eta", [("I", 0.75), ("II", 0.90)])
@pytest.mark.parametrize("name", ["SoftConfidenceWeighted", "MulticlassSCW"])
def test_scw_eta_none_is_the_variants_default_for_both_forms(name, variant, eta):
    # the binary form took None (LIBOL's per-variant default), the multiclass refused it
    import rosenblatt
    X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.2, 0.1], [0.9, 0.3], [0.1, 0.8]])
    y = np.array([0, 1, 2, 0, 1, 2]) if name == "MulticlassSCW" else np.array([0, 1, 1, 0, 1, 0])
    cls = getattr(rosenblatt, name)
    default = cls(variant=variant, max_iter=3, tol=None, shuffle="none")
    explicit = cls(variant=variant, eta=eta, max_iter=3, tol=None, shuffle="none")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        default.fit(X, y)
        explicit.fit(X, y)
    assert default.eta is None
    np.testing.assert_array_equal(default.coef_, explicit.coef_)


# ------------------------------------------------- 8, 9 through the command line

@pytest.mark.parametrize("argv, message", [
    (["--model", "nherd", "--set", "C=1e300", "--set", "fit_intercept=false"],
     "NHERD divided by zero in a step"),
    (["--model", "romma", "--set", "fit_intercept=false"], "underflows float64 to 0"),
    (["--model", "passive_aggressive", "--set", "fit_intercept=False", "--chunk-size", "1"],
     "underflows float64 to 0"),
])
def test_the_command_line_says_the_same_in_one_line(tmp_path, argv, message):
    from tests.test_hardening_cli import assert_user_error
    data = tmp_path / "d.svm"
    data.write_text("1 1:1e-170\n-1 2:1e-170\n" if "romma" in argv or "--chunk-size" in argv
                    else "-1 2:1\n1 1:1\n-1\n1 1:1 2:1\n")  # NHERD divides by 0 here, in any order
    assert_user_error(["train", data, *argv, "-o", tmp_path / "m.npz"], message)


def test_set_reads_true_and_false_as_a_shell_user_writes_them():
    from rosenblatt.cli._common import parse_settings
    assert parse_settings(["fit_intercept=false", "average=TRUE", "shuffle=none"]) == {
        "fit_intercept": False, "average": True, "shuffle": "none"}
