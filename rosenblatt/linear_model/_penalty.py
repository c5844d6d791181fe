"""scikit-learn's regularisation for the perceptron: ``penalty``, ``alpha``, ``l1_ratio``.

The arithmetic is in the online kernel (:mod:`rosenblatt._kernels._penalty`);
this mixin turns the parameters into the kernel's arrays at the start of each
``fit``/``partial_fit`` call, as scikit-learn starts its L1 memory afresh with
each call of its SGD loop.
"""

import numpy as np

from .._kernels._penalty import (
    DECAY,
    L1_NORM,
    L1_STEP,
    L1_TOTAL,
    L1_WEIGHT,
    L2_WEIGHT,
    SCALE,
    SCALE_SUM,
    SQUARED_NORM,
    TRACKS,
    Penalty,
)


class Regularized:
    """Learner mixin: ``penalty``, ``alpha`` and ``l1_ratio`` with scikit-learn's meaning."""

    def _before_training(self, problems, shards, backend, partial):
        super()._before_training(problems, shards, backend, partial)
        if self.penalty is not None and self.record:
            raise ValueError(
                "record=True traces the textbook updates, which a penalty changes at every "
                "example; use penalty=None to record a trace."
            )
        for problem in problems:
            self._check_averaging(problem)
            problem.penalty = None if self.penalty is None else self._penalty_arrays(problem)

    def _check_averaging(self, problem):
        decayed = getattr(problem.state, "decayed", None)
        if decayed is not None and decayed != (self.penalty is not None):
            raise ValueError(
                "penalty was changed between partial_fit calls; the averaged weights kept so "
                "far cannot follow. Keep penalty fixed, or fit afresh."
            )

    def _mix(self, problem, parts, mu):
        """Mix the penalty's state with the weights: what the L1 penalty has added
        up to (``u``) and took from each weight (``q``) move like the weights, by
        ``μ``; the scale is 1 between epochs and the norms are the mixed weights'."""
        if problem.penalty is None:
            return super()._mix(problem, parts, mu)
        params, scalars, q = problem.penalty
        u, mixed_q = scalars[L1_TOTAL], q.copy()
        for weight, part in zip(mu, parts):
            u += weight * (part.penalty.scalars[L1_TOTAL] - scalars[L1_TOTAL])
            mixed_q += weight * (part.penalty.q - q)
        super()._mix(problem, parts, mu)
        problem.penalty = Penalty(params, _scalars(problem.coef, u), mixed_q)

    def _l1_ratio(self):
        return {"l2": 0.0, "l1": 1.0}.get(self.penalty, self.l1_ratio)

    def _penalty_arrays(self, problem):
        """The kernel's :class:`~rosenblatt._kernels._penalty.Penalty` (see its module
        docstring)."""
        rho, eta, alpha = self._l1_ratio(), self.eta, self.alpha
        params = np.empty(5)
        # scikit-learn: "do not scale to negative values when eta or alpha are too big"
        params[DECAY] = max(0.0, 1.0 - (1.0 - rho) * eta * alpha)
        params[L1_STEP] = rho * eta * alpha
        params[L2_WEIGHT] = alpha * (1.0 - rho) * 0.5
        params[L1_WEIGHT] = alpha * rho
        params[TRACKS] = float(self.tol is not None)  # the norms enter the objective
        return Penalty(params, _scalars(problem.coef, 0.0), np.zeros(problem.coef.shape))


def _scalars(coef, l1_total):
    """The kernel's scalars between epochs: scale 1, nothing summed yet, the L1
    penalty's total so far, and the norms of the weights."""
    coef = coef.astype(np.float64).ravel()
    scalars = np.empty(5)
    scalars[SCALE], scalars[SCALE_SUM], scalars[L1_TOTAL] = 1.0, 0.0, l1_total
    scalars[SQUARED_NORM], scalars[L1_NORM] = float(coef @ coef), float(np.abs(coef).sum())
    return scalars
