"""One epoch over a block of rows, from given weights, with no estimator involved.

This is the unit of work of iterative parameter mixing (McDonald, Hall & Mann
2010): every shard runs :func:`run_epoch` from the same mixed weights, and the
driver mixes what the shards return. The estimators run the same kernels.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .. import _kernels
from .._validation import check_csr_structure, kernel_view
from ..base import NATURAL_ORDER
from ._averaged import Averaging

#: The online rules :func:`run_epoch` runs, by name.
RULES = ("perceptron", "linear_unit", "multiclass")


@dataclass(frozen=True)
class EpochResult:
    """What one epoch over a block returns.

    Attributes
    ----------
    coef, intercept : ndarray
        The running weights after the epoch, shaped as given: (n_features,) and
        (1,) for a binary rule, (n_classes, n_features) and (n_classes,) for the
        multiclass one.
    n_updates : int
        Updates made (mistakes for the perceptron rules).
    n_examples : int
        Rows visited (those of non-zero weight).
    coef_sum, intercept_sum : ndarray or None
        With ``average=True``: the sum, over the ``n_examples`` rows, of the
        running weights after each row (Daumé Alg. 7 restarted at the block's
        start); ``coef_sum / n_examples`` is the block's averaged perceptron.

    Examples
    --------
    >>> import numpy as np
    >>> from rosenblatt.engine import run_epoch
    >>> result = run_epoch(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0]),
    ...                    np.zeros(2), np.zeros(1), average=True)
    >>> result.coef.tolist(), result.n_updates, result.coef_sum.tolist()
    ([1.0, -1.0], 2, [2.0, -1.0])
    """

    coef: np.ndarray
    intercept: np.ndarray
    n_updates: int
    n_examples: int
    coef_sum: np.ndarray = None
    intercept_sum: np.ndarray = None


def run_epoch(X, y, coef, intercept, *, rule="perceptron", sample_weight=None, order=None,
              eta=1.0, fit_intercept=True, average=False):
    """One epoch of an online rule over the rows of ``X``, starting from ``coef``,
    ``intercept``. The inputs are never modified (the weights are copied first).

    Parameters
    ----------
    X : ndarray (C-contiguous float32/float64) or CSR matrix of shape (n, d)
        Already validated (e.g. by an estimator's ``fit``): its values are not
        checked again. The sizes of ``y``, the weights, ``sample_weight`` and
        ``order`` are (a mismatch raises ``ValueError``), and so is the structure
        of a CSR matrix.
    y : ndarray of shape (n,)
        ±1 labels for ``"perceptron"`` and ``"linear_unit"``; class indices for
        ``"multiclass"``.
    coef, intercept : array-like
        Start weights: (d,) and (1,) (or a scalar), or (n_classes, d) and
        (n_classes,) for ``"multiclass"``.
    rule : {"perceptron", "linear_unit", "multiclass"}, default="perceptron"
    sample_weight : ndarray of shape (n,), default=None
        Row weights (rows of weight 0 are skipped); ``None`` for ones.
    order : ndarray of int, default=None
        Rows in the order to visit them; ``None`` for 0..n-1.
    eta : float, default=1.0
    fit_intercept : bool, default=True
    average : bool, default=False
        Also return the sum of the running weights after each row.

    Returns
    -------
    EpochResult

    Examples
    --------
    Epoch 1 of Ahmed & Pavlu's AND example, from zero weights:

    >>> import numpy as np
    >>> X = np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]])
    >>> result = run_epoch(X, np.array([-1.0, -1, -1, 1]), np.zeros(2), np.zeros(1))
    >>> result.intercept.tolist(), result.coef.tolist(), result.n_updates
    ([0.0], [1.0, 1.0], 2)
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}.")
    y, coef, intercept, sw, order = _checked_block(X, y, coef, intercept, rule, sample_weight,
                                                   order)
    seen = np.zeros(1, dtype=np.int64)
    averaging = Averaging.start(coef, intercept) if average else None
    arrays = None if averaging is None else averaging.kernel_average()
    Xk = kernel_view(X)
    if rule == "multiclass":
        n_updates, _ = _kernels.multiclass_epoch(
            Xk, y, sw, order, eta, 0.0, fit_intercept,
            (coef, intercept, seen), None, arrays,
        )
    else:
        residual = _kernels.PERCEPTRON if rule == "perceptron" else _kernels.LINEAR_UNIT
        n_updates, _ = _kernels.online_epoch(
            Xk, y, sw, order, eta, fit_intercept, residual,
            (coef, intercept, seen), None, arrays, None, None,
        )
    n_examples = int(seen[0])
    sums = (None, None) if averaging is None else averaging.total(coef, intercept, n_examples)
    return EpochResult(coef, intercept, int(n_updates), n_examples, *sums)


def _checked_block(X, y, coef, intercept, rule, sample_weight, order):
    """The arrays the kernels index, checked against ``X``: the kernels do not
    test bounds, so a label, row or weight vector of the wrong size would read
    or write outside its array. ``X`` itself is the caller's (validated) matrix;
    a CSR matrix's structure is checked here all the same (one cheap pass)."""
    if sp.issparse(X):
        check_csr_structure(X)
    n, d = X.shape
    multiclass = rule == "multiclass"
    coef = np.array(coef, dtype=np.float64, order="C")
    intercept = np.array(intercept, dtype=np.float64).reshape(-1)
    k = coef.shape[0] if multiclass and coef.ndim == 2 else 1
    if coef.shape != ((k, d) if multiclass else (d,)) or intercept.shape != (k,):
        shapes = "(n_classes, n_features) and (n_classes,)" if multiclass else \
            "(n_features,) and (1,)"
        raise ValueError(f"run_epoch(rule={rule!r}) takes coef and intercept of shapes {shapes} "
                         f"for X with {d} features; got {coef.shape} and {intercept.shape}.")
    y = np.asarray(y, dtype=np.intp if multiclass else np.float64)
    _check_length("y", y, n)
    if multiclass and n and (y.min() < 0 or y.max() >= k):
        raise ValueError(f"run_epoch(rule='multiclass') takes y as class indices in [0, {k}) "
                         f"(one per row of coef); got values from {y.min()} to {y.max()}.")
    sw = None
    if sample_weight is not None:
        sw = _check_length("sample_weight", np.asarray(sample_weight, dtype=np.float64), n)
        if np.all(sw == 1.0):
            sw = None  # every row weighs 1: the kernels compile the weight away
    if order is None:
        return y, coef, intercept, sw, NATURAL_ORDER
    order = np.asarray(order, dtype=np.intp).reshape(-1)
    outside = order[(order < 0) | (order >= n)]
    if outside.size:
        raise ValueError(f"run_epoch: order holds row {outside[0]}, outside [0, {n}); pass "
                         "indices of rows of X.")
    return y, coef, intercept, sw, order


def _check_length(name, values, n):
    if values.shape != (n,):
        raise ValueError(f"run_epoch: {name} has shape {values.shape}, X has {n} rows; pass "
                         "one value per row.")
    return values
