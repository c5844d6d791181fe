"""Every estimator, with the settings the generic tests need to run it quickly."""

from rosenblatt import (
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

ALL = [
    Perceptron, PLA, BatchPerceptron, PocketPerceptron, AveragedPerceptron,
    VotedPerceptron, LinearUnit, MulticlassPerceptron, KernelPerceptron,
    PassiveAggressiveClassifier,
]

#: classes whose weights are one linear function per problem (coef_, intercept_)
LINEAR = [cls for cls in ALL if cls is not KernelPerceptron]

#: classes with a per-update trace
RECORDING = [cls for cls in ALL
             if cls not in (LinearUnit, KernelPerceptron, PassiveAggressiveClassifier)]

#: classes that stop at a mistake-free pass (LinearUnit stops on its loss)
MISTAKE_DRIVEN = [cls for cls in ALL if cls is not LinearUnit]


def limits(cls):
    """A small bound on the work, in the estimator's own terms."""
    if cls is PLA:
        return {"max_updates": 300}
    if cls is PassiveAggressiveClassifier:  # its own rule: stop when every margin is >= 1
        return {"max_iter": 15, "tol": None}
    return {"max_iter": 15}


def make(cls, **params):
    """An instance with a kernel that makes the dual estimator linear."""
    if cls is KernelPerceptron:
        params.setdefault("kernel", "linear")
        params.pop("init", None)
    return cls(**params)
