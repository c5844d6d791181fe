"""scikit-learn's own compliance suite, run on every estimator."""

import pytest
from sklearn.utils.estimator_checks import (
    check_classifiers_train,
    parametrize_with_checks,
)
from sklearn.utils.metaestimators import available_if

from rosenblatt.linear_model import (
    ALMA,
    AROW,
    IELLIP,
    NAROW,
    NHERD,
    ROMMA,
    BalancedWinnow,
    ConfidenceWeighted,
    FTRLProximal,
    MulticlassAROW,
    MulticlassPassiveAggressive,
    MulticlassSCW,
    OnlineGradientDescent,
    PNormPerceptron,
    SecondOrderPerceptron,
    SoftConfidenceWeighted,
    Winnow,
)

from ._estimators import (
    PLA,
    AveragedPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    PassiveAggressiveClassifier,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)

ESTIMATORS = [
    Perceptron(random_state=0),
    PLA(random_state=0),
    BatchPerceptron(random_state=0),
    PocketPerceptron(random_state=0),
    AveragedPerceptron(random_state=0),
    VotedPerceptron(random_state=0),
    LinearUnit(random_state=0),
    LinearUnit(solver="sgd", random_state=0),
    MulticlassPerceptron(random_state=0),
    MulticlassPerceptron(average=True, random_state=0),
    KernelPerceptron(random_state=0),
    KernelPerceptron(kernel="linear", voting="vote", random_state=0),
    PassiveAggressiveClassifier(random_state=0),
    PassiveAggressiveClassifier(variant="pa2", average=True, random_state=0),
    Perceptron(penalty="elasticnet", tol=1e-3, random_state=0),
    AveragedPerceptron(penalty="l2", margin=0.5, random_state=0),
]

#: the first-order online rules, and the variants that change their arithmetic
ESTIMATORS += [
    ROMMA(random_state=0), ROMMA(aggressive=True, random_state=0),
    ALMA(random_state=0), ALMA(p=4.0, alpha=0.5, random_state=0),
    OnlineGradientDescent(random_state=0),
    OnlineGradientDescent(loss="logistic", random_state=0),
    OnlineGradientDescent(loss="squared", eta=1e-4, random_state=0),
    OnlineGradientDescent(learning_rate="optimal", penalty="elasticnet", average=True,
                          random_state=0),
    OnlineGradientDescent(loss="logistic", learning_rate="adaptive", eta=0.1, penalty="l1",
                          random_state=0),
    OnlineGradientDescent(learning_rate="constant", eta=0.01, average=True, random_state=0),
    Winnow(random_state=0), BalancedWinnow(random_state=0),
    PNormPerceptron(random_state=0), PNormPerceptron(p=2.0, random_state=0),
    MulticlassPassiveAggressive(random_state=0),
    MulticlassPassiveAggressive(variant="pa2", random_state=0),
    ROMMA(average=True, random_state=0), ALMA(p=3.0, average=True, random_state=0),
    Winnow(average=True, random_state=0), BalancedWinnow(average=True, random_state=0),
    PNormPerceptron(average=True, random_state=0),
    FTRLProximal(random_state=0), FTRLProximal(l1=0.0, l2=0.0, beta=0.0, random_state=0),
]

#: the second-order rules, full and diagonal covariance, and their variants
SECOND_ORDER = (SecondOrderPerceptron, ConfidenceWeighted, AROW, NAROW, NHERD, IELLIP,
                SoftConfidenceWeighted, MulticlassAROW, MulticlassSCW)
ESTIMATORS += [cls(random_state=0) for cls in SECOND_ORDER] + [
    SecondOrderPerceptron(covariance="diagonal", random_state=0),
    AROW(covariance="diagonal", random_state=0),
    SoftConfidenceWeighted(variant="II", covariance="diagonal", random_state=0),
    MulticlassAROW(covariance="diagonal", random_state=0),
    MulticlassSCW(variant="II", random_state=0),
]

_ORDER_MATTERS = (
    "a weight of k is one update of k times the step, while k copies of a row are k "
    "updates at different points of the epoch (the online rule depends on order); "
    "scikit-learn marks its own Perceptron the same way"
)


_STALL_BEFORE_THE_WEIGHTS_LEAN = (
    "the stopping rule ends the run on these noisy blobs (cluster_std=20: no line separates "
    "them) when the weighted training errors have not fallen by tol x the total weight for "
    "n_iter_no_change=20 epochs, after 29-81 epochs with 0.76-0.96 of the test rows given "
    "the heavy class (the check asks 0.87); with tol=None the same fit reaches 0.98. "
    "scikit-learn's tolerance on the perceptron loss runs longer on these data"
)

_PA2_CLASS_WEIGHT = (
    "a class weight of 1000 multiplies PA-II's exact step by 1000, so each step overshoots "
    "and the weights overflow; we refuse them with a ValueError, as scikit-learn's "
    "SGDClassifier(learning_rate='pa2') does on this check"
)


_PROJECTION_HAS_NO_STEP = (
    "ROMMA's update is a projection onto two constraints, without a step size: a row's "
    "weight only says whether it is there (0) or not, so neither a weight of 2 nor a class "
    "weight of 1000 changes the update"
)

_ALMA_CLASS_WEIGHT = (
    "ALMA's weights go back into the unit q-ball after every correction and its correction "
    "test ignores row weights: a class weight of 1000 makes a correction land on the ball "
    "along its row, as a weight of 1 soon does too, and the rows weighted 1e-4 still shrink "
    "the margin and step; 40-56 % of the predictions are class 0 where the check asks 87 %"
)

_WINNOW_POSITIVE = (
    "Winnow's weights are positive (multiplicative updates from w0 > 0): it learns "
    "boundaries w·x = threshold with positive weights only, for features >= 0; the check's "
    "blobs need weights of either sign (BalancedWinnow learns those and passes)"
)

_EXPONENT_OVERFLOW = (
    "a class weight of 1000 multiplies the exponent of alpha^(y x_i): one mistake raises "
    "weights to 2^(1000 x), which overflow and are refused with a ValueError"
)

_EXACT_STEP_OVERSHOOTS = (
    "a class weight of 1000 multiplies the exact passive-aggressive step by 1000, so each "
    "step overshoots and the weights overflow; refused with a ValueError (see PA-II above)"
)


def _first_order_failures(estimator):
    """The first-order rules' expected failures, or None for the other estimators."""
    if not isinstance(estimator, (ROMMA, ALMA, OnlineGradientDescent, Winnow, BalancedWinnow,
                                  PNormPerceptron, MulticlassPassiveAggressive, FTRLProximal)):
        return None
    reason = _PROJECTION_HAS_NO_STEP if isinstance(estimator, ROMMA) else _ORDER_MATTERS
    failures = {"check_sample_weight_equivalence_on_dense_data": reason,
                "check_sample_weight_equivalence_on_sparse_data": reason}
    if isinstance(estimator, ROMMA):
        failures["check_class_weight_classifiers"] = _PROJECTION_HAS_NO_STEP
    elif isinstance(estimator, ALMA):
        failures["check_class_weight_classifiers"] = _ALMA_CLASS_WEIGHT
    elif isinstance(estimator, (Winnow, BalancedWinnow)):
        failures["check_class_weight_classifiers"] = _EXPONENT_OVERFLOW
    elif isinstance(estimator, MulticlassPassiveAggressive) and estimator.variant != "pa1":
        failures["check_class_weight_classifiers"] = _EXACT_STEP_OVERSHOOTS
    elif isinstance(estimator, PNormPerceptron) or (
            isinstance(estimator, OnlineGradientDescent) and (
                estimator.loss == "squared" or estimator.average)):
        # (averaged: the mean leans later than the running weights, as the averaged
        # perceptron's; with tol=None both averaged OGD variants here pass)
        failures["check_class_weight_classifiers"] = _STALL_BEFORE_THE_WEIGHTS_LEAN
    if isinstance(estimator, Winnow):
        for check in ("check_classifiers_train", "check_classifiers_train(readonly_memmap=True)",
                      "check_classifiers_train(readonly_memmap=True,X_dtype=float32)"):
            failures[check] = _WINNOW_POSITIVE
    return failures


_NO_LOSS_TO_WEIGH = (
    "CW and IELLIP have no loss to weigh: a row's weight only says whether it is there "
    "(0) or not, as their docstrings say, so a class weight of 1000 against 0.0001 changes "
    "nothing"
)

_SHARED_COVARIANCE_SHRINKS = (
    "a class weight of 1000 makes each update on a class-0 row shrink the shared full "
    "covariance to almost nothing along that row (r/1000 beside the variance), which then "
    "damps every class's later steps in those directions: 86 % of the predictions are "
    "class 0 on the three blobs where the check asks 87 % (the diagonal form gets 100 %)"
)


#: the rules whose predict_proba is the Gaussian's Φ(M/√V) (see linear_model/_probabilities.py)
GAUSSIAN = (ConfidenceWeighted, AROW, NAROW, NHERD, SoftConfidenceWeighted)

_PROBABILITY_WEIGHS_THE_VARIANCE = (
    "the Gaussian model's probability Φ(M/√V) is not a function of the score M alone: a row "
    "with a larger score and a larger variance V can be less probable, so the ranks of "
    "predict_proba and decision_function differ on some rows (for one-vs-rest, argmax of "
    "the probabilities ranks classes by M_k/√V_k where predict takes the largest M_k: "
    "2 rows of 300 on the check's blobs). The rest of check_classifiers_train runs below, "
    "in test_the_gaussian_rules_pass_check_classifiers_train_without_predict_proba"
)

#: the checks that assume predict_proba is a monotone map of decision_function
_MONOTONE_PROBABILITY_CHECKS = (
    "check_decision_proba_consistency", "check_classifiers_train",
    "check_classifiers_train(readonly_memmap=True)",
    "check_classifiers_train(readonly_memmap=True,X_dtype=float32)",
)


def _second_order_failures(estimator):
    """The second-order rules' expected failures, or None for the other estimators."""
    if not isinstance(estimator, SECOND_ORDER):
        return None
    failures = {"check_sample_weight_equivalence_on_dense_data": _ORDER_MATTERS,
                "check_sample_weight_equivalence_on_sparse_data": _ORDER_MATTERS}
    if isinstance(estimator, GAUSSIAN):
        failures.update(dict.fromkeys(_MONOTONE_PROBABILITY_CHECKS,
                                      _PROBABILITY_WEIGHS_THE_VARIANCE))
    if isinstance(estimator, (ConfidenceWeighted, IELLIP)):
        failures["check_class_weight_classifiers"] = _NO_LOSS_TO_WEIGH
    # "auto" is full on the checks' few features
    if isinstance(estimator, MulticlassAROW) and estimator.covariance in ("full", "auto"):
        failures["check_class_weight_classifiers"] = _SHARED_COVARIANCE_SHRINKS
    return failures


def expected_failed_checks(estimator):
    first_order = _first_order_failures(estimator)
    if first_order is not None:
        return first_order
    second_order = _second_order_failures(estimator)
    if second_order is not None:
        return second_order
    if isinstance(estimator, PassiveAggressiveClassifier) and estimator.variant == "pa2":
        return {
            "check_sample_weight_equivalence_on_dense_data": _ORDER_MATTERS,
            "check_sample_weight_equivalence_on_sparse_data": _ORDER_MATTERS,
            "check_class_weight_classifiers": _PA2_CLASS_WEIGHT,
        }
    order_dependent = (Perceptron, PocketPerceptron, PLA, AveragedPerceptron, VotedPerceptron,
                       MulticlassPerceptron, KernelPerceptron, PassiveAggressiveClassifier)
    if isinstance(estimator, order_dependent) or (
        isinstance(estimator, LinearUnit) and estimator.solver == "sgd"
    ):
        failures = {
            "check_sample_weight_equivalence_on_dense_data": _ORDER_MATTERS,
            "check_sample_weight_equivalence_on_sparse_data": _ORDER_MATTERS,
        }
        if isinstance(estimator, (AveragedPerceptron, PassiveAggressiveClassifier)) or (
                type(estimator) is Perceptron and estimator.penalty is None):
            failures["check_class_weight_classifiers"] = _STALL_BEFORE_THE_WEIGHTS_LEAN
        return failures
    return {}


# scikit-learn's checks fit on small random data that no line separates: every rule
# runs to max_iter and warns, which is what it should do and not what these checks test
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_every_public_estimator_is_checked():
    import rosenblatt.linear_model

    public = {getattr(rosenblatt.linear_model, name) for name in rosenblatt.linear_model.__all__}
    assert {type(estimator) for estimator in ESTIMATORS} == public


def _without_probabilities(estimator):
    """``estimator`` as a class whose ``predict_proba`` is switched off (clones
    stay of that class), for the checks that assume a monotone link."""
    cls = type(estimator)
    hidden = available_if(lambda self: False)
    plain = type(cls.__name__, (cls,), {"predict_proba": hidden(cls.predict_proba),
                                        "predict_log_proba": hidden(cls.predict_log_proba),
                                        "__module__": cls.__module__,
                                        "__doc__": cls.__doc__})
    return plain(**estimator.get_params())


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("readonly_memmap, X_dtype", [(False, "float64"), (True, "float64"),
                                                      (True, "float32")])
@pytest.mark.parametrize("estimator", [e for e in ESTIMATORS if isinstance(e, GAUSSIAN)],
                         ids=repr)
def test_the_gaussian_rules_pass_check_classifiers_train_without_predict_proba(
        estimator, readonly_memmap, X_dtype):
    """Everything else check_classifiers_train asks (its accuracy, shapes, errors),
    which the expected failure above would leave untested."""
    plain = _without_probabilities(estimator)
    assert not hasattr(plain, "predict_proba")
    check_classifiers_train(type(estimator).__name__, plain, readonly_memmap=readonly_memmap,
                            X_dtype=X_dtype)
