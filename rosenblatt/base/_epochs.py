"""The epoch loop: row order, convergence, ``max_iter`` and early stopping.

:class:`EpochLoop` runs a rule's ``_epoch(problem, data, order)`` epoch after
epoch (Daumé's MaxIter loop) until the rule says it has converged (by default:
an epoch without a mistake), early stopping says the held-out accuracy stopped
improving, or ``max_iter`` epochs have run. ``partial_fit`` runs one epoch.
"""

import numpy as np
from sklearn.model_selection import train_test_split

#: An empty row order: the kernels then visit every row in turn.
NATURAL_ORDER = np.empty(0, dtype=np.intp)


class EpochLoop:
    """Mixin: the training loop of every rule made of epochs."""

    # A rule provides ``_epoch(problem, data, order)``: one epoch over ``data`` in
    # ``order``, returning its number of updates (``problem.n_iter`` is already
    # the number of this epoch).

    def _stop(self, problem, data, n_updates):
        """Hook: whether training ends after this epoch; sets ``problem.converged``
        (by default: an epoch without a mistake)."""
        problem.converged = n_updates == 0
        return problem.converged

    def _score_tol(self):
        """Hook: the ``tol`` of scikit-learn's stopping rule, or None (the textbook rule)."""
        return

    def _train(self, problem, data, partial):
        stop_early = None
        if self.early_stopping and not partial:
            data, stop_early = self._hold_out(problem, data)
        if self._renumbering is not None:
            data = self._renumbering.start(problem, data)
        for _ in range(1 if partial else self.max_iter):
            problem.n_iter += 1
            n_updates = self._epoch(problem, data, self._epoch_order(problem, data.n_rows))
            problem.n_updates += n_updates
            if self._on_epoch is not None:
                self._on_epoch(problem)
            stop = self._stop(problem, data, n_updates)
            problem.check_finite(type(self).__name__, f"in epoch {problem.n_iter}")
            if stop:
                break
            if stop_early is not None and stop_early(problem):
                problem.stopped_early = True
                break

    def _epoch_order(self, problem, n):
        """Row order of the next epoch (Daumé §4.2): as given, one permutation
        kept for every epoch, or a new one each epoch."""
        if self.shuffle == "every_epoch":
            return problem.rng.permutation(n).astype(np.intp)
        if self.shuffle == "once":
            if problem.order is None or len(problem.order) != n:
                problem.order = problem.rng.permutation(n).astype(np.intp)
            return problem.order
        return NATURAL_ORDER

    def _hold_out(self, problem, data):
        """Hold out ``validation_fraction`` of the rows (stratified) for early stopping.

        The held-out rows stay in ``X`` with weight 0, so the kernels skip them
        without a copy of ``X``. Returns the training data and the stop test.
        """
        n, rng = data.n_rows, problem.rng
        seed = rng.integers(2**31 - 1) if isinstance(rng, np.random.Generator) \
            else rng.randint(2**31 - 1)
        try:
            _, held_out = train_test_split(
                np.arange(n), test_size=self.validation_fraction, stratify=data.y,
                random_state=seed,
            )
        except ValueError as error:
            raise ValueError(
                f"early_stopping could not hold out validation_fraction="
                f"{self.validation_fraction} of {n} rows with both classes ({error}); "
                "use more data, a larger validation_fraction, or early_stopping=False."
            ) from error
        train_weights = data.sw.copy()
        train_weights[held_out] = 0.0
        X_val, y_val, w_val = data.X[held_out], data.y[held_out], data.sw[held_out]
        total = w_val.sum()
        best, stale = -np.inf, 0
        tol = self._score_tol()

        def stop(problem):
            nonlocal best, stale
            X = X_val if problem.columns is None else problem.columns.renumbered(X_val)
            errors = self._problem_errors(problem, X, y_val, w_val)
            score = 1.0 - errors / total if total > 0 else 0.0
            # without tol: any gain counts; with it, scikit-learn's rule
            improved = score > best if tol is None else score >= best + tol
            stale = 0 if improved else stale + 1
            best = max(best, score)
            return stale >= self.n_iter_no_change

        return data.with_weights(train_weights), stop


class ToleranceStop:
    """Mixin: the ``tol`` parameter, scikit-learn's stopping rule.

    With ``tol=None`` training follows the texts: it ends after an epoch without
    a mistake. With a number it ends as scikit-learn's SGD does, whatever the
    mistakes: after ``n_iter_no_change`` epochs in a row whose mean training
    loss (measured on each example as it is met, before its update) was not
    below the best so far minus ``tol``. Early stopping with ``tol`` uses the
    same rule on the held-out accuracy, improvements of at least ``tol``.
    """

    def _score_tol(self):
        return self.tol

    def _stop(self, problem, data, n_updates):
        if self.tol is None:
            return super()._stop(problem, data, n_updates)
        if self.early_stopping:
            return False  # the held-out accuracy decides (see _hold_out)
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
