"""A shard: the rows one worker trains on, and the tasks the training loop runs on it.

A serial ``fit`` trains on one shard holding every row, in this process;
:class:`~rosenblatt.distributed.ParameterMixing` on several, on threads or Dask
workers. The tasks (:func:`shard_epoch`, :func:`shard_scores`,
:func:`shard_finish`) are plain functions of picklable arguments, so the same
code runs in both places, and they are the only code that runs a rule's epoch:
``learner._epoch(problem, data, order)``, the one caller of the training kernels.

Row orders and held-out rows are drawn from the problem's ``seed`` (drawn from
the estimator's random stream at the start of each ``fit``) and the shard's
place: ``[seed]`` for the only shard, ``[seed, k + 1]`` for shard ``k`` of
several. So they depend on plain numbers only, wherever the shard lives, and a
model file that keeps the seed and the epoch count resumes the same stream.
"""

import copy
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import train_test_split

from .._validation import kernel_view
from ._problem import TrainingData

#: An empty row order: the kernels then visit every row in turn.
NATURAL_ORDER = np.empty(0, dtype=np.intp)


class RowStream:
    """The random row orders of one problem on one shard.

    ``permutation(n, epoch)`` is epoch ``epoch``'s order (from 1):
    ``numpy.random.default_rng(key + [epoch]).permutation(n)``, a generator whose
    seeding costs 7 µs (a ``RandomState`` seeded from a list costs 100 µs, more
    than an epoch of a small data set); ``permutation(n)`` the one order
    ``shuffle="once"`` keeps for a whole fit, the first epoch's (computed once
    per shard), so that both modes start alike.
    """

    def __init__(self, key, cache):
        self.key = key
        self._cache = cache

    def permutation(self, n, epoch=None):
        if epoch is not None:
            return np.random.default_rng(self.key + [epoch]).permutation(n).astype(
                np.intp, copy=False)
        name = ("once", tuple(self.key), n)
        if name not in self._cache:
            self._cache[name] = self.permutation(n, 1)
        return self._cache[name]

    def random_state(self):
        """A seed for the problem's one-off draws on this shard (held-out rows)."""
        return int(np.random.default_rng(self.key + [0, 0]).integers(2**31 - 1))


@dataclass
class Shard:
    """Rows held in memory: ``X`` (validated, dense or CSR), the rows' class codes
    and their weights (sample and class weights multiplied, or ``None`` for ones).

    ``index`` is ``None`` for the only shard of a serial fit, ``k`` for shard ``k``
    of several. ``renumbering`` is a serial fit's column renumbering (see
    :mod:`._columns`), or ``None``. ``bounds`` marks the sentences when the rows
    are tokens (see :class:`~._problem.TrainingData`); a shard holds whole ones.
    """

    X: object
    codes: np.ndarray
    weights: np.ndarray = None
    index: int = None
    renumbering: object = None
    bounds: np.ndarray = None
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def n_rows(self):
        return self.X.shape[0]

    def size(self):
        """``(rows, stored values)``: what the separability check would read."""
        values = self.X.nnz if sp.issparse(self.X) else self.X.size
        return self.n_rows, int(values)

    def stream(self, problem):
        key = [int(problem.seed or 0)] + ([] if self.index is None else [self.index + 1])
        return RowStream(key, self._cache)

    def row_weights(self):
        if self.weights is None:  # made once: held-out rows read it every epoch
            self.weights = np.ones(self.n_rows)
        return self.weights

    def weighted_rows(self):
        """The rows and their weights, block by block (one block here)."""
        yield self.X, self.row_weights()

    def targets(self, learner):
        if "targets" not in self._cache:
            self._cache["targets"] = learner._problem_targets(self.codes)
        return self._cache["targets"]

    def held_out(self, learner, p, problem, fraction):
        """The rows of problem ``p`` held out for early stopping (stratified)."""
        name = ("held out", p, problem.seed)
        if name not in self._cache:
            y = self.targets(learner)[p]
            try:
                _, rows = train_test_split(
                    np.arange(self.n_rows), test_size=fraction, stratify=y,
                    random_state=self.stream(problem).random_state())
            except ValueError as error:
                where = "" if self.index is None else f" of shard {self.index}"
                raise ValueError(
                    f"early_stopping could not hold out validation_fraction={fraction} of "
                    f"the {self.n_rows} rows{where} with every class ({error}); use more "
                    "data (or fewer shards), a larger validation_fraction, or "
                    "early_stopping=False."
                ) from error
            self._cache[name] = np.sort(rows).astype(np.intp)
        return self._cache[name]

    def data(self, learner, p, problem, hold_out):
        """What problem ``p`` trains on: its targets, the row weights (0 for rows
        held out when ``hold_out`` is a fraction), in the problem's numbering of
        the columns."""
        X = self.X
        if self.renumbering is not None:
            if problem.columns is None:
                self.renumbering.move(problem)
            X = problem.columns.renumbered(X)
        name = ("data", p, id(X), hold_out and problem.seed)
        if name not in self._cache:
            sw = self.row_weights()
            if hold_out:
                sw = sw.copy()
                sw[self.held_out(learner, p, problem, hold_out)] = 0.0
            if ("view", id(X)) not in self._cache:  # one view for every problem
                self._cache[("view", id(X))] = kernel_view(X)
            self._cache[name] = TrainingData(X, self._cache[("view", id(X))],
                                             self.targets(learner)[p], sw, self.bounds)
        return self._cache[name]

    def held_out_data(self, learner, p, problem, fraction):
        """``(X, y, sw)`` of problem ``p``'s held-out rows, in its numbering."""
        rows = self.held_out(learner, p, problem, fraction)
        name = ("held out X", p, problem.seed)
        if name not in self._cache:
            self._cache[name] = self.X[rows]
        X = self._cache[name]
        if problem.columns is not None:
            X = problem.columns.renumbered(X)
        return X, self.targets(learner)[p][rows], self.row_weights()[rows]

    def blocks(self, learner, p, problem, hold_out):
        """The blocks of rows of one epoch, with their row streams: one here (a
        shard streamed from files has several)."""
        yield self.data(learner, p, problem, hold_out), self.stream(problem)


class ThreadBackend:
    """Shards in this process, one task per shard on a pool of threads (the
    kernels release the GIL). A serial fit's backend, the default of
    :class:`~rosenblatt.distributed.ParameterMixing`, and the reference for its
    Dask backend: results always come back in shard order."""

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


# ------------------------------------------------------------------------- tasks

def shard_epoch(shard, learner, problems, hold_out, copied):
    """One epoch of ``learner``'s rule on ``shard`` for each of ``problems`` (a dict
    from problem number to :class:`~rosenblatt.base.Problem`).

    Returns ``{p: (problem, n_updates)}``. With ``copied`` the problems are
    copies (the shard is one of several, or the problems arrived from another
    process anyway); otherwise the caller's problems are trained in place.
    """
    if copied:
        problems = {p: copy.deepcopy(problem) for p, problem in problems.items()}

    def one(p):
        problem, n_updates = problems[p], 0
        for data, stream in shard.blocks(learner, p, problem, hold_out):
            order = learner._epoch_order(problem, stream, data.n_units)
            n_updates += learner._epoch(problem, data, order)
            if getattr(shard, "on_block", None) is not None:  # a progress bar
                shard.on_block()
        learner._epoch_end(problem)
        return p, (problem, n_updates)

    return dict(_map(one, list(problems), getattr(learner, "n_jobs", None)))


def shard_scores(shard, learner, problems, hold_out):
    """What the rule's stopping decision needs of ``problems``' current weights on
    this shard's rows (see ``_scores`` of the rules), ``{p: {name: number}}``: sums
    that the loop adds over the shards."""
    def one(p):
        problem, total = problems[p], {}
        for data, _ in shard.blocks(learner, p, problem, hold_out):
            total.update(learner._scores(problem, data, total))
        if hold_out:
            X, y, sw = shard.held_out_data(learner, p, problem, hold_out)
            total["held_out_errors"] = learner._problem_errors(problem, X, y, sw)
            total["held_out_total"] = float(sw.sum())
        return p, total

    return dict(_map(one, list(problems), getattr(learner, "n_jobs", None)))


def shard_size(shard):
    """``(rows, stored values)`` of the shard (see ``Shard.size``)."""
    return shard.size()


def shard_rows(shard, learner, p, problem):
    """The shard's rows for problem ``p``, ``(X, y, sw)`` with its blocks stacked:
    what the stopping rule's separability check reads (only on small data)."""
    parts = [(data.X, data.y, data.sw) for data, _ in shard.blocks(learner, p, problem, None)]
    X = [part[0] for part in parts]
    X = sp.vstack(X, format="csr") if sp.issparse(X[0]) else np.concatenate(X)
    return X, np.concatenate([part[1] for part in parts]), \
        np.concatenate([part[2] for part in parts])


def shard_errors(shard, learner, problems):
    """The weighted training mistakes of each problem's published model on this
    shard's rows, in problem order."""
    return [sum(learner._problem_errors(problem, data.X, data.y, data.sw)
                for data, _ in shard.blocks(learner, p, problem, None))
            for p, problem in problems.items()]


def shard_finish(shard, learner, problems, hold_out, copied):
    """The rule's last step of a call on this shard (the pocket counts its mistakes
    on every row); returns the problems."""
    if copied:
        problems = copy.deepcopy(problems)
    for p, problem in problems.items():
        for data, _ in shard.blocks(learner, p, problem, hold_out):
            learner._finish_call(problem, data)
    return problems


def _map(function, items, n_jobs):
    """``function`` over ``items``, on threads for one-vs-rest with ``n_jobs`` (the
    kernels release the GIL; each problem has its own state, so threads never
    change the result)."""
    workers = n_workers(n_jobs, len(items))
    if workers == 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, items))


def n_workers(n_jobs, n_tasks):
    if n_jobs is None or n_tasks <= 1:
        return 1
    cores = os.cpu_count() or 1
    wanted = cores + 1 + n_jobs if n_jobs < 0 else n_jobs
    return max(1, min(wanted, n_tasks))
