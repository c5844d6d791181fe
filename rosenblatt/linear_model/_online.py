"""The epoch shared by the binary online rules: the perceptron and its variants.

Perceptron, AveragedPerceptron, VotedPerceptron and PocketPerceptron run the
same kernel, :func:`~rosenblatt._kernels.online_epoch`; they differ only in the
state they keep (none, Alg. 7's sums, the updates for the vote, the pocket),
which the kernel receives through the rule's :class:`~rosenblatt.base.RuleState`.
"""

import numpy as np

from .. import _kernels


class OnlineRule:
    """Learner mixin: ``_epoch`` for binary online rules; ``_rule()`` says which rule."""

    def _learning_rate(self):
        """The ``eta`` the kernel multiplies each step by."""
        return self.eta

    def _residuals(self, data, rows, activations):
        """The residual ``e`` of each logged update (the perceptron's: the label)."""
        return data.y[rows]

    def _rule(self):
        """The kernel's :class:`~rosenblatt._kernels.Residual`: the perceptron's
        e = y − q, with a mistake at ``y a <= margin``."""
        return _kernels.Residual("perceptron", margin=self.margin)

    def _epoch(self, problem, data, order):
        state, recorder = problem.state, problem.recorder
        log = update_log(data.n_rows) if recorder is not None or state.logs_updates else None
        seen = int(problem.seen[0])
        n_updates, objective = _kernels.online_epoch(
            data.Xk, data.y, data.kernel_sw, order, self._learning_rate(), self.fit_intercept,
            self._rule(),
            (problem.coef, problem.intercept, problem.seen), log,
            state.kernel_average(), state.kernel_pocket(data), problem.penalty,
        )
        problem.epoch_loss = objective / max(int(problem.seen[0]) - seen, 1)
        if log is not None:
            rows, activations, positions = (column[:n_updates] for column in log)
            steps = self._learning_rate() * data.sw[rows] * self._residuals(data, rows,
                                                                             activations)
            if recorder is not None:
                recorder.add_online(problem.n_iter, data.X, data.y, rows, activations,
                                    positions, steps, self.fit_intercept)
            state.add_updates(data, rows, positions, steps)
        return n_updates


def update_log(n_rows, multiclass=False):
    """Buffers the kernels fill with an epoch's updates: row, activation (or
    margin), example number, and for the multiclass rule the rival class."""
    log = (np.empty(n_rows, dtype=np.intp), np.empty(n_rows), np.empty(n_rows, dtype=np.int64))
    return (*log, np.empty(n_rows, dtype=np.intp)) if multiclass else log
