"""FTRL-Proximal (McMahan et al., KDD 2013): per-coordinate rates, L1 and L2, lazy weights.

The rule is :func:`rosenblatt._kernels._ftrl.ftrl_epoch`; its state per coordinate is
``z`` and ``n``, and the weights are computed from them when needed. The problem's own
running arrays (``coef``, ``intercept``: what the engine mixes, renumbers, warm-starts and
saves) hold ``z`` and ``z_b``; :class:`FTRLState` holds ``n`` and ``n_b``, the rates, and
publishes the lazy weights as ``coef_`` and ``intercept_``.
"""

from dataclasses import dataclass, replace

import numpy as np

from .._kernels import _ftrl
from ..base import LinearModel, OnlineMixin, PerceptronClassifier
from ..base._file_form import Floats, Number
from ..base._parameters import RealNumber
from ..base._registry import register
from ._first_order import (
    ONLINE_RULE_PARAMETERS,
    FirstOrderLearner,
    FirstOrderState,
    ProgressiveLoss,
    _mix,
    constraints,
)
from ._probabilities import LogisticProbabilities

#: the rates are finite numbers (an infinite alpha or l2 makes no step of them)
_LARGEST = float(np.finfo(np.float64).max)


@dataclass
class FTRLState(FirstOrderState):
    """``n`` and ``n_b`` (the sums of the squared gradients of each coordinate and of the
    bias) beside the problem's ``z`` and ``z_b``, and the rates ``α, β, λ1, λ2`` that make
    weights of them (set from the parameters at every epoch).

    Mixing averages ``n`` by ``μ`` as the engine averages ``z``: shards that saw the same
    rows mix into the very state each holds, and a coordinate only one shard met gets
    ``μ`` of its ``z`` and ``n``. The mixed weights are the lazy weights of the mixed
    ``z`` and ``n`` (not the mean of the shards' weights, which the L1 threshold and the
    per-coordinate rates do not commute with)."""

    n: np.ndarray
    n_intercept: np.ndarray
    alpha: float
    beta: float
    l1: float
    l2: float

    file_form = {
        "n": Floats("features", low=0.0),
        "n_intercept": Floats(1, low=0.0),
        "alpha": Number(0, strictly=True),
        "beta": Number(0),
        "l1": Number(0),
        "l2": Number(0),
    }

    def published(self, coef, intercept, seen):
        """The lazy weights of ``z`` (the problem's ``coef``) and the bias of ``z_b``
        (no L1 or L2 on it)."""
        weights = _ftrl.ftrl_weights(coef, self.n, self.alpha, self.beta, self.l1, self.l2)
        bias = _ftrl.ftrl_weights(intercept, self.n_intercept, self.alpha, self.beta, 0.0, 0.0)
        return weights, bias

    def mixed(self, before, parts, mu, coef, intercept, seen):
        return replace(self, n=_mix(self.n, [part.state.n for part in parts], mu),
                       n_intercept=_mix(self.n_intercept,
                                        [part.state.n_intercept for part in parts], mu),
                       mistakes=self.mixed_mistakes(parts))

    def renumber(self, move):
        move(self.n)

    def is_finite(self, problem):
        return super().is_finite(problem) and bool(np.all(np.isfinite(self.n))) and \
            bool(np.all(np.isfinite(self.n_intercept)))

    def warm(self, previous):
        return replace(self, n=previous.n.copy(), n_intercept=previous.n_intercept.copy())


class FTRLLearner(ProgressiveLoss, FirstOrderLearner):
    """FTRL-Proximal: the kernel's epoch on ``z`` (the problem's ``coef``) and ``n``."""

    _advice = ("increase max_iter, or train FTRL as the paper does, one pass over a stream "
               "with partial_fit (its weights after the pass are its answer); on data no "
               "hyperplane separates, set tol to stop when the mistakes stall")

    def _rates(self):
        return float(self.alpha), float(self.beta), float(self.l1), float(self.l2)

    def _new_state(self, coef, intercept):
        return FTRLState(np.zeros(coef.shape), np.zeros(1), *self._rates())

    def _epoch(self, problem, data, order):
        state = problem.state
        state.alpha, state.beta, state.l1, state.l2 = self._rates()  # set_params between calls
        return self._run(problem, data, order, _ftrl.ftrl_epoch, self._rates(),
                         (problem.coef, state.n, problem.intercept, state.n_intercept,
                          problem.seen), (self._epoch_losses(problem),))


@register("ftrl", "first-order")
class FTRLProximal(LogisticProbabilities, OnlineMixin, LinearModel, PerceptronClassifier):
    """FTRL-Proximal: online logistic regression, per-coordinate steps, L1 (McMahan et al. 2013).

    The click-prediction learner of McMahan et al. (KDD 2013, Algorithm 1). Each
    coordinate ``i`` keeps ``z_i`` and ``n_i`` (both from 0) and its weight is computed
    from them when a row needs it (a *lazy* weight):

    - ``w_i = 0`` if ``|z_i| <= l1``, else
      ``w_i = −(z_i − sgn(z_i) l1) / ((beta + √n_i)/alpha + l2)``;
    - for a row ``x`` with label ``y`` in {0, 1} (``classes_[1]`` is 1):
      ``p = σ(w·x + b)``, and for each ``i`` with ``x_i ≠ 0``: ``g_i = (p − y) x_i``,
      ``σ_i = (√(n_i + g_i²) − √n_i)/alpha``, ``z_i += g_i − σ_i w_i``, ``n_i += g_i²``.

    Only the row's non-zero coordinates are read or written: an epoch costs the stored
    values, whatever the width (hashed features, 2²⁰ columns and 40 values a row, are a
    wide CSR matrix). ``l1 > 0`` gives exact zeros: ``np.mean(model.coef_ == 0)`` is the
    share of weights the model does not need. Each coordinate's step
    ``alpha/(beta + √n_i)`` shrinks with the gradients it has met, so rare features keep
    large steps. Tune ``alpha`` first.

    The bias is the weight of a constant feature 1 with its own ``z_b`` and ``n_b``; ``l1``
    and ``l2`` do not apply to it (scikit-learn's penalties leave intercepts alone, and an
    L1 threshold would hold the bias at 0 until ``|z_b| > l1``, off for rare positives).
    To regularise it as a feature, append a column of ones with ``fit_intercept=False``.
    Sample and class weights multiply the gradient ``g_i`` (a row of weight 0 is absent).

    Probabilities: the rule follows the log-loss of the logistic model, and
    ``predict_proba`` gives its ``p = σ(w·x + b)`` (one-vs-rest: each class's ``σ``
    normalised over the classes, as scikit-learn does).

    Parameters
    ----------
    alpha : float, default=0.2
        The paper's α (> 0): the scale of every coordinate's step ``alpha/(beta + √n_i)``.
        The default is measured, one pass in file order, against Vowpal Wabbit's
        logistic run (``benchmarks/bench_click_log.py``; BENCHMARKS.md): test log-loss
        on a9a 0.3252 (VW 0.3246; 0.3243 with the 0.1 common in FTRL code), and on the
        1,000,000-row click log 0.4685 (VW 0.4705; 0.4771 with 0.1). Tune it first.
    beta : float, default=1.0
        The paper's β (>= 0): smooths the first steps of a coordinate (with 0, a
        coordinate's first step is ``alpha`` times the sign of its gradient).
    l1 : float, default=1.0
        The paper's λ1 (>= 0): the L1 strength; a weight is exactly 0 while
        ``|z_i| <= l1``.
    l2 : float, default=1.0
        The paper's λ2 (>= 0): the L2 strength.
    fit_intercept : bool, default=True
        Learn a bias ``b``: the weight of a constant feature 1 appended to every row,
        unregularised. False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (the paper's algorithm is one pass: ``max_iter=1``, or
        ``partial_fit`` on a stream). Training stops by the stopping rule of the online
        family, as for ``OnlineGradientDescent(loss="logistic")``
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake
        (``y f <= 0`` with ``y`` in ±1, counted as each row is met, before its update)
        when the weights after it make none on the training rows either; or when the
        epoch's mistakes have not fallen by ``tol × n_samples`` for
        ``n_iter_no_change`` epochs. ``stop_reason_`` says which; a run that reaches
        ``max_iter`` first warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only at a
        mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every epoch,
        or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place, as in
        scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_`` (the weights
        after each one).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the state of the previous fit (``z`` and ``n``: the next
        epoch of that run); the counters start afresh.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every core.
        Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The lazy weights of ``z`` and ``n`` (exact zeros where ``|z_i| <= l1``).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is the paper's ``y = 0``, ``classes_[1]``
        its ``y = 1``.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Updates made (summed over the problems): rows whose gradient was not 0.
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``y f <= 0`` before the update) of each epoch, summed over the
        problems; each ``partial_fit`` call is an epoch.
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every
        problem); never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped falling),
        ``"early_stopping"``, ``"max_iter"`` (with a ``ConvergenceWarning``), or
        ``"partial_fit"`` after a ``partial_fit`` call; for one-vs-rest, the reason of the
        problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    ``predict_proba`` is ``σ(w·x + b)`` for two classes; with more, each one-vs-rest
    problem's ``σ`` normalised over the classes, as scikit-learn's linear classifiers do.

    A model file keeps ``z`` and ``n`` (and the rates), so that ``partial_fit`` after
    :func:`~rosenblatt.io.load` goes on exactly as without saving; a file whose ``n`` is
    negative, NaN or of another shape, or whose ``z`` and ``n`` do not give its ``coef_``,
    is refused.

    ``ParameterMixing`` averages ``z`` and ``n`` by ``μ`` (the weights are then the lazy
    weights of the mixed state): shards that saw the same rows mix into the state each
    holds, and the examples seen add up.

    References
    ----------
    H. B. McMahan, G. Holt, D. Sculley et al., "Ad click prediction: a view from the
    trenches", KDD 2013, Algorithm 1.

    Examples
    --------
    >>> import numpy as np
    >>> from rosenblatt.linear_model import FTRLProximal
    >>> rng = np.random.RandomState(0)
    >>> X = rng.randn(300, 10)                # two informative features among ten
    >>> y = (X[:, 0] - X[:, 1] + 0.3 * rng.randn(300) > 0).astype(int)
    >>> model = FTRLProximal(alpha=0.5, l1=5.0, shuffle="none")   # one pass, in order
    >>> model.partial_fit(X, y, classes=[0, 1]).coef_.round(2).tolist()
    [[2.01, -2.21, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]
    >>> float(np.mean(model.coef_ == 0)), model.predict_proba(X[:2]).round(3).tolist()
    (0.8, [[0.055, 0.945], [0.939, 0.061]])
    """

    _PARAMETERS = ("alpha", "beta", "l1", "l2") + ONLINE_RULE_PARAMETERS
    _parameter_constraints = constraints(
        ("alpha", "beta", "l1", "l2"),
        alpha=[RealNumber(0, _LARGEST, closed="right")],
        beta=[RealNumber(0, _LARGEST, closed="both")],
        l1=[RealNumber(0, _LARGEST, closed="both")],
        l2=[RealNumber(0, _LARGEST, closed="both")],
    )

    def __init__(
        self,
        *,
        alpha=0.2,
        beta=1.0,
        l1=1.0,
        l2=1.0,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.alpha = alpha
        self.beta = beta
        self.l1 = l1
        self.l2 = l2
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = FTRLLearner
