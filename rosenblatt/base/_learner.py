"""A learner: one rule, built from an estimator's parameters.

An estimator holds parameters, a docstring and its fitted attributes; what its
rule does lives in a :class:`Learner`, which the estimator builds at the start of
every ``fit``/``partial_fit`` call (``estimator._learner()``) from its current
parameters. The learner knows

- the problems a fit learns (one binary problem for two classes, one per class
  for one-vs-rest, or one multiclass problem) and where their weights start
  (:meth:`Learner.start_problems`);
- one epoch of the rule over a block of rows (``_epoch``: the only code that
  calls the training kernels) and its row order;
- when training stops (an epoch without a mistake, ``tol``, early stopping);
- how the shards' copies of a problem combine after an epoch (the mixing step),
  or why they cannot;
- what it publishes as fitted attributes (:meth:`Learner.publish`).

The training loop (:func:`~._loop.train`) runs a learner on shards: one in this
process for a serial fit, several for parameter mixing. A learner keeps no
training state itself (that is in the :class:`~._problem.Problem` objects), so a
new one per call sees ``set_params`` between ``partial_fit`` calls, and it
pickles small for Dask workers.
"""

from abc import ABC, abstractmethod

import numpy as np

from ._loop import train
from ._shard import NATURAL_ORDER
from ._stopping import STOP_REASONS


class Learner(ABC):
    """A rule made of epochs; the estimator's parameters are its attributes.

    Parameters
    ----------
    params : dict
        The estimator's ``get_params(deep=False)``: a learner reads ``self.eta``,
        ``self.shuffle``, ... as the estimator does.
    name : str
        The estimator's class name, for messages.
    classes : ndarray
        The labels (``classes_``).
    on_epoch : callable or None
        Called with the problem after every epoch (see :func:`~._classifier.on_epoch`).

    A rule provides ``_epoch(problem, data, order)``: one epoch over ``data`` in
    ``order``, returning its number of updates (``problem.n_iter`` is already the
    number of this epoch); and how its problems start (:meth:`_start_problems`,
    see :class:`~._linear.LinearLearner`).
    """

    #: whether the rule needs :meth:`_finish_call` after the epochs of a call
    _finishes_calls = False

    #: whether an epoch needs every row of a shard at once (a shard streamed from
    #: files then stacks its blocks and keeps them)
    _needs_every_row = False

    #: whether ``on_epoch`` callbacks are called after each epoch (PLA calls them
    #: after each update itself)
    _reports_epochs = True

    #: the estimator's fitted attributes the learner reads (``None`` before a fit):
    #: what a rule goes on from in the next call besides its problems
    _reads_fitted = ()

    #: Printed in the ConvergenceWarning; rules may suggest something better.
    _advice = "increase max_iter, or use PocketPerceptron to keep the weights with the " \
        "fewest training mistakes"

    def __init__(self, params, *, name, classes, on_epoch=None):
        vars(self).update(params)
        self.name = name
        self.classes_ = classes
        self.on_epoch = on_epoch

    # ----------------------------------------------------------------- problems
    # One-vs-rest by default; MulticlassPerceptron keeps every class in one problem.

    def _problem_classes(self):
        """``(negative, positive)`` labels of each problem."""
        if len(self.classes_) == 2:
            return [tuple(self.classes_)]
        return [(f"not {label}", label) for label in self.classes_]

    def _problem_targets(self, codes):
        """The ±1 label vector of each problem."""
        if len(self.classes_) == 2:
            return [np.where(codes == 1, 1.0, -1.0)]
        return [np.where(codes == k, 1.0, -1.0) for k in range(len(self.classes_))]

    def _problem_rngs(self, rng):
        """The estimator's generator for one problem; one seeded child per problem
        otherwise, so that the result does not depend on thread scheduling."""
        n_problems = len(self._problem_classes())
        if n_problems == 1:
            return [rng]
        seeds = rng.integers(2**31 - 1, size=n_problems) if isinstance(
            rng, np.random.Generator) else rng.randint(2**31 - 1, size=n_problems)
        return [np.random.RandomState(seed) for seed in seeds]

    def start_problems(self, X, rng, previous=None):
        """The problems at the start of a fit, with their row-order streams drawn:
        from ``init``, or from the ``previous`` fit's problems (``warm_start``).
        ``X`` gives the width; ``rng`` is the estimator's random stream, drawn
        here in the same order for a serial fit and for parameter mixing."""
        problems = self._start_problems(X, self._problem_rngs(rng), previous)
        for problem in problems:
            self._draw_seed(problem)
        return problems

    def check_shards(self, n_features, n_shards):
        """Refuse ``n_shards`` shards of parameter mixing whose copies of the
        problems cannot fit in memory (each shard deep-copies them); the rules
        whose weights are small check nothing."""

    @abstractmethod
    def _start_problems(self, X, rngs, previous):
        """The problems at the start of a fit (see :meth:`start_problems`)."""

    @abstractmethod
    def _epoch(self, problem, data, order):
        """One epoch over ``data`` in ``order``; returns the number of updates.
        A shard streamed from files calls it once per block, in turn."""

    def _epoch_end(self, problem):
        """Hook: after the last block of an epoch on a shard (the batch rules take
        their one step here, from the sums every block added to)."""

    # ----------------------------------------------------------------- training

    def train(self, problems, shards, backend, *, partial, mixing="uniform", record=None,
              epochs=None):
        """Train ``problems`` on ``shards`` with the training loop: one epoch for
        ``partial_fit``, else up to ``epochs`` (default: the rule's limit)."""
        self._before_training(problems, shards, backend, partial)
        if epochs is None:
            epochs = 1 if partial else self._max_epochs()
        train(self, problems, shards, backend, epochs=epochs, partial=partial, mixing=mixing,
              record=record)

    def _before_training(self, problems, shards, backend, partial):
        """Hook run once per ``fit``/``partial_fit`` call, before the problems train."""

    def column_renumbering(self, problems, X, partial):
        """Hook: the :class:`~rosenblatt.base._columns.Renumbering` the problems
        may switch to during training, or ``None``."""
        return None

    def _max_epochs(self):
        return self.max_iter

    def _draw_seed(self, problem):
        """Draw the problem's row-order stream from its generator, at the start of
        a fit: only when something is random (the texts' fixed-order runs leave
        the generator alone)."""
        if getattr(self, "shuffle", "none") != "none" or getattr(self, "early_stopping", False):
            problem.seed = int(problem.rng.randint(2**31 - 1) if isinstance(
                problem.rng, np.random.RandomState) else problem.rng.integers(2**31 - 1))

    def _epoch_order(self, problem, stream, n):
        """Row order of the next epoch (Daumé §4.2): as given, one permutation
        kept for every epoch, or a new one each epoch."""
        shuffle = getattr(self, "shuffle", "none")
        if shuffle == "every_epoch":
            return stream.permutation(n, problem.n_iter)
        if shuffle == "once":
            return stream.permutation(n)
        return NATURAL_ORDER

    def _needs_scores(self, problem, updates):
        """Hook: whether :meth:`_scores` of the problem's weights is needed before
        the first epoch (``updates`` is ``None``) or after an epoch that made
        ``updates`` updates."""
        return False

    def _scores(self, problem, data, totals):
        """Hook: numbers about the current weights on ``data`` that add up over
        blocks and shards and that :meth:`_stop` (or :meth:`_begin`) reads:
        ``totals`` holds them over the shard's blocks before ``data``, and the
        hook returns them with ``data``'s rows added (in row order where the
        rounding would tell)."""
        return {}

    def _begin(self, problem, scores):
        """Hook: take the scores of the starting weights."""

    def _stop(self, problem, end):
        """Hook: whether training ends after this epoch (``end``, an
        :class:`~._stopping.EpochEnd`); sets ``problem.converged`` and
        ``problem.stop_reason`` (by default: an epoch without a mistake; the
        mistake-driven rules take :class:`~._stopping.MistakeStop`)."""
        problem.converged = end.updates == 0
        if problem.converged:
            problem.stop_reason = "mistake_free"
        return problem.converged

    def _needs_certificate(self, problem, end):
        """Hook: whether the loop must check the rows' separability (see
        :class:`~._stopping.MistakeStop`) before :meth:`_stop`."""
        return False

    def _score_tol(self):
        """Hook: the ``tol`` of scikit-learn's stopping rule, or None (the textbook rule)."""
        return

    def _held_out_stalled(self, problem, scores):
        """Early stopping: whether the held-out accuracy of the published weights
        has not improved (by ``tol``, when set) for ``n_iter_no_change`` epochs."""
        total = scores["held_out_total"]
        score = 1.0 - scores["held_out_errors"] / total if total > 0 else 0.0
        tol = self._score_tol()
        improved = score > problem.best_score if tol is None else \
            score >= problem.best_score + tol
        problem.n_stale = 0 if improved else problem.n_stale + 1
        problem.best_score = max(problem.best_score, score)
        return problem.n_stale >= self.n_iter_no_change

    @abstractmethod
    def _problem_errors(self, problem, X, y, sw):
        """Weighted mistakes of the problem's published model on held-out rows
        ``X, y, sw`` (what early stopping judges)."""

    def _finish_call(self, problem, data):
        """Hook: the rule's last step of a ``fit``/``partial_fit`` call."""

    # ------------------------------------------------------------------ mixing

    #: why the rule cannot be trained on several shards, or None (see also the
    #: rule state's ``cannot_mix``)
    _cannot_mix = None

    def mixing_refusal(self, problems):
        """Why these problems cannot be mixed across shards, or ``None``."""
        if self._cannot_mix is not None:
            return self._cannot_mix
        if getattr(self, "record", False):
            return ("record=True traces one sequence of updates, and shards update side by "
                    "side; train serially (or on one shard) to record a trace")
        return problems[0].state.cannot_mix

    def _mixing_weights(self, updates, mixing):
        """μ of one epoch (McDonald et al. 2010): ``1/S``, or proportional to the
        shards' mistakes (uniform when none)."""
        updates = np.asarray(updates, dtype=np.float64)
        if mixing == "errors" and updates.sum() > 0:
            return updates / updates.sum()
        return np.full(len(updates), 1.0 / len(updates))

    def _mix(self, problem, parts, mu):
        """Mix the shards' copies ``parts`` of ``problem`` into it."""
        problem.mix(parts, mu)

    # ---------------------------------------------------------------- publishing

    def publish(self, problems):
        """The fitted attributes (a dict, public and private) made from ``problems``."""
        return {
            "n_iter_": max(p.n_iter for p in problems),
            "n_updates_": sum(p.n_updates for p in problems),
            "converged_": all(p.converged for p in problems),
            "stop_reason_": stop_reason(problems),
        }

    def not_converged_message(self, problems):
        """The ``ConvergenceWarning``'s text after a fit, or ``None`` when every
        problem met its rule: a warning exactly when ``max_iter`` cut a run short
        (or its loss diverged)."""
        failed = [p for p in problems if p.stop_reason in ("max_iter", "diverged")]
        if not failed:
            return None
        which = ""
        if len(problems) > 1:
            which = " for class(es) " + ", ".join(str(p.classes[1]) for p in failed)
        return self._not_converged_message(problems, which)

    def _not_converged_message(self, problems, which):
        return (
            f"{self.name} ran {self._limit_description(problems)} without a mistake-free "
            f"pass{which}; the data may not be linearly separable — "
            f"{self._advice_after(problems)}."
        )

    def _limit_description(self, problems=()):
        """The epochs that ran out: ``max_iter``, or the passes a call asked for
        instead (``fit_chunks(n_epochs=...)``, ``rosenblatt train --epochs``)."""
        ran = max((p.n_iter for p in problems), default=self.max_iter)
        if ran == self.max_iter:
            return f"max_iter={self.max_iter} epochs"
        return f"the {ran} epoch{'s' * (ran != 1)} asked for"

    def _advice_after(self, problems):
        """The warning's advice; where a call's epochs, not ``max_iter``, ended the
        run, raising max_iter would change nothing: ask for more epochs instead."""
        if self._limit_description(problems).endswith("asked for"):
            return ("to train longer ask for more epochs (fit_chunks' n_epochs, "
                    "rosenblatt train --epochs)")
        return self._advice


def stop_reason(problems):
    """Why the run ended: the reason of the problem that ran longest (one-vs-rest:
    the run ended with it), of a tie the least complete (see ``STOP_REASONS``)."""
    longest = max(p.n_iter for p in problems)
    reasons = [p.stop_reason for p in problems if p.n_iter == longest and p.stop_reason]
    return max(reasons, key=STOP_REASONS.index) if reasons else None
