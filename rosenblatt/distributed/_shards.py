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
    """Rows read from files, a block at a time (``chunk_size`` rows), so that a
    shard larger than memory streams through each epoch: on a Dask worker for
    :class:`~rosenblatt.distributed.ParameterMixing`, or in this process for
    :func:`rosenblatt.streaming.fit_chunks` and ``rosenblatt train
    --chunk-size`` (the training loop runs on it as on rows in memory).

    An epoch visits the blocks of every file in file order with ``shuffle="none"``
    (the rows in file order: the epoch of the same rows in memory, bit for bit);
    otherwise in a permutation of the blocks, each block's rows permuted too,
    both drawn from the problem's stream (``[seed, epoch]`` for the blocks,
    ``[seed, file, block, epoch]`` for the rows: ``"once"`` keeps epoch 1's),
    so that a model file that keeps the seed and the epoch count resumes them.
    Each block is checked as ``fit`` checks ``X`` (finite values, CSR structure,
    duplicate entries summed); errors name the file and its lines. A rule whose
    epoch needs every row at once (``_needs_every_row``: the kernel perceptron,
    which keeps ``f`` on each row and grows it by a kernel column at each
    mistake) gets the blocks stacked, read once and kept in memory: its epoch
    is then the in-memory one, rows and row orders alike.
    ``on_block``, when set, is called after each block of an epoch (a progress
    bar).
    """

    paths: tuple
    chunk_size: int
    label: object
    n_features: int
    classes: np.ndarray
    index: int = None
    zero_based: bool = None  # LIBSVM indices from 0, decided for all the files at once
    class_weights: np.ndarray = None
    file_format: str = "auto"  # as rosenblatt.datasets.data_format decides
    on_block: object = field(default=None, repr=False, compare=False)
    _cache: dict = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, chunks, classes=None):
        """The shard of one opened :class:`~rosenblatt.datasets.ChunkedFile`."""
        shard = cls((chunks.path,), chunks.chunk_size, chunks.label, chunks.n_features,
                    chunks.classes if classes is None else classes,
                    zero_based=getattr(chunks, "zero_based", None),
                    file_format=getattr(chunks, "kind", "auto"))
        shard._cache["files"] = [chunks]
        return shard

    def files(self):
        """The opened files (each scanned once, when first asked)."""
        if "files" not in self._cache:
            self._cache["files"] = [
                ChunkedFile(path, self.chunk_size, label=self.label, n_features=self.n_features,
                            zero_based=self.zero_based, file_format=self.file_format)
                for path in self.paths]
        return self._cache["files"]

    @property
    def n_rows(self):
        return sum(chunks.n_rows for chunks in self.files())

    def size(self):
        return self.n_rows, sum(chunks.n_values for chunks in self.files())

    def _key(self, problem):
        return [int(problem.seed or 0)] + ([] if self.index is None else [self.index + 1])

    def _block_order(self, learner, problem):
        """``(file, block)`` of each block of the epoch, in the order it is read."""
        pairs = [(number, block) for number, chunks in enumerate(self.files())
                 for block in range(chunks.n_blocks)]
        shuffle = getattr(learner, "shuffle", "none")
        if shuffle == "none" or problem is None:
            return pairs
        stream = RowStream(self._key(problem), self._cache)
        order = stream.permutation(len(pairs), problem.n_iter) if shuffle == "every_epoch" \
            else stream.permutation(len(pairs))
        return [pairs[i] for i in order]

    def _in_order(self, learner, problem):
        """``(file, block, (X, y, importance))`` in the epoch's order: a file opened
        with ``one_pass`` whose pass is not made yet is read by its first pass when
        the order is the file's (see :meth:`ChunkedFile.first_pass`)."""
        files = self.files()
        in_file_order = getattr(learner, "shuffle", "none") == "none" or problem is None
        first = files[0].first_pass() if len(files) == 1 and in_file_order and \
            not files[0].scanned else None
        if first is not None:
            for block, parts in first:
                yield 0, block, parts
            return
        for number, block in self._block_order(learner, problem):
            yield number, block, files[number].weighted_block(block)

    def _read(self, learner=None, problem=None):
        files = self.files()
        for number, block, (X, y, importance) in self._in_order(learner, problem):
            chunks = files[number]
            try:
                X = check_array(X, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C")
                if sp.issparse(X):
                    check_csr_structure(X)
                    X = sum_duplicates(X)
                codes = encode_labels(np.asarray(y), self.classes)
            except ValueError as error:
                epoch = "" if problem is None else f", epoch {problem.n_iter}"
                raise ValueError(f"{chunks.blocks_where(block)} (block {block + 1}{epoch}): "
                                 f"{error}") from error
            yield number, block, X, codes, self._weights(codes, importance)

    def _weights(self, codes, importance=None):
        """Each row's weight: its class's weight times its importance (a VW file's)."""
        weights = np.ones(len(codes)) if self.class_weights is None else \
            self.class_weights[codes]
        return weights if importance is None else weights * importance

    @property
    def weighted(self):
        """Whether rows weigh unequally: class weights that differ, or a file's
        importance weights."""
        return (self.class_weights is not None and bool(np.ptp(self.class_weights) > 0)) or \
            any(getattr(chunks, "weighted", False) for chunks in self.files())

    def weighted_rows(self):
        for _, _, X, _, sw in self._read():
            yield X, sw

    def blocks(self, learner, p, problem, hold_out):
        if hold_out:
            raise ValueError("early_stopping holds rows out of shards kept in memory; with "
                             "files read in blocks use early_stopping=False.")
        key = self._key(problem)
        if learner._needs_every_row:
            yield self._whole(learner, p), RowStream(key, self._cache)
            return
        for number, block, X, codes, sw in self._read(learner, problem):
            y = learner._problem_targets(codes)[p]
            yield (TrainingData(X, kernel_view(X), y, sw),
                   RowStream(key + [number + 1, block + 1], self._cache))

    def _whole(self, learner, p):
        """Every block stacked, read once and kept: for a rule whose epoch needs
        every row at once (the dual form keeps ``f`` on each)."""
        if "whole" not in self._cache:
            parts = list(self._read())
            X = [part[2] for part in parts]
            X = sp.vstack(X, format="csr") if sp.issparse(X[0]) else np.concatenate(X)
            codes = np.concatenate([part[3] for part in parts])
            self._cache["whole"] = (X, kernel_view(X), codes,
                                    np.concatenate([part[4] for part in parts]))
        X, view, codes, sw = self._cache["whole"]
        return TrainingData(X, view, learner._problem_targets(codes)[p], sw)


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
