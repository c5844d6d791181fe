"""A rule made of epochs: row order, stopping, early stopping, mixing.

:class:`EpochLoop` gives a rule the hooks the training loop (:mod:`._loop`)
calls around its ``_epoch(problem, data, order)``: the row order of each epoch
(Daumé §4.2), whether training stops after it (by default: an epoch without a
mistake), early stopping on held-out rows, and how the shards' copies of a
problem are mixed after an epoch when it trains on several. ``partial_fit``
runs one epoch.
"""

import numpy as np

from ._shard import NATURAL_ORDER


class EpochLoop:
    """Mixin: the hooks of a rule made of epochs (see :func:`._loop.train`).

    A rule provides ``_epoch(problem, data, order)``: one epoch over ``data`` in
    ``order``, returning its number of updates (``problem.n_iter`` is already the
    number of this epoch).
    """

    #: whether the rule needs :meth:`_finish_call` after the epochs of a call
    _finishes_calls = False

    #: whether ``on_epoch`` callbacks are called after each epoch (PLA calls them
    #: after each update itself)
    _reports_epochs = True

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

    def _needs_scores(self, problem, before):
        """Hook: whether :meth:`_scores` of the problem's weights is needed before
        the first epoch (``before``) or after each one."""
        return False

    def _scores(self, problem, data):
        """Hook: numbers about the current weights on ``data`` that add up over
        shards and that :meth:`_stop` (or :meth:`_begin`) reads."""
        return {}

    def _begin(self, problem, scores):
        """Hook: take the scores of the starting weights."""

    def _stop(self, problem, scores, n_updates):
        """Hook: whether training ends after this epoch; sets ``problem.converged``
        (by default: an epoch without a mistake)."""
        problem.converged = n_updates == 0
        return problem.converged

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

    def _finish_call(self, problem, data):
        """Hook: the rule's last step of a ``fit``/``partial_fit`` call."""

    # ------------------------------------------------------------------ mixing

    #: why the rule cannot be trained on several shards, or None (see also the
    #: rule state's ``cannot_mix``)
    _cannot_mix = None

    def _mixing_refusal(self, problems):
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


class ToleranceStop:
    """Mixin: the ``tol`` parameter, scikit-learn's stopping rule.

    With ``tol=None`` training follows the texts: it ends after an epoch without
    a mistake. With a number it ends as scikit-learn's SGD does, whatever the
    mistakes: after ``n_iter_no_change`` epochs in a row whose mean training
    loss (measured on each example as it is met, before its update) was not
    below the best so far minus ``tol``. On several shards the epoch's loss is
    the mean over every shard's examples, so the rule decides as it would
    serially. Early stopping with ``tol`` uses the same rule on the held-out
    accuracy, improvements of at least ``tol``.
    """

    def _score_tol(self):
        return self.tol

    def _stop(self, problem, scores, n_updates):
        if self.tol is None:
            return super()._stop(problem, scores, n_updates)
        if self.early_stopping:
            return False  # the held-out accuracy decides (see _held_out_stalled)
        loss = problem.epoch_loss
        if loss > problem.best_loss - self.tol:
            problem.n_no_improvement += 1
        else:
            problem.n_no_improvement = 0
        problem.best_loss = min(problem.best_loss, loss)
        problem.converged = problem.n_no_improvement >= self.n_iter_no_change
        return problem.converged

    def _not_converged_message(self, which):
        if self.tol is None:
            return super()._not_converged_message(which)
        return (
            f"{type(self).__name__} ran max_iter={self.max_iter} epochs{which} and its "
            f"training loss was still improving by more than tol={self.tol}; increase "
            "max_iter, or tol."
        )
