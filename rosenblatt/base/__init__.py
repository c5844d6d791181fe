"""What the estimators are made of, split by what varies between them.

- :mod:`._classifier` — the estimator's side: the ``fit``/``partial_fit``
  skeleton, labels, the learner built from the parameters, the fitted
  attributes set from what it publishes (every estimator).
- :mod:`._learner` — a rule's side: its problems (one-vs-rest or one
  multiclass problem), row order, stopping, early stopping, mixing across
  shards, what it publishes, its convergence warning.
- :mod:`._linear` — primal weights: ``init``, warm start, ``coef_``, the trace
  (the learner), ``decision_function`` (the estimator); every estimator but the
  kernel perceptron.
- :mod:`._loop` — the one training loop: epochs over shards, the mixing step,
  the stopping rules (a serial fit is one shard).
- :mod:`._shard` — the rows a worker trains on, and the tasks run on them.
- :mod:`._problem` — one problem's running weights and the rule's typed state.
- :mod:`._parameters` — every parameter's constraint, written once.

A rule's own module (``rosenblatt/linear_model/_*.py``) defines its learner
(its epoch and its state) and its estimator (parameters, docstring, the learner
it builds); ``ARCHITECTURE.md`` walks through adding one.
"""

from ._classifier import OnlineMixin, PerceptronClassifier, on_epoch, warn
from ._learner import Learner
from ._stopping import MistakeStop
from ._linear import LinearLearner, LinearModel, MulticlassLinearModel, Traced
from ._loop import MixingRecord, train
from ._parameters import CONSTRAINTS, constraints
from ._problem import Problem, RuleState, TrainingData
from ._shard import NATURAL_ORDER, Shard, ThreadBackend

__all__ = [
    "CONSTRAINTS",
    "NATURAL_ORDER",
    "Learner",
    "LinearLearner",
    "LinearModel",
    "MulticlassLinearModel",
    "MixingRecord",
    "OnlineMixin",
    "PerceptronClassifier",
    "Problem",
    "RuleState",
    "Shard",
    "ThreadBackend",
    "MistakeStop",
    "Traced",
    "TrainingData",
    "constraints",
    "on_epoch",
    "train",
    "warn",
]
