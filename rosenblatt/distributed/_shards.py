"""The shards of distributed training: rows built where a worker holds them, or
files streamed there.

An in-memory shard is a :class:`rosenblatt.base.Shard`, the same kind a serial
``fit`` trains on; :class:`FileShard` streams files in blocks and offers the
same methods, so the training loop's tasks run on both unchanged. Every
function here is a plain function of picklable arguments (it runs on a thread of
this process or in a Dask worker).
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_array

from .._validation import (
    FLOAT_DTYPES,
    check_csr_structure,
    encode_labels,
    kernel_view,
    sum_duplicates,
)
from ..base import Shard
from ..base._problem import TrainingData
from ..base._shard import RowStream
from ..datasets import ChunkedFile


def make_shard(X, labels, sample_weight, index, classes, lengths=None):
    """A :class:`~rosenblatt.base.Shard` from its parts (lists of blocks are
    stacked), its labels encoded as positions in ``classes``; ``index`` is its
    place among the shards (``None`` when it is the only one); ``lengths`` the
    lengths of its sentences when the rows are tokens."""
    if isinstance(X, (list, tuple)):
        X = sp.vstack(X, format="csr") if sp.issparse(X[0]) else np.concatenate(X)
        labels = np.concatenate([np.asarray(part).reshape(-1) for part in labels])
        if sample_weight is not None:
            sample_weight = np.concatenate(sample_weight)
    X = check_array(X, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C")
    if sp.issparse(X):
        check_csr_structure(X)
        X = sum_duplicates(X)  # the kernels add every stored value: as the dense equal
    labels = np.asarray(labels).reshape(-1)
    if len(labels) != X.shape[0]:
        raise ValueError(f"a shard holds {X.shape[0]} rows of X but {len(labels)} labels; "
                         "X and y must be split into the same row blocks.")
    weights = None if sample_weight is None else np.array(sample_weight, dtype=np.float64)
    bounds = None if lengths is None else np.concatenate(([0], np.cumsum(lengths))).astype(
        np.intp)
    return Shard(X, encode_labels(labels, classes), weights, index, bounds=bounds)


@dataclass
class FileShard:
    """Rows read from files on the worker, a block at a time (``chunk_size``
    rows), so that a shard larger than memory streams through each epoch."""

    paths: tuple
    chunk_size: int
    label: object
    n_features: int
    classes: np.ndarray
    index: int = None
    zero_based: bool = None  # LIBSVM indices from 0, decided for all the files at once
    class_weights: np.ndarray = None
    _cache: dict = field(default_factory=dict, repr=False)

    def files(self):
        return [ChunkedFile(path, self.chunk_size, label=self.label, n_features=self.n_features,
                            zero_based=self.zero_based) for path in self.paths]

    def _read(self):
        for number, chunks in enumerate(self.files()):
            for block, (X, y) in enumerate(chunks):
                codes = encode_labels(np.asarray(y), self.classes)
                yield number, block, X, codes, self._weights(codes)

    def _weights(self, codes):
        return np.ones(len(codes)) if self.class_weights is None else \
            self.class_weights[codes]

    def weighted_rows(self):
        for _, _, X, _, sw in self._read():
            yield X, sw

    def blocks(self, learner, p, problem, hold_out):
        if hold_out:
            raise ValueError("early_stopping holds rows out of shards kept in memory; with "
                             "files streamed on the workers use early_stopping=False.")
        key = [int(problem.seed or 0)] + ([] if self.index is None else [self.index + 1])
        for number, block, X, codes, sw in self._read():
            y = learner._problem_targets(codes)[p]
            yield (TrainingData(X, kernel_view(X), y, sw),
                   RowStream(key + [number + 1, block + 1], self._cache))


def class_counts(shard, n_classes):
    """Rows of each class code in a shard (for ``class_weight="balanced"``)."""
    if isinstance(shard, FileShard):
        return sum((np.bincount(codes, minlength=n_classes) for *_, codes, _ in shard._read()),
                   np.zeros(n_classes, dtype=np.int64))
    return np.bincount(shard.codes, minlength=n_classes)


def with_class_weights(shard, class_weights):
    """The shard with each row's weight multiplied by its class's weight."""
    if isinstance(shard, FileShard):
        shard.class_weights = class_weights
        return shard
    weights = shard.row_weights().copy() if shard.weights is not None else \
        np.ones(shard.n_rows)
    weights *= class_weights[shard.codes]
    return Shard(shard.X, shard.codes, weights, shard.index, bounds=shard.bounds)
