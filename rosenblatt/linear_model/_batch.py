"""The batch perceptron rule of CISC 271 §30.2."""

import numpy as np

from .. import _kernels
from ..base import (
    NATURAL_ORDER,
    LinearLearner,
    LinearModel,
    PerceptronClassifier,
    Traced,
    constraints,
)
from ..base._registry import register
from ._heaviside import H0_CONSTRAINT, StepFunction
from ._online import update_log


def steps_add(updates):
    """μ of a batch rule on shards: each shard's step is its part of the sum over
    every row (``Σ sw e x`` over its rows), so the parts add (μ = 1): the mixed
    step is the serial one, up to the order of a floating-point sum."""
    return np.ones(len(updates))


class OneStepPerEpoch:
    """Learner mixin: the batch rules' epoch, one step from every row's residual.

    ``_epoch`` adds its rows' residuals to the epoch's sums (on the problem,
    until the step: a shard streamed from files adds block after block, in the
    order the rows would come in memory, so the sums are the same bit for bit);
    ``_epoch_end`` takes the step ``w += η Σ sw e x`` and records the trace. A
    rule gives its residual (``_rule()``) and its step (``_batch_eta()``).
    """

    def _epoch_order(self, problem, stream, n):
        return NATURAL_ORDER  # a step sees every row at once

    def _mixing_weights(self, updates, mixing):
        return steps_add(updates)

    def _batch_eta(self):
        return self.eta

    def _epoch(self, problem, data, order):
        if getattr(problem, "_sums", None) is None:  # the epoch's first block
            problem._sums = (np.zeros(problem.coef.shape[-1]), np.zeros(1), [])
        gradient, sums, logged = problem._sums
        log = update_log(data.n_rows) if problem.recorder is not None else None
        n_nonzero = _kernels.batch_gradient(data.Xk, data.y, data.sw, self._rule(),
                                            problem.coef, problem.intercept, log, gradient,
                                            sums)
        if log is not None:
            logged.append((data, log[0][:n_nonzero].copy(), log[1][:n_nonzero].copy()))
        return n_nonzero

    def _epoch_end(self, problem):
        gradient, sums, logged = problem._sums
        problem._sums = None
        eta = self._batch_eta()
        _kernels.batch_step(eta, self.fit_intercept, problem.coef, problem.intercept,
                            gradient, sums)
        for data, rows, activations in logged:  # each row with the weights after the step
            problem.recorder.add_batch(
                problem.n_iter, data.X, data.y, rows, activations,
                eta * data.sw[rows] * self._residuals(data, rows, activations),
                problem.coef, problem.intercept[0],
            )


class BatchLearner(StepFunction, OneStepPerEpoch, Traced, LinearLearner):
    """The batch rule: one step per epoch, from every row's residual."""


@register("batch", "classic")
class BatchPerceptron(LinearModel, PerceptronClassifier):
    """Perceptron rule on all rows at once: ``w ← w + η Xᵀ(y − q)`` per iteration.

    CISC 271 §30.2 with labels coded {0, 1}: ``q`` is the Heaviside
    quantisation of ``w·x + b`` (1 when ``> 0``) and the residual ``y − q`` is
    zero on correct rows and ±1 on mistakes, so one iteration adds ``η`` times
    the sum of ``y x`` (±1 labels) over the rows misclassified by the weights at
    the start of the iteration. The bias moves by ``η Σ (y − q)``. An iteration
    plays the part of an epoch: ``max_iter`` bounds them and ``n_iter_`` counts
    them; ``n_updates_`` counts the misclassified rows summed over iterations.
    The row order does not matter, so there is no ``shuffle``; no ``partial_fit``
    either, since the rule needs every row at once.

    The loop is :class:`LinearUnit`'s batch gradient descent with the
    perceptron's residual ``e = y − q`` in place of the linear unit's ``y − o``.

    In the trace each iteration lists its misclassified rows, with their
    activations under the weights at the start of the iteration and, for all of
    them, the weights after the iteration's step.

    Probabilities: none; its scores are the margins of a mistake-driven rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η (> 0): an update adds ``eta * y * x`` to the weights.
    h0 : {0, 0.5, 1} or None, default=None
        CISC 271's ``H(0)``, the step function's value at an activation of exactly
        0, with the labels coded 0/1 (``e = y − H(a)``): 0 makes a point on the
        boundary a mistake for the positive class only, 1 for the negative only,
        0.5 (MATLAB's ``heaviside``) a half step for both. ``None``: Daumé's
        ``y a <= 0``, a full step for either class.
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``.
    init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, one draw of ``rng.random(n_features + 1)``
        (U[0, 1)) or ``rng.standard_normal(...)``, bias first; or an array of that
        shape (bias first), or one row per class for one-vs-rest.
    random_state : None, int, RandomState or Generator, default=None
        Source of the random initial weights and permutations. A generator you
        pass is advanced in place, as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``.
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
        Iterations run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Misclassified rows, summed over the iterations (and problems).
    converged_ : bool
        Whether a pass without mistakes was reached (by every problem).
    stop_reason_ : str
        ``"mistake_free"``, ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``) or ``"partial_fit"``.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    References
    ----------
    CISC 271, class 30, eq. 30.4.

    Examples
    --------
    >>> from rosenblatt import BatchPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> model = BatchPerceptron().fit(X, y)
    >>> model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_
    ([-3.0], [[2.0, 2.0]], 10)
    """

    _PARAMETERS = ("eta", "h0", "fit_intercept", "max_iter", "init", "random_state", "record",
                   "class_weight", "warm_start", "early_stopping", "validation_fraction",
                   "n_iter_no_change", "n_jobs")
    _parameter_constraints = constraints(_PARAMETERS, h0=H0_CONSTRAINT)

    def __init__(
        self,
        *,
        eta=1.0,
        h0=None,
        fit_intercept=True,
        max_iter=1000,
        init="zeros",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
    ):
        self.eta = eta
        self.h0 = h0
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs

    _learner_class = BatchLearner
