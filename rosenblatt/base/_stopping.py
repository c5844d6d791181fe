"""The one stopping rule of the mistake-driven rules, and why a run ended.

Every rule whose update is driven by its mistakes (the perceptron and its
pocket, averaged and voted forms, the multiclass and kernel perceptrons,
passive-aggressive, the online family) stops by the same rule, decided after
each epoch by :class:`MistakeStop` from the epoch's mistakes (summed over the
shards and the blocks of a file), wherever the epochs run: in memory, from a
file in blocks, resumed from a model file, on shards.

1. **A mistake-free epoch** ends training (``converged_ = True``): the texts'
   rule (Ahmed & Pavlu, CISC 271's "missed" flag, Daumé's Alg. 5). A mistake
   is the rule's own (``y·a <= margin`` for the perceptron); rules that also
   update rows they classify right confirm it on the final weights.
2. **No progress** (``tol``): when the epoch's mistakes have not fallen below
   the fewest so far by ``tol × n_rows`` for ``n_iter_no_change`` epochs in a
   row, the run ends (``converged_ = False``, no warning), *unless the rows
   can be separated*: a linear program (:mod:`._separability`) decides it once,
   the first time the count stalls, and on separable rows the rule waits for
   the mistake-free epoch the convergence theorem promises. Mistakes are what
   the update rule reacts to (an activation of exactly 0 counts, as in
   ``y·a <= 0``) and do not change when ``X`` is scaled, unlike the perceptron
   loss scikit-learn's ``tol`` watches (0 at ``a = 0``, and scaled by ``c²``).
3. **Early stopping** on held-out rows, when asked for.
4. **max_iter**: the run was cut before meeting its rule, and warns
   (``ConvergenceWarning``).

``stop_reason_`` says which: ``"mistake_free"``, ``"tol"``,
``"early_stopping"`` or ``"max_iter"`` (``"partial_fit"`` after a
``partial_fit`` call, one epoch, that was not mistake-free).
"""

from dataclasses import dataclass

import numpy as np

from ._separability import CHECK_LIMIT

#: Why a run ended, from the most to the least complete: ``publish`` reports the
#: reason of the problem that ran longest, the later one of a tie.
STOP_REASONS = ("mistake_free", "early_stopping", "tol", "diverged", "partial_fit", "max_iter")


@dataclass(frozen=True)
class EpochEnd:
    """What the loop saw of one epoch of one problem, summed over the shards:
    its updates, its rows, and the scores the rule asked for (see ``_scores``)."""

    updates: int
    rows: int
    scores: dict


class MistakeStop:
    """Learner mixin: the stopping rule above (see the module docstring).

    A rule tells what its mistakes are (:meth:`_epoch_mistakes`: its updates, unless it counts
    mistakes apart), whether a mistake-free epoch is confirmed on the published weights
    (:meth:`_confirms_on_weights`), and whether the convergence theorem holds for it
    (:meth:`_separable_data_converge`, which enables the separability check). """

    def _score_tol(self):
        """Early stopping's improvement threshold: ``tol`` (see ``_held_out_stalled``)."""
        return self.tol

    def _epoch_mistakes(self, problem, updates):
        """The epoch's mistakes, from its ``updates``: the updates themselves for
        rules that update only on a mistake."""
        return updates

    def _confirms_on_weights(self, problem):
        """Whether a mistake-free epoch must be confirmed on the weights the model
        publishes: for rules that also update rows they classify right (a later
        update may undo an earlier row), and for the averaged and voted
        perceptrons, whose published model is not the running weights (it
        separates the rows some epochs after them, as the final vector's share
        of the vote or the average grows)."""
        return False

    #: whether the rows weigh unequally (sample or class weights): then the stall
    #: reads the weighted training errors of the model after each epoch (a pass)
    _weighted_rows = False

    def _needs_scores(self, problem, updates):
        if updates is None:
            return False
        if self._weighted_rows and self.tol is not None:
            return True
        return self._confirms_on_weights(problem) and self._epoch_mistakes(problem, updates) == 0

    def _scores(self, problem, data, totals):
        return {"training_errors": totals.get("training_errors", 0.0)
                + self._problem_errors(problem, data.X, data.y, data.sw),
                "weight": totals.get("weight", 0.0) + float(np.sum(data.sw))}

    def _stall_measure(self, problem, end):
        """What the stall compares, and its scale: the epoch's mistakes and rows; with
        unequal row weights, the weighted training errors of the model after the
        epoch and the rows' total weight (a mistake on a row of weight 1000 is not
        one on a row of weight 1e-4: class weights steer when the run ends)."""
        if "weight" in end.scores and self._weighted_rows:
            return end.scores["training_errors"], end.scores["weight"]
        return self._epoch_mistakes(problem, end.updates), end.rows

    def _mistake_free(self, problem, end):
        """Whether the epoch made no mistake (confirmed on the published weights
        where :meth:`_confirms_on_weights` asks it)."""
        return self._epoch_mistakes(problem, end.updates) == 0 and \
            end.scores.get("training_errors", 0.0) == 0.0

    def _stops_mistake_free(self):
        """Whether a mistake-free epoch ends training (``stop_mistake_free``:
        ``False`` goes on to ``max_iter``, as Freund & Schapire's voted runs)."""
        return getattr(self, "stop_mistake_free", True)

    def _separable_data_converge(self, problem):
        """Whether this rule, on separable rows, surely reaches a mistake-free
        epoch (Novikoff's theorem and its kin): then a stall is checked against
        the rows' separability before it ends training."""
        return True

    def _stalls(self, problem, end):
        """Whether this epoch's mistakes complete ``n_iter_no_change`` epochs
        without an improvement of ``tol × rows`` (the counters are not moved)."""
        if self.tol is None or getattr(self, "early_stopping", False):
            return False
        mistakes, scale = self._stall_measure(problem, end)
        improved = mistakes < problem.fewest_mistakes - self.tol * scale
        return not improved and problem.n_no_improvement + 1 >= self.n_iter_no_change

    def _needs_certificate(self, problem, end):
        """Whether the loop must ask the rows' separability before :meth:`_stop`:
        the count stalls, nobody asked before, and the answer would matter."""
        return (not problem.certified and self._stalls(problem, end)
                and not self._mistake_free(problem, end)
                and self._separable_data_converge(problem))

    def _stop(self, problem, end):
        """Whether training ends after this epoch; sets ``problem.converged``
        and ``problem.stop_reason``."""
        problem.converged = self._mistake_free(problem, end)
        if problem.converged and self._stops_mistake_free():
            problem.stop_reason = "mistake_free"
            return True
        stalled = self._stalls(problem, end)
        mistakes, scale = self._stall_measure(problem, end)
        if self.tol is not None and mistakes < problem.fewest_mistakes - self.tol * scale:
            problem.n_no_improvement = 0
        else:
            problem.n_no_improvement += 1
        problem.fewest_mistakes = float(min(problem.fewest_mistakes, mistakes))
        if stalled and not problem.converged and problem.separable is not True:
            problem.stop_reason = "tol"
            return True
        return False

    def _certify(self, problem, rows):
        """Record whether ``rows`` (``(X, y, sw)`` of every shard, or ``None`` when
        they are too many to check) can be separated: ``True``, ``False`` or
        ``None`` (unknown); asked once per training set."""
        problem.certified = True
        problem.separable = None if rows is None else self._separable(problem, *rows)

    def _certificate_size(self, problem, n_rows, n_values):
        """Nonzeros of the separability program for rows holding ``n_values``."""
        from ._separability import program_size

        return program_size(n_rows, n_values, self._n_score_classes(problem),
                            getattr(self, "fit_intercept", True))

    def _n_score_classes(self, problem):
        return 2 if np.ndim(problem.coef) < 2 else problem.coef.shape[0]

    def _not_converged_message(self, problems, which):
        if self.tol is None:
            still = "; the data may not be linearly separable"
        elif any(p.separable is True for p in problems):
            still = (", and its rows can be separated (a linear program says so): more "
                     "epochs will separate them")
        else:
            still = (f", and its mistakes were still falling by more than tol={self.tol} × "
                     f"the rows within {self.n_iter_no_change} epochs")
        return (f"{self.name} ran {self._limit_description(problems)}{which} without a "
                f"mistake-free pass{still} — {self._advice_after(problems)}.")


__all__ = ["CHECK_LIMIT", "EpochEnd", "MistakeStop", "STOP_REASONS"]
