"""The perceptron of Rosenblatt, online and cyclic.

Ahmed & Pavlu Alg. 1 and Daumé Alg. 5; the "missed" flag loop of CISC 271 §30.1
is the same algorithm (one epoch without a miss ends training).
"""

from ..base import (
    LinearLearner,
    LinearModel,
    OnlineMixin,
    PerceptronClassifier,
    MistakeStop,
    Traced,
    constraints,
)
from ..base._registry import register
from ._heaviside import H0_CONSTRAINT, StepFunction
from ._online import OnlineRule
from ._penalty import Regularized

#: The parameters of the epoch rules of the perceptron family.
EPOCH_RULE_PARAMETERS = (
    "eta", "margin", "fit_intercept", "max_iter", "tol", "stop_mistake_free", "shuffle", "init",
    "random_state",
    "record", "class_weight", "warm_start", "early_stopping", "validation_fraction",
    "n_iter_no_change", "n_jobs",
)

#: ... and of those that take scikit-learn's regularisation.
PENALIZED_RULE_PARAMETERS = ("eta", "h0", "margin", "penalty", "alpha", "l1_ratio") + \
    EPOCH_RULE_PARAMETERS[2:] + ("weights_dtype",)


class EpochRuleParameters:
    """The ``__init__`` of the voted and pocket rules, which take the same
    parameters (scikit-learn reads them from this signature)."""

    _PARAMETERS = EPOCH_RULE_PARAMETERS
    _parameter_constraints = constraints(EPOCH_RULE_PARAMETERS)

    def __init__(
        self,
        *,
        eta=1.0,
        margin=0.0,
        fit_intercept=True,
        max_iter=1000,
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
    ):
        self.eta = eta
        self.margin = margin
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.stop_mistake_free = stop_mistake_free
        self.shuffle = shuffle
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs


class PenalizedRuleParameters:
    """The ``__init__`` of the perceptron and the averaged perceptron: the epoch
    rules' parameters, CISC 271's ``h0`` and scikit-learn's ``penalty``, ``alpha``,
    ``l1_ratio``."""

    _PARAMETERS = PENALIZED_RULE_PARAMETERS
    _parameter_constraints = constraints(PENALIZED_RULE_PARAMETERS, h0=H0_CONSTRAINT)

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
        max_iter=1000,
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
        self.eta = eta
        self.h0 = h0
        self.margin = margin
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.stop_mistake_free = stop_mistake_free
        self.shuffle = shuffle
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs
        self.weights_dtype = weights_dtype


class PerceptronLearner(StepFunction, OnlineRule, Regularized, Traced, MistakeStop,
                        LinearLearner):
    """The perceptron's rule: the online epoch with CISC 271's step function,
    scikit-learn's penalty, the stopping rule of the mistake-driven rules, and the trace."""

    def _separable_data_converge(self, problem):
        # a penalty shrinks the weights at every example: no mistake bound holds
        return self.penalty is None


@register("perceptron", "classic")
class Perceptron(OnlineMixin, PenalizedRuleParameters, LinearModel, PerceptronClassifier):
    """The classic perceptron: an update on every mistake, epoch after epoch.

    For each row in turn, ``a = w·x + b``; if ``y a <= 0`` (Daumé stresses ≤: a
    point on the boundary is a mistake) then ``w += eta y x`` and ``b += eta y``.

    Training stops after the first epoch without a mistake (the rule of Ahmed &
    Pavlu and CISC 271; Daumé's Algorithm 5 runs all MaxIter epochs, which
    changes nothing after that epoch: ``stop_mistake_free=False``); on data
    that never get there, once the epoch's mistakes stop falling (``tol``),
    unless the rows can be separated (then the run goes on to its mistake-free
    epoch); else after ``max_iter`` epochs, with a ``ConvergenceWarning``.
    ``stop_reason_`` says which.

    Labels may be any two values, mapped to -1/+1 in the sorted order of
    ``classes_``; with labels {0, 1} the trace reports CISC 271's quantisation
    ``q`` and residual ``e = y - q``, and ``w += e x`` is this same update.
    Three or more classes are learned one-vs-rest.

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
    max_iter : int, default=1000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``.
    tol : float or None, default=1e-3
        The stopping rule for data that do not reach a mistake-free epoch
        (:mod:`rosenblatt.base._stopping`): stop once the epoch's mistakes have not fallen
        below the fewest so far by ``tol × n_samples`` for ``n_iter_no_change`` epochs in a row
        (on a9a after 7 to 11 epochs; scikit-learn's after 6 to 9), unless a linear program
        finds the rows separable (checked once, on data of up to 50,000 values), in which case
        the run goes on to the mistake-free epoch the convergence theorem promises. Mistakes,
        unlike the perceptron loss scikit-learn's ``tol`` watches, count an activation of
        exactly 0 and do not change when ``X`` is scaled. ``None``: no such rule (the texts),
        only ``stop_mistake_free`` and ``max_iter``.
    stop_mistake_free : bool, default=True
        Stop after the first epoch without a mistake (Ahmed & Pavlu, and CISC
        271's "missed" flag), whether or not ``tol`` is set; later epochs would
        not change the weights. The texts' separable examples end here with every
        default, so their numbers hold. ``False``: go on to ``max_iter`` (or
        ``tol``'s stop), as Daumé's Algorithm 5 and scikit-learn do: the same
        weights, more epochs.
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
        Mistakes that changed the weights (summed over the problems).
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    Notes
    -----
    With ``shuffle="none"``, zero start and ``eta=1`` it equals scikit-learn's
    ``Perceptron(shuffle=False, tol=None)`` on dense data (scikit-learn's
    sparse path shrinks the intercept step; ours treats CSR exactly as dense),
    epoch for epoch. With ``tol`` the two stop at different epochs: scikit-learn
    watches the perceptron loss, which a mistake at an activation of exactly 0
    does not raise and which scales with ``X``; this rule watches the mistakes.

    References
    ----------
    Rosenblatt (1958); Ahmed & Pavlu, lecture notes, Alg. 1; Daumé III,
    *A Course in Machine Learning*, ch. 4, Alg. 5.

    Examples
    --------
    Ahmed & Pavlu's AND example: converged weights [-4, 3, 2] (bias first), the
    first mistake-free epoch is the 9th.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = Perceptron(shuffle="none").fit(X, y)
    >>> model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_
    ([-4.0], [[3.0, 2.0]], 9)
    """

    _learner_class = PerceptronLearner
