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
from ._ftrl import FTRLProximal
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

#: every estimator: each class imported above (each module registers its own, see
#: rosenblatt.base._registry), so that adding a rule here is one import line
__all__ = sorted(name for name, value in dict(globals()).items() if isinstance(value, type))
