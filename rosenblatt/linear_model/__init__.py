"""The perceptron estimators, one private module per learning rule.

>>> make_estimator("averaged", shuffle="none")
AveragedPerceptron(shuffle='none')
"""

from ._averaged import AveragedPerceptron
from ._batch import BatchPerceptron
from ._epoch_function import EpochResult, run_epoch
from ._kernel_perceptron import KernelPerceptron
from ._linear_unit import LinearUnit
from ._multiclass import MulticlassPerceptron
from ._perceptron import Perceptron
from ._pla import PLA
from ._pocket import PocketPerceptron
from ._voted import VotedPerceptron

ESTIMATORS = (
    "AveragedPerceptron",
    "BatchPerceptron",
    "KernelPerceptron",
    "LinearUnit",
    "MulticlassPerceptron",
    "PLA",
    "Perceptron",
    "PocketPerceptron",
    "VotedPerceptron",
)

#: Short names (as the command line takes them) of the estimators.
SHORT_NAMES = {
    "perceptron": "Perceptron",
    "pla": "PLA",
    "batch": "BatchPerceptron",
    "pocket": "PocketPerceptron",
    "averaged": "AveragedPerceptron",
    "voted": "VotedPerceptron",
    "linear_unit": "LinearUnit",
    "multiclass": "MulticlassPerceptron",
    "kernel": "KernelPerceptron",
}


def make_estimator(name, **params):
    """An estimator by short name (``"pla"``) or class name (``"PLA"``), its
    parameters checked at once (a ``ValueError`` names a bad one).

    Parameters
    ----------
    name : str
        One of :data:`SHORT_NAMES` or :data:`ESTIMATORS`.
    **params
        Parameters of the estimator.

    Returns
    -------
    estimator
    """
    key = SHORT_NAMES.get(name.lower(), name)
    if key not in ESTIMATORS:
        raise ValueError(f"unknown model {name!r}; choose one of "
                         f"{', '.join(sorted(SHORT_NAMES))}")
    estimator = globals()[key]
    try:
        model = estimator(**params)
    except TypeError as error:
        raise ValueError(f"{key} does not take {error}") from error
    model._validate_params()
    return model


__all__ = [
    *ESTIMATORS,
    "EpochResult",
    "make_estimator",
    "run_epoch",
]
