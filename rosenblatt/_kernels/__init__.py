"""Compiled inner loops (numba), over arrays only.

Each kernel takes ``X`` as a dense C-contiguous array or as a CSR triplet
``(data, indices, indptr)`` (see :mod:`._rows`), labels ``y`` in {-1.0, +1.0}
(class indices for the multiclass rule), per-row weights ``sw``, and the model
state as float64 arrays updated in place. Optional state is ``None`` when off.
Validation happens once, in the public estimators; kernels never check again.
"""

from ._batch import batch_gradient, batch_step
from ._checks import all_ones, averaged_weights_finite, csr_has_duplicates, csr_structure
from ._columns import column_counts, columns_by_frequency, renumbered_indices
from ._dual import dual_dry_run, dual_scan
from ._multiclass import multiclass_epoch
from ._online import online_epoch
from ._residuals import LINEAR_UNIT, PERCEPTRON, Residual
from ._scoring import (
    activation,
    add_weighted_rows,
    decision_function,
    decision_function_parallel,
    misclassified_rows,
    squared_loss,
    update_row,
    weighted_errors,
)

__all__ = [
    "LINEAR_UNIT",
    "PERCEPTRON",
    "Residual",
    "activation",
    "add_weighted_rows",
    "all_ones",
    "averaged_weights_finite",
    "batch_step",
    "batch_gradient",
    "column_counts",
    "columns_by_frequency",
    "csr_has_duplicates",
    "csr_structure",
    "decision_function",
    "decision_function_parallel",
    "dual_dry_run",
    "dual_scan",
    "misclassified_rows",
    "multiclass_epoch",
    "online_epoch",
    "renumbered_indices",
    "squared_loss",
    "update_row",
    "weighted_errors",
]
