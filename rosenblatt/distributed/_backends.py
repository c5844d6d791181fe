"""Where shards live and tasks run: threads of this process, or a Dask cluster.

Both backends run the same shard functions and return results in shard order,
so that the mixing (done by the driver, in that order) and hence the model do
not depend on the backend, the number of workers, or which task finished first.
"""

import sys

import numpy as np
import scipy.sparse as sp

from ..base import ThreadBackend


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
    """Problems with large weights are scattered; small ones and settings travel
    with the task."""
    return isinstance(value, dict) and sum(
        getattr(problem, "coef", np.empty(0)).nbytes for problem in value.values()
    ) > SCATTER_BYTES


def backend_for(client):
    """The backend for ``client``: a Dask client; a scheduler's address (what a
    pickled estimator keeps of its client, :class:`HoldsClient`); ``None`` for the
    active client if there is one, else threads; ``"threads"`` for threads."""
    if client == "threads":
        return ThreadBackend()
    if client is None:
        client = _active_client()
        if client is None:
            return ThreadBackend()
    if isinstance(client, str):
        client = client_at(client)
    return DaskBackend(client)


def _active_client():
    distributed = sys.modules.get("distributed")  # an active client means it is imported
    if distributed is None:
        return None
    try:
        return distributed.default_client()
    except ValueError:  # no client is active
        return None


#: Clients this module connected to scheduler addresses, kept so that fitting
#: again (each fold of a cross-validation) does not open a connection each time.
_OPENED = {}


def client_at(address):
    """A client of the scheduler at ``address``: the active client if it is that
    scheduler's, else one connected here (once per address, and not made the
    default: connecting must not change where the user's other Dask work runs)."""
    try:
        import distributed
    except ImportError:
        raise ValueError(f"client={address!r} names a Dask scheduler, but distributed is not "
                         'installed; pip install "rosenblatt[dask]", or pass '
                         'client="threads".') from None
    active = _active_client()
    if active is not None and _address_of(active) == address:
        return active
    opened = _OPENED.get(address)
    if opened is None or opened.status != "running":
        try:
            opened = distributed.Client(address, set_as_default=False)
        except OSError as error:
            raise ValueError(f"could not connect to a Dask scheduler at client={address!r} "
                             f"({error}); start it, pass a connected Client, or pass "
                             'client="threads".') from error
        _OPENED[address] = opened
    return opened


def _address_of(client):
    """The scheduler address of a live client (what can be pickled of it)."""
    return client.scheduler.address


class HoldsClient:
    """For estimators with a ``client`` parameter that may be a live Dask client,
    which can be neither copied nor pickled (it holds sockets and asyncio tasks).

    * :func:`sklearn.base.clone` (``cross_val_score``, grid searches) clones every
      other parameter as usual; the clone shares the same client, never a copy,
      so every fold trains on the user's cluster.
    * Pickling keeps the client's scheduler address instead, a string that
      :func:`backend_for` connects to again when the unpickled estimator fits.

    Put it before ``BaseEstimator`` in the bases.
    """

    def __sklearn_clone__(self):
        client = getattr(self, "client", None)
        if client is None or isinstance(client, str):
            return super().__sklearn_clone__()
        # clone a stand-in that shares everything but the client, then hand the
        # client itself to the clone (scikit-learn would deep-copy it)
        stand_in = object.__new__(type(self))
        stand_in.__dict__.update(self.__dict__, client=None)
        clone = super(HoldsClient, stand_in).__sklearn_clone__()
        clone.client = client
        return clone

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: self keeps its client
        client = state.get("client")
        if client is not None and not isinstance(client, str):
            state["client"] = _address_of(client)
        return state
