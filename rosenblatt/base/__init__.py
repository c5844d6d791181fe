"""What the estimators are made of, split by what varies between them.

- :mod:`._classifier` — labels, one-vs-rest problems, the ``fit``/``partial_fit``
  skeleton, convergence warnings (every estimator).
- :mod:`._linear` — primal weights: ``init``, warm start, ``coef_``,
  ``decision_function``, the trace (every estimator but the kernel perceptron).
- :mod:`._epochs` — the hooks of a rule made of epochs: row order, stopping,
  early stopping, mixing across shards.
- :mod:`._loop` — the one training loop: epochs over shards, the mixing step,
  the stopping rules (a serial fit is one shard).
- :mod:`._shard` — the rows a worker trains on, and the tasks run on them.
- :mod:`._problem` — one problem's running weights and the rule's typed state.
- :mod:`._parameters` — every parameter's constraint, written once.

A rule's own module (``rosenblatt/linear_model/_*.py``) combines them and adds
its epoch and its state; ``ARCHITECTURE.md`` walks through adding one.
"""

from ._classifier import OnlineMixin, PerceptronClassifier, on_epoch, warn
from ._epochs import EpochLoop, ToleranceStop
from ._linear import LinearModel, Traced
from ._loop import MixingRecord, train
from ._parameters import CONSTRAINTS, constraints
from ._problem import Problem, RuleState, TrainingData
from ._shard import NATURAL_ORDER, Shard, ThreadBackend

__all__ = [
    "CONSTRAINTS",
    "NATURAL_ORDER",
    "EpochLoop",
    "LinearModel",
    "MixingRecord",
    "OnlineMixin",
    "PerceptronClassifier",
    "Problem",
    "RuleState",
    "Shard",
    "ThreadBackend",
    "ToleranceStop",
    "Traced",
    "TrainingData",
    "constraints",
    "on_epoch",
    "train",
    "warn",
]
