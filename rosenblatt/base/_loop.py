"""The training loop: epochs over shards, a mixing step, the stopping rules.

Every rule made of epochs trains here. A serial ``fit`` is this loop on one
shard in this process, whose problems train in place; iterative parameter
mixing (McDonald, Hall & Mann 2010, Alg. 2) is the same loop on several shards,
each training a copy of every problem for one epoch from the same weights, with
a mixing step after each epoch. With one shard there is nothing to mix, so one
shard is the serial fit, bit for bit.

Each epoch:

1. every shard runs one epoch of the rule (:func:`~._shard.shard_epoch`);
2. the shards' copies of each problem are mixed (:meth:`Problem.mix` and the
   rule state's ``mixed``): the weights by ``μ`` (``1/S``, or proportional to
   each shard's mistakes), the averaging sums added, the examples counted;
3. when the rule's stopping decision needs scores of the new weights (the
   linear unit's loss, early stopping's held-out accuracy), the shards compute
   their parts (:func:`~._shard.shard_scores`) and the loop adds them;
4. the rule decides whether the problem stops (``_stop``, see
   :mod:`._stopping`: a mistake-free epoch, no progress by ``tol`` unless the
   rows can be separated, which the loop then asks once of every shard's rows),
   the weights are checked for overflow, and early stopping has its say;
   a run whose epochs ran out records ``"max_iter"`` as its stop reason.
"""

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ._separability import CHECK_LIMIT
from ._shard import shard_epoch, shard_finish, shard_rows, shard_scores, shard_size
from ._stopping import EpochEnd


@dataclass
class MixingRecord:
    """What the loop saw of each epoch, per shard and problem: the updates and
    the mixing weights ``μ`` (ones where steps add), and the seconds per epoch."""

    n_problems: int
    n_shards: int
    mistakes: list = field(default_factory=list)
    mu: list = field(default_factory=list)
    seconds: list = field(default_factory=list)

    def add(self, updates, mu, seconds):
        self.mistakes.append(updates)
        self.mu.append(mu)
        self.seconds.append(seconds)

    def arrays(self):
        shape = (len(self.mistakes), self.n_shards, self.n_problems)
        return (np.array(self.mistakes, dtype=np.int64).reshape(shape),
                np.array(self.mu, dtype=np.float64).reshape(shape), np.array(self.seconds))


def train(learner, problems, shards, backend, *, epochs, partial, mixing="uniform",
          record=None):
    """Train ``problems`` (the driver's) on ``shards`` for up to ``epochs`` epochs.

    Parameters
    ----------
    learner : Learner
        The rule (see :mod:`._learner`): ``_epoch``, ``_epoch_order``, ``_stop``, ...
    problems : list of Problem
    shards : list
        Shards (or, on Dask, futures of shards).
    backend : ThreadBackend or DaskBackend
        Runs a task on every shard and returns the results in shard order.
    epochs : int
    partial : bool
        A ``partial_fit`` call: no early stopping.
    mixing : {"uniform", "errors"}
    record : MixingRecord or None
    """
    hold_out = learner.validation_fraction if _stops_early(learner, partial) else None
    in_place = len(shards) == 1 and backend.name == "threads"
    running = list(range(len(problems)))
    # the shards' sizes are asked after the first epoch: a file read in one pass
    # learns its rows while that epoch reads it (ChunkedFile's one_pass)
    sizes = None
    begin = [p for p in running if learner._needs_scores(problems[p], None)]
    if begin:
        scores = _scores(learner, problems, begin, shards, backend, hold_out)
        for p in begin:
            learner._begin(problems[p], scores[p])
    for _ in range(epochs):
        if not running:
            break
        started = time.perf_counter()
        for p in running:
            problems[p].n_iter += 1
        sent = {p: problems[p] for p in running}
        results = backend.map(shard_epoch, shards, learner, sent, hold_out, not in_place)
        updates = np.zeros((len(shards), len(problems)), dtype=np.int64)
        mu = np.zeros((len(shards), len(problems)))
        for p in running:
            parts = [result[p] for result in results]
            updates[:, p] = [n for _, n in parts]
            if len(shards) == 1:  # nothing to mix: the shard's problem is the problem
                mu[0, p] = 1.0
                problems[p] = parts[0][0]
            else:
                mu[:, p] = learner._mixing_weights(updates[:, p], mixing)
                learner._mix(problems[p], [part for part, _ in parts], mu[:, p])
            problems[p].n_updates += int(updates[:, p].sum())
        if sizes is None:
            sizes = backend.map(shard_size, shards)
            n_rows = sum(rows for rows, _ in sizes)
        after = [p for p in running
                 if hold_out or learner._needs_scores(problems[p], int(updates[:, p].sum()))]
        scores = _scores(learner, problems, after, shards, backend, hold_out) if after else {}
        for p in list(running):
            problem = problems[p]
            if learner.on_epoch is not None and learner._reports_epochs:
                learner.on_epoch(problem)
            end = EpochEnd(int(updates[:, p].sum()), n_rows, scores.get(p, {}))
            if not partial and learner._needs_certificate(problem, end):
                learner._certify(problem, _rows(learner, p, problem, shards, backend, sizes))
            stop = learner._stop(problem, end)
            problem.check_finite(learner.name, f"in epoch {problem.n_iter}")
            if not stop and hold_out and learner._held_out_stalled(problem, scores[p]):
                problem.stopped_early = stop = True
                problem.stop_reason = "early_stopping"
            if stop:
                running.remove(p)
        if record is not None:
            record.add(updates, mu, time.perf_counter() - started)
    for p in running:  # the epochs ran out: after the rule was met (stop_mistake_free=False
        # runs on), or before
        problems[p].stop_reason = "mistake_free" if problems[p].converged else \
            "partial_fit" if partial else "max_iter"
    if learner._finishes_calls:  # only rules that cannot be mixed: one shard
        finished = backend.map(shard_finish, shards, learner, dict(enumerate(problems)),
                               hold_out, not in_place)
        for p, problem in finished[0].items():
            problems[p] = problem


def _rows(learner, p, problem, shards, backend, sizes):
    """Every shard's rows of problem ``p`` (``(X, y, sw)``, stacked in shard order)
    for the separability check, or ``None`` when its program would be larger
    than :data:`~._separability.CHECK_LIMIT` (nothing is read then)."""
    n_rows = sum(rows for rows, _ in sizes)
    if learner._certificate_size(problem, n_rows, sum(values for _, values in sizes)) > \
            CHECK_LIMIT:
        return None
    parts = backend.map(shard_rows, shards, learner, p, problem)
    X = [part[0] for part in parts]
    X = sp.vstack(X, format="csr") if any(sp.issparse(x) for x in X) else np.concatenate(X)
    return X, np.concatenate([part[1] for part in parts]), \
        np.concatenate([part[2] for part in parts])


def _stops_early(learner, partial):
    return bool(getattr(learner, "early_stopping", False)) and not partial


def _scores(learner, problems, which, shards, backend, hold_out):
    """The rule's scores of ``problems[which]``, added over the shards in shard order."""
    parts = backend.map(shard_scores, shards, learner, {p: problems[p] for p in which},
                        hold_out)
    total = {p: {} for p in which}
    for part in parts:
        for p, scores in part.items():
            for name, value in scores.items():
                total[p][name] = total[p].get(name, 0.0) + value
    return total
