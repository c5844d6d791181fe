"""Where shards live and tasks run: threads of this process, or a Dask cluster.

Both backends run the same shard functions and return results in shard order,
so that the mixing (done by the driver, in that order) and hence the model do
not depend on the backend, the number of workers, or which task finished first.
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp


class ThreadBackend:
    """Shards in this process, one task per shard on a pool of threads (the
    kernels release the GIL). The default, and the reference for the Dask backend."""

    name = "threads"

    def __init__(self, n_threads=None):
        self.n_threads = n_threads or os.cpu_count() or 1

    def build(self, makers):
        """Run each ``(function, args)`` here; the results are the shards."""
        return self.map_calls([(function, args) for function, args in makers])

    def map(self, function, shards, *args):
        """``function(shard, *args)`` for every shard, results in shard order."""
        return self.map_calls([(function, (shard, *args)) for shard in shards])

    def update(self, function, shards, *args):
        """The shards after ``function(shard, *args)``, kept where they are."""
        return self.map(function, shards, *args)

    def map_calls(self, calls):
        if len(calls) == 1 or self.n_threads == 1:
            return [function(*args) for function, args in calls]
        with ThreadPoolExecutor(max_workers=min(self.n_threads, len(calls))) as pool:
            return list(pool.map(lambda call: call[0](*call[1]), calls))


class DaskBackend:
    """Shards kept in the memory of the workers of a ``distributed.Client``.

    Each shard is built on one worker (where its data already are, or in turn)
    and every task on it is pinned there, so data never move after placement
    (work stealing would otherwise move whole shards). What a task needs besides
    its shard (the weights) is scattered once per epoch to every worker.
    """

    name = "dask"

    def __init__(self, client):
        self.client = client
        self.workers = sorted(client.scheduler_info()["workers"])
        if not self.workers:
            raise ValueError("the Dask client has no workers; start some, or pass "
                             "client='threads' to train on this machine.")
        self.places = []

    def build(self, makers, places=None):
        """Run each ``(function, args)`` on a worker (``places[k]``, or in turn);
        the resulting futures are the shards."""
        places = places or [self.workers[k % len(self.workers)] for k in range(len(makers))]
        self.places = list(places)
        shards = []
        for (function, args), place in zip(makers, places):
            # arrays go to the shard's worker directly, not through the task graph
            args = [self.client.scatter(arg, workers=[place], hash=False)
                    if _is_data(arg) else arg for arg in args]
            shards.append(self.client.submit(function, *args, workers=[place],
                                             allow_other_workers=False, pure=False))
        return shards

    def map(self, function, shards, *args):
        """``function(shard, *args)`` on the worker of each shard, results in shard order."""
        shared = [self.client.scatter(arg, broadcast=True, hash=False)
                  if _worth_scattering(arg) else arg for arg in args]
        futures = [self.client.submit(function, shard, *shared, workers=[place],
                                      allow_other_workers=False, pure=False)
                   for shard, place in zip(shards, self.places)]
        return self.client.gather(futures)

    def update(self, function, shards, *args):
        """The shards after ``function(shard, *args)``, kept on their workers."""
        return [self.client.submit(function, shard, *args, workers=[place],
                                   allow_other_workers=False, pure=False)
                for shard, place in zip(shards, self.places)]

    def map_calls(self, calls):
        futures = [self.client.submit(function, *args, pure=False) for function, args in calls]
        return self.client.gather(futures)


def _is_data(value):
    return isinstance(value, np.ndarray) or sp.issparse(value)


#: Weights larger than this are scattered to the workers once per epoch; smaller
#: ones travel inside each task (a scatter costs a round trip of its own).
SCATTER_BYTES = 1 << 20


def _worth_scattering(value):
    """Large weights (lists of ``(coef, intercept)``) are scattered; small ones and
    settings travel with the task."""
    return isinstance(value, list) and sum(
        np.asarray(array).nbytes for pair in value for array in pair) > SCATTER_BYTES


def backend_for(client):
    """The backend for ``client``: a Dask client; ``None`` for the active client if
    there is one, else threads; ``"threads"`` for threads."""
    if client == "threads":
        return ThreadBackend()
    if client is None:
        client = _active_client()
        if client is None:
            return ThreadBackend()
    return DaskBackend(client)


def _active_client():
    distributed = sys.modules.get("distributed")  # an active client means it is imported
    if distributed is None:
        return None
    try:
        return distributed.default_client()
    except ValueError:  # no client is active
        return None
