"""From what the user passes to shards: arrays, Dask collections, or files.

Each input kind becomes a plan: how to build every shard (a function and its
arguments, run where the shard will live), the classes, and the number of
features. Shard ``k`` holds the ``k``-th run of rows, except that rows in this
process's memory can be dealt to the shards at random (``Plan.makers(indices,
deal)``): shards that each hold one source of the data (a file's halves from
different writers, rows sorted by date) make mixing converge slowly.
"""

import os
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._validation import check_classes
from ..datasets import ChunkedFile
from ._shards import FileShard, make_shard


@dataclass
class Plan:
    """How to build the shards: ``makers(indices, deal=None)`` gives a
    ``(function, args)`` per shard, ``indices`` its place among the shards
    (``None`` for the only one) and ``deal`` a permutation of the rows to deal
    (in-memory inputs only: ``dealable``)."""

    makers: object          # (indices, deal) -> [(function, args)] per shard
    n_shards: int
    classes: np.ndarray
    n_features: int
    places: list = None     # worker of each shard (Dask inputs), or None
    feature_names: np.ndarray = None
    files: bool = False
    dealable: bool = False  # rows in memory, which can be dealt at random
    n_rows: int = None


def is_file_list(X):
    return isinstance(X, (list, tuple)) and len(X) > 0 and all(
        isinstance(path, (str, os.PathLike)) for path in X)


def is_dask_collection(X):
    return hasattr(X, "__dask_graph__")


def plan_arrays(X, y, sample_weight, n_shards, classes):
    """Row blocks of validated in-memory ``X, y`` (dense or CSR): contiguous, or
    dealt by a permutation of the rows (each shard's rows kept in their order)."""
    n_shards = min(n_shards, X.shape[0])
    bounds = np.linspace(0, X.shape[0], n_shards + 1).astype(int)

    def makers(indices, deal=None):
        out = []
        for k in range(n_shards):
            rows = slice(bounds[k], bounds[k + 1]) if deal is None else \
                np.sort(deal[bounds[k]:bounds[k + 1]])
            weights = None if sample_weight is None else sample_weight[rows]
            out.append((make_shard, (X[rows], y[rows], weights, indices[k], classes)))
        return out

    return Plan(makers, n_shards, classes, X.shape[1], dealable=True, n_rows=X.shape[0])


def plan_sequences(X, y, lengths, n_shards, classes, make=make_shard):
    """Whole sentences of validated in-memory tokens ``X, y`` (``lengths`` the
    sentence lengths) to each shard: contiguous runs of sentences, or dealt by a
    permutation of the sentences (each shard's kept in their order). ``make``
    builds a shard from its rows (a parser's node rows need their own)."""
    starts = np.concatenate(([0], np.cumsum(lengths)))
    n_shards = min(n_shards, len(lengths))
    bounds = np.linspace(0, len(lengths), n_shards + 1).astype(int)

    def makers(indices, deal=None):
        out = []
        for k in range(n_shards):
            sentences = np.arange(bounds[k], bounds[k + 1]) if deal is None else \
                np.sort(deal[bounds[k]:bounds[k + 1]])
            rows = sentence_rows(starts, lengths, sentences)
            out.append((make, (X[rows], y[rows], None, indices[k], classes,
                               lengths[sentences])))
        return out

    return Plan(makers, n_shards, classes, X.shape[1], dealable=True, n_rows=len(lengths))


def sentence_rows(starts, lengths, sentences):
    """The token rows of ``sentences``, in that order (``starts`` of every sentence)."""
    sizes = lengths[sentences]
    offsets = np.repeat(starts[sentences] - (np.cumsum(sizes) - sizes), sizes)
    return np.arange(int(sizes.sum())) + offsets


def plan_files(paths, y, n_shards, classes, backend, chunk_size, label):
    """Files read on the workers, a block of ``chunk_size`` rows at a time; the
    files are dealt to the shards in turn (files in a shard keep their order).
    Every file is scanned first (on the workers) so that files that cannot be one
    training set are refused here, by name, not deep inside training."""
    if y is not None:
        raise ValueError("with a list of files the labels are read from the files (the "
                         "label column, or LIBSVM's first field); pass y=None.")
    paths = [os.fspath(path) for path in paths]
    n_shards = min(n_shards, len(paths))
    groups = [tuple(paths[k::n_shards]) for k in range(n_shards)]
    scans = backend.map_calls([(scan_files, (group, chunk_size, label)) for group in groups])
    scans = [scan for group in scans for scan in group]
    found = check_classes(np.concatenate([scan.classes for scan in scans]))
    if classes is None:
        classes = found
    elif not np.isin(found, classes).all():
        raise ValueError(f"the files hold labels {found.tolist()!r}, not all among "
                         f"classes={classes.tolist()!r}.")
    zero_based = any(scan.uses_index_zero for scan in scans)
    n_features = common_width(scans, zero_based)

    def makers(indices, deal=None):
        return [(FileShard, (group, chunk_size, label, n_features, classes, indices[k],
                             zero_based)) for k, group in enumerate(groups)]

    return Plan(makers, n_shards, classes, n_features, files=True)


@dataclass(frozen=True)
class FileScan:
    """What one streaming pass learns of a file: its format (``ChunkedFile.kind``:
    ``"npy"``, ``"csv"`` or ``"libsvm"``), rows, labels and feature columns."""

    path: str
    kind: str
    n_rows: int
    classes: np.ndarray
    n_features: int
    uses_index_zero: bool = False  # LIBSVM: whether feature index 0 occurs
    largest_index: int = -1        # LIBSVM: the largest feature index

    @property
    def dense(self):
        return self.kind != "libsvm"


def scan_files(paths, chunk_size, label):
    """A :class:`FileScan` per file of a shard, read on its worker (the driver
    then checks that the files agree, :func:`common_width`)."""
    scans = []
    for path in paths:
        chunks = ChunkedFile(path, chunk_size, label=label)
        scans.append(FileScan(os.fspath(path), chunks.kind, chunks.n_rows,
                              np.asarray(chunks.classes), chunks.n_features,
                              getattr(chunks, "uses_index_zero", False),
                              getattr(chunks, "largest_index", -1)))
    return scans


def common_width(scans, zero_based=False):
    """The number of features of files that make one training set.

    LIBSVM files name their features, so a file that does not use the last ones
    is narrower only in appearance: they are read at the largest width, and
    their indices count from 0 in every file if any file uses index 0, as
    scikit-learn's ``load_svmlight_files`` does (``zero_based``). CSV and ``.npy`` columns are
    features by position, so files of different widths would put different
    features in one column: they are refused, as is a mix of LIBSVM with CSV or
    ``.npy`` (whose columns would have to be matched to LIBSVM indices).
    """
    dense = [scan for scan in scans if scan.dense]
    sparse = [scan for scan in scans if not scan.dense]
    if dense and sparse:
        raise ValueError(
            f"the files mix LIBSVM ({sparse[0].path}) with CSV/.npy ({dense[0].path}); "
            "the files of one training set must share one format: convert them to "
            "LIBSVM, or all to CSV/.npy with the same columns.")
    first = scans[0]
    for scan in dense:
        if scan.n_features != first.n_features:
            raise ValueError(
                "all CSV/.npy files of one training set must have the same columns; "
                f"{first.path} has {first.n_features} feature column(s), {scan.path} has "
                f"{scan.n_features}. Give every file the same feature columns (and the "
                "label in the same column), or train on them separately.")
    if sparse:
        return max(scan.largest_index + int(zero_based) for scan in sparse)
    return first.n_features


def dask_arrays(X, y, sample_weight):
    """``X``, ``y`` and ``sample_weight`` as Dask arrays of known row counts, one
    label and weight per row (their blocks are then set by :func:`by_rows`).
    DataFrames and Series go through ``to_dask_array(lengths=True)``, which also
    finds unknown partition sizes; arrays of unknown block sizes get them computed."""
    import dask.array as da

    feature_names = None
    if hasattr(X, "to_dask_array"):
        feature_names = np.asarray(X.columns, dtype=object)
        X = X.to_dask_array(lengths=True)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got {X.ndim} dimension(s).")
    X = _known_rows(X)
    if y is None:
        raise ValueError("y is needed with a Dask array X: a Dask array or Series of labels "
                         "with one label per row.")
    if hasattr(y, "to_dask_array"):
        y = y.to_dask_array(lengths=True)
    y = _known_rows(y) if is_dask_collection(y) else \
        da.from_array(np.asarray(y), chunks=-1)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; y must "
                         "hold one label per row of X.")
    if sample_weight is not None:
        sample_weight = _known_rows(sample_weight) if is_dask_collection(sample_weight) else \
            da.from_array(np.asarray(sample_weight, dtype=np.float64), chunks=-1)
        if sample_weight.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but sample_weight has "
                             f"{sample_weight.shape[0]} weights; pass one weight per row of X.")
    return X, y, sample_weight, feature_names


def _known_rows(array):
    """``array`` with the sizes of its row blocks known (they are needed to cut
    the rows into shards; ``to_dask_array()`` without lengths leaves them unknown)."""
    if any(np.isnan(size) for size in array.chunks[0]):
        array = array.compute_chunk_sizes()
    return array


def plan_dask(X, y, sample_weight, n_shards, classes, backend):
    """Shards of Dask arrays, balanced by rows whatever the blocks are.

    There are ``min(n_shards, n_rows)`` shards and shard ``k`` holds rows
    ``bounds[k]:bounds[k + 1]`` with ``bounds = linspace(0, n_rows, S + 1)``,
    the rows :func:`plan_arrays` gives it, so a Dask input makes the same shards
    (and the same model) as the equal NumPy input. Grouping whole blocks could
    not: blocks of 40 and 60 rows make one shard of two. So ``X``, ``y`` and
    ``sample_weight`` are rechunked along rows to the shards' sizes (nothing to
    do when the blocks already are those) and each block becomes one shard. On a
    Dask cluster the blocks are computed on the workers and each shard is built
    on the worker that holds its block, so its rows do not move again.
    """
    import dask

    X, y, sample_weight, feature_names = dask_arrays(X, y, sample_weight)
    if classes is None:
        import dask.array as da

        classes = check_classes(da.unique(y).compute())
    sizes = shard_sizes(X.shape[0], n_shards)
    X, y = by_rows(X, sizes), by_rows(y, sizes)
    sample_weight = None if sample_weight is None else by_rows(sample_weight, sizes)
    blocks_X = list(X.to_delayed().ravel())
    blocks_y = list(y.to_delayed().ravel())
    blocks_w = None if sample_weight is None else list(sample_weight.to_delayed().ravel())
    if backend.name == "threads":
        blocks_X, blocks_y, blocks_w = dask.compute(blocks_X, blocks_y, blocks_w)
        places = None
    else:
        from distributed import wait

        client = backend.client
        blocks_X, blocks_y = client.compute(blocks_X), client.compute(blocks_y)
        blocks_w = None if blocks_w is None else client.compute(blocks_w)
        wait(blocks_X)  # so that who_has knows where each block is
        holders = client.who_has(blocks_X)
        places = [_most_held([holders.get(block.key, ())], backend.workers, k)
                  for k, block in enumerate(blocks_X)]

    def makers(indices, deal=None):
        return [(make_shard, (blocks_X[k], blocks_y[k],
                              None if blocks_w is None else blocks_w[k], indices[k], classes))
                for k in range(len(sizes))]

    return Plan(makers, len(sizes), classes, X.shape[1], places=places,
                feature_names=feature_names)


def shard_sizes(n_rows, n_shards):
    """The rows of each of ``min(n_shards, n_rows)`` shards, split as
    :func:`plan_arrays` splits them."""
    if n_rows == 0:
        raise ValueError("X has no rows; a Dask array with at least one row is needed.")
    n_shards = min(n_shards, n_rows)
    return tuple(np.diff(np.linspace(0, n_rows, n_shards + 1).astype(int)).tolist())


def by_rows(array, sizes):
    """``array`` in one block per shard: ``sizes`` rows each, every column in one
    block (so that a block is a shard's whole rows)."""
    chunks = {0: sizes, **{axis: -1 for axis in range(1, array.ndim)}}
    return array.rechunk(chunks)


def _most_held(holders, workers, k):
    """The worker holding most of a shard's blocks (in turn when none is held yet)."""
    counts = {}
    for owners in holders:
        for owner in owners:
            counts[owner] = counts.get(owner, 0) + 1
    if not counts:
        return workers[k % len(workers)]
    return max(sorted(counts), key=counts.get)


def dense_or_csr(X):
    return sp.csr_matrix(X) if sp.issparse(X) else X
