"""Columns renumbered by frequency while a model trains on wide sparse data.

With many columns (2**20 float64 weights are 8 MiB, a core's L2 cache holds 1)
the weights live in memory, and when the frequent columns are scattered over
the whole vector (hashed features) every row reads weights from cache lines
that hold one useful weight each. Renumbering the columns by decreasing
frequency packs the frequent ones into few lines, which then stay in cache.

The fitted model is bit for bit the same: each row keeps its stored values in
their stored order, so every dot product adds the same numbers in the same
order, and every update touches the same weights. Only the positions of the
weights in memory change during ``fit``; the problems' weights and rule states
are moved into the new numbering before training and back after it.

It is an opt-in setting, ``rosenblatt.set_config(renumber_columns=True)``, not
chosen automatically: counting and renumbering cost about as much as 1-8 epochs
(random reads of a table as wide as the weights, once per stored value) and the
prefetching of the CSR kernels already hides most of what it saves, so it pays
only over long fits on wide data with scattered frequent columns, and the
number of epochs a fit will run is not known when it starts. Measured by
``python benchmarks/bench_options.py`` (see BENCHMARKS.md).
"""

import threading

import numpy as np
import scipy.sparse as sp

from .. import _kernels
from .._settings import get_config


class ColumnOrder:
    """A renumbering of the columns: ``new[j]`` is the new number of column ``j``
    and ``old[r]`` the column numbered ``r``.

    >>> order = ColumnOrder(np.array([2, 0, 1]))       # 2 first, then 0, then 1
    >>> w = np.array([10.0, 11.0, 12.0])
    >>> order.to_new(w); w
    array([12., 10., 11.])
    >>> order.to_old(w); w
    array([10., 11., 12.])
    """

    def __init__(self, old):
        self.old = old
        self.new = np.empty_like(old)
        self.new[old] = np.arange(len(old))

    def renumber(self, X):
        """``X`` with its column indices renumbered; ``data`` and ``indptr`` shared."""
        n_used = X.indptr[-1]
        indices = _kernels.renumbered_indices(X.indices, n_used, self.new)
        return sp.csr_matrix((X.data[:n_used], indices, X.indptr), shape=X.shape, copy=False)

    def to_new(self, array):
        """Move an array's last axis (one entry per column) into the new numbering."""
        array[...] = array[..., self.old]

    def to_old(self, array):
        """Move an array's last axis back into the columns' own numbering."""
        array[...] = array[..., self.new]


class Renumbering:
    """The renumbering of one ``fit`` call, shared by its problems (one-vs-rest
    trains them on threads): computed once, by the first problem to start."""

    def __init__(self, X):
        self._X = X
        self._lock = threading.Lock()
        self._order = None
        self._renumbered = {}

    def move(self, problem):
        """Move ``problem``'s weights and state into the new numbering (computed by
        the first problem to start); it then trains on :meth:`renumbered` data."""
        with self._lock:
            if self._order is None:
                self._order = frequency_order(self._X)
        problem.renumber(self._order.to_new)
        problem.columns = self

    def renumbered(self, X):
        """``X`` (the fit's matrix, or its held-out rows) renumbered, once."""
        with self._lock:
            if id(X) not in self._renumbered:
                self._renumbered[id(X)] = (X, self._order.renumber(X))
            return self._renumbered[id(X)][1]

    def finish(self, problems):
        """Move the problems that were renumbered back to the columns' own numbering."""
        for problem in problems:
            if problem.columns is self:
                problem.renumber(self._order.to_old)
                problem.columns = None
        self._renumbered.clear()
        self._X = None


def renumbering(X, partial):
    """The :class:`Renumbering` of a ``fit`` on ``X``, or ``None`` unless asked
    for (``rosenblatt.set_config(renumber_columns=True)``) on a CSR matrix."""
    if not get_config()["renumber_columns"] or partial or not sp.issparse(X) or X.nnz == 0:
        return None
    return Renumbering(X)


def frequency_order(X):
    """The :class:`ColumnOrder` of ``X``'s columns by decreasing frequency."""
    counts = _kernels.column_counts(X.indices, X.indptr[-1], X.shape[1])
    order = _kernels.columns_by_frequency(counts)
    return ColumnOrder(order.astype(X.indices.dtype, copy=False))
