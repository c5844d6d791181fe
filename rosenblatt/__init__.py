"""rosenblatt: the perceptron family of linear classifiers.

Every variant of the classic texts, exactly as written, with traces and
pictures for learning, and fast compiled kernels for real data.

>>> from rosenblatt import Perceptron
>>> Perceptron(shuffle="none").fit([[0, 0], [1, 1]], ["no", "yes"]).predict([[2, 2]])
array(['yes'], dtype='<U3')
"""

from .linear_model import (
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
from .trace import Trace

__version__ = "0.1.0"

__all__ = [
    "PLA",
    "AveragedPerceptron",
    "BatchPerceptron",
    "KernelPerceptron",
    "LinearUnit",
    "MulticlassPerceptron",
    "PassiveAggressiveClassifier",
    "Perceptron",
    "PocketPerceptron",
    "Trace",
    "VotedPerceptron",
    "__version__",
]
