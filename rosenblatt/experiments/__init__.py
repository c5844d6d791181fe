"""The texts' experiments, one function each, seeded, returning an
:class:`ExperimentResult` with the numbers (``.table()``) and a figure (``.plot()``)."""

from ._and_epochs import and_epochs
from ._epochs_curve import epochs_curve
from ._gradient_descent import gradient_descent
from ._iris_restarts import iris_restarts
from ._margin_bound import margin_bound
from ._permutation import permutation
from ._result import ExperimentResult
from ._target_line import target_line
from ._variants import variants

#: name -> function, for the command line
EXPERIMENTS = {
    "target_line": target_line,
    "and_epochs": and_epochs,
    "iris_restarts": iris_restarts,
    "epochs_curve": epochs_curve,
    "permutation": permutation,
    "variants": variants,
    "margin_bound": margin_bound,
    "gradient_descent": gradient_descent,
}

__all__ = ["EXPERIMENTS", "ExperimentResult", *EXPERIMENTS]
