"""scikit-learn's regularisation for the perceptron: ``penalty``, ``alpha``, ``l1_ratio``.

The arithmetic is in the online kernel (:mod:`rosenblatt._kernels._penalty`);
this mixin turns the parameters into the kernel's arrays at the start of each
``fit``/``partial_fit`` call, as scikit-learn starts its L1 memory afresh with
each call of its SGD loop.
"""

import numpy as np


class Regularized:
    """Mixin: ``penalty``, ``alpha`` and ``l1_ratio`` with scikit-learn's meaning."""

    def _before_training(self, shards, backend, partial):
        super()._before_training(shards, backend, partial)
        if self.penalty is not None and self.record:
            raise ValueError(
                "record=True traces the textbook updates, which a penalty changes at every "
                "example; use penalty=None to record a trace."
            )
        for problem in self._problems:
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
        u, mixed_q = scalars[2], q.copy()
        for weight, part in zip(mu, parts):
            u += weight * (part.penalty[1][2] - scalars[2])
            mixed_q += weight * (part.penalty[2] - q)
        super()._mix(problem, parts, mu)
        coef = problem.coef.astype(np.float64)
        problem.penalty = (params, np.array([1.0, 0.0, u, float(coef.ravel() @ coef.ravel()),
                                             float(np.abs(coef).sum())]), mixed_q)

    def _l1_ratio(self):
        return {"l2": 0.0, "l1": 1.0}.get(self.penalty, self.l1_ratio)

    def _penalty_arrays(self, problem):
        """``(params, scalars, q)`` for the kernel (see its module docstring)."""
        rho, eta, alpha = self._l1_ratio(), self.eta, self.alpha
        # scikit-learn: "do not scale to negative values when eta or alpha are too big"
        decay = max(0.0, 1.0 - (1.0 - rho) * eta * alpha)
        tracks = float(self.tol is not None)  # the norms enter scikit-learn's objective
        params = np.array([decay, rho * eta * alpha, alpha * (1.0 - rho) * 0.5, alpha * rho,
                           tracks])
        coef = problem.coef
        scalars = np.array([1.0, 0.0, 0.0, float(coef @ coef), float(np.abs(coef).sum())])
        return params, scalars, np.zeros(coef.shape)
