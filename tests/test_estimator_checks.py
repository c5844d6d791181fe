"""scikit-learn's own compliance suite, run on every estimator."""

from sklearn.utils.estimator_checks import parametrize_with_checks

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

_ORDER_MATTERS = (
    "a weight of k is one update of k times the step, while k copies of a row are k "
    "updates at different points of the epoch (the online rule depends on order); "
    "scikit-learn marks its own Perceptron the same way"
)


_PA2_CLASS_WEIGHT = (
    "a class weight of 1000 multiplies PA-II's exact step by 1000, so each step overshoots "
    "and the weights overflow; we refuse them with a ValueError, as scikit-learn's "
    "SGDClassifier(learning_rate='pa2') does on this check"
)


def expected_failed_checks(estimator):
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
        return {
            "check_sample_weight_equivalence_on_dense_data": _ORDER_MATTERS,
            "check_sample_weight_equivalence_on_sparse_data": _ORDER_MATTERS,
        }
    return {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_every_public_estimator_is_checked():
    import rosenblatt.linear_model

    public = {getattr(rosenblatt.linear_model, name) for name in rosenblatt.linear_model.__all__}
    assert {type(estimator) for estimator in ESTIMATORS} == public
