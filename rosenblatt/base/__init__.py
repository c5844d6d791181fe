"""What the estimators are made of, split by what varies between them.

- :mod:`._classifier` — labels, one-vs-rest problems, the ``fit``/``partial_fit``
  skeleton, convergence warnings (every estimator).
- :mod:`._linear` — primal weights: ``init``, warm start, ``coef_``,
  ``decision_function``, the trace (every estimator but the kernel perceptron).
- :mod:`._epochs` — the epoch loop: shuffling, convergence, ``max_iter``, early
  stopping (every estimator but PLA).
- :mod:`._problem` — one problem's running weights and the rule's typed state.
- :mod:`._parameters` — every parameter's constraint, written once.

A rule's own module (``rosenblatt/linear_model/_*.py``) combines them and adds
its epoch and its state; ``ARCHITECTURE.md`` walks through adding one.
"""

from ._classifier import OnlineMixin, PerceptronClassifier, on_epoch, warn
from ._epochs import NATURAL_ORDER, EpochLoop, ToleranceStop
from ._linear import LinearModel, Traced
from ._parameters import CONSTRAINTS, constraints
from ._problem import Problem, RuleState, TrainingData

__all__ = [
    "CONSTRAINTS",
    "NATURAL_ORDER",
    "EpochLoop",
    "LinearModel",
    "OnlineMixin",
    "PerceptronClassifier",
    "Problem",
    "RuleState",
    "ToleranceStop",
    "Traced",
    "TrainingData",
    "constraints",
    "on_epoch",
    "warn",
]
