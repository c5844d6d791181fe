"""The perceptron estimators, one private module per learning rule."""

from ._averaged import AveragedPerceptron
from ._batch import BatchPerceptron
from ._first_order import (
    ALMA,
    ROMMA,
    BalancedWinnow,
    OnlineGradientDescent,
    PNormPerceptron,
    Winnow,
)
from ._kernel_perceptron import KernelPerceptron
from ._linear_unit import LinearUnit
from ._multiclass import MulticlassPerceptron
from ._multiclass_pa import MulticlassPassiveAggressive
from ._multiclass_second_order import MulticlassAROW, MulticlassSCW
from ._passive_aggressive import PassiveAggressiveClassifier
from ._perceptron import Perceptron
from ._pla import PLA
from ._pocket import PocketPerceptron
from ._second_order import (
    AROW,
    IELLIP,
    NAROW,
    NHERD,
    ConfidenceWeighted,
    SecondOrderPerceptron,
    SoftConfidenceWeighted,
)
from ._voted import VotedPerceptron

__all__ = [
    "ALMA",
    "AROW",
    "AveragedPerceptron",
    "BalancedWinnow",
    "BatchPerceptron",
    "ConfidenceWeighted",
    "IELLIP",
    "KernelPerceptron",
    "LinearUnit",
    "MulticlassAROW",
    "MulticlassPassiveAggressive",
    "MulticlassPerceptron",
    "MulticlassSCW",
    "NAROW",
    "NHERD",
    "OnlineGradientDescent",
    "PLA",
    "PNormPerceptron",
    "PassiveAggressiveClassifier",
    "Perceptron",
    "PocketPerceptron",
    "ROMMA",
    "SecondOrderPerceptron",
    "SoftConfidenceWeighted",
    "VotedPerceptron",
    "Winnow",
]
