"""Every estimator, with the settings the generic tests need to run it quickly."""

from rosenblatt import (
    ALMA,
    AROW,
    IELLIP,
    NAROW,
    NHERD,
    PLA,
    ROMMA,
    AveragedPerceptron,
    BalancedWinnow,
    BatchPerceptron,
    ConfidenceWeighted,
    FTRLProximal,
    KernelPerceptron,
    LinearUnit,
    MulticlassAROW,
    MulticlassPassiveAggressive,
    MulticlassPerceptron,
    MulticlassSCW,
    OnlineGradientDescent,
    PassiveAggressiveClassifier,
    Perceptron,
    PNormPerceptron,
    PocketPerceptron,
    SecondOrderPerceptron,
    SoftConfidenceWeighted,
    VotedPerceptron,
    Winnow,
    linear_model,
)

#: every estimator: each rule registers itself in its module, and linear_model exports it
ALL = [getattr(linear_model, name) for name in linear_model.__all__]

#: the second-order rules (a covariance beside the weights; no ``init``)
SECOND_ORDER = [
    SecondOrderPerceptron, ConfidenceWeighted, AROW, NAROW, NHERD, IELLIP,
    SoftConfidenceWeighted, MulticlassAROW, MulticlassSCW,
]

#: the first-order online rules (no ``init``: they start at w = 0, Winnow's at w0)
FIRST_ORDER = [
    ROMMA, ALMA, OnlineGradientDescent, Winnow, BalancedWinnow, PNormPerceptron,
    MulticlassPassiveAggressive, FTRLProximal,
]

#: classes whose one problem holds every class (no one-vs-rest)
NATIVE_MULTICLASS = [MulticlassPerceptron, MulticlassAROW, MulticlassSCW,
                     MulticlassPassiveAggressive]

#: classes whose weights are one linear function per problem (coef_, intercept_)
LINEAR = [cls for cls in ALL if cls is not KernelPerceptron]

#: classes with a per-update trace
RECORDING = [cls for cls in ALL
             if cls not in (LinearUnit, KernelPerceptron, PassiveAggressiveClassifier)]

#: classes that stop at a mistake-free pass (LinearUnit stops on its loss)
MISTAKE_DRIVEN = [cls for cls in ALL if cls is not LinearUnit]

#: classes that separate the contracts' separable data (integers in [-5, 5]) within their
#: default max_iter. Not: Winnow (positive weights only, for features >= 0: these data
#: need a negative weight); BalancedWinnow (alpha=2 raised to features of ±5 moves a
#: weight 32-fold per mistake: ~100 epochs here, 2 on the data divided by 5); ALMA
#: (rows normalised in the p-norm, the bias a constant 1 beside features of 5: one
#: mistake per epoch for ~20 epochs here, 3 on the data divided by 5); NAROW (it stops
#: updating along a row once the row's variance is below 1/b, by design, and stalls at
#: 2 mistakes per epoch here with b=1)
SEPARATES_BY_DEFAULT = [cls for cls in MISTAKE_DRIVEN
                        if cls not in (Winnow, BalancedWinnow, ALMA, NAROW)]

#: classes that separate data without an epoch free of updates: passive-aggressive's
#: updates bring a row to a margin of exactly 1, rounding leaves some a hair below it,
#: so its default run ends by ``tol`` (its stall is not checked against the rows'
#: separability), separated but not converged
STOPS_BY_TOL_WHEN_SEPARATED = [PassiveAggressiveClassifier]


def limits(cls):
    """A small bound on the work, in the estimator's own terms."""
    if cls is PLA:
        return {"max_updates": 300}
    if cls is PassiveAggressiveClassifier:  # its own rule: stop when every margin is >= 1
        return {"max_iter": 15, "tol": None}
    if cls is ROMMA:  # on data no line separates, ‖w‖ grows ~3-fold per epoch
        return {"max_iter": 5}
    if cls is BalancedWinnow:
        # alpha=2 raised to features of ±5: its mistakes jump from epoch to epoch, and
        # tol's stall (not checked against separability for Winnow) ends the run before
        # it learns (0.55 accuracy on three_classes after 9 epochs); 15 epochs as before
        return {"max_iter": 15, "tol": None}
    return {"max_iter": 15}


def make(cls, **params):
    """An instance with a kernel that makes the dual estimator linear (and without
    ``init`` for the rules that take none)."""
    if cls is KernelPerceptron:
        params.setdefault("kernel", "linear")
        params.pop("init", None)
    if cls in SECOND_ORDER:  # no init: they start at w = 0, Σ = aI
        params.pop("init", None)
    if cls in FIRST_ORDER:  # no init either
        params.pop("init", None)
    return cls(**params)
