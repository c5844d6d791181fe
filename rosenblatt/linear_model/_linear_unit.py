"""The linear unit (Adaline) of Ahmed & Pavlu §3, by batch or stochastic gradient descent."""

from numbers import Real

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.extmath import row_norms

from .. import _kernels
from ..base import NATURAL_ORDER, BasePerceptron, OnlinePerceptronMixin, warn
from ._params import ATTRIBUTES, parameters

#: Loss growth (over the starting loss) taken as divergence for the SGD solver.
_SGD_BLOW_UP = 100.0


class LinearUnit(OnlinePerceptronMixin, BasePerceptron):
    __doc__ = f"""Linear unit (Adaline): least squares on the unthresholded output, sign to predict.

    The output is ``o = w·x + b`` and the loss ``E(w) = ½ Σ (y − o)²`` with
    labels coded -1/+1 (Ahmed & Pavlu §3). ``solver="batch"`` takes gradient
    steps on the whole set, ``w ← w + η Σ (y − o) x``; ``solver="sgd"`` one row
    at a time, ``w ← w + η (y − o) x``. Training starts from random weights and
    stops when an epoch changes the loss by at most ``tol · max(E, 1)``, or after
    ``max_iter`` epochs. Prediction is ``sgn(o)`` (the negative class at 0).

    A learning rate too large makes the loss grow without bound. This is
    detected (the loss becomes non-finite, rises during a batch step, or grows
    to 100 times its starting value under SGD): training stops, the weights of
    smallest loss are kept, and a ``ConvergenceWarning`` says to lower ``eta``.
    ``eta="auto"`` picks a step that cannot diverge: ``1/L`` for batch, ``L``
    the largest eigenvalue of ``X̃ᵀX̃`` (``X̃`` with the constant column), and
    ``1 / max‖x̃‖²`` for SGD (the normalised LMS bound).

    Parameters
    ----------
    eta : float or "auto", default="auto"
        Learning rate (> 0).
    solver : {{"batch", "sgd"}}, default="batch"
        Gradient descent on the whole set, or stochastic (one row at a time).
    {parameters("fit_intercept")}
    max_iter : int, default=1000
        Largest number of epochs (batch steps or SGD passes).
    tol : float, default=1e-6
        Stop when an epoch changes the loss by at most ``tol · max(E, 1)``.
    shuffle : {{"none", "once", "every_epoch"}}, default="every_epoch"
        Row order of the SGD solver (the batch solver has none).
    init : {{"zeros", "uniform", "normal"}} or array-like, default="uniform"
        Starting weights (random by default, as in the text); see
        :class:`Perceptron`.
    {parameters("random_state", "class_weight", "warm_start", "early_stopping",
                "validation_fraction", "n_iter_no_change", "n_jobs")}

    Attributes
    ----------
    {ATTRIBUTES}
    eta_ : float
        The learning rate used.
    loss_curve_ : ndarray, or tuple of ndarrays (one per class)
        ``E(w)`` after each epoch.

    ``n_updates_`` counts weight changes (rows with non-zero residual for SGD,
    steps for batch); there is no trace (every example updates).

    References
    ----------
    Widrow & Hoff, "Adaptive switching circuits", 1960; Ahmed & Pavlu, lecture
    notes, §3 (Algorithms 2 and 3).

    Examples
    --------
    >>> from rosenblatt import LinearUnit
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = LinearUnit(tol=1e-15, random_state=0).fit(X, y)
    >>> model.intercept_.round(6).tolist(), model.coef_.round(6).tolist()
    ([-1.5], [[1.0, 1.0]])
    >>> round(float(model.loss_curve_[-1]), 6), model.predict([[1, 1], [0, 1]]).tolist()
    (0.5, [1, -1])
    """

    _parameter_constraints = {
        **{key: value for key, value in BasePerceptron._parameter_constraints.items()
           if key not in {"record", "eta"}},
        "eta": [StrOptions({"auto"}), Interval(Real, 0, None, closed="neither")],
        "solver": [StrOptions({"batch", "sgd"})],
        "tol": [Interval(Real, 0, None, closed="left")],
    }
    record = False  # no trace for the linear unit

    def __init__(
        self,
        *,
        eta="auto",
        solver="batch",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-6,
        shuffle="every_epoch",
        init="uniform",
        random_state=None,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
    ):
        self.eta = eta
        self.solver = solver
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.init = init
        self.random_state = random_state
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs

    def _epoch_order(self, problem, n):
        if self.solver == "batch":
            return NATURAL_ORDER  # the step sees every row at once
        return super()._epoch_order(problem, n)

    def _before_learning(self, X, weights):
        first_call = not hasattr(self, "eta_") or not getattr(self, "_in_partial_fit", False)
        if first_call or self._problems[0].n_iter == 0:
            self.eta_ = self.eta if self.eta != "auto" else self._stable_eta(X, weights)

    def _stable_eta(self, X, weights):
        """A step that cannot make the loss grow (see the class docstring)."""
        squared_norms = row_norms(X, squared=True) + float(self.fit_intercept)
        if self.solver == "sgd":
            return 1.0 / float(np.max(weights * squared_norms))
        return 1.0 / _largest_eigenvalue(X, weights, self.fit_intercept)

    def _prepare_problem(self, problem):
        problem.extra.update(losses=[], start_loss=None, best=None, diverged=None)

    def _run_epoch(self, problem, Xk, y, sw, order, record):
        extra = problem.extra
        if extra["start_loss"] is None:
            extra["start_loss"] = self._loss(problem, Xk, y, sw)
            extra["best"] = (extra["start_loss"], problem.coef.copy(), problem.intercept.copy())
        if self.solver == "sgd":
            return _kernels.linear_unit_sgd_epoch(
                Xk, y, sw, order, self.eta_, self.fit_intercept, problem.coef, problem.intercept
            )
        _kernels.linear_unit_batch_step(
            Xk, y, sw, self.eta_, self.fit_intercept, problem.coef, problem.intercept
        )
        return 1

    def _after_epoch(self, problem, X, Xk, y, sw, record, mistakes):
        """No trace: every example updates."""

    @staticmethod
    def _loss(problem, Xk, y, sw):
        return _kernels.squared_loss(Xk, y, sw, problem.coef, problem.intercept[0])

    def _stop(self, problem, Xk, y, sw, mistakes):
        extra = problem.extra
        losses = extra["losses"]
        previous = losses[-1] if losses else extra["start_loss"]
        loss = self._loss(problem, Xk, y, sw)
        losses.append(loss)
        growing = loss > previous * (1 + 1e-9) + 1e-300 if self.solver == "batch" else \
            loss > _SGD_BLOW_UP * max(extra["start_loss"], 1e-300)
        if not np.isfinite(loss) or growing:
            best_loss, coef, intercept = extra["best"]
            extra["diverged"] = (problem.n_iter, previous, loss, best_loss)
            problem.coef[:], problem.intercept[:] = coef, intercept
            problem.converged = False
            return True
        if loss < extra["best"][0]:
            extra["best"] = (loss, problem.coef.copy(), problem.intercept.copy())
        problem.converged = abs(previous - loss) <= self.tol * max(previous, 1.0)
        return problem.converged

    def _publish(self):
        curves = tuple(np.array(p.extra["losses"]) for p in self._problems)
        self.loss_curve_ = curves[0] if len(curves) == 1 else curves
        super()._publish()

    def _warn_if_not_converged(self):
        diverged = [p for p in self._problems if p.extra["diverged"]]
        if not diverged:
            super()._warn_if_not_converged()
            return
        epoch, before, after, best = diverged[0].extra["diverged"]
        warn(
            f"LinearUnit diverged at epoch {epoch}: the squared loss went from {before:.6g} "
            f"to {after:.6g}. eta={self.eta_:.6g} is too large for these data — use a "
            f"smaller eta, eta='auto' (a step that cannot diverge), or scale the features. "
            f"The weights of smallest loss ({best:.6g}) are kept."
        )

    def _not_converged_message(self, which):
        return (
            f"LinearUnit ran {self._limit_description()}{which} without the loss settling "
            f"(change <= tol={self.tol} relative); increase max_iter, or tol."
        )


def _largest_eigenvalue(X, weights, fit_intercept):
    """Largest eigenvalue of ``X̃ᵀ diag(weights) X̃``, ``X̃`` with a column of ones."""
    n_features = X.shape[1]
    size = n_features + int(fit_intercept)

    def gram(vector):
        vector = np.ravel(vector)
        coef, bias = vector[:n_features], (vector[n_features] if fit_intercept else 0.0)
        scaled = weights * (np.asarray(X @ coef).ravel() + bias)
        product = np.asarray(X.T @ scaled).ravel()
        return np.concatenate([product, [scaled.sum()]]) if fit_intercept else product

    if size == 1:
        return float(gram(np.ones(1))[0])
    operator = LinearOperator((size, size), matvec=gram, dtype=np.float64)
    # a fixed start vector: ARPACK's default is random, and eta_ must be reproducible
    start = np.ones(size) / np.sqrt(size)
    return float(eigsh(operator, k=1, which="LA", v0=start, return_eigenvectors=False,
                       tol=1e-8)[0])
