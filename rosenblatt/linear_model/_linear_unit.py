"""The linear unit (Adaline) of Ahmed & Pavlu §3, by batch or stochastic gradient descent."""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackError, LinearOperator, eigsh
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.extmath import row_norms

from .. import _kernels
from .._validation import kernel_view
from ..base import (
    NATURAL_ORDER,
    LinearLearner,
    LinearModel,
    OnlineMixin,
    PerceptronClassifier,
    RuleState,
    constraints,
)
from ..base._file_form import Count, Floats, Number, Numbers, OnePerProblem, Optional, Tuple
from ..base._parameters import RealNumber
from ..base._registry import register
from ._batch import OneStepPerEpoch, steps_add

#: Loss growth (over the starting loss) taken as divergence for the SGD solver.
_SGD_BLOW_UP = 100.0

#: Ratio of the largest to the smallest root mean square of the (non-zero)
#: columns, the bias's column of ones included, beyond which the features are
#: called badly scaled: gradient descent's steps are then set by the largest and
#: crawl along the smallest (unscaled pendigits, values 0 to 100: a ratio of 86).
BADLY_SCALED = 10.0


@dataclass
class LossHistory(RuleState):
    """The squared loss after each epoch, the weights of least loss, and the
    epoch where the loss diverged (``None`` while it has not)."""

    start_loss: float = None
    losses: list = field(default_factory=list)
    best: tuple = None  # (loss, coef, intercept)
    diverged: tuple = None  # (epoch, loss before, loss after, best loss)

    # a loss may be infinite (or NaN, in the log) once the run diverged
    file_form = {"start_loss": Optional(Number(finite=False)),
                 "losses": Numbers(finite=False),
                 "best": Optional(Tuple(Number(finite=False), Floats(like="coef"),
                                        Floats(like="intercept"))),
                 "diverged": Optional(Tuple(Count(), *[Number(finite=False)] * 3))}

    def renumber(self, move):
        if self.best is not None:
            move(self.best[1])

    def begin(self, loss, coef, intercept):
        self.start_loss = loss
        self.best = (loss, coef.copy(), intercept.copy())

    def record(self, loss, coef, intercept, epoch, tol, solver):
        """Add the loss after ``epoch``; returns ``(stop, converged)``.

        Converged when the loss changed by at most ``tol · max(E, 1)``. Diverged
        when it is not finite, or rose during a batch step, or grew to 100 times
        its start under SGD: then the weights of least loss are copied back into
        ``coef``, ``intercept``, and training stops unconverged.
        """
        previous = self.losses[-1] if self.losses else self.start_loss
        self.losses.append(loss)
        growing = loss > previous * (1 + 1e-9) + 1e-300 if solver == "batch" else \
            loss > _SGD_BLOW_UP * max(self.start_loss, 1e-300)
        if not np.isfinite(loss) or growing:
            best_loss, best_coef, best_intercept = self.best
            self.diverged = (epoch, previous, loss, best_loss)
            coef[:], intercept[:] = best_coef, best_intercept
            return True, False
        if loss < self.best[0]:
            self.best = (loss, coef.copy(), intercept.copy())
        converged = abs(previous - loss) <= tol * max(previous, 1.0)
        return converged, converged


class SquaredLossStop:
    """Learner mixin: the linear unit's stopping rule, on the squared loss ``E(w)`` over
    every row (summed over the shards), measured at the start and after each epoch."""

    def _needs_scores(self, problem, updates):
        return self.tol is not None and (updates is not None or problem.state.start_loss is None)

    def _scores(self, problem, data, totals):
        if self.tol is None:
            return {}
        return {"loss": _loss(problem, data, totals.get("loss", 0.0))}

    def _begin(self, problem, scores):
        problem.state.begin(scores["loss"], problem.coef, problem.intercept)

    def _stop(self, problem, end):
        """Converged when the loss settles (``stop_reason_ = "tol"``); stopped, with
        the weights of least loss restored, when it diverges (``"diverged"``, see
        :meth:`LossHistory.record`). With ``tol=None``: every epoch up to
        ``max_iter``, no loss computed."""
        if self.tol is None:
            return False
        stop, problem.converged = problem.state.record(
            end.scores["loss"], problem.coef, problem.intercept, problem.n_iter, self.tol,
            self.solver,
        )
        if stop:
            problem.stop_reason = "tol" if problem.converged else "diverged"
        return stop


class LinearUnitLearner(SquaredLossStop, LinearLearner):
    """The linear unit's rule: gradient steps on the squared loss, by batch or SGD."""

    #: the step in use (``eta``, or the one ``eta="auto"`` chose), published as ``eta_``
    #: and kept by ``partial_fit``
    _reads_fitted = ("eta_",)
    published_form = {"eta_": Number(0, strictly=True, kinds=float),
                      "loss_curve_": OnePerProblem(Floats(None, finite=False))}

    def _before_training(self, problems, shards, backend, partial):
        if not partial or self.eta_ is None or problems[0].n_iter == 0:
            self.eta_ = self.eta if self.eta != "auto" else \
                self._stable_eta(problems, shards, backend)
        # for the warning of a fit whose loss did not settle (see _not_converged_message)
        self._scales = None if partial or self.tol is None else \
            column_scales(backend.map(column_squares, shards), self.fit_intercept)

    def _stable_eta(self, problems, shards, backend):
        """A step that cannot make the loss grow (see the class docstring), from
        every shard's rows."""
        largest = max(backend.map(largest_scaled_norm, shards, self.fit_intercept))
        if largest == 0:
            # every (weighted) row is 0 and there is no intercept: the output is 0 whatever
            # the weights, and the step would be 1/0 (ZeroDivisionError, ArpackError)
            raise ValueError(
                "LinearUnit cannot choose eta='auto': every feature of every row (with a "
                "non-zero sample weight) is 0 and fit_intercept=False, so the output is 0 "
                "whatever the weights and there is nothing to learn. Check the features "
                "(a column read as 0?), or set fit_intercept=True, or pass a number as eta."
            )
        if self.solver != "sgd":
            size = problems[0].coef.shape[-1] + int(self.fit_intercept)
            try:
                largest = largest_eigenvalue(
                    lambda v: in_order_sum(backend.map(gram_part, shards, self.fit_intercept,
                                                       np.asarray(v))), size)
            except ArpackError:  # the Gram matrix overflowed: its products are inf or NaN
                largest = np.inf
        step = 1.0 / largest if largest > 0 else np.inf
        if not 0 < step < np.inf:
            # the squares summed over the rows overflow float64 (many rows near 1e153),
            # or underflow to a step that is infinite (rows near 1e-160)
            size = "too large" if largest > 1 else "too small"
            raise ValueError(
                f"LinearUnit cannot choose eta='auto': the rows' squared norms ‖x‖² (summed "
                f"over the rows by solver='batch') are {size} for float64, and the stable "
                f"step would be {step:.3g}. Scale X, e.g. with "
                "sklearn.preprocessing.StandardScaler, or pass a number as eta."
            )
        return step

    def _new_state(self, coef, intercept):
        return LossHistory()

    def _epoch_order(self, problem, stream, n):
        if self.solver == "batch":
            return NATURAL_ORDER  # the step sees every row at once
        return super()._epoch_order(problem, stream, n)

    def _mixing_weights(self, updates, mixing):
        if self.solver == "batch":
            return steps_add(updates)
        return super()._mixing_weights(updates, mixing)

    def _rule(self):
        return _kernels.LINEAR_UNIT

    def _batch_eta(self):
        return self.eta_

    def _epoch(self, problem, data, order):
        if self.solver == "sgd":
            n_updates, _ = _kernels.online_epoch(
                data.Xk, data.y, data.kernel_sw, order, self.eta_, self.fit_intercept,
                _kernels.LINEAR_UNIT, (problem.coef, problem.intercept, problem.seen),
                None, None, None, None,
            )
            return n_updates
        first = getattr(problem, "_sums", None) is None  # one step an epoch: one update
        OneStepPerEpoch._epoch(self, problem, data, order)  # the sums; the step at the end
        problem.seen[0] += int(np.count_nonzero(data.sw))
        return int(first)

    def _epoch_end(self, problem):
        if self.solver == "batch":
            OneStepPerEpoch._epoch_end(self, problem)

    def publish(self, problems):
        curves = tuple(np.array(p.state.losses) for p in problems)
        return {**super().publish(problems), "eta_": self.eta_,
                "loss_curve_": curves[0] if len(curves) == 1 else curves}

    def _not_converged_message(self, problems, which):
        if self.tol is None:
            return None  # no stopping rule, nothing failed (scikit-learn's tol=None)
        diverged = [p.state.diverged for p in problems if p.state.diverged]
        if diverged:
            epoch, before, after, best = diverged[0]
            return (
                f"LinearUnit diverged at epoch {epoch}: the squared loss went from "
                f"{before:.6g} to {after:.6g}. eta={self.eta_:.6g} is too large for these "
                f"data — use a smaller eta, eta='auto' (a step that cannot diverge), or scale "
                f"the features. The weights of smallest loss ({best:.6g}) are kept."
            )
        scales = getattr(self, "_scales", None)
        if scales is not None and scales[1] > BADLY_SCALED * scales[0]:
            return (
                f"LinearUnit ran {self._limit_description(problems)}{which} without the loss "
                f"settling (change <= tol={self.tol} relative): the features are badly "
                f"scaled (root mean squares of the columns from {scales[0]:.3g} to "
                f"{scales[1]:.3g}, the bias's column of ones included), on which gradient "
                "descent crawls — scale them (sklearn.preprocessing.StandardScaler, in a "
                "Pipeline); or increase max_iter."
            )
        return (
            f"LinearUnit ran {self._limit_description(problems)}{which} without the loss "
            f"settling (change <= tol={self.tol} relative); increase max_iter, or tol."
        )


@register("linear_unit", "classic")
class LinearUnit(OnlineMixin, LinearModel, PerceptronClassifier):
    """Linear unit (Adaline): least squares on the unthresholded output, sign to predict.

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

    The loops are the perceptron's (:class:`BatchPerceptron` for batch,
    :class:`Perceptron` for SGD) with the linear unit's residual ``e = y − o``
    in place of the perceptron's ``e = y − q``.

    Probabilities: none; its output is a least-squares fit to the labels ±1 (it
    leaves [-1, 1] and is not a log-odds). For probabilities, calibrate its
    scores with :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float or "auto", default="auto"
        Learning rate (> 0).
    solver : {"batch", "sgd"}, default="batch"
        Gradient descent on the whole set, or stochastic (one row at a time).
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (batch steps or SGD passes).
    tol : float or None, default=1e-6
        Stop when an epoch changes the loss by at most ``tol · max(E, 1)``.
        ``None``: no stopping rule, run ``max_iter`` epochs (scikit-learn's
        ``tol=None``) without computing ``E(w)`` after each one, a pass over X
        that costs about as much as an SGD epoch on large sparse data. Then
        ``loss_curve_`` is empty, no ``ConvergenceWarning`` is given, and a
        too-large ``eta`` is caught only when the weights overflow (an error).
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order of the SGD solver (the batch solver has none).
    init : {"zeros", "uniform", "normal"} or array-like, default="uniform"
        Starting weights (random by default, as in the text); see
        :class:`Perceptron`.
    random_state : None, int, RandomState or Generator, default=None
        Source of the random initial weights and permutations. A generator you
        pass is advanced in place, as in scikit-learn.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit instead of ``init``.
    early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the rows and stop when
        their accuracy has not improved for ``n_iter_no_change`` epochs.
    validation_fraction : float, default=0.1
        Share of rows held out for early stopping.
    n_iter_no_change : int, default=5
        Epochs without improvement of the held-out accuracy before stopping.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Weight changes: rows with a non-zero residual for SGD, steps for batch
        (summed over the problems).
    converged_ : bool
        Whether the loss settled (for every problem).
    stop_reason_ : str
        ``"tol"`` (the loss settled), ``"diverged"``, ``"early_stopping"``,
        ``"max_iter"`` or ``"partial_fit"``.
    eta_ : float
        The learning rate used.
    loss_curve_ : ndarray, or tuple of ndarrays (one per class)
        ``E(w)`` after each epoch (empty with ``tol=None``).

    There is no trace: every example updates.

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

    _PARAMETERS = ("eta", "solver", "fit_intercept", "max_iter", "tol", "shuffle", "init",
                   "random_state", "class_weight", "warm_start", "early_stopping",
                   "validation_fraction", "n_iter_no_change", "n_jobs")
    _parameter_constraints = constraints(
        _PARAMETERS,
        eta=[StrOptions({"auto"}), RealNumber(0, None, closed="neither")],
        solver=[StrOptions({"batch", "sgd"})],
        tol=[RealNumber(0, None, closed="left"), None],
    )

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

    _learner_class = LinearUnitLearner


def _loss(problem, data, start=0.0):
    return _kernels.squared_loss(data.Xk, data.y, data.sw, problem.coef, problem.intercept[0],
                                 start)


def largest_eigenvalue(gram, size):
    """Largest eigenvalue of the symmetric ``size × size`` matrix whose product
    with a vector is ``gram(vector)`` (Lanczos, from a fixed start)."""
    if size == 1:
        return float(gram(np.ones(1))[0])
    operator = LinearOperator((size, size), matvec=gram, dtype=np.float64)
    # a fixed start vector: ARPACK's default is random, and eta_ must be reproducible
    start = np.ones(size) / np.sqrt(size)
    try:
        return float(eigsh(operator, k=1, which="LA", v0=start, return_eigenvectors=False,
                           tol=1e-8)[0])
    except ArpackError:  # "Starting vector is zero"
        pass
    # the start is in the null space (rows like (1, -1) with no intercept): ARPACK
    # refuses it as "zero"; a fixed pseudo-random start is not, almost surely
    start = np.random.default_rng(0).standard_normal(size)
    return float(eigsh(operator, k=1, which="LA", v0=start / np.linalg.norm(start),
                       return_eigenvectors=False, tol=1e-8)[0])


def largest_scaled_norm(shard, fit_intercept):
    """``max sw ‖x̃‖²`` over a shard's rows (the SGD solver's stable step)."""
    return max((float(np.max(sw * (row_norms(X, squared=True) + float(fit_intercept)),
                             initial=0.0)) for X, sw in shard.weighted_rows()), default=0.0)


def column_squares(shard):
    """A shard's ``(Σ sw x², Σ sw)`` per column: the parts of the columns' root
    mean squares, which add up over shards."""
    squares, weight = 0.0, 0.0
    for X, sw in shard.weighted_rows():
        squares = squares + np.asarray(
            (X.multiply(X) if sp.issparse(X) else np.square(X, dtype=np.float64)).T @ sw
        ).ravel()
        weight += float(sw.sum())
    return squares, weight


def column_scales(parts, fit_intercept):
    """The smallest and largest root mean square of the columns that are not all 0
    (with a column of ones for the bias), from every shard's :func:`column_squares`;
    ``None`` when there is none.

    >>> column_scales([(np.array([4.0, 0.0, 100.0]), 1.0)], fit_intercept=True)
    (1.0, 10.0)
    """
    squares = in_order_sum([part[0] for part in parts])
    weight = sum(part[1] for part in parts)
    if weight <= 0:
        return None
    rms = np.sqrt(np.asarray(squares, dtype=np.float64) / weight)
    rms = np.append(rms[rms > 0], [1.0] if fit_intercept else [])
    return (float(rms.min()), float(rms.max())) if rms.size else None


def gram_part(shard, fit_intercept, vector):
    """A shard's part of ``X̃ᵀ diag(sw) X̃ v`` (the batch solver's stable step),
    its rows added in order into one sum whatever its blocks."""
    vector = np.ravel(vector)
    out = np.zeros(len(vector))
    for X, sw in shard.weighted_rows():
        n_features = X.shape[1]
        bias = vector[n_features] if fit_intercept else 0.0
        scaled = sw * (np.asarray(X @ vector[:n_features]).ravel() + bias)
        _kernels.add_weighted_rows(kernel_view(X), scaled, out, fit_intercept)
    return out


def in_order_sum(parts):
    """The sum of ``parts`` in their order (so that it does not depend on timing)."""
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total
