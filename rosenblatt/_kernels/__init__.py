"""Compiled inner loops (numba), over arrays only.

Each kernel takes ``X`` as a dense C-contiguous array or as a CSR triplet
``(data, indices, indptr)`` (see :mod:`._rows`), labels ``y`` in {-1.0, +1.0},
per-row weights ``sw``, and the model state as float64 arrays updated in place.
Validation happens once, in the public estimators; kernels never check again.
"""

from ._batch import batch_step
from ._linear_unit import linear_unit_batch_step, linear_unit_sgd_epoch, squared_loss
from ._multiclass import multiclass_epoch
from ._online import perceptron_epoch
from ._scoring import activation, decision_function, misclassified_rows, update_row, weighted_errors

__all__ = [
    "activation",
    "batch_step",
    "decision_function",
    "linear_unit_batch_step",
    "linear_unit_sgd_epoch",
    "misclassified_rows",
    "multiclass_epoch",
    "perceptron_epoch",
    "squared_loss",
    "update_row",
    "weighted_errors",
]
