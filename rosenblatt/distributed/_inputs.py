"""From what the user passes to shards: arrays, Dask collections, or files.

Each input kind becomes a plan: how to build every shard (a function and its
arguments, run where the shard will live), the classes, and the number of
features. Rows keep their order: shard ``k`` holds the ``k``-th run of rows.
"""

import os
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._validation import check_classes
from ._shards import FileShard, make_shard, scan_files


@dataclass
class Plan:
    """How to build the shards: ``makers(seeds)`` gives a ``(function, args)`` per
    shard (the seeds are drawn after the starting weights, as the serial
    estimator draws its permutations after them)."""

    makers: object          # seeds -> [(function, args)] per shard
    n_shards: int
    classes: np.ndarray
    n_features: int
    places: list = None     # worker of each shard (Dask inputs), or None
    feature_names: np.ndarray = None
    files: bool = False


def is_file_list(X):
    return isinstance(X, (list, tuple)) and len(X) > 0 and all(
        isinstance(path, (str, os.PathLike)) for path in X)


def is_dask_collection(X):
    return hasattr(X, "__dask_graph__")


def plan_arrays(X, y, sample_weight, n_shards, classes):
    """Contiguous row blocks of validated in-memory ``X, y`` (dense or CSR)."""
    n_shards = min(n_shards, X.shape[0])
    bounds = np.linspace(0, X.shape[0], n_shards + 1).astype(int)

    def makers(seeds):
        out = []
        for k in range(n_shards):
            rows = slice(bounds[k], bounds[k + 1])
            weights = None if sample_weight is None else sample_weight[rows]
            out.append((make_shard, (X[rows], y[rows], weights, seeds[k], classes)))
        return out

    return Plan(makers, n_shards, classes, X.shape[1])


def plan_files(paths, y, n_shards, classes, backend, chunk_size, label):
    """Files read on the workers, a block of ``chunk_size`` rows at a time; the
    files are dealt to the shards in turn (files in a shard keep their order)."""
    if y is not None:
        raise ValueError("with a list of files the labels are read from the files (the "
                         "label column, or LIBSVM's first field); pass y=None.")
    paths = [os.fspath(path) for path in paths]
    n_shards = min(n_shards, len(paths))
    groups = [tuple(paths[k::n_shards]) for k in range(n_shards)]
    scans = backend.map_calls([(scan_files, (group, chunk_size, label)) for group in groups])
    found = check_classes(np.concatenate([labels for _, labels, _ in scans]))
    if classes is None:
        classes = found
    elif not np.isin(found, classes).all():
        raise ValueError(f"the files hold labels {found.tolist()!r}, not all among "
                         f"classes={classes.tolist()!r}.")
    n_features = max(features for _, _, features in scans)

    def makers(seeds):
        return [(FileShard, (group, chunk_size, label, n_features, classes, seeds[k]))
                for k, group in enumerate(groups)]

    return Plan(makers, n_shards, classes, n_features, files=True)


def dask_arrays(X, y, sample_weight):
    """``X``, ``y`` and ``sample_weight`` as Dask arrays with the same row blocks
    and every column in one block (a column-chunked ``X`` is rechunked: a shard
    needs whole rows). DataFrames and Series go through
    ``to_dask_array(lengths=True)``, which also finds unknown partition sizes."""
    import dask.array as da

    feature_names = None
    if hasattr(X, "to_dask_array"):
        feature_names = np.asarray(X.columns, dtype=object)
        X = X.to_dask_array(lengths=True)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); got {X.ndim} dimension(s).")
    if len(X.chunks[1]) > 1:
        X = X.rechunk({1: -1})
    if y is None:
        raise ValueError("y is needed with a Dask array X: a Dask array or Series of labels "
                         "with one label per row.")
    if hasattr(y, "to_dask_array"):
        y = y.to_dask_array(lengths=True)
    y = y if is_dask_collection(y) else da.from_array(np.asarray(y), chunks=X.chunks[0])
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels; y must "
                         "hold one label per row of X.")
    if y.chunks[0] != X.chunks[0]:
        y = y.rechunk({0: X.chunks[0]})  # the same row blocks as X
    if sample_weight is not None:
        sample_weight = sample_weight if is_dask_collection(sample_weight) else \
            da.from_array(np.asarray(sample_weight, dtype=np.float64), chunks=X.chunks[0])
        sample_weight = sample_weight.rechunk({0: X.chunks[0]})
    return X, y, sample_weight, feature_names


def plan_dask(X, y, sample_weight, n_shards, classes, backend):
    """Shards of consecutive row blocks of Dask arrays, each built on the worker
    that already holds most of its blocks (computed there, if they were not)."""
    import dask

    X, y, sample_weight, feature_names = dask_arrays(X, y, sample_weight)
    if classes is None:
        import dask.array as da

        classes = check_classes(da.unique(y).compute())
    blocks_X = list(X.to_delayed().ravel())
    blocks_y = list(y.to_delayed().ravel())
    blocks_w = None if sample_weight is None else list(sample_weight.to_delayed().ravel())
    n_shards = min(n_shards, len(blocks_X))
    rows = np.cumsum((0,) + X.chunks[0])
    bounds = np.searchsorted(rows, np.linspace(0, rows[-1], n_shards + 1), side="left")
    bounds[-1] = len(blocks_X)
    groups = [range(bounds[k], bounds[k + 1]) for k in range(n_shards)]
    groups = [group for group in groups if len(group)]
    if backend.name == "threads":
        computed = dask.compute(blocks_X, blocks_y, blocks_w)
        blocks_X, blocks_y, blocks_w = computed
        places = None
    else:
        from distributed import wait

        client = backend.client
        blocks_X, blocks_y = client.compute(blocks_X), client.compute(blocks_y)
        blocks_w = None if blocks_w is None else client.compute(blocks_w)
        wait(blocks_X)  # so that who_has knows where each block is
        holders = client.who_has(blocks_X)
        places = [_most_held([holders.get(blocks_X[b].key, ()) for b in group],
                             backend.workers, k) for k, group in enumerate(groups)]
    def makers(seeds):
        out = []
        for k, group in enumerate(groups):
            parts_w = None if blocks_w is None else [blocks_w[b] for b in group]
            out.append((make_shard, ([blocks_X[b] for b in group],
                                     [blocks_y[b] for b in group], parts_w, seeds[k], classes)))
        return out

    return Plan(makers, len(groups), classes, X.shape[1], places=places,
                feature_names=feature_names)


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
