"""The averaged perceptron, with Daumé's cached-weights trick (Alg. 7)."""

from dataclasses import dataclass

import numpy as np

from .. import _kernels
from ..base import LinearModel, OnlineMixin, PerceptronClassifier, RuleState
from ..base._file_form import WEIGHT_DTYPES, Count, Floats, Optional, Tuple
from ..base._registry import register
from ._perceptron import PenalizedRuleParameters, PerceptronLearner


@dataclass
class Averaging(RuleState):
    """Daumé Alg. 7's cached weights, for the mean of the weights after every example.

    On an update ``step · x`` at example number ``c`` (from 1) the kernel adds
    ``c · step · x`` to ``u`` and ``c · step`` to ``beta``. After ``T`` examples
    from start weights ``w₀`` to running weights ``w``, the sum of the ``T``
    weights met is ``(T + 1) w − w₀ − u`` (:meth:`total`) and their mean that
    over ``T`` (:meth:`mean`). Works for a weight vector with its bias (1,) and
    for a multiclass weight matrix with its bias vector alike.

    >>> import numpy as np
    >>> averaging = Averaging.start(np.zeros(2), np.zeros(1))
    >>> w, b = np.array([1.0, 2.0]), np.array([1.0])   # one update, at example 1,
    >>> averaging.u[:], averaging.beta[:] = w, b        # then 3 correct examples
    >>> averaging.mean(w, b, seen=4)
    (array([1., 2.]), array([1.]))
    """

    u: np.ndarray
    beta: np.ndarray
    coef_start: np.ndarray
    intercept_start: np.ndarray
    #: with a penalty the kernel keeps ``u`` as minus the sum of the weights
    #: instead (see rosenblatt._kernels._penalty); None where no penalty applies
    decayed: bool = None
    #: after a mixed epoch: the sums of the weights the shards held during it and
    #: their number, ``(coef_sum, intercept_sum, examples)``, which the model then
    #: publishes (see :meth:`mixed`); None after a serial epoch
    window: tuple = None

    file_form = {"window": Optional(Tuple(Floats(like="coef", dtypes=WEIGHT_DTYPES),
                                          Floats(like="intercept", dtypes=WEIGHT_DTYPES),
                                          Count()))}

    @classmethod
    def start(cls, coef, intercept, decayed=None):
        """Empty sums, for running weights that start at ``coef``, ``intercept``."""
        # float64 whatever the weights' type: u sums steps times example numbers
        # (up to millions), where float32 would lose the mean's digits
        return cls(np.zeros(coef.shape), np.zeros_like(intercept), coef.astype(np.float64),
                   intercept.copy(), decayed)

    def kernel_average(self):
        self.window = None  # a serial epoch extends the history the mean is over
        return self.u, self.beta

    def renumber(self, move):
        move(self.u)
        move(self.coef_start)
        if self.window is not None:
            move(self.window[0])

    def total(self, coef, intercept, seen):
        """Sum of the weights after each of the ``seen`` examples."""
        if self.decayed:
            return -self.u, (seen + 1) * intercept - self.intercept_start - self.beta
        return ((seen + 1) * coef - self.coef_start - self.u,
                (seen + 1) * intercept - self.intercept_start - self.beta)

    def mean(self, coef, intercept, seen):
        """Mean of the weights after each of the ``seen`` examples (the running
        weights themselves before any example)."""
        if seen == 0:
            return coef.copy(), intercept.copy()
        if self.decayed:
            return -self.u / seen, self._mean_intercept(intercept, seen)
        # w − (u − (w − w₀)) / T: the same as total / T, with less rounding; computed
        # in one array (the weights of a many-label tagger are gigabytes)
        mean = np.subtract(coef, self.coef_start, dtype=np.float64)
        np.subtract(self.u, mean, out=mean)
        mean /= seen
        np.subtract(coef, mean, out=mean)
        return mean, self._mean_intercept(intercept, seen)

    def _mean_intercept(self, intercept, seen):
        if seen == 0:
            return intercept.copy()
        return intercept - (self.beta - (intercept - self.intercept_start)) / seen

    def published(self, coef, intercept, seen):
        """The mean of the weights after every example; after a mixed epoch, the
        mean of the weights the shards held during it (see :meth:`mixed`)."""
        if self.window is None or self.window[2] == 0:
            return self.mean(coef, intercept, seen)
        coef_sum, intercept_sum, examples = self.window
        return coef_sum / examples, intercept_sum / examples

    def mixed(self, before, parts, mu, coef, intercept, seen):
        """Averaging on shards. The sums of the weights after each example add up
        over the shards (each shard's copy went on from ``before``): ``u`` and ``β``
        are set so that :meth:`total` gives the sum over every running weight
        vector any shard held, which a serial ``partial_fit`` goes on from.

        What the model publishes after a mixed epoch is the mean over that epoch
        only (``window``): the mixed running weights already average the shards'
        trajectories, and each mixed epoch moves them about one shard's worth
        (McDonald et al.'s Theorem 3 counts ``Σ μᵢ kᵢ``, the mean of the shards'
        mistakes), so the early epochs' weights are far from trained and a mean
        over the whole history keeps them: on MNIST that cost 0.8 point at 32
        shards against the serial averaged perceptron, the last epoch's mean 0.2
        (BENCHMARKS.md)."""
        start = self.total(before.coef.astype(np.float64), before.intercept,
                           int(before.seen[0]))
        coef_total, intercept_total = start[0].copy(), start[1].copy()
        for part in parts:  # float32 running weights are summed in float64
            part_coef, part_intercept = part.state.total(part.coef.astype(np.float64),
                                                         part.intercept, int(part.seen[0]))
            coef_total += part_coef - start[0]
            intercept_total += part_intercept - start[1]
        u = -coef_total if self.decayed else \
            (seen + 1) * coef - self.coef_start - coef_total
        beta = (seen + 1) * intercept - self.intercept_start - intercept_total
        window = (coef_total - start[0], intercept_total - start[1],
                  seen - int(before.seen[0]))
        return Averaging(u, beta, self.coef_start, self.intercept_start, self.decayed, window)

    def is_finite(self, problem):
        # the check after every epoch, without building the mean (see the kernel)
        seen = int(problem.seen[0])
        with np.errstate(all="ignore"):  # inf − inf in a mean: the answer is "no"
            intercepts = (problem.intercept, self._mean_intercept(problem.intercept, seen))
        # 1-D arrays as they are: ravel would copy a broadcast zero start to full size
        flat = [a if a.ndim == 1 else a.ravel() for a in (problem.coef, self.u, self.coef_start)]
        return all(np.all(np.isfinite(array)) for array in intercepts) and \
            _kernels.averaged_weights_finite(*flat, seen, bool(self.decayed))


class AveragedLearner(PerceptronLearner):
    """The perceptron's rule, publishing the mean of its weights (Alg. 7's sums)."""

    def _confirms_on_weights(self, problem):
        return True  # the mean separates some epochs after the running weights

    def _new_state(self, coef, intercept):
        return Averaging.start(coef, intercept, decayed=self.penalty is not None)

    def publish(self, problems):
        return {**super().publish(problems),
                "n_examples_": int(max(p.seen[0] for p in problems))}


@register("averaged", "classic")
class AveragedPerceptron(OnlineMixin, PenalizedRuleParameters, LinearModel,
                         PerceptronClassifier):
    """Perceptron that predicts with the average of its weights over training.

    Training is the perceptron's (see :class:`Perceptron`): the running weights
    ``w, b`` decide the mistakes. ``coef_``/``intercept_`` are the mean of the
    weights after each of the ``T`` examples seen so far, over every epoch and
    ``partial_fit`` call (Daumé eq. 4.18): weights that survive long weigh more.

    The mean costs nothing on correct examples, by Daumé Alg. 7's cached
    weights: on a mistake at example number ``c`` (from 1), ``u += c η y x`` and
    ``β += c η y``; then the mean is ``w − (u − (w − w₀)) / T`` (and likewise for
    the bias), ``w₀`` the starting weights.

    Alg. 7 as printed returns ``w − u / c`` with ``c = T + 1``, which from a zero
    start is ``T / (T + 1)`` times our mean: the same predictions, scaled
    weights. We follow the convention of scikit-learn's
    ``SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1,
    penalty=None, average=True)``, whose weights ours equal on dense data.

    Training stops after the first epoch without a mistake whose averaged
    weights make no training mistake either (the mean lags the running weights:
    it separates some epochs after them); the rule of Ahmed & Pavlu and CISC
    271, not Daumé's: Algorithm 7 runs all MaxIter epochs and goes on averaging
    after a mistake-free one, ``stop_mistake_free=False``. On data that never
    get there, once the epoch's mistakes stop falling (``tol``), unless the rows
    can be separated; else after ``max_iter`` epochs, with a
    ``ConvergenceWarning``. ``stop_reason_`` says which.

    Probabilities: none; its scores are the margins of averaged mistake-driven
    weights, which model no probability. For probabilities, calibrate its scores
    with :class:`sklearn.calibration.CalibratedClassifierCV`.

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
    margin : float, default=0.0
        A mistake is ``y a <= margin`` (>= 0): with a positive margin the rule
        also updates on examples it gets right by no more than ``margin``, which
        pushes the boundary away from them (scikit-learn keeps this threshold at
        0). From a zero start the mistake bound becomes ``(R² + 2 margin/eta)/γ²``
        (:func:`rosenblatt.theory.mistake_bound`).
    penalty : {"l2", "l1", "elasticnet"} or None, default=None
        Regularisation as in scikit-learn's ``Perceptron``: every example shrinks
        the weights by ``1 − (1 − l1_ratio) eta alpha`` (the L2 part), and the
        L1 part moves the weights of the example's features towards 0 by the
        penalty accumulated so far, never past 0 (Tsuruoka et al. 2009; for
        dense rows every feature, for CSR rows the stored ones, as there). The
        bias is not penalised. ``None``: the textbook rule.
    alpha : float, default=0.0001
        Strength of the penalty (>= 0).
    l1_ratio : float, default=0.15
        Share of L1 in ``"elasticnet"`` (0: L2 only, 1: L1 only).
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=10000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``. Ten times the perceptron's: on separable rows
        the mean separates them some epochs after the running weights do, as
        the final vector's share of it grows (on 150 random separable 2-D sets,
        up to 3,895 epochs where the perceptron needed 467); epochs without a
        mistake cost a pass of dot products, and on data that cannot be
        separated ``tol`` ends the run long before.
    tol : float or None, default=1e-3
        The stopping rule for data that do not reach a mistake-free epoch
        (:mod:`rosenblatt.base._stopping`): stop once the epoch's mistakes have
        not fallen below the fewest so far by ``tol × n_samples`` for
        ``n_iter_no_change`` epochs in a row (on a9a after 7 to 11 epochs), unless a linear
        program finds the rows separable (checked once, on data of up to
        50,000 values), in which case the run goes on to the mistake-free
        epoch the convergence theorem promises. Mistakes, unlike the perceptron
        loss scikit-learn's ``tol`` watches, count an activation of exactly 0
        and do not change when ``X`` is scaled. ``None``: no such rule (the
        texts), only ``stop_mistake_free`` and ``max_iter``.
    stop_mistake_free : bool, default=True
        Stop after the first epoch without a mistake (Ahmed & Pavlu, and CISC
        271's "missed" flag), whether or not ``tol`` is set. ``False``: go on to
        ``max_iter`` (or ``tol``'s stop) and keep averaging, as Daumé's
        Algorithm 7 does: the running weights no longer change, so the mean
        moves towards them and predictions can change (see Notes).
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, one draw of ``rng.random(n_features + 1)``
        (U[0, 1)) or ``rng.standard_normal(...)``, bias first; or an array of that
        shape (bias first), or one row per class for one-vs-rest.
    random_state : None, int, RandomState or Generator, default=None
        Source of the random initial weights and permutations. A generator you
        pass is advanced in place, as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update of the running weights
        in ``trace_``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit instead of ``init``.
    early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the rows and stop when
        the accuracy of the averaged weights on them has not improved for
        ``n_iter_no_change`` epochs.
    validation_fraction : float, default=0.1
        Share of rows held out for early stopping.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping: of the held-out accuracy
        with ``early_stopping``, else of the epoch's training mistakes when ``tol`` is set.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.
    weights_dtype : {"float64", "float32"}, default="float64"
        What the running weights are stored in during training. ``"float32"``
        halves their memory and the memory traffic of every epoch on wide sparse
        data; each dot product and update is still computed in float64, and only
        rounded to float32 when stored (1e-7 relative), so the weights drift from
        float64 training: 1e-6 to 1e-5 of the largest weight after 5 epochs on
        a9a with random values, none with integer steps on 0/1 data, and a step
        that lands on a mistake's threshold can go the other way. The averaging
        sums stay float64; ``coef_`` is float64 either way.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The averaged weights.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The averaged bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Mistakes that changed the running weights (summed over the problems).
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    n_examples_ : int
        ``T``, the examples the mean is over (the largest over the problems).
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    Daumé's Algorithm 7 exactly is ``max_iter=MaxIter, tol=None,
    stop_mistake_free=False, shuffle="none"``, its weights being ours times
    ``T / (T + 1)``. On AND with MaxIter = 50 it ends at ``b = −3.72``,
    ``w = (2.82, 1.87)``, where the default stops after the mistake-free 9th
    epoch at ``b = −2.56``, ``w = (2.08, 1.33)``; the two predict differently
    at ``x = (1, 0.4)``:

    >>> from rosenblatt import AveragedPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> algorithm_7 = AveragedPerceptron(max_iter=50, tol=None, stop_mistake_free=False,
    ...                                  shuffle="none").fit(X, y)
    >>> T = algorithm_7.n_examples_
    >>> T, (algorithm_7.intercept_ * T / (T + 1)).round(2).tolist()
    (200, [-3.72])
    >>> (algorithm_7.coef_ * T / (T + 1)).round(2).tolist()
    [[2.82, 1.87]]
    >>> default = AveragedPerceptron(shuffle="none").fit(X, y)
    >>> algorithm_7.predict([[1, 0.4]]).tolist(), default.predict([[1, 0.4]]).tolist()
    ([-1], [1])

    References
    ----------
    Daumé III, *A Course in Machine Learning*, §4.6, Alg. 7; Freund & Schapire,
    "Large margin classification using the perceptron algorithm", 1999.

    Examples
    --------
    >>> from rosenblatt import AveragedPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = AveragedPerceptron(shuffle="none").fit(X, y)
    >>> model.n_examples_, model.intercept_.round(4).tolist(), model.coef_.round(4).tolist()
    (36, [-2.5556], [[2.0833, 1.3333]])
    """

    def __init__(
        self,
        *,
        eta=1.0,
        h0=None,
        margin=0.0,
        penalty=None,
        alpha=0.0001,
        l1_ratio=0.15,
        fit_intercept=True,
        max_iter=10_000,
        tol=1e-3,
        stop_mistake_free=True,
        shuffle="every_epoch",
        init="zeros",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
        weights_dtype="float64",
    ):
        super().__init__(
            eta=eta, h0=h0, margin=margin, penalty=penalty, alpha=alpha, l1_ratio=l1_ratio,
            fit_intercept=fit_intercept, max_iter=max_iter, tol=tol,
            stop_mistake_free=stop_mistake_free, shuffle=shuffle, init=init,
            random_state=random_state, record=record, class_weight=class_weight,
            warm_start=warm_start, early_stopping=early_stopping,
            validation_fraction=validation_fraction, n_iter_no_change=n_iter_no_change,
            n_jobs=n_jobs, weights_dtype=weights_dtype,
        )

    _learner_class = AveragedLearner
