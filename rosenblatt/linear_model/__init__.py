"""The perceptron estimators, one private module per learning rule."""

from ._averaged import AveragedPerceptron
from ._batch import BatchPerceptron
from ._kernel_perceptron import KernelPerceptron
from ._linear_unit import LinearUnit
from ._multiclass import MulticlassPerceptron
from ._passive_aggressive import PassiveAggressiveClassifier
from ._perceptron import Perceptron
from ._pla import PLA
from ._pocket import PocketPerceptron
from ._voted import VotedPerceptron

__all__ = [
    "AveragedPerceptron",
    "BatchPerceptron",
    "KernelPerceptron",
    "LinearUnit",
    "MulticlassPerceptron",
    "PLA",
    "PassiveAggressiveClassifier",
    "Perceptron",
    "PocketPerceptron",
    "VotedPerceptron",
]
